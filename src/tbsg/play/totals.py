"""Expected totals over play: steps, rewards and visits.

Each is the expected sum, over the steps of play until it ends, of a quantity ``b(s)``
collected at each state: ``count(s, sigma(s))`` for the number of counted steps, any
rational ``reward(s, sigma(s))``, or the indicator of one state for its number of visits.
It solves ``x = b + P x`` (:mod:`tbsg.play.system`), exactly or with proven float bounds,
and raises :class:`~tbsg.errors.InfiniteExpectationError` where play may be trapped and
keep collecting.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tbsg.engine.compiled import CompiledGame
from tbsg.engine.markov import ChainStructure
from tbsg.errors import InvalidArgumentError, show
from tbsg.model.steps import StepFunction
from tbsg.play.system import Bounds, diverging, exact_total, float_total, steps

__all__ = ["expected_reward", "expected_steps", "total", "visits"]


def total(graph: CompiledGame[Any, Any], st: ChainStructure, b: list[Fraction], what: str, start: int,
          exact: bool) -> Fraction | Bounds:
    """Expected total of ``b`` from state ``start`` (finite, or an error), exact or bounds."""
    given = diverging(graph, st, b, what, start)
    if exact:
        return exact_total(graph, st, b, given, start)
    return float_total(graph, b, dict.fromkeys(given, Fraction(0)), start, st)


def _nonnegative(x: Fraction | Bounds) -> Fraction | Bounds:
    """A total of nonnegative terms: its lower bound clipped at 0."""
    return (max(x[0], 0.0), x[1]) if isinstance(x, tuple) else x


def expected_steps(graph: CompiledGame[Any, Any], st: ChainStructure, count: StepFunction | None,
                   start: int, exact: bool) -> Fraction | Bounds:
    """Expected number of counted steps from ``start`` until play ends."""
    c = steps(graph, count, "count", nonnegative=True)
    return _nonnegative(total(graph, st, c, "count", start, exact))


def expected_reward(graph: CompiledGame[Any, Any], st: ChainStructure, reward: StepFunction,
                    start: int, exact: bool) -> Fraction | Bounds:
    """Expected total of ``reward(state, action)`` from ``start`` over the steps of play."""
    if reward is None:
        raise InvalidArgumentError("reward must be a function of (state, action); for the "
                                   "number of steps use expected_steps()")
    return total(graph, st, steps(graph, reward, "reward"), "reward", start, exact)


def visits(graph: CompiledGame[Any, Any], st: ChainStructure, target: int, start: int,
           exact: bool, shown: object) -> Fraction | Bounds:
    """Expected number of visits to the state ``target`` from ``start`` (the start counts);
    ``shown`` is the target as the caller named it, for messages."""
    b = [Fraction(0)] * graph.n_states
    b[target] = Fraction(1)
    what = f"number of visits to {show(shown)}"
    return _nonnegative(total(graph, st, b, what, start, exact))
