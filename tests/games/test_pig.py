"""Known answers for Pig and Piglet (T. W. Neller and C. G. M. Presser, "Optimal Play of the
Dice Game Pig", The UMAP Journal 25(1) (2004) 25-47; "the paper"). Every known-answer test
names the page it checks.

Notation: the paper's ``P(i, j, k)`` (mover's score, opponent's score, turn total) is
``solution.value_to_move(game.position(i, j, k))``, with ``P = 1`` once ``i + k >= goal``.
Values the paper does not print, pinned from tbsg's own output to catch regressions, are
marked ``# regression pin: tbsg's own output, not a source value``.
Besides the paper, the tests re-derive values independently (a hand-written value iteration
of the paper's equations, and an exact linear solve of them for the policy it finds) and
check the equivalence of Piglet with Risk or Safety (seed 000).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import pytest

import tbsg
from oracles import gauss_jordan
from tbsg.errors import InvalidGameError, InvalidStrategyError
from tbsg.games import RoSState, risk_or_safety, risk_or_safety_coin_table
from tbsg.games.pig import (
    Pig,
    PigAction,
    Piglet,
    PigState,
    pig,
    pig_hold_at,
    pig_hold_boundary,
    pig_turn_bounds,
    pig_turns,
    pig_versus,
    piglet,
)
from tbsg.sources import pig as source
from tbsg.sources.risk_or_safety import TABLE_1

Triple = tuple[int, int, int]


def paper_p(sol: tbsg.Solution[PigState, Any], game: Pig | Piglet) -> Callable[[int, int, int], Fraction]:
    """The paper's P(i, j, k), player 0 to move, with P = 1 once i + k reaches the goal."""
    def p(i: int, j: int, k: int) -> Fraction:
        if i + k >= game.goal:
            return Fraction(1)
        return sol.value_to_move(PigState(0, i, j, k))
    return p


def gains(game: Pig | Piglet) -> Sequence[int]:
    return (1,) if isinstance(game, Piglet) else range(2, game.die + 1)


def sides(game: Pig | Piglet) -> int:
    return 2 if isinstance(game, Piglet) else game.die


# --- Piglet to 2: the paper's hand-worked example (pp. 28-31) ------------------------------

def test_piglet_goal2_exact_values() -> None:
    # the paper, p. 30 ("Applying Value Iteration to Piglet"): "the exact values,
    # P0,0,0 = 4/7, P0,0,1 = 5/7, P0,1,0 = 2/5, P0,1,1 = 3/5, P1,0,0 = 4/5, P1,1,0 = 2/3"
    game = piglet(2)
    sol = tbsg.solve(game)
    got = {t: sol.value_to_move(game.position(*t))
           for t in [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 1, 0)]}
    assert got == {(0, 0, 0): Fraction(4, 7), (0, 0, 1): Fraction(5, 7), (0, 1, 0): Fraction(2, 5),
                   (0, 1, 1): Fraction(3, 5), (1, 0, 0): Fraction(4, 5), (1, 1, 0): Fraction(2, 3)}
    assert sol.value() == Fraction(4, 7)
    assert sol.n_states == 12  # the paper's six triples, for each player to move


def test_piglet_goal2_system_1() -> None:
    # the paper, p. 28, system (1): the six equations, including the hold at k = 0 that the
    # paper lists (1 - P(j, i, 0)) and tbsg leaves out; the solution satisfies them all
    game = piglet(2)
    p = paper_p(tbsg.solve(game), game)
    h = Fraction(1, 2)
    for i, j, k in [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 1, 0)]:
        flip = h * ((1 - p(j, i, 0)) + p(i, j, k + 1))
        hold = 1 - p(j, i + k, 0)
        assert p(i, j, k) == max(flip, hold), (i, j, k)


def test_piglet_goal2_always_keep_flipping() -> None:
    # the paper, p. 31: "In the case of Piglet with a goal of 2, one should always keep flipping"
    sol = tbsg.solve(piglet(2))
    for s in sol.states:
        assert sol.optimal_actions(s) == ("roll",), s
    assert pig_hold_boundary(sol) == {(0, 0): 2, (0, 1): 2, (1, 0): 1, (1, 1): 1}


# --- Piglet is Risk or Safety (seed 000, section 1) -----------------------------------------

def to_ros(s: PigState) -> RoSState:
    return RoSState(s.mover, s.turn_total, s.score, s.other)


@pytest.mark.parametrize("n", range(1, 9))
def test_piglet_equals_risk_or_safety(n: int) -> None:
    # Jehn 2026 (seed 000), section 1, and the module docstring: the games are the same
    # state for state (open = turn total, saved = score), so values agree exactly
    a = tbsg.solve(piglet(n))
    b = tbsg.solve(risk_or_safety(n))
    assert a.value() == b.value()
    assert a.n_states == b.n_states
    rename = {"roll": "toss", "hold": "stop"}
    for s in a.states:
        r = to_ros(s)
        assert a.value(s) == b.value(r), s
        assert tuple(rename[x] for x in a.optimal_actions(s)) == b.optimal_actions(r), s


def test_piglet_matches_risk_or_safety_published_values() -> None:
    # Jehn 2026 (seed 000): P(0,0,0) = 2/3, 4/7, 6/11, 2236/4165 for targets 1 to 4
    # (sections 2, 3.1, 2, 3.3); the paper (p. 30) agrees on 4/7 for Piglet to 2
    assert [tbsg.solve(piglet(n)).value() for n in range(1, 5)] == [
        Fraction(2, 3), Fraction(4, 7), Fraction(6, 11), Fraction(2236, 4165)]


def test_piglet_boundary_is_jehn_table1() -> None:
    # Jehn 2026 (seed 000), Table 1 (section 5), as printed: coins to toss before saving,
    # keyed (points I need, points the opponent needs). Piglet's hold boundary at scores
    # (i, j) is the row need = n - i, column need = n - j; n = 12 covers needs 2..12.
    n = 12
    boundary = pig_hold_boundary(tbsg.solve(piglet(n)))
    for need in range(2, n + 1):
        printed = [int(x) for x in TABLE_1[need].split()][: n - 1]  # opponent needs 2..n
        assert [boundary[n - need, n - opp] for opp in range(2, n + 1)] == printed, need
    computed = risk_or_safety_coin_table(n)
    assert all(boundary[n - a, n - b] == computed[a, b] for (a, b) in computed)


# Neller's CS 391 Piglet assignment page (cs.gettysburg.edu/~tneller/cs391/03sp/piglet.html,
# "Optimal solutions for goal = n"): row = player score, column = opponent score, entry = "the
# minimum turn total at which the player holds" (under the page's rule that a player holds
# when the turn total allows a win, so "never hold" reads goal - i).
NELLER_PIGLET_PAGE = {
    3: ["1 3 3", "2 2 2", "1 1 1"],
    6: ["2 2 2 2 2 6", "1 2 2 2 2 5", "1 1 2 2 2 4", "1 1 1 1 3 3", "1 1 1 2 2 2", "1 1 1 1 1 1"],
    9: ["2 2 2 2 2 2 3 3 9", "1 2 2 2 2 2 2 3 8", "1 1 2 2 2 2 2 3 7", "1 1 1 2 2 2 2 2 6",
        "1 1 1 1 2 2 2 2 5", "1 1 1 1 1 2 2 2 4", "1 1 1 1 1 1 1 3 3", "1 1 1 1 1 1 2 2 2",
        "1 1 1 1 1 1 1 1 1"],
}


@pytest.mark.parametrize("n", sorted(NELLER_PIGLET_PAGE))
def test_piglet_boundary_neller_course_page(n: int) -> None:
    # Neller, CS 391 Piglet page (see above), tables for n = 3, 6 and 9
    boundary = pig_hold_boundary(tbsg.solve(piglet(n)))
    rows = [" ".join(str(boundary[i, j]) for j in range(n)) for i in range(n)]
    assert rows == NELLER_PIGLET_PAGE[n]


# --- independent re-derivations ------------------------------------------------------------

def paper_value_iteration(game: Pig | Piglet, eps: float = 1e-15
                          ) -> tuple[dict[Triple, float], dict[Triple, str]]:
    """The paper's Algorithm 1 (p. 30) on its equations (pp. 26, 28), written from scratch.

    Unknowns P(i, j, k) for 0 <= i, j < goal and 0 <= k < goal - i (all triples, reachable
    or not), P = 1 at i + k >= goal, hold allowed at k = 0 as in the paper. Gauss-Seidel
    sweeps in the paper's "descending score sum" spirit until no change exceeds ``eps``.
    """
    goal, d, g = game.goal, sides(game), gains(game)
    triples = [(i, j, k) for i in range(goal) for j in range(goal) for k in range(goal - i)]
    triples.sort(key=lambda t: (-(t[0] + t[1]), -t[2]))
    v = dict.fromkeys(triples, 0.0)

    def p(i: int, j: int, k: int) -> float:
        return 1.0 if i + k >= goal else v[i, j, k]

    def q(i: int, j: int, k: int) -> tuple[float, float]:
        roll = ((1 - p(j, i, 0)) + sum(p(i, j, k + r) for r in g)) / d
        return roll, 1 - p(j, i + k, 0)

    while True:
        delta = 0.0
        for t in triples:
            new = max(q(*t))
            delta = max(delta, abs(new - v[t]))
            v[t] = new
        if delta < eps:
            break
    policy = {}
    for t in triples:
        roll, hold = q(*t)
        policy[t] = "roll" if roll >= hold or t[2] == 0 else "hold"
    return v, policy


def exact_policy_values(game: Pig | Piglet, policy: dict[Triple, str]) -> dict[Triple, Fraction]:
    """Solve the paper's equations for a fixed policy exactly (Gauss-Jordan in Fractions)."""
    goal, d, g = game.goal, sides(game), gains(game)
    triples = sorted(policy)
    col = {t: n for n, t in enumerate(triples)}
    rows: list[list[Fraction]] = []
    for t in triples:
        i, j, k = t
        row = [Fraction(0)] * (len(triples) + 1)  # coefficients, then the constant
        row[col[t]] += 1

        def term(coef: Fraction, i2: int, j2: int, k2: int, flip: bool,
                 row: list[Fraction] = row) -> None:
            # adds coef * (P or 1 - P) of (i2, j2, k2) to the right-hand side
            if i2 + k2 >= goal:
                row[-1] += coef * (0 if flip else 1)
            elif flip:
                row[-1] += coef
                row[col[i2, j2, k2]] += coef
            else:
                row[col[i2, j2, k2]] -= coef

        if policy[t] == "hold":
            term(Fraction(1), j, i + k, 0, flip=True)
        else:
            term(Fraction(1, d), j, i, 0, flip=True)
            for r in g:
                term(Fraction(1, d), i, j, k + r, flip=False)
        rows.append(row)
    return dict(zip(triples, gauss_jordan(rows), strict=True))


GAMES_SMALL: list[Pig | Piglet] = [pig(2), pig(3), pig(5), pig(10), pig(7, 3), pig(9, 2), pig(6, 10),
                                   piglet(1), piglet(3), piglet(6)]


@pytest.mark.parametrize("game", GAMES_SMALL, ids=repr)
def test_value_iteration_rederivation(game: Pig | Piglet) -> None:
    # independent: the paper's own method (Algorithm 1, p. 30) coded from scratch, compared
    # with tbsg's exact strategy iteration on every reachable state
    v, _ = paper_value_iteration(game)
    sol = tbsg.solve(game)
    for s in sol.states:
        expect = v[s.score, s.other, s.turn_total]
        assert abs(float(sol.value_to_move(s)) - expect) < 1e-12, s


@pytest.mark.parametrize("game", [pig(3), pig(4), pig(6), pig(5, 3), piglet(4)], ids=repr)
def test_exact_linear_solve_rederivation(game: Pig | Piglet) -> None:
    # independent and exact: fix the policy found by value iteration, solve the paper's
    # linear equations for it in Fractions, and compare with tbsg's exact values
    _, policy = paper_value_iteration(game)
    exact = exact_policy_values(game, policy)
    sol = tbsg.solve(game)
    for s in sol.states:
        assert sol.value_to_move(s) == exact[s.score, s.other, s.turn_total], s


@pytest.mark.parametrize("game", [pig(12), pig(9, 4), piglet(9)], ids=repr)
def test_paper_equations_hold_exactly(game: Pig | Piglet) -> None:
    # the paper, p. 26 (Pig) and p. 28 (Piglet): every reachable P(i, j, k) is the max of
    # the roll and hold terms, and the hold at k = 0 the paper allows is never better
    sol = tbsg.solve(game)
    p = paper_p(sol, game)
    d, g = sides(game), gains(game)
    for s in sol.states:
        if s.mover != 0:
            continue
        i, j, k = s.score, s.other, s.turn_total
        roll = (1 - p(j, i, 0) + sum(p(i, j, k + r) for r in g)) / d
        hold = 1 - p(j, i + k, 0)
        if k == 0:
            assert p(i, j, 0) == roll >= hold, s
        else:
            assert p(i, j, k) == max(roll, hold), s


def test_symmetry_of_the_two_players() -> None:
    # the paper, p. 30: "Each player has the same choices and the same probable outcomes",
    # so the value to the mover does not depend on who moves
    sol = tbsg.solve(pig(15))
    for s in sol.states:
        if s.mover == 0:
            assert sol.value(PigState(1, *s[1:])) == 1 - sol.value(s), s


class HoldAtZeroPig(Pig):
    """Pig as the paper's equations write it: hold allowed at turn total 0 (pass)."""

    def actions(self, s: PigState) -> Sequence[PigAction]:
        return ("roll", "hold")


class HoldAtZeroPiglet(Piglet):
    def actions(self, s: PigState) -> Sequence[PigAction]:
        return ("roll", "hold")


@pytest.mark.parametrize("game", [HoldAtZeroPig(5), HoldAtZeroPig(8, 3), HoldAtZeroPiglet(2),
                                  HoldAtZeroPiglet(4)], ids=repr)
def test_holding_at_zero_changes_nothing(game: Pig | Piglet) -> None:
    # module docstring: allowing the paper's hold at k = 0 makes the game non-stopping, but
    # whatever never-ending play is worth (0 or 1 to player 0), every value is the same
    base = tbsg.solve(Piglet(game.goal) if isinstance(game, Piglet) else Pig(game.goal, game.die))
    with pytest.raises(tbsg.NonStoppingGameError):
        tbsg.solve(game)
    for c in (0, 1):
        sol = tbsg.solve(game, infinite_play=c)
        assert all(sol.value(s) == base.value(s) for s in base.states)


@pytest.mark.parametrize("goal", [5, 12, 22])
def test_reachable_state_count(goal: int) -> None:
    # scores and turn totals of 1 are never reached with a six-sided die; otherwise every
    # (mover, i, j, k) with i + k < goal is reachable: 2 * |S| * sum(1 + max(0, goal - i - 2))
    scores = [0, *range(2, goal)]
    expected = 2 * len(scores) * sum(1 + max(0, goal - i - 2) for i in scores)
    assert tbsg.solve(pig(goal), exact=False).n_states == expected


def test_float_bounds_contain_exact_and_boundaries_agree() -> None:
    game = pig(20)
    exact = tbsg.solve(game)
    fl = tbsg.solve(game, exact=False, tol=1e-12)
    assert fl.n_states == exact.n_states
    for s in exact.states:
        lo, hi = fl.bounds(s)
        assert lo <= exact.value(s) <= hi, s
    assert fl.max_gap <= 1e-12
    assert pig_hold_boundary(fl) == pig_hold_boundary(exact)


def test_versus_agrees_with_exact_evaluate_and_best_response() -> None:
    game = pig(12)
    a, b = pig_hold_at(4), pig_hold_at(7)

    def profile(s: PigState) -> PigAction:
        return "roll" if s.turn_total == 0 else (a if s.mover == 0 else b)(s)

    lo, hi = pig_versus(game, a, b)
    assert lo <= tbsg.evaluate(game, profile).value() <= hi
    lo, hi = pig_versus(game, None, b)
    assert lo <= tbsg.best_response(game, 0, b).value() <= hi
    lo, hi = pig_versus(game, a, None)
    assert lo <= tbsg.best_response(game, 1, a).value() <= hi
    sol = tbsg.solve(game)
    lo, hi = pig_versus(game, sol.strategy, sol.strategy)  # both optimal: the game's value
    assert lo <= sol.value() <= hi


def test_hold_at_strategy() -> None:
    s = pig_hold_at(20)
    assert [s(PigState(0, 0, 0, k)) for k in (2, 19, 20, 25)] == ["roll", "roll", "hold", "hold"]


# --- bad parameters ------------------------------------------------------------------------

@pytest.mark.parametrize(("make", "name"), [
    (lambda: pig(0), "goal"), (lambda: pig(-3), "goal"), (lambda: pig(True), "goal"),
    (lambda: pig(2.5), "goal"),  # type: ignore[arg-type]
    (lambda: pig("100"), "goal"),  # type: ignore[arg-type]
    (lambda: pig(10, 1), "die"), (lambda: pig(10, 0), "die"), (lambda: pig(10, True), "die"),
    (lambda: pig(10, 6.0), "die"),  # type: ignore[arg-type]
    (lambda: piglet(0), "goal"), (lambda: Pig(die=-1), "die"),
    (lambda: piglet(None), "goal"),  # type: ignore[arg-type]
    (lambda: pig_hold_at(0), "n"),
])
def test_bad_parameters(make: Callable[[], object], name: str) -> None:
    with pytest.raises(InvalidGameError, match=f"^{name} must be an int"):
        make()
    with pytest.raises(ValueError):  # InvalidGameError is a ValueError
        make()


@pytest.mark.parametrize("ijk", [(-1, 0, 0), (10, 0, 0), (0, 10, 0), (0, 0, 10), (4, 0, 6),
                                 (0, 0, -1)])
def test_bad_positions(ijk: Triple) -> None:
    with pytest.raises(InvalidGameError, match="is not a position"):
        pig(10).position(*ijk)


def test_bad_position_types_and_actions() -> None:
    game = pig(10)
    with pytest.raises(InvalidGameError, match="k must be an int"):
        game.position(0, 0, 1.0)  # type: ignore[arg-type]
    with pytest.raises(InvalidGameError, match="i must be an int"):
        game.position(True, 0, 0)
    assert game.position(4, 9, 5) == PigState(0, 4, 9, 5)
    with pytest.raises(InvalidGameError, match="action must be"):
        game.outcomes(PigState(0, 0, 0, 2), "stay")  # type: ignore[arg-type]


def test_unreachable_position_is_reported() -> None:
    # a turn total of 1 is a position of the paper's equations, never reached with a die
    sol = tbsg.solve(pig(10))
    with pytest.raises(InvalidGameError, match="not reachable"):
        sol.value(pig(10).position(0, 0, 1))


def test_boundary_needs_a_pig_solution() -> None:
    with pytest.raises(InvalidGameError, match="solution of Pig or Piglet"):
        pig_hold_boundary(tbsg.solve(risk_or_safety(2)))  # type: ignore[arg-type]


def test_versus_rejects_a_bad_strategy() -> None:
    with pytest.raises(InvalidStrategyError):
        pig_versus(pig(5), lambda s: "stay", pig_hold_at(2))  # type: ignore[arg-type,return-value]


# --- Pig to 100 (slow: the float solve builds 960,894 states) -------------------------------

@pytest.fixture(scope="module")
def pig100() -> tbsg.FloatSolution[PigState, Any]:
    return tbsg.solve(pig(), exact=False, tol=1e-12)


@pytest.mark.slow
def test_goal100_first_player_wins_53_06_percent(pig100: tbsg.FloatSolution[PigState, Any]) -> None:
    # the paper, p. 34: "If both players are playing optimally, the starting player wins
    # 53.06% of the time; that is, P0,0,0 ≈ 0.5306"
    lo, hi = pig100.bounds()
    assert round(lo, 4) == round(hi, 4) == 0.5306
    assert hi - lo <= 1e-12
    assert pig100.n_states == 960_894  # regression pin: tbsg's own output, not a source value
    # p. 34: "an optimal player with a score of 0 will never hold with a turn total less than 21"
    boundary = pig_hold_boundary(pig100)
    assert min(k for (i, _), k in boundary.items() if i == 0) == 21
    # module docstring: not a threshold policy; at 41 against 49 hold at 22-26, roll at 27
    # regression pin: tbsg's own output, not a source value
    acts = [pig100.action(PigState(0, 41, 49, k)) for k in range(20, 30)]
    assert acts == ["roll"] * 2 + ["hold"] * 5 + ["roll"] + ["hold"] * 2
    assert boundary[41, 49] == 22


@pytest.mark.slow
def test_goal100_hold_at_20(pig100: tbsg.FloatSolution[PigState, Any]) -> None:
    # the paper, p. 34: against "hold at 20", "the optimal player wins 58.74%" when going
    # first; "the 'hold at 20' player wins 47.76%" when it goes first; 55.49% overall.
    # Reproduced by the best response to "hold at 20" (None below).
    game, h20 = pig(), pig_hold_at(20)
    a = pig_versus(game, None, h20)
    b = pig_versus(game, h20, None)
    assert {round(x, 4) for x in a} == {0.5874}
    assert {round(x, 4) for x in b} == {0.4776}
    assert {round((a[0] + 1 - b[1]) / 2, 4), round((a[1] + 1 - b[0]) / 2, 4)} == {0.5549}
    # The minimax-optimal policy is not that player: it wins less against "hold at 20".
    # regression pin: tbsg's own output, not a source value (0.5715 and 0.4917)
    opt = pig100.strategy
    c = pig_versus(game, opt, h20)
    e = pig_versus(game, h20, opt)
    assert round(c[0], 4) == 0.5715 and round(e[0], 4) == 0.4917
    # Neller, "First-Player Advantage" (nifty.stanford.edu/2010/neller-pig/advantage.html):
    # hold at 20 against itself, "The actual value is approximately .5347"
    assert {round(x, 4) for x in pig_versus(game, h20, h20)} == {0.5347}


def test_source_piglet_rows_all_match() -> None:
    # the paper, pp. 30-31 (Piglet to 2), as `tbsg reproduce` shows them
    rows = source.piglet_checks()
    assert len(rows) == 7
    assert all(r.match for r in rows), [r for r in rows if not r.match]
    assert source.KNOWN_DISCREPANCIES == ()


@pytest.mark.slow
def test_source_rows_all_match() -> None:
    # every number the paper prints (pp. 30, 31, 34), as `tbsg reproduce` shows them
    rows = source.checks()
    assert len(rows) == 13
    assert all(r.match for r in rows), [r for r in rows if not r.match]
    assert source.KNOWN_DISCREPANCIES == ()  # so every row is expected only if it matches


# --- expected number of turns -----------------------------------------------------------
# Neller and Presser (2004) print no expected number of turns, nor does any seed: small
# cases are derived by hand, the rest are relations between tbsg's answers.

def test_turns_by_hand_piglet_1_and_pig_2() -> None:
    # Piglet to 1: every turn is one flip, which wins w.p. 1/2: turns geometric, mean 2.
    t = pig_turns(1, 2, hold_at=1)
    assert (t.optimal, t.optimal_fastest, t.optimal_slowest, t.hold) == (2, 2, 2, 2)
    # Pig to 2 (d6): the first roll either wins (2..6, p = 5/6) or busts (1): every turn
    # is one roll, mean 6/5, whatever the strategy (no hold decision is ever reached).
    t = pig_turns(2)
    assert (t.optimal, t.hold) == (Fraction(6, 5), Fraction(6, 5))
    # Piglet to 2, both rolling on (optimal: seed 000's 4/7 for Risk or Safety to 2 is
    # the same game, tossing on after one heads): a turn wins w.p. 1/4, 4 turns.
    assert pig_turns(2, 2, hold_at=2).optimal == 4


@pytest.mark.parametrize(("goal", "die"), [(8, 2), (12, 2), (15, 6), (25, 6)])
def test_turns_relations(goal: int, die: int) -> None:
    t = pig_turns(goal, die, hold_at=20)
    assert t.optimal_fastest <= t.optimal <= t.optimal_slowest
    assert t.optimal >= 1 and t.hold >= 1
    # "hold at goal" never holds (reaching the goal wins at once): the never-hold profile
    never = pig_turns(goal, die, hold_at=goal)
    game = piglet(goal) if die == 2 else pig(goal, die)
    c = tbsg.chain(game, lambda s: "roll")
    assert never.hold == c.expected_steps(lambda s, a: 1 if s.turn_total == 0 else 0)


def test_turn_bounds_contain_the_exact_values() -> None:
    for goal, die in ((10, 6), (20, 6), (12, 2)):
        exact = pig_turns(goal, die)
        b = pig_turn_bounds(goal, die)
        assert b.optimal[0] <= exact.optimal <= b.optimal[1]
        assert b.hold[0] <= exact.hold <= b.hold[1]
        assert b.uncertain == 0 and b.states > 0


def test_turns_bad_input() -> None:
    with pytest.raises(InvalidGameError, match="hold_at"):
        pig_turns(10, hold_at=0)
    with pytest.raises(InvalidGameError, match="hold_at"):
        pig_turn_bounds(10, hold_at=-1)


@pytest.mark.slow
def test_turn_bounds_pig_100() -> None:
    # goal 100: the float solution's strategy is certainly optimal wherever play goes,
    # so the bounds are on the expected turns of optimal play (regression pins: tbsg's
    # own output, not a source value)
    b = pig_turn_bounds(100)
    assert b.uncertain == 0
    assert b.optimal[1] - b.optimal[0] < 1e-9 and b.hold[1] - b.hold[0] < 1e-9
    assert round(b.optimal[0], 6) == 19.251274
    assert round(b.hold[0], 6) == 19.866620
