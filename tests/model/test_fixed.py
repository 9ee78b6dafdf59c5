"""FixedStrategyGame: the game a fixed strategy leaves (tbsg.model.fixed)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest

import tbsg
from tbsg.errors import InvalidStrategyError
from tbsg.games import pig, pig_hold_at, risk_or_safety
from tbsg.model.fixed import _SINGLES, FixedStrategyGame


@dataclass(frozen=True)
class Act:
    """An action compared by value: a strategy may return a fresh, equal object."""

    name: str


class Many:
    """States 0..n: from ``s`` action ``Act(str(s))`` moves on, ``Act("stop")`` ends play."""

    initial = 0

    def __init__(self, n: int) -> None:
        self.n = n

    def player(self, s: int) -> int:
        return s % 2

    def actions(self, s: int) -> tuple[Act, ...]:
        return (Act(str(s)), Act("stop"))

    def outcomes(self, s: int, a: Act) -> list[tuple[Fraction, Any]]:
        if a.name == "stop" or s == self.n:
            return [(Fraction(1), tbsg.DRAW)]
        return [(Fraction(1, 2), s + 1), (Fraction(1, 2), tbsg.win(s % 2))]


def test_the_chosen_action_is_found_by_equality_and_its_tuple_is_reused() -> None:
    game = Many(3)
    fixed = FixedStrategyGame(game, lambda s: Act(str(s)), (0, 1))
    assert fixed.actions(2) == (Act("2"),)  # found by equality (a fresh object each call)
    hold = FixedStrategyGame(pig(20), pig_hold_at(5), (0, 1))
    first = hold.actions(tbsg.games.PigState(0, 0, 0, 6))
    assert first == ("hold",)
    assert hold.actions(tbsg.games.PigState(1, 3, 0, 7)) is first  # same action object: same tuple


def test_more_distinct_actions_than_the_reused_tuples() -> None:
    game = Many(3 * _SINGLES)
    strategy = {s: Act(str(s)) for s in range(3 * _SINGLES + 1)}
    fixed = FixedStrategyGame(game, strategy, (0, 1))
    for s in range(3 * _SINGLES + 1):
        assert fixed.actions(s) == (Act(str(s)),)
    assert len(fixed._singles) <= _SINGLES
    # the chain's value (regression pin of tbsg's own output, checked by hand for n = 1:
    # from 0, player 0 moves on with 1/2 (then a draw at 1) and wins with 1/2: 3/4)
    assert tbsg.evaluate(Many(1), {0: Act("0"), 1: Act("stop")}).value() == Fraction(3, 4)


def test_one_player_fixed_keeps_the_other_players_actions() -> None:
    game = Many(4)
    fixed = FixedStrategyGame(game, lambda s: Act("stop"), (1,))
    assert fixed.actions(0) == game.actions(0)
    assert fixed.actions(1) == (Act("stop"),)


def test_illegal_and_failing_strategies_are_named() -> None:
    game = risk_or_safety(2)
    with pytest.raises(InvalidStrategyError, match="not a legal action"):
        tbsg.evaluate(game, lambda s: "fly")  # type: ignore[arg-type]  # an illegal action, on purpose
    with pytest.raises(InvalidStrategyError, match="ZeroDivisionError"):
        tbsg.evaluate(game, lambda s: 1 // 0)  # type: ignore[arg-type]  # a strategy that raises


def test_best_response_to_hold_at_20_in_small_pig_equals_reach_game() -> None:
    """The profile-reach wrapper and the full game with masked actions agree exactly."""
    game = pig(12)
    a = tbsg.best_response(game, 1, pig_hold_at(5))
    b = tbsg.best_response(game, 1, pig_hold_at(5), reach="game")
    assert a.value() == b.value()
    assert all(a.value(s) == b.value(s) for s in a.states)


@pytest.mark.parametrize(("game", "fixed"), [
    (pig(25), (1,)), (pig(25), (0, 1)), (pig(25), (0,)), (risk_or_safety(6), (0,)),
    (risk_or_safety(6), (0, 1))])
def test_a_fixed_game_keeps_the_array_form_and_compiles_identically(game: Any, fixed: tuple[int, ...]
                                                                    ) -> None:
    # issue 13: best_response and evaluate enumerate the fixed game through the game's array
    # form (the strategy asked row by row); the compiled game is the plain protocol's
    import numpy as np

    from tbsg.engine.compile import compile_game

    strategy: Any = pig_hold_at(12)
    if not hasattr(game, "goal"):  # Risk or Safety: stop with 2 open points
        strategy = lambda s: "stop" if s.open >= 2 else "toss"  # noqa: E731
    g = FixedStrategyGame(game, strategy, fixed)
    assert g.array_shape == game.array_shape
    fast, plain = compile_game(g), compile_game(g, arrays=False)
    assert fast.states == plain.states and fast.act_labels == plain.act_labels
    for name in ("act_ptr", "out_ptr", "out_target", "act_code", "stop_code", "out_code", "player"):
        assert np.array_equal(getattr(fast, name), getattr(plain, name)), name
    assert fast.rationals == plain.rationals


def test_a_fixed_game_without_an_array_form_offers_none_and_errors_name_the_state() -> None:
    assert FixedStrategyGame(Many(4), lambda s: Act("stop"), (0,)).array_shape is None

    class Renamed(type(pig(6))):  # type: ignore[misc]
        """An array form whose labels are not the protocol's ("Hold" for "hold")."""

        def array_transitions(self, states: Any) -> Any:
            t = super().array_transitions(states)
            acts = tuple(a if a.label == "roll" else dataclasses.replace(a, label="Hold")
                         for a in t.actions)
            return dataclasses.replace(t, actions=acts)

    game = Renamed(6)
    with pytest.raises(tbsg.InvalidGameError, match=r"has no action 'hold'.*\('roll', 'Hold'\).*at state"):
        tbsg.evaluate(game, pig_hold_at(2))
    # a strategy error keeps its plain-protocol message
    with pytest.raises(InvalidStrategyError, match="not a legal action"):
        tbsg.evaluate(pig(6), lambda s: "jump")  # type: ignore[arg-type]  # an illegal action


def test_a_fixed_reward_game_keeps_its_rewards_and_its_one_player() -> None:
    """Issue 24: fixing the strategy of OneTurn (tests/oracles.py: no player(), a reward
    for banking) keeps the reward and player 0 everywhere; holding at 4 is the forced rule
    of OneTurn(4), whose hand-derived value is 155/36."""
    from oracles import OneTurn
    fixed = FixedStrategyGame(OneTurn(4), lambda t: "roll" if t < 4 else "bank", (0,))
    assert fixed.player(7) == 0 and fixed.reward(7, "bank") == 7
    assert tbsg.solve(fixed).value() == Fraction(155, 36)
    plain = FixedStrategyGame(risk_or_safety(2), lambda s: "toss", (0, 1))
    assert not hasattr(plain, "reward")  # a game without rewards stays one


# -- ArrayStrategy: a strategy with an array form ------------------------------------------

def _hold_at(k: int) -> Any:
    """Risk or Safety's "stop with k open points" as an ArrayStrategy (column 1 is ``open``)."""
    from tbsg.model.fixed import ArrayStrategy

    return ArrayStrategy(lambda s: "stop" if s.open >= k else "toss",
                         lambda rows: (rows[:, 1] >= k).astype(int), ("toss", "stop"))


@pytest.mark.parametrize("fixed", [(0,), (1,), (0, 1)])
def test_an_array_strategy_compiles_as_its_function_does(fixed: tuple[int, ...]) -> None:
    """The array form of a strategy makes the choices of its function: the compiled fixed
    game is the plain protocol's (with the function), array for array."""
    import numpy as np

    from tbsg.engine.compile import compile_game

    game = risk_or_safety(7)
    strategy = _hold_at(2)
    fast = compile_game(FixedStrategyGame(game, strategy, fixed))
    plain = compile_game(FixedStrategyGame(game, strategy.function, fixed), arrays=False)
    assert fast.states == plain.states and fast.act_labels == plain.act_labels
    for name in ("act_ptr", "out_ptr", "out_target", "act_code", "stop_code", "out_code", "player"):
        assert np.array_equal(getattr(fast, name), getattr(plain, name)), name
    assert fast.rationals == plain.rationals


def test_an_array_strategy_gives_the_exact_values_of_its_function() -> None:
    game = risk_or_safety(6)
    strategy = _hold_at(1)
    assert tbsg.chain(game, strategy).expected_steps() == tbsg.chain(game, strategy.function).expected_steps()
    a = tbsg.best_response(game, 0, strategy)
    b = tbsg.best_response(game, 0, strategy.function)
    assert a.value() == b.value() and a.strategy == b.strategy
    assert tbsg.verify(game, a).states == a.n_states  # (verify raises on failure)
    # a game without an array form asks the function alone
    assert tbsg.evaluate(Many(4), tbsg.ArrayStrategy(lambda s: Act("stop"), _never, (Act("stop"),))
                         ).value() == tbsg.evaluate(Many(4), lambda s: Act("stop")).value()


def _never(rows: Any) -> Any:
    raise AssertionError("the array function of a game without an array form is never asked")


@pytest.mark.parametrize("call", ["best_response", "chain", "evaluate"])
def test_an_array_strategy_that_differs_at_one_state_off_the_sample_is_refused(call: str) -> None:
    """The array function differs from the function at one reachable state only, which the
    compiler's sample of 32 states misses: every fixed state is asked through the function
    after the compilation, so no value of another strategy is reported (and certified:
    a best response records the strategy it was computed with, not the function).

    Before that check, ``best_response`` here returned the best response to the array
    function's strategy, which differs from the one to the function, and ``verify``
    accepted it."""
    import numpy as np

    from tbsg.model.fixed import ArrayStrategy

    def array_function(rows: Any) -> Any:  # keeps tossing at one state of player 1
        rare = (rows[:, 0] == 1) & (rows[:, 1] == 1) & (rows[:, 2] == 13) & (rows[:, 3] == 7)
        return (rows[:, 1] >= 1) & ~rare

    game = risk_or_safety(20)
    function = _hold_at(1).function
    strategy: Any = ArrayStrategy(function, array_function, ("toss", "stop"))
    assert np.array_equal(array_function(np.array([[1, 1, 13, 7], [1, 1, 13, 8]])), [False, True])
    with pytest.raises(InvalidStrategyError, match=r"function and array function disagree at state "
                                                   r"RoSState\(mover=1, open=1, saved=13, other=7\)"):
        if call == "best_response":
            tbsg.best_response(game, 0, strategy)
        elif call == "chain":
            tbsg.chain(game, strategy).value()
        else:
            tbsg.evaluate(game, strategy)


def test_an_array_strategy_that_differs_from_its_function_is_refused() -> None:
    from tbsg.model.fixed import ArrayStrategy

    always_toss: Any = ArrayStrategy(lambda s: "stop" if s.open >= 1 else "toss",
                                lambda rows: [0] * len(rows), ("toss", "stop"))
    with pytest.raises(InvalidStrategyError, match=r"function and array function disagree at state "
                                                   r"RoSState\(mover=0, open=1.*function chooses 'stop', "
                                                   r"the array function 'toss'"):
        tbsg.chain(risk_or_safety(5), always_toss)
    # an illegal choice of the array form: the function is asked there, and decides the words
    stop_everywhere: Any = ArrayStrategy(lambda s: "stop", lambda rows: [1] * len(rows), ("toss", "stop"))
    with pytest.raises(InvalidStrategyError, match=r"chooses 'stop' at state RoSState\(mover=0, open=0, "
                                                   r"saved=0, other=0\), which is not a legal action"):
        tbsg.chain(risk_or_safety(5), stop_everywhere)
    legal_function: Any = ArrayStrategy(lambda s: "toss", lambda rows: [1] * len(rows), ("toss", "stop"))
    with pytest.raises(InvalidStrategyError, match=r"disagree at state RoSState\(mover=0, open=0"):
        tbsg.chain(risk_or_safety(5), legal_function)
    unknown: Any = ArrayStrategy(lambda s: "toss", lambda rows: [1] * len(rows), ("toss", "jump"))
    with pytest.raises(InvalidStrategyError, match=r"the function chooses 'toss', the array function 'jump'"):
        tbsg.chain(risk_or_safety(5), unknown)


@pytest.mark.parametrize(("array_function", "words"), [
    (lambda rows: [2] * len(rows), r"returned code 2 at state \(0, 0, 0, 0\); codes are positions"),
    (lambda rows: [0.0] * len(rows), r"must return an int array of shape \(1,\).*got float64"),
    (lambda rows: [0, 0], r"must return an int array of shape \(1,\).*\(2,\)"),
    (lambda rows: rows["open"], r"array function of strategy raised IndexError.*on 1 states from \(0, 0"),
])
def test_bad_codes_of_an_array_function_are_named(array_function: Any, words: str) -> None:
    from tbsg.model.fixed import ArrayStrategy

    strategy: Any = ArrayStrategy(lambda s: "toss", array_function, ("toss", "stop"))
    with pytest.raises(InvalidStrategyError, match=words):
        tbsg.chain(risk_or_safety(5), strategy)


@pytest.mark.parametrize("actions", [(), ("toss", "toss"), "toss", ([1],), 3])
def test_an_array_strategy_needs_distinct_actions(actions: Any) -> None:
    from tbsg.model.fixed import ArrayStrategy

    with pytest.raises(InvalidStrategyError, match="actions must be a non-empty sequence of distinct"):
        ArrayStrategy(lambda s: "toss", lambda rows: rows[:, 0], actions)
    with pytest.raises(InvalidStrategyError, match="needs a function state -> action"):
        ArrayStrategy(lambda s: "toss", 3, ("toss",))  # type: ignore[arg-type]  # on purpose
