"""The parametric compiler (tbsg.parametric.compile) holds a game to the rules of the
numeric compilers (tbsg.engine.compile.checks), in their words: the same bad game is
refused with the same message by ``compile_game`` and by ``compile_parametric``."""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, cast

import pytest

sympy = pytest.importorskip("sympy")
pytest.importorskip("flint")

import tbsg  # noqa: E402
from tbsg import DRAW, win  # noqa: E402
from tbsg.engine.compile import compile_game  # noqa: E402
from tbsg.parametric.compile import compile_parametric  # noqa: E402
from tbsg.parametric.rational import RationalFunction  # noqa: E402

P = sympy.Symbol("p")
H = Fraction(1, 2)
UNIT = (Fraction(0), Fraction(1))


def _both(game: Any, max_states: int = 5_000_000) -> tuple[Exception, Exception]:
    """The errors of the plain and of the parametric compiler on ``game``."""
    with pytest.raises(tbsg.TbsgError) as plain:
        compile_game(game, arrays=False, max_states=max_states)
    with pytest.raises(tbsg.TbsgError) as parametric:
        compile_parametric(game, P, UNIT, max_states=max_states)
    return plain.value, parametric.value


@dataclass
class Cycle:
    """States ``make(0)``, ``make(1)``, ``make(2)``, ...: each moves on with probability
    1/2, else player 0 wins; ``make(k)`` builds state number k (mod ``period``)."""

    make: Callable[[int], Any]
    period: int = 3

    @property
    def initial(self) -> Any:
        return self.make(0)

    def player(self, s: Any) -> int:
        return 0

    def actions(self, s: Any) -> tuple[str, ...]:
        return ("go",)

    def outcomes(self, s: Any, a: str) -> list[tuple[Fraction, object]]:
        k = s.k if hasattr(s, "k") else s[0] if isinstance(s, tuple) else s
        return [(H, win(0)), (H, self.make((k + 1) % self.period))]


class Drifting:
    """A state whose hash changes on every call (a bug in a user's state class)."""

    calls = 0

    def __hash__(self) -> int:
        Drifting.calls += 1
        return Drifting.calls

    def __eq__(self, other: object) -> bool:
        return self is other

    def __repr__(self) -> str:
        return "Drifting()"


@dataclass
class OneState:
    """A one-state game whose every piece can be made wrong."""

    outs: list[tuple[object, object]] = field(default_factory=lambda: [(1, win(0))])
    who: object = 0
    acts: tuple[object, ...] = ("a",)
    initial: object = "s"

    def player(self, s: object) -> object:
        return self.who

    def actions(self, s: object) -> tuple[object, ...]:
        return self.acts

    def outcomes(self, s: object, a: object) -> list[tuple[object, object]]:
        return self.outs


def test_a_nan_state_is_refused_in_the_same_words() -> None:
    # the initial state holds a NaN: it is not equal to a copy of itself
    plain, parametric = _both(Cycle(lambda k: (k, float("nan"))))
    assert type(plain) is type(parametric) is tbsg.InvalidGameError
    assert str(plain) == str(parametric)
    assert "is not equal to a copy of itself: does it hold a float('nan')" in str(plain)
    # a NaN only in later states, each new: found when the table first doubles
    nan_later = Cycle(lambda k: (k, 0.0) if k == 0 else (k, float("nan")), period=10**9)
    plain, parametric = _both(nan_later)
    assert str(plain) == str(parametric)
    assert str(plain).startswith("a state holds float('nan'), which is not equal to itself")


def test_a_state_whose_hash_drifts_is_refused_in_the_same_words() -> None:
    plain, parametric = _both(OneState([(Fraction(1), Drifting())], initial="start"))
    assert type(plain) is type(parametric) is tbsg.InvalidGameError
    # Found when the table first doubles, unless a dictionary probe happens to meet the
    # object itself every time (its slot depends on the hash counter, shared by every test
    # run before this one): then at the end. The two compilers may meet it at different
    # checks, so the words are compared without when.
    when = re.compile(r" \(checked (while enumerating at state Drifting\(\), action 'a'|after enumeration)\)")
    assert when.search(str(plain)) and when.search(str(parametric))
    assert when.sub("", str(plain)) == when.sub("", str(parametric))
    assert when.sub("", str(plain)).startswith("state Drifting() cannot be found again in the state table: ")


class Bent(tbsg.Terminal):
    pass


BENT = Bent(H)
object.__setattr__(BENT, "payoff", 1.5)  # a float: no payoff (any exact rational is one)


@pytest.mark.parametrize("game", [
    OneState(who=2),
    OneState(acts=()),
    OneState(acts=("a", "a")),
    OneState(acts="a"),  # type: ignore[arg-type]
    OneState(outs=[(1, win(0), "extra")]),  # type: ignore[list-item]
    OneState(outs=[(H, ["unhashable"]), (H, win(0))]),
    OneState(outs=[(-H, win(0)), (3 * H, win(1))]),
    OneState(outs=[(1, BENT)]),
    OneState(initial=win(0)),
    OneState(initial=["s"]),
    Cycle(lambda k: k, period=10),
], ids=["player", "no actions", "action twice", "actions a string", "not a pair", "unhashable successor",
        "negative", "payoff", "terminal initial", "unhashable initial", "state limit"])
def test_each_rule_is_worded_alike(game: Any) -> None:
    plain, parametric = _both(game, max_states=5)
    assert type(plain) is type(parametric)
    assert str(plain) == str(parametric)


def test_inexact_numbers_are_refused_by_each_gate_naming_the_outcome() -> None:
    # the gates differ in what they accept (the parametric one reads sympy expressions)
    plain, parametric = _both(OneState(outs=[(0.5, win(0)), (H, win(1))]))
    assert type(plain) is type(parametric) is tbsg.ExactnessError
    where = "probability of outcome Terminal(payoff=Fraction(1, 1)) at state 's', action 'a' must be"
    assert str(plain).startswith(where) and str(parametric).startswith(where)


def test_sums_are_worded_alike_with_the_parametric_one() -> None:
    plain, parametric = _both(OneState(outs=[(H, win(0))]))
    assert str(plain) == "probabilities sum to 1/2, not 1, at state 's', action 'a'"
    assert str(parametric) == "probabilities sum to 1/2, not identically 1, at state 's', action 'a'"
    with pytest.raises(tbsg.InvalidGameError, match=r"^probabilities sum to 2\*p, not identically 1, "
                                                    r"at state 's', action 'a'$"):
        compile_parametric(cast("Any", OneState(outs=[(P, win(0)), (P, DRAW)])), P, UNIT)


def test_a_parametric_game_compiles_as_before() -> None:
    # s moves to t with probability p, else player 1 wins; t is a fair coin between a
    # draw and a win of player 0: c_s = 0, c_t = 1/2 * 1/2 + 1/2 * 1 = 3/4
    @dataclass
    class Two:
        initial: Hashable = "s"

        def player(self, s: Hashable) -> int:
            return 0

        def actions(self, s: Hashable) -> tuple[str, ...]:
            return ("go",)

        def outcomes(self, s: Hashable, a: str) -> list[tuple[Any, Any]]:
            if s == "s":
                return [(P, "t"), (1 - P, win(1))]
            return [(H, DRAW), (H, win(0))]

    pc = compile_parametric(Two(), P, UNIT)
    p = RationalFunction.variable()
    assert pc.states == ["s", "t"] and pc.player == [0, 0] and pc.act_labels == ["go", "go"]
    assert pc.out_target == [1] and pc.out_prob == [p] and pc.out_ptr == [0, 1, 1]
    assert pc.const == [RationalFunction.constant(0), RationalFunction.constant(Fraction(3, 4))]
