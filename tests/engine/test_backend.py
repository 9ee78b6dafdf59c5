"""The exact-arithmetic backend, both of them: ``gmpy2.mpq`` when installed and the
pure-Python ``Fraction`` one (``TBSG_BACKEND=fraction``).

The backend is chosen when the module is imported, so the fixture loads a private copy
of the module under each setting; every helper must give the same exact answers with
either, and values must leave as normalised :class:`fractions.Fraction` with ``int`` parts.
"""

from __future__ import annotations

import importlib.util
import os
from fractions import Fraction
from types import ModuleType

import pytest

from tbsg.engine import _backend

_SETTINGS = ["fraction"] + (["gmpy2"] if importlib.util.find_spec("gmpy2") is not None else [])


@pytest.fixture(params=_SETTINGS)
def bk(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """A fresh copy of :mod:`tbsg.engine._backend` imported with ``TBSG_BACKEND`` set."""
    monkeypatch.setenv("TBSG_BACKEND", request.param)
    spec = importlib.util.spec_from_file_location(f"_backend_{request.param}", _backend.__file__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert request.param == module.BACKEND
    return module


def test_the_library_default_is_gmpy2_when_installed() -> None:
    choice = os.environ.get("TBSG_BACKEND", "auto").lower()
    expected = "gmpy2" if choice in ("auto", "gmpy2") and "gmpy2" in _SETTINGS else "fraction"
    assert expected == _backend.BACKEND
    assert _backend.is_canonical(_backend.Q(1, 2)) == (_backend.BACKEND == "gmpy2")


def test_arithmetic_and_conversion(bk: ModuleType) -> None:
    # 1/3 + 1/6 = 1/2, in the backend type, and back to Fraction
    x = bk.Q(1, 3) + bk.Q(1, 6)
    assert x == bk.Q(1, 2)
    f = bk.to_fraction(x)
    assert type(f) is Fraction and f == Fraction(1, 2)
    assert bk.ZERO == 0 and bk.ONE == 1
    assert bk.to_fraction(bk.from_fraction(Fraction(-5, 7))) == Fraction(-5, 7)


def test_values_leave_normalised_with_int_parts(bk: ModuleType) -> None:
    big = bk.Q(6 * 10**40, 4 * 10**40)  # 3/2 after reduction
    f = bk.to_fraction(big)
    assert (f.numerator, f.denominator) == (3, 2)
    assert type(f.numerator) is int and type(f.denominator) is int
    # a Fraction built from the parts must equal one built the slow way
    huge = bk.Q(2**200 + 1, 3**90)
    assert bk.to_fraction(huge) == Fraction(2**200 + 1, 3**90)
    assert hash(bk.to_fraction(huge)) == hash(Fraction(2**200 + 1, 3**90))


def test_is_canonical_only_for_the_fast_type(bk: ModuleType) -> None:
    assert bk.is_canonical(bk.Q(1, 2)) == (bk.BACKEND == "gmpy2")
    assert not bk.is_canonical(Fraction(1, 2))


@pytest.mark.parametrize(("ints", "expected"), [([4, 6, 10], 60), ([7], 7), ([1, 1], 1),
                                                ([2**64, 3**40], 2**64 * 3**40)])
def test_lcm(bk: ModuleType, ints: list[int], expected: int) -> None:
    assert int(bk.lcm(ints)) == expected


@pytest.mark.parametrize(("x", "p", "y", "m"), [
    (48, 2, 3, 4),  # 48 = 3 * 2^4
    (1, 5, 1, 0),
    (3 * 2**100, 2, 3, 100),
    (2**64, 2, 1, 64),  # a power of two past one squaring step
    (7 * 5**1000, 5, 7, 1000),
    (36, 6, 1, 2),  # p need not be prime
    (35, 6, 35, 0),
])
def test_remove(bk: ModuleType, x: int, p: int, y: int, m: int) -> None:
    got_y, got_m = bk.remove(x, p)
    assert (int(got_y), got_m) == (y, m)
    assert type(got_m) is int


def test_remove_in_python_ints_against_repeated_division() -> None:
    for p in (2, 3, 6, 10):
        for x in range(1, 400):
            y, m = x, 0
            while y % p == 0:
                y, m = y // p, m + 1
            assert _backend._remove_int(x, p) == (y, m)


def test_to_float_is_correctly_rounded(bk: ModuleType) -> None:
    assert bk.to_float(bk.Q(1, 3)) == 1 / 3
    # just above 1/2 by far less than a float's resolution: rounds to 0.5
    assert bk.to_float(bk.Q(2**80 + 1, 2**81)) == 0.5
    assert bk.to_float(bk.Q(10**30 + 1, 10**30)) == 1.0


@pytest.mark.parametrize(("text", "value"), [
    ("123/456", Fraction(41, 152)),  # reduced: 123 = 3 * 41, 456 = 3 * 152
    ("-7", Fraction(-7)),
    ("0/5", Fraction(0)),
])
def test_fraction_from_text(bk: ModuleType, text: str, value: Fraction) -> None:
    f = bk.fraction_from_text(text)
    assert type(f) is Fraction and f == value


def test_fraction_from_text_beyond_the_int_to_str_limit(bk: ModuleType) -> None:
    # 5001 digits over 3: Python refuses int(str) past 4300 digits by default
    f = bk.fraction_from_text("1" + "0" * 5000 + "/3")
    assert f == Fraction(10**5000, 3)


def test_coprime_pairs_are_stored_as_given(bk: ModuleType) -> None:
    x = bk.coprime(-(2**200 + 1), 3**90)
    assert x == Fraction(-(2**200 + 1), 3**90)
    assert bk.to_fraction(x) == Fraction(-(2**200 + 1), 3**90)
    assert bk.coprime(0, 1) == 0 and bk.coprime(5, 1) == 5


@pytest.mark.parametrize(("nums", "small", "big"), [
    ([6, -4, 0, 35], [4, 1, 3, 6], 15),  # shared factors of big and of small
    ([2**100 * 7, 3**50], [2, 9], 2**80 * 3**40 * 11),  # the batch gcd is a big 2^a 3^b
    ([1, 2, 3], [1, 1, 1], 1),
    ([10**60 + 1], [10**6], 10**60 + 1),  # the value is 1 / 10**6
])
def test_lowest_terms_in_both_backends(bk: ModuleType, nums: list[int], small: list[int], big: int) -> None:
    """Against ``Fraction(n, s * big)``, which reduces by its own gcd."""
    out = bk.lowest_terms(nums, small, big)
    expected = [Fraction(n, s * big) for n, s in zip(nums, small, strict=True)]
    assert [bk.to_fraction(x) for x in out] == expected
