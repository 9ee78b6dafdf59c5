"""Exact action values as integers over a power of one base: acyclic levels in bulk.

Mathematics
-----------
Let ``B`` be an integer such that the denominator of every rational of the game (the
probabilities ``p_o`` and the constants ``c_k`` of :mod:`tbsg.engine.compiled`) divides a
power of ``B``: ``x = a_x / B^{f_x}`` with an integer ``a_x``. A value is *B-adic* when
it has that form too, ``v(t) = N_t / B^{e_t}``. If the successors of the actions ``K``
all have B-adic values, then for any ``E`` at least every ``f`` and ``f + e`` involved,

.. math::

    Q(k) = c_k + \\sum_{o \\in O(k)} p_o\\, v(t_o)
         = \\frac{1}{B^E}\\Big( a_{c_k} B^{E - f_{c_k}}
           + \\sum_{o \\in O(k)} a_{p_o} N_{t_o} B^{E - f_{p_o} - e_{t_o}} \\Big),

an integer numerator over the *same* denominator for every ``k`` in ``K``. So the
actions of a whole level of acyclic states are valued with integer multiplications and
additions on arrays (no gcd, no rational normalisation), and compared, ties included, by
comparing integers: exactly. Only the winners become backend rationals (one
normalisation per state). Dyadic games (coins: ``B = 2``) and dice games (``B = 6``) stay
B-adic as long as play is acyclic; a value with any other prime in its denominator (from
solving a cycle) is not, and the caller then values that level the general way.

``B`` is the product of the distinct primes below 1000 dividing the least common
multiple ``L`` of the game's denominators, times the rest of ``L`` (not factored). A
value's exponent is found by removing those factors from its denominator
(:func:`tbsg.engine._backend.remove`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from operator import truediv
from typing import Any

import numpy as np
import numpy.typing as npt

from tbsg.engine import _backend as bk
from tbsg.engine._backend import Rational
from tbsg.engine.compiled import CompiledGame

__all__ = ["AdicValues"]

IntArray = npt.NDArray[np.int64]
ObjArray = npt.NDArray[np.object_]

_PRIMES = [p for p in range(2, 1000) if all(p % q for q in range(2, int(p**0.5) + 1))]
_NOT = -2  # exponent mark: the value is not B-adic
_UNKNOWN = -1  # exponent mark: not looked at yet
_MAX_BITS = 1 << 16  # values with larger denominators are not converted (treated as not B-adic)


def _base(dens: Sequence[int]) -> tuple[int, list[int]]:
    """``(B, factors)``: the base of the module docstring and the factors it is the product of."""
    lcm = int(bk.lcm(list(dens)))
    factors = [p for p in _PRIMES if lcm % p == 0]
    rest = lcm
    for p in factors:
        rest = int(bk.remove(rest, p)[0])
    if rest > 1:
        factors.append(rest)
    base = 1
    for p in factors:
        base *= p
    return base, factors


class AdicValues:
    """The B-adic numerators and exponents of the solved states of one game.

    ``values`` is the exact solver's own list of values (backend rationals); states are
    converted from it on first use (:meth:`action_numerators`) and recorded directly by
    :meth:`record`.
    """

    def __init__(self, g: CompiledGame[Any, Any], values: list[Rational]) -> None:
        self.g = g
        self.values = values
        table = g.rationals
        self.base, self.factors = _base([x.denominator for x in table])
        f = [self._table_exponent(x.denominator) for x in table]
        self.f_tab = np.array(f, dtype=np.int64)
        a = [x.numerator * (self.base**k // x.denominator) for x, k in zip(table, f, strict=True)]
        self.a_tab = np.empty(len(a), dtype=object)
        self.a_tab[:] = a
        self.a_one = np.array([x == 1 for x in a], dtype=bool)
        n = g.n_states
        self.num = np.zeros(n, dtype=object)
        self.exp = np.full(n, _UNKNOWN, dtype=np.int64)
        self._powers: list[int] = [1]

    def _table_exponent(self, d: int) -> int:
        """Smallest ``k`` with ``d | B^k`` (exists for the game's own denominators)."""
        k, power = 0, 1
        while power % d:
            k, power = k + 1, power * self.base
        return k

    def exponent(self, d: int) -> int:
        """Some ``k`` with ``d | B^k`` found by removing ``B``'s factors, else ``_NOT``."""
        if d.bit_length() > _MAX_BITS:
            return _NOT
        k = 0
        for p in self.factors:
            d, m = bk.remove(d, p)
            k = max(k, int(m))
        return k if d == 1 else _NOT

    def powers(self, top: int) -> ObjArray:
        """``B^0, ..., B^top`` as an object array of ints."""
        pw = self._powers
        while len(pw) <= top:
            pw.append(pw[-1] * self.base)
        out = np.empty(top + 1, dtype=object)
        out[:] = pw[: top + 1]
        return out

    def _convert(self, states: IntArray) -> None:
        """Record the B-adic form of already solved states (or mark them not B-adic)."""
        values, num, exp, base = self.values, self.num, self.exp, self.base
        solved: list[int] = states.tolist()
        for j in solved:
            v = values[j]
            d = v.denominator
            k = self.exponent(d)
            exp[j] = k
            if k >= 0:
                num[j] = int(v.numerator) * (base**k // int(d))

    def action_numerators(self, ks: IntArray) -> tuple[int, ObjArray] | None:
        """``(E, N)`` with ``Q(k) = N[r] / B^E`` for the actions ``ks[r]``, exactly.

        ``None`` when a successor of one of them has no B-adic value (the caller then
        values them the general way). Every successor must be solved.
        """
        g = self.g
        o_start = g.out_ptr[ks]
        deg = (g.out_ptr[ks + 1] - o_start).astype(np.int64)
        n_out = int(deg.sum())
        outs = np.repeat(o_start - np.cumsum(deg) + deg, deg) + np.arange(n_out)
        tgt = g.out_target[outs]
        e_t = self.exp[tgt]
        if (e_t == _UNKNOWN).any():
            self._convert(np.unique(tgt[e_t == _UNKNOWN]))
            e_t = self.exp[tgt]
        if (e_t == _NOT).any():
            return None
        code = g.out_code[outs]
        f_o = self.f_tab[code] + e_t
        c_code = g.act_code[ks]
        f_c = self.f_tab[c_code]
        top = int(max(f_o.max(initial=0), f_c.max(initial=0)))
        pw = self.powers(top)
        total = np.zeros(len(ks), dtype=object)
        const = np.flatnonzero(c_code)  # (code 0 is the rational 0)
        if len(const):
            total[const] = self.a_tab[c_code[const]] * pw[top - f_c[const]]
        if n_out:
            terms = self.num[tgt]
            if not self.a_one[code].all():
                terms = terms * self.a_tab[code]
            shift = top - f_o
            moved = np.flatnonzero(shift)
            if len(moved):
                terms[moved] = terms[moved] * pw[shift[moved]]
            has = deg > 0
            first = (np.cumsum(deg) - deg)[has]
            total[has] = total[has] + np.add.reduceat(terms, first)
        return top, total

    def record(self, states: IntArray, numerators: ObjArray, top: int
               ) -> tuple[list[Rational], list[float]]:
        """Store ``v(i) = numerators[r] / B^top`` for ``states[r]``.

        Returns their backend values and their correctly rounded floats (Python's
        ``int / int`` is correctly rounded).
        """
        self.num[states] = numerators
        self.exp[states] = top
        den = self._powers[top]
        nums = numerators.tolist()
        den_q = bk.Q(den).numerator  # the backend's own integer type: converted once
        return list(map(bk.Q, nums, repeat(den_q))), list(map(truediv, nums, repeat(den)))
