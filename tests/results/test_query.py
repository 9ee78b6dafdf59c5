"""One query vocabulary for every result type (tbsg.results.query), and one query API on
exact and float solutions.

Oracle: the exact solution of the same game. Every float answer must contain the exact
one (bounds, action intervals, optimal actions) and equal it where the float solution
says it is certain; the catalog games used have published exact values (Risk or Safety,
seed 000: P(0,0,0) = 1026/1925 for n = 5; Coinball, seed 001, has exact ties).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tbsg
from tbsg.engine import _backend as bk
from tbsg.games import RoSState, coinball, piglet, risk_or_safety
from tbsg.results import INITIAL, ProfileQueries, StateQueries, _down, _up

Act = Literal["toss", "stop"]

GAMES: dict[str, Callable[[], tbsg.Game[Any, Any]]] = {
    "risk_or_safety": lambda: risk_or_safety(5), "coinball": lambda: coinball(6),
    "piglet": lambda: piglet(4)}


@pytest.fixture(scope="module", params=sorted(GAMES))
def pair(request: pytest.FixtureRequest) -> tuple[tbsg.Solution[Any, Any], tbsg.FloatSolution[Any, Any]]:
    game = GAMES[request.param]()
    return tbsg.solve(game), tbsg.solve(game, exact=False, tol=1e-12)


def test_published_value_inside_the_float_bounds() -> None:
    # seed 000 (Jehn 2026), section 3.3: n = 5 gives 1026/1925
    fsol = tbsg.solve(risk_or_safety(5), exact=False)
    lo, hi = fsol.bounds()
    assert lo <= Fraction(1026, 1925) <= hi
    lo1, hi1 = fsol.bounds(player=1)
    assert lo1 <= 1 - Fraction(1026, 1925) <= hi1
    assert tbsg.solve(risk_or_safety(5)).bounds() == (Fraction(1026, 1925),) * 2


def test_bounds_and_values_contain_the_exact_values(
        pair: tuple[tbsg.Solution[Any, Any], tbsg.FloatSolution[Any, Any]]) -> None:
    exact, approx = pair
    for s in exact.states:
        v = exact.value(s)
        for player, want in ((0, v), (1, 1 - v)):
            lo, hi = approx.bounds(s, player=player)
            assert type(lo) is float and type(hi) is float
            assert lo <= want <= hi, (s, player)
            assert exact.bounds(s, player=player) == (want, want)
            assert abs(approx.value(s, player=player) - want) <= (hi - lo) / 2 + 1e-15
        mover = exact.player(s)
        assert exact.value_to_move(s) == exact.value(s, player=mover)
        assert approx.value_to_move(s) == approx.value(s, player=mover)
        assert approx.values[s] == approx.value(s) and exact.values[s] == v
        assert approx.values_bounds[s] == approx.bounds(s) and exact.values_bounds[s] == (v, v)
    assert len(approx.values) == len(approx.values_bounds) == exact.n_states
    assert set(approx.values) == set(exact.states)


def test_action_intervals_contain_the_exact_action_values(
        pair: tuple[tbsg.Solution[Any, Any], tbsg.FloatSolution[Any, Any]]) -> None:
    exact, approx = pair
    for s in exact.states:
        for player in (0, 1):
            q = exact.action_values(s, player=player)
            intervals = approx.action_values(s, player=player)
            assert list(intervals) == list(q)  # same actions, the game's order
            assert approx.action_bounds(s, player=player) == intervals
            assert exact.action_bounds(s, player=player) == {a: (x, x) for a, x in q.items()}
            for a, (lo, hi) in intervals.items():
                assert type(lo) is float and type(hi) is float
                assert lo <= q[a] <= hi, (s, a, player)
        assert exact.action_values(s, player=1) == {a: 1 - x for a, x in exact.action_values(s).items()}


def test_float_optimal_actions_contain_the_exact_ones(
        pair: tuple[tbsg.Solution[Any, Any], tbsg.FloatSolution[Any, Any]]) -> None:
    exact, approx = pair
    certain = 0
    for s in exact.states:
        want = exact.optimal_actions(s)
        got = approx.optimal_actions(s)
        assert set(want) <= set(got), s
        order = list(exact.action_values(s))
        assert list(got) == sorted(got, key=order.index)  # the game's order
        assert exact.optimal_actions_certain(s) is True
        if approx.optimal_actions_certain(s):
            certain += 1
            assert got == want, s
        else:
            assert len(got) > 1
    # the bounds decide every state without an exact tie (gaps of 1e-12, margins far wider)
    assert certain == sum(len(exact.optimal_actions(s)) == 1 for s in exact.states)


def test_exact_ties_are_never_called_certain() -> None:
    # Coinball (seed 001, "it's a wash"): exactly tied calls stay undecided in floats
    exact = tbsg.solve(coinball(6))
    approx = tbsg.solve(coinball(6), exact=False)
    tied = [s for s in exact.states if len(exact.optimal_actions(s)) > 1]
    assert len(tied) > 10
    for s in tied:
        assert not approx.optimal_actions_certain(s)
        assert set(approx.optimal_actions(s)) == set(exact.optimal_actions(s))


def test_an_action_ruled_out_by_the_bounds_is_left_out() -> None:
    # one state, player 0: "a" wins with 1/3, "b" with 1/3 + 10**-6; the gap (1e-12) rules "a" out
    class Two:
        initial = 0

        def player(self, s: int) -> int:
            return 0

        def actions(self, s: int) -> tuple[str, ...]:
            return ("a", "b")

        def outcomes(self, s: int, a: str) -> list[tuple[Fraction, Any]]:
            p = Fraction(1, 3) + (Fraction(1, 10**6) if a == "b" else 0)
            return [(p, tbsg.win(0)), (1 - p, tbsg.win(1))]

    approx = tbsg.solve(Two(), exact=False)
    assert approx.optimal_actions() == ("b",) and approx.optimal_actions_certain()
    assert approx.action() == "b"
    # player 1 minimises player 0's payoff: "a" then
    class Other(Two):
        def player(self, s: int) -> int:
            return 1

    other = tbsg.solve(Other(), exact=False)
    assert other.optimal_actions() == ("a",) and other.optimal_actions_certain()


def test_fixed_players_have_their_strategy_as_the_only_optimal_action() -> None:
    game = risk_or_safety(3)
    for exact_flag in (True, False):
        br = tbsg.best_response(game, 0, lambda s: "toss", exact=exact_flag)
        for s in br.states:
            # a best response of player 0: player 1 plays its fixed strategy
            if s.mover == 1:
                assert br.optimal_actions(s) == (br.action(s),) and br.optimal_actions_certain(s)
        # player 0 optimises: after one heads with nothing saved, both actions are open to him
        assert len(br.action_values(RoSState(0, 1, 0, 0))) == 2
    # an evaluation (exact only): nobody optimises
    ev = tbsg.evaluate(game, lambda s: "toss")
    assert all(ev.optimal_actions(s) == (ev.action(s),) for s in ev.states)


def test_values_users_receive_are_fractions_whatever_the_backend() -> None:
    sol = tbsg.solve(risk_or_safety(3))
    if bk.BACKEND == "gmpy2":  # stored as mpq: users must still receive Fractions
        assert type(sol._raw_values[0]).__name__ == "mpq"
    assert all(type(x) is Fraction for x in sol.values_exact)
    assert type(sol.values_exact[0]) is Fraction and type(sol.values_exact[-1]) is Fraction
    assert all(type(x) is Fraction for x in sol.values_exact[2:5])
    assert all(type(x) is Fraction for x in sol.values.values())
    assert sol.values_exact == [sol.value(s) for s in sol.states]
    assert [sol.value(s) for s in sol.states] == sol.values_exact  # reflected
    assert sol.values_exact != [Fraction(0)] * sol.n_states
    # replace() keeps the stored values, without wrapping them again
    copy = dataclasses.replace(sol, method="copy")
    assert copy._raw_values is sol._raw_values and copy.values_exact == sol.values_exact
    with pytest.raises(TypeError):
        hash(sol.values_exact)


def test_every_query_names_an_unknown_state() -> None:
    exact = tbsg.solve(risk_or_safety(2))
    approx = tbsg.solve(risk_or_safety(2), exact=False)
    bad: Any = (9, 9, 9, 9)  # not a state
    for sol in (exact, approx):
        for query in ("value", "value_to_move", "bounds", "action", "optimal_actions",
                      "optimal_actions_certain", "action_values", "action_bounds"):
            with pytest.raises(tbsg.UnknownStateError, match="not reachable"):
                getattr(sol, query)(bad)
        with pytest.raises(KeyError):
            sol.values[bad]
        with pytest.raises(KeyError):
            sol.values_bounds[[1]]  # type: ignore[index]  # unhashable: not a state
        with pytest.raises(tbsg.InvalidArgumentError, match="player must be 0 or 1"):
            sol.bounds(player=2)


def test_generic_code_runs_on_both_kinds() -> None:
    # what a user writes once for exact=True and keeps for exact=False
    def summary(sol: tbsg.Solution[Any, Any] | tbsg.FloatSolution[Any, Any]) -> tuple[object, ...]:
        lo, hi = sol.bounds()
        return (sol.optimal_actions(), sol.optimal_actions_certain(), sol.action(),
                float(lo) <= float(hi), sorted(sol.action_bounds()), len(sol.values),
                sol.strategy[sol.initial])

    game = piglet(3)
    assert summary(tbsg.solve(game)) == summary(tbsg.solve(game, exact=False))


@given(st.floats(min_value=0.0, max_value=1.0))
def test_complements_are_rounded_outward(x: float) -> None:
    exact = 1 - Fraction(x)
    assert Fraction(_down(x)) <= exact <= Fraction(_up(x))
    assert _up(x) - _down(x) <= 2 * math.ulp(1.0)


def test_complement_of_a_tiny_bound() -> None:
    # 1 - 1e-20 rounds to 1.0: a lower bound must step below it
    assert _down(1e-20) < 1.0 and _up(1e-20) == 1.0
    assert _down(0.25) == _up(0.25) == 0.75


# -- the protocols: every result type speaks the vocabulary ----------------------------------

def test_every_result_type_satisfies_the_query_protocols() -> None:
    pytest.importorskip("sympy")
    pytest.importorskip("flint")
    import sympy

    from tbsg.games import biased_risk_or_safety
    from tbsg.parametric import (
        ParametricSolution,
        ParametricValues,
        Piecewise,
        RationalFunction,
        Region,
        evaluate_parametric,
        solve_parametric,
    )

    game = risk_or_safety(2)
    p = sympy.Symbol("p")
    psol: ParametricSolution[RoSState, Act] = solve_parametric(biased_risk_or_safety(2, p), p)
    # statically: mypy checks each assignment against the protocol (signatures included)
    exact: ProfileQueries[RoSState, Act, Fraction] = tbsg.solve(game)
    approx: ProfileQueries[RoSState, Act, float] = tbsg.solve(game, exact=False)
    played: ProfileQueries[RoSState, Act, Fraction] = tbsg.chain(game, tbsg.solve(game))
    region: ProfileQueries[RoSState, Act, RationalFunction] = psol.regions[0]
    fixed: ParametricValues[RoSState, Act] = evaluate_parametric(biased_risk_or_safety(2, p), p,
                                                                 lambda s: "toss")
    values: ProfileQueries[RoSState, Act, RationalFunction] = fixed
    whole: StateQueries[RoSState, Piecewise] = psol
    profiles: list[ProfileQueries[Any, Any, Any]] = [exact, approx, played, region, values]
    # at run time: the members exist
    for result in [*profiles, whole]:
        assert isinstance(result, StateQueries), type(result)
    for result in profiles:
        assert isinstance(result, ProfileQueries), type(result)
    assert not isinstance(psol, ProfileQueries)  # its actions need a point: at=x
    assert isinstance(psol.regions[0], Region) and not isinstance(game, StateQueries)
    # and they agree: the same game at p = 1/2, exactly
    half = Fraction(1, 2)
    s = RoSState(0, 1, 0, 0)
    assert exact.value(s) == played.value(s) == psol.value(s, at=half) == psol.value(s)(half)
    assert psol.region_at(half).value(s, at=half) == exact.value(s)
    assert exact.initial == approx.initial == played.initial == region.initial == whole.initial


def test_the_views_agree_on_every_result_type() -> None:
    # player 0's view by default, player=1 its complement, _to_move the mover's; every state
    # argument defaults to the initial state (INITIAL, never None)
    game = risk_or_safety(3)
    exact = tbsg.solve(game)
    played = tbsg.chain(game, exact)
    for result in (exact, played):
        assert result.value() == result.value(INITIAL) == result.value(result.initial)
        for s in result.states:
            v = result.value(s)
            mover = result.player(s)
            assert result.value(s, player=1) == 1 - v
            assert result.value_to_move(s) == result.value(s, player=mover)
            assert result.values[s] == v and result.value_to_move(s) == (v if mover == 0 else 1 - v)
            q0 = result.action_values(s)
            assert result.action_values_to_move(s) == result.action_values(s, player=mover)
            assert result.action_values(s, player=1) == {a: 1 - x for a, x in q0.items()}
            assert result.strategy[s] == result.action(s) in result.optimal_actions(s)
            assert q0[result.action(s)] == v  # the action played is worth the state's value
    assert played.optimal_actions() == (played.action(),) and list(played.action_values()) == ["toss"]
    approx = tbsg.solve(game, exact=False)
    for s in approx.states:
        mover = approx.player(s)
        assert approx.action_values_to_move(s) == approx.action_bounds(s, player=mover)


def test_a_chain_answers_like_the_evaluation_of_its_profile() -> None:
    # tbsg.evaluate and tbsg.chain of one profile: the same values, actions and strategy
    game = risk_or_safety(3)
    profile: dict[RoSState, Act] = {s: "toss" for s in tbsg.solve(game).states}
    ev = tbsg.evaluate(game, profile)
    played = tbsg.chain(game, profile)
    assert ev.n_states == played.n_states and set(ev.states) == set(played.states)
    for s in ev.states:
        assert played.value(s) == ev.value(s) and played.value_to_move(s) == ev.value_to_move(s)
        assert played.action(s) == ev.action(s) and played.optimal_actions(s) == ev.optimal_actions(s)
        assert played.player(s) == ev.player(s)
        assert played.action_values(s) == ev.action_values(s)
    assert dict(played.values) == dict(ev.values) and dict(played.strategy) == dict(ev.strategy)
    with pytest.raises(tbsg.UnknownStateError, match="not reached by the profile"):
        played.value_to_move(RoSState(9, 9, 9, 9))


def test_a_chain_that_may_never_end_has_values_only_with_a_payoff() -> None:
    # one state, "stay" forever: the value needs infinite_play; the mapping refuses to guess
    class Stay:
        initial = 0

        def player(self, s: int) -> int:
            return 0

        def actions(self, s: int) -> tuple[str, ...]:
            return ("stay",)

        def outcomes(self, s: int, a: str) -> list[tuple[int, int]]:
            return [(1, 0)]

    played = tbsg.chain(Stay(), lambda s: "stay")
    with pytest.raises(tbsg.NonStoppingGameError, match="never end"):
        played.values[0]
    with pytest.raises(tbsg.NonStoppingGameError):
        played.action_values()
    assert played.value(infinite_play=Fraction(1, 3)) == Fraction(1, 3)
    assert played.value(player=1, infinite_play=Fraction(1, 3)) == Fraction(2, 3)
    assert played.action_values_to_move(infinite_play=1) == {"stay": 1}


# --- the tie rule: the first optimal (or not-ruled-out) action in the game's order ------------

class _Ties:
    """Hand-solved: at ``A`` (player 0) "short" wins at once, "loop" wins with 1/2 and
    else returns to ``A`` (value ``v = 1/2 + v/2 = 1``), "detour" goes to ``B``, "stall"
    returns with 9/10 and else draws (value 19/20: not optimal); at ``B`` (player 1) "b1"
    lets player 0 win and "b2" stays with 1/3, else lets him win (value 1 too). So A has
    three optimal actions and B two; ``order`` is the game's order of A's actions."""

    initial = "A"

    def __init__(self, order: tuple[str, ...]) -> None:
        self.order = order

    def player(self, s: str) -> int:
        return 0 if s == "A" else 1

    def actions(self, s: str) -> tuple[str, ...]:
        return self.order if s == "A" else ("b2", "b1")

    def outcomes(self, s: str, a: str) -> list[tuple[Fraction, Any]]:
        w0, h = tbsg.win(0), Fraction(1, 2)
        table: dict[str, list[tuple[Fraction, Any]]] = {
                "short": [(Fraction(1), w0)], "loop": [(h, "A"), (h, w0)], "detour": [(Fraction(1), "B")],
                "stall": [(Fraction(9, 10), "A"), (Fraction(1, 10), tbsg.DRAW)],
                "b1": [(Fraction(1), w0)], "b2": [(Fraction(1, 3), "B"), (Fraction(2, 3), w0)]}
        return table[a]


@pytest.mark.parametrize("order", [("stall", "loop", "short", "detour"), ("detour", "stall", "short", "loop"),
                                   ("short", "loop", "detour", "stall")])
def test_both_paths_play_the_first_optimal_action_in_the_games_order(order: tuple[str, ...]) -> None:
    game = _Ties(order)
    exact, approx = tbsg.solve(game), tbsg.solve(game, exact=False)
    first = next(a for a in order if a != "stall")
    assert exact.optimal_actions("A") == tuple(a for a in order if a != "stall")
    assert dict(exact.strategy) == dict(approx.strategy) == {"A": first, "B": "b2"}
    assert exact.action() == approx.action() == first
    assert exact.tied_states() == approx.tied_states() == 2
    # the played profile is optimal: its chain has the solution's value
    assert tbsg.chain(game, exact).value() == exact.value() == 1
    # lengths depend on the tie: the chain's lies between the fastest and slowest optimal play
    steps = tbsg.chain(game, exact).expected_steps()
    assert exact.fastest().expected <= steps <= exact.slowest().expected
    lo, hi = tbsg.chain(game, approx).expected_steps(exact=False)
    assert lo <= steps <= hi


def test_the_rule_on_catalog_ties_and_untied_games() -> None:
    # coinball has exact ties between "rush" and "pass" (tbsg.engine.tiebreak's example)
    game = coinball(5)
    exact, approx = tbsg.solve(game), tbsg.solve(game, exact=False)
    assert all(exact.action(s) == exact.optimal_actions(s)[0] for s in exact.states)
    assert all(approx.action(s) == approx.optimal_actions(s)[0] for s in approx.states)
    assert dict(exact.strategy) == dict(approx.strategy)
    ties = sum(len(exact.optimal_actions(s)) > 1 for s in exact.states)
    assert ties > 0 and exact.tied_states() == ties == approx.tied_states()
    passes = lambda s, a: 1 if a == "pass" else 0  # noqa: E731
    lo, hi = tbsg.chain(game, approx).expected_steps(passes, exact=False)
    assert lo <= tbsg.chain(game, exact).expected_steps(passes) <= hi
    untied = tbsg.solve(risk_or_safety(3))
    assert untied.tied_states() == 0 == tbsg.solve(risk_or_safety(3), exact=False).tied_states()


def test_the_rule_leaves_fixed_players_their_strategy() -> None:
    # player 1 fixed to "b1", the second of her optimal actions in the game's order; player 0
    # responds and plays his first optimal action
    game = _Ties(("loop", "short", "detour", "stall"))
    for exact_flag in (True, False):
        br = tbsg.best_response(game, 0, lambda s: "b1", exact=exact_flag)
        assert br.action("B") == "b1" and br.action("A") == "loop" and br.tied_states() == 1
