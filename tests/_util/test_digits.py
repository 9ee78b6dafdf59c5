"""Exact rationals as text (:mod:`tbsg._util.digits`).

Oracle for :func:`exact_decimal`: its definition, the quotient of the numerator and the
denominator as ``decimal`` divides them in a context of ``digits`` digits and the given
rounding (the standard's correctly rounded division), computed here on the full integers.
"""

from __future__ import annotations

from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction
from typing import Literal

from hypothesis import given, settings
from hypothesis import strategies as st

from tbsg._util.digits import exact_decimal

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
