"""Fastest and slowest optimal play on a small hand-built game with exact ties.

The game (values and lengths solved by hand):

* ``A`` (player 0): "short" wins at once; "loop" wins with 1/2 and else returns to ``A``
  (value ``v = 1/2 + 1/2 v = 1``); "detour" goes to ``B``; "stall" returns to ``A`` with
  9/10 and else draws (value ``9/10 * 1 + 1/10 * 1/2 = 19/20``: not optimal).
* ``B`` (player 1): "b1" lets player 0 win; "b2" stays with 1/3 and else lets player 0
  win (value 1 as well).

Every state's value is 1 and every action but "stall" attains it: the optimal profiles
differ only in how long play lasts.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from tbsg import DRAW, InvalidArgumentError, TbsgError, Terminal, UnknownStateError, UnsupportedError, win
from tbsg.engine import _backend as bk
from tbsg.engine.compile import compile_game
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.tiebreak import first_choice, tie_break, tied_states

W0 = win(0)
Outcomes = list[tuple[Fraction, str | Terminal]]


class Ties:
    initial = "A"

    def player(self, s: str) -> int:
        return 0 if s == "A" else 1

    def actions(self, s: str) -> tuple[str, ...]:
        return ("short", "loop", "detour", "stall") if s == "A" else ("b1", "b2")

    def outcomes(self, s: str, a: str) -> Outcomes:
        table: dict[str, Outcomes] = {
            "short": [(Fraction(1), W0)],
            "loop": [(Fraction(1, 2), "A"), (Fraction(1, 2), W0)],
            "detour": [(Fraction(1), "B")],
            "stall": [(Fraction(9, 10), "A"), (Fraction(1, 10), DRAW)],
            "b1": [(Fraction(1), W0)],
            "b2": [(Fraction(1, 3), "B"), (Fraction(2, 3), W0)],
        }
        return table[a]


@pytest.fixture(scope="module")
def ties() -> CompiledGame[Any, Any]:
    g = compile_game(Ties())
    assert g.states == ["A", "B"]
    assert g.act_labels == ["short", "loop", "detour", "stall", "b1", "b2"]
    return g


OPTIMAL = np.array([True, True, True, False, True, True])  # all but "stall"
VALUES = [bk.ONE, bk.ONE]


def test_fastest_wins_at_once(ties: CompiledGame[Any, Any]) -> None:
    # one step is the least any play can last: "short" at A; at B "b1" (one step)
    fast = tie_break(ties, OPTIMAL, VALUES, None, "fastest")
    assert fast.expected == 1
    assert fast.game_value == 1
    assert dict(fast.strategy) == {"A": "short", "B": "b1"}
    assert fast.expected_from("B") == 1


def test_slowest_takes_the_detour_and_lingers(ties: CompiledGame[Any, Any]) -> None:
    # at B, "b2" lasts y = 1 + 1/3 y = 3/2 steps; at A, "loop" lasts x = 1 + 1/2 x = 2,
    # "detour" 1 + 3/2 = 5/2, "short" 1; "stall" (x = 1 + 9/10 x = 10) is not optimal
    slow = tie_break(ties, OPTIMAL, VALUES, None, "slowest")
    assert slow.expected == Fraction(5, 2)
    assert slow.expected_from("B") == Fraction(3, 2)
    assert slow.strategy["A"] == "detour" and slow.strategy["B"] == "b2"
    assert len(slow.strategy) == 2 and list(slow.strategy) == ["A", "B"]
    assert slow.direction == "slowest" and slow.game_value == 1


def test_a_count_of_player_1_moves(ties: CompiledGame[Any, Any]) -> None:
    # counting only B's moves: "short" and "loop" never reach B (0); "detour" counts
    # B's moves, 1 with "b1" and y = 1 + 1/3 y = 3/2 with "b2"
    def count(s: str, a: str) -> int:
        return 1 if s == "B" else 0

    assert tie_break(ties, OPTIMAL, VALUES, count, "fastest").expected == 0
    slow = tie_break(ties, OPTIMAL, VALUES, count, "slowest")
    assert slow.expected == Fraction(3, 2)
    assert slow.strategy["A"] == "detour"


def test_fractional_counts(ties: CompiledGame[Any, Any]) -> None:
    # "loop" counts 1/4 per step: x = 1/4 + 1/2 x = 1/2 (the other actions count 1):
    # the fastest is now "loop" at A (1/2 < 1)
    def count(s: str, a: str) -> Fraction:
        return Fraction(1, 4) if a == "loop" else Fraction(1)

    fast = tie_break(ties, OPTIMAL, VALUES, count, "fastest")
    assert fast.expected == Fraction(1, 2) and fast.strategy["A"] == "loop"


def test_lookups_of_unknown_and_unhashable_states(ties: CompiledGame[Any, Any]) -> None:
    fast = tie_break(ties, OPTIMAL, VALUES, None, "fastest")
    with pytest.raises(UnknownStateError, match="'C'"):
        fast.expected_from("C")
    with pytest.raises(InvalidArgumentError, match="not hashable"):
        fast.strategy[["A"]]  # an unhashable key, on purpose


def test_a_negative_count_is_refused_naming_the_step(ties: CompiledGame[Any, Any]) -> None:
    with pytest.raises(InvalidArgumentError, match=r"count must be >= 0.*state 'B', action 'b1'"):
        tie_break(ties, OPTIMAL, VALUES, lambda s, a: -1 if s == "B" else 1, "fastest")


def test_values_that_are_not_the_solution_are_caught(ties: CompiledGame[Any, Any]) -> None:
    # claim v(B) = 1/2: the chosen profile's value at B, recomputed, is 1
    wrong = [bk.ONE, bk.from_fraction(Fraction(1, 2))]
    with pytest.raises(TbsgError, match=r"internal error.*state 'B' is 1, not the solution's 1/2"):
        tie_break(ties, OPTIMAL, wrong, None, "fastest")


def test_a_game_where_play_can_last_for_ever_is_refused() -> None:
    class Wait:
        initial = 0

        def player(self, s: int) -> int:
            return 0

        def actions(self, s: int) -> tuple[str, ...]:
            return ("wait", "win")

        def outcomes(self, s: int, a: str) -> list[tuple[int, int | Terminal]]:
            return [(1, 0)] if a == "wait" else [(1, W0)]

    g = compile_game(Wait())
    # "win" is the only optimal action, but "wait" can keep play going for ever
    with pytest.raises(UnsupportedError, match="need a stopping game"):
        tie_break(g, np.array([False, True]), [bk.ONE], None, "slowest")


def test_first_choice_takes_the_first_masked_action_of_each_state(ties: CompiledGame[Any, Any]) -> None:
    # flat actions 0-3 are A's in the game's order, 4-5 B's: the first optimal ones are
    # "short" (0) and "b1" (4); with "short" and "b1" masked out, "loop" (1) and "b2" (5)
    solver = np.array([2, 5], dtype=np.int64)
    assert first_choice(ties, OPTIMAL, solver).tolist() == [0, 4]
    later = OPTIMAL & np.array([False, True, True, True, False, True])
    assert first_choice(ties, later, solver).tolist() == [1, 5]
    # a state with no masked action keeps the given choice; the input is not changed
    only_a = np.array([False, False, True, False, False, False])
    assert first_choice(ties, only_a, solver).tolist() == [2, 5]
    assert solver.tolist() == [2, 5]


def test_tied_states_counts_states_with_several_masked_actions(ties: CompiledGame[Any, Any]) -> None:
    assert tied_states(ties, OPTIMAL) == 2
    assert tied_states(ties, np.array([True, False, False, False, True, True])) == 1
    assert tied_states(ties, np.array([True, False, False, True, False, True])) == 1
    assert tied_states(ties, np.array([True, False, False, False, True, False])) == 0
