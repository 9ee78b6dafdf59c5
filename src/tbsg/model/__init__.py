"""What a user writes: a game, and the optional descriptions the engine can use.

* :mod:`tbsg.model.protocol`: the :class:`~tbsg.model.protocol.Game` protocol
  (``initial``, ``player``, ``actions``, ``outcomes``), terminals (:func:`win`,
  :data:`DRAW`, :class:`Terminal`) and the exactness gate every probability and payoff
  passes (:func:`~tbsg.model.protocol.exact`: an ``int`` or a ``Fraction``, never a float);
* :mod:`tbsg.model.arrays`: the optional array form, many states described at once with
  numpy (a fast path for a game that also implements the protocol, checked against it);
* :mod:`tbsg.model.fixed`: a game with some players' strategies fixed, itself a game (what
  :func:`tbsg.evaluate`, :func:`tbsg.best_response` and :func:`tbsg.chain` solve);
* :mod:`tbsg.model.steps`: what one step of play counts (a user's ``count(state, action)``),
  checked like a probability.

The protocol is the definition of a game: everything above this layer sees a game only
through it (or through the array form, which certifying code checks against it).
"""

from tbsg.model.protocol import (
    DRAW,
    Game,
    Player,
    Probability,
    Terminal,
    exact,
    infinite_play_payoff,
    win,
)

__all__ = ["DRAW", "Game", "Player", "Probability", "Terminal", "exact", "infinite_play_payoff", "win"]
