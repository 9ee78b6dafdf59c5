"""Result objects: immutable solutions that answer questions about states.

Values are *expected payoff to player 0* (P(player 0 wins) when there are no draws);
``value(state, player=1)`` gives player 1's view (``1 - v``) and
:meth:`Solution.value_to_move` the view of the player who moves at ``state``.

Every solution records what it is in :attr:`~Solution.kind` (a :class:`SolutionKind`):
the optimal play of both players (:func:`tbsg.solve`), a fixed profile
(:func:`tbsg.evaluate`) or one player's best response to the other's fixed strategy
(:func:`tbsg.best_response`). The players who optimise are :attr:`~Solution.optimizing`;
the others play the solution's strategy, and :func:`tbsg.verify` checks the certificate of
that kind. ``method`` is prose for readers; code reads ``kind``.
"""

from __future__ import annotations

import html
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from fractions import Fraction
from typing import Generic, TypeVar

import numpy as np
import numpy.typing as npt

from tbsg._digits import short_fraction
from tbsg.engine import _backend as bk
from tbsg.engine._backend import Rational
from tbsg.engine.bellman import exact_action_values
from tbsg.engine.compiled import CompiledGame
from tbsg.errors import InvalidArgumentError, InvalidGameError, UnknownStateError, show

__all__ = ["FloatSolution", "Solution", "SolutionKind"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)


class _Initial(Enum):
    """Default for the ``state`` argument: the game's initial state (``None`` may be a state)."""

    INITIAL = 0

    def __repr__(self) -> str:
        return "<initial state>"


_INITIAL = _Initial.INITIAL


class SolutionKind(StrEnum):
    """What a solution is (stable, machine-readable; saved in solution files).

    Examples
    --------
    >>> SolutionKind("best_response"), str(SolutionKind.SOLVE)
    (<SolutionKind.BEST_RESPONSE: 'best_response'>, 'solve')
    """

    SOLVE = "solve"
    """Both players optimal (:func:`tbsg.solve`)."""
    EVALUATE = "evaluate"
    """Both players follow a given profile (:func:`tbsg.evaluate`)."""
    BEST_RESPONSE = "best_response"
    """One player optimal against the other's fixed strategy (:func:`tbsg.best_response`)."""

    @staticmethod
    def of(optimizing: tuple[int, ...]) -> SolutionKind:
        """The kind of a solution in which the players ``optimizing`` optimise."""
        if optimizing == (0, 1):
            return SolutionKind.SOLVE
        if optimizing == ():
            return SolutionKind.EVALUATE
        if optimizing in ((0,), (1,)):
            return SolutionKind.BEST_RESPONSE
        raise InvalidArgumentError(f"optimizing must be (0, 1), (0,), (1,) or (), got {optimizing!r}")


def _player(player: object) -> int:
    """A ``player`` argument: 0 or 1 (numpy integers accepted), else an error."""
    if not isinstance(player, bool) and isinstance(player, (int, np.integer)) and int(player) in (0, 1):
        return int(player)
    raise InvalidArgumentError(f"player must be 0 or 1, got {show(player)}")


class _StrategyView(Mapping[S, A]):
    """Read-only mapping state -> chosen action (no dict copy of large games)."""

    def __init__(self, graph: CompiledGame[S, A], choice: npt.NDArray[np.int64]) -> None:
        self._g, self._choice = graph, choice

    def __getitem__(self, state: S) -> A:
        i = self._g.index.get(state)
        if i is None:
            raise KeyError(state)
        return self._g.act_labels[int(self._choice[i])]

    def __iter__(self) -> Iterator[S]:
        return iter(self._g.states)

    def __len__(self) -> int:
        return self._g.n_states

    def __repr__(self) -> str:
        return f"<strategy of {self._g.n_states} states>"


class _ValueView(Mapping[S, Fraction]):
    """Read-only mapping state -> exact value, converted to Fraction on access."""

    def __init__(self, graph: CompiledGame[S, A], values: list[Rational]) -> None:
        self._g, self._v = graph, values

    def __getitem__(self, state: S) -> Fraction:
        i = self._g.index.get(state)
        if i is None:
            raise KeyError(state)
        return bk.to_fraction(self._v[i])

    def __iter__(self) -> Iterator[S]:
        return iter(self._g.states)

    def __len__(self) -> int:
        return self._g.n_states

    def __repr__(self) -> str:
        return f"<values of {self._g.n_states} states>"


class _FractionValues(Sequence[Fraction]):
    """Backend values seen as Fractions, converted on access (no copy)."""

    def __init__(self, values: list[Rational]) -> None:
        self._v = values

    def __len__(self) -> int:
        return len(self._v)

    def __getitem__(self, i: int) -> Fraction:  # type: ignore[override]
        return bk.to_fraction(self._v[i])


@dataclass(frozen=True, eq=False)
class _Base(Generic[S, A]):
    graph: CompiledGame[S, A]
    method: str
    seconds: float
    n_components: int
    largest_component: int
    game: object = field(default=None, kw_only=True, repr=False)
    """The game object that was solved (``None`` when built without one)."""
    infinite_play: Fraction | None = field(default=None, kw_only=True)
    """Payoff to player 0 of never-ending play the solution was computed with; ``None``:
    the game had to stop (see ``tbsg.solve(..., infinite_play=)``)."""
    optimizing: tuple[int, ...] = field(default=(0, 1), kw_only=True)
    """The players who optimise: ``(0, 1)`` for :func:`tbsg.solve`, ``()`` for
    :func:`tbsg.evaluate`, ``(p,)`` for :func:`tbsg.best_response` of player ``p``."""

    @property
    def kind(self) -> SolutionKind:
        """What the solution is: ``"solve"``, ``"evaluate"`` or ``"best_response"``."""
        return SolutionKind.of(self.optimizing)

    @property
    def n_states(self) -> int:
        """Number of reachable non-terminal states."""
        return self.graph.n_states

    @property
    def initial(self) -> S:
        """The initial state of the game."""
        return self.graph.states[0]

    @property
    def states(self) -> list[S]:
        """All reachable states, the initial one first (a copy)."""
        return list(self.graph.states)

    def _index(self, state: S | _Initial) -> int:
        if state is _INITIAL:
            return 0
        try:
            i = self.graph.index.get(state)
        except TypeError as exc:
            raise InvalidGameError(f"state {show(state)} is not hashable") from exc
        except Exception as exc:  # a user __hash__ or __eq__ that raises
            raise InvalidGameError(f"looking up state {show(state)} raised {type(exc).__name__}") from exc
        if i is None:
            raise UnknownStateError(
                f"state {show(state)} is not reachable from the initial state "
                f"{show(self.graph.states[0])} (the solution covers {self.n_states} states)")
        return i

    def player(self, state: S | _Initial = _INITIAL) -> int:
        """Who moves at ``state``."""
        return int(self.graph.player[self._index(state)])


@dataclass(frozen=True, eq=False)
class Solution(_Base[S, A]):
    """Exact solution: values as Fractions, the chosen strategy and every optimal action.

    Attributes
    ----------
    method : str
        How it was computed.
    seconds : float
        Wall time of the solve (compilation included).
    n_components, largest_component : int
        Strongly connected components of the state graph and the size of the largest.
    improvements : int
        Strategy switches made by exact strategy iteration.
    exact_solves : int
        Exact linear systems solved.
    """

    values_exact: list[Rational]
    choice: npt.NDArray[np.int64]
    optimal: npt.NDArray[np.bool_]
    improvements: int
    exact_solves: int

    exact = True

    def value(self, state: S | _Initial = _INITIAL, *, player: int = 0) -> Fraction:
        """Exact value of ``state`` (initial by default) to ``player`` (0 by default)."""
        v = bk.to_fraction(self.values_exact[self._index(state)])
        return v if _player(player) == 0 else 1 - v

    def value_to_move(self, state: S | _Initial = _INITIAL) -> Fraction:
        """Value of ``state`` to the player who moves there."""
        return self.value(state, player=self.player(state))

    def action(self, state: S | _Initial = _INITIAL) -> A:
        """The action the solution's strategy plays at ``state`` (an optimal one)."""
        return self.graph.act_labels[int(self.choice[self._index(state)])]

    def optimal_actions(self, state: S | _Initial = _INITIAL) -> tuple[A, ...]:
        """Every action that is exactly optimal at ``state`` (exact ties included)."""
        i = self._index(state)
        return tuple(self.graph.act_labels[k] for k in self.graph.actions_of(i)
                     if self.optimal[k])

    def action_values(self, state: S | _Initial = _INITIAL) -> dict[A, Fraction]:
        """Exact value to player 0 of each action at ``state`` (a fresh dict)."""
        i = self._index(state)
        g = self.graph
        ks = g.actions_of(i)
        q = exact_action_values(g, _FractionValues(self.values_exact), ks)
        return {g.act_labels[k]: x for k, x in zip(ks, q, strict=True)}

    @property
    def strategy(self) -> Mapping[S, A]:
        """Mapping from every non-terminal state to its chosen action (both players)."""
        return _StrategyView(self.graph, self.choice)

    @property
    def values(self) -> Mapping[S, Fraction]:
        """Mapping from every non-terminal state to its exact value to player 0."""
        return _ValueView(self.graph, self.values_exact)

    def __repr__(self) -> str:
        v = self.value()
        shown = short_fraction(v, 40)
        return (f"Solution(value={shown} ≈ {float(v):.12g}, exact, states={self.n_states}, "
                f"components={self.n_components}, largest={self.largest_component}, "
                f"method={self.method!r}, seconds={self.seconds:.3g})")

    def _repr_markdown_(self) -> str:
        v = self.value()
        return (f"**tbsg exact solution** — value to player 0: `{short_fraction(v, 200)}` ≈ "
                f"{float(v):.12g}  \n"
                f"{self.n_states} states, {self.n_components} components (largest "
                f"{self.largest_component}), {self.method}, {self.seconds:.3g} s")

    def _repr_html_(self) -> str:
        v = self.value()
        exact = html.escape(short_fraction(v, 200))
        return _html_table("tbsg exact solution", [
            ("value to player 0", f"<code>{exact}</code> ≈ {float(v):.15g}"),
            ("initial state", html.escape(repr(self.initial))),
            ("states / components / largest",
             f"{self.n_states} / {self.n_components} / {self.largest_component}"),
            ("method", html.escape(self.method)), ("seconds", f"{self.seconds:.3g}")])


@dataclass(frozen=True, eq=False)
class FloatSolution(_Base[S, A]):
    """Float solution with proven bounds: ``lower <= exact value <= upper`` in every state.

    Attributes
    ----------
    tol : float
        Requested bound on ``upper - lower``.
    sweeps : int
        Value-iteration sweeps performed (summed over levels).
    converged : bool
        Whether every state reached the requested gap.
    """

    lower: npt.NDArray[np.float64]
    upper: npt.NDArray[np.float64]
    choice: npt.NDArray[np.int64]
    tol: float
    sweeps: int
    converged: bool

    exact = False

    def bounds(self, state: S | _Initial = _INITIAL) -> tuple[float, float]:
        """Proven ``(lower, upper)`` bounds on the value of ``state`` to player 0."""
        i = self._index(state)
        return float(self.lower[i]), float(self.upper[i])

    def value(self, state: S | _Initial = _INITIAL, *, player: int = 0) -> float:
        """Midpoint of the bounds (within ``gap / 2`` of the exact value)."""
        lo, hi = self.bounds(state)
        v = (lo + hi) / 2
        return v if _player(player) == 0 else 1.0 - v

    @property
    def max_gap(self) -> float:
        """Largest ``upper - lower`` over all states."""
        return float(np.max(self.upper - self.lower)) if self.n_states else 0.0

    def action(self, state: S | _Initial = _INITIAL) -> A:
        """Greedy action against the midpoint values."""
        return self.graph.act_labels[int(self.choice[self._index(state)])]

    @property
    def strategy(self) -> Mapping[S, A]:
        """Mapping from every state to the greedy action."""
        return _StrategyView(self.graph, self.choice)

    def __repr__(self) -> str:
        lo, hi = self.bounds()
        return (f"FloatSolution(value in [{lo:.15g}, {hi:.15g}], states={self.n_states}, "
                f"components={self.n_components}, largest={self.largest_component}, "
                f"max_gap={self.max_gap:.2g}, converged={self.converged}, "
                f"seconds={self.seconds:.3g})")

    def _repr_markdown_(self) -> str:
        lo, hi = self.bounds()
        return (f"**tbsg float solution** — value to player 0 in [{lo:.15g}, {hi:.15g}] "
                f"(proven bounds)  \n{self.n_states} states, {self.n_components} components, "
                f"max gap {self.max_gap:.2g}, converged: {self.converged}, {self.seconds:.3g} s")

    def _repr_html_(self) -> str:
        lo, hi = self.bounds()
        return _html_table("tbsg float solution (proven bounds)", [
            ("value to player 0", f"[{lo:.15g}, {hi:.15g}]"),
            ("initial state", html.escape(repr(self.initial))),
            ("states / components / largest",
             f"{self.n_states} / {self.n_components} / {self.largest_component}"),
            ("max gap / tolerance / converged", f"{self.max_gap:.2g} / {self.tol:.2g} / {self.converged}"),
            ("method", html.escape(self.method)), ("seconds", f"{self.seconds:.3g}")])


def _html_table(title: str, rows: list[tuple[str, str]]) -> str:
    body = "".join(f"<tr><th style='text-align:left'>{k}</th><td>{v}</td></tr>" for k, v in rows)
    return f"<table><caption>{html.escape(title)}</caption>{body}</table>"
