"""The graph hash: its canonical text written out by hand, stable across interpreter runs,
and changed by every field of the compiled game it covers."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import subprocess
import sys
import textwrap
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings

from oracles import PassTheCoin
from tbsg import Terminal, win
from tbsg.engine.compile import compile_game
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.fingerprint import graph_hash
from tbsg.testing import games


@pytest.fixture(scope="module")
def toss() -> CompiledGame[Any, Any]:
    return compile_game(PassTheCoin())


def test_the_canonical_text_is_the_documented_one(toss: CompiledGame[Any, Any]) -> None:
    # state 0 (player 0): toss pays 1/2 * 1 = 1/2 and stops with 1/2, else to state 1
    # with 1/2; state 1 (player 1): pays 1/2 * 0 = 0, stops with 1/2, else to state 0
    text = ("tbsg-graph-v1\n"
            "S\t0\t0\n" "A\t'toss'\t1/2\t1/2\t1:1/2\n"
            "S\t1\t1\n" "A\t'toss'\t0\t1/2\t0:1/2\n")
    assert graph_hash(toss) == hashlib.sha256(text.encode()).hexdigest()
    # unordered: states and successors named by repr, sorted (here the same order)
    text = ("tbsg-graph-unordered-v1\n"
            "S\t0\t0\n" "A\t'toss'\t1/2\t1/2\t1:1/2\n"
            "S\t1\t1\n" "A\t'toss'\t0\t1/2\t0:1/2\n")
    assert graph_hash(toss, ordered=False) == hashlib.sha256(text.encode()).hexdigest()


_RUN = textwrap.dedent("""
    from fractions import Fraction
    import tbsg
    from tbsg.engine.compile import compile_game
    from tbsg.engine.fingerprint import graph_hash

    class Sets:
        # string states, actions listed from a set: their order follows string hashing
        initial = "start"
        def player(self, s): return 0 if s == "start" else 1
        def actions(self, s):
            return tuple({"alpha", "beta", "gamma", "delta"}) if s == "start" else ("end",)
        def outcomes(self, s, a):
            if s == "start":
                return [(Fraction(1, 2), a + "-room"), (Fraction(1, 2), tbsg.DRAW)]
            return [(1, tbsg.win(len(s) % 2))]

    g = compile_game(Sets())
    print(",".join(g.act_labels))
    print(graph_hash(g, ordered=False))
    print(graph_hash(compile_game(tbsg.games.risk_or_safety(2))))
""")


def _hashes(seed: str) -> list[str]:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    out = subprocess.run([sys.executable, "-c", _RUN], env=env, capture_output=True, text=True,
                         check=True)
    return out.stdout.split()


def test_stable_across_runs_and_hash_seeds() -> None:
    # string hashing differs with the seed, so the set's order (and the states' numbers)
    # differs: the unordered hash must not, nor the ordered one of a deterministic game
    runs = [_hashes(seed) for seed in ("0", "1", "2")]
    assert all(len(r) == 3 for r in runs)
    assert len({r[0] for r in runs}) > 1  # the runs did list the actions differently
    assert len({r[1] for r in runs}) == 1
    assert len({r[2] for r in runs}) == 1


def _variants(g: CompiledGame[Any, Any]) -> dict[str, CompiledGame[Any, Any]]:
    """``g`` with one field changed at a time."""
    const, stop, prob = list(g.act_const), list(g.act_stop), list(g.out_prob)
    third = Fraction(1, 3)
    return {
        "state": dataclasses.replace(g, states=[10, 11]),
        "player": dataclasses.replace(g, player=np.array([1, 1], dtype=np.int8)),
        "label": dataclasses.replace(g, act_labels=["flip", "toss"]),
        "const": g.derive([third, *const[1:]], stop, prob),
        "stop": g.derive(const, [third, *stop[1:]], prob),
        "prob": g.derive(const, stop, [third, *prob[1:]]),
        "target": dataclasses.replace(g, out_target=np.array([0, 0], dtype=g.out_target.dtype)),
    }


@pytest.mark.parametrize("ordered", [True, False])
def test_every_field_changes_the_hash(toss: CompiledGame[Any, Any], ordered: bool) -> None:
    base = graph_hash(toss, ordered=ordered)
    hashes = {name: graph_hash(v, ordered=ordered) for name, v in _variants(toss).items()}
    assert base not in hashes.values()
    assert len(set(hashes.values())) == len(hashes)  # and no two changes collide
    assert graph_hash(dataclasses.replace(toss), ordered=ordered) == base  # a copy: the same


class Listed:
    """One state with three actions, listed in the order given."""

    initial = "s"

    def __init__(self, order: tuple[str, ...]) -> None:
        self.order = order

    def player(self, s: str) -> int:
        return 0

    def actions(self, s: str) -> tuple[str, ...]:
        return self.order

    def outcomes(self, s: str, a: str) -> list[tuple[Fraction, Terminal]]:
        p = Fraction("abc".index(a) + 1, 4)
        return [(p, win(0)), (1 - p, win(1))]


def test_only_the_ordered_hash_sees_the_order_of_actions() -> None:
    one = compile_game(Listed(("a", "b", "c")))
    other = compile_game(Listed(("c", "a", "b")))
    assert graph_hash(one) != graph_hash(other)
    assert graph_hash(one, ordered=False) == graph_hash(other, ordered=False)
    assert graph_hash(one) != graph_hash(one, ordered=False)  # the two texts are told apart


def test_a_changed_reward_changes_the_hash() -> None:
    """A reward is hashed apart from c_k: moving a point from the terminal to the reward
    (the same c_k) changes the hash, and so does changing the reward."""
    class Step:
        initial = 0

        def __init__(self, w: int, r: int) -> None:
            self.w, self.r = w, r

        def actions(self, s: int) -> tuple[str]:
            return ("go",)

        def reward(self, s: int, a: str) -> int:
            return self.w

        def outcomes(self, s: int, a: str) -> list[tuple[int, Terminal]]:
            return [(1, Terminal(self.r))]

    hashes = {graph_hash(compile_game(Step(w, r))) for w, r in [(1, 0), (0, 1), (2, 0)]}
    assert len(hashes) == 3
    assert graph_hash(compile_game(Step(0, 1))) == graph_hash(compile_game(_NoReward()))


class _NoReward:
    """Step(0, 1) without a reward method: the same game, the same hash."""

    initial = 0

    def actions(self, s: int) -> tuple[str]:
        return ("go",)

    def outcomes(self, s: int, a: str) -> list[tuple[int, Terminal]]:
        return [(1, Terminal(1))]


def _text_by_definition(g: CompiledGame[Any, Any], ordered: bool) -> str:
    """The canonical text of the module docstring, written state by state from the
    decoded numbers (the definition the hash is taken over)."""
    names = [str(i) for i in range(g.n_states)] if ordered else [repr(s) for s in g.states]
    order = range(g.n_states) if ordered else sorted(range(g.n_states), key=names.__getitem__)
    parts = ["tbsg-graph-v1\n" if ordered else "tbsg-graph-unordered-v1\n"]
    for i in order:
        lines = []
        for k in range(int(g.act_ptr[i]), int(g.act_ptr[i + 1])):
            outs = [f"{names[int(g.out_target[o])]}:{g.out_prob[o]}"
                    for o in range(int(g.out_ptr[k]), int(g.out_ptr[k + 1]))]
            reward = g.act_reward[k] if g.has_rewards else 0
            paid = f"\tR{reward}" if reward else ""
            lines.append(f"A\t{g.act_labels[k]!r}\t{g.act_const[k]}\t{g.act_stop[k]}\t"
                         f"{';'.join(outs if ordered else sorted(outs))}{paid}\n")
        parts += [f"S\t{g.states[i]!r}\t{int(g.player[i])}\n", *(lines if ordered else sorted(lines))]
    return "".join(parts)


@settings(max_examples=60, deadline=None)
@given(games(states=(1, 6), payoffs="score", rewards=True) | games(states=(1, 6), ties=True))
def test_the_hash_is_taken_over_the_defined_text(game: Any) -> None:
    g = compile_game(game)
    for ordered in (True, False):
        want = hashlib.sha256(_text_by_definition(g, ordered).encode()).hexdigest()
        assert graph_hash(g, ordered=ordered) == want


@settings(max_examples=30, deadline=None)
@given(games(states=(1, 8), payoffs="score", rewards=True) | games(states=(1, 8), ties=True))
def test_the_ordered_text_is_the_same_in_blocks_of_any_size(game: Any) -> None:
    """The ordered text is laid out a block of states at a time (at least ``_BLOCK``
    outcomes, whole states): blocks of one state, a few states and the whole game hash the
    same text, the definition's."""
    import tbsg.engine.fingerprint as fingerprint

    g = compile_game(game)
    want = hashlib.sha256(_text_by_definition(g, True).encode()).hexdigest()
    saved = fingerprint._BLOCK
    try:
        for block in (0, 1, 3, 1 << 20):
            fingerprint._BLOCK = block
            assert graph_hash(g) == want
    finally:
        fingerprint._BLOCK = saved


def test_actions_that_surely_end_and_states_of_many_actions() -> None:
    """By hand: the canonical text of a state with one action that ends play surely (no
    successor: an empty list of outcomes) and one that moves on, over blocks of one state."""
    class TwoWays:
        initial = 0

        def actions(self, s: int) -> tuple[str, ...]:
            return ("stop", "go") if s == 0 else ("stop",)

        def outcomes(self, s: int, a: str) -> list[tuple[Fraction, Any]]:
            return [(Fraction(1), win(0))] if a == "stop" else [(Fraction(1), 1)]

    g = compile_game(TwoWays())
    text = ("tbsg-graph-v1\n"
            "S\t0\t0\n" "A\t'stop'\t1\t1\t\n" "A\t'go'\t0\t0\t1:1\n"
            "S\t1\t0\n" "A\t'stop'\t1\t1\t\n")
    assert graph_hash(g) == hashlib.sha256(text.encode()).hexdigest()
