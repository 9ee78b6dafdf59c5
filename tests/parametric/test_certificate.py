"""``tbsg.parametric.certificate``: its own exclusion of roots, and that it decides nothing
the full check would decide otherwise; progress while it runs.

Oracles: the solver's separate exclusion test (``descartes_bound``, written over Q),
sympy's root isolation, and the same verification with the exclusion switched off (every
polynomial factored and its roots isolated by sympy, as the check did without it).
"""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import pytest

sympy = pytest.importorskip("sympy")
pytest.importorskip("flint")

from flint import fmpz_poly  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tbsg._util import progress  # noqa: E402
from tbsg.errors import InvalidArgumentError  # noqa: E402
from tbsg.games import biased_risk_or_safety  # noqa: E402
from tbsg.parametric import certificate, solve_parametric, verify_parametric  # noqa: E402
from tbsg.parametric.algebraic import RealAlgebraic, descartes_bound, real_roots  # noqa: E402

P = sympy.Symbol("p")

polys = st.lists(st.integers(-6, 6), min_size=2, max_size=7).filter(lambda c: c[-1] != 0)
rationals = st.fractions(min_value=-3, max_value=3, max_denominator=12)
widths = st.fractions(min_value=Fraction(1, 12), max_value=3, max_denominator=12)


@given(polys, rationals, widths)
def test_root_free_is_descartes_rule(coeffs: list[int], a: Fraction, width: Fraction) -> None:
    """With short ends, the certificate's test (integers) says "no root" exactly when the
    solver's (over Q) counts no sign change."""
    f = fmpz_poly(coeffs)
    assert certificate._root_free(f, a, a + width) == (descartes_bound(f, a, a + width) == 0)


@given(polys, rationals, widths, st.integers(0, 200))
def test_root_free_never_misses_a_root(coeffs: list[int], a: Fraction, width: Fraction,
                                       extra: int) -> None:
    """Whenever the test says "no root", sympy finds none in the open interval, also with
    long ends (``extra`` bits: rounded outward first)."""
    a = a - Fraction(1, 3 * 2**extra)
    b = a + width
    if certificate._root_free(fmpz_poly(coeffs), a, b):
        lo, hi = sympy.Rational(a.numerator, a.denominator), sympy.Rational(b.numerator, b.denominator)
        assert not [r for r in sympy.real_roots(sympy.Poly(list(reversed(coeffs)), P)) if lo < r < hi]


def test_root_free_by_hand() -> None:
    """2p^2 - 1 (root 1/sqrt(2) = 0.7071...): none in (0, 7/10) nor (71/100, 1), one in
    (7/10, 71/100); p^2 + 1 has no real root, and no sign change on (0, 1)."""
    f = fmpz_poly([-1, 0, 2])
    assert certificate._root_free(f, Fraction(0), Fraction(7, 10))
    assert certificate._root_free(f, Fraction(71, 100), Fraction(1))
    assert not certificate._root_free(f, Fraction(7, 10), Fraction(71, 100))
    assert certificate._root_free(fmpz_poly([1, 0, 1]), Fraction(0), Fraction(1))


def _without_exclusion(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every polynomial factored and isolated by sympy: the check without the shortcut."""
    monkeypatch.setattr(certificate, "_root_free", lambda f, a, b, exact=False: False)


@pytest.mark.parametrize("n", [2, 3])
def test_the_exclusion_changes_no_verdict(n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Risk or Safety to n with a biased coin: the same verdict, and the same problems on
    a wrong record (a region played with its neighbour's profile and values), with and
    without the exclusion by Descartes' rule."""
    sol = solve_parametric(biased_risk_or_safety(n, P), P)
    left, right = sol.regions[0], sol.regions[1]
    swapped = dataclasses.replace(left, _choice=right._choice, _values=right._values)
    bad = dataclasses.replace(sol, regions=(swapped, *sol.regions[1:]))
    fast = verify_parametric(sol), verify_parametric(bad)
    _without_exclusion(monkeypatch)
    full = verify_parametric(sol), verify_parametric(bad)
    assert fast[0].ok and full[0].ok
    assert not fast[1].ok and fast[1].problems == full[1].problems
    assert any("better than the profile" in m for m in fast[1].problems)


def test_a_sign_change_inside_a_region_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """A region stretched over its neighbour: an advantage crosses 0 at the breakpoint now
    inside it (the exclusion does not settle that polynomial; sympy's isolation finds the
    root)."""
    sol = solve_parametric(biased_risk_or_safety(2, P), P)
    first, second, *rest = sol.regions
    wide = dataclasses.replace(first, hi=second.hi)
    bad = dataclasses.replace(sol, regions=(wide, *rest), breakpoints=sol.breakpoints[1:])
    check = verify_parametric(bad)
    assert not check.ok and any("changes sign at" in m for m in check.problems)


@pytest.fixture
def eager(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every report shown at once: no delay, no throttle."""
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.0)


@pytest.mark.usefixtures("eager")
def test_verification_reports_the_regions_checked(capsys: pytest.CaptureFixture[str]) -> None:
    """Risk or Safety to 3 has 7 regions (test_parametric's catalog agreement): one line
    per region checked, the last "7 of 7"."""
    sol = solve_parametric(biased_risk_or_safety(3, P), P, progress=False)
    capsys.readouterr()
    assert verify_parametric(sol, progress=True).ok
    err = capsys.readouterr().err
    done = [int(k) for k in re.findall(r"verifying parametric regions: (\d+) of 7 regions", err)]
    assert done and done[-1] == 7 == len(sol.regions) and done == sorted(done)
    assert verify_parametric(sol, progress=False).ok
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("bad", ["yes", 1, 0.5])
def test_progress_must_be_a_bool_or_none(bad: Any) -> None:
    sol = solve_parametric(biased_risk_or_safety(1, P), P)
    with pytest.raises(InvalidArgumentError, match="progress must be True, False or None"):
        verify_parametric(sol, progress=bad)


def _region(lo: Any, hi: Any) -> Any:
    """What ``_none_inside`` reads of a region: its two ends (checked by check 2)."""
    return SimpleNamespace(lo=lo, hi=hi)


def test_none_inside_divides_out_the_ends_and_no_more() -> None:
    """By hand, with r = 1/sqrt(2), the root of m = 2p^2 - 1 in (7/10, 71/100), and its
    conjugate -r: on (0, r), m (p - 1)^2 has no root inside (m's roots are the end and -r,
    the other is 1); m (3p - 1) has the root 1/3 inside; on (-4/5, r), m has its conjugate
    -r inside; on (-r, r), m^2 (p - 2) has no root inside (both ends are m's roots)."""
    (r,) = real_roots(fmpz_poly([-1, 0, 2]), Fraction(0), Fraction(1))
    (minus_r,) = real_roots(fmpz_poly([-1, 0, 2]), Fraction(-1), Fraction(0))
    zero = RealAlgebraic.rational(0)
    m = fmpz_poly([-1, 0, 2])
    assert certificate._none_inside(m * fmpz_poly([1, -2, 1]), _region(zero, r))
    assert not certificate._none_inside(m * fmpz_poly([-1, 3]), _region(zero, r))
    assert not certificate._none_inside(m, _region(RealAlgebraic.rational(Fraction(-4, 5)), r))
    assert certificate._none_inside(m * m * fmpz_poly([-2, 1]), _region(minus_r, r))
    # a polynomial that does not vanish at an end is left to the other tests
    assert not certificate._none_inside(fmpz_poly([-1, 3]), _region(zero, r))


@pytest.mark.parametrize("n", [3, 4])
def test_none_inside_agrees_with_sympy_on_every_advantage(n: int) -> None:
    """Every advantage of every region of Risk or Safety to n: where ``_none_inside`` says
    no root inside, sympy's factoring and isolation (the check's own path when the rule
    settles nothing) find none either; and it settles some."""
    sol = solve_parametric(biased_risk_or_safety(n, P), P)
    pc, settled = sol.compiled, 0
    for reg in sol.regions:
        for k in sorted(set(range(pc.n_actions)) - set(reg._choice)):
            num = certificate._advantage(pc, reg._values, k).integer_parts()[0]
            if num.degree() < 1 or not certificate._none_inside(num, reg):
                continue
            settled += 1
            assert certificate._roots_inside(certificate._sympy_poly(num, P), reg.lo, reg.hi) == []
    assert settled > 0


def test_one_root_by_hand() -> None:
    """2p^2 - 1 has one root, 1/sqrt(2), in [7/10, 71/100] and in [0, 1]; two (+-1/sqrt(2))
    in [-1, 1], where its signs at the ends agree; p^2 (a double root at 0) in [-1, 1] has
    equal signs at the ends too."""
    f = fmpz_poly([-1, 0, 2])
    assert certificate._one_root(f, Fraction(7, 10), Fraction(71, 100))
    assert certificate._one_root(f, Fraction(0), Fraction(1))
    assert not certificate._one_root(f, Fraction(-1), Fraction(1))
    assert not certificate._one_root(fmpz_poly([0, 0, 1]), Fraction(-1), Fraction(1))


@given(polys, rationals, widths)
def test_one_root_is_never_wrong(coeffs: list[int], a: Fraction, width: Fraction) -> None:
    """Where ``_one_root`` says one root, sympy counts exactly one in the closed interval."""
    b = a + width
    if certificate._one_root(fmpz_poly(coeffs), a, b):
        poly = sympy.Poly(list(reversed(coeffs)), P)
        assert poly.count_roots(sympy.Rational(a.numerator, a.denominator),
                                sympy.Rational(b.numerator, b.denominator)) == 1
