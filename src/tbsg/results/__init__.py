"""Result objects: immutable solutions that answer questions about states.

Values are *expected payoff to player 0* (P(player 0 wins) when there are no draws);
``value(state, player=1)`` gives player 1's view (``1 - v``) and
:meth:`Solution.value_to_move` the view of the player who moves at ``state``.

One query API
-------------
An exact :class:`Solution` and a float :class:`FloatSolution` answer the same questions
with the same methods, so code written for one runs on the other:

=============================  =====================================  =====================================
method                         :class:`Solution` (exact)              :class:`FloatSolution` (proven bounds)
=============================  =====================================  =====================================
``value(s, player=0)``         ``Fraction``                           midpoint of the bounds (``float``)
``value_to_move(s)``           ``Fraction``                           midpoint, mover's view
``bounds(s, player=0)``        ``(v, v)``                             proven ``(lower, upper)``
``action(s)``                  an optimal action (the strategy's)     the strategy's action (below)
``optimal_actions(s)``         every exactly optimal action           every action the bounds cannot rule out
``optimal_actions_certain(s)`` always ``True``                        ``True`` when that is one action
``action_values(s)``           ``{action: Fraction}``                 ``{action: (lower, upper)}``
``action_bounds(s)``           ``{action: (q, q)}``                   ``{action: (lower, upper)}``
``values``, ``values_bounds``  mappings over every state              the same
``strategy``                   mapping state -> ``action(s)``         the same
``provenance()``               what a methods section quotes          the same
=============================  =====================================  =====================================

Numbers handed out are ``fractions.Fraction`` (exact) or Python ``float``, never a type
of the arithmetic backend. ``bounds``, ``action_values`` and ``action_bounds`` take
``player=`` like ``value``; player 1's float bounds are rounded outward again, so they
stay proven.

*Float optimal actions.* An action of player 0 is ruled out when its proven upper bound
is below the best proven lower bound among the state's actions (for player 1, who
minimises player 0's payoff: its lower bound above the best upper bound). Every exactly
optimal action survives, so ``optimal_actions`` of a float solution contains those of
the exact solution; when it holds a single action, that action is the unique optimal
one (:meth:`FloatSolution.optimal_actions_certain`). Several survivors may be an exact
tie or a gap too wide to decide: only the exact path tells ties apart. The action
bounds come from the engine's outward-rounded Bellman step
(:func:`tbsg.engine.bellman.action_bounds`), computed once per solution on the first
query. :meth:`FloatSolution.action` is the solver's strategy (greedy against the
midpoints): it loses at most the largest gap of its successors against optimal play.

Every solution records what it is in :attr:`~Solution.kind` (a :class:`SolutionKind`):
the optimal play of both players (:func:`tbsg.solve`), a fixed profile
(:func:`tbsg.evaluate`) or one player's best response to the other's fixed strategy
(:func:`tbsg.best_response`). The players who optimise are :attr:`~Solution.optimizing`;
the others play the solution's strategy (their only "optimal" action is that one), and
:func:`tbsg.verify` checks the certificate of that kind. ``method`` is prose for
readers; code reads ``kind``.

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
>>> exact.action_values(s)
{'toss': Fraction(61, 99), 'stop': Fraction(7, 11)}
>>> lo, hi = approx.action_values(s)["toss"]
>>> lo <= Fraction(61, 99) <= hi
True
"""

from __future__ import annotations

import hashlib
import html
import math
import platform
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, overload

import numpy as np
import numpy.typing as npt

from tbsg._util.digits import REPR_CHARS, abbreviate, decimal_text, fraction_text, shown_value, text_size
from tbsg._version import __version__
from tbsg.engine import _backend as bk
from tbsg.engine._backend import Rational
from tbsg.engine.bellman import action_bounds, exact_action_values
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.fingerprint import graph_hash
from tbsg.engine.tiebreak import TieBreak, tie_break
from tbsg.errors import InvalidArgumentError, InvalidGameError, UnknownStateError, UnsupportedError, show
from tbsg.model.steps import StepFunction

__all__ = ["FloatSolution", "Provenance", "Solution", "SolutionKind"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)
V = TypeVar("V")
V_co = TypeVar("V_co", covariant=True)
FloatArray = npt.NDArray[np.float64]

_NEEDS_TIES = ("{}() breaks exact ties between optimal actions, which float bounds cannot tell from "
               "near-ties: solve with exact=True (tbsg.chain(game, solution) gives the length of "
               "play under this solution's own strategy)")


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
    if type(player) is int and 0 <= player <= 1:  # the common case, without abstract isinstance checks
        return player
    if not isinstance(player, bool) and isinstance(player, (int, np.integer)) and int(player) in (0, 1):
        return int(player)
    raise InvalidArgumentError(f"player must be 0 or 1, got {show(player)}")


def _down(x: float) -> float:
    """A float ``<=`` the exact ``1 - x``, at most one step below the nearest (``x >= 0``).

    ``1 - x`` is exact for ``x >= 1/2`` (Sterbenz) and for multiples of ``2**-53``; else
    the rounded difference moves one step outward.
    """
    y = 1.0 - x
    return y if x >= 0.5 or (x * 2.0**53).is_integer() else max(math.nextafter(y, -math.inf), 0.0)


def _up(x: float) -> float:
    """A float ``>=`` the exact ``1 - x``, at most one step above the nearest, and at most
    1 (``x >= 0``)."""
    y = 1.0 - x
    return y if x >= 0.5 or (x * 2.0**53).is_integer() else min(math.nextafter(y, math.inf), 1.0)


def _interval(lo: float, hi: float, player: int) -> tuple[float, float]:
    """Proven bounds on a value to player 0, as bounds on its value to ``player``."""
    return (lo, hi) if player == 0 else (_down(hi), _up(lo))


# --- read-only views -------------------------------------------------------------------------

class _StateMap(Mapping[S, V]):
    """Read-only mapping over every state of a solution, computed on access (no dict copy)."""

    def __init__(self, graph: CompiledGame[S, Any], get: _Getter[V], what: str) -> None:
        self._g, self._get, self._what = graph, get, what

    def __getitem__(self, state: S) -> V:
        try:
            i = self._g.index.get(state)
        except TypeError:  # unhashable: not a state
            raise KeyError(state) from None
        if i is None:
            raise KeyError(state)
        return self._get(i)

    def __iter__(self) -> Iterator[S]:
        return iter(self._g.states)

    def __len__(self) -> int:
        return self._g.n_states

    def __repr__(self) -> str:
        return f"<{self._what} of {self._g.n_states} states>"


class _Getter(Protocol[V_co]):  # a function of a state's index
    def __call__(self, i: int, /) -> V_co: ...


class _FractionValues(Sequence[Fraction]):
    """The stored values of a :class:`Solution`, seen as Fractions (converted on access, no copy).

    Compares equal to any sequence of equal numbers, e.g. a list of Fractions.
    """

    __hash__ = None  # type: ignore[assignment]  # mutable-looking like a list: unhashable

    def __init__(self, values: Sequence[Rational]) -> None:
        self.raw = values

    def __len__(self) -> int:
        return len(self.raw)

    @overload
    def __getitem__(self, i: int) -> Fraction: ...
    @overload
    def __getitem__(self, i: slice) -> list[Fraction]: ...
    def __getitem__(self, i: int | slice) -> Fraction | list[Fraction]:
        if isinstance(i, slice):
            return [bk.to_fraction(x) for x in self.raw[i]]
        return bk.to_fraction(self.raw[i])

    def __iter__(self) -> Iterator[Fraction]:
        return map(bk.to_fraction, self.raw)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _FractionValues):
            other = other.raw
        if not isinstance(other, Sequence) or isinstance(other, str) or len(other) != len(self):
            return NotImplemented if not isinstance(other, Sequence) else False
        return all(x == y for x, y in zip(self.raw, other, strict=True))

    def __repr__(self) -> str:
        return f"<{len(self)} exact values (Fraction)>"


class _ExactValues:
    """Descriptor of :attr:`Solution.values_exact`.

    Stores what the solver (or a caller of ``Solution(...)`` / ``dataclasses.replace``)
    passes, in the exact backend's type, and hands out a :class:`_FractionValues` view,
    so users never receive a backend number. ``_raw_values`` is the stored list, for the
    library's own fast paths (the certificate, which skips a gcd for GMP values).
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self._slot = f"_{name}"

    def __get__(self, obj: object | None, owner: type | None = None) -> Sequence[Fraction]:
        if obj is None:  # the dataclass asks for a default: there is none
            raise AttributeError(self._slot)
        return _FractionValues(obj.__dict__[self._slot])

    def __set__(self, obj: object, value: Sequence[Rational]) -> None:
        obj.__dict__[self._slot] = value.raw if isinstance(value, _FractionValues) else value


# --- provenance ----------------------------------------------------------------------------------

class _Checked(Protocol):
    """What :meth:`Solution.provenance` reads from a :class:`tbsg.Verification`."""

    @property
    def states(self) -> int: ...
    @property
    def actions(self) -> int: ...
    @property
    def kind(self) -> SolutionKind: ...
    @property
    def infinite_play(self) -> Fraction | None: ...
    @property
    def solution_sha256(self) -> str: ...


def solution_digest(solution: Solution[Any, Any]) -> str:
    """SHA-256 (hex) of everything :func:`tbsg.verify` checks of an exact solution.

    A :class:`tbsg.Verification` records it, so that :meth:`Solution.provenance` reports a
    certificate only for the solution it was computed on (or one equal to it field for
    field), not for another one of the same size: the kind and rule for infinite play,
    the values, the chosen and the optimal actions, and the state graph (its arrays and
    numbers, and Python's ``hash`` of its states and actions, which the compiler checked
    to be stable: so a digest identifies a solution within one Python process, which is
    where a verification is used). The numbers go in as hexadecimal text (linear time,
    no digit limit).
    Raises whatever reading a malformed solution raises.
    """
    g = solution.graph
    h = hashlib.sha256(b"tbsg-solution-v1\n")
    c = solution.infinite_play
    rule = "none" if c is None else f"{int(c.numerator):x}/{int(c.denominator):x}"
    h.update(f"{solution.kind.value}\t{rule}\t{g.n_states}\t{g.n_actions}\n".encode())
    for name in ("player", "act_ptr", "act_state", "out_ptr", "out_target", "act_code", "stop_code",
                 "out_code"):
        h.update(np.asarray(getattr(g, name), dtype=np.int64).tobytes())
    h.update(np.asarray(solution.choice, dtype=np.int64).tobytes())
    h.update(np.asarray(solution.optimal, dtype=np.bool_).tobytes())
    h.update(f"\n{hash(tuple(g.states))}\t{hash(tuple(g.act_labels))}\n".encode())
    for numbers in (g.rationals, solution._raw_values):
        for start in range(0, len(numbers), _DIGEST_CHUNK):
            h.update(";".join(f"{int(x.numerator):x}/{int(x.denominator):x}"
                              for x in numbers[start:start + _DIGEST_CHUNK]).encode())
        h.update(b"\n")
    return h.hexdigest()


_DIGEST_CHUNK = 4096  # numbers formatted per update of the digest


@dataclass(frozen=True)
class Provenance:
    """What a methods section needs to say about a solution (:meth:`Solution.provenance`).

    ``str(provenance)`` gives it as lines of text; :meth:`as_dict` as JSON-ready values.

    Attributes
    ----------
    tbsg_version, python_version : str
        The library and interpreter that computed it.
    arithmetic : str
        ``"exact rationals (gmpy2)"``, ``"exact rationals (fractions.Fraction)"`` or
        ``"float64 with proven bounds (outward rounding)"``.
    game : str
        ``repr`` of the game solved (shortened past 200 characters; ``""`` if unknown).
    game_type : str
        Its class, ``module.QualifiedName``.
    kind : SolutionKind
    method : str
        How it was computed, in words.
    value : str
        The value of the initial state to player 0 (exact: ``p/q ≈ decimal``, shortened
        past 30 characters as in every view of tbsg; float: ``in [lower, upper]``).
    states, actions, outcomes, components, largest_component : int
        The reachable state graph and its strongly connected components.
    graph_sha256 : str
        SHA-256 of the state graph, as :func:`tbsg.save` writes it (``graph.sha256``).
    seconds : float
        Wall time of the solve.
    infinite_play : Fraction or None
        Payoff of never-ending play, if the solution was computed with one.
    certificate : str or None
        ``str`` of the :class:`tbsg.Verification` passed to ``provenance()``; ``None``
        when no verification was given (an exact solution not re-checked here).
    tol, max_gap : float or None
        Float solutions: the requested and the largest proven gap.
    converged : bool or None
        Float solutions: whether every state reached ``tol``.
    """

    tbsg_version: str
    python_version: str
    arithmetic: str
    game: str
    game_type: str
    kind: SolutionKind
    method: str
    value: str
    states: int
    actions: int
    outcomes: int
    components: int
    largest_component: int
    graph_sha256: str
    seconds: float
    infinite_play: Fraction | None = None
    certificate: str | None = None
    tol: float | None = None
    max_gap: float | None = None
    converged: bool | None = None

    def lines(self) -> list[str]:
        """The lines of ``str(self)``."""
        exact = self.tol is None
        out = [f"tbsg {self.tbsg_version} (Python {self.python_version}); arithmetic: {self.arithmetic}",
               f"game: {self.game or '(not recorded)'} ({self.game_type})",
               f"solution: {self.kind.value}; {self.method}"]
        if self.infinite_play is not None:
            out.append(f"never-ending play worth {self.infinite_play} to player 0")
        out.append(f"value to player 0 at the initial state: {self.value}")
        if not exact:
            out.append(f"proven gap: at most {self.max_gap:.3g} in every state (tol {self.tol:.3g}"
                       f"{'' if self.converged else '; NOT reached'})")
        out += [f"state graph: {self.states} states, {self.actions} actions, {self.outcomes} outcomes; "
                f"{self.components} strongly connected components (largest {self.largest_component})",
                f"graph hash: sha256 {self.graph_sha256}"]
        if not exact:
            out.append("certificate: none to re-check (float bounds are proven as they are computed)")
        elif self.certificate is None:
            out.append("certificate: not re-checked here (tbsg.verify(game, solution) re-checks it "
                       "exactly; pass its result to provenance())")
        else:
            out.append(f"certificate: {self.certificate}")
        out.append(f"time: {self.seconds:.3g} s")
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def as_dict(self) -> dict[str, str | int | float | bool | None]:
        """The fields as JSON-ready values (``kind`` and ``infinite_play`` as strings)."""
        return {"tbsg_version": self.tbsg_version, "python_version": self.python_version,
                "arithmetic": self.arithmetic, "game": self.game, "game_type": self.game_type,
                "kind": self.kind.value, "method": self.method, "value": self.value,
                "states": self.states, "actions": self.actions, "outcomes": self.outcomes,
                "components": self.components, "largest_component": self.largest_component,
                "graph_sha256": self.graph_sha256, "seconds": self.seconds,
                "infinite_play": None if self.infinite_play is None else fraction_text(self.infinite_play),
                "certificate": self.certificate, "tol": self.tol, "max_gap": self.max_gap,
                "converged": self.converged}


# --- solutions -----------------------------------------------------------------------------------

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
            where = "from the initial state"
            if self.optimizing != (0, 1):  # evaluate / best_response build what they reach
                where = ("under the fixed strategy from the initial state (reach=\"game\" covers "
                         "every state of the game)")
            raise UnknownStateError(
                f"state {show(state)} is not reachable {where} "
                f"{show(self.graph.states[0])} (the solution covers {self.n_states} states)")
        return i

    def player(self, state: S | _Initial = _INITIAL) -> int:
        """Who moves at ``state``."""
        return int(self.graph.player[self._index(state)])

    def _choice(self) -> npt.NDArray[np.int64]:
        raise NotImplementedError  # pragma: no cover - both subclasses have the field

    def action(self, state: S | _Initial = _INITIAL) -> A:
        """The action the solution's strategy plays at ``state``."""
        return self.graph.act_labels[int(self._choice()[self._index(state)])]

    @property
    def strategy(self) -> Mapping[S, A]:
        """Mapping from every non-terminal state to the action played there, :meth:`action`."""
        labels, choice = self.graph.act_labels, self._choice()
        return _StateMap(self.graph, lambda i: labels[int(choice[i])], "strategy")

    def _fixed_at(self, i: int) -> bool:
        """Whether the mover at state ``i`` plays the solution's strategy without optimising."""
        return int(self.graph.player[i]) not in self.optimizing

    @cached_property
    def _graph_sha256(self) -> str:
        return graph_hash(self.graph)

    def _provenance(self, value: str, arithmetic: str, certificate: str | None, *,
                    tol: float | None = None, max_gap: float | None = None,
                    converged: bool | None = None) -> Provenance:
        g = self.graph
        game = self.game
        return Provenance(
            tbsg_version=__version__, python_version=platform.python_version(), arithmetic=arithmetic,
            game="" if game is None else show(game),
            game_type="" if game is None else f"{type(game).__module__}.{type(game).__qualname__}",
            kind=self.kind, method=self.method, value=value, states=g.n_states, actions=g.n_actions,
            outcomes=len(g.out_target), components=self.n_components,
            largest_component=self.largest_component, graph_sha256=self._graph_sha256,
            seconds=self.seconds, infinite_play=self.infinite_play, certificate=certificate,
            tol=tol, max_gap=max_gap, converged=converged)


@dataclass(frozen=True, eq=False)
class Solution(_Base[S, A]):
    """Exact solution: values as Fractions, the chosen strategy and every optimal action.

    See the module docstring for the query API it shares with :class:`FloatSolution`.

    Attributes
    ----------
    method : str
        How it was computed.
    seconds : float
        Wall time of the solve (compilation included).
    n_components, largest_component : int
        Strongly connected components of the state graph and the size of the largest.
    values_exact : sequence of Fraction
        The value of every state, in the order of :attr:`states` (a read-only view:
        ``list(solution.values_exact)`` copies it).
    improvements : int
        Strategy switches made by exact strategy iteration.
    exact_solves : int
        Exact linear systems solved.

    Examples
    --------
    >>> import tbsg
    >>> from tbsg.games import risk_or_safety
    >>> sol = tbsg.solve(risk_or_safety(3))
    >>> sol.value(), sol.bounds(), sol.optimal_actions_certain()
    (Fraction(6, 11), (Fraction(6, 11), Fraction(6, 11)), True)
    >>> type(sol.values_exact[0]).__name__    # whatever the arithmetic backend
    'Fraction'
    """

    values_exact: Sequence[Fraction]
    if not TYPE_CHECKING:  # stored as given (backend values), read as Fractions
        values_exact = _ExactValues()
    choice: npt.NDArray[np.int64]
    optimal: npt.NDArray[np.bool_]
    improvements: int
    exact_solves: int

    exact = True

    @property
    def _raw_values(self) -> Sequence[Rational]:
        """The stored values, in the backend's type (for the library's own fast paths)."""
        raw: Sequence[Rational] = self.__dict__["_values_exact"]
        return raw

    def _choice(self) -> npt.NDArray[np.int64]:
        return self.choice

    def _fraction(self, i: int) -> Fraction:
        return bk.to_fraction(self._raw_values[i])

    def value(self, state: S | _Initial = _INITIAL, *, player: int = 0) -> Fraction:
        """Exact value of ``state`` (initial by default) to ``player`` (0 by default)."""
        v = self._fraction(self._index(state))
        return v if _player(player) == 0 else 1 - v

    def value_to_move(self, state: S | _Initial = _INITIAL) -> Fraction:
        """Value of ``state`` to the player who moves there."""
        return self.value(state, player=self.player(state))

    def bounds(self, state: S | _Initial = _INITIAL, *, player: int = 0) -> tuple[Fraction, Fraction]:
        """``(v, v)`` for the exact value ``v``: the float solution's bounds, collapsed."""
        v = self.value(state, player=player)
        return v, v

    def action(self, state: S | _Initial = _INITIAL) -> A:
        """The action the solution's strategy plays at ``state`` (an optimal one)."""
        return super().action(state)

    def optimal_actions(self, state: S | _Initial = _INITIAL) -> tuple[A, ...]:
        """Every action that is exactly optimal at ``state`` (exact ties included), in the
        game's order; the played action alone where the mover does not optimise."""
        i = self._index(state)
        return tuple(self.graph.act_labels[k] for k in self.graph.actions_of(i)
                     if self.optimal[k])

    def optimal_actions_certain(self, state: S | _Initial = _INITIAL) -> bool:
        """Always ``True``: an exact solution knows its optimal actions, ties included."""
        self._index(state)
        return True

    def action_values(self, state: S | _Initial = _INITIAL, *, player: int = 0) -> dict[A, Fraction]:
        """Exact value to ``player`` (0 by default) of each action at ``state``: play it,
        then both play the solution's strategy (a fresh dict, in the game's order)."""
        i = self._index(state)
        who = _player(player)
        g = self.graph
        ks = g.actions_of(i)
        q = exact_action_values(g, _FractionValues(self._raw_values), ks)
        return {g.act_labels[k]: (x if who == 0 else 1 - x) for k, x in zip(ks, q, strict=True)}

    def action_bounds(self, state: S | _Initial = _INITIAL, *,
                      player: int = 0) -> dict[A, tuple[Fraction, Fraction]]:
        """``{action: (q, q)}`` for the exact action values ``q`` (as a float solution's)."""
        return {a: (q, q) for a, q in self.action_values(state, player=player).items()}

    @property
    def values(self) -> Mapping[S, Fraction]:
        """Mapping from every non-terminal state to its exact value to player 0."""
        return _StateMap(self.graph, self._fraction, "values")

    @property
    def values_bounds(self) -> Mapping[S, tuple[Fraction, Fraction]]:
        """Mapping from every non-terminal state to ``(v, v)`` (as a float solution's bounds)."""
        def both(i: int) -> tuple[Fraction, Fraction]:
            v = self._fraction(i)
            return v, v
        return _StateMap(self.graph, both, "value bounds")

    def fastest(self, count: StepFunction | None = None) -> TieBreak[S, A]:
        """Among the optimal profiles, one that ends play soonest in expectation.

        Both players keep to exactly optimal actions (:meth:`optimal_actions`) at every
        state and, as a secondary goal, cooperate to minimise the expected counted length
        of play (:mod:`tbsg.engine.tiebreak`; it needs the exact ties only an exact solution has).

        Parameters
        ----------
        count : callable or None
            ``count(state, action)``: what a step counts (an int or Fraction >= 0), e.g.
            1 per coin toss; ``None`` (default): 1 per move.

        Returns
        -------
        TieBreak
            The profile, its expected length and its (checked) value.

        Examples
        --------
        >>> import tbsg
        >>> from tbsg.games import risk_or_safety
        >>> sol = tbsg.solve(risk_or_safety(2))
        >>> sol.fastest().expected, sol.slowest().expected
        (Fraction(6, 1), Fraction(6, 1))
        """
        return tie_break(self.graph, self.optimal, self._raw_values, count, "fastest", self.optimizing)

    def slowest(self, count: StepFunction | None = None) -> TieBreak[S, A]:
        """Among the optimal profiles, one that makes play last longest in expectation
        (as :meth:`fastest`, maximising)."""
        return tie_break(self.graph, self.optimal, self._raw_values, count, "slowest", self.optimizing)

    def provenance(self, verification: _Checked | None = None) -> Provenance:
        """The lines a methods section needs: version, method, sizes, graph hash, certificate.

        Parameters
        ----------
        verification : tbsg.Verification, optional
            The result of ``tbsg.verify(game, solution)`` for this solution, reported as
            the certificate's status. Nothing is verified here: without it the
            certificate is reported as not re-checked.

        Raises
        ------
        InvalidArgumentError
            If ``verification`` is of another solution: other counts, kind or rule for
            infinite play, or other values, actions or state graph (a verification records
            the SHA-256 of the solution it checked, :attr:`tbsg.Verification.solution_sha256`;
            a solution changed after it was verified is another solution).

        Examples
        --------
        >>> import tbsg
        >>> from tbsg.games import risk_or_safety
        >>> game = risk_or_safety(3)
        >>> sol = tbsg.solve(game)
        >>> print(sol.provenance(tbsg.verify(game, sol)))  # doctest: +ELLIPSIS
        tbsg ... (Python ...); arithmetic: exact rationals (...)
        game: RiskOrSafety(target=3) (tbsg.games.risk_or_safety.RiskOrSafety)
        solution: solve; exact strategy iteration (Hoffman-Karp) per SCC
        value to player 0 at the initial state: 6/11 ≈ 0.545454545455
        state graph: 36 states, 54 actions, 72 outcomes; 9 strongly connected components (largest 6)
        graph hash: sha256 ...
        certificate: verified: 36 states, 54 actions: strategy equations, ...
        time: ... s
        """
        certificate = None
        if verification is not None:
            claimed = (verification.states, verification.actions, verification.kind,
                       verification.infinite_play)
            mine = (self.n_states, self.graph.n_actions, self.kind, self.infinite_play)
            if claimed != mine:
                raise InvalidArgumentError(
                    f"the verification is of another solution: it checked {claimed[0]} states, "
                    f"{claimed[1]} actions ({claimed[2].value}, infinite play {claimed[3]}); this "
                    f"solution has {mine[0]} states, {mine[1]} actions ({mine[2].value}, infinite "
                    f"play {mine[3]})")
            try:
                digest = solution_digest(self)
            except Exception:  # a malformed solution is no verified one
                digest = ""
            checked = getattr(verification, "solution_sha256", "")
            if not digest or checked != digest:
                recorded = f"{checked[:12]}…" if isinstance(checked, str) and checked else "none"
                own = f"{digest[:12]}…" if digest else "none: the solution is malformed"
                raise InvalidArgumentError(
                    f"the verification is of another solution: it checked one of the same size "
                    f"but with other values, actions or state graph (solution SHA-256 "
                    f"{recorded}; this solution's: {own}); pass the result of "
                    "tbsg.verify(game, solution) for this very solution")
            certificate = str(verification)
        library = "gmpy2" if bk.BACKEND == "gmpy2" else "fractions.Fraction"
        return self._provenance(shown_value(self.value()), f"exact rationals ({library})", certificate)

    def __repr__(self) -> str:
        return (f"Solution(value={shown_value(self.value())}, exact, states={self.n_states}, "
                f"components={self.n_components}, largest={self.largest_component}, "
                f"method={self.method!r}, seconds={self.seconds:.3g})")

    def _repr_markdown_(self) -> str:
        v = self.value()
        shown = f"`{fraction_text(v)}` ≈ {decimal_text(v, 15)}" if text_size(v) <= REPR_CHARS \
            else abbreviate(v, REPR_CHARS, 15)
        return (f"**tbsg exact solution** — value to player 0: {shown}  \n"
                f"{self.n_states} states, {self.n_components} components (largest "
                f"{self.largest_component}), {self.method}, {self.seconds:.3g} s")

    def _repr_html_(self) -> str:
        v = self.value()
        shown = f"<code>{fraction_text(v)}</code> ≈ {decimal_text(v, 15)}" if text_size(v) <= REPR_CHARS \
            else html.escape(abbreviate(v, REPR_CHARS, 15))
        return _html_table("tbsg exact solution", [
            ("value to player 0", shown),
            ("initial state", html.escape(show(self.initial))),
            ("states / components / largest",
             f"{self.n_states} / {self.n_components} / {self.largest_component}"),
            ("method", html.escape(self.method)), ("seconds", f"{self.seconds:.3g}")])


@dataclass(frozen=True, eq=False)
class FloatSolution(_Base[S, A]):
    """Float solution with proven bounds: ``lower <= exact value <= upper`` in every state.

    See the module docstring for the query API it shares with :class:`Solution`.

    Attributes
    ----------
    lower, upper : ndarray of float
        The proven bounds of every state, in the order of :attr:`states`.
    tol : float
        Requested bound on ``upper - lower``.
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

    def bounds(self, state: S | _Initial = _INITIAL, *, player: int = 0) -> tuple[float, float]:
        """Proven ``(lower, upper)`` bounds on the value of ``state`` to ``player`` (0 by default)."""
        i = self._index(state)
        return _interval(float(self.lower[i]), float(self.upper[i]), _player(player))

    def value(self, state: S | _Initial = _INITIAL, *, player: int = 0) -> float:
        """Midpoint of the bounds (within ``gap / 2`` of the exact value), to ``player``."""
        i = self._index(state)
        v = (float(self.lower[i]) + float(self.upper[i])) / 2
        return v if _player(player) == 0 else 1.0 - v

    def value_to_move(self, state: S | _Initial = _INITIAL) -> float:
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

    def action(self, state: S | _Initial = _INITIAL) -> A:
        """The solver's action at ``state``: greedy against the midpoint values.

        It loses at most the largest gap among the successors' bounds against optimal
        play; :meth:`optimal_actions` says which actions the bounds cannot rule out.
        """
        return super().action(state)

    @cached_property
    def _action_bounds(self) -> tuple[FloatArray, FloatArray]:
        """Proven bounds on every action's value to player 0 (flat actions), clipped to [0, 1]."""
        lo, hi = action_bounds(self.graph, self.lower, self.upper)
        return np.maximum(lo, 0.0), np.minimum(hi, 1.0)

    def _kept(self, i: int) -> list[int]:
        """Flat actions at state ``i`` that the proven bounds cannot rule out."""
        if self._fixed_at(i):
            return [int(self.choice[i])]
        ks = self.graph.actions_of(i)
        lo, hi = self._action_bounds
        if int(self.graph.player[i]) == 0:
            best = max(float(lo[k]) for k in ks)
            return [k for k in ks if float(hi[k]) >= best]
        best = min(float(hi[k]) for k in ks)
        return [k for k in ks if float(lo[k]) <= best]

    def optimal_actions(self, state: S | _Initial = _INITIAL) -> tuple[A, ...]:
        """Every action at ``state`` that the proven bounds cannot rule out, in the game's order.

        A superset of the exactly optimal actions (module docstring); the played action
        alone where the mover does not optimise (evaluations, best responses).
        """
        return tuple(self.graph.act_labels[k] for k in self._kept(self._index(state)))

    def optimal_actions_certain(self, state: S | _Initial = _INITIAL) -> bool:
        """Whether :meth:`optimal_actions` is exactly the set of optimal actions at ``state``.

        True when the bounds leave a single action (it is then the unique optimal one);
        False when several remain, tied exactly or too close for the proven gap.
        """
        return len(self._kept(self._index(state))) == 1

    def action_bounds(self, state: S | _Initial = _INITIAL, *,
                      player: int = 0) -> dict[A, tuple[float, float]]:
        """Proven ``(lower, upper)`` bounds on the value to ``player`` of each action at
        ``state`` (play it, then play optimally), in the game's order (a fresh dict)."""
        return self._action_bounds_at(self._index(state), _player(player))

    def _action_bounds_at(self, i: int, who: int) -> dict[A, tuple[float, float]]:
        lo, hi = self._action_bounds
        labels = self.graph.act_labels
        ks = self.graph.actions_of(i)
        if who == 0:
            return {labels[k]: (float(lo[k]), float(hi[k])) for k in ks}
        return {labels[k]: (_down(float(hi[k])), _up(float(lo[k]))) for k in ks}

    def action_values(self, state: S | _Initial = _INITIAL, *,
                      player: int = 0) -> dict[A, tuple[float, float]]:
        """The value of each action at ``state`` as the interval the float solution proves:
        the same as :meth:`action_bounds` (a float solution has no exact action values)."""
        return self.action_bounds(state, player=player)

    @property
    def values(self) -> Mapping[S, float]:
        """Mapping from every non-terminal state to its midpoint value to player 0."""
        lower, upper = self.lower, self.upper
        return _StateMap(self.graph, lambda i: (float(lower[i]) + float(upper[i])) / 2, "values")

    @property
    def values_bounds(self) -> Mapping[S, tuple[float, float]]:
        """Mapping from every non-terminal state to its proven ``(lower, upper)`` to player 0."""
        lower, upper = self.lower, self.upper
        return _StateMap(self.graph, lambda i: (float(lower[i]), float(upper[i])), "value bounds")

    def provenance(self, verification: _Checked | None = None) -> Provenance:
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
        lo, hi = self.bounds()
        return (f"**tbsg float solution** — value to player 0 in [{lo:.15g}, {hi:.15g}] "
                f"(proven bounds)  \n{self.n_states} states, {self.n_components} components, "
                f"max gap {self.max_gap:.2g}, converged: {self.converged}, {self.seconds:.3g} s")

    def _repr_html_(self) -> str:
        lo, hi = self.bounds()
        return _html_table("tbsg float solution (proven bounds)", [
            ("value to player 0", f"[{lo:.15g}, {hi:.15g}]"),
            ("initial state", html.escape(show(self.initial))),
            ("states / components / largest",
             f"{self.n_states} / {self.n_components} / {self.largest_component}"),
            ("max gap / tolerance / converged", f"{self.max_gap:.2g} / {self.tol:.2g} / {self.converged}"),
            ("method", html.escape(self.method)), ("seconds", f"{self.seconds:.3g}")])


def _html_table(title: str, rows: list[tuple[str, str]]) -> str:
    body = "".join(f"<tr><th style='text-align:left'>{k}</th><td>{v}</td></tr>" for k, v in rows)
    return f"<table><caption>{html.escape(title)}</caption>{body}</table>"
