"""Coinball (seed 001): published values recomputed exactly, and checks beyond the source.

Known answers name where the source prints them (seed 001, its solution). Values the
source does not print, pinned from tbsg's own output to catch regressions, are marked
``# regression pin: tbsg's own output, not a source value``.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

import tbsg
from tbsg.errors import InvalidGameError
from tbsg.games.coinball import (
    Action,
    CoinballState,
    coinball,
    coinball_outcomes,
    coinball_summary_check,
    coinball_summary_rule,
)
from tbsg.sources import coinball as source
from tbsg.sources.check import decimal_match

HALF = Fraction(1, 2)


@pytest.fixture(scope="module")
def solution() -> tbsg.Solution[CoinballState, Action]:
    return tbsg.solve(coinball(100))


def _best_response_value(tosses: int, action: Action) -> Fraction:
    sol = tbsg.best_response(coinball(tosses), 0, lambda s: action)
    assert isinstance(sol, tbsg.Solution)
    return sol.value()


# --- published numbers -------------------------------------------------------------


def test_vs_always_rush() -> None:
    # seed 001, solution, "Opponent always rushes or always passes": about .601766458853
    assert decimal_match("0.601766458853", _best_response_value(100, "rush"))


def test_vs_always_pass() -> None:
    # seed 001, solution: "the first player's expected wins per game is about .558341814467"
    assert decimal_match("0.558341814467", _best_response_value(100, "pass"))


def test_both_optimal(solution: tbsg.Solution[CoinballState, Action]) -> None:
    # seed 001, solution, "Opponent plays optimally": about .489818590457
    assert decimal_match("0.489818590457", solution.value())
    assert solution.n_states == 19899  # regression pin: tbsg's own output, not a source value


def test_better_to_go_second(solution: tbsg.Solution[CoinballState, Action]) -> None:
    # seed 001, solution: "In this case it's better to go second."
    assert solution.value() < HALF


def test_verbal_summary() -> None:
    # seed 001, solution: "If you're losing, pass. If you're winning, rush. If it's tied, ...
    # divisible by 4, pass; otherwise, if it's after turn 92 and you went first or it's the
    # very last turn, it's a wash; otherwise, rush."
    c = coinball_summary_check(100)
    assert c.never_wrong  # every action it names is optimal, every wash is an exact tie
    # regression pin: tbsg's own output, not a source value (the counts and the states below)
    assert (c.states, c.exact, c.missed_tie, c.missed_tie_decided) == (19899, 8715, 11184, 11172)
    undecided = {(t, lead) for t, lead, _, _ in c.examples["missed_tie"]}
    assert undecided == {(92, 0), (96, 0),                                 # ties: a wash too
                         (91, -1), (93, -1), (95, -1), (97, -1), (98, -1),  # rush as good
                         (96, 1), (98, 1), (97, 2), (97, 3), (98, 2)}       # pass as good


def test_wash_claims_exact(solution: tbsg.Solution[CoinballState, Action]) -> None:
    # seed 001: the washes the summary names (tied after turn 92 going first, or last turn)
    for t in (94, 98, 99):
        assert set(solution.optimal_actions(CoinballState(t, 0))) == {"rush", "pass"}
    for t in range(2, 92, 4):  # tied, completed turns not divisible by 4: rush only
        assert solution.optimal_actions(CoinballState(t, 0)) == ("rush",)
    for t in range(0, 92, 4):  # divisible by 4 (before 92): pass only
        assert solution.optimal_actions(CoinballState(t, 0)) == ("pass",)


def test_source_rows() -> None:
    # every quantity seed 001 prints, as `tbsg reproduce` shows them
    rows = source.checks()
    assert len(rows) == 5
    assert all(r.match for r in rows), [r for r in rows if not r.match]
    assert source.KNOWN_DISCREPANCIES == ()


# --- beyond the source --------------------------------------------------------------


def _source_dp(n: int) -> dict[tuple[int, int, int], Fraction]:
    """The source's recurrence for E(t, m, y), in exact arithmetic (independent code)."""

    @cache
    def e(t: int, m: int, y: int) -> Fraction:
        if t == n:
            return Fraction(1) if m > y else Fraction(0) if y > m else HALF
        rush = 1 - HALF * (e(t + 1, y, m + 1) + e(t + 1, y + 1, m))
        pss = 1 - HALF * (e(t + 1, y, m + 2) + e(t + 1, y + 2, m))
        return max(rush, pss)

    return {(t, m, y): e(t, m, y) for t in range(n) for m in range(2 * t + 1)
            for y in range(max(0, t - m), 2 * t - m + 1)}


@pytest.mark.parametrize("n", [1, 2, 3, 4, 7, 10, 13])
def test_matches_source_recurrence(n: int) -> None:
    game = coinball(n)
    sol = tbsg.solve(game)
    for (t, m, y), e in _source_dp(n).items():
        s = game.position(t, m, y)
        if s in sol.values:
            assert sol.value_to_move(s) == e


def _fixed_opponent_dp(n: int, opp: int) -> Fraction:
    """The source's two-toss recurrence against an opponent always gaining ``opp``."""

    @cache
    def e(t: int, d: int) -> Fraction:  # d: my lead, my call, t tosses done
        if t == n:
            return Fraction(1) if d > 0 else Fraction(0) if d < 0 else HALF
        best = Fraction(0)
        for g in (1, 2):
            q = Fraction(0)
            for mine in (g, -g):
                for theirs in (opp, -opp):
                    q += e(t + 2, d + mine - theirs) / 4
            best = max(best, q)
        return best

    return e(0, 0)


@pytest.mark.parametrize("n", [2, 4, 6, 10, 20])
def test_best_responses_small(n: int) -> None:
    assert _best_response_value(n, "rush") == _fixed_opponent_dp(n, 1)
    assert _best_response_value(n, "pass") == _fixed_opponent_dp(n, 2)


def test_small_games_exact() -> None:
    assert tbsg.solve(coinball(1)).value() == HALF
    assert tbsg.solve(coinball(2)).value() == Fraction(3, 8)  # by hand: 3/8 either way
    # regression pin: tbsg's own output, not a source value
    assert tbsg.solve(coinball(4)).value() == Fraction(7, 16)


def test_second_player_advantage_other_lengths() -> None:
    # beyond the source: going second is better (strictly) for every even length 4..40
    for n in range(4, 41, 2):
        assert tbsg.solve(coinball(n)).value() < HALF, n


def test_summary_rule_counted_from_end() -> None:
    # beyond the source: with turns counted from the end, the rule is never wrong
    for n in range(1, 41):
        assert coinball_summary_check(n).never_wrong, n
    assert coinball_summary_rule(0, 0, 100) == {"pass"}
    assert coinball_summary_rule(99, 0, 100) == {"rush", "pass"}
    assert coinball_summary_rule(50, -3) == {"pass"}
    assert coinball_summary_rule(50, 3) == {"rush"}


def test_position_mapping() -> None:
    game = coinball(10)
    assert game.position(0, 0, 0) == CoinballState(0, 0)
    assert game.position(3, 4, 1) == CoinballState(3, -3)  # player 1 calls, leads by 3
    assert game.position(2, 1, 3) == CoinballState(2, -2)
    with pytest.raises(InvalidGameError):
        game.position(10, 5, 5)
    with pytest.raises(InvalidGameError):
        game.position(2, 5, 5)
    for bad in (0, -1, 2.0, True):
        with pytest.raises(InvalidGameError):
            coinball(bad)  # type: ignore[arg-type]


# --- how games end: draws and passes ----------------------------------------------------
# The source (seed 001) states no draw probability and no number of passes: the small cases
# are derived by hand, the rest are relations between tbsg's answers.

def test_outcomes_two_tosses_by_hand() -> None:
    # Two tosses, player 0 calls first, player 1 last. Player 1 at lead L (player 0's):
    # L = +1: rush -> 0 or 2 (3/4 to player 0), pass -> -1 or 3 (1/2): pass, no draw.
    # L = -1: rush -> -2 or 0 (1/4), pass -> -3 or 1 (1/2): rush, draw w.p. 1/2.
    # L = +2: rush -> 1 or 3 (1), pass -> 0 or 4 (3/4): pass, draw w.p. 1/2.
    # L = -2: rush -> -3 or -1 (0), pass -> -4 or 0 (1/4): rush, no draw.
    # Player 0 rushes: 1/2 * 1/2 + 1/2 * 1/4 = 3/8, passes: 1/2 * 3/4 + 1/2 * 0 = 3/8: a tie.
    # Draw: 1/2 * 1/2 = 1/4 either way. Passes: rush line 1/2 (player 1 passes at +1),
    # pass line 1 + 1/2 = 3/2.
    opt, rush, pass_ = coinball_outcomes(2)
    assert (opt.opponent, opt.value) == ("optimal", Fraction(3, 8))
    assert opt.draw == opt.draw_least == opt.draw_most == Fraction(1, 4)
    assert (opt.passes_fewest, opt.passes_most) == (Fraction(1, 2), Fraction(3, 2))
    assert (opt.win(), opt.loss()) == (Fraction(1, 4), Fraction(1, 2))
    # Against always rush: player 0 rushes -> +-1, then the rush gives 0/2 or -2/0: 1/2,
    # draw 1/2; passes -> +-2, then 1/3 or -3/-1: 1/2, no draw. A tie: draws 0 to 1/2.
    # Passes: 0 (rush) to 1 (pass); the opponent never passes.
    assert (rush.value, rush.draw_least, rush.draw_most) == (HALF, 0, HALF)
    assert (rush.passes_fewest, rush.passes_most) == (0, 1)
    # Against always pass: rush -> +-1, then -1/3 or -3/1: 1/2, no draw; pass -> +-2, then
    # 0/4 or -4/0: 1/2, draw 1/2. A tie again: draws 0 to 1/2; passes 1 (the opponent's)
    # to 2.
    assert (pass_.value, pass_.draw_least, pass_.draw_most) == (HALF, 0, HALF)
    assert (pass_.passes_fewest, pass_.passes_most) == (1, 2)


@pytest.mark.parametrize("tosses", [1, 3, 4, 7, 10])
def test_outcomes_relations(tosses: int) -> None:
    game = coinball(tosses)
    rows = coinball_outcomes(tosses)
    assert [r.opponent for r in rows] == ["optimal", "rush", "pass"]
    for r in rows:
        sol = (tbsg.solve(game) if r.opponent == "optimal"
               else tbsg.best_response(game, 0, lambda s, c=r.opponent: c))
        split = tbsg.chain(game, sol).outcome_probabilities()
        # the split sums to 1 and reproduces the value (a draw counts one half)
        assert sum(split.values()) == 1
        assert sum(p * q for p, q in split.items()) == r.value == sol.value()
        assert (split.get(Fraction(1), 0), split.get(HALF, 0), split.get(Fraction(0), 0)) == (
            r.win(), r.draw, r.loss())
        assert r.draw_least <= r.draw <= r.draw_most
        assert min(r.win(r.draw_most), r.loss(r.draw_most)) >= 0
        assert 0 <= r.passes_fewest <= r.passes_most <= tosses
    # a fixed opponent who always passes contributes one pass per call
    assert rows[2].passes_fewest >= tosses // 2


def test_outcomes_tie_breaking_matters_at_100() -> None:
    # With 100 tosses the optimal profiles draw with different probabilities, and the
    # solution's own strategy is one of them (regression pins: tbsg's own output, not a
    # source value; seed 001 gives only the expectations, checked here to 12 digits)
    opt, rush, pass_ = coinball_outcomes(100)
    assert decimal_match(source.OPTIMAL, opt.value)
    assert decimal_match(source.BEST_RESPONSES["rush"], rush.value)
    assert decimal_match(source.BEST_RESPONSES["pass"], pass_.value)
    for r in (opt, rush, pass_):
        assert r.draw_least < r.draw_most and r.passes_fewest < r.passes_most
    assert round(float(opt.draw_least), 6) == 0.023039
    assert round(float(opt.draw_most), 6) == 0.027303
    assert round(float(opt.passes_fewest), 4) == 47.3094
    assert round(float(opt.passes_most), 4) == 54.6283
