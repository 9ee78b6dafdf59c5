"""What a step counts: ``count(state, action)`` and ``reward(state, action)`` values
pass the exactness gate, with errors that name the argument, the state and the action."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from tbsg.errors import ExactnessError, InvalidArgumentError, InvalidGameError
from tbsg.model.steps import step_values

STATES = ["x", "y"]
LABELS = ["go", "stop", "wait"]
STEPS = [(0, 0), (0, 1), (1, 2)]  # (state number, flat action number)


def test_no_function_counts_one_per_step() -> None:
    assert step_values(None, "count", STATES, LABELS, STEPS) == [1, 1, 1]
    assert step_values(None, "count", STATES, LABELS, []) == []


def test_values_in_step_order_as_fractions() -> None:
    def reward(s: str, a: str) -> Fraction | int:
        return {"go": Fraction(1, 2), "stop": 0, "wait": np.int64(3)}[a]  # type: ignore[return-value]

    got = step_values(reward, "reward", STATES, LABELS, STEPS)
    assert got == [Fraction(1, 2), 0, 3]
    assert all(type(x) is Fraction and type(x.numerator) is int for x in got)


def test_the_function_sees_the_state_and_the_action() -> None:
    seen: list[tuple[str, str]] = []

    def count(s: str, a: str) -> int:
        seen.append((s, a))
        return 1

    step_values(count, "count", STATES, LABELS, STEPS)
    assert seen == [("x", "go"), ("x", "stop"), ("y", "wait")]


def test_a_float_is_an_exactness_error_naming_the_step() -> None:
    def half_at_wait(s: str, a: str) -> object:
        return 0.5 if a == "wait" else 1

    with pytest.raises(ExactnessError, match="reward at state 'y', action 'wait' must be an int"):
        step_values(half_at_wait, "reward", STATES, LABELS, STEPS)  # type: ignore[arg-type]  # a float


def test_negative_and_fractional_values_where_refused() -> None:
    def minus(s: str, a: str) -> int:
        return -1

    assert step_values(minus, "reward", STATES, LABELS, STEPS) == [-1, -1, -1]  # rewards may be < 0
    with pytest.raises(InvalidArgumentError, match="count must be >= 0, got -1 at state 'x', action 'go'"):
        step_values(minus, "count", STATES, LABELS, STEPS, nonnegative=True)
    with pytest.raises(InvalidArgumentError, match=r"count must be a whole number.*got 1/3 at state 'x'"):
        step_values(lambda s, a: Fraction(1, 3), "count", STATES, LABELS, STEPS, integer=True)
    assert step_values(lambda s, a: Fraction(4, 2), "count", STATES, LABELS, STEPS,
                       integer=True) == [2, 2, 2]


def test_a_function_that_raises_is_named() -> None:
    def broken(s: str, a: str) -> int:
        raise KeyError(a)

    with pytest.raises(InvalidArgumentError, match="count raised KeyError at state 'x', action 'go'"):
        step_values(broken, "count", STATES, LABELS, STEPS)


def test_tbsg_errors_pass_through_unchanged() -> None:
    def refuses(s: str, a: str) -> int:
        raise InvalidGameError("no such step")

    with pytest.raises(InvalidGameError, match=r"^no such step$"):
        step_values(refuses, "count", STATES, LABELS, STEPS)


def test_not_a_function() -> None:
    with pytest.raises(InvalidArgumentError, match="count must be a function of \\(state, action\\)"):
        step_values(3, "count", STATES, LABELS, STEPS)  # type: ignore[arg-type]  # on purpose
