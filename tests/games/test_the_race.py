"""The Race, Project Euler 232 (seed 003): the published answer recomputed exactly.

Known answers name where the source prints them (seed 003). Values it does not print,
pinned from tbsg's own output to catch regressions, are marked
``# regression pin: tbsg's own output, not a source value``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pytest

import tbsg
from tbsg.errors import InvalidGameError
from tbsg.games.the_race import (
    PLAYER_1,
    PLAYER_2,
    RaceState,
    TheRace,
    the_race,
    the_race_length,
    the_race_strategy,
)
from tbsg.sources import the_race as source
from tbsg.sources.check import decimal_match


@pytest.fixture(scope="module")
def solution() -> tbsg.Solution[RaceState, int]:
    return tbsg.solve(the_race(100))


def test_published_answer(solution: tbsg.Solution[RaceState, int]) -> None:
    # seed 003, "Answer: 0.83648556" (P(player 2 wins), goal 100)
    sol = solution
    assert sol.n_states == 20000  # 2 * 100**2 states, as the module docstring counts them
    assert sol.player() == PLAYER_1  # Project Euler's player 1 moves first
    assert decimal_match("0.83648556", sol.value())
    # seed 003, "Final answer": the solution also prints 0.8364855558...
    assert decimal_match("0.8364855558", sol.value())


@pytest.mark.slow
def test_source_rows() -> None:
    # seed 003's answer, as `tbsg reproduce` shows it
    rows = source.checks()
    assert len(rows) == 1 and rows[0].match
    assert source.KNOWN_DISCREPANCIES == ()


@pytest.mark.slow
def test_strategy_function_goal_100(solution: tbsg.Solution[RaceState, int]) -> None:
    strategy = the_race_strategy(100)
    assert strategy == {(a, b): solution.action(RaceState(PLAYER_2, a, b))
                        for a in range(100) for b in range(100)}


def test_strategy_goal_100(solution: tbsg.Solution[RaceState, int]) -> None:
    # Player 2's optimal T by score: always within 1..T*, no exact ties, T = 1 when one
    # point is needed, and the opening move (0, 0) is T = 4 (beyond the source).
    # regression pin: tbsg's own output, not a source value (T = 4 at (0, 0), max T = 8)
    ties = {(a, b): solution.optimal_actions(RaceState(PLAYER_2, a, b))
            for a in range(100) for b in range(100)}
    assert all(len(v) == 1 for v in ties.values())
    strategy = {k: v[0] for k, v in ties.items()}
    assert all(1 <= t <= 8 for t in strategy.values())
    assert all(strategy[a, 99] == 1 for a in range(100))
    assert strategy[0, 0] == 4
    assert max(strategy.values()) == 8


# --- beyond the source: an independent float DP (the seed's elimination) -------------


def _float_dp(goal: int) -> tuple[list[list[float]], list[list[float]], list[list[int]]]:
    """P[a][b] (player 1 to move), Q[a][b] (player 2 to move), argmax T; floats."""
    tmax = max(1, (goal - 1).bit_length() + 1) + 1  # one more than needed, on purpose
    width = goal + 2**tmax
    p = [[1.0 if b >= goal else 0.0 for b in range(width)] for _ in range(goal + 1)]
    q = [[1.0 if b >= goal else 0.0 for b in range(width)] for _ in range(goal + 1)]
    arg = [[0] * goal for _ in range(goal)]
    for a in range(goal - 1, -1, -1):
        for b in range(goal - 1, -1, -1):
            next_q = 0.0 if a + 1 >= goal else q[a + 1][b]
            best, best_t = -1.0, 0
            for t in range(1, tmax + 1):
                pt = 2.0**-t
                succ = p[a][b + 2 ** (t - 1)]
                value = (pt * succ + 0.5 * (1 - pt) * next_q) / (1 - 0.5 * (1 - pt))
                if value > best + 1e-12:
                    best, best_t = value, t
            q[a][b] = best
            arg[a][b] = best_t
            p[a][b] = 0.5 * next_q + 0.5 * q[a][b]
    return p, q, arg


@pytest.mark.parametrize("goal", [1, 2, 3, 5, 8, 13, 20, 30])
def test_matches_float_dp(goal: int) -> None:
    game = the_race(goal)
    sol = tbsg.solve(game)
    p, q, arg = _float_dp(goal)
    strategy = the_race_strategy(goal)
    for a in range(goal):
        for b in range(goal):
            assert float(sol.value(RaceState(PLAYER_1, a, b))) == pytest.approx(p[a][b], abs=1e-12)
            assert float(sol.value(RaceState(PLAYER_2, a, b))) == pytest.approx(q[a][b], abs=1e-12)
            assert strategy[a, b] == arg[a][b]


def test_goal_two_by_hand() -> None:
    # goal 1: P = Q/2, Q = 1/2 + P/2, so P = 1/3
    assert tbsg.solve(the_race(1)).value() == Fraction(1, 3)
    # goal 2, by hand from the two-state cycles: P(1,1) = 1/3, P(1,0) = 1/5 (T = 2),
    # P(0,1) = 7/9, and at (0,0) T = 1 gives 71/135 > 13/25 (T = 2)
    game = the_race(2)
    sol = tbsg.solve(game)
    assert sol.value() == Fraction(71, 135)
    assert [sol.value(game.position(a, b)) for a, b in ((1, 1), (1, 0), (0, 1))] == [
        Fraction(1, 3), Fraction(1, 5), Fraction(7, 9)]
    assert sol.action_values(game.position(0, 0, player2_to_move=True)) == {
        1: Fraction(1, 2) * Fraction(7, 9) + Fraction(1, 2) * Fraction(71, 135),
        2: Fraction(1, 4) + Fraction(3, 4) * Fraction(71, 135)}


class _MoreTosses(TheRace):
    """The Race with player 2 allowed up to ``T* + 3`` tosses."""

    def actions(self, s: RaceState) -> Sequence[int]:
        acts = super().actions(s)
        return acts if s.mover == PLAYER_1 else tuple(range(1, len(acts) + 4))


@pytest.mark.parametrize("goal", [1, 2, 5, 9, 16, 17])
def test_larger_t_never_better(goal: int) -> None:
    # the module's argument, checked by the solver: T > T* never optimal, same values
    base, wide = tbsg.solve(the_race(goal)), tbsg.solve(_MoreTosses(goal))
    assert base.value() == wide.value()
    for s in base.states:
        assert wide.value(s) == base.value(s)
        if s.mover == PLAYER_2:
            assert wide.optimal_actions(s) == base.optimal_actions(s)


def test_validation() -> None:
    for bad in (0, -3, 1.5, True):
        with pytest.raises(InvalidGameError):
            the_race(bad)  # type: ignore[arg-type]
    game = the_race(10)
    assert game.position(3, 4) == RaceState(PLAYER_1, 3, 4)
    assert game.position(3, 4, player2_to_move=True) == RaceState(PLAYER_2, 3, 4)
    with pytest.raises(InvalidGameError):
        game.position(10, 0)


# --- expected number of rounds ----------------------------------------------------------
# Project Euler 232 (seed 003) asks only for the winning chance; no source states a game
# length. A round is player 1's turn and player 2's that follows (player 1 goes first).

def test_length_by_hand_goal_1() -> None:
    # Goal 1: player 1's toss wins w.p. 1/2; player 2's T is 1 (2^0 >= 1) and wins w.p.
    # 1/2. A round ends the game w.p. 1/2 + 1/4 = 3/4: rounds geometric, mean 4/3. Every
    # turn ends it w.p. 1/2: 2 turns, each one toss: 2 tosses. P(player 2 wins): she wins
    # w.p. 1/4 per round, 1/3 overall.
    r = the_race_length(1)
    assert (r.rounds, r.turns, r.tosses) == (Fraction(4, 3), 2, 2)
    assert r.player2_wins == Fraction(1, 3)
    assert r.rounds_fastest == r.rounds == r.rounds_slowest


@pytest.mark.parametrize("goal", [2, 3, 5, 8, 13])
def test_length_relations(goal: int) -> None:
    r = the_race_length(goal)
    # every round but one player 1 wins has a turn of player 2
    assert r.turns == 2 * r.rounds - (1 - r.player2_wins)
    # player 1 needs `goal` heads, one per round: at least `goal` rounds when he wins;
    # every turn tosses at least once
    assert r.rounds >= goal * (1 - r.player2_wins)
    assert r.turns <= r.tosses
    assert r.player2_wins == tbsg.solve(the_race(goal)).value()
    # no exact tie of player 2 for these goals (the_race_ties): one optimal profile
    assert r.rounds_fastest == r.rounds == r.rounds_slowest
    assert r.rounds < the_race_length(goal + 1).rounds


def test_length_goal_100() -> None:
    # the problem's game: P(player 2 wins) as Project Euler 232 (seed 003) prints it, and
    # the length relations; the rounds are a regression pin (tbsg's own output)
    r = the_race_length(100)
    assert decimal_match(source.ANSWER, r.player2_wins)
    assert r.turns == 2 * r.rounds - (1 - r.player2_wins)
    assert round(float(r.rounds), 6) == 178.615473
