"""The front doors: :func:`solve`, :func:`evaluate` and :func:`best_response`.

Each compiles the game (:mod:`tbsg.engine.compile`), decomposes it into components
(:mod:`tbsg.engine.graph`), runs a solver of :mod:`tbsg.engine` and wraps the numbers in a
result of :mod:`tbsg.results`. :func:`tbsg.chain` (a fixed profile's Markov chain) is the
front door of :mod:`tbsg.play`.
"""

from tbsg.api.solving import best_response, evaluate, solve

__all__ = ["best_response", "evaluate", "solve"]
