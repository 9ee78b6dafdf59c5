"""Known answers for Risk or Safety (seed 000: R. Jehn, "Optimal strategy in the game Risk
or Safety", arXiv 2603.01002, 2026). Every test names the section it checks.

Values the paper does not print, pinned from tbsg's own output to catch regressions, are
marked ``# regression pin: tbsg's own output, not a source value``.

Notation: the paper's position ``(a0, a1, b)`` is (open points, saved points of the
player to move, saved points of the opponent) and ``P(a0, a1, b)`` the mover's chance
to win; in tbsg that is ``RoSState(mover, a0, a1, b)`` and ``solution.value_to_move``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction
from typing import Literal

import pytest

import tbsg
from oracles import gauss_jordan
from tbsg.errors import InvalidGameError
from tbsg.games import (
    RiskOrSafety,
    RoSState,
    risk_or_safety,
    risk_or_safety_coin_table,
    risk_or_safety_lengths,
)
from tbsg.sources import risk_or_safety as source

H = Fraction(1, 2)
Pos = tuple[int, int, int]
Move = Literal["toss", "stop"]


def stop_at(stops: set[Pos]) -> Callable[[RoSState], Move]:
    """The symmetric strategy (both players) that stops exactly at the given positions."""
    def strategy(s: RoSState) -> Move:
        return "stop" if (s.open, s.saved, s.other) in stops else "toss"
    return strategy


def p_of(sol: tbsg.Solution[RoSState, Move], n: int) -> Callable[[int, int, int], Fraction]:
    """The paper's P(a0, a1, b) (player 0 to move), with P = 1 once a0 + a1 reaches n."""
    def p(a0: int, a1: int, b: int) -> Fraction:
        if a0 + a1 >= n:
            return Fraction(1)
        return sol.value_to_move(RoSState(0, a0, a1, b))
    return p


def reached_under(game: RiskOrSafety, strategy: Callable[[RoSState], Move]) -> set[RoSState]:
    """Positions reached with positive probability when both players follow ``strategy``."""
    reached, todo = {game.initial}, [game.initial]
    while todo:
        s = todo.pop()
        for _, nxt in game.outcomes(s, strategy(s)):
            if isinstance(nxt, RoSState) and nxt not in reached:
                reached.add(nxt)
                todo.append(nxt)
    return reached


def decision_positions(n: int) -> list[RoSState]:
    """Every position of the game to ``n`` with a choice (at least one open point)."""
    return [RoSState(m, a0, a1, b) for m in (0, 1) for a1 in range(n) for b in range(n)
            for a0 in range(1, n - a1)]


# --- abstract, sections 2 and 3: P(0,0,0) ------------------------------------------------

# seed 000 (Jehn 2026): section 2 (n = 1: 2/3; n = 3: 6/11), section 3.1 (n = 2: 4/7),
# section 3.3 (n = 4: 2236/4165, n = 5: 1026/1925, n = 6: 275848876/521145625)
@pytest.mark.parametrize(("n", "expected"), [
    (1, Fraction(2, 3)), (2, Fraction(4, 7)), (3, Fraction(6, 11)), (4, Fraction(2236, 4165)),
    (5, Fraction(1026, 1925)), (6, Fraction(275848876, 521145625)),
])
def test_first_player_winning_probability(n: int, expected: Fraction) -> None:
    sol = tbsg.solve(risk_or_safety(n))
    assert type(sol.value()) is Fraction
    assert sol.value() == expected
    assert sol.value_to_move(RoSState(0, 0, 0, 0)) == expected


# --- section 2: the worked example for n = 3 ---------------------------------------------

def test_section2_intermediate_values_n3() -> None:
    # seed 000 (Jehn 2026), section 2: values "calculated in previous steps" and the results
    # of equations (1)-(6)
    game = risk_or_safety(3)
    sol = tbsg.solve(game)
    p = {pos: sol.value_to_move(game.position(*pos)) for pos in
         [(0, 2, 0), (0, 1, 0), (0, 2, 1), (0, 2, 2), (0, 1, 1), (0, 1, 2), (0, 0, 1), (0, 0, 2)]}
    assert p == {
        (0, 2, 0): Fraction(8, 9), (0, 1, 0): Fraction(8, 11), (0, 2, 1): Fraction(4, 5),
        (0, 2, 2): Fraction(2, 3), (0, 1, 1): Fraction(4, 7), (0, 1, 2): Fraction(2, 5),
        (0, 0, 1): Fraction(4, 11), (0, 0, 2): Fraction(2, 9),
    }


def test_section2_x_and_y_values_n3() -> None:
    # seed 000 (Jehn 2026), section 2: x_k = chance of the paper's player 1 (tbsg player 0)
    # when player 1 is to move with k points saved and player 2 none; y_k the same chance
    # when player 2 is to move. x2 = 8/9, y2 = 7/9, x1 = 8/11, y1 = 7/11, x0 = 6/11, y0 = 5/11.
    sol = tbsg.solve(risk_or_safety(3))
    x = {k: sol.value(RoSState(0, 0, k, 0)) for k in range(3)}
    y = {k: sol.value(RoSState(1, 0, 0, k)) for k in range(3)}  # player 2 to move, player 1 has k
    assert x == {2: Fraction(8, 9), 1: Fraction(8, 11), 0: Fraction(6, 11)}
    assert y == {2: Fraction(7, 9), 1: Fraction(7, 11), 0: Fraction(5, 11)}
    # y_k is also 1 - P(0, 0, k): the mover's view of the same position
    assert all(y[k] == 1 - sol.value_to_move(RoSState(0, 0, 0, k)) for k in range(3))


def test_section2_equations_1_to_6_n3() -> None:
    # seed 000 (Jehn 2026), section 2, equations (1)-(6): the solved values satisfy them
    sol = tbsg.solve(risk_or_safety(3))
    x = {k: sol.value(RoSState(0, 0, k, 0)) for k in range(3)}
    y = {k: sol.value(RoSState(1, 0, 0, k)) for k in range(3)}
    q = Fraction(1, 4)
    e = Fraction(1, 8)
    assert x[2] == H + H * y[2]  # (1)
    assert y[2] == min(H * x[2] + Fraction(2, 5), 3 * q * x[2] + Fraction(1, 6), 7 * e * x[2])  # (2)
    assert x[1] == max(H * y[1] + Fraction(7, 18), 3 * q * y[1] + q)  # (3)
    assert y[1] == min(H * x[1] + Fraction(2, 7), 3 * q * x[1] + Fraction(1, 10), 7 * e * x[1])  # (4)
    assert x[0] == max(H * y[0] + Fraction(7, 22), 3 * q * y[0] + Fraction(7, 36),
                       7 * e * y[0] + e)  # (5)
    assert y[0] == min(H * x[0] + Fraction(2, 11), 3 * q * x[0] + Fraction(1, 18), 7 * e * x[0])  # (6)


def test_section2_both_players_use_the_same_strategy() -> None:
    # seed 000 (Jehn 2026), abstract and end of section 2: the solution is symmetric, both
    # players apply the same optimal strategy and have the same chances in the same position
    for n in range(1, 7):
        sol = tbsg.solve(risk_or_safety(n))
        for a1 in range(n):
            for b in range(n):
                for a0 in range(n - a1):
                    me, you = RoSState(0, a0, a1, b), RoSState(1, a0, a1, b)
                    assert sol.value_to_move(me) == sol.value_to_move(you), (n, me)
                    assert sol.optimal_actions(me) == sol.optimal_actions(you), (n, me)


# --- section 3.1: two points to win -------------------------------------------------------

def test_section31_n2_strategies() -> None:
    # seed 000 (Jehn 2026), section 3.1: strategy 1 = continue at (1,0,0): P000 = 4/7;
    # strategy 2 = stop at (1,0,0), continue at (1,0,1): P000 = 8/15 and P001 = 2/5;
    # strategy 3 = stop at (1,0,0) and at (1,0,1): P001 = 2/9; P011 = 2/3 in every strategy
    game = risk_or_safety(2)
    s1 = tbsg.evaluate(game, stop_at(set()), reach="game")
    s2 = tbsg.evaluate(game, stop_at({(1, 0, 0)}), reach="game")  # positions it need not reach
    s3 = tbsg.evaluate(game, stop_at({(1, 0, 0), (1, 0, 1)}), reach="game")
    assert s1.value() == Fraction(4, 7)
    assert s2.value() == Fraction(8, 15)
    assert s2.value_to_move(game.position(0, 0, 1)) == Fraction(2, 5)
    assert s3.value_to_move(game.position(0, 0, 1)) == Fraction(2, 9)
    for s in (s1, s2, s3):
        assert s.value_to_move(game.position(0, 1, 1)) == Fraction(2, 3)
    # "Hence strategy 1 is optimal"
    sol = tbsg.solve(game)
    assert sol.value() == s1.value()
    assert sol.optimal_actions(game.position(1, 0, 0)) == ("toss",)


def test_section31_n2_equations() -> None:
    # seed 000 (Jehn 2026), section 3.1: the five transition equations hold under optimal play
    sol = tbsg.solve(risk_or_safety(2))
    p = p_of(sol, 2)
    assert p(0, 0, 0) == max(H * (1 - p(0, 0, 0)) + H * p(1, 0, 0),
                             H * (1 - p(0, 0, 0)) + H * (1 - p(0, 0, 1)))
    assert p(0, 0, 1) == max(H * (1 - p(0, 1, 0)) + H * p(1, 0, 1),
                             H * (1 - p(0, 1, 0)) + H * (1 - p(0, 1, 1)))
    assert p(0, 1, 0) == H * (1 - p(0, 0, 1)) + H
    assert p(1, 0, 0) == H * (1 - p(0, 0, 0)) + H
    assert p(1, 0, 1) == H * (1 - p(0, 1, 0)) + H


# --- section 3.2: three points to win -----------------------------------------------------

# seed 000 (Jehn 2026), section 3.2, tree of the left branch (continue at (1,0,0)): strategy
# 1 continues at (2,0,0); 2-5 stop there, then 2: continue at (1,0,2) and (2,0,2); 3: continue
# at (1,0,2), stop at (2,0,2); 4: stop at (1,0,2), continue at (1,1,2); 5: stop at (1,0,2)
# and (1,1,2). Positions not listed are "continue"; none of them is reached from (0,0,0).
N3_STRATEGIES: dict[int, set[Pos]] = {
    1: set(),
    2: {(2, 0, 0)},
    3: {(2, 0, 0), (2, 0, 2)},
    4: {(2, 0, 0), (1, 0, 2)},
    5: {(2, 0, 0), (1, 0, 2), (1, 1, 2)},
}


def _n3(k: int) -> tbsg.Solution[RoSState, Move]:
    return tbsg.evaluate(risk_or_safety(3), stop_at(N3_STRATEGIES[k]))


def test_section32_strategy_2_against_3_at_102() -> None:
    # seed 000 (Jehn 2026), section 3.2: at (1,0,2) 1/3 (strategy 2) against 1/5 (strategy 3)
    game = risk_or_safety(3)
    assert _n3(2).value_to_move(game.position(1, 0, 2)) == Fraction(1, 3)
    assert _n3(3).value_to_move(game.position(1, 0, 2)) == Fraction(1, 5)


def test_section32_strategy_2_against_4_at_002() -> None:
    # seed 000 (Jehn 2026), section 3.2: at (0,0,2) 2/9 (strategy 2) against 2/15 (strategy 4)
    game = risk_or_safety(3)
    assert _n3(2).value_to_move(game.position(0, 0, 2)) == Fraction(2, 9)
    assert _n3(4).value_to_move(game.position(0, 0, 2)) == Fraction(2, 15)


def test_section32_strategy_4_beats_5() -> None:
    # seed 000 (Jehn 2026), section 3.2: "from n = 2 ... strategy 4 is superior" to 5 (they
    # differ at (1,1,2), which is (1,0,1) of the game to 2 points)
    game = risk_or_safety(3)
    for pos in [(0, 0, 2), (1, 0, 2), (0, 1, 2), (1, 1, 2)]:
        assert _n3(4).value_to_move(game.position(*pos)) > _n3(5).value_to_move(game.position(*pos))


def test_section32_strategy_1_against_2_at_100() -> None:
    # seed 000 (Jehn 2026), section 3.2: at (1,0,0) 3/5 (strategy 1, continue) against 13/21
    # (strategy 2, stop), "which is slightly larger"
    game = risk_or_safety(3)
    assert _n3(1).value_to_move(game.position(1, 0, 0)) == Fraction(3, 5)
    assert _n3(2).value_to_move(game.position(1, 0, 0)) == Fraction(13, 21)


def test_section32_optimal_strategy_n3() -> None:
    # seed 000 (Jehn 2026), end of section 3.2: "continue in all situations except at
    # position (1, 0, 0) where it is recommended to stop", value 6/11
    game = risk_or_safety(3)
    paper = stop_at({(1, 0, 0)})
    assert tbsg.evaluate(game, paper).value() == Fraction(6, 11)
    sol = tbsg.solve(game)
    for s in reached_under(game, paper):
        if s.open >= 1:
            assert sol.optimal_actions(s) == (paper(s),), s


# --- section 3.3: four points to win ------------------------------------------------------

N4_STOPS: set[Pos] = {(1, 2, 0), (2, 0, 0), (2, 0, 2)}


def test_section33_optimal_strategy_n4() -> None:
    # seed 000 (Jehn 2026), section 3.3: for n = 4 "stop at (1,2,0), (2,0,0) and (2,0,2) and
    # else continue", value 2236/4165. Checked at every decision reached under that play.
    game = risk_or_safety(4)
    paper = stop_at(N4_STOPS)
    assert tbsg.evaluate(game, paper).value() == Fraction(2236, 4165)
    sol = tbsg.solve(game)
    reached = reached_under(game, paper)
    decisions = [s for s in reached if s.open >= 1]
    assert len(decisions) >= 15
    for s in decisions:
        assert sol.action(s) == paper(s), s
        assert sol.optimal_actions(s) == (paper(s),), s


def test_section33_literal_reading_fails_only_off_the_path_of_play() -> None:
    # seed 000 (Jehn 2026), section 3.3, read literally ("else continue" at *every* position)
    # the sentence is wrong at positions never reached under optimal play, e.g. (3,0,0):
    # once (2,0,0) is a stop, stopping at (3,0,0) (15/17) beats continuing (3047/4165).
    # regression pin: tbsg's own output, not a source value (15/17 and 3047/4165)
    game = risk_or_safety(4)
    sol = tbsg.solve(game)
    paper = stop_at(N4_STOPS)
    wrong = {s for s in decision_positions(4) if sol.optimal_actions(s) != (paper(s),)}
    assert RoSState(0, 3, 0, 0) in wrong
    assert sol.action_values(RoSState(0, 3, 0, 0)) == {"toss": Fraction(3047, 4165),
                                                         "stop": Fraction(15, 17)}
    assert not wrong & reached_under(game, paper)
    assert not wrong & reached_under(game, sol.action)


# --- section 4: equation (7) ---------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_section4_equation_7(n: int) -> None:
    # seed 000 (Jehn 2026), section 4, equation (7): P(0,b,c) = 1/3 + 2/3 P(1,b,c) - 1/3 P(1,c,b)
    sol = tbsg.solve(risk_or_safety(n))
    p = p_of(sol, n)
    third = Fraction(1, 3)
    for b in range(n):
        for c in range(n):
            assert p(0, b, c) == third + 2 * third * p(1, b, c) - third * p(1, c, b), (b, c)


# --- section 5 -----------------------------------------------------------------------------

@pytest.mark.parametrize("n", range(2, 9))
def test_section5_all_in_when_opponent_needs_one_point(n: int) -> None:
    # seed 000 (Jehn 2026), section 5: "In the case where the opponent needs only one more
    # point, player 1 must go 'all in', which means always continue" -- strictly, at every
    # position (reached or not), for both players
    sol = tbsg.solve(risk_or_safety(n))
    positions = [s for s in decision_positions(n) if s.other == n - 1]
    assert positions
    for s in positions:
        assert sol.optimal_actions(s) == ("toss",), s
        values = sol.action_values(s)
        assert (values["toss"] > values["stop"]) if s.mover == 0 else (values["toss"] < values["stop"])


@pytest.mark.parametrize("n", range(2, 9))
def test_section5_all_in_probability(n: int) -> None:
    # seed 000 (Jehn 2026), section 5: needing m points against an opponent who needs one,
    # P_all = 2 p_m / (1 + p_m) with p_m = 2**-m
    sol = tbsg.solve(risk_or_safety(n))
    for m in range(1, n + 1):
        p = Fraction(1, 2**m)
        assert sol.value_to_move(RoSState(0, 0, n - m, n - 1)) == 2 * p / (1 + p), m


def test_section5_table1() -> None:
    # seed 000 (Jehn 2026), section 5, Table 1
    # (the printed table is kept, as oracle data, in tbsg.sources.risk_or_safety)
    expected = {(need, opp): int(cell) for need, row in source.TABLE_1.items()
                for opp, cell in enumerate(row.split(), start=2)}
    assert len(expected) == 19 * 19
    table = risk_or_safety_coin_table(20)
    assert set(table) == set(expected)
    wrong = {k: (table[k], v) for k, v in expected.items() if table[k] != v}
    assert not wrong


def test_section5_table1_example_both_need_four() -> None:
    # seed 000 (Jehn 2026), section 5: "if both players need 4 more points ... continue if
    # they toss heads in the first round, but they should stop if they toss heads a second time"
    sol = tbsg.solve(risk_or_safety(20))
    assert sol.optimal_actions(RoSState(0, 1, 16, 16)) == ("toss",)
    assert sol.optimal_actions(RoSState(0, 2, 16, 16)) == ("stop",)


# --- float path ----------------------------------------------------------------------------

@pytest.mark.parametrize("n", range(1, 9))
def test_float_bounds_contain_exact_values(n: int) -> None:
    # exact values: seed 000 (Jehn 2026) for n <= 6 (checked above), tbsg's exact solve beyond
    game = risk_or_safety(n)
    exact = tbsg.solve(game)
    try:
        approx = tbsg.solve(game, exact=False)
    except tbsg.ToleranceError as exc:  # bounds that hold, above the gap asked for
        approx = exc.solution  # type: ignore[assignment]  # the bounds found
    assert approx.states == exact.states
    for s in exact.states:
        lo, hi = approx.bounds(s)
        assert lo <= exact.value(s) <= hi, s
        if approx.converged:
            assert hi - lo <= approx.tol
    assert approx.max_gap <= 1e-11
    if n <= 7:
        assert approx.converged


def test_source_rows_all_match() -> None:
    # every number seed 000 prints (sections 2-3.3, Table 1), as `tbsg reproduce` shows them
    rows = source.checks()
    assert len(rows) == 51
    assert {r.game for r in rows} == {"risk_or_safety"}
    assert [r.quantity for r in rows if not r.match] == []
    assert sum(r.source.endswith("Table 1") for r in rows) == 19
    assert source.KNOWN_DISCREPANCIES == ()


# --- game length under optimal play -----------------------------------------------------
# The paper (seed 000) states no game length (nor does any other seed): the numbers below
# are derived by hand, recomputed by an independent linear solve, or related to each other.

def _tosses(s: RoSState, a: Move) -> int:
    return 1 if a == "toss" else 0


def chain_oracle(n: int, count: Callable[[RoSState, Move], int]) -> tuple[Fraction, Fraction]:
    """Mean and variance of the counted length of Risk or Safety to ``n`` under the exact
    solution's strategy, by plain Fraction linear algebra (tbsg.testing's Bareiss solve, no
    chain code): E = c + P E and, for the second moment, M = 2 c E - c^2 + P M."""
    game = risk_or_safety(n)
    act = tbsg.solve(game).strategy
    states, edges = [game.initial], {}
    index = {game.initial: 0}
    for s in states:  # breadth first over the states the profile reaches
        a = act[s]
        edges[s] = (a, [(p, t) for p, t in game.outcomes(s, a) if isinstance(t, RoSState)])
        for _, t in edges[s][1]:
            if t not in index:
                index[t] = len(states)
                states.append(t)

    def solve(rhs: list[Fraction]) -> list[Fraction]:
        rows = []
        for i, s in enumerate(states):
            row = [Fraction(0)] * (len(states) + 1)
            row[i] += 1
            for p, t in edges[s][1]:
                row[index[t]] -= p
            row[-1] = rhs[i]
            rows.append(row)
        return gauss_jordan(rows)

    c = [Fraction(count(s, edges[s][0])) for s in states]
    mean = solve(c)
    second = solve([2 * ci * ei - ci * ci for ci, ei in zip(c, mean, strict=True)])
    return mean[0], second[0] - mean[0] ** 2


def test_lengths_hand_derived_targets_1_and_2() -> None:
    rows = risk_or_safety_lengths(2)
    one, two = rows
    # Target 1: every toss is a turn and wins with probability 1/2, so the number of
    # tosses is geometric with p = 1/2: mean 1/p = 2, variance (1 - p)/p^2 = 2. The first
    # player wins P = 1/2 + (1/2)(1 - P), P = 2/3.
    assert (one.tosses, one.turns, one.toss_variance) == (2, 2, 2)
    assert one.first_player_wins == Fraction(2, 3)
    # Target 2: optimal play tosses on after the first heads (Table 1 of seed 000 at 2/2:
    # 2 coins; P(0,0,0) = 4/7, section 2), so nobody ever saves a point. A turn wins
    # (HH) w.p. 1/4: the number of turns N is geometric, E N = 4. A losing turn is T
    # (1 toss) or HT (2 tosses), given a loss 2/3 and 1/3: mean Y = 4/3, E Y^2 = 2,
    # Var Y = 2/9; the winning turn is HH (2 tosses). Tosses L = 2 + Y_1 + ... + Y_(N-1),
    # N - 1 geometric on {0, 1, ...}: mean 3, variance (3/4)/(1/4)^2 = 12. So
    # E L = 2 + 3 * 4/3 = 6 and Var L = 3 * 2/9 + 12 * (4/3)^2 = 22.
    assert (two.tosses, two.turns, two.toss_variance) == (6, 4, 22)
    assert two.first_player_wins == Fraction(4, 7)
    assert [r.target for r in rows] == [1, 2]


def test_lengths_agree_with_an_independent_linear_solve() -> None:
    # one solve to 6 serves targets 1..6 (a position depends only on the points needed):
    # each row is compared with the chain of a separate solve, by plain Fraction algebra
    for row in risk_or_safety_lengths(6):
        mean, var = chain_oracle(row.target, _tosses)
        assert (row.tosses, row.toss_variance) == (mean, var)
        assert row.turns == chain_oracle(row.target, lambda s, a: 1 if s.open == 0 else 0)[0]
        assert row.first_player_wins == tbsg.solve(risk_or_safety(row.target)).value()


def test_lengths_consistency() -> None:
    rows = risk_or_safety_lengths(12)
    for r in rows:
        # a turn's first step is a toss; the winner tosses at least `target` heads
        assert r.target <= r.tosses and r.turns <= r.tosses
        assert 1 <= r.tosses_per_turn <= r.target
        assert r.toss_variance > 0
        # Jehn 2026 (seed 000, abstract) proves the optimal strategy unique; tbsg finds no
        # exact tie, so the fastest and slowest optimal play are the optimal play itself
        assert r.fastest_tosses == r.tosses == r.slowest_tosses
    # the paper's P(0,0,0) for n <= 6 (sections 2 and 3.3)
    for n, (_, printed) in source.P000.items():
        assert rows[n - 1].first_player_wins == Fraction(printed)
    # longer targets make longer games
    assert all(a.tosses < b.tosses and a.turns < b.turns for a, b in itertools.pairwise(rows))
    # regression pin: tbsg's own output, not a source value (target 3)
    assert rows[2].tosses == Fraction(120, 11)


def test_lengths_bad_input() -> None:
    for bad in (0, -1, True, 2.0):
        with pytest.raises(InvalidGameError, match="max_target"):
            risk_or_safety_lengths(bad)  # type: ignore[arg-type]


def test_lengths_figure() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib as mpl

    mpl.use("Agg")
    import matplotlib.pyplot as plt

    from tbsg import plots

    rows = risk_or_safety_lengths(5)
    fig = plots.plot_risk_or_safety_lengths(rows=rows)
    try:
        left, right = fig.axes
        tosses, turns = left.get_lines()
        assert list(tosses.get_xdata()) == [1, 2, 3, 4, 5]  # type: ignore[arg-type]
        assert list(tosses.get_ydata()) == [float(r.tosses) for r in rows]  # type: ignore[arg-type]
        assert list(turns.get_ydata()) == [float(r.turns) for r in rows]  # type: ignore[arg-type]
        assert list(right.get_lines()[0].get_ydata()) == [float(r.tosses / r.target) for r in rows]  # type: ignore[arg-type]
    finally:
        plt.close(fig)
