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
``M_j / D_j``; their sum has the sign of ``sum_j M_j prod_{l != j} D_l`` (every ``D_l >
0``), and a single group has the sign of ``M_j``. No gcd is taken: a gcd of two large
integers costs several of their products, and the sign needs none. ``Q_v(k)`` itself is
that sum over ``B prod_j D_j`` (without the state's term), reduced once to lowest terms;
an action with ``δ(k) = 0`` has ``Q_v(k) = v(i)``, which is returned as is.

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

Why integers rather than ``Fraction``
-------------------------------------
Summing ``Q_v`` term by term in :class:`~fractions.Fraction` multiplies by 1 and adds 0
and takes two gcds per addition; on the values of large games (denominators of
thousands of digits) the gcds dominate. Grouping by denominator turns most of the work
into products of a large integer by a small one, and the filter decides the strict
signs (the deviations that are clearly worse) without touching the large numbers
beyond one division per state. Only plain Python integers and numpy ``int64`` are used:
no optional backend, so the certificate (:mod:`tbsg.certify.certificate`) that decides
its signs here stays independent of the solvers' arithmetic.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from tbsg.engine.compiled import CompiledGame

__all__ = ["exact_action_signs", "exact_action_values"]

IntArray = npt.NDArray[np.int64]
SignArray = npt.NDArray[np.int8]

_INT64_BITS = 62  # |E_k| and every partial sum of the filter stay below 2**62
_MIN_BITS = 8  # a filter with fewer fixed-point bits decides too little to pay for itself
_FEW = 8  # actions per state touched below which no table of all states is built


class _Scale:
    """The integer weights of one game: ``B``, and ``B x`` for each constant and
    probability ``x`` of its rational table (module docstring)."""

    def __init__(self, g: CompiledGame[Any, Any]) -> None:
        used = np.zeros(len(g.rationals), dtype=bool)
        used[g.act_code] = True
        used[g.out_code] = True
        codes = np.flatnonzero(used).tolist()
        scale = 1
        for c in codes:
            scale = math.lcm(scale, g.rationals[c].denominator)
        self.scale = scale
        weight = [0] * len(g.rationals)
        for c in codes:
            x = g.rationals[c]
            weight[c] = x.numerator * (scale // x.denominator)
        self.weight = weight
        self.const: list[int] = [weight[c] for c in g.act_code.tolist()]


_SCALES: weakref.WeakKeyDictionary[CompiledGame[Any, Any], _Scale] = weakref.WeakKeyDictionary()


def _scale_of(g: CompiledGame[Any, Any]) -> _Scale:
    hit = _SCALES.get(g)
    if hit is None:
        hit = _SCALES[g] = _Scale(g)
    return hit


class _Values:
    """Numerators, denominators and denominator numbers (equal denominators, one number)
    of the values a computation reads: every state's (``states`` None: lists, kept in
    ``full`` for the filter) or only the given states' (dicts); and the game's outcomes
    (``ptr``, ``target``, ``code``: lists when every state is read, else the arrays)."""

    def __init__(self, g: CompiledGame[Any, Any], values: Sequence[Fraction],
                 states: Sequence[int] | None) -> None:
        ids: dict[int, int] = {1: 0}
        self.dens = dens = [1]
        self.full: tuple[list[int], list[int]] | None = None

        def number(d: int) -> int:
            j = ids.get(d)
            if j is None:
                j = ids[d] = len(dens)
                dens.append(d)
            return j

        if states is None:
            num = [int(x.numerator) for x in values]
            den_id = [number(int(x.denominator)) for x in values]
            self.full = (num, den_id)
            self.num: Sequence[int] | dict[int, int] = num
            self.den_id: Sequence[int] | dict[int, int] = den_id
            self.ptr: Sequence[int] | IntArray = g.out_ptr.tolist()
            self.target: Sequence[int] | IntArray = g.out_target.tolist()
            self.code: Sequence[int] | IntArray = g.out_code.tolist()
        else:
            self.ptr, self.target, self.code = g.out_ptr, g.out_target, g.out_code
            picked = {s: values[s] for s in states}
            self.num = {s: int(x.numerator) for s, x in picked.items()}
            self.den_id = {s: number(int(x.denominator)) for s, x in picked.items()}


def _touched(g: CompiledGame[Any, Any], acts: IntArray) -> list[int]:
    """The states whose values the actions ``acts`` read: their own and their successors'."""
    outs = [g.out_target[int(g.out_ptr[k]):int(g.out_ptr[k + 1])] for k in acts.tolist()]
    touched: list[int] = np.unique(np.concatenate([g.act_state[acts], *outs])).tolist()
    return touched


def _groups(sc: _Scale, vals: _Values, k: int, own: int | None) -> list[tuple[int, int]]:
    """``B Q_v(k)`` (minus ``B v(own)`` when ``own`` is a state) as fractions ``(M_j, D_j)``
    over distinct denominators, the zero ones left out."""
    num, den_id, weight, target, code = vals.num, vals.den_id, sc.weight, vals.target, vals.code
    acc: dict[int, int] = {}
    c = sc.const[k]
    if c:
        acc[0] = c
    for o in range(int(vals.ptr[k]), int(vals.ptr[k + 1])):
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


def _sign(groups: list[tuple[int, int]]) -> int:
    """The sign of ``sum M_j / D_j`` (every ``D_j > 0``)."""
    if not groups:
        return 0
    if len(groups) == 1 or all(m > 0 for m, _ in groups) or all(m < 0 for m, _ in groups):
        return 1 if groups[0][0] > 0 else -1
    n = _sum(groups)[0]
    return (n > 0) - (n < 0)


def _fixed_point_bits(num: list[int], den_id: list[int], dens: list[int], sc: _Scale,
                     wmax: int) -> int:
    """``K`` such that the filter's sums stay below ``2**62`` (0: no filter)."""
    top = 0  # |v| < 2**top for every value
    for n, j in zip(num, den_id, strict=True):
        top = max(top, abs(n).bit_length() - dens[j].bit_length() + 1)
    cmax = max((abs(c) for c in sc.const), default=0)
    bound = cmax + (wmax + sc.scale) * (1 << top) + wmax + sc.scale
    k = _INT64_BITS - bound.bit_length()
    return k if k >= _MIN_BITS else 0


def _filtered_signs(g: CompiledGame[Any, Any], sc: _Scale, num: list[int], den_id: list[int],
                    dens: list[int]) -> SignArray:
    """``δ`` of every flat action where the fixed-point filter proves it, 2 elsewhere."""
    sign = np.full(g.n_actions, 2, dtype=np.int8)
    if sc.scale >= 2**31 or not all(0 <= w < 2**31 for w in sc.weight):
        return sign  # weights too large for int64 sums: every action takes the exact path
    w_out = np.array(sc.weight, dtype=np.int64)[g.out_code]
    starts = g.out_ptr[:-1]
    moving = starts < g.out_ptr[1:]
    wsum = np.zeros(g.n_actions, dtype=np.int64)
    if len(w_out):
        wsum[moving] = np.add.reduceat(w_out, starts[moving])
    bits = _fixed_point_bits(num, den_id, dens, sc, int(wsum.max()) if len(wsum) else 0)
    if not bits:
        return sign
    fixed = np.array([(n << bits) // dens[j] for n, j in zip(num, den_id, strict=True)], dtype=np.int64)
    e = np.array(sc.const, dtype=np.int64) * (1 << bits) - sc.scale * fixed[g.act_state]
    if len(w_out):
        e[moving] += np.add.reduceat(w_out * fixed[g.out_target], starts[moving])
    sign[e >= sc.scale] = 1
    sign[e + wsum < 0] = -1
    return sign


def _signs(g: CompiledGame[Any, Any], sc: _Scale, vals: _Values, ks: IntArray) -> SignArray:
    """``δ`` of the actions ``ks``: filtered first when ``vals`` holds every state."""
    if vals.full is not None:
        sign = _filtered_signs(g, sc, *vals.full, vals.dens)
        sign = sign[ks]
    else:
        sign = np.full(len(ks), 2, dtype=np.int8)
    rows = np.flatnonzero(sign == 2)
    if len(rows):
        acts = ks[rows]
        sign[rows] = [_sign(_groups(sc, vals, k, i))
                      for k, i in zip(acts.tolist(), g.act_state[acts].tolist(), strict=True)]
    return sign


def _prepare(g: CompiledGame[Any, Any], values: Sequence[Fraction],
             acts: Sequence[int] | IntArray | None) -> tuple[_Scale, _Values, IntArray]:
    """The game's weights, the values read (every state's when many actions are asked
    for: then the filter runs) and the actions asked for (``acts`` or all)."""
    ks = np.arange(g.n_actions, dtype=np.int64) if acts is None else np.asarray(acts, dtype=np.int64)
    whole = len(ks) * _FEW > g.n_states
    vals = _Values(g, values, None if whole else _touched(g, ks))
    return _scale_of(g), vals, ks


def exact_action_signs(g: CompiledGame[Any, Any], values: Sequence[Fraction],
                       acts: Sequence[int] | IntArray | None = None) -> SignArray:
    """``δ(k) = sign(Q_v(k) - v(i))`` for every flat action (or those in ``acts``), exactly.

    ``values`` are exact rationals with integer ``numerator`` and ``denominator > 0``
    (:class:`~fractions.Fraction`, in lowest terms or not), one per state.
    """
    sc, vals, ks = _prepare(g, values, acts)
    return _signs(g, sc, vals, ks)


def exact_action_values(g: CompiledGame[Any, Any], values: Sequence[Fraction],
                        acts: Sequence[int] | IntArray | None = None) -> list[Fraction]:
    """``Q_v(k)`` for every flat action (or those in ``acts``, in their order), each a
    :class:`~fractions.Fraction` equal to the sum (in lowest terms for ``values`` in lowest
    terms: where ``Q_v(k) = v(i)`` it is ``v(i)`` itself)."""
    sc, vals, ks = _prepare(g, values, acts)
    sign = _signs(g, sc, vals, ks).tolist()
    out: list[Fraction] = []
    for k, i, s in zip(ks.tolist(), g.act_state[ks].tolist(), sign, strict=True):
        if s == 0:
            out.append(values[i])
        else:
            n, d = _sum(_groups(sc, vals, k, None))
            out.append(Fraction(n, d * sc.scale))
    return out
