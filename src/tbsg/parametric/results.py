"""What the parametric solvers return: regions, breakpoints, values as functions of ``p``.

Every type here answers the queries of :mod:`tbsg.results.query` (the names, the default
state :data:`~tbsg.results.query.INITIAL`, values to player 0 unless ``player=`` or
``_to_move`` says otherwise), with values that are functions of the parameter ``p``:

* :class:`Region` (one region of :func:`~tbsg.parametric.solve_parametric`) and
  :class:`ParametricValues` (:func:`~tbsg.parametric.evaluate_parametric`) hold one
  profile: ``value(s)`` is a :class:`~tbsg.parametric.rational.RationalFunction`, and
  ``value(s, at=x)`` its exact value at the rational ``x``.
* :class:`ParametricSolution` holds the optimal play for every ``p``: ``value(s)`` is a
  :class:`Piecewise` function (one rational function per region), and the actions
  depend on ``p``, so ``action``, ``optimal_actions`` and ``action_values`` need the point
  ``at=x``.

Why :func:`~tbsg.parametric.evaluate_parametric` returns :class:`ParametricValues` and
not a :class:`ParametricSolution`: a parametric solution is a cover of the interval by
regions on which a profile is *optimal*, each with the sign pattern that proves it
(:func:`~tbsg.parametric.verify_parametric` re-derives it); a fixed profile makes no
such claim and has no regions. :class:`ParametricValues` is to it what a solution of
:func:`tbsg.evaluate` is to one of :func:`tbsg.solve`: the same queries, for a profile
that nobody optimises (its optimal action at a state is the profile's).

Values are to player 0; player 1's view is ``c - v`` with ``c = 1`` in a win-probability
game and ``c = 0`` otherwise (``win_probability``; :mod:`tbsg.model.protocol`), as for
every tbsg result.

The *advantage* of action ``k`` at its state ``s`` under a profile with values ``v`` is
``d_k = +-(Q_k - v(s))`` (``+`` where player 0 moves, ``-`` where player 1 moves), with
``Q_k = c_k + sum_t p_kt v(t)``: the profile is optimal at ``p`` iff no ``d_k(p)`` is
positive, and the optimal actions at ``p`` are those with ``d_k(p) = 0``
(:mod:`tbsg.parametric.solve` states the mathematics).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from tbsg.errors import InvalidArgumentError, show
from tbsg.model.protocol import Game, exact
from tbsg.parametric.algebraic import RealAlgebraic
from tbsg.parametric.compile import ParametricCompiled
from tbsg.parametric.linear import action_gain
from tbsg.parametric.linear import action_values as _q
from tbsg.parametric.rational import RationalFunction
from tbsg.results.deprecation import AttributeBecameMethod, deprecated, warn_deprecated
from tbsg.results.query import INITIAL, Initial, check_player
from tbsg.results.views import StateMap, StatesOf, state_index

if TYPE_CHECKING:
    import sympy
    from flint import fmpz_poly

__all__ = ["Breakpoint", "ParametricSolution", "ParametricValues", "Piecewise", "Region", "advantage"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

Point = Fraction | int
"""A rational value of the parameter."""


def advantage(pc: ParametricCompiled[Any, Any], values: Sequence[RationalFunction],
              k: int) -> RationalFunction:
    """``d_k``: the gain of action ``k`` over the state's value, for its mover (<= 0 iff no gain)."""
    d = action_gain(pc, values, k)
    return d if pc.player[pc.act_state[k]] == 0 else -d


def _lookup(pc: ParametricCompiled[Any, Any], state: object, owner: str, unknown: str) -> int:
    """The index of a ``state`` argument; ``None``, where it is not a state of the game, is
    the initial state (deprecated)."""
    if state is None and None not in pc.index:
        warn_deprecated(f"state=None for the initial state in {owner} queries",
                        "no state (the default, tbsg.results.INITIAL, is the initial state)")
        return 0
    return state_index(pc.index, state, lambda: f"{show(state)} {unknown}")


def _at(x: object) -> Fraction:
    return exact(x, "the parameter point at")


def _view(f: RationalFunction, player: int, pc: ParametricCompiled[Any, Any]) -> RationalFunction:
    """``f`` to ``player``: player 1 receives ``c - f``, ``c`` = 1 in a win-probability game
    and 0 otherwise (the convention of :mod:`tbsg.model.protocol`)."""
    if check_player(player) == 0:
        return f
    return 1 - f if pc.win_probability else -f


class _OverParametric(StatesOf[S], Generic[S, A]):
    """A result over the states of a parametric compiled game (``_over``)."""

    @property
    def _over(self) -> ParametricCompiled[S, A]:
        raise NotImplementedError  # pragma: no cover - every result names its graph

    @property
    def win_probability(self) -> bool:
        """Whether the game is a win-probability game (every reward identically 0, every
        terminal payoff in [0, 1]): values are then probabilities of winning and player
        1's view is ``1 - v``; otherwise expected totals, and player 1's view is ``-v``."""
        return self._over.win_probability


class _OneProfile(_OverParametric[S, A]):
    """The queries of a result with one profile over the states of ``_pc`` (a region, or the
    values of a fixed profile): values are rational functions of the parameter."""

    _pc: ParametricCompiled[S, A]
    _values: tuple[RationalFunction, ...]
    _unknown = "is not a reachable state of the game"

    def _i(self, state: S | Initial | None) -> int:
        return _lookup(self._pc, state, type(self).__name__, self._unknown)

    def _check_at(self, x: Fraction) -> None:  # where the formulas hold (overridden)
        raise NotImplementedError  # pragma: no cover

    def _choice_at(self, i: int) -> int:  # the profile's flat action at state i (overridden)
        raise NotImplementedError  # pragma: no cover

    @property
    def _over(self) -> ParametricCompiled[S, A]:
        return self._pc

    def player(self, state: S | Initial = INITIAL) -> int:
        """Who moves at ``state``."""
        return self._pc.player[self._i(state)]

    def _formula(self, state: S | Initial | None, player: int, at: Point | None) -> Any:
        f = _view(self._values[self._i(state)], player, self._pc)
        if at is None:
            return f
        x = _at(at)
        self._check_at(x)
        return f(x)

    @overload
    def value(self, state: S | Initial = ..., /, *, player: int = ...,
              at: None = ...) -> RationalFunction: ...
    @overload
    def value(self, state: S | Initial = ..., /, *, player: int = ..., at: Point) -> Fraction: ...
    def value(self, state: S | Initial = INITIAL, /, *, player: int = 0,
              at: Point | None = None) -> RationalFunction | Fraction:
        """Player 0's value of ``state`` (``player=1``: hers), a rational function of the
        parameter; ``at=x``: its exact value at ``x`` (in the region, or the interval of a
        fixed profile's values)."""
        return self._formula(state, player, at)  # type: ignore[no-any-return]

    def value_to_move(self, state: S | Initial = INITIAL, *, at: Point | None = None) -> Any:
        """The value of ``state`` to the player who moves there (a rational function of the
        parameter; ``at=x``: its value at ``x``)."""
        return self._formula(state, self.player(state), at)

    @property
    def values(self) -> Mapping[S, RationalFunction]:
        """Every state's value to player 0, a rational function of the parameter."""
        values = self._values
        return StateMap(self._pc, values.__getitem__, "values")

    def action(self, state: S | Initial = INITIAL) -> A:
        """The profile's action at ``state``."""
        return self._pc.act_labels[self._choice_at(self._i(state))]

    def _held(self, i: int) -> Sequence[int]:  # the flat actions held at state i (overridden)
        raise NotImplementedError  # pragma: no cover

    @overload
    def action_values(self, state: S | Initial = ..., /, *, player: int = ...,
                      at: None = ...) -> dict[A, RationalFunction]: ...
    @overload
    def action_values(self, state: S | Initial = ..., /, *, player: int = ...,
                      at: Point) -> dict[A, Fraction]: ...
    def action_values(self, state: S | Initial = INITIAL, /, *, player: int = 0,
                      at: Point | None = None) -> dict[A, RationalFunction] | dict[A, Fraction]:
        """Each action's value at ``state`` to ``player`` (0 by default): play it, then the
        profile; rational functions of the parameter, or their values at ``at=x``. A region
        holds every action of the state; the values of a fixed profile only its action."""
        i = self._i(state)
        return self._action_values(i, player, at)

    def action_values_to_move(self, state: S | Initial = INITIAL, /, *,
                              at: Point | None = None) -> dict[A, Any]:
        """Each action's value at ``state`` to the player who moves there (as :meth:`action_values`)."""
        i = self._i(state)
        return self._action_values(i, self._pc.player[i], at)

    def _action_values(self, i: int, player: int, at: Point | None) -> dict[A, Any]:
        pc = self._pc
        fs = {pc.act_labels[k]: _view(_q(pc, self._values, k), player, pc) for k in self._held(i)}
        if at is None:
            return fs
        x = _at(at)
        self._check_at(x)
        return {a: f(x) for a, f in fs.items()}


def _called_at_a_point(region: Region[Any, Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """Whether ``region.value(x)`` is the old use, the initial state's formula called at
    ``x``: one rational argument that is not a state of the game."""
    if kwargs or len(args) != 1:
        return False
    x = args[0]
    if isinstance(x, bool) or not isinstance(x, Fraction | int):
        return False
    try:
        return x not in region._pc.index
    except TypeError:  # pragma: no cover - numbers are hashable
        return True


@dataclass(frozen=True, eq=False)
class Region(_OneProfile[S, A]):
    """An interval of the parameter on which one strategy profile is optimal.

    It answers the queries of :mod:`tbsg.results.query` (module docstring): values are
    rational functions of the parameter, valid on the region; ``at=x`` evaluates them at a
    rational ``x`` of the region.

    Attributes
    ----------
    lo, hi : RealAlgebraic
        The ends (closed, except the parameter interval's own open ends).
    sample : Fraction
        The rational point at which the numeric solve found the profile.
    """

    lo: RealAlgebraic
    hi: RealAlgebraic
    sample: Fraction
    _pc: ParametricCompiled[S, A] = field(repr=False)
    _choice: tuple[int, ...] = field(repr=False)
    _values: tuple[RationalFunction, ...] = field(repr=False)
    _zero: tuple[int, ...] = field(repr=False)
    _touch: tuple[tuple[RealAlgebraic, int], ...] = field(repr=False)
    # the signed advantage numerators of the non-constant constraints (for the ties at the ends)
    _adv: tuple[tuple[int, fmpz_poly], ...] = field(default=(), repr=False)

    def _check_at(self, x: Fraction) -> None:
        if not self.contains(x):
            raise InvalidArgumentError(f"at = {x} is outside the region [{self.lo.decimal(9)}, "
                                       f"{self.hi.decimal(9)}]; solution.region_at(x) holds it")

    def _choice_at(self, i: int) -> int:
        return self._choice[i]

    def _held(self, i: int) -> Sequence[int]:
        return self._pc.actions_of(i)

    if TYPE_CHECKING:  # what type checkers and the API pages see: _OneProfile.value
        @overload
        def value(self, state: S | Initial = ..., /, *, player: int = ...,
                  at: None = ...) -> RationalFunction: ...
        @overload
        def value(self, state: S | Initial = ..., /, *, player: int = ..., at: Point) -> Fraction: ...
        def value(self, state: S | Initial = INITIAL, /, *, player: int = 0,
                  at: Point | None = None) -> RationalFunction | Fraction:
            """Player 0's value of ``state`` on this region (``player=1``: hers), a rational
            function of the parameter; ``at=x``: its exact value at ``x`` of the region."""
            return super().value(state, player=player, at=at)
    else:  # at run time: _OneProfile.value, which also serves the old attribute (deprecated)
        value = AttributeBecameMethod(
            _OneProfile.value, lambda self: self._values[0],
            "Region.value as an attribute (the initial state's formula)",
            "Region.value() (a method: value(state, player=0, at=None))", _called_at_a_point)

    @property
    def strategy(self) -> dict[S, A]:
        """The profile: every state's action."""
        labels = self._pc.act_labels
        return {s: labels[k] for s, k in zip(self._pc.states, self._choice, strict=True)}

    def optimal_actions(self, state: S | Initial = INITIAL) -> tuple[A, ...]:
        """Actions optimal on the whole region at ``state``: the profile's and those tied identically."""
        i = self._i(state)
        ks = [self._choice[i], *(k for k in self._zero if self._pc.act_state[k] == i)]
        return tuple(self._pc.act_labels[k] for k in sorted(ks))

    @deprecated("Region.value_of(state)", "Region.value(state)")
    def value_of(self, state: S | None = None) -> RationalFunction:
        """Player 0's value at ``state`` on this region, as a rational function."""
        return self._formula(INITIAL if state is None else state, 0, None)  # type: ignore[no-any-return]

    @property
    def touch_points(self) -> tuple[tuple[RealAlgebraic, S, A], ...]:
        """Points inside the region where another action ties with the profile's, but only there."""
        pc = self._pc
        return tuple((x, pc.states[pc.act_state[k]], pc.act_labels[k]) for x, k in self._touch)

    def certificate(self) -> tuple[tuple[S, A, str], ...]:
        """The sign pattern of every action's advantage ``d_k`` on the region (the region's
        certificate, re-derived by :func:`~tbsg.parametric.certificate.verify_parametric`).

        One ``(state, action, kind)`` per action of a state with several: ``"profile"``
        (the profile's action, ``d = 0``), ``"tied"`` (``d`` vanishes identically),
        ``"touches 0 at x, ..."`` (``d < 0`` inside except at those points) or ``"below"``
        (``d < 0`` everywhere inside).
        """
        pc = self._pc
        touch: dict[int, list[str]] = {}
        for x, k in self._touch:
            touch.setdefault(k, []).append(x.decimal(9))
        zero = set(self._zero)
        out: list[tuple[S, A, str]] = []
        for i, s in enumerate(pc.states):
            ks = pc.actions_of(i)
            if len(ks) < 2:
                continue
            for k in ks:
                kind = ("profile" if k == self._choice[i] else "tied" if k in zero
                        else f"touches 0 at {', '.join(touch[k])}" if k in touch else "below")
                out.append((s, pc.act_labels[k], kind))
        return tuple(out)

    def contains(self, x: Fraction | RealAlgebraic) -> bool:
        """Whether ``lo <= x <= hi``."""
        return bool(self.lo <= x <= self.hi)


@dataclass(frozen=True, eq=False)
class Breakpoint(Generic[S, A]):
    """Where the optimal profile changes.

    Attributes
    ----------
    at : RealAlgebraic
        The parameter value (exact).
    changes : tuple
        ``(state, action on the left, action on the right)`` for each state whose profile
        action changes.
    ties : dict
        For each state with more than one optimal action at ``at``, those actions.
    """

    at: RealAlgebraic
    changes: tuple[tuple[S, A, A], ...]
    ties: Mapping[S, tuple[A, ...]]


@dataclass(frozen=True)
class Piecewise:
    """A function of the parameter given by one rational function per region: the value
    of a state over the whole interval of a :class:`ParametricSolution`.

    ``f(x)`` is the exact value at a rational ``x`` of the open interval (at a breakpoint
    the two neighbouring formulas agree: the value is continuous).

    Attributes
    ----------
    pieces : tuple of (RealAlgebraic, RealAlgebraic, RationalFunction)
        ``(lo, hi, formula)`` per region, in increasing order.
    """

    pieces: tuple[tuple[RealAlgebraic, RealAlgebraic, RationalFunction], ...]

    def formula(self, x: Point) -> RationalFunction:
        """The formula of the piece holding the rational ``x`` (at a breakpoint, the left one)."""
        xf = _at(x)
        start, end = self.pieces[0][0], self.pieces[-1][1]
        if start < xf < end:
            for _, hi, f in self.pieces:  # in increasing order: the first piece reaching x
                if xf <= hi:
                    return f
        raise InvalidArgumentError(f"x = {xf} is outside the parameter interval ({start}, {end})")

    def __call__(self, x: Point) -> Fraction:
        return self.formula(x)(_at(x))

    def __repr__(self) -> str:
        return f"Piecewise({len(self.pieces)} pieces: " + "; ".join(
            f"[{lo.decimal(6)}, {hi.decimal(6)}]: {f}" for lo, hi, f in self.pieces) + ")"


@dataclass(frozen=True, eq=False)
class ParametricSolution(_OverParametric[S, A]):
    """The optimal play of a parametric game over its parameter interval.

    It answers the queries of :mod:`tbsg.results.query` (module docstring): ``value(s)`` is
    a :class:`Piecewise` function of the parameter, ``value(s, at=x)`` its exact value at
    ``x``; the queries about actions need ``at=x``. :meth:`region_at` is the region
    holding ``x``, which answers them as rational functions.

    Attributes
    ----------
    game : Game
    symbol : sympy.Symbol
    interval : (Fraction, Fraction)
        The open interval of the parameter.
    regions : tuple of Region
        In increasing order; consecutive regions share an end, a breakpoint.
    breakpoints : tuple of Breakpoint
        ``breakpoints[i]`` separates ``regions[i]`` and ``regions[i + 1]``.
    seconds : float
        Process time of the solve.
    """

    game: Game[S, A]
    symbol: sympy.Symbol
    interval: tuple[Fraction, Fraction]
    regions: tuple[Region[S, A], ...]
    breakpoints: tuple[Breakpoint[S, A], ...]
    compiled: ParametricCompiled[S, A] = field(repr=False)
    seconds: float = 0.0

    @property
    def _over(self) -> ParametricCompiled[S, A]:
        return self.compiled

    def _i(self, state: S | Initial | None) -> int:
        return _lookup(self.compiled, state, "ParametricSolution", "is not a reachable state of the game")

    def player(self, state: S | Initial = INITIAL) -> int:
        """Who moves at ``state``."""
        return self.compiled.player[self._i(state)]

    def region_at(self, x: Point) -> Region[S, A]:
        """The region holding the rational ``x`` (at a breakpoint, the one on its left)."""
        xf = _at(x)
        lo, hi = self.interval
        if not lo < xf < hi:
            raise InvalidArgumentError(f"x = {xf} is outside the parameter interval ({lo}, {hi})")
        for r in self.regions:
            if r.contains(xf):
                return r
        raise RuntimeError("internal error: the regions do not cover the interval")  # pragma: no cover

    @overload
    def value(self, state: S | Initial = ..., /, *, player: int = ..., at: None = ...) -> Piecewise: ...
    @overload
    def value(self, state: S | Initial = ..., /, *, player: int = ..., at: Point) -> Fraction: ...
    def value(self, state: S | Initial = INITIAL, /, *, player: int = 0,
              at: Point | None = None) -> Piecewise | Fraction:
        """The value of ``state`` to ``player`` (0 by default): a :class:`Piecewise` function of
        the parameter, or with ``at=x`` its exact value at ``x``."""
        i = self._i(state)
        if at is not None:
            return _view(self.region_at(at)._values[i], player, self.compiled)(_at(at))
        return Piecewise(tuple((r.lo, r.hi, _view(r._values[i], player, self.compiled))
                               for r in self.regions))

    def value_to_move(self, state: S | Initial = INITIAL, /, *, at: Point | None = None) -> Any:
        """The value of ``state`` to the player who moves there (as :meth:`value`)."""
        return self.value(state, player=self.player(state), at=at)

    @property
    def values(self) -> Mapping[S, Piecewise]:
        """Every state's value to player 0, a :class:`Piecewise` function of the parameter."""
        return StateMap(self.compiled, lambda i: self.value(self.compiled.states[i]), "values")

    def action(self, state: S | Initial = INITIAL, /, *, at: Point) -> A:
        """The optimal profile's action at ``state`` for the parameter ``at`` (at a
        breakpoint, the left region's, which is optimal there)."""
        return self.region_at(at).action(state)

    def optimal_actions(self, state: S | Initial = INITIAL, /, *, at: Point) -> tuple[A, ...]:
        """Every optimal action at ``state`` for the parameter ``at`` (exact ties included)."""
        r = self.region_at(at)
        x = _at(at)
        i = self._i(state)
        pc = self.compiled
        return tuple(pc.act_labels[k] for k in pc.actions_of(i) if advantage(pc, r._values, k)(x) == 0)

    def action_values(self, state: S | Initial = INITIAL, /, *, player: int = 0,
                      at: Point) -> dict[A, Fraction]:
        """Each action's exact value at ``state`` to ``player`` (0 by default) for the
        parameter ``at``: play it, then optimally."""
        result: dict[A, Fraction] = self.region_at(at).action_values(state, player=player, at=at)
        return result

    def action_values_to_move(self, state: S | Initial = INITIAL, /, *, at: Point) -> dict[A, Fraction]:
        """Each action's exact value at ``state`` to the player who moves there, for ``at``."""
        result: dict[A, Fraction] = self.region_at(at).action_values_to_move(state, at=at)
        return result

    @deprecated("ParametricSolution.value_at(x, state)", "ParametricSolution.value(state, at=x)")
    def value_at(self, x: Point, state: S | None = None) -> Fraction:
        """Player 0's exact value at ``state`` (default: initial) for the parameter ``x``."""
        return self.value(INITIAL if state is None else state, at=x)

    @deprecated("ParametricSolution.value_formula(x, state)", "ParametricSolution.region_at(x).value(state)")
    def value_formula(self, x: Point, state: S | None = None) -> RationalFunction:
        """Player 0's value at ``state`` as a rational function, on the region holding ``x``."""
        return self.region_at(x).value(INITIAL if state is None else state)

    @deprecated("ParametricSolution.optimal_actions_at(x, state)",
                "ParametricSolution.optimal_actions(state, at=x)")
    def optimal_actions_at(self, x: Point, state: S | None = None) -> tuple[A, ...]:
        """Every optimal action at ``state`` for the parameter ``x`` (exact ties included)."""
        return self.optimal_actions(INITIAL if state is None else state, at=x)

    def __repr__(self) -> str:
        return (f"ParametricSolution(game={show(self.game, 60)}, {self.symbol} in "
                f"({self.interval[0]}, {self.interval[1]}), {len(self.regions)} region(s), "
                f"{self.n_states} states)")


@dataclass(frozen=True, eq=False)
class ParametricValues(_OneProfile[S, A]):
    """Values of a fixed strategy profile as rational functions of the parameter.

    It answers the queries of :mod:`tbsg.results.query` as a :class:`Region` does, for a
    profile that nobody optimises (module docstring: why this is not a
    :class:`ParametricSolution`); ``at=x`` evaluates at a rational ``x`` of the interval.

    Attributes
    ----------
    symbol : sympy.Symbol
    interval : (Fraction, Fraction)
    compiled : the parametric game restricted to what the profile reaches
    """

    symbol: sympy.Symbol
    interval: tuple[Fraction, Fraction]
    compiled: ParametricCompiled[S, A] = field(repr=False)
    _values: tuple[RationalFunction, ...] = field(repr=False)
    _unknown = "is not reached when the profile is played"

    @property
    def _pc(self) -> ParametricCompiled[S, A]:  # type: ignore[override]
        return self.compiled

    def _check_at(self, x: Fraction) -> None:
        lo, hi = self.interval
        if not lo < x < hi:
            raise InvalidArgumentError(f"at = {x} is outside the parameter interval ({lo}, {hi})")

    def _choice_at(self, i: int) -> int:
        return self._pc.act_ptr[i]  # one action per state: the profile's

    def _held(self, i: int) -> Sequence[int]:
        return (self._choice_at(i),)

    @property
    def strategy(self) -> dict[S, A]:
        """The profile: every reached state's action."""
        pc = self._pc
        return {s: pc.act_labels[pc.act_ptr[i]] for i, s in enumerate(pc.states)}

    def optimal_actions(self, state: S | Initial = INITIAL) -> tuple[A, ...]:
        """The profile's action alone: nobody optimises (as in a solution of :func:`tbsg.evaluate`)."""
        return (self.action(state),)

    @property
    def values(self) -> dict[S, RationalFunction]:
        """Every reached state's value to player 0 (a dict)."""
        return dict(zip(self.compiled.states, self._values, strict=True))

    @deprecated("ParametricValues.value_at(x, state)", "ParametricValues.value(state, at=x)")
    def value_at(self, x: Point, state: S | None = None) -> Fraction:
        """The exact value at the rational parameter ``x``."""
        return self.value(INITIAL if state is None else state, at=x)
