"""Float solutions (:mod:`tbsg.results.floating`): player 1's view and the action bounds
of games whose values are not win probabilities, against values solved by hand.

The games are compiled directly (:meth:`~tbsg.engine.compiled.CompiledGame.from_values`):
each action is ``(c_k, s_k, outcomes)``, ``c_k`` the reward of the move plus the expected
terminal payoff, solved by :func:`tbsg.engine.floating.solve_float`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from tbsg import win
from tbsg.engine.compile import compile_game
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.floating import solve_float
from tbsg.engine.graph import decompose
from tbsg.results import FloatSolution
from tbsg.testing import TableGame

H = Fraction(1, 2)
THIRD = Fraction(1, 3)


def _signed() -> CompiledGame[int, int]:
    """Player 0 at state 0: action 0 pays -1 now, then ends paying -2 with probability 1/3,
    else goes to state 1; action 1 ends paying -4. Player 1 at state 1: action 0 ends
    paying 2 with probability 1/2, else back to 0; action 1 pays -1 and goes back to 0.

    By hand (tests/engine/test_floating.py, ``_signed``): v = (-4, -5), player 0 plays
    action 1 and player 1 action 1; action 0 at state 0 is worth -5/3 + 2/3 (-5) = -5.
    """
    const = [-1 - 2 * THIRD, Fraction(-4), Fraction(1), Fraction(-1)]
    return CompiledGame.from_values(
        [0, 1], {0: 0, 1: 1}, np.array([0, 1], dtype=np.int8), np.array([0, 2, 4]), [0, 1, 0, 1],
        np.array([0, 1, 1, 2, 3]), np.array([1, 0, 0]), const, [THIRD, Fraction(1), H, Fraction(0)],
        [2 * THIRD, H, Fraction(1)])


def _solution(g: CompiledGame[Any, Any]) -> FloatSolution[Any, Any]:
    comps = decompose(g)
    r = solve_float(g, comps)
    return FloatSolution(graph=g, method="test", seconds=0.0, n_components=comps.count,
                         largest_component=1, lower=r.lower, upper=r.upper, choice=r.choice,
                         tol=1e-12, sweeps=r.sweeps, converged=r.converged)


def test_player_1_receives_the_negation_in_a_zero_sum_game() -> None:
    fs = _solution(_signed())
    assert not fs.win_probability
    lo, hi = fs.bounds(0)
    assert Fraction(lo) <= -4 <= Fraction(hi)
    assert fs.bounds(0, player=1) == (-hi, -lo)
    assert fs.value(0, player=1) == -fs.value(0)
    assert fs.value_to_move(1) == -fs.value(1)  # player 1 moves at state 1: her view
    assert abs(fs.value(1, player=1) - 5) < 1e-12


def test_action_bounds_are_not_clipped_to_0_1_outside_win_probabilities() -> None:
    fs = _solution(_signed())
    bounds = fs.action_bounds(0)
    for action, exact in ((0, Fraction(-5)), (1, Fraction(-4))):
        lo, hi = bounds[action]
        assert Fraction(lo) <= exact <= Fraction(hi) and hi - lo < 1e-12
    mine = fs.action_bounds(0, player=1)
    assert mine[1] == (-bounds[1][1], -bounds[1][0])
    assert fs.optimal_actions(0) == (1,) and fs.optimal_actions_certain(0)
    assert fs.optimal_actions(1) == (1,)  # 1 + (-4) / 2 = -1 against -1 - 4 = -5


def test_player_1_receives_one_minus_in_a_win_probability_game() -> None:
    # the holder of a coin tosses it, heads wins, tails passes it: v0 = 1/2 + 1/2 v1 and
    # v1 = 1/2 v0 (player 0's win probability from state 1), so v0 = 2/3, v1 = 1/3
    g = compile_game(TableGame(players=(0, 1), moves=(
        (("toss", ((H, win(0)), (H, 1))),), (("toss", ((H, win(1)), (H, 0))),))))
    fs = _solution(g)
    assert fs.win_probability
    lo, hi = fs.bounds()
    assert Fraction(lo) <= Fraction(2, 3) <= Fraction(hi)
    assert fs.value(player=1) == 1.0 - fs.value()
    lo1, hi1 = fs.bounds(player=1)
    assert Fraction(lo1) <= Fraction(1, 3) <= Fraction(hi1)
