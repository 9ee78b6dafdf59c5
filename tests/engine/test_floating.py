"""The float solver: proven bounds on small hand-built games, and the adaptive
value-iteration sweeps before policy iteration.

The bounds are checked against values solved by hand (each in a comment): the lower
bound at most and the upper bound at least the exact value, compared as Fractions, with
a gap of a few units in the last place. The sweeps only choose where policy iteration
starts; the tests check the rule itself on made-up trails, and that on a game where it
both sweeps and backs off the proven bounds still hold every exact value and the exact
solution (which starts from the float profile) is unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import tbsg
from tbsg import DRAW, win
from tbsg.engine import floating
from tbsg.engine.compile import compile_game
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.floating import _SWEEP_CAP, _SWEEP_MIN, FloatResult, _SweepPlan, float_profile, solve_float
from tbsg.engine.graph import decompose
from tbsg.games import risk_or_safety
from tbsg.testing import TableGame

H = Fraction(1, 2)
W0, W1 = win(0), win(1)


def _toss() -> CompiledGame[Any, Any]:
    """The holder of a coin tosses it: heads wins for the holder, tails passes the coin.
    Player 0 may instead stop for a draw (flat action 0), player 1 may concede (2)."""
    return compile_game(TableGame(players=(0, 1), moves=(
        (("stop", ((1, DRAW),)), ("toss", ((H, W0), (H, 1)))),
        (("concede", ((1, W0),)), ("toss", ((H, W1), (H, 0)))),
    )))


def _assert_encloses(result: FloatResult, exact: Sequence[Fraction], gap: float = 1e-14) -> None:
    """Proven bounds around each exact value, compared exactly, and tight."""
    for i, x in enumerate(exact):
        assert Fraction(result.lower[i]) <= x <= Fraction(result.upper[i])
        assert result.upper[i] - result.lower[i] <= gap


def test_bounds_of_a_cycle() -> None:
    # both toss: v0 = 1/2 + 1/2 v1 and v1 = 1/2 v0, so v0 = 1/2 + 1/4 v0: v0 = 2/3 and
    # v1 = 1/3; stopping (1/2 < 2/3) and conceding (1 > 1/3) are worse
    g = _toss()
    calls: list[tuple[int, int]] = []
    result = solve_float(g, decompose(g), progress=lambda done, total: calls.append((done, total)))
    _assert_encloses(result, [Fraction(2, 3), Fraction(1, 3)])
    assert result.converged and result.sweeps >= 1
    assert result.choice.tolist() == [1, 3]  # toss, toss
    assert calls[-1] == (2, 2)


def test_bounds_with_an_action_not_allowed() -> None:
    # player 1 toss not allowed: v1 = 1 (concede), v0 = max(1/2, 1/2 + 1/2) = 1
    g = _toss()
    allowed: npt.NDArray[np.bool_] = np.array([True, True, True, False])
    result = solve_float(g, decompose(g), allowed=allowed)
    _assert_encloses(result, [Fraction(1), Fraction(1)])
    assert result.upper.tolist() == [1.0, 1.0]  # never above the largest payoff
    assert result.choice.tolist() == [1, 2]


def test_bounds_of_acyclic_levels_with_rationals_that_are_not_floats() -> None:
    # v2 = 1/3; v1 = min(y: 6/7 v2 = 2/7, z: v2 = 1/3) = 2/7;
    # v0 = 1/3 + 2/3 v1 = 1/3 + 4/21 = 11/21
    third = Fraction(1, 3)
    g = compile_game(TableGame(players=(0, 1, 0), moves=(
        (("x", ((third, W0), (2 * third, 1))),),
        (("y", ((Fraction(1, 7), W1), (Fraction(6, 7), 2))), ("z", ((1, 2),))),
        (("w", ((third, W0), (2 * third, W1))),),
    )))
    result = solve_float(g, decompose(g))
    _assert_encloses(result, [Fraction(11, 21), Fraction(2, 7), third])
    # none of them is a float: the bounds cannot meet
    assert all(result.lower[i] < result.upper[i] for i in range(3))
    assert result.choice.tolist() == [0, 1, 3]  # x, y, w


def test_float_profile_is_the_optimal_one_on_clear_choices() -> None:
    # the actions of the cycle above: toss and toss (no near ties)
    g = _toss()
    assert float_profile(g, decompose(g)).tolist() == [1, 3]


def _profile(m: int, differ: int) -> np.ndarray:
    """A profile of ``m`` states, the first ``differ`` of them on row 1, the rest on row 0."""
    p = np.zeros(m, dtype=np.int64)
    p[:differ] = 1
    return p


def test_plan_keeps_the_sweeps_that_settled_the_last_level() -> None:
    plan = _SweepPlan()
    assert plan.next(_SWEEP_MIN) == _SWEEP_CAP  # the first level tries the cap
    final = _profile(640, 0)
    # 30 of 640 states still differ after 8 sweeps, 10 (at most 1/64) after 16
    plan.record([(8, _profile(640, 30)), (16, _profile(640, 10))], final)
    assert plan.next(_SWEEP_MIN) == 16
    assert plan.next(_SWEEP_MIN) == 16  # until a level says otherwise


def test_plan_backs_off_when_the_cap_does_not_settle_a_level() -> None:
    plan = _SweepPlan()
    final = _profile(640, 0)
    unsettled = [(k, _profile(640, 100)) for k in (8, 16, 32, _SWEEP_CAP)]
    plan.record(unsettled, final)
    assert [plan.next(_SWEEP_MIN) for _ in range(2)] == [0, _SWEEP_CAP]  # skip one level, try again
    plan.record(unsettled, final)
    assert [plan.next(_SWEEP_MIN) for _ in range(3)] == [0, 0, _SWEEP_CAP]  # then two
    plan.record([], final)  # a level without sweeps teaches nothing
    assert plan.next(_SWEEP_MIN) == _SWEEP_CAP
    plan.record([(4, _profile(640, 5))], final)  # settled: back-off forgotten
    assert plan.next(_SWEEP_MIN) == 4
    plan.record([(4, _profile(640, 100))], final)  # fewer than the cap did not settle
    assert plan.next(_SWEEP_MIN) == _SWEEP_CAP


def test_plan_with_no_switch_at_a_checkpoint_counts_that_checkpoint() -> None:
    plan = _SweepPlan()
    plan.record([(2, _profile(10, 0))], _profile(10, 0))
    assert plan.next(_SWEEP_MIN) == 2


def test_plan_gives_small_levels_no_sweeps_and_learns_nothing_from_them() -> None:
    plan = _SweepPlan()
    assert plan.next(_SWEEP_MIN - 1) == 0
    plan.record([], _profile(_SWEEP_MIN - 1, 0))
    assert plan.next(_SWEEP_MIN) == _SWEEP_CAP


def test_sweeping_and_backing_off_keep_bounds_and_exact_values(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Risk or Safety to 30, its levels (up to about 900 states) swept as if large: some
    # settle after 8 or more sweeps, others do not within the cap and the following levels
    # skip the sweeps (the asserts check that both happen)
    monkeypatch.setattr(floating, "_SWEEP_MIN", 16)
    given: list[int] = []
    settled: list[int] = []
    record = _SweepPlan.record
    nxt = _SweepPlan.next

    def spy_next(self: _SweepPlan, m: int) -> int:
        k = nxt(self, m)
        given.append(k)
        return k

    def spy_record(self: _SweepPlan, trail: floating._Trail, final: np.ndarray) -> None:
        record(self, trail, final)
        if trail and self.sweeps == trail[-1][0] and self.sweeps >= 8:
            settled.append(self.sweeps)

    monkeypatch.setattr(_SweepPlan, "next", spy_next)
    monkeypatch.setattr(_SweepPlan, "record", spy_record)
    game = risk_or_safety(30)
    approx = tbsg.solve(game, exact=False, tol=1e-12)
    assert settled and 0 in given
    assert approx.converged and approx.max_gap <= 1e-12
    given.clear()
    sol = tbsg.solve(game)  # its starting profile comes from the same sweeps
    assert 0 in given
    for s in sol.states:
        lo, hi = approx.bounds(s)
        assert Fraction(lo) <= sol.value(s) <= Fraction(hi)
    monkeypatch.undo()
    # the exact values do not depend on the starting profile: without sweeps, the same
    monkeypatch.setattr(_SweepPlan, "next", lambda self, m: 0)
    plain = tbsg.solve(game)
    assert all(plain.value(s) == sol.value(s) for s in sol.states)
