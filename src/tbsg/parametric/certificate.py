"""Independent re-check of a :class:`~tbsg.parametric.solve.ParametricSolution`.

:func:`verify_parametric` trusts nothing the solver computed except what it records: the
regions' ends, each region's profile and value formulas, the breakpoints' ties and
changes. It compiles the solution's game afresh (the probabilities come from the game,
not from the solver's compiled copy) and checks

1. *Cover*: the regions run from the interval's lower end to its upper end, each
   non-empty, each ending where the next begins, and the breakpoints are those ends.
2. *Values*: on each region the recorded formulas satisfy the profile's equations
   ``v(s) = c_sigma(s) + sum_t p_sigma(s),t v(t)`` identically (as rational functions), and
   the profile stops (from every state its actions reach an outcome that ends play), so
   the equations have one solution: the recorded formulas *are* the profile's values,
   re-derived without the elimination that produced them.
3. *Signs*: every advantage ``d_k = +-(Q_k - v)`` (sign by mover) is ``<= 0`` on the whole
   closed region: its denominator has no real root in the region, no irreducible factor
   of odd multiplicity of its numerator has a root strictly inside, and it is ``<= 0`` at
   a rational point inside where it does not vanish (or vanishes identically). Factoring
   and root isolation here are sympy's (``factor_list``, ``Poly.intervals``: Collins and
   Akritas' method in pure Python), not FLINT's, which the solver uses.
4. *Ties*: at each breakpoint, the recorded optimal actions of each state are exactly
   those whose advantage (with the left region's values) vanishes there: the breakpoint's
   minimal polynomial divides the numerator (sympy's polynomial remainder).

Then the profile of each region is optimal at every point of it (a stopping game's
Bellman equations have one solution), so the region's formula is the game's value there.
Also checked: each region's ``value`` is its initial state's formula, and each
breakpoint's ``changes`` are the differences between the two profiles. Not re-checked:
the solver's finer record of *how* each non-chosen action compares inside a region (the
kinds ``Region.certificate()`` lists: tied throughout, touching 0 at a point) and the
region's list of actions optimal throughout; the signs above are what certifies the
region.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

from tbsg.errors import TbsgError
from tbsg.parametric.algebraic import RealAlgebraic, rational_between
from tbsg.parametric.compile import compile_parametric
from tbsg.parametric.linear import action_values
from tbsg.parametric.rational import RationalFunction

if TYPE_CHECKING:
    from tbsg.parametric.compile import ParametricCompiled
    from tbsg.parametric.solve import ParametricSolution, Region

__all__ = ["ParametricVerification", "verify_parametric"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)


@dataclass(frozen=True)
class ParametricVerification:
    """Outcome of :func:`verify_parametric`: true iff every check passed.

    Attributes
    ----------
    ok : bool
    regions, breakpoints : int
        How many were checked.
    problems : tuple of str
        What failed (empty when ``ok``).
    """

    ok: bool
    regions: int
    breakpoints: int
    problems: tuple[str, ...]

    def __bool__(self) -> bool:
        return self.ok


def _sympy_poly(rf_part: Any, sym: Any) -> Any:
    import sympy

    coeffs = [sympy.Rational(int(c.p), int(c.q)) for c in reversed(rf_part.coeffs())]
    return sympy.Poly(coeffs or [0], sym, domain="QQ")


def _roots_inside(poly: Any, lo: RealAlgebraic, hi: RealAlgebraic) -> list[RealAlgebraic]:
    """Roots of a sympy polynomial strictly inside ``(lo, hi)``, via sympy factoring and isolation."""
    import sympy

    out: list[RealAlgebraic] = []
    _, factors = sympy.factor_list(poly)
    for f, _e in factors:
        if f.degree() < 1:
            continue
        coeffs = tuple(int(c) for c in reversed(f.clear_denoms()[1].set_domain("ZZ").all_coeffs()))
        if coeffs[-1] < 0:
            coeffs = tuple(-c for c in coeffs)
        for (a, b), _m in f.intervals():
            a, b = Fraction(int(a.p), int(a.q)), Fraction(int(b.p), int(b.q))
            r = RealAlgebraic(coeffs, a, b) if len(coeffs) > 2 else RealAlgebraic.rational(
                Fraction(-coeffs[0], coeffs[1]))
            if lo < r < hi:
                out.append(r)
    return out


def _odd_roots_inside(poly: Any, lo: RealAlgebraic, hi: RealAlgebraic) -> list[RealAlgebraic]:
    import sympy

    _, factors = sympy.factor_list(poly)
    out: list[RealAlgebraic] = []
    for f, e in factors:
        if e % 2 == 1:
            out += _roots_inside(sympy.Poly(f, poly.gens[0]), lo, hi)
    return out


def _stops(pc: ParametricCompiled[Any, Any], choice: tuple[int, ...]) -> bool:
    """Whether, under the profile, every state reaches an action with terminal outcomes."""
    n = pc.n_states
    preds: list[list[int]] = [[] for _ in range(n)]
    done = [False] * n
    queue: deque[int] = deque()
    for i in range(n):
        k = choice[i]
        if pc.terminals[k]:
            done[i] = True
            queue.append(i)
        for o in range(pc.out_ptr[k], pc.out_ptr[k + 1]):
            preds[pc.out_target[o]].append(i)
    while queue:
        j = queue.popleft()
        for i in preds[j]:
            if not done[i]:
                done[i] = True
                queue.append(i)
    return all(done)


def _advantage(pc: ParametricCompiled[Any, Any], values: tuple[RationalFunction, ...],
               k: int) -> RationalFunction:
    i = pc.act_state[k]
    d = action_values(pc, values, k) - values[i]
    return d if pc.player[i] == 0 else -d


def _check_region(sol: ParametricSolution[Any, Any], pc: ParametricCompiled[Any, Any], r: Region[Any, Any],
                  n: int) -> list[str]:
    sym = sol.symbol
    problems: list[str] = []
    values, choice = r._values, r._choice
    if len(values) != pc.n_states or len(choice) != pc.n_states:
        return [f"region {n}: the profile or the values do not cover the states"]
    for i, k in enumerate(choice):
        if pc.act_state[k] != i:
            return [f"region {n}: state {pc.states[i]!r} plays an action of another state"]
        if action_values(pc, values, k) != values[i]:
            problems.append(f"region {n}: the value formula of state {pc.states[i]!r} does not "
                            "solve the profile's equations")
    if not _stops(pc, choice):
        problems.append(f"region {n}: the profile does not stop from every state")
    if problems:
        return problems
    if not r.lo < RealAlgebraic.rational(r.sample) < r.hi:
        problems.append(f"region {n}: its sample point {r.sample} is not inside it")
    for k in range(pc.n_actions):
        d = _advantage(pc, values, k)
        s, a = pc.states[pc.act_state[k]], pc.act_labels[k]
        if d.is_zero():
            continue
        num, den = _sympy_poly(d.num, sym), _sympy_poly(d.den, sym)
        if den.degree() > 0 and (_roots_inside(den, r.lo, r.hi) or _is_root(den, r.lo)
                                 or _is_root(den, r.hi)):
            problems.append(f"region {n}: the advantage of {a!r} at {s!r} has a pole in the region")
            continue
        odd = _odd_roots_inside(num, r.lo, r.hi)
        if odd:
            problems.append(f"region {n}: the advantage of {a!r} at {s!r} changes sign at "
                            f"{odd[0]} inside the region")
            continue
        x = r.sample
        while d(x) == 0:
            x = rational_between(RealAlgebraic.rational(x), r.hi)
        if d(x) > 0:
            problems.append(f"region {n}: action {a!r} at {s!r} is better than the profile's "
                            f"(by {d(x)} at {sym} = {x})")
    if r.value != values[0]:
        problems.append(f"region {n}: its value is not the initial state's value formula")
    return problems


def _is_root(poly: Any, x: RealAlgebraic) -> bool:
    import sympy

    if x.is_rational():
        return bool(poly.eval(sympy.Rational(x.lo.numerator, x.lo.denominator)) == 0)
    m = sympy.Poly(list(reversed(x.minimal_polynomial)), poly.gens[0], domain="QQ")
    return bool(poly.rem(m).is_zero)


def verify_parametric(sol: ParametricSolution[S, A]) -> ParametricVerification:
    """Re-check a parametric solution (see the module docstring); never raises on a bad one.

    Examples
    --------
    >>> import sympy
    >>> from tbsg.games import biased_risk_or_safety
    >>> from tbsg.parametric import solve_parametric
    >>> p = sympy.Symbol("p")
    >>> verify_parametric(solve_parametric(biased_risk_or_safety(2, p), p)).ok
    True
    """
    problems: list[str] = []
    regions = sol.regions
    # the game itself, compiled afresh: nothing the solver compiled is trusted
    try:
        pc = compile_parametric(sol.game, sol.symbol, sol.interval)
    except TbsgError as exc:
        return ParametricVerification(False, len(regions), len(sol.breakpoints),
                                      (f"the solution's game does not compile: {exc}",))
    rec = sol.compiled
    if (pc.states != rec.states or pc.act_labels != rec.act_labels
            or list(pc.act_state) != list(rec.act_state)):
        return ParametricVerification(False, len(regions), len(sol.breakpoints), (
            "the solution's game has other states or actions than the solution records",))
    lo, hi = (RealAlgebraic.rational(e) for e in sol.interval)
    if not regions:
        problems.append("no regions")
    else:
        if regions[0].lo != lo or regions[-1].hi != hi:
            problems.append("the regions do not run from one end of the interval to the other")
        for n, r in enumerate(regions):
            if not r.lo < r.hi:
                problems.append(f"region {n} is empty")
            if n + 1 < len(regions) and r.hi != regions[n + 1].lo:
                problems.append(f"region {n} does not end where region {n + 1} begins")
        if len(sol.breakpoints) != len(regions) - 1:
            problems.append("there is not one breakpoint between each two regions")
    if problems:
        return ParametricVerification(False, len(regions), len(sol.breakpoints), tuple(problems))
    for n, r in enumerate(regions):
        problems += _check_region(sol, pc, r, n)
    for n, b in enumerate(sol.breakpoints):
        left, right = regions[n], regions[n + 1]
        if b.at != left.hi:
            problems.append(f"breakpoint {n} is not the end of region {n}")
            continue
        changed = {(pc.states[i], pc.act_labels[k], pc.act_labels[m])
                   for i, (k, m) in enumerate(zip(left._choice, right._choice, strict=True)) if k != m}
        if set(b.changes) != changed:
            problems.append(f"breakpoint {n}: the recorded changes are not the profiles' differences")
        for i in range(pc.n_states):
            ks = pc.actions_of(i)
            if len(ks) < 2:
                continue
            best = tuple(pc.act_labels[k] for k in ks if k == left._choice[i] or
                         _is_root(_sympy_poly(_advantage(pc, left._values, k).num, sol.symbol), b.at))
            recorded = b.ties.get(pc.states[i], (pc.act_labels[left._choice[i]],))
            if set(best) != set(recorded):
                problems.append(f"breakpoint {n}: at state {pc.states[i]!r} the optimal actions are "
                                f"{best}, recorded {recorded}")
    return ParametricVerification(not problems, len(regions), len(sol.breakpoints), tuple(problems))
