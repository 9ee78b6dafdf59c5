"""The float solver: proven bounds on small hand-built games, and the adaptive
value-iteration sweeps before policy iteration.

The bounds are checked against values solved by hand (each in a comment): the lower
bound at most and the upper bound at least the exact value, compared as Fractions, with
a gap of a few units in the last place. The sweeps only choose where policy iteration
starts; the tests check the rule itself on made-up trails, and that on a game where it
both sweeps and backs off the proven bounds still hold every exact value and the exact
solution (which starts from the float profile) is unchanged. The sweeps after a round of
a merged block (the lookahead) likewise only choose the next profile: the tests check that
they save factorisations on a best response whose rounds they shorten, with the same
enclosure and actions, and that they stop once the greedy profile settles.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings

import tbsg
from oracles import compiled_from_rows
from tbsg import DRAW, win
from tbsg.engine import floating
from tbsg.engine.bellman import Magnitude
from tbsg.engine.compile import compile_game
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.floating import _SWEEP_CAP, _SWEEP_MIN, FloatResult, _SweepPlan, float_profile, solve_float
from tbsg.engine.graph import decompose
from tbsg.games import risk_or_safety
from tbsg.games.risk_or_safety import RoSState
from tbsg.testing import TableGame, games

H = Fraction(1, 2)
W0, W1 = win(0), win(1)


def _toss() -> CompiledGame[Any, Any]:
    """The holder of a coin tosses it: heads wins for the holder, tails passes the coin.
    Player 0 may instead stop for a draw (flat action 0), player 1 may concede (2)."""
    return compile_game(TableGame(players=(0, 1), moves=(
        (("stop", ((1, DRAW),)), ("toss", ((H, W0), (H, 1)))),
        (("concede", ((1, W0),)), ("toss", ((H, W1), (H, 0)))),
    )))


def _assert_encloses(result: FloatResult, exact: Sequence[Fraction], gap: float = 1e-14,
                     *, relative: bool = False) -> None:
    """Proven bounds around each exact value, compared exactly, and tight (``relative``:
    to ``gap`` times ``max(1, |value|)``, what ``tol`` bounds outside win probabilities)."""
    for i, x in enumerate(exact):
        lo, hi = result.lower[i], result.upper[i]
        assert Fraction(lo) <= x <= Fraction(hi)
        assert hi - lo <= gap * (max(1.0, abs(lo), abs(hi)) if relative else 1.0)


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
    # skip the sweeps (the asserts check that both happen); level by level, not merged
    monkeypatch.setattr(floating, "_SWEEP_MIN", 16)
    monkeypatch.setattr(floating, "_MERGE_LEVEL", 0)
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


# --- expected totals: values of any sign and size ------------------------------------------

ONE, ZERO = Fraction(1), Fraction(0)
MILLION = 10**6


def _geometric(q: Fraction) -> CompiledGame[int, int]:
    """Keep rolling: each roll pays 1 and ends play (paying 0) with probability ``q``, or
    stop for 0. By hand, rolling is worth ``v = 1 + (1 - q) v``, so ``v = 1 / q``."""
    return compiled_from_rows([0], [[(ZERO, ONE, []), (ONE, q, [(1 - q, 0)])]])


def _signed() -> CompiledGame[int, int]:
    """Player 0 at state 0: "x" pays -1 now, then ends paying -2 with probability 1/3, else
    goes to state 1; "y" ends paying -4. Player 1 at state 1: "u" ends paying 2 with
    probability 1/2, else back to 0; "w" pays -1 and goes back to 0.

    By hand: (x, u) gives v0 = -5/3 + 2/3 (1 + v0 / 2), so v0 = -3/2, where "w" is better
    for player 1 (-5/2 < 1/4); (x, w) gives v0 = -5/3 + 2/3 (v0 - 1) = -7, where "y" is
    better for player 0; under (y, w), v0 = -4 and v1 = min(1 - 2, -1 - 4) = -5, and "x"
    gives -5/3 - 10/3 = -5 < -4. So v = (-4, -5), with "y" and "w".
    """
    third = Fraction(1, 3)
    return compiled_from_rows([0, 1], [[(-1 - 2 * third, third, [(2 * third, 1)]), (Fraction(-4), ONE, [])],
                                       [(ONE, H, [(H, 0)]), (-ONE, ZERO, [(ONE, 0)])]])


def _million() -> CompiledGame[int, int]:
    """Values near a million that cancel: player 1 at state 0 either ends play paying
    10^6 + 1/3 ("a") or pays -10^6 and hands over to state 1 ("b"), where player 0's only
    move ends paying 10^6 + 2/3 with probability 1/2, else goes back to 0.

    By hand, under "b": v1 = (10^6 + 2/3) / 2 + v0 / 2 and v0 = -10^6 + v1, so v0 / 2 =
    -10^6 / 2 + 1/3: v0 = -10^6 + 2/3 and v1 = 2/3 (the terms of v1 are each about
    5 10^5); "a" (10^6 + 1/3) is worse for player 1.
    """
    pay = MILLION + Fraction(2, 3)
    return compiled_from_rows([1, 0], [[(MILLION + Fraction(1, 3), ONE, []),
                                        (Fraction(-MILLION), ZERO, [(ONE, 1)])],
                                       [(pay / 2, H, [(H, 0)])]])


REWARD_GAMES = [
    (_geometric(Fraction(1, 100)), [Fraction(100)], [1], 1e-10),
    (_signed(), [Fraction(-4), Fraction(-5)], [1, 3], 1e-13),
    (_million(), [Fraction(2, 3) - MILLION, Fraction(2, 3)], [1, 2], 1e-7),
]


@pytest.mark.parametrize(("g", "exact", "choice", "gap"), REWARD_GAMES)
def test_bounds_of_expected_totals(g: CompiledGame[int, int], exact: list[Fraction],
                                   choice: list[int], gap: float) -> None:
    result = solve_float(g, decompose(g), tol=gap)
    _assert_encloses(result, exact, gap)
    assert result.converged
    assert result.choice.tolist() == choice
    assert float_profile(g, decompose(g)).tolist() == choice


@pytest.mark.parametrize(("g", "exact", "choice", "gap"), REWARD_GAMES)
def test_bounds_of_expected_totals_without_certificates(
        g: CompiledGame[int, int], exact: list[Fraction], choice: list[int], gap: float,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # every certificate refused: a priori bounds from the longest stay, then interval
    # iteration, which must hold the exact values too
    monkeypatch.setattr(floating._Level, "certify", lambda *args, **kwargs: None)
    result = solve_float(g, decompose(g), tol=gap * 1000)
    _assert_encloses(result, exact, gap * 1000, relative=True)
    assert result.choice.tolist() == choice


def test_large_expected_total_is_enclosed() -> None:
    # v = 1 / q = 10^6 rolls; the proven gap grows with the value and the expected length
    result = solve_float(_geometric(Fraction(1, MILLION)), decompose(_geometric(Fraction(1, MILLION))),
                         tol=1.0)
    _assert_encloses(result, [Fraction(MILLION)], 1e-2)


def test_longest_stay_is_a_proven_supersolution() -> None:
    # one state that stays with probability 999/1000 (the roll) or leaves (stop): the
    # longest expected stay is 1000 steps, and H >= 1 + P_k H must hold for both rows
    g = _geometric(Fraction(1, 1000))
    prep = floating._Prepared(g, None, decompose(g))
    lv = prep.level(0, 1, Magnitude(0.0, 0.0))
    h = lv.stay(np.array([0]))
    assert h is not None and 1000 <= h[0] < 1001
    assert Fraction(h[0]) >= 1 + Fraction(999, 1000) * Fraction(h[0])


@settings(max_examples=60, deadline=None, database=None)
@given(games(states=(1, 6), actions=(1, 3), outcomes=(1, 3), payoffs="score", rewards=True,
             players=(0, 1), ties=False))
def test_float_bounds_hold_the_exact_value_of_random_reward_games(game: TableGame) -> None:
    """Property: on stopping games with rewards and payoffs of any sign and size, the proven
    bounds of ``solve(exact=False)`` hold the exact value of every state (the exact solver
    is the oracle; the tolerance is relative to the size of the values)."""
    exact = tbsg.solve(game)
    big = max([1.0] + [abs(float(x)) for x in exact.values.values()])
    approx = tbsg.solve(game, exact=False, tol=1e-9 * big)
    assert approx.win_probability == exact.win_probability
    for state, x in exact.values.items():
        lo, hi = approx.bounds(state)
        assert Fraction(lo) <= x <= Fraction(hi)
        lo1, hi1 = approx.bounds(state, player=1)
        assert Fraction(lo1) <= exact.value(state, player=1) <= Fraction(hi1)


def test_payoff_box_is_the_range_of_the_payoffs_without_rewards() -> None:
    # win-or-lose at +-1 (c_k / s_k in [-1, 1]); the geometric roll pays 1 with s = 1/100,
    # so every value lies in [0, 100] (T maps it into itself: 1 + 99/100 100 = 100); a move
    # that pays -1 without ending play (_signed's "w") leaves no box
    pm = compiled_from_rows([0], [[(-ONE, ONE, []), (ONE / 3, ONE / 3, [(2 * ONE / 3, 0)]),
                                   (-H, H, [(H, 0)])]])
    lo, hi = floating.payoff_box(pm)
    assert Fraction(lo) <= -1 and Fraction(hi) >= 1 and hi - lo < 2 + 1e-14
    lo, hi = floating.payoff_box(_geometric(Fraction(1, 100)))
    assert Fraction(lo) <= 0 and 100 <= Fraction(hi) < 100 + 1e-12
    assert floating.payoff_box(_signed()) == (-np.inf, np.inf)


# --- what tol bounds: the gap relative to max(1, |value|) ------------------------------------

def test_scaled_gap_is_the_plain_gap_below_one_and_relative_above() -> None:
    lower = np.array([0.25, -3e6, 2.0, -np.inf])
    upper = np.array([0.5, -1e6, 4.0, 1.0])
    assert floating.scaled_gap(lower, upper, True).tolist() == (upper - lower).tolist()
    got = floating.scaled_gap(lower, upper, False).tolist()
    assert got[:3] == [0.25, 2e6 / 3e6, 0.5] and got[3] == np.inf


def test_a_large_total_meets_the_default_tol_relative_to_its_size() -> None:
    """Pig solitaire to 100 (fewest expected turns, about 12.5; source of the game:
    tbsg.sources.pig_solitaire): the proven gap of values near 12.5 cannot reach 1e-12 in
    absolute terms, which a tol relative to max(1, |v|) does not ask; the bounds contain the
    exact value."""
    game = tbsg.games.pig_solitaire(100)
    approx = tbsg.solve(game, exact=False)
    assert approx.converged and approx.max_relative_gap <= 1e-12
    scale = np.maximum(1.0, np.maximum(np.abs(approx.lower), np.abs(approx.upper)))
    assert bool(np.all(approx.upper - approx.lower <= 1e-12 * scale))
    exact = tbsg.solve(game).value()
    lo, hi = approx.bounds()
    assert Fraction(lo) <= exact <= Fraction(hi)


# --- consecutive small levels with cycles merged into blocks ------------------------------------

def _bank_at_first_heads(s: RoSState) -> Literal["toss", "stop"]:
    return "stop" if s.open >= 1 else "toss"


def _best_response(n: int) -> tuple[CompiledGame[Any, Any], Any]:
    """Risk or Safety to ``n`` against "bank at the first head": an MDP of many small levels
    with cycles, and its exact values (the exact solver is the oracle)."""
    game = risk_or_safety(n)
    exact = tbsg.best_response(game, 0, _bank_at_first_heads)
    return exact.graph, exact


def test_blocks_cover_every_level_once_and_merge_only_small_levels_with_cycles(
        monkeypatch: pytest.MonkeyPatch) -> None:
    g, _ = _best_response(12)
    prep = floating._Prepared(g, None, decompose(g))
    levels = [(s0, s1) for s0, s1, _ in floating._runs(prep)]
    blocks = floating._blocks(prep)
    assert any(kind == floating._BLOCK for *_, kind, _ in blocks)
    # the blocks' levels, in order, are the levels; each block spans exactly its levels
    unfolded = [part for s0, s1, kind, parts in blocks for part in (parts or [(s0, s1)])]
    assert unfolded == levels
    for s0, s1, kind, parts in blocks:
        if kind == floating._BLOCK:
            assert len(parts) >= 2 and (parts[0][0], parts[-1][1]) == (s0, s1)
            assert s1 - s0 <= floating._MERGE_STATES + max(b - a for a, b in parts)
    # levels of at least _MERGE_LEVEL states stand alone
    monkeypatch.setattr(floating, "_MERGE_LEVEL", 1)
    assert all(kind != floating._BLOCK for *_, kind, _ in floating._blocks(prep))


@pytest.mark.parametrize("n", [6, 12])
def test_merged_blocks_enclose_the_exact_best_response(n: int) -> None:
    g, exact = _best_response(n)
    result = solve_float(g, decompose(g))
    assert result.converged
    _assert_encloses(result, [exact.values[s] for s in g.states], 1e-12)


def test_merged_and_level_by_level_bounds_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    # the same exact values enclosed both ways, and the same greedy actions
    g, exact = _best_response(10)
    merged = solve_float(g, decompose(g))
    monkeypatch.setattr(floating, "_MERGE_LEVEL", 0)
    levels = solve_float(g, decompose(g))
    for r in (merged, levels):
        _assert_encloses(r, [exact.values[s] for s in g.states], 1e-12)
    assert merged.choice.tolist() == levels.choice.tolist()


def test_lookahead_sweeps_save_rounds_and_keep_the_bounds_and_actions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the sweeps after a round that changed much of a block's profile only choose the next
    # profile: the same enclosure of the exact values and the same actions, in fewer
    # factorisations (the player keeps tossing for several more heads than one round of
    # policy iteration from the start at 1/2 sees)
    g, exact = _best_response(20)
    factor = floating._Level.factor
    count = [0]

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        count[0] += 1
        return factor(self, *args, **kwargs)

    monkeypatch.setattr(floating._Level, "factor", counted)
    results = []
    for few in (floating._LOOK_FEW, 0):  # with the sweeps, then never
        monkeypatch.setattr(floating, "_LOOK_FEW", few)
        count[0] = 0
        results.append((solve_float(g, decompose(g)), count[0]))
    (looked, n_looked), (plain, n_plain) = results
    for r in (looked, plain):
        assert r.converged
        _assert_encloses(r, [exact.values[s] for s in g.states], 1e-12)
    assert looked.choice.tolist() == plain.choice.tolist()
    assert n_looked < n_plain


def test_lookahead_stops_when_the_greedy_profile_settles() -> None:
    # from the values of the block's optimal profile (policy iteration's last round), the
    # greedy profile after the first checkpoint's sweeps is the one before them: the
    # sweeps stop there, not at the cap
    g, _ = _best_response(8)
    prep = floating._Prepared(g, None, decompose(g))
    s0, s1 = next((a, b) for a, b, kind, _ in floating._blocks(prep) if kind == floating._BLOCK)
    lv = prep.level(s0, s1, merged=True)
    outside = np.full(s1, 0.5)
    outside[s0:s1] = 0.0
    b = lv.q(outside)
    _, solve, x, _ = lv.policy(np.full(s1, 0.5))
    assert solve is not None and x is not None
    before = lv.sweeps
    lv._lookahead(b, b + lv.inner @ x)
    assert lv.sweeps - before == floating._LOOK_STEP < floating._LOOK_CAP


def test_a_block_without_a_certificate_is_solved_level_by_level(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the merged block's certificates refused: its bounds go back to the box and its levels
    # are solved one by one, with certificates, to the same enclosure
    certify = floating._Level.certify
    refused: list[int] = []

    def no_merged(self: Any, *args: Any, **kwargs: Any) -> Any:
        if self.permc == "NATURAL":  # a merged block
            refused.append(self.m)
            return None
        return certify(self, *args, **kwargs)

    monkeypatch.setattr(floating._Level, "certify", no_merged)
    g, exact = _best_response(8)
    result = solve_float(g, decompose(g))
    assert refused and result.converged
    _assert_encloses(result, [exact.values[s] for s in g.states], 1e-12)


def test_a_reward_game_in_blocks_encloses_its_exact_totals() -> None:
    """Pig solitaire to 20 (fewest expected turns; tbsg.sources.pig_solitaire): values
    outside [0, 1] and no finite box, certified block by block."""
    game = tbsg.games.pig_solitaire(20)
    exact = tbsg.solve(game)
    g = exact.graph
    prep = floating._Prepared(g, None, decompose(g))
    assert any(kind == floating._BLOCK for *_, kind, _ in floating._blocks(prep))
    result = solve_float(g, decompose(g))
    assert result.converged
    _assert_encloses(result, [exact.values[s] for s in g.states], 1e-12, relative=True)


@settings(max_examples=60, deadline=None, database=None)
@given(games(states=(2, 7), actions=(1, 3), outcomes=(1, 3), payoffs="score", rewards=True,
             players=(0, 1), ties=False))
def test_everything_merged_holds_the_exact_value_of_random_games(game: TableGame) -> None:
    """Property: with every level with cycles merged into one block (however large), the
    proven bounds still hold the exact value of every state, rewards and payoffs of any
    sign included."""
    exact = tbsg.solve(game)
    g = exact.graph
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(floating, "_MERGE_LEVEL", 10**9)
        mp.setattr(floating, "_MERGE_STATES", 10**9)
        result = solve_float(g, decompose(g), tol=1e-6)
    for i, s in enumerate(g.states):
        assert Fraction(result.lower[i]) <= exact.values[s] <= Fraction(result.upper[i])


def test_the_exact_solution_does_not_depend_on_merging_the_starting_profile(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # float_profile merges small levels too; the exact solver only starts from its profile,
    # so values, strategy and optimal actions are the same without merging
    game = risk_or_safety(12)
    merged = tbsg.best_response(game, 0, _bank_at_first_heads)
    g = merged.graph
    assert any(kind == floating._BLOCK for *_, kind, _ in floating._blocks(
        floating._Prepared(g, None, decompose(g))))
    monkeypatch.setattr(floating, "_MERGE_LEVEL", 0)
    levels = tbsg.best_response(game, 0, _bank_at_first_heads)
    assert levels.states == merged.states
    for s in merged.states:
        assert merged.value(s) == levels.value(s)
        assert merged.action(s) == levels.action(s)
        assert merged.optimal_actions(s) == levels.optimal_actions(s)


def _system_of(lv: Any, pick: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """``I - P_pick`` on the level, dense, in solving order (the definition)."""
    inner: npt.NDArray[np.float64] = lv.full.toarray()[:, lv.s0 : lv.s1]
    return np.eye(lv.m) - inner[pick]


def _some_profile(lv: Any, seed: int) -> npt.NDArray[np.int64]:
    """A random row of each state of the level."""
    rng = np.random.default_rng(seed)
    ends = np.append(lv.seg[1:], len(lv.c))
    return np.asarray(lv.seg + (rng.random(lv.m) * (ends - lv.seg)).astype(np.int64), dtype=np.int64)


@pytest.mark.parametrize("merged", [True, False])
def test_the_factorised_system_is_the_profiles_system(merged: bool) -> None:
    # the CSC matrix handed to SuperLU is (I - P_pick)^T, in a merged block with its states
    # numbered backwards; its solver solves the profile's system in solving order
    g, _ = _best_response(8)
    prep = floating._Prepared(g, None, decompose(g))
    s0, s1 = next((b[0], b[1]) for b in floating._blocks(prep) if b[2] == floating._BLOCK)
    lv = prep.level(s0, s1, merged=merged)
    for seed in range(3):
        pick = _some_profile(lv, seed)
        a = _system_of(lv, pick)
        factorised = lv._transposed_system(pick, None).toarray()
        back = np.arange(lv.m)[::-1]
        assert np.array_equal(factorised, a[back][:, back].T if merged else a.T)
        rhs = np.random.default_rng(seed).random(lv.m)
        solve = lv.factor(pick)
        assert solve is not None
        assert np.max(np.abs(a @ solve(rhs) - rhs)) <= 1e-12


def test_a_profile_changed_in_one_component_is_solved_from_the_others_factors() -> None:
    # a level of several components: after a change in one of them only its component is
    # factorised again, and the patched solver solves the new profile's system
    g, _ = _best_response(8)
    prep = floating._Prepared(g, None, decompose(g))
    s0, s1 = max((part for *_, parts in floating._blocks(prep) for part in parts),
                 key=lambda part: part[1] - part[0])  # the largest level of a block
    lv = prep.level(s0, s1)
    assert lv.comp[-1] >= 2
    pick = _some_profile(lv, 0)
    base = lv.factor(pick)
    assert base is not None
    free = np.flatnonzero(np.diff(np.append(lv.seg, len(lv.c))) > 1)
    state = int(free[-1])
    changed = np.zeros(lv.m, dtype=bool)
    changed[state] = True
    new = pick.copy()
    new[state] = lv.seg[state] + (pick[state] == lv.seg[state])
    sizes: list[int] = []
    system = lv._transposed_system

    def sized(p: npt.NDArray[np.int64], sub: npt.NDArray[np.int64] | None) -> Any:
        sizes.append(lv.m if sub is None else len(sub))
        return system(p, sub)

    lv._transposed_system = sized  # type: ignore[method-assign,assignment]
    solve = lv.factor(new, base, changed)
    assert solve is not None and 0 < sizes[0] < lv.m  # (only the changed component)
    rhs = np.random.default_rng(1).random(lv.m)
    assert np.max(np.abs(_system_of(lv, new) @ solve(rhs) - rhs)) <= 1e-12


def test_the_inside_columns_are_the_slice_of_the_level_matrix() -> None:
    g, _ = _best_response(8)
    prep = floating._Prepared(g, None, decompose(g))
    for s0, s1, kind, _ in floating._blocks(prep):
        if kind in (floating._BLOCK, floating._CYCLIC):
            lv = prep.level(s0, s1)
            assert np.array_equal(lv.inner.toarray(), lv.full.toarray()[:, s0:s1])


def test_a_near_tie_with_a_longer_stay_is_certified_through_the_longest_stays(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Player 0 at state 0 may stop for a draw or go to state 1, from which play comes back
    to 0 with probability 3/4 and ends in a draw with 1/4: both actions are worth 1/2
    (by hand: v1 = 3/4 v0 + 1/4 * 1/2 = 1/2 when v0 = 1/2), but going stays longer in the
    level than the profile's stop. The upper certificate with stop's own stays fails at
    the go row; with the longest stays it holds, and the bounds enclose 1/2."""
    g = compile_game(TableGame(players=(0, 0), moves=(
        (("stop", ((1, DRAW),)), ("go", ((1, 1),))),
        (("back", ((Fraction(3, 4), 0), (Fraction(1, 4), DRAW))),),
    )))
    longest = floating._Level._longest_stays
    used: list[int] = []

    def counted(self: Any, *args: Any) -> Any:
        used.append(self.m)
        return longest(self, *args)

    monkeypatch.setattr(floating._Level, "_longest_stays", counted)
    result = solve_float(g, decompose(g))
    assert used and result.converged
    _assert_encloses(result, [H, H])
