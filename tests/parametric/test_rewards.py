"""Parametric games that pay rewards per move and terminal payoffs outside [0, 1]
(tbsg.parametric.compile reads ``reward``, tbsg.parametric.solve and verify_parametric
carry it): values are expected totals, rational functions of the parameter.

Every known answer is derived by hand in the test's docstring."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sympy = pytest.importorskip("sympy")
pytest.importorskip("flint")

import tbsg  # noqa: E402
from oracles import StopOrToss  # noqa: E402
from strategies import parametric_games, substituted  # noqa: E402
from tbsg import Terminal  # noqa: E402
from tbsg.engine.compile import compile_game  # noqa: E402
from tbsg.parametric import (  # noqa: E402
    RealAlgebraic,
    evaluate_parametric,
    solve_parametric,
    verify_parametric,
)
from tbsg.parametric.compile import compile_parametric  # noqa: E402
from tbsg.parametric.rational import RationalFunction  # noqa: E402
from tbsg.testing import RewardTableGame  # noqa: E402

P = sympy.Symbol("p")
UNIT = (Fraction(0), Fraction(1))


def rf(expr: Any) -> RationalFunction:
    return RationalFunction.from_expr(expr, P, "a test formula")


def solo(game: object) -> Any:
    """A one-player game without ``player``, as the solvers' argument (the static
    :class:`tbsg.Game` protocol lists ``player``, optional at run time)."""
    return game


class KeepTossing:
    """One player, one action: toss a coin showing heads with probability ``p``, earn
    ``pay`` per toss, toss again on heads; tails ends play paying 0. No ``player``: every
    state is player 0's."""

    initial = "tossing"

    def __init__(self, pay: Any = 1) -> None:
        self.pay = pay

    def actions(self, s: str) -> tuple[str, ...]:
        return ("toss",)

    def reward(self, s: str, a: str) -> Any:
        return self.pay

    def outcomes(self, s: str, a: str) -> list[tuple[Any, Any]]:
        return [(P, "tossing"), (1 - P, Terminal(0))]


def test_keep_tossing_is_the_geometric_total() -> None:
    """Hand derivation: ``v = 1 + p v``, so ``v = 1/(1 - p)`` expected tosses (the mean of
    a geometric number of trials with success probability ``1 - p``); with a reward of
    ``2p`` per toss, ``v = 2p + p v = 2p/(1 - p)``."""
    sol = solve_parametric(solo(KeepTossing()), P)
    assert len(sol.regions) == 1 and sol.breakpoints == ()
    assert sol.regions[0].value() == rf(1 / (1 - P))
    assert sol.value(at=Fraction(1, 3)) == Fraction(3, 2)
    assert sol.win_probability is False and sol.regions[0].win_probability is False
    assert sol.value(at=Fraction(1, 3), player=1) == Fraction(-3, 2)  # zero-sum: -v
    assert verify_parametric(sol).ok
    paid = solve_parametric(solo(KeepTossing(2 * P)), P)
    assert paid.regions[0].value() == rf(2 * P / (1 - P))
    assert verify_parametric(paid).ok
    ev = evaluate_parametric(solo(KeepTossing(2 * P)), P, lambda s: "toss")
    assert ev.value() == rf(2 * P / (1 - P)) and ev.win_probability is False


def test_stop_or_toss_breaks_at_two_thirds() -> None:
    """Hand derivation: tossing for ever is worth ``v = 1 + p v - 3(1 - p)``, i.e.
    ``v = (3p - 2)/(1 - p)``; stopping is worth 0. Tossing is better iff ``3p - 2 >= 0``:
    the breakpoint is ``p = 2/3``, where both are optimal (value 0). At ``p = 3/4``:
    ``(9/4 - 2)/(1/4) = 1``."""
    sol = solve_parametric(StopOrToss(P), P)
    low, high = sol.regions
    assert low.value() == rf(sympy.Integer(0)) and low.action() == "stop"
    assert high.value() == rf((3 * P - 2) / (1 - P)) and high.action() == "toss"
    (b,) = sol.breakpoints
    assert b.at == RealAlgebraic.rational(Fraction(2, 3))
    assert b.ties == {"s": ("stop", "toss")}
    assert sol.value(at=Fraction(3, 4)) == 1 and sol.value(at=Fraction(3, 4), player=1) == -1
    assert sol.action_values(at=Fraction(3, 4)) == {"stop": 0, "toss": 1}
    assert verify_parametric(sol).ok


class Minimiser:
    """A one-player game whose player is 1: toss (1 per toss, heads tosses again, tails
    ends play) or pay 3 at once to end it. She minimises the expected total."""

    initial = "s"

    def player(self, s: str) -> int:
        return 1

    def actions(self, s: str) -> tuple[str, ...]:
        return ("pay", "toss")

    def reward(self, s: str, a: str) -> int:
        return 3 if a == "pay" else 1

    def outcomes(self, s: str, a: str) -> list[tuple[Any, Any]]:
        if a == "pay":
            return [(1, Terminal(0))]
        return [(P, "s"), (1 - P, Terminal(0))]


def test_one_player_minimisation() -> None:
    """Hand derivation: tossing costs ``1/(1 - p)`` expected tosses, paying 3; the minimum
    tosses while ``1/(1 - p) <= 3``, i.e. ``p <= 2/3``, and pays above."""
    sol = solve_parametric(Minimiser(), P)
    low, high = sol.regions
    assert low.value() == rf(1 / (1 - P)) and low.action() == "toss"
    assert high.value() == rf(sympy.Integer(3)) and high.action() == "pay"
    assert sol.breakpoints[0].at == RealAlgebraic.rational(Fraction(2, 3))
    assert sol.value(at=Fraction(1, 2), player=1) == -2
    assert verify_parametric(sol).ok


@pytest.mark.parametrize("x", [Fraction(1, 5), Fraction(2, 3), Fraction(9, 10)])
def test_values_agree_with_the_numeric_solver(x: Fraction) -> None:
    """At a rational ``p`` the parametric value is what tbsg.solve finds on the game with
    ``p`` replaced by ``x`` (rewards folded in by the plain compiler)."""
    for game in (StopOrToss(P), Minimiser()):
        numeric = _substituted(game, x)
        assert solve_parametric(game, P).value(at=x) == tbsg.solve(numeric).value()


def _substituted(game: Any, x: Fraction) -> Any:
    """``game`` with every probability evaluated at ``p = x`` (sympy's substitution)."""

    def number(e: Any) -> Fraction:
        r = sympy.Rational(sympy.sympify(e).subs(P, sympy.Rational(x.numerator, x.denominator)))
        return Fraction(int(r.p), int(r.q))

    class Numeric:
        initial = game.initial
        player = game.player
        actions = game.actions
        reward = game.reward

        def outcomes(self, s: Any, a: Any) -> list[tuple[Fraction, Any]]:
            return [(number(q), t) for q, t in game.outcomes(s, a)]

    return Numeric()


def test_win_probability_games_read_as_before() -> None:
    """A game without rewards whose payoffs lie in [0, 1] is a win-probability game: player
    1's view is ``1 - v``. Its payoff moved outside [0, 1] makes it a zero-sum game."""
    sol = solve_parametric(tbsg.games.biased_risk_or_safety(2, P), P)
    assert sol.win_probability is True
    assert sol.value(at=Fraction(1, 2), player=1) == 1 - sol.value(at=Fraction(1, 2))

    class Score:
        initial = "s"

        def player(self, s: str) -> int:
            return 0

        def actions(self, s: str) -> tuple[str, ...]:
            return ("go",)

        def outcomes(self, s: str, a: str) -> list[tuple[Any, Any]]:
            return [(P, Terminal(5)), (1 - P, Terminal(-2))]

    score = solve_parametric(Score(), P)
    assert score.win_probability is False
    assert score.regions[0].value() == rf(7 * P - 2)  # 5p - 2(1 - p)
    assert score.value(at=Fraction(1, 2), player=1) == Fraction(-3, 2)


def test_a_tampered_reward_is_rejected() -> None:
    """verify_parametric asks the game for its rewards again: a recorded reward that is
    not the game's, and a game whose reward changed after the solve, are refused."""
    sol = solve_parametric(solo(KeepTossing()), P)
    pc = sol.compiled
    forged = dataclasses.replace(pc, reward=[rf(sympy.Integer(2))], const=[rf(sympy.Integer(2))])
    check = verify_parametric(dataclasses.replace(sol, compiled=forged))
    assert not check.ok
    assert any("the reward w_k of action 'toss' of state 'tossing'" in m for m in check.problems)
    game = KeepTossing()
    sol = solve_parametric(solo(game), P)
    game.pay = 2
    check = verify_parametric(sol)
    assert not check.ok and any("does not solve the profile's equations" in m for m in check.problems)
    wrong_kind = dataclasses.replace(pc, win_probability=True)
    fresh = solve_parametric(solo(KeepTossing()), P)
    check = verify_parametric(dataclasses.replace(fresh, compiled=wrong_kind))
    assert not check.ok and any("win_probability=True" in m for m in check.problems)


class Pays(KeepTossing):
    """:class:`KeepTossing` whose reward is whatever ``pay`` says (a bad value for the
    compiler to refuse), or raises ``pay`` when it is an exception."""

    def reward(self, s: str, a: str) -> Any:
        if isinstance(self.pay, Exception):
            raise self.pay
        return self.pay


def test_a_float_reward_is_refused_in_the_plain_compilers_words() -> None:
    """The same float reward, the same message from the plain and the parametric compiler."""

    class Plain(Pays):
        def outcomes(self, s: str, a: str) -> list[tuple[Any, Any]]:
            return [(Fraction(1, 2), "tossing"), (Fraction(1, 2), Terminal(0))]

    with pytest.raises(tbsg.ExactnessError) as plain:
        compile_game(solo(Plain(0.5)), arrays=False)
    with pytest.raises(tbsg.ExactnessError) as parametric:
        compile_parametric(solo(Plain(0.5)), P, UNIT)
    assert str(plain.value) == str(parametric.value)
    assert "reward at state 'tossing', action 'toss'" in str(parametric.value)


@pytest.mark.parametrize(("pay", "error", "words"), [
    (1 / (2 * P - 1), tbsg.InvalidGameError, "has a pole at p = 0.5"),
    (sympy.Symbol("q"), tbsg.InvalidGameError, "may depend only on the parameter p"),
    (P + sympy.Float(0.5), tbsg.ExactnessError, "holds the float"),
    (ValueError("no reward today"), tbsg.InvalidGameError, "game.reward()"),
    ("one", tbsg.ExactnessError, "reward at state 'tossing', action 'toss'"),
])
def test_bad_rewards_are_refused_by_name(pay: Any, error: type[Exception], words: str) -> None:
    with pytest.raises(error) as got:
        compile_parametric(solo(Pays(pay)), P, UNIT)
    assert words in str(got.value)


def test_numpy_integer_and_negative_rewards_are_read_exactly() -> None:
    """A numpy integer reads as the int it holds; a reward may be negative, or vanish at a
    point of the interval (only a pole is refused): ``v = (p - 1/2)/(1 - p)``."""
    pc = compile_parametric(solo(Pays(np.int64(-2))), P, UNIT)
    assert pc.reward == [rf(sympy.Integer(-2))] and pc.const == [rf(sympy.Integer(-2))]
    sol = solve_parametric(solo(Pays(P - sympy.Rational(1, 2))), P)
    assert sol.regions[0].value() == rf((P - sympy.Rational(1, 2)) / (1 - P))
    no_reward = compile_parametric(solo(Pays(0)), P, UNIT)
    assert no_reward.win_probability is True and not no_reward.has_rewards


# -- properties ------------------------------------------------------------------------------

REWARDS = [0, 1, -2, P, 1 - 2 * P, 1 / (1 + P), Fraction(5, 3)]
"""Rewards a random game draws: constants of either sign and rational functions of ``p``
finite on [0, 1]."""


@st.composite
def reward_games(draw: st.DrawFn) -> RewardTableGame:
    """A random stopping parametric game (:func:`strategies.parametric_games`) whose every
    action pays a reward drawn from :data:`REWARDS`."""
    game = draw(parametric_games(P))
    rewards = tuple(tuple(draw(st.sampled_from(REWARDS)) for _ in acts) for acts in game.moves)
    return RewardTableGame(players=game.players, moves=game.moves, rewards=rewards)


@settings(max_examples=25, deadline=None)
@given(game=reward_games(), t=st.fractions(0, 1))
def test_reward_games_agree_with_the_numeric_solver(game: RewardTableGame, t: Fraction) -> None:
    """In every region, at its sample and at a point between its ends, each state's value is
    what tbsg.solve finds with ``p`` replaced there (probabilities and rewards evaluated by
    sympy, not by tbsg), and the region's action is among the numeric optimal ones."""
    sol = solve_parametric(game, P)
    assert verify_parametric(sol).ok
    for r in sol.regions:
        lo, hi = r.lo.tight[1], r.hi.tight[0]  # type: ignore[index]  # rationals just inside
        for x in {r.sample, lo + t * (hi - lo)} - {lo, hi}:
            numeric = tbsg.solve(_at(game, x))
            for s in sol.compiled.states:
                assert r.value(s, at=x) == numeric.value(s)
                assert r.action(s) in numeric.optimal_actions(s)


def _at(game: RewardTableGame, x: Fraction) -> RewardTableGame:
    """``game`` with ``p = x`` in its probabilities and rewards (sympy's substitution)."""
    plain = substituted(game, P, x)
    xs = sympy.Rational(x.numerator, x.denominator)

    def number(w: Any) -> Fraction:
        r = sympy.Rational(sympy.sympify(w).subs(P, xs))
        return Fraction(int(r.p), int(r.q))

    rewards = tuple(tuple(number(w) for w in ws) for ws in game.rewards)
    return RewardTableGame(players=plain.players, moves=plain.moves, rewards=rewards)
