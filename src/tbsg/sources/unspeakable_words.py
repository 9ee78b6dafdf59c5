"""J. Mount, "Unspeakable bets: take small steps" (Win-Vector blog; seed 004).

The post idealises the end game of Unspeakable Words as a betting race with a die
(:mod:`tbsg.games.unspeakable_words`) and prints, for a d6, the tables ``aMove`` (the
optimal bet of player a, a to move, ``0 <= a, b <= 6``) and ``aValue`` (a's chance of
winning, 3 decimals), computed by its Python 2 code in floating point; it also remarks
on the diagonal and on a one-player warm-up, and mentions a variant bust rule.

What reproduces: both printed tables, exactly (every move, including the code's
smallest-bet tie-breaking, and every value to its 3 printed decimals;
:func:`tbsg.games.unspeakable_words_tables`); the values are exact rationals, e.g.
``aValue[6, 6] = 43835/93312``. The remark on the diagonal is right: with a d6 the values
for ``a = b >= 4`` are below 1/2 (moving first is a disadvantage) and ``aValue[3, 3]`` is
exactly 1/2. Under the variant ("bust only if the roll is less than the bet") "you do
always want to move first" holds only weakly: no diagonal value is below 1/2, but
``aValue[4, 4]`` is *exactly* 1/2.

What does not, and why (neither is a row of ``tbsg reproduce``; the tests check both):

* The one-player warm-up's formula ``value(a) = (1-1/n)^(a-1)`` is off by one under the
  post's own bust rule: a bet of 1 busts on a roll of 1, so ``value(1) = 1 - 1/n`` and
  ``value(a) = (1-1/n)^a``, which is what its bet-value expression
  ``(1-d/n)(1-1/n)^(k+1-d)`` and its remark "value(n) is near e^(-1)" actually use (its
  "approximately e^((a-1)/n)" also lacks a minus sign). Its claim that betting 1 is always
  optimal is right.
* The post's code compares floats. Under the printed rule no position of the d6 or d20
  tables has two exactly optimal bets, so this does not touch the printed tables; under
  the variant, exact ties are common and the code keeps a larger bet than the smallest
  optimal one wherever rounding makes it look strictly better: at ``(3, 5)`` and
  ``(5, 3)`` for a d6, ``(15, 7)``, ``(18, 4)`` and ``(20, 2)`` for a d20. The tables of
  :mod:`tbsg.games.unspeakable_words` always give the smallest exactly optimal bet.

Examples
--------
>>> A_MOVE.splitlines()[2]
'1 2 2 2 2 1 1'
"""

from __future__ import annotations

from fractions import Fraction

from tbsg.games.unspeakable_words import unspeakable_words_tables
from tbsg.sources.check import Check, KnownDiscrepancy, decimal_match

__all__ = ["A_MOVE", "A_VALUE", "CITATION", "KNOWN_DISCREPANCIES", "checks"]

GAME = "unspeakable_words"
CITATION = "seed 004 (Win-Vector, Unspeakable bets), d6 table"

#: Table "aMove" as printed: rows a = 0..6, columns b = 0..6.
A_MOVE = """\
0 0 0 0 0 0 0
1 1 1 1 1 1 1
1 2 2 2 2 1 1
1 3 3 3 1 1 1
1 4 4 1 1 1 1
1 5 1 1 1 1 1
1 1 1 1 1 1 1"""

#: Table "aValue" as printed: rows a = 0..6, columns b = 0..6, 3 decimals.
A_VALUE = """\
1.000 1.000 1.000 1.000 1.000 1.000 1.000
0.000 0.833 0.833 0.833 0.833 0.833 0.833
0.000 0.667 0.667 0.667 0.667 0.694 0.718
0.000 0.500 0.500 0.500 0.556 0.602 0.621
0.000 0.333 0.333 0.417 0.486 0.525 0.557
0.000 0.167 0.278 0.370 0.428 0.476 0.503
0.000 0.139 0.255 0.332 0.396 0.436 0.470"""

#: Every row reproduces.
KNOWN_DISCREPANCIES: tuple[KnownDiscrepancy, ...] = ()


def _cells(printed: str) -> list[list[str]]:
    return [row.split() for row in printed.splitlines()]


def checks() -> list[Check]:
    """The post's two d6 tables (``aMove``, ``aValue``), one row each, recomputed."""
    moves, values = unspeakable_words_tables(6)
    pm, pv = _cells(A_MOVE), _cells(A_VALUE)
    cells = [(a, b) for a in range(7) for b in range(7)]
    bad_moves = [(a, b) for a, b in cells if int(pm[a][b]) != moves[a, b]]
    bad_values = [(a, b) for a, b in cells if not decimal_match(pv[a][b], values[a, b])]
    moves_text = "/".join("".join(str(moves[a, b]) for b in range(7)) for a in range(7))
    values_text = "/".join(" ".join(f"{float(values[a, b]):.3f}" for b in range(7))
                           for a in range(7))
    exact_values = tuple(Fraction(values[a, b]) for a, b in cells)
    return [
        Check(GAME, CITATION, "aMove[a, b] for 0 <= a, b <= 6 (smallest optimal bet)",
              "/".join("".join(r) for r in pm),
              moves_text + (f"; differs at {bad_moves}" if bad_moves else ""), not bad_moves,
              moves_text),
        Check(GAME, CITATION, "aValue[a, b] for 0 <= a, b <= 6 (3 decimals)",
              "/".join(" ".join(r) for r in pv),
              values_text + (f"; differs at {bad_values}" if bad_values else ""), not bad_values,
              exact_values),
    ]
