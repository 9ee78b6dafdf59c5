"""The Bellman step, written once: action values, per-state optima, and the float filter.

Mathematics
-----------
For a compiled game (:mod:`tbsg.engine.compiled`) and state values ``v``, the value of the
flat action ``k`` of state ``i`` and the Bellman operator are

.. math::

    Q_v(k) = c_k + \\sum_{o \\in O(k)} p_o\\, v(t_o), \\qquad
    (Tv)(i) = \\operatorname{opt}_{k \\in A(i)} Q_v(k),

``opt = max`` where player 0 moves and ``min`` where player 1 moves. Every solver, the
certificate, solutions and tables compute ``Q`` through this module: exactly
(:func:`exact_action_values`, :class:`ExactActions`) or in floating point with a proven
error bound (:func:`q_float`, :class:`Rows`).

The rounding bound (one derivation, used everywhere)
----------------------------------------------------
Let ``u = 2**-53`` (unit roundoff) and ``eta = 2**-1074`` (smallest subnormal). IEEE
double arithmetic with gradual underflow satisfies (Higham 2002, *Accuracy and Stability
of Numerical Algorithms*, sections 2.2 and 2.4): ``fl(x + y) = (x + y)(1 + d)`` (exact
when the result is subnormal), ``fl(x y) = x y (1 + d) + e``, and a correctly rounded
conversion ``fl(r) = r (1 + d) + e``, with ``|d| <= u``, ``|e| <= eta / 2``.

Take an action with ``n`` outcomes, probabilities ``p_o > 0`` with ``s_k + sum p_o = 1``
(every compiled game: the terminal mass ``s_k`` and the outcomes make up the whole
distribution), and float values ``v_o`` with ``|v_o| <= M``; ``c_k`` and the ``v_o`` may
have any sign and size (rewards per move and scores are folded into ``c_k``, and values
are expected totals). Write ``M_1 = max(1, M)`` and
``S_k = |c_k| + sum p_o |v_o|`` (the sum of the absolute values of the terms). Each term
``fl(fl(p_o) v_o)`` equals ``p_o v_o`` up to two relative roundings and an absolute error
of at most ``eta M_1``: ``e`` of the conversion (``|e| <= eta / 2``; only a probability
below ``2**-1022`` has one) times ``|v_o| <= M``, plus ``e`` of the product. The constant
converts with one relative rounding and an error ``eta / 2``. Summing the ``n + 1`` terms
in any order adds at most ``n`` relative roundings *of the partial sums*, which for terms
of mixed signs are bounded by the sum of the absolute values of the terms, and no
absolute error (Higham 2002, section 4.2: ``|fl(sum t) - sum t| <= gamma_n sum |t|``).
Hence, with ``r_k`` the number of relative roundings met by a term and
``gamma_r = r u / (1 - r u)``,

.. math::

    |\\mathrm{fl}(Q_v(k)) - Q_v(k)| \\le \\gamma_{r_k}\\, S_k + a_k\\, \\eta\\, M_1,
    \\qquad r_k \\le n + 3, \\qquad a_k = 2n + 2 .

Bounding ``S_k`` without a second product: the terms split into a positive part ``P``
and a negative part ``N`` with ``Q = P - N`` and ``S_k = P + N <= |Q| + 2 N``, and
``N <= c_k^- + X^-`` where ``X^- = max(0, -min_o v_o)`` (the probabilities sum to at most 1).
So ``S_k <= |Q| + 2 (c_k^- + X^-)``: when ``c_k >= 0`` and every ``v_o >= 0`` (win
probabilities, or non-negative rewards and payoffs) the bound is relative to ``|Q|``
alone, as tight as it can be; with negative numbers it grows by twice their size.

A *win-probability game* (``CompiledGame.win_probability``: every reward 0, every
terminal payoff in [0, 1]; a derived game: ``0 <= c_k <= s_k`` for every action) has
``0 <= c_k <= s_k``: then ``T`` maps ``[0, 1]^S`` into itself (``Q <= s_k + sum p_o =
1``), every value lies in ``[0, 1]``, ``M_1 = 1`` and ``N = 0``: the bound reads
``gamma_{r_k} Q + a_k eta``, computed with exactly the operations it always was.

:func:`rounding_counts` counts ``r_k`` more tightly per action (a probability that is a
power of two converts and multiplies exactly, a term with an exact float costs nothing
to convert) and gives ``a_k`` for the absolute (underflow) part, which no relative bound
covers: values near ``1e-319`` with tens of thousands of outcomes need it.

*Outward rounding* (float bounds). :meth:`Rows.down` and :meth:`Rows.up` move a computed
``q`` by ``m = (r_k + 2) u (|q| + 2 (c_k^- + X^-)) + (a_k + 2) eta M_1``; the two extra
relative roundings cover ``gamma`` against ``u``, ``|Q|`` against the computed ``|q|``
(they differ by the error being bounded, a second-order term while ``r_k^2 u < 1``, that
is ``r_k < 2**26``) and the computation of ``m`` and of ``q - m`` themselves (a
difference of subnormal numbers is exact), so ``down(q) <= Q <= up(q)`` for the exact
``Q`` of the float inputs. Bounds derived this way hold for the exact game value. The
caller passes ``X^-`` and ``M`` (:class:`Magnitude`) for the values it feeds in; a
win-probability game passes none (``X^- = 0``, ``M_1 = 1``).

*The float filter* (exact solvers). To decide the sign of ``Q_v(k) - v(i)`` for exact
``v`` from the correctly rounded floats ``fl(v)``, the computed difference
``D = fl(fl(Q) - fl(v(i)))`` errs by at most ``gamma_{n+3} + 2u + (2n + 4) eta``
(``Q, v <= 1``). :func:`filter_bound` returns ``B_k = 2 (n + 6) u + (2n + 6) eta``, at
least that for ``n < 2**50``: where ``|D| > B_k`` the sign of ``D`` is the exact sign;
only the others are evaluated exactly (:func:`action_signs`). This is the floating-point
filter of exact geometric predicates (Shewchuk 1997): it only skips work, every decision
it makes is the exact one.

*Values outside [0, 1]* (a reward game, payoffs outside [0, 1], or never-ending play
worth more than 1 or less than 0: any game that is not a win-probability game,
:mod:`tbsg.model.protocol`). The derivation above bounds every term by 1. Without that,
each error is at most the same multiple of the magnitude of what is summed: with
``M_k = |c_k| + sum p_o |v_o| + |v(i)|`` the error of ``D`` is at most
``(gamma_{n+3} + 2u) max(1, M_k) + (2n + 4) eta max(1, M_k)``, so the filter uses
``B_k max(1, M_k)`` (:func:`magnitudes`, :meth:`ExactActions.scale`; the factor 2 in
``B_k`` covers the rounding of ``M_k`` itself). A win-probability game keeps ``B_k``.

Per-state optima over rows grouped by state (``seg``: first row of each state) are
:class:`Segments`: the maximum (minimiser's rows negated, an exact operation) and the
first row attaining it.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable, Sequence
from functools import cached_property
from operator import add, mul
from typing import Any, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from tbsg.engine import _backend as bk
from tbsg.engine._backend import Rational
from tbsg.engine.compiled import CompiledGame, IndexArray
from tbsg.engine.integer_q import exact_action_values  # Q_v in exact integer arithmetic

__all__ = [
    "ETA",
    "ExactActions",
    "Magnitude",
    "Rows",
    "Segments",
    "U",
    "action_bounds",
    "action_signs",
    "exact_action_values",
    "filter_bound",
    "magnitudes",
    "q_float",
    "rounding_counts",
]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
IntArray32 = npt.NDArray[np.int32]
BoolArray = npt.NDArray[np.bool_]

U = 2.0**-53
"""Unit roundoff of IEEE double precision."""
ETA = 2.0**-1074
"""Smallest positive (subnormal) double: the absolute error unit of an underflow."""

_FEW_ROWS = 4  # states with at most this many rows: per-state maxima without reduceat


# --- the bounds --------------------------------------------------------------------------

def rounding_counts(g: CompiledGame[Any, Any]) -> tuple[IntArray32, IntArray32]:
    """``(r, a)`` per flat action: relative roundings and underflow units of ``fl(Q)``.

    ``r_k`` counts, for the worst term of action ``k``, the relative roundings of its
    conversion and product (0 if the probability is a power of two, else 2) and of the
    ``n`` additions, plus 1 for a constant ``c_k`` that is not exactly a float; ``a_k =
    2 n + 2`` (module docstring). Computed once per game (then cached) from the table of
    distinct rationals, so the work per outcome is an array lookup; small integers, kept
    as int32 (convert to float64 before scaling by ``U`` or ``ETA``).
    """
    hit = _COUNTS.get(g)
    if hit is not None:
        return hit
    vals = g.rationals
    fl = [float(x) for x in vals]
    exact = np.array([f == x for f, x in zip(fl, vals, strict=True)], dtype=bool)
    pow2 = np.array([f > 0 and np.frexp(f)[0] == 0.5 for f in fl], dtype=bool)
    nonzero = np.array([x != 0 for x in vals], dtype=bool)
    deg = g.degrees().astype(np.int32)
    has_c = nonzero[g.act_code]
    # additions: one per term beyond the first; the constant is a term when non-zero
    count = np.maximum(deg + has_c - 1, 0).astype(np.int32) + (has_c & ~exact[g.act_code])
    used = np.zeros(len(vals), dtype=bool)
    used[g.out_code] = True  # (no temporary array per outcome, unlike bincount's int64 copy)
    costly = ~(exact & pow2)
    if np.any(costly[used]):  # not every probability is a power of two
        # costly outcomes per action: differences of a running count at the action bounds
        running: IndexArray = np.zeros(len(g.out_code) + 1,
                                       dtype=np.int64 if len(g.out_code) >= 2**31 else np.int32)
        np.cumsum(costly[g.out_code], out=running[1:])
        inexact = running[g.out_ptr[1:]] - running[g.out_ptr[:-1]]
        del running
        count += np.where(inexact > 0, 2, 0).astype(np.int32)  # the worst term's conversion and product
    result = (count.astype(np.int32), (2 * deg + 2).astype(np.int32))
    _COUNTS[g] = result
    return result


_COUNTS: weakref.WeakKeyDictionary[CompiledGame[Any, Any], tuple[IntArray32, IntArray32]] = \
    weakref.WeakKeyDictionary()
"""Rounding counts of each live compiled game (computed once; dropped with the game)."""


class Magnitude(NamedTuple):
    """What the rounding allowance needs to know of the values fed into ``Q`` (module
    docstring): ``neg`` ``>= X^- = max(0, -min v)`` and ``big`` ``>= M = max |v|``."""

    neg: float
    big: float

    @classmethod
    def of(cls, *xs: FloatArray) -> Magnitude:
        """The magnitude of the values in the arrays ``xs`` (empty arrays count 0)."""
        neg, big = 0.0, 0.0
        for x in xs:
            if len(x):
                lo, hi = float(np.min(x)), float(np.max(x))
                neg, big = max(neg, -lo), max(big, -lo, hi)
        return cls(neg, big)

    def join(self, other: Magnitude) -> Magnitude:
        """Bounds for the values of both."""
        return Magnitude(max(self.neg, other.neg), max(self.big, other.big))


def filter_bound(degree: IntArray | int) -> FloatArray:
    """``B_k``: bound on the error of a computed ``Q_v(k) - v(i)`` (module docstring).

    ``degree`` is the number of outcomes of each action.
    """
    d = np.asarray(degree, dtype=np.float64)
    bound: FloatArray = 2.0 * (d + 6.0) * U + (2.0 * d + 6.0) * ETA
    return bound


def magnitudes(g: CompiledGame[Any, Any], vf: FloatArray, acts: IntArray, *,
               with_state: bool = True) -> FloatArray:
    """``max(1, M_k)`` for the flat actions ``acts``: the factor of the filter bound for
    values outside [0, 1] (module docstring), ``M_k = |c_k| + sum p_o |v_o|`` plus, with
    ``with_state``, ``|v(i)|`` of the action's state."""
    const_f, prob_f = g.float_arrays()
    a = np.abs(vf)
    o_start = g.out_ptr[acts]
    deg = g.out_ptr[acts + 1] - o_start
    outs = np.repeat(o_start - np.cumsum(deg) + deg, deg) + np.arange(int(deg.sum()))
    rows = np.repeat(np.arange(len(acts)), deg)
    m: FloatArray = np.abs(const_f[acts]) + np.bincount(rows, weights=prob_f[outs] * a[g.out_target[outs]],
                                                         minlength=len(acts))
    if with_state:
        m = m + a[g.act_state[acts]]
    return np.maximum(m, 1.0)


# --- float action values -----------------------------------------------------------------

def q_float(g: CompiledGame[Any, Any], v: FloatArray, acts: IntArray | None = None) -> FloatArray:
    """Computed ``fl(Q_v(k))`` for every flat action (or the actions ``acts``), vectorised."""
    const_f, prob_f = g.float_arrays()
    if acts is None:
        q: FloatArray = const_f + np.bincount(g.out_action(), weights=prob_f * v[g.out_target],
                                              minlength=g.n_actions)
        return q
    o_start = g.out_ptr[acts]
    deg = g.out_ptr[acts + 1] - o_start
    outs = np.repeat(o_start - np.cumsum(deg) + deg, deg) + np.arange(int(deg.sum()))
    rows = np.repeat(np.arange(len(acts)), deg)
    q = const_f[acts] + np.bincount(rows, weights=prob_f[outs] * v[g.out_target[outs]],
                                    minlength=len(acts))
    return q


def action_bounds(g: CompiledGame[Any, Any], lower: FloatArray, upper: FloatArray
                  ) -> tuple[FloatArray, FloatArray]:
    """Proven bounds ``(lo, hi)`` on every action's exact ``Q`` given state-value bounds.

    ``lower <= v <= upper`` (floats) implies ``lo <= Q_v(k) <= hi`` for the exact game
    data, by monotonicity of ``Q`` in ``v`` and outward rounding.
    """
    r, a = rounding_counts(g)
    rel = (r.astype(np.float64) + 2.0) * U
    absolute = (a.astype(np.float64) + 2.0) * ETA
    q_lo = q_float(g, lower)
    q_hi = q_float(g, upper)
    if g.win_probability:
        return q_lo - (rel * np.abs(q_lo) + absolute), q_hi + (rel * np.abs(q_hi) + absolute)
    # any sign and size: the allowance of the module docstring with X^- and M of the inputs
    mag = Magnitude.of(lower, upper)
    neg2 = 2.0 * (np.maximum(-g.float_arrays()[0], 0.0) + mag.neg)
    absolute = absolute * max(1.0, mag.big)
    return (q_lo - (rel * (np.abs(q_lo) + neg2) + absolute),
            q_hi + (rel * (np.abs(q_hi) + neg2) + absolute))


# --- exact action values ------------------------------------------------------------------

class ExactActions:
    """Per-action exact and float data of one game: the exact solvers' scalar Bellman step
    (the hot loops of strategy iteration).

    ``values`` and ``vf`` are the solver's own lists of exact values (backend rationals)
    and their correctly rounded floats, read (not copied) by :meth:`qx` and :meth:`qf`.
    The game's arrays are read as machine integers (views: indexing gives a Python
    ``int`` as fast as a list, without copying the arrays), and every
    probability and constant as its code into the game's table of rationals, whose exact
    and float values are looked up per code.
    """

    def __init__(self, g: CompiledGame[Any, Any], values: list[Rational], vf: list[float], *,
                 unit: bool | None = None) -> None:
        self.unit = g.win_probability if unit is None else unit  # see action_signs
        self.out_ptr = _machine(g.out_ptr)
        self.target = _machine(g.out_target)
        self.out_code = _machine(g.out_code)
        self.act_code = _machine(g.act_code)
        self.table: list[Rational] = [bk.from_fraction(x) for x in g.rationals]  # one conversion per value
        self.table_f: list[float] = g.float_table().tolist()
        self.values = values
        self.vf = vf

    def copies(self, k: int) -> bool:
        """Does action ``k`` pay nothing and move to one state with probability one (its
        value is that state's, no arithmetic)?"""
        lo = self.out_ptr[k]
        table = self.table
        return self.out_ptr[k + 1] - lo == 1 and not table[self.act_code[k]] \
            and table[self.out_code[lo]] == 1

    def bound(self, k: int) -> float:
        """:func:`filter_bound` of action ``k`` (computed on demand: no per-action list),
        times :meth:`scale` for values outside [0, 1]: a bound on the error of ``qf(k)``."""
        b = self._unit_bound(k)
        return b if self.unit else b * self.scale(k)

    def _unit_bound(self, k: int) -> float:
        n = self.out_ptr[k + 1] - self.out_ptr[k]
        return 2.0 * (n + 6.0) * U + (2.0 * n + 6.0) * ETA

    def scale(self, k: int, ref_f: float = 0.0) -> float:
        """``max(1, |c_k| + sum p_o |v_o| + |ref|)`` (:func:`magnitudes`, one action)."""
        tf, code = self.table_f, self.out_code
        total = abs(tf[self.act_code[k]]) + abs(ref_f)
        vf, target = self.vf, self.target
        for o in range(self.out_ptr[k], self.out_ptr[k + 1]):
            total += tf[code[o]] * abs(vf[target[o]])
        return max(total, 1.0)

    def qf(self, k: int) -> float:
        """Computed ``fl(Q(k))`` from the float values."""
        tf, code = self.table_f, self.out_code
        total = tf[self.act_code[k]]
        vf, target = self.vf, self.target
        for o in range(self.out_ptr[k], self.out_ptr[k + 1]):
            total += tf[code[o]] * vf[target[o]]
        return total

    def qx(self, k: int) -> Rational:
        """Exact ``Q(k)`` from the exact values of its successors."""
        table, code = self.table, self.out_code
        total = table[self.act_code[k]]
        values, target = self.values, self.target
        for o in range(self.out_ptr[k], self.out_ptr[k + 1]):
            total += table[code[o]] * values[target[o]]
        return total

    def qx_many(self, ks: Sequence[int]) -> list[Rational]:
        """``[qx(k) for k in ks]``, summed outcome slot by outcome slot: the actions with
        ``d`` outcomes add their ``j``-th term in one C-level pass (``map``) per slot, the
        same sums as :meth:`qx` without an interpreted step per outcome."""
        out_ptr = np.asarray(self.out_ptr)
        code = np.asarray(self.out_code)
        target = np.asarray(self.target)
        kk = np.asarray(ks, dtype=np.int64)
        lo, degree = out_ptr[kk], out_ptr[kk + 1] - out_ptr[kk]
        table, values = self.table, self.values
        const = np.asarray(self.act_code)[kk].tolist()
        out: list[Rational] = list(map(table.__getitem__, const))
        for d in np.unique(degree).tolist():
            same = degree == d
            rows = None if same.all() else np.flatnonzero(same)
            first = lo if rows is None else lo[rows]
            totals = out if rows is None else [out[r] for r in rows.tolist()]
            for j in range(d):
                o = first + j
                terms = map(mul, map(table.__getitem__, code[o].tolist()),
                            map(values.__getitem__, target[o].tolist()))
                totals = list(map(add, totals, terms))
            if rows is None:
                out = totals
            else:
                for r, x in zip(rows.tolist(), totals, strict=True):
                    out[r] = x
        return out

    def sign(self, k: int, ref_f: float, ref_q: Rational) -> int:
        """Exact sign of ``Q(k) - ref`` (``ref`` exact, ``ref_f`` its rounded float), filtered."""
        d = self.qf(k) - ref_f
        b = self._unit_bound(k)
        if not self.unit:
            b *= self.scale(k, ref_f)
        if d > b:
            return 1
        if d < -b:
            return -1
        q = self.qx(k)
        return 1 if q > ref_q else (-1 if q < ref_q else 0)


def _machine(a: npt.NDArray[Any]) -> memoryview:
    """An integer array as a sequence of Python ints: a view of its machine integers, no
    copy (indexing a ``memoryview`` is as fast as indexing a list, without a list's
    object per entry)."""
    return np.ascontiguousarray(a).data


def action_signs(g: CompiledGame[Any, Any], values: Sequence[Rational], vf: FloatArray,
                 acts: IntArray | None = None,
                 exact_q: Callable[[int], Rational] | None = None, *,
                 unit: bool | None = None) -> npt.NDArray[np.int8]:
    """Exact ``sign(Q_v(k) - v(i))`` for the flat actions ``acts`` (default: all), filtered.

    ``values`` are exact (backend rationals), ``vf`` their correctly rounded floats;
    ``exact_q(k)`` computes one action's exact ``Q`` (default: from ``values`` and the
    game's rationals). The float filter (module docstring) decides where it can; the
    rest is computed exactly. ``unit``: every value and ``c_k`` lies in [0, 1] (default:
    ``g.win_probability``); otherwise the bound is scaled by :func:`magnitudes`.
    """
    ks = np.arange(g.n_actions, dtype=np.int64) if acts is None else acts
    # most actions: one pass over all outcomes beats gathering the outcomes of a subset
    # near the float range's end a sum may overflow: an infinite difference has the true
    # sign, and an infinite bound (the magnitudes overflowed too) leaves the sign unsure,
    # to exact arithmetic
    with np.errstate(over="ignore"):
        qf = q_float(g, vf)[ks] if acts is None or 2 * len(acts) > g.n_actions else q_float(g, vf, ks)
        diff = qf - vf[g.act_state[ks]]
        bound = filter_bound(g.degrees()[ks])
        if not (g.win_probability if unit is None else unit):
            bound = bound * magnitudes(g, vf, ks)
    sign = np.where(diff > bound, 1, np.where(diff < -bound, -1, 0)).astype(np.int8)
    unsure = np.flatnonzero(np.abs(diff) <= bound)
    if len(unsure):
        if exact_q is None:
            table = [bk.from_fraction(x) for x in g.rationals]
            const: list[int] = g.act_code.tolist()
            code = g.out_code
            out_ptr = g.out_ptr
            target = g.out_target

            def exact_q(k: int) -> Rational:
                q = table[const[k]]
                for o in range(int(out_ptr[k]), int(out_ptr[k + 1])):
                    q = q + table[int(code[o])] * values[int(target[o])]
                return q

        act_state = g.act_state
        for r in unsure.tolist():
            k = int(ks[r])
            q, ref = exact_q(k), values[int(act_state[k])]
            sign[r] = 1 if q > ref else (-1 if q < ref else 0)
    return sign


# --- rows grouped by state ---------------------------------------------------------------

class Segments:
    """Per-state reductions over rows grouped by state.

    Rows ``seg[i]:seg[i+1]`` (the last state's rows run to the end) belong to state ``i``;
    ``maxi[i]`` says whether state ``i`` maximises.
    """

    def __init__(self, seg: IndexArray, n_rows: int, maxi: BoolArray) -> None:
        self.seg = seg
        self.m = len(seg)
        count = np.diff(np.append(seg, n_rows))
        self.row_state = np.repeat(np.arange(self.m, dtype=np.int64), count)
        self.sign = np.where(maxi, 1.0, -1.0)
        self.row_sign = self.sign[self.row_state]
        self.maxi = maxi
        # the k-th row of each state (its last row if it has fewer): with few rows per
        # state, per-state maxima are a few elementwise maxima, much faster than reduceat
        most = int(count.max()) if self.m else 0
        self.kth: list[IntArray] | None = None
        if most <= _FEW_ROWS:
            self.kth = [seg + np.minimum(k, count - 1) for k in range(most)]

    def segmax(self, x: FloatArray) -> FloatArray:
        """Largest entry of each state's rows."""
        if self.kth is None:
            top: FloatArray = np.maximum.reduceat(x, self.seg)
            return top
        top = x[self.kth[0]]
        for idx in self.kth[1:]:
            np.maximum(top, x[idx], out=top)
        return top

    def segfirst(self, hit: BoolArray) -> IntArray:
        """First row of each state where ``hit`` holds (-1 if none)."""
        first = np.full(self.m, -1, dtype=np.int64)
        if self.kth is None:
            rows = np.flatnonzero(hit)[::-1]
            first[self.row_state[rows]] = rows
            return first
        for idx in reversed(self.kth):
            first = np.where(hit[idx], idx, first)
        return first

    def opt(self, q: FloatArray) -> FloatArray:
        """Value of each state's best row (max or min by owner)."""
        # one reduction: the minimiser's rows negated (exact), maximum taken, sign restored
        best: FloatArray = self.segmax(q * self.row_sign) * self.sign
        return best

    def greedy(self, q: FloatArray) -> IntArray:
        """First row attaining each state's optimum."""
        return self.segfirst(q == self.opt(q)[self.row_state])

    def greedy_max(self, key: FloatArray) -> IntArray:
        """First row with the largest ``key`` per state (-1 where all are -inf)."""
        top = self.segmax(key)
        return self.segfirst((key == top[self.row_state]) & (key > -np.inf))


class Rows(Segments):
    """A block of actions ("rows") grouped by state, with ``q(x) = c + P x`` in floats.

    ``P`` is a sparse (CSR) or dense matrix whose columns are the states ``x`` indexes;
    ``rel`` and ``absolute`` are each row's rounding counts (from :func:`rounding_counts`),
    turned into the allowances that :meth:`down` and :meth:`up` apply.
    """

    def __init__(self, c: FloatArray, p: sp.csr_matrix | FloatArray, seg: IntArray, maxi: BoolArray,
                 rel: IntArray32, absolute: IntArray32) -> None:
        super().__init__(seg, len(c), maxi)
        self.c = c
        self.p = p
        self.rel = (rel.astype(np.float64) + 2.0) * U
        self.absolute = (absolute.astype(np.float64) + 2.0) * ETA
        self.sweeps = 0

    def q(self, x: FloatArray) -> FloatArray:
        """Computed action values ``fl(c + P x)``."""
        self.sweeps += 1
        return np.asarray(self.c + self.p @ x, dtype=np.float64)

    @cached_property
    def neg2(self) -> FloatArray:
        """``2 c_k^-`` per row (the constant's share of the negative part of the terms)."""
        out: FloatArray = 2.0 * np.maximum(-self.c, 0.0)
        return out

    def margin(self, q: FloatArray, rows: IntArray | None = None,
               mag: Magnitude | None = None) -> FloatArray:
        """Rounding allowance of the computed ``q`` (of the rows ``rows``, default all).

        ``mag`` bounds the values ``q`` was computed from (module docstring); ``None`` for
        values in ``[0, 1]`` with ``c >= 0`` (a win-probability game).
        """
        rel, absolute = (self.rel, self.absolute) if rows is None else \
            (self.rel[rows], self.absolute[rows])
        if mag is None:
            m: FloatArray = rel * np.abs(q) + absolute
            return m
        neg2 = self.neg2 if rows is None else self.neg2[rows]
        m = rel * (np.abs(q) + (neg2 + 2.0 * mag.neg)) + absolute * max(1.0, mag.big)
        return m

    def down(self, q: FloatArray, mag: Magnitude | None = None) -> FloatArray:
        """``q`` lowered by its rounding allowance: below the exact action values."""
        return q - self.margin(q, mag=mag)

    def up(self, q: FloatArray, mag: Magnitude | None = None) -> FloatArray:
        """``q`` raised by its rounding allowance: above the exact action values."""
        return q + self.margin(q, mag=mag)
