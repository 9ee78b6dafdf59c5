"""Graph analysis on small hand-built games: the solving order of the components, the
maximal end components, and the stopping check.

The expected components, levels and end components are read off each game's edges by
hand (the comments say how); the checks on the order itself are the two properties the
solvers rely on: every component comes after all the components it can reach, and a
component's level is one more than the largest level it reaches (0 if it reaches none).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import tbsg
from tbsg import DRAW, NonStoppingGameError, Terminal, win
from tbsg.engine import graph
from tbsg.engine.compile import compile_game
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.graph import (
    Components,
    decompose,
    end_components,
    raise_non_stopping,
    strong_components,
    subgraph,
    trivial_states,
)
from tbsg.testing import TableGame

H = Fraction(1, 2)
ONE = Fraction(1)
W0, W1 = win(0), win(1)


Moves = list[list[tuple[str, list[tuple[Fraction, int | Terminal]]]]]
"""Per state, its actions: ``(label, [(probability, successor)])``."""


def _chain_game(moves: Moves, players: Iterable[int] | None = None) -> CompiledGame[Any, Any]:
    """Compile a :class:`TableGame` given as a list of ``[(label, [(p, successor)])]`` per state."""
    table = tuple(tuple((label, tuple(outs)) for label, outs in state) for state in moves)
    owners = tuple(players) if players is not None else (0,) * len(table)
    return compile_game(TableGame(players=owners, moves=table))


def _components(comps: Components) -> list[set[int]]:
    return [set(comps.states_of(c).tolist()) for c in range(comps.count)]


def _level_of(comps: Components) -> dict[int, int]:
    """Level of each state's component."""
    return {i: int(comps.level[comps.label[i]]) for i in range(len(comps.label))}


def _assert_solving_order(g: CompiledGame[Any, Any], comps: Components) -> None:
    """Each edge stays in its component or goes to one numbered (solved) earlier, and each
    component's level is one more than the largest level it reaches (0 if none)."""
    label = comps.label
    reached: dict[int, set[int]] = {c: set() for c in range(comps.count)}
    for i, j in zip(g.out_source().tolist(), g.out_target.tolist(), strict=True):
        assert label[j] <= label[i]
        if label[j] != label[i]:
            reached[int(label[i])].add(int(label[j]))
    for c, succ in reached.items():
        assert comps.level[c] == (1 + max(int(comps.level[d]) for d in succ) if succ else 0)
    assert sorted(comps.members.tolist()) == list(range(g.n_states))


def test_diamond_decomposes_into_singletons_by_depth() -> None:
    # 0 -> 1, 0 -> 2, 1 -> 3, 2 -> 3, 3 ends: no cycle, so four singletons; 3 reaches
    # nothing (level 0), 1 and 2 reach 3 (level 1), 0 reaches 1 and 2 (level 2)
    g = _chain_game([[("a", [(H, 1), (H, 2)])], [("a", [(ONE, 3)])], [("a", [(ONE, 3)])],
                     [("a", [(ONE, W0)])]])
    comps = decompose(g)
    assert comps.count == 4 and comps.largest == 1
    assert _level_of(comps) == {0: 2, 1: 1, 2: 1, 3: 0}
    assert comps.label[3] == 0 and comps.label[0] == 3  # first and last solved
    _assert_solving_order(g, comps)
    assert trivial_states(g, comps).tolist() == [True] * 4  # alone, no self-loop


@pytest.mark.parametrize("game", [tbsg.games.risk_or_safety(6), tbsg.games.pig(10),
                                  tbsg.games.pig_solitaire(8)], ids=["ros6", "pig10", "pig-solitaire8"])
def test_strong_components_are_decompose_s_without_the_order(game: Any) -> None:
    # the same partition of the states (numbered otherwise), the same count and largest size
    g = compile_game(game)
    comps, plain = decompose(g), strong_components(g)
    assert (plain.count, plain.largest) == (comps.count, comps.largest)
    pairs = set(zip(plain.label.tolist(), comps.label.tolist(), strict=True))
    assert len(pairs) == comps.count  # a one-to-one match of the two numberings
    assert sorted(set(plain.label.tolist())) == list(range(plain.count))


def test_cycle_is_one_component_solved_after_what_it_reaches() -> None:
    # 0 <-> 1 form a cycle that may leave to 2; 2 loops on itself or ends: components
    # {2} (level 0) and {0, 1} (level 1)
    g = _chain_game([[("a", [(H, 1), (H, 2)])], [("a", [(H, 0), (H, W0)])],
                     [("a", [(H, 2), (H, W1)])]], players=(0, 1, 0))
    comps = decompose(g)
    assert _components(comps) == [{2}, {0, 1}]
    assert comps.level.tolist() == [0, 1]
    assert comps.largest == 2
    _assert_solving_order(g, comps)
    # 2 is alone but loops on itself, 0 and 1 share a component: none is trivial
    assert trivial_states(g, comps).tolist() == [False, False, False]
    # with 2's action (and so its self-loop) not allowed, 2 is alone without a loop
    allowed = np.array([True, True, False])
    assert trivial_states(g, comps, allowed).tolist() == [False, False, True]


@pytest.mark.parametrize("n", [3, 40])
def test_long_chain_levels_count_down(n: int) -> None:
    # i -> i + 1, the last ends: state i is at level n - 1 - i (40 states: the narrow
    # frontiers, processed with lists)
    moves: Moves = [[("a", [(ONE, i + 1)])] for i in range(n - 1)]
    moves += [[("a", [(ONE, W0)])]]
    g = _chain_game(moves)
    comps = decompose(g)
    assert _level_of(comps) == {i: n - 1 - i for i in range(n)}
    _assert_solving_order(g, comps)


def test_wide_level_shares_one_level() -> None:
    # 0 fans out to 1 .. 20, each ends: 20 independent components on level 0 (a frontier
    # wider than the list path takes), 0 on level 1
    k = 20
    moves: Moves = [[("a", [(Fraction(1, k), i) for i in range(1, k + 1)])]]
    moves += [[("a", [(ONE, W0)])] for _ in range(k)]
    g = _chain_game(moves)
    comps = decompose(g)
    assert _level_of(comps) == {0: 1, **{i: 0 for i in range(1, k + 1)}}
    _assert_solving_order(g, comps)


def test_nested_cycles_and_a_tail() -> None:
    # 0 -> 1 -> 2 -> 0 (a cycle), 2 -> 3, 3 <-> 4 (another cycle), 4 ends:
    # components {3, 4} (level 0) and {0, 1, 2} (level 1)
    g = _chain_game([[("a", [(ONE, 1)])], [("a", [(ONE, 2)])], [("a", [(H, 0), (H, 3)])],
                     [("a", [(ONE, 4)])], [("a", [(H, 3), (H, DRAW)])]])
    comps = decompose(g)
    assert _components(comps) == [{3, 4}, {0, 1, 2}]
    assert comps.level.tolist() == [0, 1]
    _assert_solving_order(g, comps)


# --- end components ---------------------------------------------------------------------------

def _lobby() -> CompiledGame[Any, Any]:
    # 0 (player 0): "stay" -> 1 or "quit" (0 wins); 1 (player 1): "back" -> 0, or "end":
    # 1/2 back to 0, 1/2 player 1 wins. The players can cooperate to stay in {0, 1} for
    # ever with stay and back; quit and end have terminal mass, so they are not internal
    return _chain_game([[("stay", [(ONE, 1)]), ("quit", [(ONE, W0)])],
                        [("back", [(ONE, 0)]), ("end", [(H, 0), (H, W1)])]], players=(0, 1))


def test_end_component_of_a_cooperative_loop() -> None:
    g = _lobby()
    ec = end_components(g)
    assert ec.count == 1
    assert ec.members() == [[0, 1]]
    assert ec.trapped.tolist() == [True, True]
    assert ec.internal.tolist() == [True, False, True, False]  # stay, quit, back, end
    assert ec.label.tolist() == [0, 0]
    # the whole graph's components given: the same answer
    same = end_components(g, scc=decompose(g).label)
    assert same.members() == ec.members() and same.internal.tolist() == ec.internal.tolist()


def test_end_components_only_with_the_allowed_actions() -> None:
    g = _lobby()
    # without "back" player 1 must play "end", which stops with probability 1/2: stopping
    no_back = np.array([True, True, False, True])
    ec = end_components(g, no_back)
    assert ec.count == 0 and not ec.trapped.any()
    assert ec.members() == []


def test_refinement_drops_a_state_whose_only_action_stops() -> None:
    # one strongly connected component {0, 1, 2}: 0 <-> 1 freely, 1 may go to 2, and 2
    # goes back to 0 only with probability 1/2 (else a draw). 2's action has terminal
    # mass, so 2 leaves the end component, and with it 1's action "to2" (it can reach 2):
    # the maximal end component is {0, 1} with "to1" and "to0"
    g = _chain_game([[("to1", [(ONE, 1)])], [("to0", [(ONE, 0)]), ("to2", [(ONE, 2)])],
                     [("back", [(H, 0), (H, DRAW)])]], players=(0, 1, 0))
    assert decompose(g).count == 1
    for scc in (None, decompose(g).label):
        ec = end_components(g, scc=scc)
        assert ec.members() == [[0, 1]]
        assert ec.internal.tolist() == [True, True, False, False]
        assert ec.label.tolist() == [0, 0, -1]


def test_two_separate_end_components() -> None:
    # 0 chooses between two self-loops' worlds: 1 loops on itself, 2 <-> 3 loop; 0 itself
    # can only leave (no cycle through it): MECs {1} and {2, 3}
    g = _chain_game([[("left", [(ONE, 1)]), ("right", [(ONE, 2)])], [("spin", [(ONE, 1)])],
                     [("go", [(ONE, 3)])], [("go", [(ONE, 2)]), ("end", [(ONE, W0)])]])
    ec = end_components(g)
    assert ec.count == 2
    assert sorted(ec.members()) == [[1], [2, 3]]
    assert ec.label[0] == -1 and ec.label[1] != ec.label[2] and ec.label[2] == ec.label[3]
    sub = subgraph(g, [2, 3], ec.internal)
    # the internal actions of {2, 3}: 2's "go" and 3's "go", renumbered 0 and 1
    assert sub.states.tolist() == [2, 3]
    assert [g.act_labels[k] for k in sub.acts.tolist()] == ["go", "go"]
    assert sub.act_state.tolist() == [0, 1]
    assert sub.out_target.tolist() == [1, 0]


def test_a_stopping_game_has_no_end_component() -> None:
    # every action of every state has terminal mass: play ends with probability 1
    g = _chain_game([[("a", [(H, 1), (H, W0)])], [("a", [(H, 0), (H, W1)])]], players=(0, 1))
    ec = end_components(g)
    assert ec.count == 0 and ec.label.tolist() == [-1, -1]
    assert ec.internal.tolist() == [False, False]


# --- the stopping check -----------------------------------------------------------------------

def test_non_stopping_error_names_the_end_component_and_the_remedy() -> None:
    g = _lobby()
    with pytest.raises(NonStoppingGameError, match="not stopping") as info:
        raise_non_stopping(g, end_components(g))
    message = str(info.value)
    assert "from 2 state(s)" in message
    assert "{0, 1}" in message
    assert "infinite_play=" in message
    assert info.value.trap_states == (0, 1)


def test_non_stopping_error_shortens_many_end_components() -> None:
    # five separate self-loops, reached from 0: five MECs, three named, "and 2 more"
    moves: Moves = [[(f"to{i}", [(ONE, i)]) for i in range(1, 6)]]
    moves += [[("spin", [(ONE, i)])] for i in range(1, 6)]
    g = _chain_game(moves)
    ec = end_components(g)
    assert ec.count == 5
    with pytest.raises(NonStoppingGameError, match="and 2 more") as info:
        raise_non_stopping(g, ec)
    assert len(info.value.trap_states) == 5


def test_solve_refuses_a_non_stopping_game_and_names_the_states() -> None:
    game = TableGame(players=(0, 1), moves=(
        (("stay", ((ONE, 1),)), ("quit", ((ONE, W0),))),
        (("back", ((ONE, 0),)), ("end", ((H, 0), (H, W1)))),
    ))
    with pytest.raises(NonStoppingGameError) as info:
        tbsg.solve(game)
    assert set(info.value.trap_states) == {0, 1}
    # with a payoff for never-ending play it has a value: player 0 can quit and win at
    # once (1), and nothing pays more
    assert tbsg.solve(game, infinite_play=0).value() == 1


@pytest.mark.parametrize("size", [0, 1, 5, 40, 400])
def test_distinct_values_are_the_same_sorted_or_marked(size: int) -> None:
    # the table of marks (x a sizeable part of the range) and the sort give np.unique
    x = np.random.default_rng(size).integers(0, 50, size=size).astype(np.int32)
    for below in (None, 50, 10**6):
        got = graph._distinct(x, below)
        assert got.tolist() == np.unique(x).tolist() and got.dtype == x.dtype
