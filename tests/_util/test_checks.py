"""``tbsg._util.checks``: one wording for "an int of at least n", with the caller's error."""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

import pytest

from tbsg._util.checks import int_at_least
from tbsg.errors import InvalidArgumentError, InvalidGameError, show


@pytest.mark.parametrize(("value", "least"), [(1, 1), (0, 0), (10**30, 2), (-3, -5)])
def test_an_int_at_least_the_bound_is_returned(value: int, least: int) -> None:
    assert int_at_least("n", value, least) == value


@pytest.mark.parametrize("value", [0, -1, True, False, 1.0, Fraction(2), "3", None])
def test_anything_else_is_refused_by_name(value: object) -> None:
    with pytest.raises(InvalidArgumentError, match=rf"^n must be an int >= 1, got {re.escape(show(value))}$"):
        int_at_least("n", value, 1)


def test_the_error_class_and_the_meaning_are_the_callers() -> None:
    with pytest.raises(InvalidGameError, match=r"^goal must be an int >= 2 \(points to win\), got 1$"):
        int_at_least("goal", 1, 2, error=InvalidGameError, what="points to win")


def test_a_huge_value_is_shortened_in_the_message() -> None:
    with pytest.raises(InvalidArgumentError) as info:
        int_at_least("n", -(10**5000), 1)
    assert len(str(info.value)) < 300 and "more characters" in str(info.value)


def test_the_games_use_it() -> None:
    from tbsg.games import coinball, pig, risk_or_safety, super_six, the_race, unspeakable_words

    cases: list[tuple[Callable[..., object], tuple[object, ...], str]] = [
        (pig, (0,), "goal must be an int >= 1, got 0"),
        (coinball, (True,), "tosses must be an int >= 1, got True"),
        (risk_or_safety, (0,), "target must be an int >= 1, got 0"),
        (the_race, (1.5,), "goal must be an int >= 1, got 1.5"),
        (super_six, (0, 1), "hand must be an int >= 1, got 0"),
        (unspeakable_words, (1, 1, 0), "die must be an int >= 1, got 0")]
    for make, args, message in cases:
        with pytest.raises(InvalidGameError) as info:
            make(*args)
        assert str(info.value) == message
