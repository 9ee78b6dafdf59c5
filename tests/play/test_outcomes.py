"""How play ends (tbsg.play.outcomes): the value vector, the split of terminal payoffs, and
the refusal of a game whose outcomes change between calls.

Game (by hand): one die roll; 1 -> player 0 wins, 2 or 3 -> a draw, else player 1 wins.
Value to player 0: 1/6 + (1/3)(1/2) = 1/3.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

import tbsg
from strategies import TableGame
from tbsg import DRAW, win
from tbsg.engine import _backend as bk
from tbsg.play.outcomes import never_ends, outcome_probabilities, terminal_split, value_vector

SIXTH = Fraction(1, 6)


def _die() -> TableGame:
    roll = ((SIXTH, win(0)), (2 * SIXTH, DRAW), (3 * SIXTH, win(1)))
    return TableGame(players=(0,), moves=((("roll", roll),),))


def test_value_and_split_of_one_roll() -> None:
    game = _die()
    c = tbsg.chain(game, lambda s: "roll")
    split = terminal_split(game, c.graph)
    assert split == [{Fraction(1): SIXTH, Fraction(1, 2): Fraction(1, 3), Fraction(0): Fraction(1, 2)}]
    assert [bk.to_fraction(x) for x in value_vector(c.graph, c.structure, None)] == [Fraction(1, 3)]
    assert outcome_probabilities(c.graph, c.structure, split, 0, True) == split[0]
    bounds = outcome_probabilities(c.graph, c.structure, split, 0, False)
    assert all(lo <= split[0][r] <= hi for r, (lo, hi) in bounds.items())  # type: ignore[misc]


def test_outcomes_that_change_between_calls_are_refused() -> None:
    class Fickle:
        initial = 0
        calls = 0

        def player(self, s: int) -> int:
            return 0

        def actions(self, s: int) -> tuple[str, ...]:
            return ("roll",)

        def outcomes(self, s: int, a: str) -> list[tuple[Fraction, Any]]:
            Fickle.calls += 1
            p = SIXTH if Fickle.calls == 1 else 2 * SIXTH
            return [(p, win(0)), (1 - p, win(1))]

    game = Fickle()
    c = tbsg.chain(game, lambda s: "roll")
    with pytest.raises(tbsg.InvalidGameError, match="returned different terminals"):
        terminal_split(game, c.graph)


def test_never_ends_names_the_trap() -> None:
    game = TableGame(players=(0,), moves=((("wait", ((Fraction(1), 0),)),),))
    c = tbsg.chain(game, lambda s: "wait")
    err = never_ends(c.graph, c.structure)
    assert isinstance(err, tbsg.NonStoppingGameError) and "e.g. 0" in str(err)
    # the value with a payoff for never-ending play: that payoff
    assert [bk.to_fraction(x) for x in value_vector(c.graph, c.structure, Fraction(2, 3))] == [Fraction(2, 3)]
