"""Exact rationals as text, whatever their size.

Python refuses to convert integers of more than 4300 digits to or from text by default
(``sys.set_int_max_str_digits``, a guard against quadratic-time parsing of untrusted
input). Exact values of long games pass that easily (Pig to 100 has a denominator of about
20,000 digits), so the few places where tbsg writes or reads a value as text lift the
guard for that call only, and summaries count digits without building the string.

One shortening style serves every place that shows a value to a reader (solution reprs,
notebook views of tables and pivots, the command line, ``tbsg reproduce``): a fraction
of at most ``limit`` characters is written in full, a longer one as a decimal and its
size, ``≈0.530593 (exact: 20412-digit denominator)`` (:func:`abbreviate`).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, Context, Decimal, localcontext
from fractions import Fraction
from typing import Literal

__all__ = ["REPR_CHARS", "abbreviate", "approx_digits", "between_writer", "decimal_text", "decimal_writer",
           "exact_decimal", "fraction_from_text", "fraction_text", "short_fraction", "shown_value",
           "text_size", "unlimited_digits"]

REPR_CHARS = 30
"""Longest fraction shown in full by ``repr`` and the notebook views."""


@contextmanager
def unlimited_digits() -> Iterator[None]:
    """Lift the int/str digit limit inside a ``with`` block (or as a decorator)."""
    get = getattr(sys, "get_int_max_str_digits", None)
    if get is None:  # Python without the guard
        yield
        return
    old = get()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


def fraction_text(x: Fraction) -> str:
    """``"p/q"`` (or ``"p"``) for any size of ``p`` and ``q``."""
    with unlimited_digits():
        return str(x)


def fraction_from_text(text: str) -> Fraction:
    """Parse ``"p/q"`` of any size (the caller validates the syntax)."""
    with unlimited_digits():
        return Fraction(text)


def approx_digits(n: int) -> int:
    """Number of decimal digits of ``|n|`` (exact, without converting to text)."""
    n = abs(n)
    if n == 0:
        return 1
    d = int(n.bit_length() * math.log10(2)) + 1
    return d if n >= 10 ** (d - 1) else d - 1


def text_size(x: Fraction) -> int:
    """Length of ``str(x)``, counted without building the string (any size)."""
    n = approx_digits(x.numerator) + (x.numerator < 0)
    return n if x.denominator == 1 else n + 1 + approx_digits(x.denominator)


def abbreviate(x: Fraction, limit: int = REPR_CHARS, digits: int = 6, *, exact: bool = False) -> str:
    """``str(x)`` when it has at most ``limit`` characters, else a decimal and its size.

    The decimal has ``digits`` significant digits (:func:`decimal_text`, or with ``exact``
    :func:`exact_decimal`, correctly rounded at any number of digits); the size is counted
    without building the text, so numbers beyond Python's 4300-digit int-to-str limit are
    abbreviated too.

    >>> abbreviate(Fraction(1, 3) + Fraction(1, 10**40))
    '≈0.333333 (exact: 41-digit denominator)'
    >>> abbreviate(Fraction(1, 3**9000), digits=3)
    '≈8.1e-4295 (exact: 4295-digit denominator)'
    >>> abbreviate(Fraction(7 * 10**5000))
    '≈7e+5000 (exact: 5001-digit integer)'
    >>> abbreviate(Fraction(1, 3) + Fraction(1, 10**40), digits=45, exact=True)
    '≈0.333333333333333333333333333333333333333433333 (exact: 41-digit denominator)'
    """
    if text_size(x) <= limit:
        return fraction_text(x)
    decimal = exact_decimal(x, digits) if exact else decimal_text(x, digits)
    if x.denominator == 1:
        return f"≈{decimal} (exact: {approx_digits(x.numerator)}-digit integer)"
    return f"≈{decimal} (exact: {approx_digits(x.denominator)}-digit denominator)"


def shown_value(x: Fraction, digits: int = 12, limit: int = REPR_CHARS, *, exact: bool = False) -> str:
    """An exact value for a reader: ``p/q ≈ decimal`` (an integer alone), or, past ``limit``
    characters, :func:`abbreviate`'s decimal and size: the one shortening style of tbsg.

    >>> shown_value(Fraction(6, 11)), shown_value(Fraction(1))
    ('6/11 ≈ 0.545454545455', '1')
    >>> shown_value(Fraction(1, 3) + Fraction(1, 10**40), digits=6)
    '≈0.333333 (exact: 41-digit denominator)'
    """
    if text_size(x) > limit:
        return abbreviate(x, limit, digits, exact=exact)
    if x.denominator == 1:
        return fraction_text(x)
    return f"{fraction_text(x)} ≈ {exact_decimal(x, digits) if exact else decimal_text(x, digits)}"


def short_fraction(x: Fraction, limit: int) -> str:
    """``str(x)`` up to ``limit`` characters, else :func:`abbreviate`'s form, 12 digits."""
    return abbreviate(x, limit, 12)


def decimal_text(x: Fraction, digits: int = 6) -> str:
    """``x`` to ``digits`` significant digits, as ``format(float(x), "g")`` writes it.

    Values outside the range of normal floats (an exact value of ``1/3**9000`` would
    round to 0.0, ``3**9000`` overflows) are scaled exactly instead, so the digits and
    the exponent are right at any size.

    >>> decimal_text(Fraction(2, 3)), decimal_text(Fraction(-1, 3 * 10**400), 3)
    ('0.666667', '-3.33e-401')
    """
    try:
        y = float(x)
    except OverflowError:
        y = math.inf
    if x == 0 or (math.isfinite(y) and abs(y) >= sys.float_info.min):
        return f"{y:.{digits}g}"
    e = approx_digits(x.numerator) - approx_digits(x.denominator)
    m = x / Fraction(10) ** e  # now 0.1 < |m| < 10
    if abs(m) < 1:
        m, e = m * 10, e - 1
    mant = f"{float(m):.{digits}g}"
    if abs(float(mant)) >= 10:  # rounded up to 10
        mant, e = f"{float(m) / 10:.{digits}g}", e + 1
    return f"{mant}e{e:+03d}"


_ROUNDING = {"nearest": ROUND_HALF_EVEN, "down": ROUND_FLOOR, "up": ROUND_CEILING}


def exact_decimal(x: Fraction | float, digits: int,
                  rounding: Literal["nearest", "down", "up"] = "nearest") -> str:
    """``x`` to ``digits`` significant digits, rounded from its exact value (any size).

    ``rounding="down"`` (``"up"``) never shows more (less) than ``x``: the way to print
    a proven lower (upper) bound. Floats are taken at their exact binary value.

    >>> exact_decimal(Fraction(2, 3), 20)
    '0.66666666666666666667'
    >>> exact_decimal(0.1, 5, "down"), exact_decimal(0.1, 5, "up")    # 0.1 is 0.1000000000000000055...
    ('0.10000', '0.10001')
    >>> exact_decimal(Fraction(1, 3 * 10**400), 3)
    '3.33e-401'
    """
    if isinstance(x, Fraction):
        return decimal_writer(digits, rounding)(x.numerator, x.denominator)
    with localcontext() as ctx:
        ctx.prec = digits
        ctx.rounding = _ROUNDING[rounding]
        ctx.Emin, ctx.Emax = -(10**9), 10**9
        return str(+Decimal(x)).replace("E", "e")  # a float's exact value, rounded


def decimal_writer(digits: int, rounding: Literal["nearest", "down", "up"] = "nearest"
                   ) -> Callable[[int, int], str]:
    """A function writing ``p / q`` (``q > 0``) as :func:`exact_decimal` writes the
    fraction, with one decimal context for all its calls (a column of values).

    ``p`` and ``q`` may be any integers with Python's integer operations (the arithmetic
    backend's, say): only a short quotient of them becomes a ``Decimal``.

    >>> write = decimal_writer(4)
    >>> write(2, 3), write(-1, 8), write(10**9, 7)
    ('0.6667', '-0.125', '1.429e+8')
    """
    text = _quotient_text(digits, rounding)

    def write(p: int, q: int) -> str:
        return text(*_short_quotient(p, q, digits))
    return write


def between_writer(digits: int, rounding: Literal["nearest", "down", "up"] = "nearest"
                   ) -> Callable[[int, int, int], str | None]:
    """A function giving, for integers ``0 < lo < hi`` and ``q > 0``, the text
    :func:`decimal_writer` writes for *every* number strictly between ``lo / q`` and
    ``hi / q``, where one text is that of them all (``None`` where it may not be): the
    digits of a number known only within bounds.

    With ``k`` and ``n = floor(lo 10^k / q)`` of :func:`_short_quotient` (``n`` of at least
    ``digits + 1`` digits), where also ``floor(hi 10^k / q) = n``, every ``x`` in the
    interval has ``n < x 10^k < n + 1``: ``x`` is inexact at this ``k``, its short quotient
    is ``(10 n + 1) 10^(-k-1)`` whatever its own numerator and denominator, and so is its
    text.

    >>> between = between_writer(4)
    >>> between(666666, 666667, 10**6), decimal_writer(4)(2, 3)    # 2/3 is in there
    ('0.6667', '0.6667')
    >>> between(4999, 5001, 10**4) is None                    # 0.5 itself is in there
    True
    """
    text = _quotient_text(digits, rounding)

    def write(lo: int, hi: int, q: int) -> str | None:
        if lo <= 0:
            return None
        k, n, _ = _scaled_quotient(lo, q, digits)
        if (hi * 10**k // q if k >= 0 else hi // (q * 10**-k)) != n:
            return None
        return text(*_ratio(10 * n + 1, k + 1))
    return write


def _quotient_text(digits: int, rounding: Literal["nearest", "down", "up"]) -> Callable[[int, int], str]:
    """The text of ``m / n`` (a short quotient, :func:`_short_quotient`) divided in one
    decimal context of ``digits`` digits and the given rounding."""
    ctx = Context(prec=digits, rounding=_ROUNDING[rounding], Emin=-(10**9), Emax=10**9)
    divide = ctx.divide

    def text(m: int, n: int) -> str:
        return str(divide(Decimal(int(m)), Decimal(int(n)))).replace("E", "e")
    return text


def _short_quotient(p: int, q: int, digits: int) -> tuple[int, int]:
    """Integers ``(m, 10**j)`` (or ``(m, 1)``) of a few more than ``digits`` digits whose
    quotient the decimal context divides exactly as it divides ``p / q`` (``q > 0``).

    Dividing the long integers of a large exact value costs as much as converting them
    to decimal; the short quotient costs one integer division. Let ``n = floor(|p| 10^k /
    q)`` with at least ``digits + 1`` digits. Where the division leaves no remainder,
    ``p/q = ±n 10^-k`` exactly, and ``±n / 10^k`` is the same value with the same ideal
    exponent (0), so the context gives the same digits. Otherwise ``p/q`` lies strictly
    between ``n 10^-k`` and ``(n+1) 10^-k``, an interval no rounding boundary of
    ``digits`` digits (nor a midpoint of two) enters, since those are multiples of
    ``10^-k`` at this size; ``±(10n + 1) 10^(-k-1)`` lies inside too and is inexact at
    ``digits`` digits, so every rounding mode gives the same digits for both.

    >>> _short_quotient(2, 3, 3), _short_quotient(1, 4, 3), _short_quotient(-3000, 7, 2)
    ((66661, 100000), (25000, 100000), (-42851, 100))
    >>> _short_quotient(10**30, 7, 2)
    (142810000000000000000000000000, 1)
    """
    a = abs(p)
    if not a:
        return 0, 1
    k, n, r = _scaled_quotient(a, q, digits)
    sign = -1 if p < 0 else 1
    if r:  # inexact: one more digit, 1, stands for the remainder
        n, k = 10 * n + 1, k + 1
    return _ratio(sign * n, k)


def _scaled_quotient(a: int, q: int, digits: int) -> tuple[int, int, int]:
    """``k`` and ``divmod(a 10^k, q)`` (``a, q > 0``) with a quotient of at least ``digits +
    1`` digits (``k`` from the sizes of ``a`` and ``q``, raised until it has them)."""
    k = digits + 1 - (a.bit_length() - q.bit_length()) * 30103 // 100000
    while True:
        n, r = divmod(a * 10**k, q) if k >= 0 else divmod(a, q * 10**-k)
        if n >= 10**digits:
            return k, n, r
        k += 1


def _ratio(m: int, k: int) -> tuple[int, int]:
    """``m 10^-k`` as integers ``(m, 10**k)``, or ``(m 10**-k, 1)`` for ``k < 0``."""
    return (m, 10**k) if k >= 0 else (m * 10**-k, 1)
