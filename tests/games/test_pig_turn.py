"""One turn of Pig played for points (:mod:`tbsg.games.pig_turn`).

Sources: T. W. Neller, "Pig", Nifty Assignments (SIGCSE 2010), "Hold-at-20 Outcomes
(Computation)" (the printed distribution of a hold-at-20 turn), and Neller and Presser,
"Optimal Play of the Dice Game Pig" (UMAP Journal 25(1), 2004), pp. 25-26, quoting Knizia
(1999, p. 129): roll while the turn total is below 20. Besides the sources, every value is
re-derived independently here: the page's own dynamic program for the distribution, and
a backward induction of the turn's Bellman equations in Fractions for the optimum.
Values no source prints, pinned from tbsg's output to catch regressions, are marked
``# regression pin: tbsg's own output, not a source value``.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import tbsg
from oracles import turn_gain
from tbsg.errors import InvalidGameError
from tbsg.games.pig_turn import (
    PigTurn,
    TurnState,
    fair_total,
    hold_at,
    pig_turn,
    pig_turn_outcomes,
    pig_turn_table,
)
from tbsg.sources import pig_turn as source
from tbsg.sources.check import decimal_match


def nifty_outcomes(hold: int, die: int) -> dict[int, Fraction]:
    """The distribution of a hold-at-``hold`` turn by the dynamic program the Nifty page
    describes ("the probability of passing through each score"), in Fractions."""
    return turn_gain(hold, die, hold)


def bellman_values(die: int, limit: int) -> dict[int, Fraction]:
    """The optimal expected score from each turn total, by backward induction: rolling
    only raises the turn total, so the states are solved from the largest down."""
    top = limit - 1 + die
    v: dict[int, Fraction] = {}
    for k in range(top, -1, -1):
        if k >= limit:
            v[k] = Fraction(k)
            continue
        roll = sum((v[k + r] for r in range(2, die + 1)), Fraction(0)) / die
        v[k] = roll if k == 0 else max(Fraction(k), roll)
    return v


def test_hold_at_20_distribution_matches_the_nifty_page() -> None:
    # Nifty "Hold-at-20 Outcomes (Computation)": 0 0.624541, 20 0.099713, 21 0.094991,
    # 22 0.074189, 23 0.054196, 24 0.035198, 25 0.017173
    dist = pig_turn_outcomes(20)
    assert list(dist) == [0, 20, 21, 22, 23, 24, 25]
    for score, printed in source.OUTCOMES.items():
        assert decimal_match(printed, dist[score])
    assert dist == nifty_outcomes(20, 6)
    assert sum(dist.values()) == 1


@pytest.mark.parametrize(("hold", "die"), [(1, 2), (5, 3), (20, 6), (25, 6), (30, 8)])
def test_outcomes_equal_the_pages_dynamic_program(hold: int, die: int) -> None:
    # independent re-derivation: the Nifty page's algorithm, any hold value and die
    assert pig_turn_outcomes(hold, die) == nifty_outcomes(hold, die)


@pytest.mark.parametrize("die", [2, 3, 4, 6, 8])
def test_solve_equals_backward_induction(die: int) -> None:
    # independent re-derivation: the Bellman equations of the module docstring
    game = pig_turn(die)
    sol = tbsg.solve(game)
    ref = bellman_values(die, game.limit or 0)
    assert sol.values == {TurnState(k): v for k, v in ref.items() if TurnState(k) in sol.values}
    assert sol.value() == ref[0]
    assert not sol.win_probability  # scores, not probabilities


def test_six_sided_optimum() -> None:
    # hand derivation: "hold at 20" is optimal (module docstring), and its expected score
    # is the mean of the Nifty distribution, sum of score * probability
    dist = nifty_outcomes(20, 6)
    expected = sum((k * p for k, p in dist.items()), Fraction(0))
    assert tbsg.solve(pig_turn()).value() == expected == Fraction(492303203, 60466176)


def test_three_sided_die_by_hand() -> None:
    # hand derivation, d = 3 (faces 1, 2, 3), T = 5: V(k) = k for k >= 5; V(4) = (6 + 7)/3
    # = 13/3; V(3) = (5 + 6)/3 = 11/3; V(2) = (13/3 + 5)/3 = 28/9; V(0) = (28/9 + 11/3)/3
    sol = tbsg.solve(pig_turn(3))
    assert [sol.value(TurnState(k)) for k in (0, 2, 3, 4, 5)] == [
        Fraction(61, 27), Fraction(28, 9), Fraction(11, 3), Fraction(13, 3), Fraction(5)]
    assert sol.optimal_actions(TurnState(5)) == ("roll", "hold")


def test_knizia_rule_roll_below_20_tie_at_20() -> None:
    # Neller and Presser 2004, pp. 25-26 (Knizia 1999, p. 129): continue throwing below 20;
    # at 20 one more roll is a fair bet
    sol = tbsg.solve(pig_turn(6, 40))
    for k in range(2, 40):  # a turn total of 1 is never reached: every gain is at least 2
        want = ("roll",) if k < 20 else ("hold",) if k > 20 else ("roll", "hold")
        assert tuple(sol.optimal_actions(TurnState(k))) == want, k
    assert sol.action_values(TurnState(20)) == {"roll": 20, "hold": 20}


@pytest.mark.parametrize("die", [2, 3, 5, 6, 10])
def test_fair_total_is_where_roll_and_hold_tie(die: int) -> None:
    # hand derivation (module docstring): rolling at k gives ((d - 1) k + T) / d, = k at T
    t = fair_total(die)
    assert t == sum(range(2, die + 1))
    sol = tbsg.solve(pig_turn(die, t + 5))
    assert set(sol.optimal_actions(TurnState(t))) == {"roll", "hold"}


@pytest.mark.parametrize("limit", [21, 22, 30, 45])
def test_limit_beyond_the_fair_total_changes_no_value(limit: int) -> None:
    # module docstring: holding is optimal from T on, so any limit > T gives the same values
    base = tbsg.solve(pig_turn(6)).values
    sol = tbsg.solve(pig_turn(6, limit))
    assert all(sol.value(s) == v for s, v in base.items())


@pytest.mark.parametrize(("die", "best"), [(2, [1, 2, 3, 4]), (3, [5, 6]), (4, [9, 10]),
                                           (5, [14, 15]), (8, [35, 36])])
def test_best_holds_for_other_dice(die: int, best: list[int]) -> None:
    # module docstring: T and T + 1 (T = 2 + ... + d); with d = 2 only even totals occur,
    # so 1 plays as 2 and 4 as 3 (hand derivation)
    rows = pig_turn_table(range(1, 50), die)
    assert [r.hold for r in rows if r.optimal] == best


def test_table_best_holds_are_20_and_21() -> None:
    # module docstring: "hold at T" and "hold at T + 1" tie for the best expected score
    rows = pig_turn_table(range(1, 31))
    assert [r.hold for r in rows if r.optimal] == [20, 21]
    best = max(r.expected for r in rows)
    assert all(r.expected <= best for r in rows)
    row = rows[19]
    assert (row.hold, row.bust) == (20, Fraction(9440899, 15116544))


def test_chain_of_the_optimal_profile_has_the_value() -> None:
    # the solution's own profile, as a Markov chain, ends with the same expected payoff
    game = pig_turn(4)
    sol = tbsg.solve(game)
    dist = tbsg.chain(game, sol).outcome_probabilities()
    assert sum((k * p for k, p in dist.items()), Fraction(0)) == sol.value()


def test_hold_at_rule_and_errors() -> None:
    rule = hold_at(3)
    assert (rule(TurnState(2)), rule(TurnState(3))) == ("roll", "hold")
    with pytest.raises(InvalidGameError, match="n"):
        hold_at(0)
    with pytest.raises(InvalidGameError, match="die"):
        PigTurn(1)
    with pytest.raises(InvalidGameError, match="limit"):
        PigTurn(6, 0)
    with pytest.raises(InvalidGameError, match="action"):
        pig_turn().outcomes(TurnState(3), "pass")  # type: ignore[arg-type]
    assert pig_turn().actions(TurnState(0)) == ("roll",)
    assert pig_turn(6, 5).actions(TurnState(5)) == ("hold",)
    assert pig_turn().limit == 21
