"""The fastest and the slowest optimal play: a secondary objective among exact ties.

Many positions have several optimal actions (exact ties, which an exact solution knows
and a float solution cannot tell from near-ties). Every profile that plays, at every
state, one of the state's optimal actions is a pair of optimal strategies in a stopping
game (:mod:`tbsg.engine.markov`). Among them, :meth:`tbsg.Solution.fastest` finds one that
makes play shortest in expectation and :meth:`tbsg.Solution.slowest` one that makes it
longest, where a step counts what ``count(state, action)`` says.

What is assumed of the players: both keep to optimal actions (so neither gives up any of
the main objective, the winning chance, or in a reward game the expected total payoff)
and both pursue the same secondary goal, as if cooperating to end the game quickly (or
to prolong it). The tie-break is then a Markov decision process over the optimal
actions, solved exactly by policy iteration; the chosen profile's winning chances are
recomputed from scratch and checked to equal the solution's values at every state.

Examples
--------
Coinball with 4 tosses has many exact ties between "rush" and "pass"; how many passes
do the optimal profiles call, at fewest and at most (both players agreeing)?

>>> import tbsg
>>> from tbsg.games import coinball
>>> sol = tbsg.solve(coinball(4))
>>> passes = lambda s, a: 1 if a == "pass" else 0
>>> sol.fastest(passes).expected, sol.slowest(passes).expected
(Fraction(5, 8), Fraction(27, 8))
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, Literal, TypeVar

import numpy as np
import numpy.typing as npt

from tbsg.engine import _backend as bk
from tbsg.engine._backend import Rational
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.graph import end_components
from tbsg.engine.markov import extreme_profile, restrict, solve_chain, structure
from tbsg.errors import InvalidArgumentError, TbsgError, UnknownStateError, UnsupportedError, show
from tbsg.model.steps import StepFunction, step_values

__all__ = ["TieBreak", "first_choice", "tie_break", "tied_states"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

Direction = Literal["fastest", "slowest"]


@dataclass(frozen=True, eq=False)
class TieBreak(Generic[S, A]):
    """An optimal profile that makes play fastest (or slowest) in expectation.

    Attributes
    ----------
    direction : "fastest" or "slowest"
    expected : Fraction
        Expected counted length of play from the initial state under :attr:`strategy`.
    game_value : Fraction
        The profile's value to player 0 from the initial state: checked equal to the
        solution's value at every state.
    """

    direction: Direction
    expected: Fraction
    game_value: Fraction
    graph: CompiledGame[S, A] = field(repr=False)
    choice: npt.NDArray[np.int64] = field(repr=False)
    lengths: Sequence[Rational] = field(repr=False)

    @property
    def strategy(self) -> Mapping[S, A]:
        """The profile: the action played at every state of the solution."""
        return _Profile(self.graph, self.choice)

    def expected_from(self, state: S) -> Fraction:
        """Expected counted length of play from ``state`` under :attr:`strategy`."""
        return bk.to_fraction(self.lengths[_lookup(self.graph, state)])


def _lookup(graph: CompiledGame[S, A], state: S) -> int:
    try:
        i = graph.index.get(state)
    except TypeError as exc:
        raise InvalidArgumentError(f"state {show(state)} is not hashable") from exc
    if i is None:
        raise UnknownStateError(f"state {show(state)} is not a state of the solution")
    return i


class _Profile(Mapping[S, A]):
    """Read-only mapping state -> action of a choice array."""

    def __init__(self, graph: CompiledGame[S, A], choice: npt.NDArray[np.int64]) -> None:
        self._graph = graph
        self._choice = choice

    def __getitem__(self, state: S) -> A:
        return self._graph.act_labels[int(self._choice[_lookup(self._graph, state)])]

    def __iter__(self) -> Iterator[S]:
        return iter(self._graph.states)

    def __len__(self) -> int:
        return self._graph.n_states


def first_choice(graph: CompiledGame[S, A], mask: npt.NDArray[np.bool_],
                 choice: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The tie rule: at every state the first flat action in ``mask``, in the game's order.

    Flat actions are numbered state by state in the order ``game.actions`` gave them, so
    the first masked action of a state is the lowest masked number. States with no action
    in ``mask`` keep ``choice`` (a fresh array is returned).
    """
    acts = np.flatnonzero(mask)
    states = graph.act_state[acts]
    first = np.ones(len(acts), dtype=bool)
    first[1:] = states[1:] != states[:-1]  # flat actions are sorted by state
    out = np.array(choice, dtype=np.int64, copy=True)
    out[states[first]] = acts[first]
    return out


def tied_states(graph: CompiledGame[S, A], mask: npt.NDArray[np.bool_]) -> int:
    """How many states have more than one action in ``mask`` (the tied decision states)."""
    per_state = np.bincount(graph.act_state[mask], minlength=graph.n_states)
    return int(np.count_nonzero(per_state > 1))


def tie_break(graph: CompiledGame[S, A], optimal: npt.NDArray[np.bool_], values: Sequence[Rational],
              count: StepFunction | None, direction: Direction,
              optimizing: tuple[int, ...] = (0, 1)) -> TieBreak[S, A]:
    """The fastest or slowest profile over the ``optimal`` actions of a solved game.

    Parameters
    ----------
    graph, optimal, values
        A solution's graph, mask of optimal flat actions and exact values.
    count : callable or None
        What a step counts (``None``: 1 per move), an int or Fraction >= 0.
    direction : "fastest" or "slowest"
    optimizing : tuple of int
        The players who optimised; the others play the solution's (only optimal) action.
    """
    # stopping under every strategy of the optimising players, the others' actions fixed
    free = np.isin(graph.player[graph.act_state], optimizing)
    if end_components(graph, free | optimal).count:
        raise UnsupportedError(
            "fastest() and slowest() need a stopping game: in this one the players can keep "
            "play going forever, and optimal actions need not combine into optimal profiles")
    sub = restrict(graph, optimal)
    acts = np.flatnonzero(optimal)
    steps = list(zip(sub.act_state.tolist(), acts.tolist(), strict=True))
    cost = [bk.from_fraction(x) for x in step_values(count, "count", graph.states, graph.act_labels,
                                                      steps, nonnegative=True)]
    lengths, sub_choice = extreme_profile(sub, cost, minimise=direction == "fastest")
    choice = acts[sub_choice]
    # the main objective, recomputed from scratch under the chosen profile
    mask = np.zeros(graph.n_actions, dtype=bool)
    mask[choice] = True
    chain = restrict(graph, mask)
    won = solve_chain(chain, structure(chain).comps, [bk.from_fraction(x) for x in chain.act_const], {})
    for i, (v, w) in enumerate(zip(values, won, strict=True)):
        if v != w:
            raise TbsgError(
                f"internal error: the {direction} profile's value at state {show(graph.states[i])} "
                f"is {show(bk.to_fraction(w))}, not the solution's {show(bk.to_fraction(v))}; "
                "please report it")
    return TieBreak(direction=direction, expected=bk.to_fraction(lengths[0]),
                    game_value=bk.to_fraction(won[0]), graph=graph, choice=choice, lengths=lengths)
