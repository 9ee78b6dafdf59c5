"""Play under a fixed profile: its Markov chain, how long it lasts, what it collects.

* :mod:`tbsg.play.chain`: :func:`~tbsg.play.chain.chain` and
  :class:`~tbsg.play.chain.Chain`, win probabilities, expected steps and rewards, the
  distribution of the game's length (exact, or float with proven bounds).

Tie-breaking among optimal actions (which optimal profile a solution plays) is an engine
algorithm, :mod:`tbsg.engine.tiebreak`, because solutions use it too.
"""
