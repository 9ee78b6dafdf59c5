"""``tbsg.parametric.rational``: a sum of products reduced once equals the sum reduced term by term.

Oracle: the field operations of :class:`RationalFunction` (``+`` and ``*``, each result
in canonical form), compared with ``==``, which is equality of canonical forms: the same
function has one representation.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

pytest.importorskip("flint")

from hypothesis import given
from hypothesis import strategies as st

from tbsg.parametric.rational import RationalFunction, sum_of_products

P = RationalFunction.variable()
small = st.fractions(min_value=-3, max_value=3, max_denominator=5)


@st.composite
def functions(draw: st.DrawFn) -> RationalFunction:
    """``(a + b p + c p^2) / (d + e p)`` with ``d + e p`` not zero, or a few shared
    denominators (as the values of one component share theirs)."""
    num = draw(small) + draw(small) * P + draw(small) * P * P
    den = draw(st.sampled_from([1 - P, 2 - P * P, 1 + P * P, 1 + 0 * P, 3 - 2 * P]))
    return num / den


@given(functions(), st.lists(st.tuples(functions(), functions()), max_size=6))
def test_sum_of_products_is_the_term_by_term_sum(
        start: RationalFunction, terms: list[tuple[RationalFunction, RationalFunction]]) -> None:
    expected = start
    for a, b in terms:
        expected = expected + a * b
    got = sum_of_products(start, terms)
    assert got == expected
    assert (got.num, got.den) == (expected.num, expected.den)


def test_sum_of_products_by_hand() -> None:
    """1/(1 - p) + p * 1/(1 - p) * (-1) = (1 - p)/(1 - p) = 1; p * (1/p) = 1."""
    one = sum_of_products(1 / (1 - P), [(P, -1 / (1 - P))])
    assert one == RationalFunction.constant(Fraction(1)) and one.den == RationalFunction.constant(1).den
    assert sum_of_products(RationalFunction.constant(0), [(P, 1 / P)]) == 1
