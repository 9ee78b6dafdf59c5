"""The float solver's adaptive value-iteration sweeps before policy iteration (issue 13).

The sweeps only choose where policy iteration starts; the tests check the rule itself on
made-up trails, and that on a game where it both sweeps and backs off the proven bounds
still hold every exact value and the exact solution (which starts from the float
profile) is unchanged.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import tbsg
from tbsg.engine import floating
from tbsg.engine.floating import _SWEEP_CAP, _SWEEP_MIN, _SweepPlan
from tbsg.games import risk_or_safety


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
    # skip the sweeps (measured when the rule was written; the asserts check both happen)
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
