"""The game model: terminals, the exactness gate every number passes, the payoff of
never-ending play, and the runtime-checkable Game protocol."""

from __future__ import annotations

import dataclasses
import decimal
import pickle
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import tbsg
import tbsg.games
from oracles import PassTheCoin
from tbsg.errors import ExactnessError, InvalidGameError
from tbsg.model.protocol import DRAW, Game, Terminal, exact, infinite_play_payoff, win


class _MyInt(int):
    pass


class _MyFraction(Fraction):
    pass


@pytest.mark.parametrize(("x", "value"), [
    (1, Fraction(1)),
    (Fraction(1, 3), Fraction(1, 3)),
    (np.int64(2), Fraction(2)),
    (np.uint8(3), Fraction(3)),
    # numpy parts: numbers.Rational at run time, not to the type checker
    (Fraction(np.int64(1), np.int64(3)), Fraction(1, 3)),  # type: ignore[call-overload]
    (_MyInt(3), Fraction(3)),
    (_MyFraction(1, 2), Fraction(1, 2)),
])
def test_exact_accepts_integers_and_fractions_as_python_ints(x: object, value: Fraction) -> None:
    got = exact(x, "a probability")
    assert got == value
    assert type(got) is Fraction
    assert type(got.numerator) is int and type(got.denominator) is int


def test_numpy_parts_cannot_overflow_after_the_gate() -> None:
    # numpy int64 arithmetic wraps at 2**63; after the gate the parts are Python ints
    x = exact(Fraction(np.int64(2**62), np.int64(3)), "a probability")  # type: ignore[call-overload]
    assert x * x == Fraction(2**124, 9)


@pytest.mark.parametrize(("x", "shown"), [
    (True, "bool True"),
    (np.bool_(True), "bool np.True_"),
    (0.5, "float 0.5"),
    (decimal.Decimal("0.5"), "Decimal"),
    ("1/2", "str '1/2'"),
    (None, "NoneType None"),
    (1 + 0j, "complex"),
])
def test_exact_refuses_everything_else_naming_what_it_was(x: object, shown: str) -> None:
    expected = f"a probability must be an int or fractions.Fraction, got {shown}"
    with pytest.raises(ExactnessError, match=expected):
        exact(x, "a probability")


def test_a_float_error_says_how_to_write_it_exactly() -> None:
    with pytest.raises(ExactnessError, match=r"e\.g\. Fraction\(1, 2\) or Fraction\('0\.5'\)"):
        exact(0.5, "p")
    # an ExactnessError is also a TypeError (a float where a rational belongs)
    with pytest.raises(TypeError):
        exact(0.25, "p")


def test_terminals() -> None:
    assert Terminal(Fraction(1, 3)).payoff == Fraction(1, 3)
    assert type(Terminal(1).payoff) is Fraction
    assert type(Terminal(np.int64(1)).payoff.numerator) is int  # type: ignore[arg-type]  # numpy int
    # equal payoffs: equal terminals, equal hashes (outcomes are merged by terminal)
    assert Terminal(Fraction(1, 2)) == DRAW and hash(Terminal(Fraction(1, 2))) == hash(DRAW)
    assert Terminal(0) != Terminal(1)
    assert DRAW.payoff == Fraction(1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        DRAW.payoff = Fraction(1)  # type: ignore[misc]  # frozen, on purpose
    assert pickle.loads(pickle.dumps(DRAW)) == DRAW


@pytest.mark.parametrize("payoff", [Fraction(-1, 2), Fraction(3, 2), 2, -1, 10**30])
def test_a_payoff_may_be_any_rational(payoff: Fraction | int) -> None:
    t = Terminal(payoff)
    assert t.payoff == payoff and type(t.payoff) is Fraction
    assert t == Terminal(Fraction(payoff)) and hash(t) == hash(Terminal(Fraction(payoff)))


def test_a_float_payoff_is_refused() -> None:
    with pytest.raises(ExactnessError, match="terminal payoff"):
        Terminal(0.5)  # type: ignore[arg-type]  # a float, on purpose


def test_win_pays_the_winner() -> None:
    # payoffs are to player 0: 1 when player 0 wins, 0 when player 1 does
    assert win(0) == Terminal(1) and win(1) == Terminal(0)
    assert win(0).payoff + win(1).payoff == 1


@pytest.mark.parametrize("who", [True, False, 2, -1, "0", None])
def test_win_takes_only_player_0_or_1(who: Any) -> None:
    with pytest.raises(InvalidGameError, match=r"win\(\) takes player 0 or 1"):
        win(who)


def test_infinite_play_payoff() -> None:
    assert infinite_play_payoff(None) is None
    assert infinite_play_payoff(0) == 0
    assert infinite_play_payoff(Fraction(1, 2)) == Fraction(1, 2)
    assert type(infinite_play_payoff(np.int64(1))) is Fraction
    assert infinite_play_payoff(Fraction(3, 2)) == Fraction(3, 2)  # any payoff: a score
    assert infinite_play_payoff(-2) == -2
    with pytest.raises(ExactnessError, match="infinite_play"):
        infinite_play_payoff(0.5)


class _NoOutcomes:
    initial = 0

    def player(self, s: int) -> int:
        return 0

    def actions(self, s: int) -> tuple[str, ...]:
        return ("a",)


def test_the_protocol_is_the_four_members() -> None:
    assert isinstance(PassTheCoin(), Game)
    assert not isinstance(_NoOutcomes(), Game)
    assert tbsg.solve(PassTheCoin()).value() == Fraction(2, 3)  # solved by hand in its docstring
    assert tbsg.Game is Game and tbsg.DRAW is DRAW


@pytest.mark.parametrize("bad", [0.0, 1.0, True, False, "0", Fraction(0)])
def test_win_takes_an_int_player_only(bad: object) -> None:
    # a float or a bool is not read as a player (0.0 == 0 must not pass)
    with pytest.raises(tbsg.InvalidGameError, match="win\\(\\) takes player 0 or 1"):
        tbsg.win(bad)  # type: ignore[arg-type]


def test_win_takes_numpy_integers() -> None:
    assert tbsg.win(np.int64(1)) is tbsg.win(1)  # type: ignore[arg-type]  # numpy ints are ints here


def test_player_and_reward_are_optional() -> None:
    """Issue 24: a game without player() is player 0's everywhere; without reward() it pays
    none (reward_function gives None, not a function returning 0)."""
    from tbsg.model.protocol import player_function, reward_function

    class Solo:
        initial = 0

        def reward(self, s: int, a: str) -> int:
            return 2

    assert player_function(Solo())("anything") == 0
    assert reward_function(Solo()) is not None and reward_function(Solo())(0, "a") == 2
    assert reward_function(object()) is None
    assert player_function(tbsg.games.risk_or_safety(2))(tbsg.games.RoSState(1, 0, 0, 0)) == 1
