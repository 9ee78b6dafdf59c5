"""The one place where the exact-arithmetic backend is chosen.

Exact solvers compute with a rational type ``Q``: ``gmpy2.mpq`` when gmpy2 is installed
(GMP rationals, several times faster than :class:`fractions.Fraction` on the
thousand-digit numbers large games produce), else :class:`fractions.Fraction`. Set the
environment variable ``TBSG_BACKEND=fraction`` to force the pure-Python backend.
Values leave the library only as :class:`fractions.Fraction` (see :func:`to_fraction`),
so the backend never leaks into user code.

Both types are typed as :class:`Rational`, the protocol of what the solvers do with an
exact number: the field operations of :class:`tbsg.engine.linalg.Field`, mixed with
``int`` too, the order, and ``numerator`` / ``denominator``. ``mpq``'s numerator is a
GMP integer (``mpz``), typed as ``int``: the solvers use only the integer operations the
two share (arithmetic, ``//``, ``%``, ``bit_length``, ``int()``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from fractions import Fraction
from typing import Protocol, Self

from tbsg.engine.linalg import Field

__all__ = ["BACKEND", "INTEGER", "ONE", "ZERO", "Q", "Rational", "coprime", "fraction_from_text",
           "from_fraction", "gcd", "is_canonical", "lcm", "lowest_terms", "remove", "to_float",
           "to_fraction"]


class Rational(Field, Protocol):
    """An exact rational of the backend (``Fraction`` or ``gmpy2.mpq``): an ordered field.

    Arithmetic with another rational of the same backend or an ``int`` gives a rational
    of the backend; values leave the library through :func:`to_fraction`.
    """

    def __add__(self, other: Self | int, /) -> Self: ...

    def __radd__(self, other: int, /) -> Self: ...

    def __sub__(self, other: Self | int, /) -> Self: ...

    def __mul__(self, other: Self | int, /) -> Self: ...

    def __rmul__(self, other: int, /) -> Self: ...

    def __truediv__(self, other: Self | int, /) -> Self: ...

    def __neg__(self) -> Self: ...

    def __lt__(self, other: Self | int, /) -> bool: ...

    def __le__(self, other: Self | int, /) -> bool: ...

    def __gt__(self, other: Self | int, /) -> bool: ...

    def __ge__(self, other: Self | int, /) -> bool: ...

    def __eq__(self, other: object, /) -> bool: ...

    def __hash__(self) -> int: ...

    def __float__(self) -> float: ...

    @property
    def numerator(self) -> int: ...

    @property
    def denominator(self) -> int: ...


_choice = os.environ.get("TBSG_BACKEND", "auto").lower()
_mpq: Callable[..., Rational] | None = None
if _choice in ("auto", "gmpy2"):
    try:
        from gmpy2 import mpq as _gmpy_mpq

        _mpq = _gmpy_mpq
    except ImportError:  # pragma: no cover - depends on the environment
        if _choice == "gmpy2":
            raise

_MPQ_TYPE: type | None = type(_mpq(0)) if _mpq is not None else None

if _mpq is not None:
    BACKEND = "gmpy2"
    Q: Callable[..., Rational] = _mpq
    _make = _mpq

    def from_fraction(x: Fraction) -> Rational:
        """Convert an exact ``Fraction`` to the backend type."""
        return _make(x.numerator, x.denominator)

else:
    BACKEND = "fraction"
    Q = Fraction

    def from_fraction(x: Fraction) -> Rational:
        """Convert an exact ``Fraction`` to the backend type."""
        return x


def lcm(ints: list[int]) -> int:
    """Least common multiple of positive integers (``int`` or the backend's integers)."""
    if _mpq is not None:
        from gmpy2 import lcm as _lcm

        out = ints[0]
        for x in ints[1:]:
            out = _lcm(out, x)
        return out
    return math.lcm(*ints)


def remove(x: int, p: int) -> tuple[int, int]:
    """``(y, m)`` with ``x = y * p**m`` and ``p`` not dividing ``y`` (``x >= 1``, ``p >= 2``)."""
    if _mpq is not None:
        from gmpy2 import remove as _remove

        y, m = _remove(x, p)
        return y, int(m)
    return _remove_int(x, p)


def _remove_int(x: int, p: int) -> tuple[int, int]:
    """:func:`remove` in Python integers: divide by ``p**(2**i)``, largest ``i`` first.

    With ``p**(2**(K+1))`` not dividing ``x`` the multiplicity is below ``2**(K+1)``, so
    one pass over ``i = K, ..., 0`` removes it (its binary digits).
    """
    x = int(x)
    powers = [p]
    while powers[-1].bit_length() * 2 - 1 <= x.bit_length() and x % (powers[-1] * powers[-1]) == 0:
        powers.append(powers[-1] * powers[-1])
    m = 0
    for i in range(len(powers) - 1, -1, -1):
        if x % powers[i] == 0:
            x //= powers[i]
            m += 1 << i
    return x, m


if _mpq is not None:
    from gmpy2 import gcd as _gmp_gcd
    from gmpy2 import mpz as _gmp_mpz

    gcd: Callable[[int, int], int] = _gmp_gcd
    INTEGER: Callable[[int | str], int] = _gmp_mpz
else:
    gcd = math.gcd
    INTEGER = int
"""The exact integer type of the backend (``gmpy2.mpz``, else ``int``): a type, so that
``INTEGER(x)`` converts a Python integer or parses a decimal text (GMP in close to linear
time in its digits), and ``gcd`` is the backend's. GMP multiplies numbers of thousands of digits
many times faster than Python's Karatsuba; products of such numbers (the certificate's
cross-multiplications, :mod:`tbsg.engine.integer_q`) are computed in it, and only their
signs leave."""

ZERO: Rational = Q(0)
ONE: Rational = Q(1)



def _coprime_fraction(numerator: int, denominator: int) -> Fraction:
    """A Fraction from an already reduced pair, skipping the gcd (exact either way)."""
    f = object.__new__(Fraction)
    try:
        f._numerator = numerator  # type: ignore[attr-defined]
        f._denominator = denominator  # type: ignore[attr-defined]
    except AttributeError:  # pragma: no cover - a future Fraction without slots
        return Fraction(numerator, denominator)
    return f


def to_fraction(x: Rational) -> Fraction:
    """Convert a backend rational (always in lowest terms) to ``fractions.Fraction``."""
    if isinstance(x, Fraction):
        return x
    return _coprime_fraction(int(x.numerator), int(x.denominator))


def coprime(numerator: int, denominator: int) -> Rational:
    """The backend rational ``numerator / denominator`` of a pair known to be in lowest
    terms (``denominator >= 1``), built without a gcd.

    ``gmpy2.mpq`` made from a ``Fraction`` copies its numerator and denominator as they
    are (a ``Fraction`` is in lowest terms by construction), so the pair goes through a
    ``Fraction`` made without its gcd.
    """
    f = _coprime_fraction(int(numerator), int(denominator))
    return f if _mpq is None else _mpq(f)


def lowest_terms(nums: list[int], small: list[int], big: int) -> list[Rational]:
    """The rationals ``nums[u] / (small[u] * big)`` in lowest terms, with one big gcd in all.

    ``small[u] >= 1`` are small integers, ``big >= 1`` a big one shared by every entry.
    With ``g1 = gcd(n, s)``, ``gcd(n, s b) = g1 * gcd(n / g1, b)``; the second factor
    divides ``G = gcd(prod_u (n_u / g1_u) mod b, b)`` and equals ``gcd(n / g1, G)``
    (a common divisor of ``n / g1`` and ``b`` divides the product, and a divisor of ``G``
    divides ``b``). So one gcd with ``b`` (of the product reduced mod ``b``, one modular
    multiplication per entry, several times cheaper than a gcd of the same size) and
    gcds with the small ``s`` and ``G`` (usually small) give every value's lowest terms;
    the pairs are then stored without a further gcd (:func:`coprime`).
    """
    gcd_ = gcd  # (a local: read once per call, not per value)
    reduced: list[tuple[int, int]] = []
    prod = 1
    for n, s in zip(nums, small, strict=True):
        g = gcd_(n, s)
        if g != 1:
            n, s = n // g, s // g
        reduced.append((n, s))
        if n and big != 1:
            prod = prod * (n % big) % big
    top = gcd_(prod, big) if big != 1 else 1
    quotient = {1: big}
    out: list[Rational] = []
    for n, s in reduced:
        if not n:
            out.append(ZERO)
            continue
        g = gcd_(n, top) if top != 1 else 1
        q = quotient.get(g)
        if q is None:
            q = quotient[g] = big // g
        out.append(coprime(n // g if g != 1 else n, s * q))
    return out


def is_canonical(x: object) -> bool:
    """True for a value of the fast backend's own type (GMP keeps the values it computes
    in lowest terms; one made from a Fraction built without normalisation keeps its parts
    as they are)."""
    return _mpq is not None and type(x) is _MPQ_TYPE


def to_float(x: Rational) -> float:
    """Nearest float (correctly rounded for both backends)."""
    return float(x)


def fraction_from_text(text: str) -> Fraction:
    """Parse ``"p/q"`` (or ``"p"``; the caller has checked the syntax) of any size.

    GMP parses big integers in subquadratic time; Python 3.11's ``int(str)`` is quadratic
    (a million digits take seconds), so the fast backend parses when it is installed.
    """
    if _mpq is not None:
        return to_fraction(_mpq(text))
    from tbsg._util.digits import fraction_from_text as parse

    return parse(text)
