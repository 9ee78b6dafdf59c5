"""Independent re-check of a :class:`~tbsg.parametric.solve.ParametricSolution`.

:func:`verify_parametric` trusts nothing the solution holds. It compiles the solution's
game afresh from its plain protocol (:func:`~tbsg.parametric.compile.compile_parametric`
on ``sol.game``, ``sol.symbol``, ``sol.interval``: the probabilities and payoffs come
from the game, not from the solver's compiled copy) and checks every field a user reads,
either against that fresh compile or by deriving it again:

1. *Records*: the solution's compiled game (``sol.compiled``, which ``n_states``,
   ``states`` and ``optimal_actions`` read) and each region's (which ``action``,
   ``strategy``, ``value``, ``optimal_actions``, ``touch_points`` and ``certificate()`` read) equal
   the fresh compile field by field: the states in their order and their numbering, the
   movers, each state's actions and their labels, each action's reward ``w_k(p)`` (asked
   of the game's own ``reward`` method again), constant payoff ``c_k(p)`` (the reward plus
   the expected terminal payoff) and terminal outcomes, its successors and their
   probabilities, and whether the game is a win-probability game (which decides player
   1's view of every value: ``1 - v`` or ``-v``). A region's
   profile names, at each state, one of that state's own actions.
2. *Cover*: the regions run from the interval's lower end to its upper end, each
   non-empty, each ending where the next begins, and the breakpoints are those ends.
   Every end is a well-formed real algebraic number: an integer minimal polynomial,
   primitive with a positive leading coefficient, irreducible (sympy's test), with
   exactly one root in its isolating interval and in the cached narrower one.
3. *Values*: on each region the recorded formulas satisfy the profile's equations
   ``v(s) = c_sigma(s) + sum_t p_sigma(s),t v(t)`` identically (as rational functions), and
   the profile stops (from every state its actions reach an outcome that ends play), so
   the equations have one solution: the recorded formulas *are* the profile's values,
   re-derived without the elimination that produced them (every value query of a region
   reads them), and the region's ``sample`` is a rational strictly inside it.
4. *Signs*: every advantage ``d_k = +-(Q_k - v)`` (sign by mover) is ``<= 0`` on the whole
   region (closed, except at the interval's own open ends, which it does not hold: there
   a reward game's totals may grow without bound, as ``1/(1 - p)`` tosses of a coin
   tossed again on heads do): its denominator has no real root in the region, no irreducible factor
   of odd multiplicity of its numerator has a root strictly inside, and it is ``<= 0`` at
   a rational point inside where it does not vanish (or vanishes identically). Factoring
   and root isolation here are sympy's (``factor_list``, ``Poly.intervals``: Collins and
   Akritas' method in pure Python), not FLINT's, which the solver uses. Before factoring,
   Descartes' rule of signs is tried (:func:`_root_free`, in integers, written apart from
   the solver's test over Q): if the Moebius transform of a polynomial to an interval
   holding the region (the ends' cached isolating intervals) has coefficients of one
   sign, the polynomial has no root there, so it has no root inside, no factor to
   classify, and its sign is the one read at the rational point. That is the case of
   almost every advantage (an action's advantage has roots only where it becomes
   optimal, which is at most a few of the regions). An advantage that vanishes at an end
   of the region (an action optimal again there) is first divided by that end's minimal
   polynomial as often as it divides it: the rule must then exclude the quotient's roots
   from the interval, and the minimal polynomial's other roots from the region less the
   end's isolating interval, which holds no other root (check 2) (:func:`_none_inside`).
   Factoring and isolation run only for the few polynomials this does not settle. A
   denominator is tested once on the whole open interval (values share their
   denominators); no root there is no root in any region.
5. *What the signs imply*, re-derived and compared with the record: the actions tied
   with the profile's throughout the region (``d_k`` identically 0: the zero set that
   ``optimal_actions`` reports) and the points strictly inside where an action touches 0
   without crossing (the roots of the even-multiplicity factors of ``d_k``'s numerator:
   ``touch_points`` and ``certificate()``), each in the solver's order (by action, then
   by point).
6. *Breakpoints*: each is the end of the region on its left; its ``changes`` are the
   states whose profile action differs between the two regions, in the states' order;
   its ``ties`` are exactly the states with more than one optimal action there, each with
   the actions whose advantage (with the left region's values) vanishes at the
   breakpoint (the numerator's exact value at a rational breakpoint, else the exact
   remainder of the numerator by the breakpoint's minimal polynomial; taken while
   checking the left region, at its upper end, which the breakpoint is), in the order of
   the state's actions.

Then the profile of each region is optimal at every point of it (a stopping game's
Bellman equations have one solution), so the region's formula is the game's value there.

Every public field and method of the result types, and what covers it:

=========================================  ===========================================
``ParametricSolution.game``, ``symbol``    the definition: compiled afresh
``interval``, ``regions``, ``region_at``   the cover (2)
``compiled``, ``n_states``, ``states``     equal to the fresh compile (1)
``win_probability`` (and player 1's view)  equal to the fresh compile's (1)
``value``, ``values``, ``action_values``   the values (3) of the regions (holding ``at``)
``optimal_actions``, ``action``            the values (3) and the fresh compile (1)
``breakpoints``                            the cover (2) and the breakpoints (6)
``seconds``                                not checked: a timing
``Region.lo``, ``hi``, ``contains``        the cover (2)
``Region.sample``, ``value``, ``values``  the values (3)
``Region.action``, ``strategy``            the profile and the compile (1), signs (4)
``Region.optimal_actions``                 the zero set (5)
``Region.touch_points``, ``certificate``   the zero set and touch points (5)
``Breakpoint.at``, ``changes``, ``ties``   the breakpoints (6)
=========================================  ===========================================

Not read after the solve, so not checked: ``Region._adv``, the signed numerators the
solver used to find the ties (which (6) derives again).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import deque
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from itertools import pairwise
from typing import TYPE_CHECKING, Any, TypeVar

from flint import fmpq_poly, fmpz_poly

from tbsg._util.progress import make_progress
from tbsg.errors import InvalidArgumentError, TbsgError, show
from tbsg.parametric.algebraic import RealAlgebraic, rational_between
from tbsg.parametric.compile import ParametricCompiled, compile_parametric
from tbsg.parametric.linear import action_gain, action_values
from tbsg.parametric.rational import RationalFunction, to_fmpq

if TYPE_CHECKING:
    from tbsg.parametric.solve import Breakpoint, ParametricSolution, Region

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
        What failed (empty when ``ok``), each naming the region or breakpoint and the
        state (and action) concerned.
    """

    ok: bool
    regions: int
    breakpoints: int
    problems: tuple[str, ...]

    def __bool__(self) -> bool:
        return self.ok


def _sympy_poly(poly: fmpz_poly, sym: Any) -> Any:
    import sympy

    return sympy.Poly([int(c) for c in reversed(poly.coeffs())] or [0], sym, domain="QQ")


def _roots_of_factor(f: Any, lo: RealAlgebraic, hi: RealAlgebraic) -> list[RealAlgebraic]:
    """Real roots strictly inside ``(lo, hi)`` of an irreducible sympy polynomial, increasing."""
    if f.degree() < 1:
        return []
    coeffs = tuple(int(c) for c in reversed(f.clear_denoms()[1].set_domain("ZZ").all_coeffs()))
    if coeffs[-1] < 0:
        coeffs = tuple(-c for c in coeffs)
    out: list[RealAlgebraic] = []
    for (a, b), _m in f.intervals():
        a, b = Fraction(int(a.p), int(a.q)), Fraction(int(b.p), int(b.q))
        r = RealAlgebraic(coeffs, a, b) if len(coeffs) > 2 else RealAlgebraic.rational(
            Fraction(-coeffs[0], coeffs[1]))
        if lo < r < hi:
            out.append(r)
    return out


def _roots_inside(poly: Any, lo: RealAlgebraic, hi: RealAlgebraic) -> list[RealAlgebraic]:
    """Roots of a sympy polynomial strictly inside ``(lo, hi)``, via sympy factoring and isolation."""
    import sympy

    out: list[RealAlgebraic] = []
    _, factors = sympy.factor_list(poly)
    for f, _e in factors:
        out += _roots_of_factor(f, lo, hi)
    return out


class _Memo:
    """What one verification derives once and reads again: the actions of each region
    whose advantage vanishes at its upper end (the ties of the breakpoint there), whether a
    denominator has no root in the whole open interval (one proof serves every region:
    values share denominators), and the checks of a well-formed real algebraic number
    (each breakpoint is also the end of two regions)."""

    def __init__(self) -> None:
        self.vanishing: dict[int, set[int]] = {}
        self.pole_free: dict[tuple[int, ...], bool] = {}
        self.algebraic: dict[tuple[Any, ...], str | None] = {}


_SMALL = 2**64
"""Ends whose denominators multiply to more than this are rounded by :func:`_root_free`."""


def _root_free(f: fmpz_poly, a: Fraction, b: Fraction, *, exact: bool = False) -> bool:
    """Whether Descartes' rule of signs proves that ``f`` (not constant) has no root in the
    open ``(a, b)``, ``a < b`` (False: it may have one): :func:`_sign_changes` is 0."""
    return _sign_changes(f, a, b, exact=exact) == 0


def _one_root(f: fmpz_poly, a: Fraction, b: Fraction) -> bool:
    """Whether ``f`` provably has exactly one root in the closed ``[a, b]``, ``a < b``: it
    is non-zero at both ends with opposite signs (an odd number of roots inside, with
    multiplicity) and Descartes' rule allows at most one (False: it may not)."""
    fa, fb = f(to_fmpq(a)), f(to_fmpq(b))
    return bool(fa * fb < 0) and _sign_changes(f, a, b, exact=True) == 1


def _sign_changes(f: fmpz_poly, a: Fraction, b: Fraction, *, exact: bool = False) -> int:
    """Descartes' bound on the roots of ``f`` (not constant) in the open ``(a, b)``, ``a < b``.

    With ``a = p/q`` and ``b = r/s``, ``x = (ps + rq t) / (qs (1 + t))`` maps ``t`` in
    ``(0, oo)`` onto ``(a, b)``, and ``(qs (1 + t))^D f(x)`` is, in integers,
    ``G(t) = sum_i c_i (qs)^(D-i) (ps + (rq - ps) u)^i`` at ``u = 1 / (1 + t)`` times
    ``(1 + t)^D``: the coefficients of ``G`` reversed, then shifted by 1. A polynomial has
    at most as many positive roots as its coefficients change sign. Ends with long
    denominators (the cached isolating intervals of breakpoints) are first rounded outward
    to dyadic ends about 1/64 of the width finer, which keeps the coefficients small: no
    root in the wider interval is none in ``(a, b)`` (``exact``: the ends as they are, for
    an interval that ends just short of a known root). (The solver's test,
    :func:`~tbsg.parametric.algebraic.descartes_bound`, is written over Q; this one is
    separate so that the two never share a routine.)
    """
    p, q, r, s = a.numerator, a.denominator, b.numerator, b.denominator
    if q * s > _SMALL and not exact:  # long ends: round outward to ends a little finer than the width
        k = max(0, (b - a).denominator.bit_length() - (b - a).numerator.bit_length() + 6)
        p, q, r, s = (a * 2**k).__floor__(), 2**k, (b * 2**k).__ceil__(), 2**k
    c = [int(x) for x in f.coeffs()]
    qs, power = q * s, 1
    for i in range(len(c) - 1, -1, -1):  # c_i (qs)^(D-i)
        c[i] *= power
        power *= qs
    g = fmpz_poly(c)(fmpz_poly([p * s, r * q - p * s]))
    rev = g.coeffs()
    rev.reverse()
    h = fmpz_poly(rev)(fmpz_poly([1, 1]))
    signs = [x > 0 for x in h.coeffs() if x != 0]
    return sum(x != y for x, y in pairwise(signs))


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


def _advantage(pc: ParametricCompiled[Any, Any], values: Sequence[RationalFunction],
               k: int) -> RationalFunction:
    d = action_gain(pc, values, k)
    return d if pc.player[pc.act_state[k]] == 0 else -d


# -- 1. the records against the fresh compile ---------------------------------------------------

def _same(x: object, y: object) -> bool:
    """Equal and of the same type (a state ``1`` is not the state ``1.0`` or ``True``)."""
    return type(x) is type(y) and bool(x == y)


def _same_items(rec: object, fresh: Sequence[Any]) -> bool:
    """Whether ``rec`` is a sequence of the same length as ``fresh`` with :func:`_same` items."""
    return (isinstance(rec, (list, tuple)) and len(rec) == len(fresh)
            and all(_same(x, y) for x, y in zip(rec, fresh, strict=True)))


def _first_difference(fresh: Sequence[Any], rec: object) -> int | None:
    """The first position where ``rec`` differs from ``fresh`` (its length if only longer or
    shorter), or None where they agree."""
    if not isinstance(rec, (list, tuple)):
        return 0
    for j, (x, y) in enumerate(zip(fresh, rec, strict=False)):
        if not _same(x, y):
            return j
    return None if len(fresh) == len(rec) else min(len(fresh), len(rec))


def _compiled_problems(fresh: ParametricCompiled[Any, Any], rec: object, what: str) -> list[str]:
    """How the recorded compiled game ``rec`` differs from the fresh compile, field by field,
    each message naming the state (and action) concerned."""
    if not isinstance(rec, ParametricCompiled):
        return [f"{what} is not a compiled parametric game: {show(rec)}"]
    problems: list[str] = []
    if not _same(rec.symbol, fresh.symbol):
        problems.append(f"{what}: its parameter is {show(rec.symbol)}, not {fresh.symbol}")
    said = getattr(rec, "win_probability", None)
    if not _same(said, fresh.win_probability):
        problems.append(f"{what}: it says win_probability={show(said)}, the game's is "
                        f"{fresh.win_probability}")
    if _first_difference(fresh.interval, rec.interval) is not None:
        problems.append(f"{what}: its interval is {show(rec.interval)}, not "
                        f"({fresh.interval[0]}, {fresh.interval[1]})")
    places = _Places(fresh)
    for name, (desc, place) in places.fields().items():
        problem = _field_problem(getattr(fresh, name), getattr(rec, name), name, desc, place)
        if problem is not None:
            problems.append(f"{what}: {problem}")
    index_problem = _index_problem(fresh, rec.index, places)
    if index_problem is not None:
        problems.append(f"{what}: {index_problem}")
    return problems


class _Places:
    """Names of the states, actions and outcomes of a compiled game, for messages (a
    number out of range is named as a number)."""

    def __init__(self, pc: ParametricCompiled[Any, Any]) -> None:
        self.pc = pc

    def state(self, i: int) -> str:
        pc = self.pc
        return f"state {show(pc.states[i], 120)}" if 0 <= i < pc.n_states else f"state number {i}"

    def action(self, k: int) -> str:
        pc = self.pc
        if not 0 <= k < pc.n_actions:
            return f"action number {k}"
        return f"action {show(pc.act_labels[k], 60)} of {self.state(pc.act_state[k])}"

    def outcome(self, o: int) -> str:
        return f"an outcome of {self.action(bisect_right(self.pc.out_ptr, o) - 1)}"

    def fields(self) -> dict[str, tuple[str, Callable[[int], str]]]:
        """Each compared field: how to name one of its entries, and what entry ``j`` is."""
        return {
            "states": ("the state numbered", str),
            "player": ("the mover of", self.state),
            "act_ptr": ("the actions of", lambda j: self.state(max(j - 1, 0))),
            "act_labels": ("the label of", self.action),
            "act_state": ("the state of", self.action),
            "reward": ("the reward w_k of", self.action),
            "const": ("the constant payoff c_k of", self.action),
            "terminals": ("the terminal outcomes of", self.action),
            "out_ptr": ("the outcomes of", lambda j: self.action(max(j - 1, 0))),
            "out_target": ("the successor of", self.outcome),
            "out_prob": ("the probability of", self.outcome),
        }


def _field_problem(a: Sequence[Any], b: object, name: str, desc: str,
                   place: Callable[[int], str]) -> str | None:
    """How the recorded field ``b`` differs from the fresh ``a`` (its first difference), or None."""
    j = _first_difference(a, b)
    if j is None:
        return None
    if not isinstance(b, (list, tuple)):
        return f"its {name} is not a list: {show(b, 80)}"
    if j >= len(a) or j >= len(b):
        return (f"{len(b)} entries of {name} recorded, the game has {len(a)} (the first missing "
                f"or extra is {desc} {place(j)})")
    return f"{desc} {place(j)} is recorded as {show(b[j], 120)}, the game's is {show(a[j], 120)}"


def _index_problem(fresh: ParametricCompiled[Any, Any], index: object, places: _Places) -> str | None:
    """How the recorded index of states differs from the fresh one, or None."""
    if isinstance(index, dict) and index == fresh.index:
        return None
    if not isinstance(index, dict):
        return f"its index of states is not a dict: {show(index, 80)}"
    bad = next((i for i, s in enumerate(fresh.states) if index.get(s) != i), None)
    if bad is None:
        return f"its index of states has {len(index)} entries, the game has {fresh.n_states} states"
    return (f"its index numbers {places.state(bad)} {show(index.get(fresh.states[bad]))}, the "
            f"game's enumeration {bad}")


def _structure_differs(fresh: ParametricCompiled[Any, Any], rec: object) -> bool:
    """Whether state and action numbers mean other things in ``rec`` (then the profiles and
    value lists recorded over them cannot be read against the fresh compile)."""
    if not isinstance(rec, ParametricCompiled):
        return True
    return any(_first_difference(getattr(fresh, f), getattr(rec, f)) is not None
               for f in ("states", "act_ptr", "act_state", "act_labels"))


# -- 2. the cover: well-formed region ends ----------------------------------------------------

def _algebraic_problem(x: object, sym: Any, memo: _Memo) -> str | None:
    """Why ``x`` is not a well-formed real algebraic number, or None (sympy's test of
    irreducibility and root count, not the solver's FLINT; each polynomial and interval
    tested once per verification)."""
    if not isinstance(x, RealAlgebraic):
        return f"is not a RealAlgebraic: {show(x, 80)}"
    form = _form_problem(x)
    if form is not None or x.tight is None:  # (a record without a cached interval is malformed)
        return form
    key = (x.minimal_polynomial, x.lo, x.hi, *x.tight)
    if key not in memo.algebraic:
        memo.algebraic[key] = _root_problem(x, x.tight, sym)
    return memo.algebraic[key]


def _form_problem(x: RealAlgebraic) -> str | None:
    """Why the record of ``x`` is malformed: its minimal polynomial (integer, primitive,
    positive leading coefficient, the one it caches) or its intervals; or None."""
    coeffs = x.minimal_polynomial
    if (not isinstance(coeffs, tuple) or len(coeffs) < 2
            or not all(type(c) is int for c in coeffs)):
        return f"has a malformed minimal polynomial {show(coeffs, 80)}"
    if coeffs[-1] <= 0 or math.gcd(*coeffs) != 1:
        return (f"has a minimal polynomial {show(coeffs, 80)} that is not primitive with a "
                "positive leading coefficient")
    ends = (x.lo, x.hi, *(x.tight or ()))
    if not all(type(e) is Fraction for e in ends) or x.tight is None or len(x.tight) != 2:
        return "has a malformed isolating interval"
    if [int(c) for c in x.poly.coeffs()] != list(coeffs):
        return "caches another polynomial than its minimal polynomial"
    return None


def _root_problem(x: RealAlgebraic, tight: tuple[Fraction, Fraction], sym: Any) -> str | None:
    """Why the well-formed record ``x`` names no single root: a reducible polynomial, or an
    interval (isolating or cached) without exactly one root; or None. An interval with a
    sign change at its ends on which Descartes' rule allows at most one root holds exactly
    one (:func:`_one_root`); sympy counts the roots (Sturm) of any other."""
    import sympy

    coeffs = x.minimal_polynomial
    poly = sympy.Poly(list(reversed(coeffs)), sym, domain="ZZ")
    if not poly.is_irreducible:
        return f"has a reducible minimal polynomial {poly.as_expr()}"
    tlo, thi = tight
    if len(coeffs) == 2:
        root = Fraction(-coeffs[0], coeffs[1])
        if not (x.lo == x.hi == root and tlo <= root <= thi):
            return f"is the rational {root} but records the interval [{x.lo}, {x.hi}]"
        return None
    if not (x.lo <= tlo < thi <= x.hi):
        return "caches an interval outside its isolating interval"
    for a, b in ((x.lo, x.hi), (tlo, thi)):
        if _one_root(x.poly, a, b):  # settled by the signs at the ends and Descartes' rule
            continue
        if poly.count_roots(sympy.Rational(a.numerator, a.denominator),
                            sympy.Rational(b.numerator, b.denominator)) != 1:
            return f"has no single root of {poly.as_expr()} in [{a}, {b}]"
    return None


def _is_root(poly: Any, x: RealAlgebraic) -> bool:
    """Whether the polynomial ``poly`` (FLINT's, integer or rational) vanishes at ``x``: at a
    rational, its exact value; at an irrational, whether the minimal polynomial divides it."""
    if poly.is_zero():
        return True
    if x.is_rational():
        return bool(poly(to_fmpq(x.lo)) == 0)
    return bool((fmpq_poly(poly) % fmpq_poly(list(x.minimal_polynomial))).is_zero())


# -- 3 to 5. one region ------------------------------------------------------------------------

def _check_region(sol: ParametricSolution[Any, Any], pc: ParametricCompiled[Any, Any],
                  r: Region[Any, Any], n: int, memo: _Memo) -> list[str]:
    """Checks 3 to 5 of the module docstring on region ``n``."""
    problems = _profile_problems(pc, r, n)
    if problems:
        return problems
    if type(r.sample) is not Fraction or not r.lo < RealAlgebraic.rational(r.sample) < r.hi:
        return [f"region {n}: its sample point {show(r.sample)} is not a rational inside it"]
    zero, touch, problems = _sign_problems(sol.symbol, pc, r, n, memo)
    if problems:
        return problems
    return _zero_problems(pc, r, n, zero) + _touch_problems(pc, r, n, touch, memo)


def _profile_problems(pc: ParametricCompiled[Any, Any], r: Region[Any, Any], n: int) -> list[str]:
    """Check 3: the profile plays an action of each state, the value formulas solve its
    equations, and it stops."""
    values, choice = r._values, r._choice
    if (not isinstance(values, (list, tuple)) or not isinstance(choice, (list, tuple))
            or len(values) != pc.n_states or len(choice) != pc.n_states):
        return [f"region {n}: the profile or the values do not cover the {pc.n_states} states"]
    for i, k in enumerate(choice):
        if type(k) is not int or not 0 <= k < pc.n_actions or pc.act_state[k] != i:
            return [f"region {n}: the profile plays {show(k)} at state {show(pc.states[i], 120)}, "
                    "not one of that state's actions"]
    problems = [f"region {n}: the value formula of state {show(pc.states[i], 120)} does not solve "
                "the profile's equations"
                for i, k in enumerate(choice)
                if not isinstance(values[i], RationalFunction) or action_values(pc, values, k) != values[i]]
    if not _stops(pc, tuple(choice)):
        problems.append(f"region {n}: the profile does not stop from every state")
    return problems


def _sign_problems(sym: Any, pc: ParametricCompiled[Any, Any], r: Region[Any, Any], n: int,
                   memo: _Memo) -> tuple[list[int], list[tuple[RealAlgebraic, int]], list[str]]:
    """Check 4, and what it implies (5): the actions whose advantage is identically 0, the
    points where an advantage touches 0 (by action, then by point), and the problems."""
    chosen = set(r._choice)
    zero: list[int] = []
    touch: list[tuple[RealAlgebraic, int]] = []
    problems: list[str] = []
    vanishing = memo.vanishing[n] = set()
    for k in range(pc.n_actions):
        if k in chosen:  # d_k = 0: the equations of check 3
            continue
        d = _advantage(pc, r._values, k)
        if _is_root(d.num, r.hi):
            vanishing.add(k)
        if d.is_zero():
            zero.append(k)
            continue
        what = f"{show(pc.act_labels[k], 60)} at {show(pc.states[pc.act_state[k]], 120)}"
        problem, even = _advantage_problem(sym, r, d, what, (pc.interval, memo))
        if problem is not None:
            problems.append(f"region {n}: {problem}")
        touch += [(x, k) for x in sorted(even)]
    return zero, touch, problems


def _advantage_problem(sym: Any, r: Region[Any, Any], d: RationalFunction, what: str,
                       context: tuple[tuple[Fraction, Fraction], _Memo]
                       ) -> tuple[str | None, list[RealAlgebraic]]:
    """Whether the non-zero advantage ``d`` of ``what`` (an action at a state) is ``<= 0``
    on the region, closed except at the interval's own open ends (a pole there is outside
    it: a reward game's totals may grow without bound towards such an end): the problem
    or None, and the roots of the even-multiplicity factors of its numerator strictly
    inside (where it touches 0)."""
    num, den = d.integer_parts()
    if den.degree() > 0 and _has_pole(den, r, sym, context):
        return f"the advantage of {what} has a pole in the region", []
    odd, even = _roots_by_parity(num, r, sym)
    if odd:
        return f"the advantage of {what} changes sign at {min(odd)} inside the region", []
    x = r.sample
    while d(x) == 0:
        x = rational_between(RealAlgebraic.rational(x), r.hi)
    if d(x) > 0:
        return f"action {what} is better than the profile's (by {d(x)} at {sym} = {x})", even
    return None, even


def _has_pole(den: fmpz_poly, r: Region[Any, Any], sym: Any,
              context: tuple[tuple[Fraction, Fraction], _Memo]) -> bool:
    """Whether ``den`` has a root in the region (closed, less its ends that are the
    interval's own): none if Descartes' rule excludes a root from the whole open interval
    (decided once per polynomial), else by sympy's factoring and isolation."""
    (lo, hi), memo = context
    key = tuple(int(c) for c in den.coeffs())
    free = memo.pole_free.get(key)
    if free is None:
        free = memo.pole_free[key] = _root_free(den, lo, hi)
    if free:
        return False
    ends = [e for e, open_end in ((r.lo, lo), (r.hi, hi)) if e != RealAlgebraic.rational(open_end)]
    return bool(_roots_inside(_sympy_poly(den, sym), r.lo, r.hi)) or any(_is_root(den, e) for e in ends)


def _roots_by_parity(num: fmpz_poly, r: Region[Any, Any], sym: Any
                     ) -> tuple[list[RealAlgebraic], list[RealAlgebraic]]:
    """The roots strictly inside the region of the odd- and of the even-multiplicity
    irreducible factors of ``num``: none where Descartes' rule excludes every root from an
    interval holding the region; else by sympy's factoring and isolation."""
    import sympy

    if num.degree() < 1 or _root_free(num, r.lo.tight[0], r.hi.tight[1]) or _none_inside(num, r):  # type: ignore[index]
        return [], []
    odd: list[RealAlgebraic] = []
    even: list[RealAlgebraic] = []
    for f, e in sympy.factor_list(_sympy_poly(num, sym))[1]:
        (odd if e % 2 else even).extend(_roots_of_factor(sympy.Poly(f, sym), r.lo, r.hi))
    return odd, even


def _none_inside(num: fmpz_poly, r: Region[Any, Any]) -> bool:
    """Whether ``num``, which vanishes at an end of the region (where the region's profile
    stops being optimal, an advantage often does), provably has no root strictly inside.

    Each end's minimal polynomial ``m`` is divided out of ``num`` as often as it divides
    it; what remains must be root-free on an interval holding the region, and each ``m``
    on the region less its own end: from the far end of that end's isolating interval,
    which holds no other root of ``m`` (check 2 counted one), to the other end of the
    region's holding interval (both ends, when ``m`` is the minimal polynomial of both).
    """
    (lo_a, lo_b), (hi_a, hi_b) = r.lo.tight, r.hi.tight  # type: ignore[misc]
    rest, spans = num, []
    for m, a, b in _end_factors(r, (lo_a, lo_b, hi_a, hi_b)):
        mult = 0
        while rest.degree() >= m.degree() and (rest % m).is_zero():
            rest, mult = rest // m, mult + 1
        if mult and m.degree() > 1:
            spans.append((m, a, b))
    if rest is num:
        return False
    return ((rest.degree() < 1 or _root_free(rest, lo_a, hi_b))
            and all(a < b and _root_free(m, a, b, exact=True) for m, a, b in spans))


def _end_factors(r: Region[Any, Any], tight: tuple[Fraction, Fraction, Fraction, Fraction]
                 ) -> list[tuple[fmpz_poly, Fraction, Fraction]]:
    """The region's ends' minimal polynomials, each with the interval on which its other
    roots are to be excluded (see :func:`_none_inside`)."""
    lo_a, lo_b, hi_a, hi_b = tight
    m_lo, m_hi = r.lo.minimal_polynomial, r.hi.minimal_polynomial
    if m_lo == m_hi:
        return [(fmpz_poly(list(m_lo)), lo_b, hi_a)]
    return [(fmpz_poly(list(m_lo)), lo_b, hi_b), (fmpz_poly(list(m_hi)), lo_a, hi_a)]


def _zero_problems(pc: ParametricCompiled[Any, Any], r: Region[Any, Any], n: int,
                   zero: list[int]) -> list[str]:
    """The recorded actions tied with the profile's throughout, against the re-derived ones."""
    rec = r._zero
    if isinstance(rec, (list, tuple)) and all(type(k) is int for k in rec) and tuple(rec) == tuple(zero):
        return []
    if not isinstance(rec, (list, tuple)) or not all(type(k) is int and 0 <= k < pc.n_actions for k in rec):
        return [f"region {n}: its record of tied actions is malformed: {show(rec, 80)}"]
    out: list[str] = []
    for k in sorted(set(rec) ^ set(zero)):
        s, a = show(pc.states[pc.act_state[k]], 120), show(pc.act_labels[k], 60)
        out.append(f"region {n}: at state {s}, action {a} is recorded as optimal throughout the "
                   "region (tied with the profile's), but its advantage is not identically 0"
                   if k in rec else
                   f"region {n}: at state {s}, action {a} is tied with the profile's throughout "
                   "the region (its advantage is identically 0), but not recorded as optimal")
    if not out:
        out.append(f"region {n}: its record of tied actions {show(rec, 80)} repeats or misorders "
                   f"actions (expected {show(tuple(zero), 80)})")
    return out


def _touch_problems(pc: ParametricCompiled[Any, Any], r: Region[Any, Any], n: int,
                    touch: list[tuple[RealAlgebraic, int]], memo: _Memo) -> list[str]:
    """The recorded touch points against the re-derived ones (by action, then by point)."""
    rec = r._touch
    if not isinstance(rec, (list, tuple)):
        return [f"region {n}: its record of touch points is malformed: {show(rec, 80)}"]
    for j, pair in enumerate(rec):
        if (not isinstance(pair, tuple) or len(pair) != 2 or type(pair[1]) is not int
                or not 0 <= pair[1] < pc.n_actions
                or _algebraic_problem(pair[0], pc.symbol, memo) is not None):
            return [f"region {n}: its record of touch points is malformed at entry {j}: {show(pair, 80)}"]
    if len(rec) == len(touch) and all(g[1] == w[1] and g[0] == w[0] for g, w in zip(rec, touch, strict=True)):
        return []

    def among(pair: tuple[RealAlgebraic, int], pairs: Sequence[tuple[RealAlgebraic, int]]) -> bool:
        return any(pair[1] == q[1] and pair[0] == q[0] for q in pairs)

    out: list[str] = []
    for x, k in rec:
        if not among((x, k), touch):
            out.append(f"region {n}: action {show(pc.act_labels[k], 60)} at state "
                       f"{show(pc.states[pc.act_state[k]], 120)} is recorded as touching 0 at {x}, "
                       "which is not a root of its advantage inside the region")
    for x, k in touch:
        if not among((x, k), rec):
            out.append(f"region {n}: action {show(pc.act_labels[k], 60)} at state "
                       f"{show(pc.states[pc.act_state[k]], 120)} touches 0 at {x} inside the "
                       "region, not recorded")
    if not out:
        out.append(f"region {n}: its record of touch points repeats or misorders them (by action, "
                   "then by point)")
    return out


# -- 6. the breakpoints ------------------------------------------------------------------------

def _check_breakpoint(sol: ParametricSolution[Any, Any], pc: ParametricCompiled[Any, Any],
                      b: Breakpoint[Any, Any], n: int, memo: _Memo) -> list[str]:
    left, right = sol.regions[n], sol.regions[n + 1]
    if not isinstance(b.at, RealAlgebraic) or b.at != left.hi:
        return [f"breakpoint {n} is not the end of region {n}"]
    problems: list[str] = []
    changed = tuple((pc.states[i], pc.act_labels[k], pc.act_labels[m])
                    for i, (k, m) in enumerate(zip(left._choice, right._choice, strict=True)) if k != m)
    rec = b.changes
    if not (_same_items(rec, changed) and all(_same_items(c, w) for c, w in zip(rec, changed, strict=True))):
        problems.append(f"breakpoint {n}: the recorded changes are not the profiles' differences "
                        f"({_change_difference(rec, changed)})")
    ties = b.ties
    if not isinstance(ties, Mapping):
        return [*problems, f"breakpoint {n}: its ties are not a mapping: {show(ties, 80)}"]
    several: set[int] = set()
    # the actions whose advantage (the left region's values) vanishes at its upper end,
    # derived by the region's check; the breakpoint is that end (checked above)
    vanishing = memo.vanishing[n]
    for i in range(pc.n_states):
        ks = pc.actions_of(i)
        if len(ks) < 2:
            continue
        several.add(i)
        best = tuple(pc.act_labels[k] for k in ks if k == left._choice[i] or k in vanishing)
        s = pc.states[i]
        recorded = ties.get(s)
        want = best if len(best) > 1 else None
        if want is None and recorded is None:
            continue
        if want is None or not isinstance(recorded, tuple) or not _same_items(recorded, want):
            shown = recorded if recorded is not None else (pc.act_labels[left._choice[i]],)
            problems.append(f"breakpoint {n}: at state {show(s, 120)} the optimal actions are "
                            f"{show(best, 120)}, recorded {show(shown, 120)}")
    for s in ties:
        j = pc.index.get(s) if isinstance(s, Hashable) else None
        if j is None or j not in several or not _same(pc.states[j], s):
            problems.append(f"breakpoint {n}: it records ties at {show(s, 120)}, which is not a "
                            "state with several actions")
    return problems


def _change_difference(rec: object, changed: tuple[tuple[Any, Any, Any], ...]) -> str:
    """The first way the recorded changes differ from the profiles' differences, in words."""
    if not isinstance(rec, tuple):
        return f"not a tuple: {show(rec, 80)}"
    for j in range(max(len(rec), len(changed))):
        got = rec[j] if j < len(rec) else None
        want = changed[j] if j < len(changed) else None
        if got is not None and want is not None and _same_items(got, want):
            continue
        if want is not None and want not in rec:
            return (f"state {show(want[0], 120)} changes from {show(want[1], 60)} to "
                    f"{show(want[2], 60)}, not recorded")
        if got not in changed:
            return f"{show(got, 120)} is no change of the profiles"
        state = show(got[0], 120) if isinstance(got, tuple) and got else show(got, 120)
        return f"the change at state {state} is repeated or out of the states' order"
    return "they differ in type"  # pragma: no cover - equal items of other types


def verify_parametric(sol: ParametricSolution[S, A], *,
                      progress: bool | None = None) -> ParametricVerification:
    """Re-check a parametric solution against its game (see the module docstring).

    Never raises on a bad solution: every failed check, and a record too malformed to
    read, is a line of ``problems``.

    Parameters
    ----------
    sol : ParametricSolution
    progress : bool or None
        Report the regions checked on standard error during a long check (as
        :func:`~tbsg.parametric.solve.solve_parametric` reports the regions found):
        ``None`` (default) after a few seconds, ``True`` from the start, ``False`` never.

    Raises
    ------
    InvalidArgumentError
        If ``progress`` is not True, False or None (the only error: a bad solution is
        reported, not raised).

    Examples
    --------
    >>> import sympy
    >>> from tbsg.games import biased_risk_or_safety
    >>> from tbsg.parametric import solve_parametric
    >>> p = sympy.Symbol("p")
    >>> verify_parametric(solve_parametric(biased_risk_or_safety(2, p), p)).ok
    True
    """
    if progress is not None and not isinstance(progress, bool):
        raise InvalidArgumentError(f"progress must be True, False or None, got {show(progress)}")
    regions, breakpoints = sol.regions, sol.breakpoints
    n_r = len(regions) if isinstance(regions, (list, tuple)) else 0
    n_b = len(breakpoints) if isinstance(breakpoints, (list, tuple)) else 0

    def result(problems: list[str]) -> ParametricVerification:
        return ParametricVerification(not problems, n_r, n_b, tuple(problems))

    # the game itself, compiled afresh: nothing the solver compiled is trusted
    try:
        pc = compile_parametric(sol.game, sol.symbol, sol.interval)
    except TbsgError as exc:
        return result([f"the solution's game does not compile: {exc}"])
    if not isinstance(regions, (list, tuple)) or not isinstance(breakpoints, (list, tuple)):
        return result(["the regions or the breakpoints are not a sequence"])
    problems = _guarded("the solution's compiled game", partial(
        _compiled_problems, pc, sol.compiled, "the solution's compiled game (sol.compiled)"))
    if _structure_differs(pc, sol.compiled):
        return result([*problems, "the solution's game has other states or actions than the "
                                  "solution records"])
    for n, r in enumerate(regions):
        rec = getattr(r, "_pc", None)
        if rec is not sol.compiled:
            what = f"region {n}'s compiled game"
            problems += _guarded(what, partial(_compiled_problems, pc, rec, what))
    # the checks below read the fresh compile only: a differing record does not stop them
    memo = _Memo()
    cover = _guarded("the cover", partial(_cover_problems, pc, regions, breakpoints, memo))
    if cover:
        return result(problems + cover)
    report, close = make_progress(progress, "verifying parametric regions", unit="region")
    try:
        return result(problems + _regional_problems(sol, pc, memo, report))
    finally:
        close()


def _regional_problems(sol: ParametricSolution[Any, Any], pc: ParametricCompiled[Any, Any],
                       memo: _Memo, report: Callable[[int, int], None] | None) -> list[str]:
    """Checks 3 to 5 on every region, then (if they pass: the breakpoints are read with the
    regions' profiles and values) check 6 on every breakpoint."""
    regions, breakpoints = sol.regions, sol.breakpoints
    regional: list[str] = []
    for n, r in enumerate(regions):
        regional += _guarded(f"region {n}", partial(_check_region, sol, pc, r, n, memo))
        if report is not None:
            report(n + 1, len(regions))
    if regional:
        return regional
    problems: list[str] = []
    for n, b in enumerate(breakpoints):
        problems += _guarded(f"breakpoint {n}", partial(_check_breakpoint, sol, pc, b, n, memo))
    return problems


def _guarded(what: str, check: Callable[[], list[str]]) -> list[str]:
    """``check()``, with a record too malformed to read reported instead of raised."""
    try:
        return check()
    except TbsgError as exc:
        return [f"{what}: {exc}"]
    except Exception as exc:
        return [f"{what}: a malformed record ({type(exc).__name__}: {show(str(exc), 120)})"]


def _cover_problems(pc: ParametricCompiled[Any, Any], regions: Sequence[Region[Any, Any]],
                    breakpoints: Sequence[Breakpoint[Any, Any]], memo: _Memo) -> list[str]:
    """Check 2: well-formed ends, regions that tile the interval, a breakpoint between each two."""
    if not regions:
        return ["no regions"]
    problems = [f"region {n}: its {name} end {why}" for n, r in enumerate(regions)
                for end, name in ((r.lo, "lower"), (r.hi, "upper"))
                if (why := _algebraic_problem(end, pc.symbol, memo)) is not None]
    if problems:
        return problems
    lo, hi = (RealAlgebraic.rational(e) for e in pc.interval)
    if regions[0].lo != lo or regions[-1].hi != hi:
        problems.append("the regions do not run from one end of the interval to the other")
    for n, r in enumerate(regions):
        if not r.lo < r.hi:
            problems.append(f"region {n} is empty")
        if n + 1 < len(regions) and r.hi != regions[n + 1].lo:
            problems.append(f"region {n} does not end where region {n + 1} begins")
    if len(breakpoints) != len(regions) - 1:
        problems.append("there is not one breakpoint between each two regions")
    problems += [f"breakpoint {n} {why}" for n, b in enumerate(breakpoints)
                 if (why := _algebraic_problem(b.at, pc.symbol, memo)) is not None]
    return problems
