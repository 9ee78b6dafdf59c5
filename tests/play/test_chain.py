"""The Markov chain of a profile (tbsg.chain) and the fastest / slowest optimal play.

Known answers are derived by hand in the comments (no source prints them); the property
tests compare with the fundamental matrix ``N = (I - Q)^-1`` of Kemeny and Snell (1960),
computed by fraction-free elimination over plain integers (``tbsg.testing``'s oracle, no
solver code).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tbsg
from strategies import TableGame, stopping_games
from tbsg import DRAW, Terminal, win
from tbsg.testing.oracle import solve_linear_system

HALF = Fraction(1, 2)


@dataclass(frozen=True)
class Geometric:
    """One state; each step ends play (player 0 wins) with probability ``p``."""

    p: Fraction
    initial: int = 0

    def player(self, s: int) -> int:
        return 0

    def actions(self, s: int) -> tuple[str, ...]:
        return ("try",)

    def outcomes(self, s: int, a: str) -> list[tuple[Fraction, int | Terminal]]:
        return [(self.p, win(0)), (1 - self.p, 0)]


def two_state() -> TableGame:
    """A: stay w.p. 1/2, else B.  B: end (a draw) w.p. 1/3, else back to A."""
    third = Fraction(1, 3)
    return TableGame(players=(0, 1), moves=(
        (("go", ((HALF, 0), (HALF, 1))),),
        (("go", ((third, DRAW), (1 - third, 0))),),
    ))


@pytest.mark.parametrize("p", [Fraction(1, 2), Fraction(1, 6), Fraction(2, 7)])
def test_geometric_length(p: Fraction) -> None:
    # L is geometric: P(L = k) = (1 - p)^(k - 1) p, E L = 1/p, Var L = (1 - p)/p^2
    c = tbsg.chain(Geometric(p), lambda s: "try")
    assert c.expected_steps() == 1 / p
    assert c.variance_of_steps() == (1 - p) / p**2
    d = c.length_distribution(12)
    assert d.pmf == tuple([Fraction(0)] + [(1 - p) ** (k - 1) * p for k in range(1, 13)])
    assert d.cdf[12] == 1 - (1 - p) ** 12
    assert (d.mean, d.variance, d.ends) == (1 / p, (1 - p) / p**2, 1)
    assert c.outcome_probabilities() == {Fraction(1): Fraction(1)}
    # every step visits the one state: 1/p visits
    assert c.visits(0) == 1 / p


def test_two_state_chain_mean_and_variance() -> None:
    # T_A = 1 + T_A/2 + T_B/2, T_B = 1 + 2 T_A/3  =>  T_B = 7, T_A = 9.
    # Second moments M = 2 c T - c^2 + P M (c = 1): M_A = 17 + M_A/2 + M_B/2,
    # M_B = 13 + 2 M_A/3  =>  M_B = 107, M_A = 141; Var_A = 141 - 81 = 60, Var_B = 107 - 49 = 58.
    c = tbsg.chain(two_state(), lambda s: "go")
    assert c.expected_steps() == 9 and c.expected_steps(state=1) == 7
    assert c.variance_of_steps() == 60 and c.variance_of_steps(state=1) == 58
    # visits: N_AA = 1/(1 - P(return to A)); from A, return w.p. 1/2 + 1/2 * 2/3 = 5/6
    assert c.visits(0) == 6 and c.visits(1) == 3
    assert c.outcome_probabilities() == {HALF: Fraction(1)}
    # the partial sums of P(L > k) approach E L = 9 from below
    d = c.length_distribution(400)
    tail_sum = sum((1 - f for f in d.cdf), Fraction(0))
    assert 9 - Fraction(1, 10**9) < tail_sum < 9


def test_count_per_state_and_action() -> None:
    # count only B's steps: each passage A -> B costs 1, and B is visited 3 times
    c = tbsg.chain(two_state(), lambda s: "go")
    assert c.expected_steps(lambda s, a: 1 if s == 1 else 0) == 3
    assert c.expected_reward(lambda s, a: Fraction(-1, 2) if s == 0 else 1) == Fraction(-3) + 3


def test_draws_and_outcome_split() -> None:
    # one die roll: 1 -> player 0 wins, 2 or 3 -> draw, else player 1 wins
    sixth = Fraction(1, 6)
    game = TableGame(players=(0,), moves=(
        (("roll", ((sixth, win(0)), (2 * sixth, DRAW), (3 * sixth, win(1)))),),))
    c = tbsg.chain(game, lambda s: "roll")
    split = c.outcome_probabilities()
    assert split == {Fraction(1): sixth, HALF: Fraction(1, 3), Fraction(0): HALF}
    assert list(split) == [Fraction(1), HALF, Fraction(0)]  # decreasing payoff
    assert sum(r * q for r, q in split.items()) == c.value() == Fraction(1, 3)


def trap_game() -> TableGame:
    """A: end (player 0 wins) w.p. 1/2, else B.  B: stays in B forever."""
    return TableGame(players=(0, 0), moves=(
        (("go", ((HALF, win(0)), (HALF, 1))),),
        (("wait", ((Fraction(1), 1),)),),
    ))


def test_infinite_expectation_is_an_error() -> None:
    c = tbsg.chain(trap_game(), {0: "go", 1: "wait"})
    assert not c.stops()
    with pytest.raises(tbsg.InfiniteExpectationError, match=r"probability 1/2") as info:
        c.expected_steps()
    assert info.value.probability == HALF and info.value.states == (1,)
    assert isinstance(info.value, ValueError)
    with pytest.raises(tbsg.InfiniteExpectationError):
        c.visits(1)
    with pytest.raises(tbsg.InfiniteExpectationError):
        c.variance_of_steps()
    # a count that is 0 in the trap stays finite; the game's value needs a rule
    assert c.expected_steps(lambda s, a: 1 if s == 0 else 0) == 1
    assert c.visits(0) == 1
    assert c.outcome_probabilities() == {Fraction(1): HALF}
    assert c.reach(lambda s: s == 1) == HALF
    with pytest.raises(tbsg.NonStoppingGameError):
        c.value()
    assert c.value(infinite_play=0) == HALF
    d = c.length_distribution(5)
    assert d.mean is None and d.variance is None and d.ends == HALF == d.trapped
    assert d.beyond() == HALF


def test_reach_in_a_closed_class_containing_the_target() -> None:
    # C <-> D forever (no terminal); reaching D from C is certain
    game = TableGame(players=(0, 0, 0), moves=(
        (("go", ((HALF, win(1)), (HALF, 1))),),
        (("go", ((Fraction(1), 2),)),),
        (("go", ((Fraction(1), 1),)),),
    ))
    c = tbsg.chain(game, lambda s: "go")
    assert c.reach(lambda s: s == 2) == HALF
    assert c.reach(lambda s: s == 2, state=1) == 1
    assert c.reach(lambda s: s == 2, exact=False) == pytest.approx((0.5, 0.5))


def test_float_bounds_contain_the_exact_values() -> None:
    c = tbsg.chain(two_state(), lambda s: "go")
    lo, hi = c.expected_steps(exact=False)
    assert lo <= 9 <= hi and hi - lo < 1e-9
    lo, hi = c.visits(1, exact=False)
    assert lo <= 3 <= hi
    for r, (lo, hi) in c.outcome_probabilities(exact=False).items():
        assert r == HALF and lo <= 1 <= hi


def test_float_length_distribution_encloses_the_exact_one() -> None:
    c = tbsg.chain(two_state(), lambda s: "go")
    exact, bounds = c.length_distribution(30), c.length_distribution(30, exact=False)
    for p, (lo, hi) in zip(exact.pmf, bounds.pmf, strict=True):
        assert lo <= p <= hi and hi - lo < 1e-12
    for p, (lo, hi) in zip(exact.cdf, bounds.cdf, strict=True):
        assert lo <= p <= hi
    assert bounds.mean is not None and bounds.variance is not None
    assert bounds.mean[0] <= 9 <= bounds.mean[1] and bounds.variance[0] <= 60 <= bounds.variance[1]
    assert bounds.ends[0] <= 1 <= bounds.ends[1]
    lo, hi = c.variance_of_steps(exact=False)
    assert lo <= 60 <= hi and hi - lo < 1e-9
    # a chain that may never end: no mean, and the trapped mass never ends
    t = tbsg.chain(trap_game(), {0: "go", 1: "wait"}).length_distribution(4, exact=False)
    assert t.mean is None and t.ends[0] <= HALF <= t.ends[1] and t.trapped[0] <= HALF <= t.trapped[1]
    # a count of 0 in the trap leaves play trapped all the same: L = infinity there
    t = tbsg.chain(trap_game(), {0: "go", 1: "wait"}).length_distribution(
        4, lambda s, a: 1 if s == 0 else 0, exact=False)
    assert t.mean is None and t.variance is None
    assert bounds.trapped == (0.0, 0.0) and bounds.ends == (1.0, 1.0)
    assert t.pmf[1][0] <= HALF <= t.pmf[1][1] and t.pmf[2] == (0.0, 0.0)


def test_float_length_bounds_survive_underflow() -> None:
    # P(L = 2) = t (1 - t) t ~ 1e-400 underflows in every float product; the
    # upper bound must still be positive (it encloses the exact value, not the rounded one)
    t = Fraction(1, 10**200)
    game = TableGame(players=(0, 0), moves=((("go", ((t, 1), (1 - t, win(0)))),),
                                            (("go", ((t, win(1)), (1 - t, 0))),)))
    c = tbsg.chain(game, lambda s: "go")
    exact = c.length_distribution(3)
    bounds = c.length_distribution(3, exact=False)
    assert exact.pmf[2] > 0
    for p, (lo, hi) in zip(exact.pmf, bounds.pmf, strict=True):
        assert lo <= p <= hi


def test_huge_counts_and_values() -> None:
    c = tbsg.chain(two_state(), lambda s: "go")
    # a count of 10**12 per step: nothing ends within the horizon, and no memory per count
    d = c.length_distribution(3, lambda s, a: 10**12, exact=False)
    assert d.pmf == ((0.0, 0.0),) * 4
    assert c.length_distribution(3, lambda s, a: 10**12).pmf == (0, 0, 0, 0)
    # values beyond the float range: a clear refusal, exact still answers
    with pytest.raises(tbsg.UnsupportedError, match=r"exceed the float range"):
        c.expected_reward(lambda s, a: 10**400, exact=False)
    with pytest.raises(tbsg.UnsupportedError, match=r"exceed the float range"):
        c.variance_of_steps(lambda s, a: Fraction(10**200), exact=False)
    assert c.expected_reward(lambda s, a: 10**400) == 9 * 10**400


def closed_zero_loop() -> TableGame:
    """0 -> 1 or 2 (1/2 each); 1 ends (player 0 wins) w.p. 1/2, else back to 1; 2 waits forever."""
    return TableGame(players=(0, 0, 0), moves=(
        (("go", ((HALF, 1), (HALF, 2))),),
        (("go", ((HALF, win(0)), (HALF, 1))),),
        (("wait", ((Fraction(1), 2),)),),
    ))


def test_zero_count_cycle_where_play_never_ends_is_fine() -> None:
    # the cycle 2 -> 2 counts 0 but play never ends there, so its mass has
    # L = infinity (never a finite length); from 0, L = 1 + G with G geometric(1/2) on state 1
    c = tbsg.chain(closed_zero_loop(), lambda s: "go" if s != 2 else "wait")
    count = lambda s, a: 0 if s == 2 else 1  # noqa: E731
    assert c.expected_steps(count) == 2  # 1 + (1/2)(2): half the mass never counts again
    d = c.length_distribution(4, count)
    assert d.pmf == (0, 0, Fraction(1, 4), Fraction(1, 8), Fraction(1, 16))
    # E L is infinite (P(L = infinity) = 1/2), whatever the total count's expectation
    assert d.ends == HALF == d.trapped and d.mean is None and d.variance is None
    bounds = c.length_distribution(4, count, exact=False)
    assert all(lo <= p <= hi for p, (lo, hi) in zip(d.pmf, bounds.pmf, strict=True))
    # from state 1 play ends surely: its value needs no rule for infinite play
    assert c.value(state=1) == 1 and c.length_distribution(2, count, state=1).pmf == (0, HALF, Fraction(1, 4))
    with pytest.raises(tbsg.NonStoppingGameError):
        c.value()


def test_bad_arguments() -> None:
    c = tbsg.chain(two_state(), lambda s: "go")
    with pytest.raises(tbsg.ExactnessError, match=r"count at state 0, action 'go'"):
        c.expected_steps(lambda s, a: 0.5)  # type: ignore[arg-type, return-value]  # a float, on purpose
    with pytest.raises(tbsg.InvalidArgumentError, match=r"count must be >= 0, got -1 at state 0"):
        c.expected_steps(lambda s, a: -1)
    with pytest.raises(tbsg.InvalidArgumentError, match=r"whole number"):
        c.length_distribution(3, lambda s, a: HALF)
    with pytest.raises(tbsg.InvalidArgumentError, match=r"n must be an int >= 0"):
        c.length_distribution(-1)
    with pytest.raises(tbsg.InvalidArgumentError, match=r"count raised ZeroDivisionError at state 0"):
        c.expected_steps(lambda s, a: 1 // 0)
    with pytest.raises(tbsg.InvalidArgumentError, match=r"cycle through state"):
        c.length_distribution(3, lambda s, a: 0)
    with pytest.raises(tbsg.UnknownStateError, match=r"not reached by the profile"):
        c.visits(7)
    with pytest.raises(tbsg.InvalidArgumentError, match=r"exact must be True or False"):
        c.expected_steps(exact=1)  # type: ignore[call-overload]
    with pytest.raises(tbsg.InvalidStrategyError, match=r"no action for state 0"):
        tbsg.chain(tie_game(), {2: "short"})


def test_a_solution_is_a_profile() -> None:
    # Risk or Safety to 2: the mover tosses until the turn's two points win (seed 000
    # section 3.1: 4/7 for the first player); a turn is 1 toss w.p. 1/2, else 2 tosses,
    # and wins w.p. 1/4: 4 turns of 3/2 tosses on average, 6 tosses in all
    game = tbsg.games.risk_or_safety(2)
    sol = tbsg.solve(game)
    c = tbsg.chain(game, sol)
    assert c.value() == sol.value() == Fraction(4, 7)
    assert c.expected_steps(lambda s, a: 1 if a == "toss" else 0) == 6
    assert c.expected_steps(lambda s, a: 1 if s.open == 0 else 0) == 4  # turns
    fs = tbsg.solve(game, exact=False)
    assert tbsg.chain(game, fs).value() == Fraction(4, 7)


# --- the fastest and slowest optimal play ----------------------------------------------

def tie_game() -> TableGame:
    """Player 0 at state 0: "draw" (a draw now), "wait" (to chance state 1, which draws
    w.p. 1/2 and returns to 0 otherwise) or "lose"; the first two are worth 1/2.
    Player 1 at state 2 (the start): "short" or "long" (via state 3 then 0), both to 0.
    """
    return TableGame(initial=2, players=(0, 0, 1, 1), moves=(
        (("draw", ((Fraction(1), DRAW),)),
         ("wait", ((Fraction(1), 1),)),
         ("lose", ((Fraction(1), win(1)),))),
        (("toss", ((HALF, DRAW), (HALF, 0))),),
        (("short", ((Fraction(1), 0),)), ("long", ((Fraction(1), 3),))),
        (("on", ((Fraction(1), 0),)),),
    ))


def test_fastest_and_slowest_differ() -> None:
    # Both of player 0's first two actions are worth 1/2, "lose" 0; both of player 1's
    # actions lead to state 0. Fastest: "short" then "draw": 2 moves. Slowest: "long"
    # (1 move to state 3, 1 more to state 0), then "wait" for ever-repeated tosses: from
    # state 0, T = 1 + T_1 and T_1 = 1 + T/2, so T = 4, and 2 + 4 = 6 moves in all.
    sol = tbsg.solve(tie_game())
    assert sol.value() == HALF
    fast, slow = sol.fastest(), sol.slowest()
    assert (fast.expected, slow.expected) == (2, 6)
    assert dict(fast.strategy) == {2: "short", 0: "draw", 1: "toss", 3: "on"}
    assert dict(slow.strategy) == {2: "long", 0: "wait", 1: "toss", 3: "on"}
    assert fast.game_value == slow.game_value == HALF
    assert slow.expected_from(0) == 4
    # counting only player 0's moves: fastest 1, slowest 2 (state 0 visited twice on average)
    only0 = lambda s, a: 1 if s == 0 else 0  # noqa: E731
    assert (sol.fastest(only0).expected, sol.slowest(only0).expected) == (1, 2)
    # the profile is a full profile: the chain agrees
    assert tbsg.chain(tie_game(), slow.strategy).expected_steps() == 6


def test_fastest_of_fixed_strategy_solutions() -> None:
    # with reach="game" the opponent's other actions (here one that stays
    # for ever) are not the solution's; the stopping check looks at the actions in play
    game = TableGame(players=(0, 1), moves=(
        (("a", ((HALF, win(0)), (HALF, 1))), ("b", ((HALF, win(0)), (HALF, 1)))),
        (("stay", ((Fraction(1), 1),)), ("go", ((HALF, win(1)), (HALF, 0))))))
    # 0 -> 1 -> 0 ...: each visit to 0 ends w.p. 1/2, each to 1 w.p. 1/2: 2 moves on average
    for reach in ("profile", "game"):
        sol = tbsg.best_response(game, 0, {1: "go"}, reach=reach)
        assert sol.fastest().expected == sol.slowest().expected == 2


def test_float_solutions_have_no_tie_break() -> None:
    with pytest.raises(tbsg.UnsupportedError, match=r"exact ties"):
        tbsg.solve(tie_game(), exact=False).fastest()
    with pytest.raises(tbsg.InvalidArgumentError, match=r"not hashable"):
        tbsg.solve(tie_game()).fastest().expected_from([1])  # type: ignore[arg-type]


def test_fastest_needs_a_stopping_game() -> None:
    game = TableGame(players=(0,), moves=((("stay", ((Fraction(1), 0),)), ("end", ((Fraction(1), DRAW),))),))
    sol = tbsg.solve(game, infinite_play=HALF)
    with pytest.raises(tbsg.UnsupportedError, match=r"stopping game"):
        sol.fastest()


# --- properties ------------------------------------------------------------------------

def _profile_chain(game: TableGame, data: st.DataObject) -> tuple[dict[int, object], list[int]]:
    """A random pure profile and the states it reaches from the initial state (BFS order)."""
    profile: dict[int, object] = {}
    order = [game.initial]
    seen = {game.initial}
    for s in order:
        acts = game.actions(s)
        a = acts[data.draw(st.integers(0, len(acts) - 1))]
        profile[s] = a
        for p, nxt in game.outcomes(s, a):
            if p and not isinstance(nxt, Terminal) and nxt not in seen:
                seen.add(nxt)
                order.append(nxt)
    return profile, order


def _fundamental_row(game: TableGame, profile: dict[int, object], states: list[int]) -> list[Fraction]:
    """Row of the initial state in N = (I - Q)^-1: solve (I - Q)^T y = e_0."""
    pos = {s: r for r, s in enumerate(states)}
    m = len(states)
    q = [[Fraction(0)] * m for _ in range(m)]
    for s in states:
        for p, nxt in game.outcomes(s, profile[s]):
            if not isinstance(nxt, Terminal):
                q[pos[s]][pos[nxt]] += Fraction(p)
    rows = [[(1 if i == j else 0) - q[j][i] for j in range(m)] + [1 if i == 0 else 0] for i in range(m)]
    return solve_linear_system(rows)


@settings(max_examples=60, deadline=None)
@given(game=stopping_games(max_states=6), data=st.data())
def test_chain_matches_the_fundamental_matrix(game: TableGame, data: st.DataObject) -> None:
    profile, states = _profile_chain(game, data)
    y = _fundamental_row(game, profile, states)
    weights = {s: data.draw(st.integers(0, 3)) for s in states}
    c = tbsg.chain(game, profile)
    assert c.n_states == len(states)
    assert c.expected_steps() == sum(y, Fraction(0))
    weighted = sum(yi * weights[s] for yi, s in zip(y, states, strict=True))
    assert c.expected_steps(lambda s, a: weights[s]) == weighted
    for r, s in enumerate(states):
        assert c.visits(s) == y[r]
    split: dict[Fraction, Fraction] = {}
    for r, s in enumerate(states):
        for p, nxt in game.outcomes(s, profile[s]):
            if isinstance(nxt, Terminal):
                split[nxt.payoff] = split.get(nxt.payoff, Fraction(0)) + y[r] * Fraction(p)
    assert c.outcome_probabilities() == {r: q for r, q in sorted(split.items(), reverse=True) if q}
    # the outcome split reproduces the value, and the value is evaluate's
    value = sum((r * q for r, q in c.outcome_probabilities().items()), Fraction(0))
    assert value == c.value() == tbsg.evaluate(game, profile).value()
    try:
        lo, hi = c.expected_steps(exact=False)
    except tbsg.UnsupportedError:
        # refused only where a probability is below float resolution (1 - p rounds to 1)
        smallest = min(Fraction(q) for s in states for q, _ in game.outcomes(s, profile[s]) if q)
        assert smallest < Fraction(1, 2**40)
    else:
        assert lo <= c.expected_steps() <= hi


@settings(max_examples=40, deadline=None)
@given(game=stopping_games(max_states=5, tiny=False), data=st.data())
def test_length_distribution_converges(game: TableGame, data: st.DataObject) -> None:
    profile, _ = _profile_chain(game, data)
    c = tbsg.chain(game, profile)
    mean = c.expected_steps()
    d = c.length_distribution(60)
    cdf = d.cdf
    assert all(a <= b for a, b in itertools.pairwise(cdf))  # non-decreasing
    assert d.ends == 1 and d.trapped == 0 and d.mean == mean
    # sum_k P(L > k) rises to E L; Markov's inequality bounds the tail
    assert sum((1 - f for f in cdf), Fraction(0)) <= mean
    assert 1 - cdf[-1] <= mean / 61
    assert d.variance == c.variance_of_steps() and d.variance is not None and d.variance >= 0
    bounds = c.length_distribution(60, exact=False)
    assert all(lo <= p <= hi for p, (lo, hi) in zip(d.pmf, bounds.pmf, strict=True))


@settings(max_examples=40, deadline=None)
@given(game=stopping_games(max_states=5, max_actions=3, max_profiles=64))
def test_fastest_is_no_slower_than_any_optimal_profile(game: TableGame) -> None:
    sol = tbsg.solve(game)
    fast, slow = sol.fastest(), sol.slowest()
    assert fast.expected <= slow.expected
    # every optimal pure profile's expected length lies between them
    states = sol.states
    options = [sol.optimal_actions(s) for s in states]
    lengths = []
    for combo in itertools.product(*options):
        profile = dict(zip(states, combo, strict=True))
        lengths.append(tbsg.chain(game, profile).expected_steps())
    # the extremes over every optimal profile, attained by the profiles returned
    assert (fast.expected, slow.expected) == (min(lengths), max(lengths))
    assert tbsg.chain(game, fast.strategy).expected_steps() == fast.expected
    assert tbsg.chain(game, slow.strategy).expected_steps() == slow.expected


# --- rewards (issue 24) ---------------------------------------------------------------------------

def test_a_chain_counts_the_games_own_rewards() -> None:
    """OneTurn and Bet (hand-derived in tests/oracles.py): the chain of the solution's
    profile is worth the solution's value, rewards included; expected_reward() with no
    argument is the game's own rewards (OneTurn's terminals pay 0: the whole value)."""
    from oracles import Bet, OneTurn
    game = OneTurn(4)
    sol = tbsg.solve(game)
    c = tbsg.chain(game, sol)
    assert c.value() == c.expected_reward() == sol.value() == Fraction(155, 36)
    assert c.expected_reward(lambda s, a: 1) == c.expected_steps()
    assert c.outcome_probabilities() == {0: 1}  # every turn ends at a terminal paying 0
    bet = tbsg.chain(Bet(), tbsg.solve(Bet()))
    assert bet.value() == Fraction(7, 6) and bet.value(player=1) == -Fraction(7, 6)
    assert bet.outcome_probabilities() == {9: Fraction(1, 6), 0: Fraction(1, 2), -1: Fraction(1, 3)}
    with pytest.raises(tbsg.InvalidArgumentError, match="pays no rewards"):
        bet.expected_reward()


def test_a_chain_that_collects_rewards_forever_has_no_value() -> None:
    class Treadmill:
        initial = 0

        def actions(self, s: int) -> tuple[str]:
            return ("run",)

        def reward(self, s: int, a: str) -> int:
            return 1

        def outcomes(self, s: int, a: str) -> list[tuple[int, int]]:
            return [(1, 0)]

    with pytest.raises(tbsg.InfiniteExpectationError, match="total payoff is infinite"):
        tbsg.chain(Treadmill(), lambda s: "run").value(infinite_play=0)
