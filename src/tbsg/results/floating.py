"""Float solutions with proven bounds: what a solve returns with ``exact=False``.

A :class:`FloatSolution` holds, for every state, floats ``lower <= v <= upper`` around the
exact value ``v`` to player 0, proven with outward rounding, and answers the queries of
:mod:`tbsg.results.query` from them, as an exact :class:`~tbsg.results.solution.Solution`
does: ``value`` is the midpoint (within ``gap / 2`` of ``v``), ``bounds`` the proven
interval, ``action_values`` the proven interval of each action.

*Player 1's view* (the convention of :mod:`tbsg.model.protocol`). Player 1 receives
``c - v``: in a win-probability game (:attr:`FloatSolution.win_probability`) ``c = 1``, her
own probability of winning, and the bounds ``(1 - upper, 1 - lower)`` are rounded outward
once more (:func:`complement_down`, :func:`complement_up`), so they stay proven; in any
other game ``c = 0`` (zero-sum) and the bounds ``(-upper, -lower)`` are exact negations.
Only in a win-probability game are action bounds clipped to ``[0, 1]``, where every
value lies.

*Float optimal actions.* An action of player 0 is ruled out when its proven upper bound
is below the best proven lower bound among the state's actions (for player 1, who
minimises player 0's payoff: its lower bound above the best upper bound). Every exactly
optimal action survives, so ``optimal_actions`` of a float solution contains those of
the exact solution; when it holds a single action, that action is the unique optimal
one (:meth:`FloatSolution.optimal_actions_certain`). Several survivors may be an exact
tie or a gap too wide to decide: only the exact path tells ties apart. The action
bounds come from the engine's outward-rounded Bellman step
(:func:`tbsg.engine.bellman.action_bounds`), computed once per solution on the first
query. :meth:`FloatSolution.action` plays, at every state, the first action in the
game's order that the bounds do not rule out (the tie rule of :mod:`tbsg.results.query`):
the exact solution's choice wherever the bounds separate its ties from the other actions.
A float tie can only be "not ruled out": an exact tie, or a near-tie the bounds cannot
separate, where the two paths may play different optimal (or near-optimal) actions.

Examples
--------
>>> from fractions import Fraction
>>> import tbsg
>>> from tbsg.games import risk_or_safety
>>> game = risk_or_safety(3)
>>> exact, approx = tbsg.solve(game), tbsg.solve(game, exact=False)
>>> s = (0, 1, 0, 0)                          # one open point, player 0 to move
>>> exact.optimal_actions(s), approx.optimal_actions(s), approx.optimal_actions_certain(s)
(('stop',), ('stop',), True)
>>> lo, hi = approx.action_values(s)["toss"]
>>> lo <= exact.action_values(s)["toss"] == Fraction(61, 99) <= hi
True

Expected totals: player 0 rolls a die, scoring a point per roll, until a six ends play
with a penalty of 3 points, or stops for nothing; rolling is worth ``v = 1 + 5/6 v -
3/6``, that is ``v = 3``, better than stopping (0). Player 1's view is the negation:

>>> from tbsg.testing import RewardTableGame
>>> roll = ((Fraction(1, 6), tbsg.Terminal(-3)), (Fraction(5, 6), 0))
>>> stop = ((1, tbsg.Terminal(0)),)
>>> game = RewardTableGame(players=(0,), moves=((("roll", roll), ("stop", stop)),), rewards=((1, 0),))
>>> fsol = tbsg.solve(game, exact=False)
>>> fsol.win_probability, fsol.optimal_actions()
(False, ('roll',))
>>> lo, hi = fsol.bounds()
>>> lo <= 3 <= hi, fsol.bounds(player=1) == (-hi, -lo)
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from tbsg.engine.bellman import action_bounds
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.floating import scaled_gap
from tbsg.engine.tiebreak import TieBreak, first_choice, tied_states
from tbsg.errors import InvalidArgumentError, UnsupportedError
from tbsg.model.steps import StepFunction
from tbsg.results.html import float_html, float_markdown
from tbsg.results.provenance import Checked, Provenance
from tbsg.results.query import INITIAL, Initial, check_player
from tbsg.results.solution import _Base
from tbsg.results.views import StateMap

__all__ = ["FloatSolution", "complement_down", "complement_up"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)
FloatArray = npt.NDArray[np.float64]

_NEEDS_TIES = ("{}() breaks exact ties between optimal actions, which float bounds cannot tell from "
               "near-ties: solve with exact=True (tbsg.chain(game, solution) gives the length of "
               "play under this solution's own strategy)")


def complement_down(x: float) -> float:
    """A float ``<=`` the exact ``1 - x``, at most one step below the nearest (``x >= 0``).

    ``1 - x`` is exact for ``x >= 1/2`` (Sterbenz) and for multiples of ``2**-53``; else
    the rounded difference moves one step outward.
    """
    y = 1.0 - x
    return y if x >= 0.5 or (x * 2.0**53).is_integer() else max(math.nextafter(y, -math.inf), 0.0)


def complement_up(x: float) -> float:
    """A float ``>=`` the exact ``1 - x``, at most one step above the nearest, and at most
    1 (``x >= 0``)."""
    y = 1.0 - x
    return y if x >= 0.5 or (x * 2.0**53).is_integer() else min(math.nextafter(y, math.inf), 1.0)


def interval_to(lo: float, hi: float, player: int, win_probability: bool = True
                ) -> tuple[float, float]:
    """Proven bounds on a value to player 0, as bounds on its value to ``player``: ``1 -``
    the value in a win-probability game, its negation otherwise (module docstring)."""
    if player == 0:
        return lo, hi
    return (complement_down(hi), complement_up(lo)) if win_probability else (-hi, -lo)


@dataclass(frozen=True, eq=False)
class FloatSolution(_Base[S, A]):
    """Float solution with proven bounds: ``lower <= exact value <= upper`` in every state.

    It answers the queries of :mod:`tbsg.results.query` as an exact
    :class:`~tbsg.results.solution.Solution` does, from the proven bounds (module docstring).

    Attributes
    ----------
    lower, upper : ndarray of float
        The proven bounds of every state, in the order of :attr:`states`.
    tol : float
        Requested bound on ``upper - lower``, relative to ``max(1, |value|)``
        (:attr:`max_relative_gap`).
    sweeps : int
        Value-iteration sweeps performed (summed over levels).
    converged : bool
        Whether every state reached the requested gap.

    Examples
    --------
    >>> import tbsg
    >>> from tbsg.games import risk_or_safety
    >>> fsol = tbsg.solve(risk_or_safety(3), exact=False)
    >>> lo, hi = fsol.bounds()
    >>> lo <= 6 / 11 <= hi, hi - lo <= 1e-12, fsol.optimal_actions()
    (True, True, ('toss',))
    """

    lower: FloatArray
    upper: FloatArray
    choice: npt.NDArray[np.int64]
    tol: float
    sweeps: int
    converged: bool

    exact = False

    def _choice(self) -> npt.NDArray[np.int64]:
        return self.choice

    def bounds(self, state: S | Initial = INITIAL, *, player: int = 0) -> tuple[float, float]:
        """Proven ``(lower, upper)`` bounds on the value of ``state`` to ``player`` (0 by default)."""
        i = self._index(state)
        return interval_to(float(self.lower[i]), float(self.upper[i]), check_player(player),
                           self.win_probability)

    def value(self, state: S | Initial = INITIAL, *, player: int = 0) -> float:
        """Midpoint of the bounds (within ``gap / 2`` of the exact value), to ``player``
        (``1 -`` or minus player 0's: module docstring)."""
        i = self._index(state)
        v = (float(self.lower[i]) + float(self.upper[i])) / 2
        if check_player(player) == 0:
            return v
        return 1.0 - v if self.win_probability else -v

    def value_to_move(self, state: S | Initial = INITIAL) -> float:
        """Midpoint value of ``state`` to the player who moves there."""
        return self.value(state, player=self.player(state))

    def fastest(self, count: StepFunction | None = None) -> TieBreak[S, A]:
        """Not available on float bounds: see :meth:`Solution.fastest`.

        Raises
        ------
        UnsupportedError
            Always: breaking ties needs the exact set of optimal actions, which bounds
            cannot give (a near-tie and a tie look alike).
        """
        raise UnsupportedError(_NEEDS_TIES.format("fastest"))

    def slowest(self, count: StepFunction | None = None) -> TieBreak[S, A]:
        """Not available on float bounds: see :meth:`Solution.slowest` (:meth:`fastest`)."""
        raise UnsupportedError(_NEEDS_TIES.format("slowest"))

    @property
    def max_gap(self) -> float:
        """Largest ``upper - lower`` over all states."""
        return float(np.max(self.upper - self.lower)) if self.n_states else 0.0

    @property
    def max_relative_gap(self) -> float:
        """Largest ``(upper - lower) / max(1, |lower|, |upper|)`` over all states: what
        ``tol`` bounds (:func:`tbsg.engine.floating.scaled_gap`); :attr:`max_gap` in a
        win-probability game."""
        if not self.n_states:
            return 0.0
        return float(np.max(scaled_gap(self.lower, self.upper, self.win_probability)))

    def action(self, state: S | Initial = INITIAL) -> A:
        """The first action at ``state``, in the game's order, that the bounds do not rule out.

        The tie rule of :mod:`tbsg.results.query`: a float tie can only be "not ruled
        out" (an exact tie or a near-tie too close for the proven gap);
        :meth:`optimal_actions` lists every such action.
        """
        return super().action(state)

    @cached_property
    def _action_bounds(self) -> tuple[FloatArray, FloatArray]:
        """Proven bounds on every action's value to player 0 (flat actions), clipped to [0, 1]
        where every value lies there."""
        return _clipped_bounds(self.graph, self.lower, self.upper)

    @cached_property
    def _kept_mask(self) -> npt.NDArray[np.bool_]:
        """Flat actions that the proven bounds cannot rule out (module docstring), every
        state at once; where the mover does not optimise, the played action alone."""
        lo, hi = self._action_bounds
        return not_ruled_out(self.graph, lo, hi, self.choice, self.optimizing)

    def _kept(self, i: int) -> list[int]:
        """Flat actions at state ``i`` that the proven bounds cannot rule out."""
        mask = self._kept_mask
        return [k for k in self.graph.actions_of(i) if mask[k]]

    def tied_states(self) -> int:
        """How many decision states have more than one action not ruled out.

        Each is an exact tie or a gap too narrow to decide (module docstring); the profile
        plays the first of them in the game's order there (:mod:`tbsg.results.query`).
        """
        return tied_states(self.graph, self._kept_mask)

    def optimal_actions(self, state: S | Initial = INITIAL) -> tuple[A, ...]:
        """Every action at ``state`` that the proven bounds cannot rule out, in the game's order.

        A superset of the exactly optimal actions (module docstring); the played action
        alone where the mover does not optimise (evaluations, best responses).
        """
        return tuple(self.graph.act_labels[k] for k in self._kept(self._index(state)))

    def optimal_actions_certain(self, state: S | Initial = INITIAL) -> bool:
        """Whether :meth:`optimal_actions` is exactly the set of optimal actions at ``state``.

        True when the bounds leave a single action (it is then the unique optimal one);
        False when several remain, tied exactly or too close for the proven gap.
        """
        return len(self._kept(self._index(state))) == 1

    def action_bounds(self, state: S | Initial = INITIAL, *,
                      player: int = 0) -> dict[A, tuple[float, float]]:
        """Proven ``(lower, upper)`` bounds on the value to ``player`` of each action at
        ``state`` (play it, then play optimally), in the game's order (a fresh dict)."""
        return self._action_bounds_at(self._index(state), check_player(player))

    def _action_bounds_at(self, i: int, who: int) -> dict[A, tuple[float, float]]:
        lo, hi = self._action_bounds
        labels = self.graph.act_labels
        ks = self.graph.actions_of(i)
        win = self.win_probability
        return {labels[k]: interval_to(float(lo[k]), float(hi[k]), who, win) for k in ks}

    def action_values(self, state: S | Initial = INITIAL, *,
                      player: int = 0) -> dict[A, tuple[float, float]]:
        """The value of each action at ``state`` as the interval the float solution proves:
        the same as :meth:`action_bounds` (a float solution has no exact action values)."""
        return self.action_bounds(state, player=player)

    def action_values_to_move(self, state: S | Initial = INITIAL) -> dict[A, tuple[float, float]]:
        """Proven bounds on the value of each action at ``state`` to the player who moves
        there (as :meth:`action_values`)."""
        i = self._index(state)
        return self._action_bounds_at(i, int(self.graph.player[i]))

    @property
    def values(self) -> Mapping[S, float]:
        """Mapping from every non-terminal state to its midpoint value to player 0."""
        lower, upper = self.lower, self.upper
        return StateMap(self.graph, lambda i: (float(lower[i]) + float(upper[i])) / 2, "values")

    @property
    def values_bounds(self) -> Mapping[S, tuple[float, float]]:
        """Mapping from every non-terminal state to its proven ``(lower, upper)`` to player 0."""
        lower, upper = self.lower, self.upper
        return StateMap(self.graph, lambda i: (float(lower[i]), float(upper[i])), "value bounds")

    def provenance(self, verification: Checked | None = None) -> Provenance:
        """The lines a methods section needs (see :meth:`Solution.provenance`).

        A float solution carries no certificate: its bounds are proven as they are
        computed, so ``verification`` must be ``None``.

        Examples
        --------
        >>> import tbsg
        >>> from tbsg.games import risk_or_safety
        >>> p = tbsg.solve(risk_or_safety(3), exact=False).provenance()
        >>> p.arithmetic, p.states, p.converged
        ('float64 with proven bounds (outward rounding)', 36, True)
        """
        if verification is not None:
            raise InvalidArgumentError("a FloatSolution has no certificate to report: its bounds are "
                                       "proven as they are computed (verification must be None)")
        lo, hi = self.bounds()
        return self._provenance(f"in [{lo!r}, {hi!r}]", "float64 with proven bounds (outward rounding)",
                                None, tol=self.tol, max_gap=self.max_gap, converged=self.converged)

    def __repr__(self) -> str:
        lo, hi = self.bounds()
        return (f"FloatSolution(value in [{lo:.15g}, {hi:.15g}], states={self.n_states}, "
                f"components={self.n_components}, largest={self.largest_component}, "
                f"max_gap={self.max_gap:.2g}, converged={self.converged}, "
                f"seconds={self.seconds:.3g})")

    def _repr_markdown_(self) -> str:
        return float_markdown(self, *self.bounds())

    def _repr_html_(self) -> str:
        return float_html(self, *self.bounds())


def not_ruled_out(graph: CompiledGame[S, A], lo: FloatArray, hi: FloatArray,
                  choice: npt.NDArray[np.int64], optimizing: tuple[int, ...]) -> npt.NDArray[np.bool_]:
    """Mask of the flat actions whose proven bounds ``lo``, ``hi`` do not rule them out.

    Player 0's action survives when its upper bound reaches the best lower bound of its
    state, player 1's when its lower bound is at most the best upper bound; at the states
    of a player not in ``optimizing`` only the played action ``choice`` does.
    """
    starts = graph.act_ptr[:-1]  # every state has an action (compile checks it)
    counts = np.diff(graph.act_ptr)
    maximiser = np.repeat(graph.player == 0, counts)
    kept = np.where(maximiser, hi >= np.repeat(np.maximum.reduceat(lo, starts), counts),
                    lo <= np.repeat(np.minimum.reduceat(hi, starts), counts))
    fixed = ~np.isin(graph.player, optimizing)
    if fixed.any():
        kept[fixed[graph.act_state]] = False
        kept[choice[fixed]] = True
    return np.asarray(kept, dtype=bool)


def rule_choice(graph: CompiledGame[S, A], lower: FloatArray, upper: FloatArray,
                choice: npt.NDArray[np.int64], optimizing: tuple[int, ...]) -> npt.NDArray[np.int64]:
    """The tie rule on float bounds: at every state the first action, in the game's order,
    that the bounds ``lower <= v <= upper`` do not rule out (:mod:`tbsg.results.query`)."""
    if graph.n_actions == graph.n_states:  # one action per state: nothing to choose
        return choice
    lo, hi = _clipped_bounds(graph, lower, upper)
    return first_choice(graph, not_ruled_out(graph, lo, hi, choice, optimizing), choice)


def _clipped_bounds(graph: CompiledGame[S, A], lower: FloatArray, upper: FloatArray
                    ) -> tuple[FloatArray, FloatArray]:
    """Proven bounds on every action's value to player 0 (flat actions), clipped to [0, 1]
    where every value lies there."""
    lo, hi = action_bounds(graph, lower, upper)
    if not graph.win_probability:
        return lo, hi
    return np.maximum(lo, 0.0), np.minimum(hi, 1.0)
