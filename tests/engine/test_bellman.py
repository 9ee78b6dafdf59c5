"""The Bellman kernel (:mod:`tbsg.engine.bellman`): action values, their exact signs
through the float filter, and per-state optima, on small hand-built games whose answers
are derived in the comments. (The optimal-action mask built on them is tested in
``test_optimality.py``.)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from tbsg import DRAW, Terminal, win
from tbsg.engine.bellman import (
    Segments,
    action_bounds,
    action_signs,
    exact_action_values,
    q_float,
)
from tbsg.engine.compile import compile_game
from tbsg.engine.compiled import CompiledGame
from tbsg.testing.strategies import TableGame

F = Fraction
H = F(1, 2)
TINY = F(1, 2**70)  # far below float resolution next to 1/3

# state 0 (player 0): "safe" a draw, "pass" to state 1, "low" pays 1/4;
# state 1 (player 1): "draw", "lose" (player 0 wins), "coin" (a fair coin between the wins)
COURT = TableGame(
    players=(0, 1),
    moves=((("safe", ((F(1), DRAW),)), ("pass", ((F(1), 1),)), ("low", ((F(1), Terminal(F(1, 4))),))),
           (("draw", ((F(1), DRAW),)), ("lose", ((F(1), win(0)),)),
            ("coin", ((H, win(0)), (H, win(1)))))))

# one state of player 1 with three near-tied exits: 1/3 + TINY, 1/3, and a coin between
# 1/3 and 1/3 + 2 TINY (whose expectation is exactly 1/3 + TINY)
NEAR = TableGame(
    players=(1,),
    moves=((("up", ((F(1), Terminal(F(1, 3) + TINY)),)),
            ("down", ((F(1), Terminal(F(1, 3))),)),
            ("coin", ((H, Terminal(F(1, 3))), (H, Terminal(F(1, 3) + 2 * TINY))))),))


def compiled(game: TableGame) -> CompiledGame[Any, Any]:
    return compile_game(game)


def test_exact_action_values_of_terminal_only_and_moving_actions() -> None:
    g = compiled(COURT)
    # v = (1/2, 3/4): safe 1/2, pass v(1) = 3/4, low 1/4, draw 1/2, lose 1, coin 1/2
    v = [H, F(3, 4)]
    assert exact_action_values(g, v) == [H, F(3, 4), F(1, 4), H, F(1), H]
    assert exact_action_values(g, v, [1, 4]) == [F(3, 4), F(1)]
    assert q_float(g, np.array([0.5, 0.75])).tolist() == [0.5, 0.75, 0.25, 0.5, 1.0, 0.5]


def test_filtered_signs_decide_near_ties_exactly() -> None:
    g = compiled(NEAR)
    # the three values are one float apart at most; v = 1/3 + TINY (what "up" and "coin" yield)
    v = [F(1, 3) + TINY]
    vf = np.array([float(v[0])])
    assert exact_action_values(g, v) == [v[0], F(1, 3), v[0]]
    assert action_signs(g, v, vf).tolist() == [0, -1, 0]
    assert action_signs(g, v, vf, np.array([1, 2])).tolist() == [-1, 0]
    asked: list[int] = []

    def exact_q(k: int) -> Fraction:
        asked.append(k)
        return exact_action_values(g, v, [k])[0]

    assert action_signs(g, v, vf, exact_q=exact_q).tolist() == [0, -1, 0]
    assert sorted(asked) == [0, 1, 2]  # every one of them too close for floats


def test_float_bounds_contain_the_exact_action_values() -> None:
    g = compiled(NEAR)
    lo, hi = action_bounds(g, np.array([1 / 3]), np.array([1 / 3]))
    for k, q in enumerate(exact_action_values(g, [F(1, 3)])):
        assert F(lo[k]) <= q <= F(hi[k])


@pytest.mark.parametrize("rows_per_state", [3, 6])  # a few elementwise maxima, or reduceat
def test_segments_take_max_for_player_0_and_min_for_player_1(rows_per_state: int) -> None:
    # state 0 maximises over (1/2, 1/2, 1/4, 0, ...), state 1 minimises over (1/2, 1, 1/2, 1, ...)
    base0 = [0.5, 0.5, 0.25] + [0.0] * (rows_per_state - 3)
    base1 = [0.5, 1.0, 0.5] + [1.0] * (rows_per_state - 3)
    seg = Segments(np.array([0, rows_per_state]), 2 * rows_per_state, np.array([True, False]))
    q = np.array(base0 + base1)
    assert seg.opt(q).tolist() == [0.5, 0.5]
    assert seg.greedy(q).tolist() == [0, rows_per_state]  # the first row attaining each optimum
    assert seg.segmax(q).tolist() == [0.5, 1.0]
