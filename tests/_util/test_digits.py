"""Exact rationals as text (:mod:`tbsg._util.digits`).

Oracle for :func:`exact_decimal`: its definition, the quotient of the numerator and the
denominator as ``decimal`` divides them in a context of ``digits`` digits and the given
rounding (the standard's correctly rounded division), computed here on the full integers.
"""

from __future__ import annotations

import math
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction
from typing import Literal

from hypothesis import given, settings
from hypothesis import strategies as st

from tbsg._util.digits import between_writer, exact_decimal

MODES = {"nearest": ROUND_HALF_EVEN, "down": ROUND_FLOOR, "up": ROUND_CEILING}


def divided(x: Fraction, digits: int, rounding: Literal["nearest", "down", "up"]) -> str:
    with localcontext() as ctx:
        ctx.prec, ctx.rounding = digits, MODES[rounding]
        ctx.Emin, ctx.Emax = -(10**9), 10**9
        return str(Decimal(x.numerator) / Decimal(x.denominator)).replace("E", "e")


def fractions() -> st.SearchStrategy[Fraction]:
    """Any size, with many exact decimals (denominators 2^a 5^b), halfway cases (a last
    digit 5 past the precision) and values next to powers of ten."""
    big = st.integers(-(10**80), 10**80)
    terminating = st.builds(lambda n, a, b: Fraction(n, 2**a * 5**b), big, st.integers(0, 60),
                            st.integers(0, 60))
    halfway = st.builds(lambda n, e: Fraction(10 * n + 5, 10**e), st.integers(-(10**15), 10**15),
                        st.integers(0, 30))
    near_power = st.builds(lambda e, d, s: Fraction(10**e + s * d, 10**40 if e < 40 else 1),
                           st.integers(0, 80), st.integers(0, 3), st.sampled_from([-1, 1]))
    general = st.builds(Fraction, big, st.integers(1, 10**80))
    return st.one_of(general, terminating, halfway, near_power,
                     st.fractions(max_denominator=10**6))


@settings(max_examples=600, deadline=None)
@given(fractions(), st.integers(1, 25), st.sampled_from(["nearest", "down", "up"]))
def test_exact_decimal_is_the_correctly_rounded_quotient(
        x: Fraction, digits: int, rounding: Literal["nearest", "down", "up"]) -> None:
    """The same text as the context's division of the full integers: same digits, same
    exponent, trailing zeros where the quotient is exact."""
    assert exact_decimal(x, digits, rounding) == divided(x, digits, rounding)


def test_exact_decimal_of_a_long_value_by_hand() -> None:
    """2/3 to 5 digits is 0.66667 (nearest), 0.66666 (down), 0.66667 (up); 1/8 = 0.125 is
    exact and written without padding; -(10^40 + 1)/10^40 rounds down away from zero."""
    assert [exact_decimal(Fraction(2, 3), 5, r) for r in ("nearest", "down", "up")] == \
        ["0.66667", "0.66666", "0.66667"]
    assert exact_decimal(Fraction(1, 8), 10) == "0.125"
    assert exact_decimal(Fraction(-(10**40) - 1, 10**40), 3, "down") == "-1.01"
    assert exact_decimal(Fraction(3**2000, 7**1200), 4) == divided(Fraction(3**2000, 7**1200), 4, "nearest")


@settings(max_examples=400, deadline=None)
@given(fractions(), st.integers(1, 25), st.sampled_from(["nearest", "down", "up"]),
       st.integers(0, 2**130), st.integers(1, 2**20), st.integers(1, 2**20))
def test_between_writer_gives_the_text_of_every_number_in_the_interval(
        x: Fraction, digits: int, rounding: Literal["nearest", "down", "up"], scale: int,
        below: int, above: int) -> None:
    """Bounds ``lo < x q < hi`` around a positive ``x`` (``q`` any scale): the text given
    for the interval, if any, is ``x``'s own (the oracle above), also where ``x`` is a
    short exact decimal (whose text has fewer digits) or a halfway case."""
    x = abs(x)
    if x == 0:
        return
    q = scale + 1
    lo, hi = math.floor(x * q) - below, math.ceil(x * q) + above
    text = between_writer(digits, rounding)(lo, hi, q)
    assert text is None or text == divided(x, digits, rounding)


def test_between_writer_decides_narrow_intervals_and_refuses_wide_ones() -> None:
    """2/3 within 10^-30: the text of 2/3 at 10 digits; 1/2 within 10^-30 at 10 digits:
    ``None`` (0.5 is exact, its text ``0.5``; the neighbours' is ``0.5000000000``); an
    interval wider than a unit of the last digit: ``None``."""
    q = 10**30
    between = between_writer(10)
    assert between(2 * q // 3, 2 * q // 3 + 1, q) == "0.6666666667" == exact_decimal(Fraction(2, 3), 10)
    assert between(q // 2 - 1, q // 2 + 1, q) is None
    assert between(q // 3, q // 3 + q // 10**8, q) is None
    assert between(0, 1, q) is None  # lo = 0: numbers of any size below 1/q
