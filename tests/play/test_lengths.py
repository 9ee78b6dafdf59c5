"""The law of the length of play (tbsg.play.lengths): its functionals, and the exact mean
and variance against hand derivations.

Hand derivations are in the comments; the chain's own tests (test_chain.py) check the
distributions of whole games.
"""

from __future__ import annotations

from fractions import Fraction

import tbsg
from strategies import TableGame
from tbsg import DRAW
from tbsg.play.lengths import LengthBounds, LengthDistribution, moments, variance_bounds
from tbsg.play.system import diverging, steps

HALF = Fraction(1, 2)


def test_the_functionals_of_a_length_distribution() -> None:
    # P(L = 0) = 0, P(L = 1) = 1/2, P(L = 2) = 1/4; 1/4 beyond (some never ends: ends = 7/8)
    d = LengthDistribution(pmf=(Fraction(0), HALF, Fraction(1, 4)), mean=None, variance=None,
                           ends=Fraction(7, 8))
    assert d.horizon == 2 and d.cdf == (Fraction(0), HALF, Fraction(3, 4))
    assert d.beyond() == Fraction(1, 4) and d.trapped == Fraction(1, 8)


def test_bounds_of_the_functionals_are_rounded_outward() -> None:
    b = LengthBounds(pmf=((0.0, 0.0), (0.1, 0.1), (0.2, 0.2)), mean=None, variance=None, ends=(0.3, 0.3))
    # the sums hold the exact sums of the floats given: 0.1 + 0.2 in floats rounds, the bounds do not
    lo, hi = b.cdf[2]
    assert Fraction(lo) <= Fraction(0.1) + Fraction(0.2) <= Fraction(hi) and lo < hi
    t_lo, t_hi = b.trapped  # 1 - 0.3, rounded outward
    assert Fraction(t_lo) <= 1 - Fraction(0.3) <= Fraction(t_hi) and t_lo < t_hi
    ends_surely = LengthBounds(pmf=(), mean=None, variance=None, ends=(1.0, 1.0))
    assert b.horizon == 2 and ends_surely.trapped == (0.0, 0.0)


def test_moments_of_a_two_state_chain() -> None:
    # A: stay w.p. 1/2, else B.  B: end w.p. 1/3, else back to A (1 per move).
    # T_B = 7, T_A = 9; M_A = 141, M_B = 107 (M = 2 c T - c^2 + P M): Var_A = 60, Var_B = 58
    third = Fraction(1, 3)
    game = TableGame(players=(0, 1), moves=((("go", ((HALF, 0), (HALF, 1))),),
                                            (("go", ((third, DRAW), (1 - third, 0))),)))
    c = tbsg.chain(game, lambda s: "go")
    g, st = c.graph, c.structure
    cs = steps(g, None, "count")
    assert moments(g, st, cs, diverging(g, st, cs, "count", 0), 0) == (Fraction(9), Fraction(60))
    assert moments(g, st, cs, [], 1) == (Fraction(7), Fraction(58))
    lo, hi = variance_bounds(g, cs, [], 0)
    assert lo <= 60 <= hi and hi - lo < 1e-9
    # ends: the whole mass ends (no trap), through the stop probabilities of the chain
    assert c.length_distribution(3).ends == 1 == sum(c.outcome_probabilities().values())
