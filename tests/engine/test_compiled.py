"""The compiled game's arrays and accessors, on small games whose arrays are written out by hand.

Every expected array below is read off the game's rules with the conventions of
:mod:`tbsg.engine.compiled`: states numbered in breadth-first visiting order from the
initial state, actions in the order ``actions(s)`` lists them, the outcomes of an action
that go on to a state kept (probabilities of a repeated successor added, zero
probabilities dropped), and the outcomes that end play folded into ``c_k = sum p(t) r(t)``
and ``s_k = sum p(t)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import pytest

from tbsg import DRAW, Terminal, win
from tbsg.engine.compile import compile_game
from tbsg.engine.compiled import CompiledGame, Interner

ZERO, ONE = Fraction(0), Fraction(1)
H = Fraction(1, 2)
Q = Fraction(1, 4)


class Letters:
    """States named so that their numbers cannot come from sorting the names.

    ``c`` (player 0) plays ``x``: 1/2 to ``b``, 0 to ``z``, 1/4 to ``a``, 1/4 to ``b``
    again; or ``y``: surely to ``a``. ``b`` (player 1) plays ``u``: player 0 wins. ``a``
    (player 0) plays ``v``: 1/2 a draw, 1/2 back to ``c``. ``z`` is reachable only with
    probability 0.
    """

    initial = "c"

    def player(self, s: str) -> int:
        return {"c": 0, "b": 1, "a": 0, "z": 1}[s]

    def actions(self, s: str) -> tuple[str, ...]:
        return {"c": ("x", "y"), "b": ("u",), "a": ("v",), "z": ("w",)}[s]

    def outcomes(self, s: str, a: str) -> list[tuple[Fraction | int, str | Terminal]]:
        table: dict[tuple[str, str], list[tuple[Fraction | int, str | Terminal]]] = {
            ("c", "x"): [(H, "b"), (0, "z"), (Q, "a"), (Q, "b")],
            ("c", "y"): [(1, "a")],
            ("b", "u"): [(1, win(0))],
            ("a", "v"): [(H, DRAW), (H, "c")],
            ("z", "w"): [(1, "z")],
        }
        return table[s, a]


@pytest.fixture(scope="module")
def letters() -> CompiledGame[str, str]:
    return compile_game(Letters())


def test_states_are_numbered_in_visiting_order(letters: CompiledGame[str, str]) -> None:
    # c first (initial), then its successors in outcome order: b (x's first outcome), a;
    # z is never visited (probability 0)
    assert letters.states == ["c", "b", "a"]
    assert letters.index == {"c": 0, "b": 1, "a": 2}
    assert letters.n_states == 3
    assert letters.player.tolist() == [0, 1, 0]


def test_actions_in_compressed_rows(letters: CompiledGame[str, str]) -> None:
    # c has x, y (flat 0, 1); b has u (2); a has v (3)
    assert letters.act_ptr.tolist() == [0, 2, 3, 4]
    assert letters.act_labels == ["x", "y", "u", "v"]
    assert letters.act_state.tolist() == [0, 0, 1, 2]
    assert letters.n_actions == 4
    assert [list(letters.actions_of(i)) for i in range(3)] == [[0, 1], [2], [3]]


def test_outcomes_merge_repeats_drop_zeros_and_fold_terminals(letters: CompiledGame[str, str]) -> None:
    # x: b with 1/2 + 1/4 = 3/4, a with 1/4 (z dropped); y: a with 1; u: only a terminal;
    # v: c with 1/2, its draw folded into the constants
    assert letters.out_ptr.tolist() == [0, 2, 3, 3, 4]
    assert letters.out_target.tolist() == [1, 2, 2, 0]
    assert list(letters.out_prob) == [3 * Q, Q, 1, H]
    # c_k: u pays 1 with probability 1; v pays 1/2 with probability 1/2, so 1/4
    assert list(letters.act_const) == [0, 0, 1, Q]
    assert list(letters.act_stop) == [0, 0, 1, H]
    assert letters.degrees().tolist() == [2, 1, 0, 1]
    assert letters.out_action().tolist() == [0, 0, 1, 3]
    assert letters.out_source().tolist() == [0, 0, 0, 2]
    assert letters.stop_mask().tolist() == [False, False, True, True]


def test_rationals_are_interned_once_with_zero_first(letters: CompiledGame[str, str]) -> None:
    table = letters.rationals
    assert table[0] == 0
    assert len(set(table)) == len(table)  # each value once
    assert set(table) == {Fraction(0), Fraction(1), H, Q, 3 * Q}
    # the codes name the decoded values
    assert [table[c] for c in letters.act_code.tolist()] == list(letters.act_const)
    assert [table[c] for c in letters.stop_code.tolist()] == list(letters.act_stop)
    assert [table[c] for c in letters.out_code.tolist()] == list(letters.out_prob)


def test_float_arrays_are_the_exact_numbers_rounded(letters: CompiledGame[str, str]) -> None:
    const, prob = letters.float_arrays()
    assert const.dtype == np.float64 and prob.dtype == np.float64
    # every number here is a dyadic rational, so rounding is exact
    assert const.tolist() == [0.0, 0.0, 1.0, 0.25]
    assert prob.tolist() == [0.75, 0.25, 1.0, 0.5]
    thirds = CompiledGame.from_values(["s"], {"s": 0}, np.zeros(1, dtype=np.int8),
                                      np.array([0, 1]), ["go"], np.array([0, 0]),
                                      np.zeros(0, dtype=np.int64), [Fraction(1, 3)], [ONE], [])
    # 1/3 is not a float: the nearest one, as Python's own correctly rounded division gives
    assert thirds.float_arrays()[0].tolist() == [1 / 3]


def test_action_index_matches_with_equality(letters: CompiledGame[str, str]) -> None:
    assert letters.action_index(0, "y") == 1
    assert letters.action_index(2, "v") == 3
    assert letters.action_index(0, "u") is None  # an action of another state
    assert letters.action_index(1, 12) is None


class _Touchy:
    """An action label whose ``==`` raises on anything but its own kind."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Touchy):
            raise TypeError("cannot compare")
        return self.name == other.name

    def __hash__(self) -> int:
        return hash(self.name)


def test_action_index_treats_a_raising_comparison_as_unequal() -> None:
    g = CompiledGame.from_values([0], {0: 0}, np.zeros(1, dtype=np.int8), np.array([0, 2]),
                                 [_Touchy("a"), _Touchy("b")], np.array([0, 0, 0]),
                                 np.zeros(0, dtype=np.int64), [H, H], [ONE, ONE], [])
    assert g.action_index(0, "b") is None
    assert g.action_index(0, _Touchy("b")) == 1


def _two_state(const: Sequence[Fraction], stop: Sequence[Fraction], prob: Sequence[Fraction]
               ) -> CompiledGame[str, str]:
    """States p and q, one action each: p goes to q (two outcomes, kept apart) and q to p."""
    return CompiledGame.from_values(["p", "q"], {"p": 0, "q": 1}, np.array([0, 1], dtype=np.int8),
                                    np.array([0, 1, 2]), ["go", "back"], np.array([0, 2, 3]),
                                    np.array([1, 1, 0]), const, stop, prob)


def test_from_values_interns_and_derives_the_action_states() -> None:
    g = _two_state([Q, ZERO], [H, H], [Q, Q, H])
    assert g.act_state.tolist() == [0, 1]
    assert g.rationals[0] == 0 and len(g.rationals) == 3  # 0, 1/4, 1/2
    assert list(g.act_const) == [Q, 0] and list(g.act_stop) == [H, H]
    assert list(g.out_prob) == [Q, Q, H]
    assert g.out_action().tolist() == [0, 0, 1]


def test_derive_replaces_numbers_and_drops_outcomes() -> None:
    g = _two_state([Q, ZERO], [H, H], [Q, Q, H])
    # move p's second outcome (1/4 to q) into a sure win: c = 1/4 + 1/4, s = 1/2 + 1/4
    keep = np.array([True, False, True])
    d = g.derive([H, ZERO], [3 * Q, H], [Q, Q, H], keep=keep)
    assert d.states is g.states and d.act_labels is g.act_labels
    assert d.out_ptr.tolist() == [0, 1, 2]
    assert d.out_target.tolist() == [1, 0]
    assert list(d.out_prob) == [Q, H]
    assert list(d.act_const) == [H, 0] and list(d.act_stop) == [3 * Q, H]
    same = g.derive([ZERO, ZERO], [H, H], [Q, Q, H])  # no keep: every outcome stays
    assert same.out_ptr.tolist() == g.out_ptr.tolist() and list(same.act_const) == [0, 0]


def test_decoded_sequences_index_slice_and_iterate(letters: CompiledGame[str, str]) -> None:
    probs = letters.out_prob
    assert len(probs) == 4
    assert probs[0] == 3 * Q and probs[-1] == H
    assert probs[1:3] == [Q, 1]
    assert "Fraction(3, 4)" in repr(probs)


def test_interner_codes_each_value_once() -> None:
    table = Interner([H, Fraction(2, 4)])  # one value, written twice
    assert table.values == [0, H]
    assert table.code(Fraction(0)) == 0
    assert table.code(Q) == 2
    third = Fraction(1, 3)
    assert table.codes([third, H, third, Fraction(1, 3)]).tolist() == [3, 1, 3, 3]
    assert table.values == [0, H, Q, third]


def test_repr_counts_the_arrays(letters: CompiledGame[str, str]) -> None:
    assert repr(letters) == "<CompiledGame: 3 states, 4 actions, 4 outcomes, 5 distinct rationals>"


def test_state_and_label_texts_are_the_reprs_written_once(letters: CompiledGame[str, str]) -> None:
    # by hand: the states c, b, a; the actions x, y (of c), u (of b), v (of a)
    assert letters.state_texts() == ("'c'", "'b'", "'a'")
    texts, code = letters.label_texts()
    assert [texts[c] for c in code.tolist()] == ["'x'", "'y'", "'u'", "'v'"]
    assert letters.state_texts() is letters.state_texts()  # cached
    assert letters.label_texts() is letters.label_texts()


def test_a_label_object_shared_by_many_actions_is_written_once() -> None:
    class Counted:
        """An action whose repr counts how often it is written."""

        written = 0

        def __repr__(self) -> str:
            Counted.written += 1
            return "Counted()"

    go = Counted()
    g = CompiledGame.from_values(
        states=[0, 1, 2], index={0: 0, 1: 1, 2: 2}, player=np.zeros(3, dtype=np.int8),
        act_ptr=np.array([0, 1, 2, 3]), act_labels=[go, go, go], out_ptr=np.array([0, 1, 2, 2]),
        out_target=np.array([1, 2]), act_const=[ZERO, ZERO, ONE], act_stop=[ZERO, ZERO, ONE],
        out_prob=[ONE, ONE])
    texts, code = g.label_texts()
    assert texts == ("Counted()",) and code.tolist() == [0, 0, 0]
    assert Counted.written == 1


class _Huge:
    """One state, two actions: ``big`` pays ``payoff``, ``small`` pays 1."""

    initial = "s"

    def __init__(self, payoff: int) -> None:
        self.payoff = payoff

    def player(self, s: str) -> int:
        return 0

    def actions(self, s: str) -> tuple[str, ...]:
        return ("big", "small")

    def outcomes(self, s: str, a: str) -> list[tuple[int, Terminal]]:
        return [(1, Terminal(self.payoff if a == "big" else 1))]


@pytest.mark.parametrize("exact", [True, False])
def test_a_payoff_beyond_the_float_range_is_a_clear_error(exact: bool) -> None:
    """The solvers' float filters need every number of the game as a float: a payoff of
    -10^400 is refused naming its size, not a bare OverflowError."""
    import tbsg
    with pytest.raises(tbsg.UnsupportedError, match=r"the game pays about -10\^400 at one action"):
        tbsg.solve(_Huge(-10**400), exact=exact)
    g = compile_game(_Huge(10**300))  # within the range: one table of floats for every use
    assert g.float_table().tolist() == [float(x) for x in g.rationals]
    assert g.float_table() is g.float_table()
