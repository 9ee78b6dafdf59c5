"""Optimal play for every value of a parameter: regions, exact breakpoints, value formulas.

Mathematics
-----------
For ``p`` in the open interval ``(lo, hi)`` every probability of the game is positive, so
the state graph, and with it stopping-ness, does not depend on ``p``
(:mod:`tbsg.parametric.compile`). For a fixed profile ``sigma`` the values ``v_sigma(p)``
are rational functions (:mod:`tbsg.parametric.linear`). Let

.. math:: d_k(p) = \\pm\\big(Q_k(p) - v_\\sigma(s)(p)\\big), \\qquad
          Q_k = c_k + \\sum_t p_{kt}\\, v_\\sigma(t),

the *advantage* of action ``k`` at its state ``s`` (sign ``+`` where player 0 moves, ``-``
where player 1 moves). In a stopping game ``sigma`` is optimal at ``p`` iff ``d_k(p) <= 0``
for every action (the values then solve the Bellman equations, whose solution is unique).
Each ``d_k = n_k / e_k`` is a rational function whose denominator has no root in the
interval (``v_sigma`` is finite there), so the set where ``sigma`` is optimal is a finite
union of closed intervals whose ends are real roots of the numerators ``n_k``: the optimal
strategy is piecewise constant in ``p`` and changes only at real algebraic numbers.

Algorithm
---------
A worklist of uncovered open gaps, initially the whole interval. For a gap ``(L, R)``:

1. take the simplest rational ``x`` in it and solve the numeric game at ``p = x`` exactly
   (:func:`tbsg.solve`): an optimal profile ``sigma``;
2. compute ``v_sigma`` and every advantage ``d_k`` as rational functions;
3. isolate the real roots of each numerator in ``(L, R)`` (:mod:`tbsg.parametric.algebraic`)
   and the sign of ``d_k`` between consecutive roots (at a rational sample point);
4. the *region* of ``sigma`` is the largest interval ``[a, b]`` around ``x`` inside
   ``[L, R]`` on which no ``d_k`` is positive; ``(L, a)`` and ``(b, R)`` go back on the
   worklist. (If ``x`` happens to be a breakpoint at which the numeric solver chose an
   action optimal only at ``x``, ``[a, b] = {x}``: another ``x`` nearer ``R`` is tried.)

Each new region is a connected component, not met before, of the optimality set of one
of finitely many profiles, so the loop ends. At a breakpoint ``alpha`` the optimal actions
of a state are those whose advantage vanishes there (exactly: the minimal polynomial of
``alpha`` divides the numerator), computed with the profile of the region on its left,
which is optimal at ``alpha`` (regions are closed). The value function is continuous.

The certificate of a region is its profile and the sign pattern of every advantage on it
(negative, identically zero, or touching zero at recorded points); :func:`verify_parametric
<tbsg.parametric.certificate.verify_parametric>` re-derives both independently.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

from tbsg._util.progress import make_progress
from tbsg.api.solving import solve
from tbsg.engine.compile import DEFAULT_MAX_STATES
from tbsg.errors import InvalidArgumentError, show
from tbsg.model.fixed import FixedStrategyGame
from tbsg.model.protocol import Game
from tbsg.parametric.algebraic import (
    RealAlgebraic,
    rational_between,
    real_roots_mult,
    sign_on,
    vanishes_at,
)
from tbsg.parametric.compile import ParametricCompiled, compile_parametric
from tbsg.parametric.linear import profile_values
from tbsg.parametric.rational import RationalFunction
from tbsg.parametric.results import (
    Breakpoint,
    ParametricSolution,
    ParametricValues,
    Piecewise,
    Region,
    advantage,
)

if TYPE_CHECKING:
    import sympy
    from flint import fmpz_poly

__all__ = ["Breakpoint", "ParametricSolution", "ParametricValues", "Piecewise", "Region",
           "evaluate_parametric", "solve_parametric"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

Interval = tuple[Fraction | int, Fraction | int]


def _symbol(p: object) -> sympy.Symbol:
    import sympy

    if not isinstance(p, sympy.Symbol):
        raise InvalidArgumentError(f"the parameter must be a sympy.Symbol, got {show(p)}")
    return p


def evaluate_parametric(game: Game[S, A], p: sympy.Symbol,
                        strategy: Mapping[S, A] | Callable[[S], A],
                        interval: Interval = (0, 1), *,
                        max_states: int = DEFAULT_MAX_STATES) -> ParametricValues[S, A]:
    """Values of a fixed profile (both players' actions) as exact rational functions of ``p``.

    Parameters
    ----------
    game : Game
        A game whose probabilities are sympy expressions in ``p`` (or constants).
    p : sympy.Symbol
    strategy : mapping or callable
        Every state's action (states with one action may be left out of a mapping).
    interval : (lo, hi)
        The open interval of ``p`` on which every probability must be positive.

    Returns
    -------
    ParametricValues
        The profile's values, answering the same queries as a :class:`Region` (a fixed
        profile has no regions of optimality, so no :class:`ParametricSolution`: see
        :mod:`tbsg.parametric.results`), as :func:`tbsg.evaluate`'s solution answers those of
        :func:`tbsg.solve`'s.

    Examples
    --------
    >>> import sympy, tbsg
    >>> from tbsg.games import biased_risk_or_safety
    >>> p = sympy.Symbol("p")
    >>> ev = evaluate_parametric(biased_risk_or_safety(2, p), p, lambda s: "toss")
    >>> ev.value(), ev.value(at=Fraction(1, 2))
    (RationalFunction('-1/(p^2 - 2)'), Fraction(4, 7))
    """
    sym = _symbol(p)
    fixed = FixedStrategyGame(game, strategy, (0, 1))
    pc: ParametricCompiled[S, A] = compile_parametric(fixed, sym, interval,  # type: ignore[arg-type]
                                                      max_states=max_states)
    choice = [pc.act_ptr[i] for i in range(pc.n_states)]
    return ParametricValues(sym, pc.interval, pc, tuple(profile_values(pc, choice)))


def _signed_numerator(d: RationalFunction, x: Fraction) -> fmpz_poly:
    """An integer polynomial with the sign of ``d`` on the interval (``d``'s denominator has
    no root there: its sign at ``x`` is its sign everywhere)."""
    n, e = d.integer_parts()
    ex = e(_fq(x))
    if ex == 0:  # pragma: no cover - a stopping game's values have no pole in the interval
        raise RuntimeError(f"internal error: an advantage has a pole at {x}")
    return n if ex > 0 else -n


def _fq(x: Fraction) -> Any:
    from flint import fmpq

    return fmpq(x.numerator, x.denominator)


def _sign_between(poly: fmpz_poly, a: RealAlgebraic, b: RealAlgebraic) -> int:
    x = rational_between(a, b)
    v = poly(_fq(x))
    return int(v > 0) - int(v < 0)


def _feasible(poly: fmpz_poly, x: RealAlgebraic, lo: RealAlgebraic,
              hi: RealAlgebraic) -> tuple[RealAlgebraic, RealAlgebraic, list[RealAlgebraic]] | None:
    """The largest interval ``[a, b]`` around ``x`` inside ``[lo, hi]`` where ``poly <= 0``,
    and the roots of ``poly`` strictly inside it; None if ``poly > 0`` near ``x`` on both sides.

    The sign on the first sub-interval between roots is read at a rational point; it flips
    at each root of odd multiplicity (the roots are those of irreducible factors). Where
    Descartes' rule proves that ``poly`` has no root in an interval holding ``[lo, hi]``,
    it has one sign there (:func:`~tbsg.parametric.algebraic.sign_on`), and nothing is
    factored.
    """
    sign = sign_on(poly, lo.tight[0], hi.tight[1])  # type: ignore[index]
    if sign:  # no root in (lo, hi), one sign throughout (the common case; nothing factored)
        return (lo, hi, []) if sign < 0 else None
    found = real_roots_mult(poly, lo, hi)
    roots = [r for r, _ in found]
    pts = [lo, *roots, hi]
    signs = [_sign_between(poly, pts[0], pts[1])]
    for _, mult in found:
        signs.append(-signs[-1] if mult % 2 else signs[-1])
    # the sub-intervals (pts[j], pts[j+1]) whose closure holds x
    touching = [j for j in range(len(signs)) if pts[j] <= x <= pts[j + 1]]
    ok = [j for j in touching if signs[j] <= 0]
    if not ok:
        return None
    j0, j1 = ok[0], ok[-1]
    while j0 > 0 and signs[j0 - 1] <= 0:
        j0 -= 1
    while j1 + 1 < len(signs) and signs[j1 + 1] <= 0:
        j1 += 1
    a, b = pts[j0], pts[j1 + 1]
    return a, b, [r for r in roots if a < r < b]


def _region(pc: ParametricCompiled[S, A], x: Fraction, lo: RealAlgebraic,
            hi: RealAlgebraic) -> Region[S, A] | None:
    """The region around ``x`` (inside ``[lo, hi]``) of the profile optimal at ``x``."""
    sol = solve(pc.at(x), progress=False)  # the search reports regions, not each solve
    choice = tuple(int(sol.action(i)) for i in range(pc.n_states))
    values = profile_values(pc, choice)
    xa = RealAlgebraic.rational(x)
    a, b = lo, hi
    zero: list[int] = []
    constraints: list[tuple[int, fmpz_poly, list[RealAlgebraic]]] = []
    chosen = set(choice)
    for k in range(pc.n_actions):
        if k in chosen:
            continue
        d = advantage(pc, values, k)
        if d.is_zero():
            zero.append(k)
            continue
        poly = _signed_numerator(d, x)
        if poly.degree() == 0:
            if poly.coeffs()[0] > 0:  # pragma: no cover - the numeric solve is optimal at x
                raise RuntimeError(f"internal error: action {k} beats the optimal profile at {x}")
            continue
        got = _feasible(poly, xa, a, b)
        if got is None:
            return None
        a, b, inside = got
        constraints.append((k, poly, inside))
    if a == b:
        return None
    if not a < xa < b:  # x is a (rational) end: record a point inside as the region's sample
        x = rational_between(a, b)
    touch: list[tuple[RealAlgebraic, int]] = []
    for k, _, inside in constraints:  # roots inside the final region: the region only shrank
        touch += [(r, k) for r in inside if a < r < b]
    return Region(lo=a, hi=b, sample=x, _pc=pc, _choice=choice,
                  _values=tuple(values), _zero=tuple(zero), _touch=tuple(touch),
                  _adv=tuple((k, poly) for k, poly, _ in constraints))


def solve_parametric(game: Game[S, A], p: sympy.Symbol, interval: Interval = (0, 1), *,
                     max_states: int = DEFAULT_MAX_STATES,
                     progress: bool | None = None) -> ParametricSolution[S, A]:
    """Optimal play of a parametric game for every ``p`` in the open ``interval``.

    Parameters
    ----------
    game : Game
        A game whose outcome probabilities are sympy expressions in ``p`` (or constants),
        each positive on the interval, summing to 1 identically (checked).
    p : sympy.Symbol
        The parameter.
    interval : (lo, hi)
        The open interval of ``p`` (rationals, ``lo < hi``); default ``(0, 1)``.
    max_states : int
        Stop with :class:`tbsg.StateLimitError` past this many states.
    progress : bool or None
        Report the regions found on standard error during a long search (a bar on a
        terminal, a line every few seconds elsewhere; :mod:`tbsg._util.progress`):
        ``None`` (default) after a few seconds, ``True`` from the start, ``False`` never.

    Returns
    -------
    ParametricSolution
        Regions (each with an optimal profile, its value formulas and a certificate),
        exact breakpoints and the ties at them. :func:`verify_parametric` re-checks it.

    Raises
    ------
    InvalidGameError, ExactnessError, NonStoppingGameError, InvalidArgumentError

    Examples
    --------
    Risk or Safety to 2 points with a coin that shows heads with probability ``p``:

    >>> import sympy
    >>> from tbsg.games import biased_risk_or_safety
    >>> p = sympy.Symbol("p")
    >>> sol = solve_parametric(biased_risk_or_safety(2, p), p)
    >>> [b.at.decimal(9) for b in sol.breakpoints]
    ['0.292893218', '0.403031716']
    >>> sol.breakpoints[0].at.minimal_polynomial       # 2p^2 - 4p + 1: p = 1 - 1/sqrt(2)
    (1, -4, 2)
    >>> sol.regions[-1].value(), sol.value(at=Fraction(1, 2))   # toss on, whatever the score
    (RationalFunction('-1/(p^2 - 2)'), Fraction(4, 7))

    A reward game: stop, or earn 1 per toss and toss again on heads, tails costing 3.
    Tossing for ever is worth ``(3p - 2)/(1 - p)`` (``v = 1 + p v - 3(1 - p)``), worth
    more than stopping from ``p = 2/3``:

    >>> import tbsg
    >>> class StopOrToss:
    ...     initial = "s"
    ...     def actions(self, s): return ("stop", "toss")
    ...     def reward(self, s, a): return 1 if a == "toss" else 0
    ...     def outcomes(self, s, a):
    ...         if a == "stop":
    ...             return [(1, tbsg.Terminal(0))]
    ...         return [(p, "s"), (1 - p, tbsg.Terminal(-3))]
    >>> sol = solve_parametric(StopOrToss(), p)
    >>> sol.breakpoints[0].at.decimal(6), sol.regions[1].value(), sol.win_probability
    ('0.666666', RationalFunction('(-3*p + 2)/(p - 1)'), False)
    """
    import time

    start = time.process_time()
    sym = _symbol(p)
    pc = compile_parametric(game, sym, interval, max_states=max_states)  # type: ignore[arg-type]
    lo, hi = (RealAlgebraic.rational(e) for e in pc.interval)
    report, close = make_progress(_check_progress(progress), "parametric regions", unit="region",
                                  open_ended=True)
    try:
        found = _search(pc, lo, hi, report)
    finally:
        close()
    found.sort(key=lambda r: r.sample)
    regions = _merge(found)
    breakpoints = tuple(_breakpoint(pc, regions[i], regions[i + 1]) for i in range(len(regions) - 1))
    return ParametricSolution(game=game, symbol=sym, interval=pc.interval, regions=tuple(regions),
                              breakpoints=breakpoints, compiled=pc,
                              seconds=time.process_time() - start)


def _search(pc: ParametricCompiled[S, A], lo: RealAlgebraic, hi: RealAlgebraic,
            report: Callable[[int, int], None] | None) -> list[Region[S, A]]:
    """The regions covering ``(lo, hi)``: solve at a rational inside a gap, keep its region,
    search what is left on each side."""
    found: list[Region[S, A]] = []
    gaps = [(lo, hi)]
    while gaps:
        left, right = gaps.pop()
        x = rational_between(left, right)
        region = _region(pc, x, left, right)
        while region is None:  # x is a breakpoint where the solver's choice is optimal only at x
            x = rational_between(RealAlgebraic.rational(x), right)
            region = _region(pc, x, left, right)
        found.append(region)
        if left < region.lo:
            gaps.append((left, region.lo))
        if region.hi < right:
            gaps.append((region.hi, right))
        if report is not None:
            report(len(found), len(found) + len(gaps))
    return found


def _check_progress(progress: object) -> bool | None:
    if progress is not None and not isinstance(progress, bool):
        raise InvalidArgumentError(f"progress must be True, False or None, got {show(progress)}")
    return progress


def _merge(regions: list[Region[S, A]]) -> list[Region[S, A]]:
    """Join neighbours with the same profile (a gap's end can split one component).

    The shared end becomes a point inside: an action whose advantage vanishes there
    touches 0 at it (it is <= 0 on both sides). Touch points stay ordered by action, then
    by point, as :func:`_region` records them.
    """
    out: list[Region[S, A]] = []
    for r in regions:
        if out and out[-1]._choice == r._choice:
            prev = out.pop()
            joint = tuple((prev.hi, k) for k, poly in prev._adv if vanishes_at(poly, prev.hi))
            touch = sorted(prev._touch + joint + r._touch, key=lambda t: (t[1], t[0]))
            r = Region(lo=prev.lo, hi=r.hi, sample=prev.sample, _pc=prev._pc,
                       _choice=prev._choice, _values=prev._values,
                       _zero=tuple(sorted(set(prev._zero) & set(r._zero))),
                       _touch=tuple(touch), _adv=prev._adv)
        out.append(r)
    return out


def _breakpoint(pc: ParametricCompiled[S, A], left: Region[S, A], right: Region[S, A]) -> Breakpoint[S, A]:
    at = left.hi
    changes = tuple((pc.states[i], pc.act_labels[a], pc.act_labels[b])
                    for i, (a, b) in enumerate(zip(left._choice, right._choice, strict=True)) if a != b)
    # optimal at ``at``: the profile's actions, those tied identically, and those whose
    # (non-constant) advantage numerator vanishes there; a constant advantage is negative
    tied = set(left._zero) | {k for k, poly in left._adv if vanishes_at(poly, at)}
    ties: dict[S, tuple[A, ...]] = {}
    for i in range(pc.n_states):
        ks = pc.actions_of(i)
        if len(ks) < 2:
            continue
        best = [k for k in ks if k == left._choice[i] or k in tied]
        if len(best) > 1:
            ties[pc.states[i]] = tuple(pc.act_labels[k] for k in best)
    return Breakpoint(at=at, changes=changes, ties=ties)
