"""No wrong number, round two: the array form (tbsg.model.arrays) is checked against the plain
protocol, which defines the game, by whatever certifies; and exact numerators of any
integer kind."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import tbsg
from tbsg import ArrayAction, ArrayOutcome, ArrayTransitions
from tbsg.engine.compile import arrays as compile_arrays
from tbsg.engine.compile import compile_game
from tbsg.games import pig
from tbsg.games.pig import Pig, PigAction, PigState

# --- item 1: a wrong value certified through the array form -------------------------------


class PlainOnly:
    """A game's plain protocol alone: the definition, without any array form."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.initial = game.initial

    def player(self, s: Any) -> int:
        return self.game.player(s)  # type: ignore[no-any-return]

    def actions(self, s: Any) -> Any:
        return self.game.actions(s)

    def outcomes(self, s: Any, a: Any) -> Any:
        return self.game.outcomes(s, a)


SLIPPERY = PigState(0, 0, 0, 12)  # not among the 32 states the solver samples in Pig to 20


def slippery(s: PigState, a: object, outs: list[Any]) -> list[Any]:
    """Pig with one rule changed: a bust at ``SLIPPERY`` loses the game."""
    if a == "roll" and s == SLIPPERY:
        return [(outs[0][0], tbsg.win(1 - s.mover)), *outs[1:]]
    return outs


class Wrapper:
    """Catalog Pig to 20 behind ``__getattr__``, with its ``outcomes`` changed at one state:
    ``array_transitions`` is forwarded, and describes Pig's rules, not these."""

    def __init__(self) -> None:
        self.inner = pig(20)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def outcomes(self, s: PigState, a: PigAction) -> list[Any]:
        return slippery(s, a, list(self.inner.outcomes(s, a)))


def test_a_wrapper_forwarding_an_array_form_is_solved_through_its_rules() -> None:
    game = Wrapper()
    true = tbsg.solve(PlainOnly(game)).value()
    assert true != tbsg.solve(pig(20)).value()  # the rule matters
    assert tbsg.solve(game).value() == true
    assert compile_arrays.offers_arrays(pig(20)) and not compile_arrays.offers_arrays(game)
    with pytest.raises(tbsg.InvalidArgumentError, match=r"Wrapper does not define array_transitions "
                                                        r"\(it is reached through __getattr__"):
        compile_game(game, arrays=True)
    # Pig's own solution (what the forwarded array form gives) is not this game's
    with pytest.raises(tbsg.TbsgError):
        tbsg.verify(game, tbsg.solve(pig(20)))


class Tweaked(Pig):
    """Pig with the rule changed and ``array_transitions`` redefined as Pig's own: an array
    form of the old rules that nothing structural gives away."""

    def outcomes(self, s: PigState, a: PigAction) -> list[Any]:
        return slippery(s, a, list(super().outcomes(s, a)))

    def array_transitions(self, states: npt.NDArray[np.int64]) -> ArrayTransitions:
        return super().array_transitions(states)


def test_an_array_form_wrong_at_an_unsampled_state_is_never_certified(tmp_path: Path) -> None:
    game = Tweaked(20)
    sol = tbsg.solve(game)  # through the array form: the sample misses SLIPPERY
    assert sol.value() == tbsg.solve(pig(20)).value() != tbsg.solve(PlainOnly(game)).value()
    named = re.escape(f"disagree at state {SLIPPERY!r}: action 'roll': outcomes() leads to")
    with pytest.raises(tbsg.InvalidGameError, match=named):
        tbsg.verify(game, sol)
    path = tmp_path / "tweaked.json"
    tbsg.save(sol, path)
    with pytest.raises(tbsg.InvalidGameError, match=named):
        tbsg.load(path, game=game)
    with pytest.raises(tbsg.InvalidGameError, match=named):
        compile_game(game, check_arrays="all")


class Line:
    """States ``(i,)``, ``0 <= i < 100``: player 0 tosses; heads moves on to ``i + 1``,
    tails wins; from 99 she wins. Its value is 1. The array form pays the other player on
    tails at state ``PAY_OTHER_AT`` (value ``1 - 2**-51`` for state 50)."""

    PAY_OTHER_AT = 50
    initial = (0,)
    array_shape = (100,)

    def player(self, s: tuple[int]) -> int:
        return 0

    def actions(self, s: tuple[int]) -> tuple[str]:
        return ("toss",)

    def outcomes(self, s: tuple[int], a: str) -> list[tuple[Fraction, Any]]:
        if s[0] == 99:
            return [(Fraction(1), tbsg.win(0))]
        half = Fraction(1, 2)
        return [(half, (s[0] + 1,)), (half, tbsg.win(0))]

    def array_transitions(self, states: npt.NDArray[np.int64]) -> ArrayTransitions:
        i = states[:, 0]
        last = i == 99
        heads = ArrayOutcome((np.where(last, 0, 1), 2), states + 1)
        tails = ArrayOutcome((np.where(last, 2, 1), 2), None,
                             terminal=np.where(i == self.PAY_OTHER_AT, 1, 0))
        return ArrayTransitions(np.zeros_like(i), (ArrayAction("toss", (heads, tails)),),
                                (tbsg.win(0), tbsg.win(1)))


def test_a_line_paying_the_other_player_at_one_state_is_never_certified(tmp_path: Path) -> None:
    assert tbsg.solve(PlainOnly(Line())).value() == 1
    sol = tbsg.solve(Line())
    assert sol.value() == 1 - Fraction(1, 2**51)  # solving keeps the fast path and its sample
    named = re.escape("disagree at state (50,): action 'toss': outcomes() ends play with probability "
                      "1/2 and expected payoff 1/2, array_transitions with 1/2 and 0")
    with pytest.raises(tbsg.InvalidGameError, match=named):
        tbsg.verify(Line(), sol)
    path = tmp_path / "line.json"
    tbsg.save(sol, path)
    with pytest.raises(tbsg.InvalidGameError, match=named):
        tbsg.load(path, game=Line())


class Skipping(Line):
    """The line whose array form, right about who wins, has heads at state 30 skip to 32:
    it reaches 99 states, the plain protocol 100."""

    PAY_OTHER_AT = -1

    def array_transitions(self, states: npt.NDArray[np.int64]) -> ArrayTransitions:
        tr = super().array_transitions(states)
        heads, tails = tr.actions[0].outcomes
        skip = np.where(states == 30, 32, states + 1)
        heads = dataclasses.replace(heads, successor=skip)
        return dataclasses.replace(tr, actions=(ArrayAction("toss", (heads, tails)),))


def test_an_array_form_that_reaches_fewer_states_is_named_within_the_limits(tmp_path: Path) -> None:
    # the solution records 99 states: rebuilding the plain game stops at that limit, and
    # the state where the array form differs is still the error
    sol = tbsg.solve(Skipping())
    assert sol.graph.n_states == 99
    named = re.escape("disagree at state (30,): action 'toss': outcomes() leads to [((31,), "
                      "Fraction(1, 2))], array_transitions to [((32,), Fraction(1, 2))]")
    with pytest.raises(tbsg.InvalidGameError, match=named):
        tbsg.verify(Skipping(), sol)
    path = tmp_path / "skipping.json"
    tbsg.save(sol, path)
    with pytest.raises(tbsg.InvalidGameError, match=named):
        tbsg.load(path, game=Skipping())


class Right(Line):
    """The line with an array form that agrees with its rules."""

    PAY_OTHER_AT = -1


class Mixin:
    def outcomes(self, s: tuple[int], a: str) -> list[tuple[Fraction, Any]]:
        if s[0] == 70:  # tails loses here
            return [(Fraction(1, 2), (71,)), (Fraction(1, 2), tbsg.win(1))]
        return Line.outcomes(self, s, a)  # type: ignore[arg-type]


class Changed(Right):
    outcomes = Mixin.outcomes


class Mixed(Mixin, Right):
    pass


@pytest.mark.parametrize(("kind", "definer"), [(Changed, "Changed"), (Mixed, "Mixin")])
def test_rules_redefined_below_the_array_form_drop_it(kind: type, definer: str) -> None:
    game = kind()
    assert tbsg.solve(game).value() == 1 - Fraction(1, 2**71) == tbsg.solve(PlainOnly(game)).value()
    assert compile_arrays.offers_arrays(Right()) and not compile_arrays.offers_arrays(game)
    with pytest.raises(tbsg.InvalidArgumentError,
                       match=rf"{definer} redefines outcomes below Line, which defines array_transitions"):
        compile_game(game, arrays=True)


def test_an_array_form_set_on_the_instance_is_not_used() -> None:
    game = PlainOnly(Right())
    game.array_shape = (100,)  # type: ignore[attr-defined]
    game.array_transitions = Line().array_transitions  # type: ignore[attr-defined]
    assert tbsg.solve(game).value() == 1
    assert not compile_arrays.offers_arrays(game)


def test_the_catalog_and_a_right_array_form_keep_it_and_verify() -> None:
    from tbsg.games import piglet, risk_or_safety

    games: tuple[tbsg.Game[Any, Any], ...] = (pig(10), piglet(5), risk_or_safety(5), Right())
    for game in games:
        assert compile_arrays.offers_arrays(game)
        tbsg.verify(game, tbsg.solve(game))


# --- item 6: numerators of every integer kind ----------------------------------------------


class Quarter:
    """A coin showing heads with probability 3/4: heads wins for the mover, tails passes the
    coin. The array form gives the probabilities as ``numerators`` over ``denominator``."""

    initial = (0,)
    array_shape = (2,)

    def __init__(self, numerators: Any, denominator: int) -> None:
        self.numerators, self.denominator = numerators, denominator

    def player(self, s: tuple[int]) -> int:
        return s[0]

    def actions(self, s: tuple[int]) -> tuple[str]:
        return ("toss",)

    def outcomes(self, s: tuple[int], a: str) -> Sequence[tuple[Fraction, Any]]:
        return [(Fraction(3, 4), tbsg.win(s[0])), (Fraction(1, 4), (1 - s[0],))]

    def array_transitions(self, states: npt.NDArray[np.int64]) -> ArrayTransitions:
        m = states[:, 0]
        heads_num, tails_num = self.numerators
        n = len(m)
        heads = ArrayOutcome((np.repeat(heads_num, n), self.denominator), None, terminal=m)
        tails = ArrayOutcome((np.repeat(tails_num, n), self.denominator), (1 - m)[:, None])
        return ArrayTransitions(m, (ArrayAction("toss", (heads, tails)),), (tbsg.win(0), tbsg.win(1)))


def _objects(*xs: object) -> npt.NDArray[Any]:
    out = np.empty(len(xs), dtype=object)
    out[:] = list(xs)
    return out


@pytest.mark.parametrize(("numerators", "denominator"), [
    ((np.array([3 * 2**62], dtype=np.uint64), np.array([2**62], dtype=np.uint64)), 2**64),
    ((np.array([3], dtype=np.uint64), np.array([1], dtype=np.uint64)), 4),
    ((_objects(3 * 2**68), _objects(2**68)), 2**70),
    ((_objects(3), _objects(np.int64(1))), 4),
    ((_objects(3 * 2**98), _objects(2**98)), 2**100),
], ids=["uint64 over 2**64", "small uint64", "object over 2**70", "small objects", "object over 2**100"])
def test_numerators_of_any_int_kind_are_exact(numerators: Any, denominator: int) -> None:
    game = Quarter(numerators, denominator)
    plain = compile_game(game, arrays=False)
    fast = compile_game(game, arrays=True)
    assert fast.states == plain.states and fast.rationals == plain.rationals
    for name in ("player", "act_ptr", "out_ptr", "out_target", "act_code", "stop_code", "out_code"):
        assert np.array_equal(getattr(fast, name), getattr(plain, name)), name
    assert tbsg.solve(game).value() == Fraction(4, 5)
    compile_game(game, check_arrays="all")


def test_object_numerators_must_be_ints() -> None:
    with pytest.raises(tbsg.InvalidGameError, match=r"numerator 3 \(Fraction\) at state "
                                                    r"\(0,\) .* is not an int"):
        compile_game(Quarter((_objects(Fraction(3)), _objects(1)), 4), arrays=True)
    with pytest.raises(tbsg.ExactnessError, match=r"numerator 0\.75 at state"):
        compile_game(Quarter((np.array([0.75], dtype=object), _objects(1)), 4), arrays=True)
    with pytest.raises(tbsg.InvalidGameError, match=r"probabilities sum to 4611686018427387904, not 1"):
        compile_game(Quarter((np.array([2**64 - 1], dtype=np.uint64), np.array([1], dtype=np.uint64)), 4),
                     arrays=True)
