"""Exact action values and their signs against the state values, in integer arithmetic.

Mathematics
-----------
For exact state values ``v(s) = n_s / d_s`` (``d_s > 0``) and the flat action ``k`` of
state ``i``, with constant ``c_k`` and successor probabilities ``p_o`` (outcomes ``o`` of
``k``, successor ``t_o``), :mod:`tbsg.engine.bellman` defines

.. math:: Q_v(k) = c_k + \\sum_o p_o\\, v(t_o), \\qquad δ(k) = \\operatorname{sign}(Q_v(k) - v(i)).

Let ``B`` be the least common multiple of the denominators of every constant and
probability of the game (a handful of small numbers: 6 for a die). Then ``w_o = B p_o``
and ``C_k = B c_k`` are integers, and

.. math:: B\\,(Q_v(k) - v(i)) = C_k + \\sum_o w_o \\frac{n_{t_o}}{d_{t_o}} - B \\frac{n_i}{d_i}.

*Exact path.* Terms over the same denominator ``D`` are added as integers first
(``M_D = sum w_o n_{t_o}`` over the outcomes with ``d_{t_o} = D``, the state's own term
and ``C_k`` joining the groups of ``d_i`` and of 1), which leaves a few fractions
``M_j / D_j``; a single group, or groups of one sign, have the sign of ``M_j``. Otherwise
the sign of the sum is that of ``sum_j M_j prod_{l != j} D_l`` (every ``D_l > 0``), but
cross-multiplying makes numbers as long as all the row's denominators together, and the
values of a large game have denominators of tens of thousands of bits. So groups are
first gathered in *clusters* whose denominators are in a known ratio: ``D_j / D_r =
p / q`` with ``p`` and ``q`` below ``2**20`` (read off a continued fraction of the
leading bits, then checked exactly: ``D_j q = D_r p``), or ``D_j`` a divisor of ``D_r``
(``q = D_r / D_j``, checked by the division's remainder). A cluster's sum is then one
fraction ``(sum M_j q (P / p)) / (P D_r)`` (``P`` the lcm of its ``p``), computed with
products by small integers or by the cofactor only, and only the clusters' sums are
cross-multiplied. The values of one component of a game share one denominator up to
small factors, or divide each other, so a row usually forms one cluster. No gcd of two
large integers is taken: it costs several of their products, and the sign needs none.
``Q_v(k)`` itself is the sum over ``B prod_j D_j`` (without the state's term), reduced
once to lowest terms; an action with ``δ(k) = 0`` has ``Q_v(k) = v(i)``, which is
returned as is.

*Fixed-point filter.* With ``K`` bits and ``A_s = floor(2^K v(s))`` (one integer division
per state, ``A_s = 2^K v(s) - e_s`` with ``0 <= e_s < 1``),

.. math:: E_k = 2^K C_k + \\sum_o w_o A_{t_o} - B A_i

differs from the exact ``T_k = 2^K B (Q_v(k) - v(i))`` by ``T_k - E_k = sum_o w_o e_{t_o}
- B e_i``, which lies in ``(-B, W_k]`` for ``W_k = sum_o w_o`` (every ``w_o > 0``). So
``E_k >= B`` proves ``δ(k) = +1`` and ``E_k + W_k < 0`` proves ``δ(k) = -1``; every
other action (every tie among them) takes the exact path. ``K`` is chosen so that
every ``|E_k|`` and partial sum is below ``2^62``: the filter runs on numpy ``int64``
arrays, one pass over all outcomes. It is integer arithmetic with the two-line error
bound above, no floating point: each sign it decides is the exact one, it only saves
the exact path its work.

*Common denominator.* When the least common multiple ``L`` of the values' denominators
is short (256 bits at most: a game whose probabilities are halves has powers of two),
every ``A_s = L v(s)`` is an integer and

.. math:: T_k = L C_k + \\sum_o w_o A_{t_o} - B A_i = L B (Q_v(k) - v(i))

is an integer of a few hundred bits at most whose sign is ``δ(k)``, ties included: no
filter and no exact path are needed. Each ``A_s`` and ``L C_k`` is written in base
``2**b`` digits (the top one signed, the others in ``[0, 2**b)``), with ``b = 61 -
bits(1 + B + max_k W_k)``, so that a digit of ``T_k`` summed over the outcomes in
``int64`` (below ``(1 + B + W_k) 2**b <= 2**61``, plus a carry far smaller) never
overflows; the carries are propagated from the lowest digit up, leaving lower digits
in ``[0, 2**b)``: the sign of ``T_k`` is that of its top digit, or ``+1`` if that is 0
and a lower digit is not, or 0.

Why integers rather than ``Fraction``
-------------------------------------
Summing ``Q_v`` term by term in :class:`~fractions.Fraction` multiplies by 1 and adds 0
and takes two gcds per addition; on the values of large games (denominators of
thousands of digits) the gcds dominate. Grouping by denominator turns most of the work
into products of a large integer by a small one, and the filter decides the strict
signs (the deviations that are clearly worse) without touching the large numbers
beyond one division per state. The integers are Python's and numpy's ``int64``, and the
few products of two large integers (the clusters' cross-multiplications, the
divisibility tests) are computed in the exact integer type of
:mod:`tbsg.engine._backend` (``gmpy2.mpz`` when installed, whose products of long
numbers are many times faster than Python's): integer arithmetic is exact in either
type, only signs and Python integers leave, and the tests decide the same signs with both.
"""

from __future__ import annotations

import itertools
import math
import operator
import weakref
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cached_property
from itertools import repeat
from typing import Any, NamedTuple, overload

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from tbsg.engine._backend import INTEGER as _INT
from tbsg.engine._backend import _coprime_fraction
from tbsg.engine.compiled import CompiledGame

__all__ = ["ReadValues", "distinct_objects", "exact_action_signs", "exact_action_values", "value_parts"]

IntArray = npt.NDArray[np.int64]
SignArray = npt.NDArray[np.int8]

_INT64_BITS = 62  # |E_k| and every partial sum of the filter stay below 2**62
_MIN_BITS = 8  # a filter with fewer fixed-point bits decides too little to pay for itself
_FEW = 8  # actions per state touched below which no table of all states is built
_CHUNK = 8192  # actions per step of the vectorised exact path
_RATIO_BITS = 20
_RATIO_MAX = 1 << _RATIO_BITS  # a small ratio p / q of two denominators: p, q below this
_CROSS_BITS = 16384  # longest denominator times groups of a row up to which rows are cross-multiplied
_COMMON_BITS = 256  # longest common denominator of the values read off int64 digits
_SUM_BITS = 61  # digits of b bits times 1 + B + W_k below 2**61: sums and carries below 2**62
_MIN_DIGIT_BITS = 16  # digits shorter than this (weights too large) are not worth their passes
_MAX_DIGITS = 12  # digits of a number at most


class _Scale:
    """The integer weights of one game: ``B``, and ``B x`` for each constant and
    probability ``x`` of its rational table (module docstring)."""

    def __init__(self, g: CompiledGame[Any, Any]) -> None:
        used = np.zeros(len(g.rationals), dtype=bool)
        used[g.act_code] = True
        used[g.out_code] = True
        codes = np.flatnonzero(used).tolist()
        is_prob = np.zeros(len(g.rationals), dtype=bool)
        is_prob[g.out_code] = True
        scale = 1
        for c in codes:
            scale = math.lcm(scale, g.rationals[c].denominator)
        self.scale = scale
        weight = [0] * len(g.rationals)
        for c in codes:
            x = g.rationals[c]
            weight[c] = x.numerator * (scale // x.denominator)
        self.weight = weight
        self._act_code = g.act_code
        is_const = np.zeros(len(g.rationals), dtype=bool)
        is_const[g.act_code] = True
        self.const_max = max((abs(weight[c]) for c in np.flatnonzero(is_const).tolist()), default=0)
        """The largest ``|C_k|``."""
        self.prob_weight = [w if p else 0 for w, p in zip(weight, is_prob.tolist(), strict=True)]
        """``w`` of the codes used as probabilities (0 for the others): never negative."""

    @cached_property
    def const(self) -> list[int]:
        """``C_k`` of every flat action (the common-denominator path needs none of them)."""
        return list(map(self.weight.__getitem__, self._act_code.tolist()))


_SCALES: weakref.WeakKeyDictionary[CompiledGame[Any, Any], _Scale] = weakref.WeakKeyDictionary()


def _scale_of(g: CompiledGame[Any, Any]) -> _Scale:
    hit = _SCALES.get(g)
    if hit is None:
        hit = _SCALES[g] = _Scale(g)
    return hit


class _Parts(NamedTuple):
    """Every state's value as numbers of its distinct value objects: ``num[u]`` and
    ``den_id[u]`` (a number of :attr:`_Values.dens`) of object ``u``, and ``inverse[s]``,
    the object of state ``s`` (``None``: state ``s`` is object ``s``)."""

    num: list[int]
    den_id: list[int]
    inverse: IntArray | None

    def per_state(self, column: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """``column`` (one entry per object) spread to one entry per state."""
        return column if self.inverse is None else column[self.inverse]


def distinct_objects(values: Sequence[Any], *, spread: bool = True) -> tuple[list[Any], IntArray | None]:
    """The distinct objects among ``values`` (by identity, in order of first appearance)
    and the object of each state, or ``(values, None)`` when few are shared (with
    ``spread=False``: the distinct objects alone, or ``values``, and None).

    The values of a solved game are often shared objects (one per distinct value the
    solver built), so a per-value conversion or check can be done once per object;
    identity, not equality, decides: it needs no hash of a long rational, and the same
    object holds the same number. Whether to look is estimated first from the
    repetitions in an evenly spaced sample of ``k`` states: ``c`` repeats among them
    suggest about ``k**2 / (2 c)`` distinct objects, and fewer than half as many as
    there are states pay for the look (an estimate of cost only: either way every state
    reads its own object; a short sequence is looked at whole). ``values`` must hold its
    objects (a list does; another sequence, which may convert on access, is copied first,
    so that an identity is never reused while it is read).
    """
    seq = values if type(values) is list else list(values)
    n = len(seq)
    step = max(1, n // _SAMPLE)
    sample = seq[::step]
    repeats = len(sample) - len(set(map(id, sample)))
    if step > 1 and repeats * n <= len(sample) ** 2:  # about n / 2 distinct objects or more
        return seq, None
    by_id = dict(zip(map(id, seq), seq, strict=True))
    if 2 * len(by_id) > n or not spread:
        return (seq if 2 * len(by_id) > n else list(by_id.values())), None
    position = dict(zip(by_id, range(len(by_id)), strict=True))
    inverse = np.fromiter(map(position.__getitem__, map(id, seq)), dtype=np.int64, count=n)
    return list(by_id.values()), inverse


_SAMPLE = 4096  # states sampled to estimate the distinct value objects


class ReadValues(Sequence[Fraction]):
    """Exact values read once, as the Python ``int`` numerators and denominators (in
    lowest terms, ``> 0``) of their distinct value objects and the object of each state
    (``inverse``, :func:`distinct_objects`; None: state ``s`` is object ``s``).

    The sign check, the range check and the digest read the parts; a state's
    ``Fraction`` is built when it is asked for (a message, infinite play), so that a
    large game's values are not copied into Fractions that nothing reads. The caller
    has read the parts off the values it checked.
    """

    __slots__ = ("denominators", "inverse", "numerators")

    def __init__(self, numerators: list[int], denominators: list[int], inverse: IntArray | None) -> None:
        self.numerators, self.denominators, self.inverse = numerators, denominators, inverse

    def __len__(self) -> int:
        return len(self.numerators) if self.inverse is None else len(self.inverse)

    @overload
    def __getitem__(self, i: int) -> Fraction: ...
    @overload
    def __getitem__(self, i: slice) -> list[Fraction]: ...
    def __getitem__(self, i: int | slice) -> Fraction | list[Fraction]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        u = i if self.inverse is None else int(self.inverse[i])
        return _coprime_fraction(self.numerators[u], self.denominators[u])


def value_parts(values: Sequence[Any]) -> tuple[list[int], list[int], IntArray | None]:
    """The numerators and denominators (Python ints) of the distinct value objects among
    ``values``, and the object of each state (None: state ``s`` is object ``s``)."""
    if type(values) is ReadValues:
        return values.numerators, values.denominators, values.inverse
    objs, inverse = distinct_objects(values)
    return (*_int_parts(objs), inverse)


def _int_parts(objs: list[Any]) -> tuple[list[int], list[int]]:
    """Numerators and denominators as Python ints, at C speed (a Fraction's from its slots:
    its ``numerator`` property is a Python call)."""
    if _SLOTS and set(map(type, objs)) <= {Fraction}:
        return list(map(int, map(_SLOT_NUMERATOR, objs))), list(map(int, map(_SLOT_DENOMINATOR, objs)))
    return list(map(int, map(_NUMERATOR, objs))), list(map(int, map(_DENOMINATOR, objs)))


_SLOTS = {"_numerator", "_denominator"} <= set(getattr(Fraction, "__slots__", ()))
_NUMERATOR, _DENOMINATOR = operator.attrgetter("numerator"), operator.attrgetter("denominator")
_SLOT_NUMERATOR, _SLOT_DENOMINATOR = operator.attrgetter("_numerator"), operator.attrgetter("_denominator")


class _Values:
    """Numerators, denominators and denominator numbers (equal denominators, one number)
    of the values a computation reads: every state's (``states`` None: :class:`_Parts`,
    kept in ``full`` for the filter and the vectorised exact path) or only the given
    states' (dicts)."""

    def __init__(self, values: Sequence[Fraction], states: Sequence[int] | None) -> None:
        self.full: _Parts | None = None
        if states is None:
            num, den, inverse = value_parts(values)
            numbered = dict.fromkeys(itertools.chain((1,), den))  # 1 (the constants' group) first
            self.dens: list[int] = list(numbered)
            ids = dict(zip(numbered, range(len(numbered)), strict=True))
            self.full = _Parts(num, list(map(ids.__getitem__, den)), inverse)
            return
        ids = {1: 0}
        self.dens = dens = [1]

        def number(d: int) -> int:
            j = ids.get(d)
            if j is None:
                j = ids[d] = len(dens)
                dens.append(d)
            return j

        picked = {s: values[s] for s in states}
        self.num: dict[int, int] = {s: int(x.numerator) for s, x in picked.items()}
        self.den_id: dict[int, int] = {s: number(int(x.denominator)) for s, x in picked.items()}


def _touched(g: CompiledGame[Any, Any], acts: IntArray) -> list[int]:
    """The states whose values the actions ``acts`` read: their own and their successors'."""
    outs = [g.out_target[int(g.out_ptr[k]):int(g.out_ptr[k + 1])] for k in acts.tolist()]
    touched: list[int] = np.unique(np.concatenate([g.act_state[acts], *outs])).tolist()
    return touched


def _groups(g: CompiledGame[Any, Any], sc: _Scale, vals: _Values, k: int,
            own: int | None) -> list[tuple[int, int]]:
    """``B Q_v(k)`` (minus ``B v(own)`` when ``own`` is a state) as fractions ``(M_j, D_j)``
    over distinct denominators, the zero ones left out (one action at a time)."""
    num, den_id, weight, target, code = vals.num, vals.den_id, sc.weight, g.out_target, g.out_code
    acc: dict[int, int] = {}
    c = sc.const[k]
    if c:
        acc[0] = c
    for o in range(int(g.out_ptr[k]), int(g.out_ptr[k + 1])):
        t = int(target[o])
        j = den_id[t]
        acc[j] = acc.get(j, 0) + weight[int(code[o])] * num[t]
    if own is not None:
        j = den_id[own]
        acc[j] = acc.get(j, 0) - sc.scale * num[own]
    dens = vals.dens
    return [(m, dens[j]) for j, m in acc.items() if m]


def _sum(groups: list[tuple[int, int]]) -> tuple[int, int]:
    """``sum M_j / D_j`` as one fraction ``(N, D)``, ``D > 0``, not reduced."""
    if not groups:
        return 0, 1
    n, d = groups[0]
    for m, e in groups[1:]:
        n, d = n * e + m * d, d * e
    return n, d


def _reduced(groups: list[tuple[int, int]], scale: int) -> Fraction:
    """``sum M_j / D_j`` divided by ``scale``, in lowest terms. Fractions are added over
    the least common multiple of their denominators (one gcd each), which keeps the
    numbers, and so the final gcd, as small as the values' own: the denominators of a
    game's values often share most of their factors."""
    n, d = groups[0] if groups else (0, 1)
    for m, e in groups[1:]:
        common = math.gcd(d, e)
        if common == 1:
            n, d = n * e + m * d, d * e
        else:
            s = d // common
            n, d = n * (e // common) + m * s, s * e
    return Fraction(n, d * scale)


def _sign(groups: list[tuple[int, int]]) -> int:
    """The sign of ``sum M_j / D_j`` (every ``D_j > 0``)."""
    if not groups:
        return 0
    if len(groups) == 1 or all(m > 0 for m, _ in groups) or all(m < 0 for m, _ in groups):
        return 1 if groups[0][0] > 0 else -1
    dens = [d for _, d in groups]
    return _clustered_sign([m for m, _ in groups], list(range(len(groups))), dens,
                           lambda a, b: _ratio(dens[a], dens[b]))


def _small_ratio(a: int, b: int) -> tuple[int, int] | None:
    """``(p, q)`` with ``a q = b p`` and ``0 < p, q < 2**20`` (``a, b > 0``), or None when
    none was found.

    The candidates are the convergents of the continued fraction of ``x / y``, the
    leading 64 bits of ``a`` and ``b`` (a fraction that close to ``x / y`` is one of them,
    by Legendre's theorem, unless ``p`` and ``q`` are both near the bound). ``x`` and
    ``y`` differ from ``a / 2**s`` and ``b / 2**s`` by less than 1, so ``a q = b p``
    implies ``|x q - y p| < p + q``; a convergent that passes this test on machine-size
    numbers is checked exactly (``a q = b p``, two products by a small integer). A pair
    is returned only if it is exact, so a ratio missed costs time, never a wrong sign.
    """
    la, lb = a.bit_length(), b.bit_length()
    if abs(la - lb) >= _RATIO_BITS:
        return None
    shift = max(la, lb) - 64
    x, y = (a >> shift, b >> shift) if shift > 0 else (a, b)
    x0, y0 = x, y
    p0, q0, p1, q1 = 0, 1, 1, 0
    while y:
        t, r = divmod(x, y)
        p0, q0, p1, q1 = p1, q1, t * p1 + p0, t * q1 + q0
        if p1 >= _RATIO_MAX or q1 >= _RATIO_MAX:
            return None
        if abs(x0 * q1 - y0 * p1) < p1 + q1 and a * q1 == b * p1:
            return p1, q1
        x, y = y, r
    return None


def _ratio(a: int, b: int) -> tuple[int, int] | None:
    """``(p, q)`` with ``a / b = p / q`` (``a, b > 0``): small (:func:`_small_ratio`), or
    ``(1, b // a)`` when ``a`` divides ``b``; None when neither was found."""
    r = _small_ratio(a, b)
    if r is None and a.bit_length() < b.bit_length():
        q, rest = divmod(_INT(b), _INT(a))
        if not rest:
            return 1, q
    return r


def _clustered_sign(ms: list[int], ids: list[int], dens: Sequence[int],
                    ratio: Callable[[int, int], tuple[int, int] | None]) -> int:
    """The sign of ``sum_j M_j / D_j`` (``D_j = dens[ids[j]] > 0``), with few big products.

    Taken longest denominator first, a denominator in a known ratio to a cluster's
    first one (``D_j / D_r = p / q`` by ``ratio(j, r)`` on denominator numbers,
    :func:`_ratio`: ``p`` and ``q`` small, or ``D_j`` a divisor of ``D_r``) joins that
    cluster: ``sum M_j / D_j = (sum M_j q (P / p)) / (P D_r)`` with ``P`` the lcm of the
    ``p``, products by small integers or by the cofactor ``q`` only. The clusters' sums
    are then cross-multiplied (:func:`_cross_sign`): the values of one component of a
    game usually share one denominator up to small factors, or divide each other, so
    there is usually one cluster and no product of two long denominators.
    """
    order = sorted(range(len(ids)), key=lambda x: -dens[ids[x]].bit_length())
    clusters: list[tuple[int, list[tuple[int, int, int]]]] = []
    for x in order:
        m, j = ms[x], ids[x]
        for ref, terms in clusters:
            r = (1, 1) if j == ref else ratio(j, ref)
            if r is not None:
                terms.append((m, *r))
                break
        else:
            clusters.append((j, [(m, 1, 1)]))
    parts: list[tuple[int, int]] = []
    for ref, terms in clusters:
        big_p = math.lcm(*(p for _, p, _ in terms))
        total = sum(m * (q * (big_p // p)) for m, p, q in terms)
        if total:
            parts.append((total, dens[ref] * big_p))
    return _cross_sign(parts)


def _cross_sign(groups: list[tuple[int, int]]) -> int:
    """The sign of ``sum M_j / D_j`` (every ``D_j > 0``) by cross-multiplication, in the
    backend's integers (:data:`tbsg.engine._backend.INTEGER`: products of big integers
    are where GMP is many times faster). Of two fractions, the one whose cross product is
    two bits longer or more is the larger in magnitude (``|M_1 D_2|`` lies in
    ``[2**(a-2), 2**a)`` for ``a`` the sum of their bit lengths), with no product."""
    if not groups:
        return 0
    if all(m > 0 for m, _ in groups) or all(m < 0 for m, _ in groups):
        return 1 if groups[0][0] > 0 else -1
    if len(groups) == 2:
        (m, d), (e_m, e) = groups
        a, b = abs(m).bit_length() + e.bit_length(), abs(e_m).bit_length() + d.bit_length()
        if abs(a - b) >= 2:
            return (1 if m > 0 else -1) if a > b else (1 if e_m > 0 else -1)
    big = _INT
    n, d = big(groups[0][0]), big(groups[0][1])
    for m, e in groups[1:]:
        e = big(e)
        n, d = n * e + big(m) * d, d * e
    return (n > 0) - (n < 0)


def _fixed_point_bits(parts: _Parts, dens: list[int], sc: _Scale, wmax: int) -> int:
    """``K`` such that the filter's sums stay below ``2**62`` (0: no filter)."""
    top = 0  # |v| < 2**top for every value
    if parts.num:
        num_bits = np.fromiter(map(int.bit_length, map(abs, parts.num)), dtype=np.int64, count=len(parts.num))
        den_bits = np.array([d.bit_length() for d in dens], dtype=np.int64)
        top = max(0, int((num_bits - den_bits[parts.den_id]).max()) + 1)
    bound = sc.const_max + (wmax + sc.scale) * (1 << top) + wmax + sc.scale
    k = _INT64_BITS - bound.bit_length()
    return k if k >= _MIN_BITS else 0


def _filtered_signs(g: CompiledGame[Any, Any], sc: _Scale, parts: _Parts, dens: list[int]) -> SignArray:
    """``δ`` of every flat action where the fixed-point filter proves it, 2 elsewhere."""
    sign = np.full(g.n_actions, 2, dtype=np.int8)
    if sc.scale >= 2**31 or max(sc.prob_weight, default=0) >= 2**31:
        return sign  # weights too large for int64 sums: every action takes the exact path
    w_out, wsum = _weights(g, sc)
    bits = _fixed_point_bits(parts, dens, sc, int(wsum.max()) if len(wsum) else 0)
    if not bits:
        return sign
    shifted = map(operator.lshift, parts.num, repeat(bits))
    fixed = parts.per_state(np.fromiter(map(operator.floordiv, shifted, map(dens.__getitem__, parts.den_id)),
                                        dtype=np.int64, count=len(parts.num)))
    e = np.array(sc.const, dtype=np.int64) * (1 << bits) - sc.scale * fixed[g.act_state]
    starts = g.out_ptr[:-1]
    moving = starts < g.out_ptr[1:]
    if len(w_out):
        e[moving] += np.add.reduceat(w_out * fixed[g.out_target], starts[moving])
    sign[e >= sc.scale] = 1
    sign[e + wsum < 0] = -1
    return sign


def _weights(g: CompiledGame[Any, Any], sc: _Scale) -> tuple[IntArray, IntArray]:
    """``w_o`` of every outcome and ``W_k = sum_o w_o`` of every action, as ``int64``
    (the caller has checked that every weight is below ``2**31``)."""
    w_out = np.array(sc.prob_weight, dtype=np.int64)[g.out_code]
    starts = g.out_ptr[:-1]
    moving = starts < g.out_ptr[1:]
    wsum = np.zeros(g.n_actions, dtype=np.int64)
    if len(w_out):
        wsum[moving] = np.add.reduceat(w_out, starts[moving])
    return w_out, wsum


def _common_denominator(dens: list[int], bits: int) -> int | None:
    """The least common multiple of ``dens`` if it has at most ``bits`` bits, else None
    (found as soon as a partial multiple exceeds them: no product of long numbers)."""
    common = 1
    for d in dens:
        common = common // math.gcd(common, d) * d
        if common.bit_length() > bits:
            return None
    return common


def _digits(xs: list[int], base_bits: int, m: int) -> IntArray:
    """Integers ``|x| < 2**(b m - 1)`` (``b = base_bits``) as an ``(m, len(xs))`` ``int64``
    array of base ``2**b`` digits, least significant first: ``x = sum_l a_l 2**(b l)``
    with ``a_l`` in ``[0, 2**b)`` below the top digit, which is signed, in
    ``[-2**(b-1), 2**(b-1))`` (Python's ``&`` and ``>>`` act on two's complement: the
    low bits of a negative number are its digit, the shift its floor)."""
    out = np.empty((m, len(xs)), dtype=np.int64)
    mask = (1 << base_bits) - 1
    for digit in range(m):
        shifted = map(operator.rshift, xs, repeat(base_bits * digit)) if digit else iter(xs)
        top = digit == m - 1
        out[digit] = np.fromiter(shifted if top else map(operator.and_, shifted, repeat(mask)),
                                 dtype=np.int64, count=len(xs))
    return out


def _common_signs(g: CompiledGame[Any, Any], sc: _Scale, parts: _Parts, dens: list[int]) -> SignArray | None:
    """``δ`` of every flat action over the values' common denominator (module docstring),
    or None when it is too long or the weights too large for its ``int64`` digits."""
    if sc.scale >= 2**31 or max(sc.prob_weight, default=0) >= 2**31:
        return None
    w_out, wsum = _weights(g, sc)
    base_bits = _SUM_BITS - (1 + sc.scale + (int(wsum.max()) if len(wsum) else 0)).bit_length()
    common = _common_denominator(dens, _COMMON_BITS) if base_bits >= _MIN_DIGIT_BITS else None
    if common is None:
        return None
    cofactor = [common // d for d in dens]
    scaled = list(map(operator.mul, parts.num, map(cofactor.__getitem__, parts.den_id)))  # L v(s)
    consts = [w * common for w in sc.weight]  # L B x of each number x of the game
    top = max(map(abs, itertools.chain(scaled, consts)), default=0).bit_length() + 1
    m = max(1, -(-top // base_bits))
    if m > _MAX_DIGITS:
        return None
    value, const = _digits(scaled, base_bits, m), _digits(consts, base_bits, m)
    own = parts.per_state(np.arange(len(scaled)))  # the object of each state
    # sum_o w_o A_{t_o} of every action, digit by digit: one product by the sparse matrix
    # of the weights (actions by value objects; int64 throughout, sums bounded as above)
    outcomes = sp.csr_matrix((w_out, own[g.out_target], g.out_ptr), shape=(g.n_actions, len(scaled)))
    at_state = own[g.act_state]
    carry = np.zeros(g.n_actions, dtype=np.int64)
    lower = np.zeros(g.n_actions, dtype=bool)  # a nonzero digit below the top one
    for digit in range(m):
        e = outcomes @ value[digit]
        e += const[digit][g.act_code]
        e -= sc.scale * value[digit][at_state]
        e += carry
        if digit < m - 1:
            carry = e >> base_bits
            lower |= (e & ((1 << base_bits) - 1)) != 0
    sign: SignArray = np.sign(e).astype(np.int8)
    sign[(e == 0) & lower] = 1
    return sign


def _numbers(sc: _Scale, num: list[int], most_terms: int) -> tuple[Any, Any, Any]:
    """The numerators, weights ``w`` and constants ``C`` as numpy arrays: ``int64`` when
    every group sum of the exact path stays below ``2**62``, else Python ints (``object``)."""
    top = max(max(map(abs, num), default=0).bit_length() + max(sc.scale, *sc.weight).bit_length(),
              sc.const_max.bit_length())
    kind = np.int64 if top + most_terms.bit_length() <= _INT64_BITS else object
    return np.array(num, dtype=kind), np.array(sc.weight, dtype=kind), np.array(sc.const, dtype=kind)


class _Arrays:
    """What the vectorised exact path reads, as arrays: every state's numerator (``int64``
    or Python ints, :func:`_numbers`) and denominator number, the weights and constants,
    and the distinct denominators as Python ints and in the backend's exact integers."""

    def __init__(self, g: CompiledGame[Any, Any], sc: _Scale, parts: _Parts, dens: list[int]) -> None:
        most = int(np.diff(g.out_ptr).max(initial=0)) + 2  # terms of a group: outcomes, v(i), C_k
        numbers, self.weight, self.const = _numbers(sc, parts.num, most)
        self.numbers = parts.per_state(numbers)
        self.den_id = parts.per_state(np.array(parts.den_id, dtype=np.int64))
        self.dens = np.empty(len(dens), dtype=object)
        self.dens[:] = dens
        self.big_dens = np.empty(len(dens), dtype=object)  # in the backend's integers
        self.big_dens[:] = list(map(_INT, dens))
        self.den_bits = np.array([d.bit_length() for d in dens], dtype=np.int64)
        self.scale = sc.scale


def _chunks(n: int) -> list[slice]:
    """Slices of at most :data:`_CHUNK` rows: the exact path's temporary integers (a few
    per outcome, as large as the values) stay bounded in memory."""
    return [slice(a, min(a + _CHUNK, n)) for a in range(0, n, _CHUNK)]


def _group_sums(g: CompiledGame[Any, Any], arr: _Arrays, acts: IntArray,
                own: bool) -> tuple[IntArray, IntArray, npt.NDArray[Any]]:
    """The nonzero group sums ``M_j`` of :func:`_groups` for many actions at once:
    ``(row, den, m)``, sorted by the row of ``acts`` they belong to and by denominator
    number. The terms are sorted by (row, denominator) and added by one ``reduceat``;
    with ``own``, ``-B v(i)`` of each action's state is a term."""
    start = g.out_ptr[acts].astype(np.int64)
    deg = g.out_ptr[acts + 1] - start
    outs = np.repeat(start - np.cumsum(deg) + deg, deg) + np.arange(int(deg.sum()))
    targets = g.out_target[outs]
    c = arr.const[acts]
    nz = np.flatnonzero(c != 0)
    row = [np.repeat(np.arange(len(acts)), deg), nz]
    den = [arr.den_id[targets], np.zeros(len(nz), dtype=np.int64)]
    m = [arr.weight[g.out_code[outs]] * arr.numbers[targets], c[nz]]
    if own:
        states = g.act_state[acts]
        row.append(np.arange(len(acts)))
        den.append(arr.den_id[states])
        m.append(arr.numbers[states] * -arr.scale)
    rows, ids, terms = np.concatenate(row), np.concatenate(den), np.concatenate(m)
    order = np.lexsort((ids, rows))
    rows, ids, terms = rows[order], ids[order], terms[order]
    if not len(terms):
        return rows, ids, terms
    first = np.flatnonzero(np.concatenate(([True], (rows[1:] != rows[:-1]) | (ids[1:] != ids[:-1]))))
    sums = np.add.reduceat(terms, first)
    keep = sums != 0
    return rows[first][keep], ids[first][keep], sums[keep]


def _row_groups(grouped: tuple[IntArray, IntArray, npt.NDArray[Any]], dens: list[int],
                rows: IntArray) -> list[list[tuple[int, int]]]:
    """The groups ``(M_j, D_j)`` of each of the given ``rows`` as Python ints."""
    row, den, m = grouped
    lo = np.searchsorted(row, rows).tolist()
    hi = np.searchsorted(row, rows, side="right").tolist()
    ms, ds = m.tolist(), den.tolist()
    return [[(ms[x], dens[ds[x]]) for x in range(a, b)] for a, b in zip(lo, hi, strict=True)]


def _mixed_signs(row: IntArray, den: IntArray, m: npt.NDArray[Any], count: IntArray,
                 dens: npt.NDArray[Any], rows: IntArray) -> IntArray:
    """The signs of ``sum_j M_j / D_j`` of the given ``rows`` (``count`` groups each, in
    ``(row, den, m)``; ``dens``: the denominators in the backend's exact integers),
    cross-multiplied on arrays of those integers: ``N / D <- (N D_j + M_j D) / (D D_j)``,
    one group position at a time for every row that has it (small numbers: see
    :func:`_clustered_signs`)."""
    first = np.searchsorted(row, rows)
    size = count[rows]
    n = m[first].astype(object)
    d = dens[den[first]]
    for p in range(1, int(size.max())):
        live = np.flatnonzero(size > p)
        at = first[live] + p
        e = dens[den[at]]
        n[live] = n[live] * e + m[at] * d[live]
        d[live] = d[live] * e
    out: IntArray = (n > 0).astype(np.int64) - (n < 0)
    return out


class _RatioCache(dict[tuple[int, int], "tuple[int, int] | None"]):
    """:func:`_ratio` of pairs of denominator numbers, each pair computed once (a
    cofactor, as long as a denominator can be, is kept for one chunk of actions only:
    :meth:`clear_cofactors`)."""

    def __init__(self, dens: Sequence[int]) -> None:
        super().__init__()
        self.dens = dens
        self.cofactors: dict[tuple[int, int], tuple[int, int]] = {}

    def __call__(self, a: int, b: int) -> tuple[int, int] | None:
        key = (a, b)
        if key in self:
            return self[key]
        r = self.cofactors.get(key)
        if r is None:
            r = _ratio(self.dens[a], self.dens[b])
            if r is not None and r[0] == 1 and r[1] >= _RATIO_MAX:
                self.cofactors[key] = r
                return r
            self[key] = r
        return r

    def clear_cofactors(self) -> None:
        self.cofactors.clear()


def _clustered_signs(row: IntArray, den: IntArray, m: npt.NDArray[Any], count: IntArray,
                     ratio: _RatioCache, rows: IntArray) -> IntArray:
    """:func:`_mixed_signs` row by row through :func:`_clustered_sign`: for big
    denominators, where cross-multiplying every group of a row makes numbers as long as
    all its denominators together."""
    first = np.searchsorted(row, rows).tolist()
    size = count[rows].tolist()
    ids, ms = den.tolist(), m.tolist()
    out = np.empty(len(first), dtype=np.int64)
    for r, (a, c) in enumerate(zip(first, size, strict=True)):
        out[r] = _clustered_sign(ms[a:a + c], ids[a:a + c], ratio.dens, ratio)
    return out


def _vector_signs(g: CompiledGame[Any, Any], arr: _Arrays, acts: IntArray,
                  progress: Callable[[int, int], None] | None = None) -> SignArray:
    """``δ`` of many actions: the sign of a row whose group sums all have one sign is
    read off them; the others are cross-multiplied (:func:`_mixed_signs`), or clustered
    first when their denominators are long (:func:`_clustered_signs`). ``progress`` is
    called as ``progress(done, len(acts))`` after each chunk."""
    sign = np.empty(len(acts), dtype=np.int8)
    ratio = _RatioCache(arr.dens.tolist())
    for part in _chunks(len(acts)):
        n = part.stop - part.start
        row, den, m = _group_sums(g, arr, acts[part], True)
        count = np.bincount(row, minlength=n)
        positive = np.bincount(row[m > 0], minlength=n)
        some = np.where(count == 0, 0, np.where(positive == count, 1, np.where(positive == 0, -1, 2)))
        mixed = np.flatnonzero(some == 2)
        if len(mixed):
            long = arr.den_bits[den].max() * count[mixed].max() > _CROSS_BITS
            ratio.clear_cofactors()
            some[mixed] = (_clustered_signs(row, den, m, count, ratio, mixed) if long
                           else _mixed_signs(row, den, m, count, arr.big_dens, mixed))
        sign[part] = some
        if progress is not None:
            progress(part.stop, len(acts))
    return sign


def _same_rows(g: CompiledGame[Any, Any], parts: _Parts, acts: IntArray) -> tuple[IntArray, IntArray | None]:
    """One representative of each set of ``acts`` whose ``Q_v(k) - v(i)`` is the same
    expression: the same constant, the state's value the same object, and the same
    probabilities times the same value objects outcome by outcome (so the same number:
    one sign decides them all), and the representative of each action; ``(acts, None)``
    when no value object is shared or the expressions are too long to number.

    Each expression is numbered by one ``int64``: its fields (object and code numbers)
    side by side in binary, a one-to-one code when their bits fit in 63.
    """
    if parts.inverse is None or not len(acts):
        return acts, None
    start = g.out_ptr[acts]
    deg = g.out_ptr[acts + 1] - start
    most = int(deg.max())
    obj_bits, code_bits = (len(parts.num) + 1).bit_length(), (len(g.rationals) + 1).bit_length()
    if (most + 1) * (obj_bits + code_bits) > 63:
        return acts, None
    key = parts.inverse[g.act_state[acts]] << code_bits | g.act_code[acts].astype(np.int64)
    last = max(len(g.out_target) - 1, 0)
    for j in range(most):
        has = deg > j
        o = np.minimum(start + j, last)
        term = (g.out_code[o].astype(np.int64) + 1) << obj_bits | (parts.inverse[g.out_target[o]] + 1)
        key = key << (obj_bits + code_bits) | np.where(has, term, 0)
    _, first, back = np.unique(key, return_index=True, return_inverse=True)
    return acts[first], back.reshape(-1)


def _signs(g: CompiledGame[Any, Any], sc: _Scale, vals: _Values, ks: IntArray,
           progress: Callable[[int, int], None] | None = None) -> SignArray:
    """``δ`` of the actions ``ks``: filtered first when ``vals`` holds every state, the
    rest by the vectorised exact path; one by one otherwise."""
    if vals.full is not None:
        common = _common_signs(g, sc, vals.full, vals.dens)
        if common is not None:
            if progress is not None:
                progress(len(ks), len(ks))
            return common[ks]
        sign = _filtered_signs(g, sc, vals.full, vals.dens)[ks]
        rows = np.flatnonzero(sign == 2)
        if progress is not None:
            progress(len(ks) - len(rows), len(ks))
        if len(rows):
            done = len(ks) - len(rows)
            report = None if progress is None else (lambda k, _n: progress(done + k, len(ks)))
            reps, back = _same_rows(g, vals.full, ks[rows])
            decided = _vector_signs(g, _Arrays(g, sc, vals.full, vals.dens), reps, report)
            sign[rows] = decided if back is None else decided[back]
            if progress is not None:
                progress(len(ks), len(ks))
        return sign
    return np.array([_sign(_groups(g, sc, vals, k, i))
                     for k, i in zip(ks.tolist(), g.act_state[ks].tolist(), strict=True)], dtype=np.int8)


def _prepare(g: CompiledGame[Any, Any], values: Sequence[Fraction],
             acts: Sequence[int] | IntArray | None) -> tuple[_Scale, _Values, IntArray]:
    """The game's weights, the values read (every state's when many actions are asked
    for: then the filter runs) and the actions asked for (``acts`` or all)."""
    ks = np.arange(g.n_actions, dtype=np.int64) if acts is None else np.asarray(acts, dtype=np.int64)
    whole = len(ks) * _FEW > g.n_states
    vals = _Values(values, None if whole else _touched(g, ks))
    return _scale_of(g), vals, ks


def exact_action_signs(g: CompiledGame[Any, Any], values: Sequence[Fraction],
                       acts: Sequence[int] | IntArray | None = None,
                       progress: Callable[[int, int], None] | None = None) -> SignArray:
    """``δ(k) = sign(Q_v(k) - v(i))`` for every flat action (or those in ``acts``), exactly.

    ``values`` are exact rationals with integer ``numerator`` and ``denominator > 0``
    (:class:`~fractions.Fraction`, in lowest terms or not), one per state. ``progress``,
    if given, is called as ``progress(done, total)`` with the actions decided so far
    (:mod:`tbsg._util.progress`): after the filter, then after each chunk of the exact path.
    """
    sc, vals, ks = _prepare(g, values, acts)
    return _signs(g, sc, vals, ks, progress)


def exact_action_values(g: CompiledGame[Any, Any], values: Sequence[Fraction],
                        acts: Sequence[int] | IntArray | None = None) -> list[Fraction]:
    """``Q_v(k)`` for every flat action (or those in ``acts``, in their order), each a
    :class:`~fractions.Fraction` equal to the sum (in lowest terms for ``values`` in lowest
    terms: where ``Q_v(k) = v(i)`` it is ``v(i)`` itself)."""
    sc, vals, ks = _prepare(g, values, acts)
    sign = _signs(g, sc, vals, ks)
    out: list[Fraction] = [values[i] for i in g.act_state[ks].tolist()]  # the ties: v(i)
    moved = np.flatnonzero(sign != 0)
    if vals.full is None:
        for r, k in zip(moved.tolist(), ks[moved].tolist(), strict=True):
            out[r] = _reduced(_groups(g, sc, vals, k, None), sc.scale)
        return out
    arr = _Arrays(g, sc, vals.full, vals.dens)
    for part in _chunks(len(moved)):
        rows = moved[part]
        grouped = _group_sums(g, arr, ks[rows], False)
        for r, gr in zip(rows.tolist(), _row_groups(grouped, vals.dens, np.arange(len(rows))), strict=True):
            out[r] = _reduced(gr, sc.scale)
    return out
