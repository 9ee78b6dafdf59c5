"""Pig solitaire: fewest expected turns (:mod:`tbsg.games.pig_solitaire`).

Source: T. W. Neller, "Pig", Nifty Assignments (SIGCSE 2010), "Average Pig Turns": the
mean number of turns of 10^6 simulated hold-at-20-or-goal games to 100, 12.634906. No
source prints the optimum; it is re-derived here independently: a policy iteration of the
module's equations in Fractions, score by score (the hand-written reference below), and
the mean and variance of a fixed rule by a recursion on the distribution of one turn's
gain (the Nifty page's dynamic program). Values pinned from tbsg's own output to catch
regressions are marked ``# regression pin: tbsg's own output, not a source value``.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import tbsg
from oracles import turn_gain
from tbsg.errors import InvalidGameError
from tbsg.games.pig_solitaire import (
    PigSolitaire,
    SolitaireState,
    hold_at,
    pig_solitaire,
    pig_solitaire_boundary,
    pig_solitaire_table,
    pig_solitaire_turns,
)
from tbsg.sources import pig_solitaire as source


def rule_moments(goal: int, die: int, hold: int) -> tuple[Fraction, Fraction]:
    """Mean and variance of the number of turns from score 0 under a fixed rule.

    With ``q`` the gain distribution of one turn from score ``i`` (``q_0``: nothing),
    ``m1(i) = (1 + sum_j q_j m1(i + j)) / (1 - q_0)`` and
    ``m2(i) = (1 + 2 (q_0 m1(i) + sum_j q_j m1(i + j)) + sum_j q_j m2(i + j)) / (1 - q_0)``
    (``j > 0``, ``m = 0`` at the goal): ``E[(1 + T')^2]`` expanded, ``T'`` the turns after.
    """
    m1: dict[int, Fraction] = {}
    m2: dict[int, Fraction] = {}
    for i in range(goal - 1, -1, -1):
        q = turn_gain(hold, die, goal - i)
        q0 = q.pop(0, Fraction(0))
        nxt1 = sum((p * m1.get(i + j, Fraction(0)) for j, p in q.items()), Fraction(0))
        nxt2 = sum((p * m2.get(i + j, Fraction(0)) for j, p in q.items()), Fraction(0))
        m1[i] = (1 + nxt1) / (1 - q0)
        m2[i] = (1 + 2 * (q0 * m1[i] + nxt1) + nxt2) / (1 - q0)
    return m1[0], m2[0] - m1[0] ** 2


def fewest_turns(goal: int, die: int) -> dict[int, Fraction]:
    """W(i), the fewest expected turns from the start of a turn at score i: policy
    iteration per score, U(i, k) = a_k + b_k W(i) affine in the unknown W(i)."""
    w: dict[int, Fraction] = {}
    for i in range(goal - 1, -1, -1):
        need = goal - i
        hold = dict.fromkeys(range(1, need), False)
        while True:
            a: dict[int, Fraction] = {}
            b: dict[int, Fraction] = {}
            for k in range(need - 1, -1, -1):
                if k and hold[k]:
                    a[k], b[k] = w[i + k], Fraction(0)
                    continue
                live = [k + r for r in range(2, die + 1) if k + r < need]
                a[k] = sum((a[j] for j in live), Fraction(0)) / die
                b[k] = (1 + sum((b[j] for j in live), Fraction(0))) / die
            wi = (1 + a[0]) / (1 - b[0])
            better = {}
            for k in range(1, need):
                roll = (wi + sum((a[j] + b[j] * wi for j in (k + r for r in range(2, die + 1))
                                  if j < need), Fraction(0))) / die
                better[k] = w[i + k] < roll or (hold[k] and w[i + k] == roll)
            if better == hold:
                break
            hold = better
        w[i] = wi
    return w


@pytest.mark.parametrize(("goal", "die"), [(1, 6), (2, 6), (5, 2), (10, 6), (12, 3), (20, 6), (25, 4)])
def test_solve_equals_policy_iteration(goal: int, die: int) -> None:
    # independent re-derivation: the module's equations by a hand-written policy iteration
    sol = tbsg.solve(pig_solitaire(goal, die))
    ref = fewest_turns(goal, die)
    assert sol.value() == ref[0]
    assert all(sol.value(SolitaireState(i, 0)) == ref[i]
               for i in ref if SolitaireState(i, 0) in sol.values)
    assert not sol.win_probability


def test_small_goals_by_hand() -> None:
    # hand derivation: to 1 or 2 points the first good roll finishes: geometric, mean 6/5
    for goal in (1, 2):
        assert tbsg.solve(pig_solitaire(goal)).value() == Fraction(6, 5)
    # to 10 and 20: regression pins: tbsg's own output, not a source value
    # (both equal the policy iteration above)
    assert tbsg.solve(pig_solitaire(10)).value() == Fraction(7776, 4591)
    assert tbsg.solve(pig_solitaire(20)).value() == Fraction(15116544, 5675645)


@pytest.mark.parametrize(("goal", "die", "hold"), [(10, 6, 20), (30, 6, 20), (40, 4, 7), (25, 6, 12)])
def test_rule_moments_equal_the_recursion(goal: int, die: int, hold: int) -> None:
    # independent re-derivation: mean and variance from the one-turn gain distribution
    t = pig_solitaire_turns(goal, die, hold=hold)
    assert (t.hold_mean, t.hold_variance) == rule_moments(goal, die, hold)
    assert t.optimal <= t.hold_mean
    assert tbsg.evaluate(pig_solitaire(goal, die), hold_at(hold)).value() == t.hold_mean


def test_goal_100_against_the_nifty_simulation() -> None:
    # Nifty "Average Pig Turns": 12.634906 over 10^6 simulated hold-at-20-or-goal games;
    # the exact mean lies within 3 standard errors (exact variance), and optimal play is
    # faster (regression pin for its digits: tbsg's own output, not a source value)
    t = pig_solitaire_turns(100)
    mean, var = rule_moments(100, 6, 20)
    assert (t.hold_mean, t.hold_variance) == (mean, var)
    printed = Fraction(source.AVERAGE_TURNS)
    assert (printed - mean) ** 2 * source.GAMES <= 9 * var
    assert f"{float(t.hold_mean):.9f}" == "12.636769490"
    assert f"{float(t.optimal):.9f}" == "12.545232352"
    assert t.optimal == fewest_turns(100, 6)[0]
    assert len(str(t.optimal.denominator)) == 189
    # regression pin: tbsg's own output, not a source value (the module docstring's policy)
    boundary = pig_solitaire_boundary(tbsg.solve(pig_solitaire(100)))
    assert [boundary[i] for i in (0, 50, 70, 75)] == [19, 24, 14, 25]


def test_boundary_and_table() -> None:
    sol = tbsg.solve(pig_solitaire(30))
    boundary = pig_solitaire_boundary(sol)
    for i, k in boundary.items():
        assert k == 30 - i or "hold" in sol.optimal_actions(SolitaireState(i, k))
        assert all(sol.optimal_actions(SolitaireState(i, j)) == ("roll",)
                   for j in range(1, k) if SolitaireState(i, j) in sol.values)
    row, = pig_solitaire_table([30], holds=range(10, 31))
    assert row.optimal == sol.value() <= row.best_hold_turns
    assert all(tbsg.chain(pig_solitaire(30), hold_at(h)).expected_reward(pig_solitaire(30).reward)
               == row.best_hold_turns for h in row.best_holds)
    with pytest.raises(InvalidGameError, match="PigSolitaire"):
        pig_solitaire_boundary(tbsg.solve(tbsg.games.piglet(2)))  # type: ignore[arg-type]


def test_rules_and_errors() -> None:
    game = pig_solitaire(10)
    assert game.player(game.initial) == 1
    assert game.actions(SolitaireState(0, 0)) == ("roll",)
    assert game.reward(SolitaireState(3, 0), "roll") == 1
    assert game.reward(SolitaireState(3, 4), "roll") == 0
    assert game.outcomes(SolitaireState(3, 4), "hold") == [(1, SolitaireState(7, 0))]
    # from 8 with turn total 0 every face 2..6 reaches 10
    assert game.outcomes(SolitaireState(8, 0), "roll") == [
        (Fraction(1, 6), SolitaireState(8, 0)), (Fraction(5, 6), tbsg.Terminal(0))]
    with pytest.raises(InvalidGameError, match="goal"):
        PigSolitaire(0)
    with pytest.raises(InvalidGameError, match="die"):
        PigSolitaire(10, 1)
    with pytest.raises(InvalidGameError, match="action"):
        game.outcomes(SolitaireState(0, 2), "pass")  # type: ignore[arg-type]
