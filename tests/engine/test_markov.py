"""Markov chains of fixed profiles on small hand-built games: exact expectations, length
distributions, proven float bounds and the extreme profile of a secondary objective.

Every expected number is solved by hand in a comment (``x = 1/2 + 1/2 y``, ...).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import tbsg
from tbsg import win
from tbsg.engine import _backend as bk
from tbsg.engine.compile import compile_game
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.markov import (
    ChainSystem,
    chain_bounds,
    enclose_all,
    extreme_profile,
    float_order,
    interval_bounds,
    length_bounds,
    length_pmf,
    restrict,
    solve_chain,
    structure,
    zero_count_cycle,
)
from tbsg.games import risk_or_safety
from tbsg.testing import TableGame

H = Fraction(1, 2)
Q = Fraction(1, 4)
W0, W1 = win(0), win(1)


@pytest.fixture(scope="module")
def game() -> CompiledGame[Any, Any]:
    """State 0 plays "a" (1/2 to state 1, 1/2 player 0 wins) or "b" (1/4 to state 2,
    3/4 player 0 wins); state 1 plays "a" (1/2 back to 0, 1/2 player 1 wins); state 2
    spins on itself for ever. Flat actions: 0 a, 1 b, 2 (state 1's) a, 3 spin."""
    return compile_game(TableGame(players=(0, 1, 0), moves=(
        (("a", ((H, 1), (H, W0))), ("b", ((Q, 2), (3 * Q, W0)))),
        (("a", ((H, 0), (H, W1))),),
        (("spin", ((1, 2),)),),
    )))


def _chain(g: CompiledGame[Any, Any], first: str) -> CompiledGame[Any, Any]:
    """The chain of state 0 playing ``first`` (the other states have one action)."""
    keep = np.array([first == "a", first == "b", True, True])
    return restrict(g, keep)


def _fractions(xs: list[Any]) -> list[Fraction]:
    return [bk.to_fraction(x) for x in xs]


def test_restrict_keeps_one_action_per_state(game: CompiledGame[Any, Any]) -> None:
    chain = _chain(game, "b")
    assert chain.act_labels == ["b", "a", "spin"]
    assert chain.act_ptr.tolist() == [0, 1, 2, 3]
    assert chain.out_target.tolist() == [2, 0, 2]
    assert list(chain.out_prob) == [Q, H, 1]
    assert chain.rationals is game.rationals  # sliced, not rebuilt
    assert chain.states is game.states


def test_structure_finds_the_closed_class(game: CompiledGame[Any, Any]) -> None:
    # {2} never ends (spin): a closed class; 0 and 1 end with probability 1
    for first in ("a", "b"):
        st = structure(_chain(game, first))
        assert st.n_traps == 1
        assert st.trapped.tolist() == [False, False, True]
        assert st.trap.tolist() == [-1, -1, 0]


def test_solve_chain_values_and_lengths(game: CompiledGame[Any, Any]) -> None:
    chain = _chain(game, "a")
    comps = structure(chain).comps
    rhs = [bk.from_fraction(c) for c in chain.act_const]
    # value: x0 = 1/2 + 1/2 x1, x1 = 1/2 x0, so x0 = 1/2 + 1/4 x0: x0 = 2/3, x1 = 1/3
    assert _fractions(solve_chain(chain, comps, rhs, {2: bk.ZERO})) == [Fraction(2, 3), Fraction(1, 3), 0]
    # expected steps: t0 = 1 + 1/2 t1, t1 = 1 + 1/2 t0, so t0 = t1 = 2
    ones = [bk.ONE] * 3
    assert _fractions(solve_chain(chain, comps, ones, {2: bk.ZERO})) == [2, 2, 0]
    # a given value is used as is: with v(1) = 1 given, x0 = 1/2 + 1/2 = 1
    assert _fractions(solve_chain(chain, comps, rhs, {1: bk.ONE, 2: bk.ZERO}))[0] == 1


def test_solve_chain_into_a_closed_class(game: CompiledGame[Any, Any]) -> None:
    # "b": x0 = 1/4 * x2 + 3/4 with x2 = 0 given (the closed class never ends): 3/4;
    # x1 = 1/2 x0 = 3/8
    chain = _chain(game, "b")
    rhs = [bk.from_fraction(c) for c in chain.act_const]
    x = solve_chain(chain, structure(chain).comps, rhs, {2: bk.ZERO})
    assert _fractions(x) == [3 * Q, Fraction(3, 8), 0]


def test_length_distribution(game: CompiledGame[Any, Any]) -> None:
    chain = _chain(game, "a")
    dead = [False, False, True]
    # one count per step: play ends at each step with 1/2, so P(L = k) = 1/2^k
    pmf = length_pmf(chain, [1, 1, 1], 4, 0, dead)
    assert _fractions(pmf) == [0, H, Q, Fraction(1, 8), Fraction(1, 16)]
    # state 1's steps count 2: ends at 0 (L = 1, 1/2), at 1 (L = 3, 1/4), at 0 again
    # (L = 4, 1/8), at 1 again (L = 6, 1/16)
    pmf = length_pmf(chain, [1, 2, 1], 6, 0, dead)
    assert _fractions(pmf) == [0, H, 0, Q, Fraction(1, 8), 0, Fraction(1, 16)]
    # state 1's steps count 0: L = 1 with 1/2 + 1/4, L = 2 with 1/8 + 1/16, ...:
    # P(L = k) = 3/4 (1/4)^(k - 1)
    pmf = length_pmf(chain, [1, 0, 1], 3, 0, dead)
    assert _fractions(pmf) == [0, 3 * Q, Fraction(3, 16), Fraction(3, 64)]


def test_length_distribution_drops_the_mass_of_a_closed_class(game: CompiledGame[Any, Any]) -> None:
    # "b": ends at once with 3/4; the other 1/4 spins in state 2 for ever
    pmf = length_pmf(_chain(game, "b"), [1, 1, 1], 3, 0, [False, False, True])
    assert _fractions(pmf) == [0, 3 * Q, 0, 0]


@pytest.mark.parametrize(("first", "counts"), [("a", [1, 1, 1]), ("a", [1, 2, 1]), ("a", [1, 0, 1]),
                                               ("b", [1, 1, 1])])
def test_length_bounds_enclose_the_exact_distribution(game: CompiledGame[Any, Any], first: str,
                                                      counts: list[int]) -> None:
    chain = _chain(game, first)
    dead = [False, False, True]
    exact = _fractions(length_pmf(chain, counts, 6, 0, dead))
    lo, hi = length_bounds(chain, counts, 6, 0, np.array(dead))
    for k, p in enumerate(exact):
        assert Fraction(lo[k]) <= p <= Fraction(hi[k])
        assert hi[k] - lo[k] <= 1e-12  # outward rounding: a few hundred units in the last place


def test_zero_count_cycles(game: CompiledGame[Any, Any]) -> None:
    alive = np.array([False, False, False])
    trapped = np.array([False, False, True])
    a, b = _chain(game, "a"), _chain(game, "b")
    # 0 <-> 1 both counting 0: a cycle through 0 and 1
    assert zero_count_cycle(a, [0, 0, 1], trapped) in (0, 1)
    assert zero_count_cycle(a, [1, 0, 1], trapped) is None  # 0's step counts
    # 2 spins counting 0: a cycle, unless 2 is dead (its mass is dropped anyway)
    assert zero_count_cycle(b, [1, 1, 0], alive) == 2
    assert zero_count_cycle(b, [1, 1, 0], trapped) is None


def test_enclose_all() -> None:
    third, half = Fraction(1, 3), Fraction(1, 2)
    lo, hi = enclose_all([third, half, Fraction(10**400), -Fraction(10**400)])
    # 1/3 is not a float: two neighbouring floats around it
    assert Fraction(lo[0]) < third < Fraction(hi[0]) and hi[0] == math.nextafter(lo[0], math.inf)
    assert lo[1] == hi[1] == 0.5  # a float: itself
    biggest = math.nextafter(math.inf, 0.0)
    assert (lo[2], hi[2]) == (biggest, math.inf)  # beyond the float range
    assert (lo[3], hi[3]) == (-math.inf, -biggest)


def test_chain_bounds_enclose_the_exact_values(game: CompiledGame[Any, Any]) -> None:
    chain = _chain(game, "a")
    bounds = chain_bounds(chain, list(chain.act_const), {2: Fraction(0)})
    assert bounds is not None
    lo, hi = bounds
    for i, x in enumerate([Fraction(2, 3), Fraction(1, 3), Fraction(0)]):  # as solved above
        assert Fraction(lo[i]) <= x <= Fraction(hi[i])
        assert hi[i] - lo[i] <= 1e-12


def test_chain_bounds_of_large_totals_of_both_signs() -> None:
    """x0 = -10^6 + 1/2 x1 and x1 = 10^6 + 1/3 + 1/2 x0 (each step ends play with
    probability 1/2): by hand x0 = -10^6 / 2 + 1/6 + x0 / 4, so x0 = -2 10^6 / 3 + 2/9 and
    x1 = 10^6 + 1/3 + x0 / 2 = 2 10^6 / 3 + 4/9. The proven gap scales with the totals."""
    big = 10**6
    chain = CompiledGame.from_values(
        [0, 1], {0: 0, 1: 1}, np.array([0, 0], dtype=np.int8), np.array([0, 1, 2]), ["a", "a"],
        np.array([0, 1, 2]), np.array([1, 0]), [Fraction(-big), big + Fraction(1, 3)], [H, H], [H, H])
    bounds = chain_bounds(chain, list(chain.act_const), {})
    assert bounds is not None
    lo, hi = bounds
    exact = [Fraction(-2 * big, 3) + Fraction(2, 9), Fraction(2 * big, 3) + Fraction(4, 9)]
    for i, x in enumerate(exact):
        assert Fraction(lo[i]) <= x <= Fraction(hi[i])
        assert hi[i] - lo[i] <= 1e-7


def test_interval_bounds_hold_for_every_right_hand_side_in_the_box(game: CompiledGame[Any, Any]) -> None:
    # b0 anywhere in [1/2, 1], b1 = 0: x0 = b0 + 1/4 x0 gives x0 = 4/3 b0, x1 = 2/3 b0; so
    # x0 in [2/3, 4/3] and x1 in [1/3, 2/3]
    chain = _chain(game, "a")
    fixed = np.array([2])
    bounds = interval_bounds(chain, np.array([0.5, 0.0, 0.0]), np.array([1.0, 0.0, 0.0]), fixed,
                             np.zeros(1), np.zeros(1))
    assert bounds is not None
    lo, hi = bounds
    for i, (low, high) in enumerate([(Fraction(2, 3), Fraction(4, 3)), (Fraction(1, 3), Fraction(2, 3))]):
        assert Fraction(lo[i]) <= low and high <= Fraction(hi[i])
        assert low - Fraction(lo[i]) <= Fraction(1, 10**12) and Fraction(hi[i]) - high <= Fraction(1, 10**12)


def _costly() -> CompiledGame[Any, Any]:
    """State 0: "quick" (player 0 wins at once, flat action 0) or "slow" (1/2 to state 1,
    1/2 player 0 wins; 1); state 1: "back" (1/2 to 0, 1/2 player 1 wins; 2) or "out"
    (player 1 wins; 3). Every action has terminal mass: stopping under every policy."""
    return compile_game(TableGame(players=(0, 1), moves=(
        (("quick", ((1, W0),)), ("slow", ((H, 1), (H, W0)))),
        (("back", ((H, 0), (H, W1))), ("out", ((1, W1),))),
    )))


def test_extreme_profile_minimises_and_maximises_an_expected_total() -> None:
    g = _costly()
    cost = [bk.Q(5), bk.ONE, bk.ONE, bk.Q(3)]  # quick 5, slow 1, back 1, out 3
    # minimum: slow and back give x0 = 1 + 1/2 x1, x1 = 1 + 1/2 x0, so x0 = x1 = 2; no
    # switch helps (quick 5 > 2, out 3 > 2)
    x, choice = extreme_profile(g, cost, minimise=True)
    assert _fractions(x) == [2, 2] and choice.tolist() == [1, 2]
    # maximum: quick gives x0 = 5; then back gives x1 = 1 + 5/2 = 7/2 > out's 3; slow
    # would give 1 + 7/4 < 5
    x, choice = extreme_profile(g, cost, minimise=False)
    assert _fractions(x) == [5, Fraction(7, 2)] and choice.tolist() == [0, 2]


def _bank_chain(n: int) -> tuple[CompiledGame[Any, Any], Any]:
    """Risk or Safety to ``n`` with both players banking their first head, as a chain, and its
    structure (the peers' benchmark chain, ``benchmarks/bench_peers.py``)."""
    c = tbsg.chain(risk_or_safety(n), lambda s: "stop" if s.open >= 1 else "toss")
    return c.graph, c.structure


def test_chain_bounds_in_solving_order_enclose_the_exact_values() -> None:
    # the system factorised in solving order (block triangular, no reordering) and in
    # SuperLU's own order: both enclose the exact values solve_chain gives
    g, st = _bank_chain(8)
    exact = _fractions(solve_chain(g, st.comps, [bk.from_fraction(x) for x in g.act_const], {}))
    for order in (st.comps.members, float_order(g), None):
        bounds = chain_bounds(g, list(g.act_const), {}, order)
        assert bounds is not None
        lo, hi = bounds
        for i, x in enumerate(exact):
            assert Fraction(lo[i]) <= x <= Fraction(hi[i])
            assert hi[i] - lo[i] <= 1e-12


def test_a_chain_system_is_factorised_once_per_set_of_fixed_states() -> None:
    g, st = _bank_chain(4)
    order = st.comps.members
    one = ChainSystem.of(g, np.array([], dtype=np.int64), order)
    assert one is not None
    assert ChainSystem.of(g, np.array([], dtype=np.int64), order) is one
    other = ChainSystem.of(g, np.array([0], dtype=np.int64), order)
    assert other is not None and other is not one
    # state 0 given: its row is empty, the others still solve their systems
    assert other.free.tolist() == [False] + [True] * (g.n_states - 1)


def test_enclose_all_reads_a_repeated_object_and_equal_values_alike() -> None:
    third = Fraction(1, 3)
    lo, hi = enclose_all([third, Fraction(1, 3), third, Fraction(2), Fraction(2)])
    assert lo[0] == lo[1] == lo[2] and hi[0] == hi[1] == hi[2] and lo[0] < hi[0]
    assert lo[3] == hi[3] == lo[4] == hi[4] == 2.0
    empty_lo, empty_hi = enclose_all([])
    assert empty_lo.shape == empty_hi.shape == (0,)


def test_a_chain_that_stops_needs_no_components_for_its_classes_nor_its_float_totals() -> None:
    """Every state of the bank-at-the-first-head chain can reach a step that ends play:
    no closed class, found without the components, and the float totals are factorised
    in the reverse numbering (float_order), so the components are never computed."""
    from unittest import mock

    from tbsg.engine import markov

    c = tbsg.chain(risk_or_safety(6), lambda s: "stop" if s.open >= 1 else "toss")
    with mock.patch.object(markov, "decompose", side_effect=AssertionError("not needed")):
        st = structure(c.graph)
        assert st.n_traps == 0 and not st.trapped.any()
        lo, hi = c.expected_steps(exact=False)
    assert lo <= c.expected_steps() <= hi
    assert float_order(c.graph).tolist() == list(range(c.n_states - 1, -1, -1))


def test_whether_play_can_end_from_every_state() -> None:
    from tbsg.engine.markov import _every_state_ends

    # 0 -> 1 or player 0 wins; 1 -> 0 or player 1 wins: play can end from both
    stops = compile_game(TableGame(players=(0, 1), moves=(
        (("a", ((H, 1), (H, W0))),), (("a", ((H, 0), (H, W1))),))))
    assert _every_state_ends(stops)
    # state 2 can only reach itself (spin for ever), state 1 reaches only state 2: the
    # class {2} is found by the components
    trapped = compile_game(TableGame(players=(0, 1, 0), moves=(
        (("a", ((H, 1), (H, W0))),), (("a", ((1, 2),)),), (("spin", ((1, 2),)),))))
    assert not _every_state_ends(trapped)
    st = structure(trapped)
    assert st.n_traps == 1 and st.trap.tolist() == [-1, -1, 0]
