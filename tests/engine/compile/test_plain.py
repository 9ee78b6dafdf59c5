"""The plain enumeration (tbsg.engine.compile.plain) on small hand-built games.

Every expected array below is read off the game by hand: states are numbered in the
order a breadth-first search meets them, states taken in number order, each state's
actions and each action's outcomes in the order the game lists them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, cast
from unittest import mock

import numpy as np
import pytest

import tbsg
from tbsg import DRAW, Terminal, win
from tbsg.engine import compile as compile_module
from tbsg.engine.compile import compile_game
from tbsg.engine.compile.plain import compile_plain
from tbsg.engine.compiled import CompiledGame

H, Q, T = Fraction(1, 2), Fraction(1, 4), Fraction(1, 3)

Rules = dict[Hashable, tuple[int, dict[Hashable, list[tuple[Any, Any]]]]]


@dataclass
class Table:
    """A game written out as a table: state -> (player, {action: outcomes})."""

    rules: Rules
    initial: Hashable = "s"

    def player(self, s: Hashable) -> int:
        return self.rules[s][0]

    def actions(self, s: Hashable) -> tuple[Hashable, ...]:
        return tuple(self.rules[s][1])

    def outcomes(self, s: Hashable, a: Hashable) -> list[tuple[Any, Any]]:
        return self.rules[s][1][a]


SMALL: Rules = {
    "s": (0, {"x": [(H, "b"), (Q, "a"), (Q, win(1))], "y": [(1, "a")]}),
    "b": (1, {"z": [(T, "b"), (T, "s"), (T, win(0))]}),
    "a": (0, {"w": [(H, DRAW), (H, win(0))]}),
}


def _plain(game: Any, **kw: Any) -> CompiledGame[Any, Any]:
    return compile_game(game, arrays=False, **kw)


def test_breadth_first_numbering_and_the_arrays() -> None:
    g = _plain(Table(SMALL))
    # s is 0; its first action x meets b, then a
    assert g.states == ["s", "b", "a"] and g.index == {"s": 0, "b": 1, "a": 2}
    assert g.player.tolist() == [0, 1, 0]
    assert g.act_labels == ["x", "y", "z", "w"] and g.act_ptr.tolist() == [0, 2, 3, 4]
    assert g.act_state.tolist() == [0, 0, 1, 2]
    # outcomes leading to states: x -> b, a; y -> a; z -> b, s; w -> none
    assert g.out_ptr.tolist() == [0, 2, 3, 5, 5]
    assert g.out_target.tolist() == [1, 2, 2, 1, 0]
    assert list(g.out_prob) == [H, Q, 1, T, T]
    # ending play: x with 1/4 paying 0 (player 1 wins); z with 1/3 paying 1;
    # w with 1/2 paying 1/2 and 1/2 paying 1: s = 1, c = 1/4 + 1/2 = 3/4
    assert list(g.act_stop) == [Q, 0, T, 1]
    assert list(g.act_const) == [0, 0, T, Fraction(3, 4)]


def test_the_plain_loop_is_what_compile_game_runs() -> None:
    a = _plain(Table(SMALL))
    b = compile_plain(Table(SMALL), 10, 10, 10, None, 1)
    assert a.states == b.states and a.act_labels == b.act_labels and a.rationals == b.rationals
    for name in ("player", "act_ptr", "out_ptr", "out_target", "out_code", "act_code", "stop_code"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


def test_repeated_successors_merge_and_zero_probabilities_drop() -> None:
    rules: Rules = {
        "s": (0, {"go": [(Q, "b"), (0, "never"), (Q, "b"), (Fraction(0), win(0)), (H, "b")]}),
        "b": (1, {"stop": [(1, DRAW)]}),
    }
    g = _plain(Table(rules))
    assert g.states == ["s", "b"]  # "never" is reached only with probability 0
    assert g.out_target.tolist() == [1] and list(g.out_prob) == [1]
    assert list(g.act_stop) == [0, 1] and list(g.act_const) == [0, H]


class _Hub:
    """A line of states 0, 1, ..., 300 (each moving on with probability 1, then a draw);
    states 0 and 255 also lead to "hub" (which ends play), 255 twice with 1/4 each."""

    initial: object = 0

    def actions(self, s: object) -> tuple[str, ...]:
        return ("on",)

    def outcomes(self, s: object, a: str) -> list[tuple[Any, Any]]:
        if s == "hub" or s == 300:
            return [(1, DRAW)]
        assert isinstance(s, int)
        if s == 0:
            return [(H, 1), (H, "hub")]
        if s == 255:
            return [(H, 256), (Q, "hub"), (Q, "hub")]
        return [(1, s + 1)]


def test_a_successor_met_again_256_actions_later_is_not_merged() -> None:
    # numbering: 0, 1, then "hub" (2), then state i is i + 1; actions in state order, so
    # state 255's action is number 256, and "hub" was last reached by action 0: 256
    # actions apart (the same last 8 bits), a new outcome, not a repeat of this action's
    g = _plain(_Hub())
    assert g.states[:4] == [0, 1, "hub", 2] and g.index["hub"] == 2
    k = 256
    assert g.states[int(g.act_state[k])] == 255
    lo, hi = int(g.out_ptr[k]), int(g.out_ptr[k + 1])
    # 256 is state 257; the two quarters to "hub" are merged into one half
    assert g.out_target[lo:hi].tolist() == [257, 2] and list(g.out_prob[lo:hi]) == [H, H]
    assert g.out_target[: int(g.out_ptr[1])].tolist() == [1, 2]


@dataclass
class Line:
    """States 0 .. n-1; state i moves on to i + 1 with probability 1/2, else player 0
    wins; state n - 1 ends with a draw. ``make`` builds each probability 1/2."""

    n: int
    make: Any = field(default=lambda: H)
    initial: int = 0

    def player(self, s: int) -> int:
        return s % 2

    def actions(self, s: int) -> Iterable[str]:
        return ("on",)

    def outcomes(self, s: int, a: str) -> list[tuple[Any, Any]]:
        if s == self.n - 1:
            return [(1, DRAW)]
        return [(self.make(), s + 1), (self.make(), win(0))]


def _numpy_half() -> Fraction:
    return Fraction(cast("int", np.int64(1)), cast("int", np.int64(2)))  # numpy parts


@pytest.mark.parametrize("make", [lambda: H, lambda: Fraction(1, 2), _numpy_half],
                         ids=["shared", "fresh", "numpy parts"])
def test_probabilities_given_any_way_compile_alike(make: Any) -> None:
    # 6000 states: enough fresh objects to empty the identity table (4096) twice, after
    # which equal values are found by (numerator, denominator)
    ref = _plain(Line(6000))
    g = _plain(Line(6000, make))
    assert g.states == ref.states and g.rationals == ref.rationals
    assert np.array_equal(g.out_code, ref.out_code) and np.array_equal(g.act_code, ref.act_code)
    assert list(g.act_const[:2]) == [H, H] and g.act_const[5999] == H  # 1/2 * 1; 1 * 1/2


def test_actions_as_a_list_a_tuple_or_an_iterator() -> None:
    class Listed(Line):
        def actions(self, s: int) -> Iterable[str]:
            return ["on"] if s % 3 == 0 else iter(("on",)) if s % 3 == 1 else ("on",)

    a, b = _plain(Line(10)), _plain(Listed(10))
    assert a.act_labels == b.act_labels == ["on"] * 10


def test_terminal_subclasses_are_terminals() -> None:
    class Ending(Terminal):
        pass

    rules: Rules = {"s": (0, {"x": [(H, Ending(Q)), (H, Ending(Q))]})}
    g = _plain(Table(rules))
    assert g.states == ["s"] and list(g.act_stop) == [1] and list(g.act_const) == [Q]


def test_limits() -> None:
    with pytest.raises(tbsg.StateLimitError, match=r"^more than max_states=2 reachable states"):
        _plain(Table(SMALL), max_states=2)
    assert _plain(Table(SMALL), max_states=3).n_states == 3
    # 4 actions and 5 outcomes leading to states in all
    assert _plain(Table(SMALL), max_actions=4, max_outcomes=5).n_actions == 4
    with pytest.raises(tbsg.StateLimitError, match=r"^more than 3 actions or 5 outcomes"):
        _plain(Table(SMALL), max_actions=3, max_outcomes=5)
    with pytest.raises(tbsg.StateLimitError, match=r"^more than 4 actions or 4 outcomes"):
        _plain(Table(SMALL), max_actions=4, max_outcomes=4)


def test_progress_is_reported_as_the_table_grows() -> None:
    seen: list[tuple[int, int]] = []
    with mock.patch.object(compile_module, "REPORT_EVERY", 100):
        g = _plain(Line(1000), progress=lambda k, m: seen.append((k, m)), max_states=5000)
    counts = [k for k, _ in seen]
    assert all(m == 5000 for _, m in seen) and len(counts) == 9
    assert all(b - a == 100 for a, b in itertools.pairwise(counts)) and counts[-1] <= g.n_states


def test_a_wrong_sum_is_found_after_the_first_batched_check() -> None:
    # state 1500 lies past the first batched check (at 1024 states): the next one (at
    # 2048) finds its sum and names it
    class Off(Line):
        def outcomes(self, s: int, a: str) -> list[tuple[Any, Any]]:
            if s == 1500:
                return [(H, s + 1), (Q, win(0))]
            return super().outcomes(s, a)

    with pytest.raises(tbsg.InvalidGameError, match=r"^probabilities sum to 3/4, not 1, at state 1500, "
                                                    r"action 'on'$"):
        _plain(Off(3000))


# --- rewards (issue 24) ---------------------------------------------------------------------------

class _Paying:
    """Two states; "go" at "s" pays ``w`` and moves to "t" (or ends, paying ``payoff``)."""

    initial: str = "s"

    def __init__(self, w: object, payoff: Fraction | int = 0) -> None:
        self.w, self.payoff = w, payoff

    def actions(self, s: str) -> tuple[str, ...]:
        return ("go",) if s == "s" else ("end",)

    def reward(self, s: str, a: str) -> object:
        return self.w if s == "s" else 0

    def outcomes(self, s: str, a: str) -> list[tuple[Fraction, str | Terminal]]:
        half = Fraction(1, 2)
        if s == "s":
            return [(half, "t"), (half, Terminal(self.payoff))]
        return [(Fraction(1), win(0))]


def test_a_reward_is_folded_into_act_const_and_kept_apart() -> None:
    # c_k = w + sum p r: 3/2 + (1/2)(-2) = 1/2 for "go"; 1 for "end" (a win, no reward)
    g = compile_game(_Paying(Fraction(3, 2), -2))
    assert list(g.act_const) == [Fraction(1, 2), 1] and list(g.act_reward) == [Fraction(3, 2), 0]
    assert g.has_rewards and not g.win_probability
    assert g.player.tolist() == [0, 0]  # no player(): player 0's everywhere
    plain = compile_game(_Paying(0))
    assert plain.reward_code is None and not plain.has_rewards and plain.win_probability
    assert list(plain.act_reward) == [0, 0]


@pytest.mark.parametrize(("w", "error", "match"), [
    (0.5, tbsg.ExactnessError, r"^reward at state 's', action 'go' must be an int or fractions\.Fraction"),
    ("1", tbsg.ExactnessError, r"^reward at state 's', action 'go' must be"),
    (True, tbsg.ExactnessError, r"^reward at state 's', action 'go' must be"),
])
def test_a_reward_passes_the_number_gate(w: object, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        compile_game(_Paying(w))


def test_a_reward_that_raises_names_the_state_and_action() -> None:
    class Broken(_Paying):
        def reward(self, s: str, a: str) -> object:
            raise ZeroDivisionError("no")

    with pytest.raises(tbsg.InvalidGameError,
                       match=r"game\.reward\(\) raised ZeroDivisionError: no at state 's', action 'go'"):
        compile_game(Broken(1))


def test_payoffs_outside_zero_one_compile_and_mark_a_score_game() -> None:
    g = compile_game(_Paying(0, 7))
    assert list(g.act_const) == [Fraction(7, 2), 1] and not g.win_probability and not g.has_rewards


@dataclass(frozen=True)
class Jackpot:
    """One state, one action: a fair coin between two terminal scores ``low`` and ``high``;
    the value is ``(low + high) / 2`` by definition."""

    low: int
    high: int
    initial: str = "s"

    def player(self, s: str) -> int:
        return 0

    def actions(self, s: str) -> tuple[str, ...]:
        return ("play",)

    def outcomes(self, s: str, a: str) -> list[tuple[Fraction, tbsg.Terminal]]:
        return [(Fraction(1, 2), tbsg.Terminal(self.low)), (Fraction(1, 2), tbsg.Terminal(self.high))]


@pytest.mark.parametrize(("low", "high"), [(2**62, 2**62 + 2), (-(2**62), 3), (2**200, 2**200 + 6),
                                           (2**58, 2**58), (-(2**63), -(2**63) - 2)])
def test_terminal_scores_too_large_for_int64_sums_are_folded_exactly(low: int, high: int) -> None:
    """Scores whose numerators make ``p r`` sums overflow int64 are folded in rationals
    (a score of 2^62 + 2 wrapped to a negative constant before), so the value is the
    definition's and ``verify`` (whose compile folds the same way) certifies it."""
    game = Jackpot(low, high)
    sol = tbsg.solve(game)
    assert sol.value() == Fraction(low + high, 2)
    assert tbsg.verify(game, sol)
    lo, hi = tbsg.solve(game, exact=False).bounds()
    assert lo <= (low + high) / 2 <= hi


def _forged(n: int, d: int) -> Fraction:
    """A Fraction whose slots were set by hand (no normalisation, no check)."""
    f = Fraction(0)
    f._numerator, f._denominator = n, d  # type: ignore[attr-defined]
    return f


@dataclass(frozen=True)
class Forged:
    """One state whose first outcome's probability is ``p`` (a forged Fraction), the rest
    ending play; a reward ``r`` per move."""

    p: Fraction
    r: Fraction = Fraction(0)
    initial: int = 0

    def player(self, s: int) -> int:
        return 0

    def actions(self, s: int) -> tuple[str, ...]:
        return ("go",)

    def outcomes(self, s: int, a: str) -> list[tuple[Fraction | int, Any]]:
        if s == 0:
            return [(self.p, "ghost"), (1 - self.p if self.p.denominator else 1, tbsg.Terminal(1))]
        return [(1, tbsg.Terminal(0))]

    def reward(self, s: object, a: str) -> Fraction:
        return self.r


def test_a_forged_zero_over_zero_probability_is_refused() -> None:
    """A Fraction whose slots read 0/0 is no number: refused as the plain gate refuses it,
    also as the first probability met (before any Fraction was found by value)."""
    with pytest.raises(tbsg.ExactnessError, match="got Fraction 0/0"):
        compile_game(Forged(_forged(0, 0)), arrays=False)


@pytest.mark.parametrize(("parts", "value"), [((1, -2), Fraction(-1, 2)), ((-1, -1), Fraction(1)),
                                              ((2, 4), Fraction(1, 2))])
def test_a_reward_built_without_normalisation_is_stored_in_lowest_terms(parts: tuple[int, int],
                                                                        value: Fraction) -> None:
    """A reward Fraction whose slots were set by hand (1/-2, -1/-1, 2/4) enters the game's
    rationals in lowest terms (the GMP backend copies parts as they are: a negative
    denominator would flip signs), so the value is the definition's: the reward r is paid
    at the start and, with probability 1/2, once more at "ghost", the other half ends with
    1, so the value is 3r/2 + 1/2 (by hand)."""
    game = Forged(Fraction(1, 2), _forged(*parts))
    g = compile_game(game, arrays=False)
    assert all(x.denominator > 0 and math.gcd(x.numerator, x.denominator) == 1 for x in g.rationals)
    assert tbsg.solve(game).value() == 3 * value / 2 + Fraction(1, 2)


class _Box:
    """A state wrapping a value and delegating ``__eq__`` and ``__hash__`` to it, the
    wrong way round (``self.v == other``): a box holding a terminal equals the terminal."""

    def __init__(self, v: object) -> None:
        self.v = v

    def __hash__(self) -> int:
        return hash(self.v)

    def __eq__(self, other: object) -> bool:
        return bool(self.v == (other.v if isinstance(other, _Box) else other))

    def __repr__(self) -> str:
        return f"_Box({self.v!r})"


class _HashEq:
    """A state whose ``__eq__`` compares hashes, hashing as ``hash((k,))``."""

    def __init__(self, k: int) -> None:
        self.k = k

    def __hash__(self) -> int:
        return hash((self.k,))

    def __eq__(self, other: object) -> bool:
        return hash(self) == hash(other)

    def __repr__(self) -> str:
        return f"_HashEq({self.k})"


@dataclass
class _Ending:
    """From "s": 1/2 to ``first``, 1/2 to ``second``; a state among them moves to win(1).
    With two terminal outcomes (``win(0)``, ``win(1)``) the value is 1/2 (by hand)."""

    first: object
    second: object
    initial: str = "s"

    def player(self, s: object) -> int:
        return 0

    def actions(self, s: object) -> tuple[str, ...]:
        return ("a",)

    def outcomes(self, s: object, a: str) -> list[tuple[Fraction, object]]:
        if s == "s":
            return [(H, self.first), (H, self.second)]
        return [(Fraction(1), win(1))]


def test_a_state_equal_to_a_terminal_met_before_it_is_refused() -> None:
    """win(0) is in the table first: the box holding it would have been read as play
    ending with player 0's win (value 1 instead of 1/2), and verified."""
    with pytest.raises(tbsg.InvalidGameError,
                       match=r"successor _Box\(Terminal\(payoff=Fraction\(1, 1\)\)\) at state 's', action "
                             r"'a' is not a terminal but compares equal to the terminal"):
        compile_game(_Ending(win(0), _Box(win(0))), arrays=False)


def test_a_state_equal_to_a_terminal_met_after_it_is_refused() -> None:
    """The box is in the table first: win(0) would have been read as that state (value 0
    instead of 1/2), and verified."""
    with pytest.raises(tbsg.InvalidGameError,
                       match=r"the terminal Terminal\(payoff=Fraction\(1, 1\)\) at state 's', action 'a' "
                             r"compares equal to the state _Box\(Terminal\(payoff=Fraction\(1, 1\)\)\) "
                             r"met before"):
        compile_game(_Ending(_Box(win(0)), win(0)), arrays=False)
    # the solvers and the certificate compile alike
    with pytest.raises(tbsg.InvalidGameError, match="compares equal to the state"):
        tbsg.solve(_Ending(_Box(win(0)), win(0)))


class _SubBox(_Box):
    """A box whose ``__eq__`` subtracts payoffs: it raises for anything without one."""

    def __eq__(self, other: object) -> bool:
        mine, theirs = cast("Any", self.v), cast("Any", other.v if isinstance(other, _Box) else other)
        return bool(mine.payoff - theirs.payoff == 0)

    __hash__ = _Box.__hash__


class _Score(Terminal):
    """A terminal that also equals its payoff as a number (and so hashes as it)."""

    def __eq__(self, other: object) -> bool:
        return bool(self.payoff == getattr(other, "payoff", other))

    def __hash__(self) -> int:
        return hash(self.payoff)


def test_a_box_whose_eq_raises_or_compares_texts_is_refused() -> None:
    """Whatever a state's own ``__eq__`` does with a terminal, the terminal found among the
    states is refused (values 0 instead of 1/2 before, both verified)."""
    with pytest.raises(tbsg.InvalidGameError, match="compares equal to the state _Box"):
        compile_game(_Ending(_SubBox(win(0)), win(0)), arrays=False)
    with pytest.raises(tbsg.InvalidGameError, match="is not a terminal but compares equal"):
        compile_game(_Ending(win(0), _SubBox(win(0))), arrays=False)


def test_a_terminal_class_with_its_own_eq_is_refused() -> None:
    """A terminal equal to the number 1 is taken for the int state 1 met before it (value
    0 instead of 1/2, by hand: 1/2 of win(0)'s payoff 1); met first, its class is refused."""
    with pytest.raises(tbsg.InvalidGameError,
                       match=r"the terminal _Score\(payoff=Fraction\(1, 1\)\) at state 's', action 'a' "
                             r"compares equal to the state 1"):
        compile_game(_Ending(1, _Score(1)), arrays=False)
    with pytest.raises(tbsg.InvalidGameError, match=r"is a _Score, whose __eq__ is its own"):
        compile_game(_Ending(_Score(1), 1), arrays=False)


def test_a_state_comparing_hashes_is_not_taken_for_a_terminal() -> None:
    """A state hashing as ``hash((1,))`` once hashed as win(0) did; terminals' hashes are
    tagged, so its hash-comparing ``__eq__`` never meets one and the value is 1/2 (by
    hand), and the class is not refused."""
    assert hash(win(0)) != hash((Fraction(1),)) == hash(_HashEq(1))
    for first, second in ((win(0), _HashEq(1)), (_HashEq(1), win(0))):
        assert tbsg.solve(_Ending(first, second)).value() == H
