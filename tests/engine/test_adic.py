"""B-adic action values on small hand-built games: the base, the exponents, and action
values as integers over one power of the base, each checked against the Fraction
arithmetic done by hand in the comments."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from tbsg import win
from tbsg.engine import _backend as bk
from tbsg.engine.adic import AdicValues, _base
from tbsg.engine.compile import compile_game
from tbsg.engine.compiled import CompiledGame
from tbsg.testing import TableGame

W0, W1 = win(0), win(1)


@pytest.mark.parametrize(("dens", "base", "factors"), [
    ([4, 3], 6, [2, 3]),  # lcm 12 = 2^2 * 3: B is the product of its distinct primes
    ([12, 5], 30, [2, 3, 5]),
    ([1], 1, []),  # only integers: every value is "B-adic" with exponent 0
    ([2 * 1009], 2 * 1009, [2, 1009]),  # 1009 > 1000 is not looked for, kept as the rest
    ([1009 * 1013], 1009 * 1013, [1009 * 1013]),  # the rest is not factored
])
def test_base_is_the_product_of_the_denominators_primes(dens: list[int], base: int,
                                                        factors: list[int]) -> None:
    assert _base(dens) == (base, factors)


def _dice() -> CompiledGame[Any, Any]:
    # state 0 (player 0): "roll" goes to 1 with 1/6 and to 2 with 5/6; "hold" wins with
    # 1/3. States 1 and 2 end play at once (player 0 wins with 1/2 and 1/4).
    # Denominators 6, 3, 2, 4: B = 6.
    return compile_game(TableGame(players=(0, 0, 0), moves=(
        (("roll", ((Fraction(1, 6), 1), (Fraction(5, 6), 2))),
         ("hold", ((Fraction(1, 3), W0), (Fraction(2, 3), W1)))),
        (("a", ((Fraction(1, 2), W0), (Fraction(1, 2), W1))),),
        (("a", ((Fraction(1, 4), W0), (Fraction(3, 4), W1))),),
    )))


def _solved(values: list[Fraction]) -> list[Any]:
    return [bk.from_fraction(v) for v in values]


def test_exponents_of_denominators() -> None:
    adic = AdicValues(_dice(), _solved([Fraction(0)] * 3))
    assert adic.base == 6
    assert adic.exponent(8) == 3  # 8 | 6^3 = 216, not 6^2 = 36
    assert adic.exponent(9) == 2
    assert adic.exponent(1) == 0
    assert adic.exponent(7) < 0  # 7 divides no power of 6: not B-adic
    assert adic.exponent(2**70000) < 0  # too large to convert: treated as not B-adic
    assert adic.powers(3).tolist() == [1, 6, 36, 216]


def test_action_values_over_one_power_of_the_base() -> None:
    # v(1) = 1/2, v(2) = 1/4 (their only actions); the actions of state 0:
    # Q(roll) = 1/6 * 1/2 + 5/6 * 1/4 = 1/12 + 5/24 = 7/24, Q(hold) = 1/3
    g = _dice()
    adic = AdicValues(g, _solved([Fraction(0), Fraction(1, 2), Fraction(1, 4)]))
    out = adic.action_numerators(np.array([0, 1]))
    assert out is not None
    top, nums = out
    assert [Fraction(int(n), 6**top) for n in nums.tolist()] == [Fraction(7, 24), Fraction(1, 3)]
    # the comparison the solver makes is between integers: roll < hold
    assert nums[0] < nums[1]
    # the successors were converted on the way: 1/2 = 3/6, 1/4 = 9/36
    assert adic.num[1] * Fraction(1, 6**int(adic.exp[1])) == Fraction(1, 2)
    assert adic.num[2] * Fraction(1, 6**int(adic.exp[2])) == Fraction(1, 4)


def test_a_successor_that_is_not_b_adic_gives_none() -> None:
    # v(2) = 1/7 (as if from a cycle): 7 divides no power of 6, so roll cannot be valued
    # this way; hold has no successor and still can
    adic = AdicValues(_dice(), _solved([Fraction(0), Fraction(1, 2), Fraction(1, 7)]))
    assert adic.action_numerators(np.array([0])) is None
    hold = adic.action_numerators(np.array([1]))
    assert hold is not None
    assert Fraction(int(hold[1][0]), 6 ** hold[0]) == Fraction(1, 3)


def test_record_gives_exact_values_and_correctly_rounded_floats() -> None:
    # the solver's flow: value state 0's actions, record the best (hold, 1/3) as v(0)
    adic = AdicValues(_dice(), _solved([Fraction(0), Fraction(1, 2), Fraction(1, 4)]))
    out = adic.action_numerators(np.array([0, 1]))
    assert out is not None
    top, nums = out
    exact, floats = adic.record(np.array([0]), nums[1:], top)
    assert [bk.to_fraction(x) for x in exact] == [Fraction(1, 3)]
    assert floats == [1 / 3]  # Python's int / int rounds correctly, as the floats must
    # kept in B-adic form for the levels above
    assert Fraction(int(adic.num[0]), 6 ** int(adic.exp[0])) == Fraction(1, 3)


def test_integer_values_with_base_one() -> None:
    # every rational of the game is an integer (sure outcomes, payoffs 0 and 1): B = 1,
    # values are B-adic only if they are integers
    g = compile_game(TableGame(players=(0, 1), moves=(
        (("go", ((1, 1),)), ("win", ((1, W0),))),
        (("lose", ((1, W1),)),),
    )))
    adic = AdicValues(g, _solved([Fraction(0), Fraction(0)]))
    assert adic.base == 1
    out = adic.action_numerators(np.array([0, 1]))  # Q(go) = v(1) = 0, Q(win) = 1
    assert out is not None
    assert out[1].tolist() == [0, 1]
