"""The helper for old names of the query vocabulary (tbsg.results.deprecation).

Each old use must (1) answer exactly what it answered before, (2) warn with a
DeprecationWarning that names the new name and the release that removes the old one, and
(3) point the warning at the user's line (the first frame outside tbsg).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest

from tbsg.results.deprecation import REMOVED_IN, AttributeBecameMethod, deprecated, warn_deprecated


class Result:
    """A result whose ``total`` was an attribute (an int) and is now a method."""

    def __init__(self, total: int) -> None:
        self._total = total

    def value(self, state: int = 0) -> int:
        return 10 * state

    @deprecated("Result.value_of(state)", "Result.value(state)")
    def value_of(self, state: int = 0) -> int:
        """The old name."""
        return self.value(state)

    @property
    @deprecated("Result.old_values", "Result.values")
    def old_values(self) -> list[int]:
        return [self.value(s) for s in range(3)]

    total = AttributeBecameMethod(
        lambda self, scale=1: self._total * scale, lambda self: self._total,
        "Result.total as an attribute", "Result.total()",
        lambda self, args, kwargs: False)


def _warned(use: Callable[[], Any]) -> tuple[Any, warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = use()
    assert len(caught) == 1, [str(w.message) for w in caught]
    assert caught[0].category is DeprecationWarning
    assert caught[0].filename == __file__  # the caller's line, where the fix goes
    return got, caught[0]


def test_a_deprecated_method_answers_as_the_new_one_and_names_it() -> None:
    got, w = _warned(lambda: Result(1).value_of(2))
    assert got == Result(1).value(2) == 20
    assert str(w.message) == (f"Result.value_of(state) is deprecated and will be removed in tbsg "
                              f"{REMOVED_IN}; use Result.value(state)")
    assert Result.value_of.__doc__ is not None and Result.value_of.__doc__.startswith(
        "Deprecated: use Result.value(state).")
    assert Result.value_of.__name__ == "value_of"


def test_a_deprecated_property() -> None:
    got, w = _warned(lambda: Result(1).old_values)
    assert got == [0, 10, 20] and "use Result.values" in str(w.message)


def test_the_new_names_do_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = Result(7)
        assert r.value(1) == 10 and r.total() == 7 and r.total(3) == 21 and r.total(scale=2) == 14


def test_an_attribute_that_became_a_method_keeps_its_old_uses() -> None:
    r = Result(7)
    for use, want in [(lambda: r.total == 7, True), (lambda: r.total + 1, 8), (lambda: 1 + r.total, 8),
                      (lambda: r.total * 2, 14), (lambda: -r.total, -7), (lambda: r.total < 8, True),
                      (lambda: str(r.total), "7"), (lambda: repr(r.total), "7"),
                      (lambda: f"{r.total:03d}", "007"), (lambda: float(r.total), 7.0),
                      (lambda: hash(r.total), hash(7)), (lambda: r.total.bit_length(), 3),
                      (lambda: r.total != 7, False)]:
        got, w = _warned(use)
        assert got == want
        assert "Result.total as an attribute is deprecated" in str(w.message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Result.total(r, 2) == 14  # on the class: the new method itself, no warning


def test_an_old_call_of_the_attribute_is_told_apart() -> None:
    # the old value was callable (a formula called at a point): legacy_call decides
    class Formula:
        def __init__(self) -> None:
            self.f = lambda x: x * x

        value = AttributeBecameMethod(
            lambda self, state="start": f"value of {state}", lambda self: self.f,
            "Formula.value as an attribute", "Formula.value()",
            lambda self, args, kwargs: len(args) == 1 and isinstance(args[0], int))

    g = Formula()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert g.value() == "value of start" and g.value("end") == "value of end"
    got, w = _warned(lambda: g.value(3))
    assert got == 9 and str(w.message).startswith("calling Formula.value as an attribute is deprecated")


def test_warn_deprecated_points_past_every_frame_of_tbsg() -> None:
    with pytest.warns(DeprecationWarning, match=r"^old is deprecated and will be removed in tbsg "
                      rf"{REMOVED_IN}; use new$") as caught:
        warn_deprecated("old", "new")
    assert caught[0].filename == __file__
