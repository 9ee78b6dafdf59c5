"""The linear systems of a chain (tbsg.play.system): reachability, the given states of a
trap, divergence, and the exact and float totals, on hand-built chains.

Chain used throughout (derived by hand): 0 -> 1 or 2 (1/2 each); 1 ends (player 0 wins)
w.p. 1/2, else stays at 1; 2 stays at 2 forever (a closed class).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

import tbsg
from strategies import TableGame
from tbsg import win
from tbsg.play.system import (
    diverging,
    exact_total,
    flag,
    float_total,
    probability,
    reach_probability,
    reaching,
    steps,
    target_values,
)

HALF = Fraction(1, 2)


def _chain() -> tbsg.Chain[Any, Any]:
    game = TableGame(players=(0, 0, 0), moves=(
        (("go", ((HALF, 1), (HALF, 2))),),
        (("go", ((HALF, win(0)), (HALF, 1))),),
        (("wait", ((Fraction(1), 2),)),),
    ))
    return tbsg.chain(game, lambda s: "go" if s != 2 else "wait")


def test_reaching_walks_the_graph_backwards() -> None:
    c = _chain()
    assert reaching(c.graph, [2]) == [True, False, True]  # 1 never reaches 2
    assert reaching(c.graph, [1]) == [True, True, False]
    assert reaching(c.graph, []) == [False, False, False]


def test_target_values_give_the_traps_their_probability() -> None:
    st = _chain().structure
    # target 1: the trap {2} does not hold it, so it is given 0; the target itself 1
    assert target_values(st, [1], "one", "zero") == {1: "one", 2: "zero"}
    # target 2, inside the trap: its class is hit
    assert target_values(st, [2], "one", "zero") == {2: "one"}


def test_reach_probability_and_totals() -> None:
    c = _chain()
    g, st = c.graph, c.structure
    assert reach_probability(g, st, [1], 0) == HALF and reach_probability(g, st, [2], 1) == 0
    # steps counted only outside the trap: from 0, 1 + (1/2) * 2 (state 1 lasts 2 steps)
    b = [Fraction(1), Fraction(1), Fraction(0)]
    given = diverging(g, st, b, "count", 0)
    assert given == [2]
    assert exact_total(g, st, b, given, 0) == 2
    lo, hi = float_total(g, b, dict.fromkeys(given, Fraction(0)), 0)
    assert lo <= 2 <= hi and hi - lo < 1e-12


def test_a_total_that_grows_in_a_trap_diverges() -> None:
    c = _chain()
    b = steps(c.graph, None, "count")  # 1 per move, also in the trap
    assert b == [1, 1, 1]
    with pytest.raises(tbsg.InfiniteExpectationError, match=r"with probability 1/2") as info:
        diverging(c.graph, c.structure, b, "count", 0)
    assert info.value.probability == HALF and info.value.states == (2,)
    # from state 1 the trap is out of reach: the diverging states are given, and 1's total is 2
    given = diverging(c.graph, c.structure, b, "count", 1)
    assert given == [0, 2] and exact_total(c.graph, c.structure, b, given, 1) == 2


def test_small_helpers() -> None:
    assert probability(-1e-17, 1.0000000001) == (0.0, 1.0)
    assert flag(True) is True
    with pytest.raises(tbsg.InvalidArgumentError, match="exact must be True or False"):
        flag(1)
