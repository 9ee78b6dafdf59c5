"""Real algebraic numbers and exact real-root isolation: where a parametric strategy changes.

A breakpoint of a parametric game is a real root of a polynomial with rational
coefficients (the numerator of an advantage function). It is kept exactly as a
:class:`RealAlgebraic`: its *minimal polynomial* ``m`` (irreducible over Q, integer,
primitive, positive leading coefficient) and an *isolating interval* ``[lo, hi]`` with
rational ends holding exactly one root of ``m``. A rational root is the degree-1 case,
with ``lo == hi`` the root itself.

Algorithms
----------
* Roots of a polynomial ``f``: factor ``f`` over Z into irreducibles (FLINT's
  Zassenhaus/van Hoeij factoring, ``fmpz_poly.factor``); a factor of degree 1 gives a
  rational root; for a factor of degree >= 2, FLINT's certified complex root isolation
  (``fmpz_poly.complex_roots``, Arb ball arithmetic: each root in its own ball, real roots
  returned with imaginary part exactly 0) gives a ball ``[mid - rad, mid + rad]`` with
  dyadic ends holding exactly one real root. An irreducible polynomial of degree >= 2 has
  no rational root, so the ends are not roots and the root is simple: ``m(lo) m(hi) < 0``,
  which :class:`RealAlgebraic` checks on construction.
* Refinement: bisection at the (dyadic) midpoint with the exact sign of ``m`` there.
* Comparison: two numbers with the same minimal polynomial are equal iff ``m`` changes sign
  on the intersection of their intervals (each interval holds one root of ``m``); otherwise
  (or with different minimal polynomials: then they differ) the intervals are refined until
  disjoint.
* No root in an interval: Descartes' rule of signs after the Moebius map
  ``x = (a + b t) / (1 + t)``, which sends ``t`` in ``(0, oo)`` onto ``x`` in ``(a, b)``:
  the polynomial ``(1 + t)^D f((a + b t) / (1 + t))`` has at most as many positive roots
  as sign changes in its coefficients, so no sign change proves that ``f`` has no root in
  the open ``(a, b)`` (:func:`descartes_bound`). Most advantage numerators have no root
  near the region they constrain, and this costs two polynomial compositions where
  factoring and complex root isolation cost far more, so the solver tries it first.
* Sign of a polynomial ``g`` at ``alpha``: 0 iff ``m`` divides ``g``; otherwise the
  interval is refined until ``g`` has no root in it (Arb evaluation of ``g`` on a ball
  holding the interval excludes 0), and the sign is read at an end.

Measured (``benchmarks/bench_parametric.py``, part 3: the advantage numerators of Risk
or Safety to 3-5, degrees up to 18): FLINT's factoring and isolation are only 1.3 to 1.9
times faster than sympy's ``factor_list`` and ``Poly.intervals`` here, and both find the
same roots. FLINT is used for the solver and sympy for the independent certificate check
(:mod:`tbsg.parametric.certificate`), so the two never share a root-finding routine (the
certificate's exclusion by Descartes' rule is its own, written in integers).

References: Collins and Akritas 1976 (root isolation); Cohen, *A Course in Computational
Algebraic Number Theory*, 1993, sections 3.5-3.6 (factoring); Johansson, "Arb: efficient
arbitrary-precision midpoint-radius interval arithmetic", IEEE Trans. Comput. 2017.

Examples
--------
>>> from fractions import Fraction
>>> from flint import fmpz_poly
>>> (r,) = real_roots(fmpz_poly([-2, 0, 1]), Fraction(0), Fraction(2))   # sqrt(2)
>>> r.minimal_polynomial, r.decimal(20)
((-2, 0, 1), '1.41421356237309504880')
>>> r > Fraction(7, 5), r < Fraction(3, 2)
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import total_ordering
from typing import Any

from flint import arb, ctx, fmpq, fmpq_poly, fmpz_poly

from tbsg.errors import InvalidArgumentError

__all__ = ["RealAlgebraic", "descartes_bound", "irreducible_factors", "rational_between", "real_roots",
           "real_roots_mult", "sign_at", "sign_on", "vanishes_at"]


def _fq(x: Fraction) -> fmpq:
    return fmpq(x.numerator, x.denominator)


def _sign(poly: fmpz_poly, x: Fraction) -> int:
    v = poly(_fq(x))
    return (v > 0) - (v < 0)


def _fraction_of_arf(x: object) -> Fraction:
    man, exp = x.man_exp()  # type: ignore[attr-defined]
    man, exp = int(man), int(exp)
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2 ** (-exp))


@total_ordering
@dataclass(frozen=True, eq=False)
class RealAlgebraic:
    """A real algebraic number: minimal polynomial and isolating interval (see module docstring).

    Attributes
    ----------
    minimal_polynomial : tuple of int
        Coefficients of ``m``, constant term first; primitive, positive leading coefficient.
    lo, hi : Fraction
        An isolating interval: ``m`` has exactly one root in ``[lo, hi]`` (``lo == hi`` for
        a rational number). Refining returns a new, narrower interval of the same number.
    tight : (Fraction, Fraction)
        A cache, not part of the number (``==`` ignores it): a narrower isolating interval
        inside ``[lo, hi]`` (for a root found by :func:`real_roots`, FLINT's ball), narrowed
        further in place by the comparisons that need it.
    """

    minimal_polynomial: tuple[int, ...]
    lo: Fraction
    hi: Fraction
    # a cache, not part of the number: a narrower isolating interval, narrowed further by
    # every comparison that needs it (so a number is refined once, not at each comparison)
    tight: tuple[Fraction, Fraction] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        m = fmpz_poly(list(self.minimal_polynomial))
        object.__setattr__(self, "_m", m)
        t = self.tight
        object.__setattr__(self, "tight", (self.lo, self.hi))
        if t is not None and self.lo <= t[0] < t[1] <= self.hi and _sign(m, t[0]) * _sign(m, t[1]) < 0:
            object.__setattr__(self, "tight", t)
        if m.degree() < 1:
            raise InvalidArgumentError(f"a minimal polynomial has degree >= 1, got {m}")
        if m.degree() == 1:
            root = Fraction(-self.minimal_polynomial[0], self.minimal_polynomial[1])
            if not self.lo == self.hi == root:
                raise InvalidArgumentError(
                    f"a rational number's interval is [root, root], got [{self.lo}, {self.hi}] for {m}")
            return
        if not (self.lo < self.hi and _sign(m, self.lo) * _sign(m, self.hi) < 0):
            raise InvalidArgumentError(
                f"[{self.lo}, {self.hi}] is not an isolating interval of a root of {m}: "
                "the polynomial does not change sign on it")

    @classmethod
    def rational(cls, x: Fraction | int) -> RealAlgebraic:
        """A rational number as a degree-1 algebraic number."""
        x = Fraction(x)
        return cls((-x.numerator, x.denominator), x, x)

    @property
    def poly(self) -> fmpz_poly:
        """The minimal polynomial as a FLINT polynomial."""
        m: fmpz_poly = self._m  # type: ignore[attr-defined]
        return m

    def _narrow(self, steps: int = 1) -> tuple[Fraction, Fraction]:
        """Halve the cached tight interval ``steps`` times (exact signs); return it."""
        lo, hi = self.tight  # type: ignore[misc]
        if self.is_rational():
            return lo, hi
        m = self.poly
        s_lo = _sign(m, lo)
        for _ in range(steps):
            mid = (lo + hi) / 2
            if _sign(m, mid) == s_lo:
                lo = mid
            else:
                hi = mid
        object.__setattr__(self, "tight", (lo, hi))
        return lo, hi

    @property
    def degree(self) -> int:
        """Degree of the minimal polynomial (1: a rational number)."""
        return len(self.minimal_polynomial) - 1

    def is_rational(self) -> bool:
        """Whether this number is rational."""
        return self.degree == 1

    def as_fraction(self) -> Fraction:
        """The number itself, if rational."""
        if not self.is_rational():
            raise ValueError(f"{self} is irrational")
        return self.lo

    def refined(self, width: Fraction) -> RealAlgebraic:
        """The same number with an isolating interval no wider than ``width`` (> 0)."""
        if self.hi - self.lo <= width:
            return self
        lo, hi = self.tight  # type: ignore[misc]
        m = self.poly
        s_lo = _sign(m, lo)
        while hi - lo > width:
            mid = (lo + hi) / 2
            s = _sign(m, mid)
            if s == 0:  # pragma: no cover - an irreducible m of degree >= 2 has no rational root
                return RealAlgebraic.rational(mid)
            if s == s_lo:
                lo = mid
            else:
                hi = mid
        return RealAlgebraic(self.minimal_polynomial, lo, hi, (lo, hi))

    def bisected(self) -> RealAlgebraic:
        """The same number with its isolating interval halved."""
        if self.is_rational():
            return self
        return self.refined((self.hi - self.lo) / 2)

    def __float__(self) -> float:
        return float(self.refined(Fraction(1, 2**60)).lo)

    def decimal(self, digits: int = 15) -> str:
        """The number to ``digits`` decimal places, every digit correct: rounded toward
        minus infinity (the interval is refined until its two ends agree to ``digits``
        places, which ends because an irrational number is no decimal fraction)."""
        if not isinstance(digits, int) or isinstance(digits, bool) or digits < 0:
            raise InvalidArgumentError(f"digits must be an int >= 0, got {digits!r}")
        scale = 10**digits
        x = self
        while (x.lo * scale).__floor__() != (x.hi * scale).__floor__():
            x = x.refined((x.hi - x.lo) / 16)
        n = (x.lo * scale).__floor__()
        sign, text = ("-" if n < 0 else ""), str(abs(n))
        if digits == 0:
            return sign + text
        text = text.rjust(digits + 1, "0")
        return f"{sign}{text[:-digits]}.{text[-digits:]}"

    # -- comparisons ----------------------------------------------------------------------
    def _cmp(self, other: RealAlgebraic) -> int:
        a, b = self, other
        (alo, ahi), (blo, bhi) = a.tight, b.tight  # type: ignore[misc]
        if ahi < blo:
            return -1
        if bhi < alo:
            return 1
        if a.minimal_polynomial == b.minimal_polynomial:
            if a.is_rational():
                return (a.lo > b.lo) - (a.lo < b.lo)
            lo, hi = max(alo, blo), min(ahi, bhi)
            m = a.poly
            if _sign(m, lo) * _sign(m, hi) <= 0:
                return 0
        while True:  # different numbers: refinement separates them
            if ahi < blo:
                return -1
            if bhi < alo:
                return 1
            if (ahi - alo >= bhi - blo and not a.is_rational()) or b.is_rational():
                alo, ahi = a._narrow(4)
            else:
                blo, bhi = b._narrow(4)

    def __eq__(self, other: object) -> bool:
        o = _as_alg(other)
        if o is None:
            return NotImplemented
        return self._cmp(o) == 0

    def __lt__(self, other: object) -> bool:
        o = _as_alg(other)
        if o is None:
            return NotImplemented
        return self._cmp(o) < 0

    def __hash__(self) -> int:
        if self.is_rational():
            return hash(self.lo)
        return hash(self.minimal_polynomial)

    def __str__(self) -> str:
        if self.is_rational():
            return str(self.lo)
        return f"root of {_poly_str(self.minimal_polynomial)} in [{self.lo}, {self.hi}] ≈ {self.decimal(12)}"

    def __repr__(self) -> str:
        if self.is_rational():
            return f"RealAlgebraic.rational(Fraction({self.lo.numerator}, {self.lo.denominator}))"
        return f"RealAlgebraic({self.minimal_polynomial!r}, {self.lo!r}, {self.hi!r})"


def _poly_str(coeffs: tuple[int, ...]) -> str:
    terms: list[str] = []
    for k in range(len(coeffs) - 1, -1, -1):
        c = coeffs[k]
        if c == 0:
            continue
        mono = "" if k == 0 else ("p" if k == 1 else f"p^{k}")
        a = abs(c)
        body = str(a) if not mono else (mono if a == 1 else f"{a}*{mono}")
        terms.append(("- " if c < 0 else "+ ") + body)
    text = " ".join(terms)
    return text[2:] if text.startswith("+ ") else "-" + text[2:]


def _as_alg(x: object) -> RealAlgebraic | None:
    if isinstance(x, RealAlgebraic):
        return x
    if isinstance(x, (int, Fraction)) and not isinstance(x, bool):
        return RealAlgebraic.rational(x)
    return None


def _normalised(poly: fmpz_poly) -> tuple[int, ...]:
    z = poly
    c = z.content()
    if c != 1:
        z = fmpz_poly(z / c)
    coeffs = [int(x) for x in z.coeffs()]
    if coeffs[-1] < 0:
        coeffs = [-x for x in coeffs]
    return tuple(coeffs)


def irreducible_factors(poly: fmpz_poly) -> list[tuple[fmpz_poly, int]]:
    """The irreducible factors of degree >= 1 of a nonzero polynomial, with multiplicities."""
    _, factors = poly.factor()
    return [(fmpz_poly(list(_normalised(f))), int(e)) for f, e in factors if f.degree() >= 1]


def roots_of_irreducible(m: fmpz_poly) -> list[RealAlgebraic]:
    """All real roots of an irreducible (primitive) polynomial, in increasing order.

    Memoised (the same factors recur, e.g. in every region of a parametric solve).
    """
    coeffs = _normalised(m)
    known = _ROOTS.get(coeffs)
    if known is None:
        if len(_ROOTS) > 4096:
            _ROOTS.clear()
        known = _ROOTS[coeffs] = _isolate(coeffs)
    return list(known)


_ROOTS: dict[tuple[int, ...], list[RealAlgebraic]] = {}


def _isolate(coeffs: tuple[int, ...]) -> list[RealAlgebraic]:
    if len(coeffs) == 2:
        return [RealAlgebraic.rational(Fraction(-coeffs[0], coeffs[1]))]
    poly = fmpz_poly(list(coeffs))
    balls: list[tuple[Fraction, Fraction]] = []
    roots: list[tuple[Any, int]] = poly.complex_roots()  # type: ignore[assignment]
    for c, _mult in roots:
        if c.imag != 0:
            continue
        mid, rad = _fraction_of_arf(c.real.mid()), _fraction_of_arf(c.real.rad())
        balls.append((mid - rad, mid + rad))
    balls.sort()
    # widen each ball to an interval with simple rational ends that still excludes the
    # neighbouring roots' balls (readable output; the constructor re-checks the sign change)
    out: list[RealAlgebraic] = []
    for i, (a, b) in enumerate(balls):
        lo = _simplest_between(balls[i - 1][1], a) if i else Fraction(a.__floor__() - 1)
        hi = _simplest_between(b, balls[i + 1][0]) if i + 1 < len(balls) else Fraction(b.__ceil__() + 1)
        out.append(RealAlgebraic(coeffs, lo, hi, (a, b)))
    return out


def descartes_bound(poly: fmpz_poly, a: Fraction, b: Fraction) -> int:
    """A bound on the number of roots of ``poly`` (not zero) in the open ``(a, b)``, ``a < b``.

    The sign changes of ``(1 + t)^D poly((a + b t) / (1 + t))`` (Descartes' rule of signs on
    the Moebius image of ``(a, b)``): 0 proves there is no root inside; the bound has the
    parity of the number of roots counted with multiplicity.

    >>> descartes_bound(fmpz_poly([-2, 0, 1]), Fraction(1), Fraction(2))       # sqrt(2)
    1
    >>> descartes_bound(fmpz_poly([-2, 0, 1]), Fraction(3, 2), Fraction(2))
    0
    """
    return _sign_changes(_moebius(poly, a, b))


def sign_on(poly: fmpz_poly, a: Fraction, b: Fraction) -> int:
    """The sign (1 or -1) of ``poly`` (not zero) throughout ``(a, b)`` where Descartes' rule
    proves that it has no root there, else 0 (it may have one).

    The rule is applied to ``(a, b)`` rounded outward to dyadic ends a few bits finer than
    its width: the polynomial then has small coefficients whatever the ends' sizes (the
    cached isolating intervals of breakpoints have long dyadic ends), and no root in the
    wider interval is no root in ``(a, b)``. The transform's coefficients all have the sign
    of ``poly`` on the interval when none changes.

    >>> sign_on(fmpz_poly([-2, 0, 1]), Fraction(3, 2), Fraction(2))     # p^2 - 2 > 0 there
    1
    >>> sign_on(fmpz_poly([2, -3]), Fraction(0), Fraction(1, 2))          # 2 - 3p > 0 there
    1
    >>> sign_on(fmpz_poly([-2, 0, 1]), Fraction(1), Fraction(2))
    0
    """
    k = max(0, (b - a).denominator.bit_length() - (b - a).numerator.bit_length() + _EXTRA_BITS)
    a, b = Fraction((a * 2**k).__floor__(), 2**k), Fraction((b * 2**k).__ceil__(), 2**k)
    coeffs = [c for c in _moebius(poly, a, b) if c != 0]
    if all(c > 0 for c in coeffs):
        return 1
    if all(c < 0 for c in coeffs):
        return -1
    return 0


_EXTRA_BITS = 6
"""How much finer than the interval's width :func:`sign_on` rounds its ends (1/64 of it)."""


def _moebius(poly: fmpz_poly, a: Fraction, b: Fraction) -> list[Any]:
    """The coefficients of ``(1 + t)^D poly((a + b t) / (1 + t))``, up to a positive factor."""
    g = fmpq_poly(poly)(fmpq_poly([_fq(a), _fq(b - a)]))  # roots in (0, 1)
    coeffs = g.numer().coeffs()  # times the (positive) common denominator
    coeffs.reverse()  # t^D g(1/t): roots in (1, oo)
    h = fmpz_poly(coeffs)(_SHIFT)  # roots in (0, oo)
    return list(h.coeffs())


_SHIFT = fmpz_poly([1, 1])


def _sign_changes(coeffs: list[Any]) -> int:
    """The number of sign changes in a sequence of numbers, zeros skipped."""
    changes, last = 0, 0
    for c in coeffs:
        if c != 0:
            s = 1 if c > 0 else -1
            changes += last * s < 0
            last = s
    return changes


def real_roots(poly: fmpz_poly, lo: Fraction | RealAlgebraic | None = None,
               hi: Fraction | RealAlgebraic | None = None) -> list[RealAlgebraic]:
    """Distinct real roots of ``poly`` (not zero) strictly between ``lo`` and ``hi``, increasing."""
    return [r for r, _ in real_roots_mult(poly, lo, hi)]


def real_roots_mult(poly: fmpz_poly, lo: Fraction | RealAlgebraic | None = None,
                    hi: Fraction | RealAlgebraic | None = None) -> list[tuple[RealAlgebraic, int]]:
    """Distinct real roots of ``poly`` strictly inside ``(lo, hi)`` with their multiplicities."""
    if poly.is_zero():
        raise InvalidArgumentError("the zero polynomial has every number as a root")
    found: list[tuple[RealAlgebraic, int]] = []
    for f, e in irreducible_factors(poly):
        for r in roots_of_irreducible(f):
            if lo is not None and not r > lo:
                continue
            if hi is not None and not r < hi:
                continue
            found.append((r, e))
    found.sort(key=_SortKey)
    return found


class _SortKey:
    __slots__ = ("x",)

    def __init__(self, pair: tuple[RealAlgebraic, int]) -> None:
        self.x = pair[0]

    def __lt__(self, other: _SortKey) -> bool:
        return self.x < other.x


def vanishes_at(poly: fmpz_poly, alpha: RealAlgebraic) -> bool:
    """Whether ``poly`` is 0 at ``alpha``, exactly: its value at a rational, else whether the
    minimal polynomial divides it (no refinement of ``alpha``)."""
    if poly.is_zero():
        return True
    if alpha.is_rational():
        return _sign(poly, alpha.lo) == 0
    return bool((poly % alpha.poly).is_zero())


def sign_at(poly: fmpz_poly, alpha: RealAlgebraic) -> int:
    """The sign (-1, 0, 1) of ``poly`` at ``alpha``, exactly."""
    if vanishes_at(poly, alpha):
        return 0
    if alpha.is_rational():
        return _sign(poly, alpha.lo)
    x = alpha
    prec = 64
    while True:
        with _precision(prec):
            ball = arb(_fq(x.lo)).union(arb(_fq(x.hi)))
            value = _arb_eval(poly, ball)
            if value > 0:
                return 1
            if value < 0:
                return -1
        x = x.refined((x.hi - x.lo) / 1024)
        prec = min(prec * 2, 1 << 16)


def _arb_eval(poly: fmpz_poly, x: arb) -> arb:
    acc = arb(0)
    for c in reversed(poly.coeffs()):
        acc = acc * x + arb(c)
    return acc


class _precision:
    def __init__(self, prec: int) -> None:
        self.prec = prec

    def __enter__(self) -> None:
        self.old = ctx.prec
        ctx.prec = self.prec

    def __exit__(self, *exc: object) -> None:
        ctx.prec = self.old


def rational_between(a: RealAlgebraic, b: RealAlgebraic) -> Fraction:
    """The simplest rational (smallest denominator) strictly between ``a < b``."""
    if not a < b:
        raise InvalidArgumentError(f"rational_between needs a < b, got {a} and {b}")
    # a < b: their tight intervals are disjoint now (the comparison separated them)
    lo, hi = a.tight[1], b.tight[0]  # type: ignore[index]
    # both ends excluded: the simplest rational in the open interval (lo, hi)
    return _simplest_between(lo, hi)


def _simplest_between(lo: Fraction, hi: Fraction) -> Fraction:
    """The rational with the smallest denominator in the open interval ``(lo, hi)`` (Stern-Brocot)."""
    fl = lo.__floor__()
    if fl + 1 < hi:
        return Fraction(fl + 1)
    frac_lo, frac_hi = lo - fl, hi - fl  # in [0, 1]
    # continued fraction descent: 1 / x maps (frac_lo, frac_hi) to (1/frac_hi, 1/frac_lo)
    if frac_lo == 0:
        # (0, frac_hi): the simplest is 1/n with n the least integer > 1/frac_hi
        n = (1 / frac_hi).__floor__() + 1
        return fl + Fraction(1, n)
    inner = _simplest_between(1 / frac_hi, 1 / frac_lo)
    return fl + 1 / inner
