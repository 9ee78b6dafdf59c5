"""``tbsg.parametric.algebraic``: the solver's exclusion of roots by Descartes' rule of signs,
and the exact test of a root at a real algebraic number.

Oracles: sympy's real root isolation (``Poly.intervals``, Collins and Akritas' method, an
independent implementation), and hand derivations in the docstrings.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

sympy = pytest.importorskip("sympy")
pytest.importorskip("flint")

from flint import fmpz_poly  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tbsg.parametric.algebraic import (  # noqa: E402
    RealAlgebraic,
    descartes_bound,
    real_roots,
    sign_on,
    vanishes_at,
)

X = sympy.Symbol("x")


def roots_inside(coeffs: list[int], a: Fraction, b: Fraction) -> int:
    """The real roots of the polynomial strictly inside ``(a, b)``, with multiplicity (sympy's
    ``real_roots``: exact roots, each repeated by its multiplicity)."""
    lo, hi = (sympy.Rational(e.numerator, e.denominator) for e in (a, b))
    return sum(1 for r in sympy.real_roots(sympy.Poly(list(reversed(coeffs)), X)) if lo < r < hi)


def test_descartes_bound_on_hand_examples() -> None:
    """x^2 - 2 has the one root sqrt(2) in (1, 2) and none in (3/2, 2); (x - 1/2)^2 has a
    double root inside (0, 1): Descartes' bound 2 (the rule counts multiplicity); x^2 + 1
    has no real root, yet two sign changes on (-1, 1) (the rule is a bound, not a count:
    (1 + t)^2 ((t - 1)^2 / (1 + t)^2 + 1) = 2t^2 + 2, no change; on (-2, 1):
    (1 + t)^2 + (t - 2)^2 = 2t^2 - 2t + 5, two changes)."""
    assert descartes_bound(fmpz_poly([-2, 0, 1]), Fraction(1), Fraction(2)) == 1
    assert descartes_bound(fmpz_poly([-2, 0, 1]), Fraction(3, 2), Fraction(2)) == 0
    assert descartes_bound(fmpz_poly([1, -4, 4]), Fraction(0), Fraction(1)) == 2
    assert descartes_bound(fmpz_poly([1, 0, 1]), Fraction(-1), Fraction(1)) == 0
    assert descartes_bound(fmpz_poly([1, 0, 1]), Fraction(-2), Fraction(1)) == 2
    # a root at an end is not inside the open interval
    assert descartes_bound(fmpz_poly([-1, 2]), Fraction(1, 2), Fraction(1)) == 0


polys = st.lists(st.integers(-6, 6), min_size=2, max_size=7).filter(lambda c: c[-1] != 0)
rationals = st.fractions(min_value=-3, max_value=3, max_denominator=12)


@given(polys, rationals, st.fractions(min_value=Fraction(1, 12), max_value=3, max_denominator=12))
def test_descartes_bound_bounds_the_roots_inside_with_their_parity(
        coeffs: list[int], a: Fraction, width: Fraction) -> None:
    """Descartes' rule: the bound is at least the number of roots in the open interval
    counted with multiplicity, and of the same parity; 0 proves there is none."""
    b = a + width
    bound = descartes_bound(fmpz_poly(coeffs), a, b)
    inside = roots_inside(coeffs, a, b)
    assert bound >= inside and (bound - inside) % 2 == 0


@given(polys, rationals, st.fractions(min_value=Fraction(1, 12), max_value=3, max_denominator=12),
       st.integers(0, 200))
def test_sign_on_is_the_sign_throughout_when_it_is_not_0(
        coeffs: list[int], a: Fraction, width: Fraction, extra: int) -> None:
    """``sign_on`` (ends rounded outward, here made long by ``extra`` bits) answers 0 or
    the sign of the polynomial at every point of the interval: then sympy finds no root
    inside, and the value at the midpoint has that sign."""
    a = a - Fraction(1, 3 * 2**extra)
    b = a + width
    sign = sign_on(fmpz_poly(coeffs), a, b)
    if sign:
        assert roots_inside(coeffs, a, b) == 0
        mid = (a + b) / 2
        value = sum(c * mid**i for i, c in enumerate(coeffs))
        assert (value > 0) - (value < 0) == sign


def test_vanishes_at_by_hand() -> None:
    """2p^2 - 1 vanishes at 1/sqrt(2) (its minimal polynomial), (2p^2 - 1)(p + 3) too, p^2 - 2
    does not; p - 1/2 vanishes at the rational 1/2 and not at 1/3."""
    (alpha,) = real_roots(fmpz_poly([-1, 0, 2]), Fraction(0), Fraction(1))
    assert vanishes_at(fmpz_poly([-1, 0, 2]), alpha)
    assert vanishes_at(fmpz_poly([-1, 0, 2]) * fmpz_poly([3, 1]), alpha)
    assert not vanishes_at(fmpz_poly([-2, 0, 1]), alpha)
    assert vanishes_at(fmpz_poly([-1, 2]), RealAlgebraic.rational(Fraction(1, 2)))
    assert not vanishes_at(fmpz_poly([-1, 2]), RealAlgebraic.rational(Fraction(1, 3)))
