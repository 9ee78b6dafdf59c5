"""Monte Carlo play (tbsg.simulate) against the exact answers of tbsg.chain.

The oracle of every statistical test is exact: the value, expected length and outcome
probabilities of the same profile from :func:`tbsg.chain` (fundamental-matrix solves, no
sampling). The seeds are fixed, so each test is deterministic. The catalog test makes about
50 comparisons, so each is at level 1 - 10**-5 (z = 4.4): a correct simulation fails the
family with probability below 0.05% (at level 0.999 one comparison in 300 misses, and one
of these did: the walker's mean length of Piglet to 3, 4.3 standard errors off). The
intervals stay narrow (a few hundredths of a payoff), so a simulation that samples a wrong
probability, drops a reward or miscounts moves still lands outside.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest

import tbsg
from tbsg import Game, Terminal, win
from tbsg.games import coinball, pig, piglet, risk_or_safety, super_six, the_race
from tbsg.play.simulate import Estimate, simulate, wilson

LEVEL = 1 - 10**-5

CATALOG: dict[str, Callable[[], Game[Any, Any]]] = {
    "risk_or_safety(4)": lambda: risk_or_safety(4),
    "piglet(3)": lambda: piglet(3),
    "pig(goal=8)": lambda: pig(goal=8),
    "the_race(goal=4)": lambda: the_race(goal=4),
    "coinball(tosses=6)": lambda: coinball(tosses=6),
    "super_six(2, 2)": lambda: super_six(2, 2),
}


@pytest.mark.parametrize("compile_", [True, False], ids=["compiled", "walk"])
@pytest.mark.parametrize("name", sorted(CATALOG))
def test_simulation_agrees_with_the_exact_chain(name: str, compile_: bool) -> None:
    """Optimal play of catalog games: tbsg.chain's exact value, mean length and outcome
    probabilities each lie in the simulation's interval."""
    game = CATALOG[name]()
    sol = tbsg.solve(game)
    exact = tbsg.chain(game, sol)
    sim = simulate(game, sol, 20_000 if compile_ else 4_000, seed=2025, level=LEVEL, compile=compile_)
    assert sim.method == ("compiled" if compile_ else "walk") and sim.unfinished == 0
    assert exact.value() in sim.payoff
    assert exact.expected_steps() in sim.length
    probabilities = exact.outcome_probabilities()
    assert set(sim.counts) <= set(probabilities)
    for payoff, p in probabilities.items():
        assert p in sim.frequencies.get(payoff, wilson(0, sim.n, LEVEL)), payoff


def test_the_intervals_narrow_as_n_grows() -> None:
    """Normal intervals shrink like 1/sqrt(n): 100 times the games, a tenth of the width."""
    game = risk_or_safety(4)
    small = simulate(game, tbsg.solve(game), 1_000, seed=3)
    large = simulate(game, tbsg.solve(game), 100_000, seed=3)
    ratio = (large.payoff.high - large.payoff.low) / (small.payoff.high - small.payoff.low)
    assert 0.07 < ratio < 0.13


def test_a_seed_reproduces_the_simulation() -> None:
    game = piglet(3)
    for compile_ in (True, False):
        a = simulate(game, lambda s: "roll", 3_000, seed=11, compile=compile_)
        b = simulate(game, lambda s: "roll", 3_000, seed=11, compile=compile_)
        c = simulate(game, lambda s: "roll", 3_000, seed=12, compile=compile_)
        assert (a.counts, a.payoff, a.length) == (b.counts, b.payoff, b.length)
        assert (a.counts, a.payoff) != (c.counts, c.payoff)


def test_no_seed_draws_one_and_records_it() -> None:
    game = piglet(2)
    a = simulate(game, lambda s: "roll", 500)
    b = simulate(game, lambda s: "roll", 500, seed=a.seed)
    assert (a.counts, a.payoff, a.length) == (b.counts, b.payoff, b.length)


@dataclass(frozen=True)
class Paid:
    """One state; each step pays ``reward`` to player 0 and ends play with probability
    ``p`` (terminal payoff ``end``).

    By hand: the number of steps is geometric with mean ``1/p``, so the expected total is
    ``reward / p + end``; with reward 1, p = 1/2, end = 1 it is 3, and 2 moves on average.
    """

    reward_per_step: Fraction = Fraction(1)
    p: Fraction = Fraction(1, 2)
    end: Fraction = Fraction(1)
    initial: int = 0

    def player(self, s: int) -> int:
        return 0

    def actions(self, s: int) -> tuple[str, ...]:
        return ("go",)

    def outcomes(self, s: int, a: str) -> list[tuple[Fraction, int | Terminal]]:
        return [(self.p, Terminal(self.end)), (1 - self.p, 0)]

    def reward(self, s: int, a: str) -> Fraction:
        return self.reward_per_step


@pytest.mark.parametrize("compile_", [True, False], ids=["compiled", "walk"])
def test_rewards_add_to_the_payoff(compile_: bool) -> None:
    """The total is the rewards of the moves plus the terminal payoff (hand derivation in
    :class:`Paid`: 3 on average, over 2 moves); the outcome is the terminal payoff alone."""
    sim = simulate(Paid(), {}, 20_000, seed=7, level=LEVEL, compile=compile_)
    assert 3 in sim.payoff and 2 in sim.length and 2 not in sim.payoff
    assert set(sim.counts) == {1} and sim.counts[Fraction(1)] == sim.n


def test_a_profile_per_player() -> None:
    """(p0, p1) plays player 0's moves from p0 and player 1's from p1: the value of the
    pair of the solution's own strategies is the game's value."""
    game = risk_or_safety(4)
    sol = tbsg.solve(game)
    half = {s: a for s, a in sol.strategy.items() if game.player(s) == 1}
    sim = simulate(game, (sol, half), 20_000, seed=5, level=LEVEL)
    assert sol.value() in sim.payoff


def test_play_that_does_not_end_is_counted_as_unfinished() -> None:
    """Hand: with p = 1/2 a game lasts more than 3 moves with probability 1/8; those are
    unfinished and left out of the means (the finished all last 1, 2 or 3 moves)."""
    sim = simulate(Paid(), {}, 8_000, seed=1, max_steps=3, level=LEVEL)
    assert sim.unfinished + sim.finished == 8_000
    assert Fraction(1, 8) in wilson(sim.unfinished, sim.n, LEVEL)
    assert 1 <= sim.length.mean <= 3
    assert "unfinished after 3 moves" in str(sim)


def test_compile_true_refuses_a_chain_past_max_states_and_none_walks() -> None:
    game = risk_or_safety(4)
    with pytest.raises(tbsg.StateLimitError):
        simulate(game, lambda s: "toss", 10, seed=0, compile=True, max_states=5)
    assert simulate(game, lambda s: "toss", 10, seed=0, max_states=5).method == "walk"


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"n": 0}, "n must be a positive int, got 0"),
    ({"n": 2.5}, "n must be a positive int"),
    ({"n": True}, "n must be a positive int"),
    ({"seed": -1}, "seed must be a non-negative int or None"),
    ({"seed": "x"}, "seed must be a non-negative int or None"),
    ({"level": 1}, "level must be a confidence level strictly between 0 and 1"),
    ({"level": 0}, "level must be a confidence level"),
    ({"max_steps": 0}, "max_steps must be a positive int"),
    ({"compile": "yes"}, "compile must be True, False or None"),
    ({"max_states": -3}, "max_states must be a positive int"),
])
def test_bad_arguments_are_named(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"n": 10, "seed": 0} | kwargs
    with pytest.raises(tbsg.InvalidArgumentError, match=message):
        simulate(piglet(2), lambda s: "roll", **args)  # type: ignore[arg-type]


def test_bad_profiles_are_named() -> None:
    game = risk_or_safety(2)
    with pytest.raises(tbsg.InvalidArgumentError, match="profile must be a mapping or function"):
        simulate(game, 3, 10, seed=0)  # type: ignore[arg-type]
    with pytest.raises(tbsg.InvalidArgumentError, match=r"a pair .player 0's, player 1's., got 3 items"):
        simulate(game, (dict(), dict(), dict()), 10, seed=0)
    for compile_ in (True, False):
        with pytest.raises(tbsg.InvalidStrategyError, match="not a legal action"):
            simulate(game, lambda s: "fly", 10, seed=0, compile=compile_)  # type: ignore[arg-type]
    with pytest.raises(tbsg.InvalidStrategyError, match=r"profile\[1\] has no action for state"):
        simulate(game, (lambda s: "toss", {}), 10, seed=0)


def test_wilson_interval_by_hand() -> None:
    """Wilson (1927) with z = 1.959964 (95%), k = 0 of n = 10: the interval is [0, z^2 / (n + z^2)]
    = [0, 0.27753...] (the centre and half-width are equal when p = 0)."""
    e = wilson(0, 10, 0.95)
    z = 1.959963984540054
    assert e.mean == 0 and e.low == 0 and math.isclose(e.high, z * z / (10 + z * z))


def test_estimate_contains_numbers_only() -> None:
    e = Estimate(0.5, 0.4, 0.6)
    assert Fraction(1, 2) in e and 0.39 not in e and "0.5" not in e
    assert str(e) == "0.5 [0.4, 0.6]"


def test_win_payoffs_count_outcomes() -> None:
    """A game won at once by player 0: one outcome, frequency 1, one move."""

    @dataclass(frozen=True)
    class Won:
        initial: int = 0

        def player(self, s: int) -> int:
            return 0

        def actions(self, s: int) -> tuple[str, ...]:
            return ("win",)

        def outcomes(self, s: int, a: str) -> list[tuple[int, Terminal]]:
            return [(1, win(0))]

    sim = simulate(Won(), {}, 100, seed=0)
    assert sim.counts == {Fraction(1): 100} and sim.payoff.mean == 1 and sim.length.mean == 1


@pytest.mark.parametrize("compile_", [True, False], ids=["compiled", "walk"])
def test_a_count_measures_the_length(compile_: bool) -> None:
    """Counting coin tosses only (stopping is a move, not a toss): the mean lies in the
    interval around tbsg.chain's exact expected_steps with the same count."""
    game = risk_or_safety(3)
    sol = tbsg.solve(game)

    def tosses(s: object, a: str) -> int:
        return 1 if a == "toss" else 0

    exact = tbsg.chain(game, sol).expected_steps(tosses)
    sim = simulate(game, sol, 20_000 if compile_ else 4_000, seed=8, level=LEVEL, count=tosses,
                   compile=compile_)
    assert exact in sim.length and sim.unit == "counted steps"
    assert tbsg.chain(game, sol).expected_steps() not in sim.length  # moves are not tosses here
    assert "mean length (counted steps): " in str(sim)


def test_bad_counts_are_named() -> None:
    game = risk_or_safety(2)
    with pytest.raises(tbsg.InvalidArgumentError, match=r"count must be a function of .state, action."):
        simulate(game, lambda s: "toss", 10, seed=0, count=3)  # type: ignore[arg-type]
    with pytest.raises(tbsg.ExactnessError, match=r"count at state .*must be an int or fractions.Fraction"):
        simulate(game, lambda s: "toss", 10, seed=0, count=lambda s, a: 0.5)  # type: ignore[arg-type,return-value]
    with pytest.raises(tbsg.InvalidArgumentError, match="count must be >= 0, got -1"):
        simulate(game, lambda s: "toss", 10, seed=0, count=lambda s, a: -1, compile=False)
