"""FixedStrategyGame: the game a fixed strategy leaves (tbsg.fixed)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest

import tbsg
from tbsg.errors import InvalidStrategyError
from tbsg.fixed import _SINGLES, FixedStrategyGame
from tbsg.games import pig, pig_hold_at, risk_or_safety


@dataclass(frozen=True)
class Act:
    """An action compared by value: a strategy may return a fresh, equal object."""

    name: str


class Many:
    """States 0..n: from ``s`` action ``Act(str(s))`` moves on, ``Act("stop")`` ends play."""

    initial = 0

    def __init__(self, n: int) -> None:
        self.n = n

    def player(self, s: int) -> int:
        return s % 2

    def actions(self, s: int) -> tuple[Act, ...]:
        return (Act(str(s)), Act("stop"))

    def outcomes(self, s: int, a: Act) -> list[tuple[Fraction, Any]]:
        if a.name == "stop" or s == self.n:
            return [(Fraction(1), tbsg.DRAW)]
        return [(Fraction(1, 2), s + 1), (Fraction(1, 2), tbsg.win(s % 2))]


def test_the_chosen_action_is_found_by_equality_and_its_tuple_is_reused() -> None:
    game = Many(3)
    fixed = FixedStrategyGame(game, lambda s: Act(str(s)), (0, 1))
    assert fixed.actions(2) == (Act("2"),)  # found by equality (a fresh object each call)
    hold = FixedStrategyGame(pig(20), pig_hold_at(5), (0, 1))
    first = hold.actions(tbsg.games.PigState(0, 0, 0, 6))
    assert first == ("hold",)
    assert hold.actions(tbsg.games.PigState(1, 3, 0, 7)) is first  # same action object: same tuple


def test_more_distinct_actions_than_the_reused_tuples() -> None:
    game = Many(3 * _SINGLES)
    strategy = {s: Act(str(s)) for s in range(3 * _SINGLES + 1)}
    fixed = FixedStrategyGame(game, strategy, (0, 1))
    for s in range(3 * _SINGLES + 1):
        assert fixed.actions(s) == (Act(str(s)),)
    assert len(fixed._singles) <= _SINGLES
    # the chain's value (regression pin of tbsg's own output, checked by hand for n = 1:
    # from 0, player 0 moves on with 1/2 (then a draw at 1) and wins with 1/2: 3/4)
    assert tbsg.evaluate(Many(1), {0: Act("0"), 1: Act("stop")}).value() == Fraction(3, 4)


def test_one_player_fixed_keeps_the_other_players_actions() -> None:
    game = Many(4)
    fixed = FixedStrategyGame(game, lambda s: Act("stop"), (1,))
    assert fixed.actions(0) == game.actions(0)
    assert fixed.actions(1) == (Act("stop"),)


def test_illegal_and_failing_strategies_are_named() -> None:
    game = risk_or_safety(2)
    with pytest.raises(InvalidStrategyError, match="not a legal action"):
        tbsg.evaluate(game, lambda s: "fly")
    with pytest.raises(InvalidStrategyError, match="ZeroDivisionError"):
        tbsg.evaluate(game, lambda s: 1 // 0)


def test_best_response_to_hold_at_20_in_small_pig_equals_reach_game() -> None:
    """The profile-reach wrapper and the full game with masked actions agree exactly."""
    game = pig(12)
    a = tbsg.best_response(game, 1, pig_hold_at(5))
    b = tbsg.best_response(game, 1, pig_hold_at(5), reach="game")
    assert a.value() == b.value()
    assert all(a.value(s) == b.value(s) for s in a.states)
