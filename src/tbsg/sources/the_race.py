"""Project Euler problem 232, "The Race" (seed 003).

The problem (:mod:`tbsg.games.the_race`): player 1 tosses one coin a turn; player 2
chooses ``T`` tosses worth ``2**(T-1)`` points if all are heads; first to 100 points.
The seed prints the answer, P(player 2 wins) with player 2 optimal, ``0.83648556`` (and,
in its solution, the unrounded ``0.8364855558...``), from a floating-point dynamic
program.

It reproduces: :func:`tbsg.solve` gives the exact value, a rational with a 480-digit
denominator, which rounds to the printed 8 (and 10) digits. No known discrepancy.

Examples
--------
>>> ANSWER
'0.83648556'
"""

from __future__ import annotations

from tbsg.games.the_race import TheRace
from tbsg.sources.check import Check, KnownDiscrepancy, decimal_check

__all__ = ["ANSWER", "CITATION", "KNOWN_DISCREPANCIES", "checks"]

GAME = "the_race"
CITATION = "seed 003 (Project Euler 232, The Race), answer"

#: "Answer: 0.83648556": P(player 2 wins), goal 100, player 2 optimal.
ANSWER = "0.83648556"

#: Every row reproduces.
KNOWN_DISCREPANCIES: tuple[KnownDiscrepancy, ...] = ()


def checks() -> list[Check]:
    """The published answer, P(player 2 wins) to 8 places, recomputed exactly."""
    from tbsg.api.solving import solve

    return [decimal_check(GAME, CITATION, "P(player 2 wins), goal 100", ANSWER,
                          solve(TheRace(100)).value())]
