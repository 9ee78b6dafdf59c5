"""Exact rationals as text, whatever their size.

Python refuses to convert integers of more than 4300 digits to or from text by default
(``sys.set_int_max_str_digits``, a guard against quadratic-time parsing of untrusted
input). Exact values of long games pass that easily (Pig to 100 has a denominator of about
20,000 digits), so the few places where tbsg writes or reads a value as text lift the
guard for that call only, and summaries count digits without building the string.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

__all__ = ["approx_digits", "fraction_from_text", "fraction_text", "short_fraction", "unlimited_digits"]


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


def short_fraction(x: Fraction, limit: int) -> str:
    """``str(x)`` when it has at most ``limit`` characters, else a digit count."""
    size = approx_digits(x.numerator) + approx_digits(x.denominator) + 1
    if size <= limit:
        return str(x)
    return f"<{approx_digits(x.denominator)}-digit denominator>"
