"""The compile checks (tbsg.engine.compile.checks), one rule at a time, on hand-built inputs.

Each rule is tested directly and, where it matters, through the compilers that share it:
the same bad game is refused in the same words by the plain and the parametric compiler.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import tbsg
from tbsg.engine.compile import checks, compile_game
from tbsg.engine.compile.checks import EXACT, Columns

H = Fraction(1, 2)


# --- words -------------------------------------------------------------------------------------

def test_places_are_written_one_way() -> None:
    assert checks.at((1, 2)) == "at state (1, 2)"
    assert checks.at_action("s", "roll") == "at state 's', action 'roll'"
    assert str(checks.bad_sum("3/4", "s", "a")) == "probabilities sum to 3/4, not 1, at state 's', action 'a'"
    assert str(checks.bad_sum("2*p", 0, "a", "identically 1")) == \
        "probabilities sum to 2*p, not identically 1, at state 0, action 'a'"
    assert str(checks.negative_probability("-1/2", "outcome 3", "at state 0, action 'a'")) == \
        "negative probability -1/2 for outcome 3 at state 0, action 'a'"


# --- the number gate ---------------------------------------------------------------------------

def test_exact_gate_reads_positive_probabilities() -> None:
    assert checks.probability(H, 1, 0, "a", EXACT) == H
    assert type(checks.probability(np.int64(1), 1, 0, "a", EXACT)) is Fraction


def test_exact_gate_drops_zero_but_still_hashes_the_successor() -> None:
    assert checks.probability(Fraction(0), 5, 0, "a", EXACT) is None
    with pytest.raises(tbsg.InvalidGameError, match=r"successor \[1\] \(probability 0\) at state 0, "
                                                    r"action 'a' is not hashable"):
        checks.probability(0, [1], 0, "a", EXACT)
    # a terminal of probability 0 is dropped without a look at it
    assert checks.probability(0, tbsg.win(0), 0, "a", EXACT) is None


def test_exact_gate_refuses_floats_and_negatives_naming_the_outcome() -> None:
    with pytest.raises(tbsg.ExactnessError, match=r"probability of outcome 1 at state 0, action 'a' must be"):
        checks.probability(0.5, 1, 0, "a", EXACT)
    with pytest.raises(tbsg.InvalidGameError,
                       match=r"^negative probability -1/3 for outcome 1 at state 0, action 'a'$"):
        checks.probability(Fraction(-1, 3), 1, 0, "a", EXACT)


class Residues:
    """A toy gate: probabilities are ints read as hundredths; a sign of 0 is refused
    through ``what`` (as the parametric gate refuses a function that changes sign)."""

    one = "100 hundredths"

    def read(self, p: object, what: str) -> int:
        if not isinstance(p, int):
            raise tbsg.ExactnessError(f"{what} is not a number of hundredths")
        return p

    def sign(self, x: int, what: Callable[[], str]) -> int:
        if x == 50:
            raise tbsg.InvalidGameError(f"{what()} is undecided")
        return (x > 0) - (x < 0)

    def show(self, x: int) -> str:
        return f"{x}/100"


def test_the_gate_is_a_parameter() -> None:
    gate = Residues()
    assert checks.probability(30, "t", "s", "a", gate) == 30
    assert checks.probability(0, "t", "s", "a", gate) is None
    where = r"^probability of outcome 't' at state 's', action 'a'"
    with pytest.raises(tbsg.ExactnessError, match=where + " is not"):
        checks.probability("x", "t", "s", "a", gate)
    with pytest.raises(tbsg.InvalidGameError, match=r"^negative probability -5/100 for outcome 't' "):
        checks.probability(-5, "t", "s", "a", gate)
    with pytest.raises(tbsg.InvalidGameError, match=where + " is undecided$"):
        checks.probability(50, "t", "s", "a", gate)


# --- the batched sum check ---------------------------------------------------------------------

def _columns(actions: list[list[Fraction]], ending: list[list[Fraction]]) -> tuple[Columns, list[Fraction]]:
    """One state per action: action k leads to states with probabilities actions[k] and
    ends play with probabilities ending[k], coded through a small table."""
    values: list[Fraction] = [Fraction(0)]
    code: dict[Fraction, int] = {}

    def c(p: Fraction) -> int:
        if p not in code:
            code[p] = len(values)
            values.append(p)
        return code[p]

    cols = Columns(states=[f"s{k}" for k in range(len(actions))], act_ptr=array("q", range(len(actions) + 1)),
                   act_labels=[f"a{k}" for k in range(len(actions))], out_ptr=array("q", [0]),
                   out_code=array("i"), term_act=array("q"), term_code=array("i"), term_idx=array("i"))
    for k, (going, stopping) in enumerate(zip(actions, ending, strict=True)):
        cols.out_code.extend(c(p) for p in going)
        cols.out_ptr.append(len(cols.out_code))
        for p in stopping:
            cols.term_act.append(k)
            cols.term_code.append(c(p))
            cols.term_idx.append(0)
    return cols, values


def test_sums_are_checked_for_many_actions_at_once() -> None:
    third = Fraction(1, 3)
    cols, values = _columns([[H, H], [third], [third, third], []], [[], [2 * third], [third], [Fraction(1)]])
    checks.check_sums(cols, values, 0, 4)  # 1/2+1/2, 1/3+2/3, 1/3+1/3+1/3, 1: all 1
    bad, values = _columns([[H, H], [third, third], [H]], [[], [], [H]])
    checks.check_sums(bad, values, 0, 1)  # the range excludes the wrong action
    with pytest.raises(tbsg.InvalidGameError,
                       match=r"^probabilities sum to 2/3, not 1, at state 's1', action 'a1'$"):
        checks.check_sums(bad, values, 0, 3)


def test_sums_past_int64_are_checked_action_by_action() -> None:
    # denominators 2**40 and 3**30: their lcm times the count of terms passes 2**62, so
    # the check sums each action over its own denominators (the exact fallback)
    a, b = Fraction(1, 2**40), Fraction(1, 3**30)
    assert checks.common_denominator([2**40, 3**30], 4) is None
    cols, values = _columns([[a, 1 - a], [b, 1 - b], [a, b]], [[], [], [1 - a - b - a]])
    with pytest.raises(tbsg.InvalidGameError, match=r"sum to .*, not 1, at state 's2', action 'a2'$"):
        checks.check_sums(cols, values, 0, 3)
    checks.check_sums(cols, values, 0, 2)


def test_common_denominators_stop_at_the_int64_bound() -> None:
    assert checks.common_denominator([4, 6, 10], 1) == 60
    assert checks.common_denominator([], 5) == 1
    assert checks.common_denominator([2**31], 2**31) is None  # 2**62 reached
    assert checks.common_denominator([2**31], 2**31 - 1) == 2**31
    # (dp, dr) with dp * dr * terms below the bound, else None
    assert checks.fold_denominators([2, 3], [Fraction(1, 5)], 7) == (6, 5)
    assert checks.fold_denominators([2**30], [Fraction(1, 2**31)], 2) is None
    assert checks.fold_denominators([2**30], [Fraction(1, 2**31)], 1) == (2**30, 2**31)
    # and with the largest payoff's numerator over dr times dp * terms below it: a score
    # of 2**58 sums in int64 over 2 terms of probability halves (2**58 * 2 * 2 = 2**60),
    # one of -2**60 does not (2**62), whatever the denominators
    assert checks.fold_denominators([2], [Fraction(2**58), Fraction(1)], 2) == (2, 1)
    assert checks.fold_denominators([2], [Fraction(-(2**60)), Fraction(1)], 2) is None
    assert checks.fold_denominators([2], [Fraction(2**62 + 2)], 2) is None


# --- players, actions, terminals ---------------------------------------------------------------

def test_players() -> None:
    assert checks.player_of(np.int8(1), "s") == 1
    for who in (2, True, "0", 1.0):
        with pytest.raises(tbsg.InvalidGameError,
                           match=r"game\.player\(\) returned .* at state 's'; expected 0 or 1"):
            checks.player_of(who, "s")


def test_actions() -> None:
    assert checks.action_sequence(range(3), "s") == range(3)
    assert checks.action_sequence(iter("ab"), "s") == ("a", "b")
    with pytest.raises(tbsg.InvalidGameError, match=r"returned the string 'ab' at state 's'; return a tuple"):
        checks.action_sequence("ab", "s")
    with pytest.raises(tbsg.InvalidGameError, match=r"returned 3 \(int\) at state 's'; expected a tuple"):
        checks.action_sequence(3, "s")
    with pytest.raises(tbsg.InvalidGameError, match=r"^game\.actions\(\) returned no actions at state 's';"):
        checks.check_actions((), "s")
    with pytest.raises(tbsg.InvalidGameError, match=r"^action 'a' is listed twice at state 's'$"):
        checks.check_actions(("a", "b", "a"), "s")
    with pytest.raises(tbsg.InvalidGameError, match=r"^action \['a'\] at state 's' is not hashable"):
        checks.check_actions((["a"],), "s")


def test_actions_asked_again_must_be_equal() -> None:
    class Bet:  # no __eq__: rebuilt, never equal
        pass

    checks.check_actions_again(lambda s: ("a", "b"), "s", ("a", "b"))
    with pytest.raises(tbsg.InvalidGameError,
                       match=r"returned \('a', 'b'\) and then \('b', 'a'\) at state 's'"):
        checks.check_actions_again(lambda s: ("b", "a"), "s", ("a", "b"))
    with pytest.raises(tbsg.InvalidGameError, match=r"asked twice about one state"):
        checks.check_actions_again(lambda s: (Bet(),), "s", (Bet(),))


def test_terminals() -> None:
    assert checks.check_terminal(tbsg.win(0), "here") == 1
    assert checks.check_terminal(tbsg.Terminal(-3), "here") == -3  # any exact rational
    bent = tbsg.Terminal(H)
    object.__setattr__(bent, "payoff", 1.5)
    with pytest.raises(tbsg.InvalidGameError, match=r"^terminal .* here has payoff 1.5; a payoff is an"):
        checks.check_terminal(bent, "here")
    assert "changed its payoff after it was returned (it was 1/2)" in str(checks.terminal_changed(bent, H))


# --- states ------------------------------------------------------------------------------------

class Mutable:
    """A state whose hash changes when the game mutates it."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __hash__(self) -> int:
        return hash(self.n)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mutable) and other.n == self.n

    def __repr__(self) -> str:
        return f"Mutable({self.n})"


def test_stable_states() -> None:
    # plain values (ints and strings; tuples of plain items) cannot drift: no look-ups
    for plain in ([3, "x"], [(0, "a"), (1, None, 2.5)]):
        assert checks.check_stable(plain, {}.get, 0, "now") is True
    frozen = [frozenset({1}), frozenset({2})]
    assert checks.check_stable(frozen, {s: i for i, s in enumerate(frozen)}.get, 0, "now") is False
    m = Mutable(1)
    # (int keys: their hashes, hence the slots a probe for the new hash meets, are the same
    # in every run; a string's are not)
    index: dict[Any, int] = {0: 0, m: 1}
    m.n = 99  # its hash changed after it was numbered
    with pytest.raises(tbsg.InvalidGameError,
                       match=r"^state Mutable\(99\) cannot be found again in the state table "
                             r"\(checked now\)"):
        checks.check_stable([0, m], index.get, 0, "now")
    # from start=2 on, nothing is looked at
    assert checks.check_stable([0, m], index.get, 2, "now") is True


def test_nan_in_a_state() -> None:
    nan = float("nan")
    with pytest.raises(tbsg.InvalidGameError, match=r"^a state holds float\('nan'\)"):
        checks.check_stable([(0, nan)], {(0, nan): 0}.get, 0, "now")
    with pytest.raises(tbsg.InvalidGameError, match=r"is not equal to a copy of itself: does it hold a "
                                                    r"float\('nan'\)"):
        checks.check_copy((0, nan), "state")


def test_limits() -> None:
    assert str(checks.state_limit(5, 3)).startswith("more than max_states=5 reachable states (raise")

    class Ident:
        pass

    assert "states of class Ident compare by identity" in str(checks.state_limit(5, Ident()))
    assert str(checks.size_limit(3, 4)).startswith("more than 3 actions or 4 outcomes")
    with pytest.raises(tbsg.InvalidArgumentError, match="max_states must be an int >= 1"):
        checks.check_max_states(True)


def test_user_errors_keep_their_kind_and_gain_the_place() -> None:
    def boom() -> None:
        raise KeyError("k")

    with pytest.raises(tbsg.InvalidGameError, match=r"^game\.player\(\) raised KeyError: 'k' at state 3$"):
        checks.call("game.player()", "at state 3", boom)

    def inexact() -> None:
        tbsg.Terminal(0.5)  # type: ignore[arg-type]

    with pytest.raises(tbsg.ExactnessError, match=r"\(raised in game\.outcomes\(\) at state 3\)$"):
        checks.call("game.outcomes()", "at state 3", inexact)


def test_protocol() -> None:
    with pytest.raises(tbsg.InvalidArgumentError, match=r"^object does not implement the tbsg\.Game "
                                                        r"protocol: no initial, actions, outcomes"):
        compile_game(object())  # type: ignore[arg-type]


@dataclass(frozen=True)
class _Generated:
    x: int


@dataclass(frozen=True)
class _Own:
    x: int

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


class _Hidden(type):
    """A metaclass answering ``cls.__eq__`` with object's: instances still use their own."""

    def __getattribute__(cls, name: str) -> Any:
        return object.__eq__ if name == "__eq__" else super().__getattribute__(name)


class _HiddenBox(metaclass=_Hidden):
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


@dataclass(frozen=True)
class _Scored(tbsg.Terminal):
    """A terminal subclass adding a field: the dataclass's generated __eq__ compares class
    and every field, so it is a plain terminal."""

    label: str = ""


def test_classes_whose_eq_cannot_meet_a_terminal() -> None:
    """Tuples, ints, strings, identity and dataclasses' generated ``__eq__`` return False
    or NotImplemented for a terminal; an ``__eq__`` of one's own may say yes, also one a
    metaclass hides from ``cls.__eq__`` (the MRO's namespaces are read)."""
    assert all(map(checks.never_terminal, (tuple, int, str, object, _Generated)))
    assert not checks.never_terminal(_Own)
    assert _HiddenBox.__eq__ is object.__eq__ and not checks.never_terminal(_HiddenBox)


def test_terminal_classes_that_compare_by_class_and_payoff() -> None:
    class Labelled(tbsg.Terminal):
        def __eq__(self, other: object) -> bool:
            return isinstance(other, Labelled)

        __hash__ = tbsg.Terminal.__hash__

    assert checks.plain_terminal(tbsg.Terminal) and checks.plain_terminal(_Scored)
    assert not checks.plain_terminal(Labelled)
    assert checks.odd_terminal_classes()  # (Labelled exists while this test runs)
