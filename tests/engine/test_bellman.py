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
from hypothesis import given, settings
from hypothesis import strategies as st

from oracles import compiled_from_rows
from tbsg import DRAW, Terminal, win
from tbsg.engine import _backend as bk
from tbsg.engine.bellman import (
    ETA,
    ExactActions,
    Magnitude,
    Segments,
    U,
    action_bounds,
    action_signs,
    exact_action_values,
    filter_bound,
    magnitudes,
    q_float,
    rounding_counts,
)
from tbsg.engine.compile import compile_game
from tbsg.engine.compiled import CompiledGame
from tbsg.testing.strategies import TableGame, games

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


# --- values of any sign and size ------------------------------------------------------------

BIG = 10**6


def test_filter_scales_with_the_size_of_the_values() -> None:
    """Q = (v1 + v2) / 2 with v1 = 10^6 + 1/3 and v2 = -10^6 + 1/3 is exactly 1/3 = v(0)
    (by hand), so the sign is 0; the rounded v1, v2 put the computed difference near 4e-11,
    far above the bound for values in [0, 1], which would have decided a sign."""
    third = F(1, 3)
    v1, v2 = BIG + third, -BIG + third
    g = compiled_from_rows([0, 0, 0], [[(F(0), F(0), [(H, 1), (H, 2)])], [(v1, F(1), [])], [(v2, F(1), [])]])
    values = [third, v1, v2]
    vf = np.array([float(x) for x in values])
    assert abs(q_float(g, vf)[0] - vf[0]) > filter_bound(2)[()] * 1000  # unscaled: a wrong sign
    assert not g.win_probability and magnitudes(g, vf, np.array([0]))[0] >= BIG
    assert action_signs(g, [bk.from_fraction(x) for x in values], vf).tolist() == [0, 0, 0]
    kernel = ExactActions(g, [bk.from_fraction(x) for x in values], vf.tolist())
    assert kernel.sign(0, float(vf[0]), bk.from_fraction(third)) == 0


def test_action_bounds_count_cancellation() -> None:
    """c = -10^6 + 1/3 (not a float) and a successor worth exactly 10^6: Q = 1/3 (by hand).
    The computed 1/3 + 4e-11 errs by the rounding of c, about 1e-16 of the terms' size but
    1e-10 of Q: an allowance relative to |q| alone misses it, the new one (relative to the
    size of the terms) holds Q."""
    g = compiled_from_rows([0, 0], [[(-BIG + F(1, 3), F(0), [(F(1), 1)])], [(F(BIG), F(1), [])]])
    x = np.array([0.0, float(BIG)])
    q = q_float(g, x)
    r, a = rounding_counts(g)
    old = (r + 2.0) * U * np.abs(q) + (a + 2.0) * ETA
    assert not F(q[0] - old[0]) <= F(1, 3) <= F(q[0] + old[0])
    lo, hi = action_bounds(g, x, x)
    assert F(lo[0]) <= F(1, 3) <= F(hi[0])
    assert hi[0] - lo[0] < 1e-8


def test_magnitude_of_values() -> None:
    # X^- is the largest negative part, M the largest absolute value, over all the arrays
    m = Magnitude.of(np.array([-3.0, 2.0]), np.array([], dtype=np.float64), np.array([5.0]))
    assert m == Magnitude(3.0, 5.0)
    assert Magnitude.of(np.array([0.25, 1.0])) == Magnitude(0.0, 1.0)
    assert m.join(Magnitude(7.0, 1.0)) == Magnitude(7.0, 5.0)


@settings(max_examples=40, deadline=None)
@given(games(states=(1, 6), actions=(1, 3), outcomes=(1, 4)), st.randoms(use_true_random=False))
def test_action_values_slot_by_slot_are_the_one_by_one_values(game: TableGame, rnd: Any) -> None:
    """``qx_many`` (one pass per outcome slot, actions of mixed outcome counts) gives each
    action's ``qx`` and the integer arithmetic's ``Q`` (:func:`exact_action_values`, a
    different method), on any values, for any subset of actions in any order."""
    g = compiled(game)
    values = [F(rnd.randint(-9, 9), rnd.randint(1, 9)) for _ in range(g.n_states)]
    kernel = ExactActions(g, [bk.from_fraction(x) for x in values], [float(x) for x in values])
    ks = [rnd.randrange(g.n_actions) for _ in range(rnd.randint(0, 2 * g.n_actions))]
    got = [bk.to_fraction(x) for x in kernel.qx_many(ks)]
    assert got == [bk.to_fraction(kernel.qx(k)) for k in ks]
    assert got == exact_action_values(g, values, ks)
