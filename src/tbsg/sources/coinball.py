"""The Riddler, "Coinball" (FiveThirtyEight; seed 001).

The puzzle: 100 alternating calls of a fair coin, "rush" (1 point) or "pass" (2 points)
to the caller if right, to the opponent if wrong (:mod:`tbsg.games.coinball`). Its
solution prints, from a floating-point dynamic program (the seed's Python code), the
first player's expectation to 12 digits when the opponent always rushes
(``.601766458853``), always passes (``.558341814467``) and plays optimally
(``.489818590457``), answers "it's better to go second", and sums up the optimal
strategy in words ("If you're losing, pass. If you're winning, rush. If it's tied, then
if the number of completed turns is divisible by 4, pass; otherwise, if it's after turn
92 and you went first or it's the very last turn, it's a wash; otherwise, rush.").

Everything reproduces. The three expectations are exact rationals (best responses by
:func:`tbsg.best_response`, the game's value by :func:`tbsg.solve`) that agree with the
source to all 12 printed digits: ``762829612762455217982392080553 / 2**100``,
``176945584060402258950511066335 / 2**98`` and ``620918830196319197178795393871 /
2**100``. The verbal summary (:func:`tbsg.games.coinball_summary_rule`) is *never wrong*
in the 19,899 reachable states, for both players (every action it names is exactly
optimal, every "wash" it declares, tied at t = 94, 98 and 99, is an exact tie); it is
*incomplete* in 11,184 states, where a second action is exactly optimal too: 11,172 of
them are already decided (the mover's value is 0 or 1), and 12 are not (tied at t = 92
and t = 96, where the rule says pass and both are optimal; losing by 1 at t = 91, 93,
95, 97, 98, where rush is as good as pass; winning by 1 at t = 96, 98 and by 2 or 3 at
t = 97, 98, where pass is as good as rush). See
:func:`tbsg.games.coinball_summary_check`. No known discrepancy.

Examples
--------
>>> BEST_RESPONSES["pass"], KNOWN_DISCREPANCIES
('0.558341814467', ())
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Literal

from tbsg.games.coinball import Coinball, CoinballState, coinball_summary_check
from tbsg.sources.check import Check, KnownDiscrepancy, decimal_check

__all__ = ["BEST_RESPONSES", "CITATION", "KNOWN_DISCREPANCIES", "OPTIMAL", "checks"]

GAME = "coinball"
CITATION = "seed 001 (Riddler Coinball), solution"

#: The solution, "Opponent always rushes or always passes": the first player's
#: expectation playing the best response to an opponent who always makes that call.
Call = Literal["rush", "pass"]

BEST_RESPONSES: dict[Call, str] = {"rush": "0.601766458853",
                                                     "pass": "0.558341814467"}
#: The solution, "Opponent plays optimally": the first player's expectation.
OPTIMAL = "0.489818590457"
#: The solution, same section: "In this case it's better to go second."
GO_SECOND = "no: better to go second"
#: The solution's verbal summary of optimal play (encoded as
#: :func:`tbsg.games.coinball_summary_rule`), as claimed.
SUMMARY = "pass when losing, rush when winning, tie rules by turn number"

#: Every row reproduces.
KNOWN_DISCREPANCIES: tuple[KnownDiscrepancy, ...] = ()


def _always(call: Call) -> Callable[[CoinballState], Call]:
    return lambda s: call


def checks() -> list[Check]:
    """The source's published quantities, recomputed exactly (100 tosses)."""
    from tbsg.api.solving import best_response, solve

    game = Coinball(100)
    rows: list[Check] = []
    for call, printed in BEST_RESPONSES.items():
        value = best_response(game, 0, _always(call)).value()
        rows.append(decimal_check(GAME, CITATION,
                                  f"first player's best response vs always {call}", printed, value))
    optimal = solve(game).value()
    rows.append(decimal_check(GAME, CITATION, "first player, both optimal", OPTIMAL, optimal))
    half = Fraction(1, 2)
    first = "yes" if optimal > half else "no (go second)" if optimal < half else "equal"
    rows.append(Check(GAME, CITATION, "is it better to go first? (both optimal)", GO_SECOND,
                      f"{first}: first player gets {float(optimal):.12f}", optimal < half, optimal))
    summary = coinball_summary_check(100)
    shown = (f"never wrong in {summary.states} states; exact in {summary.exact}, misses a tie "
             f"in {summary.missed_tie} ({summary.missed_tie_decided} decided)"
             if summary.never_wrong else
             f"wrong in {summary.wrong} states, false wash in {summary.false_wash}")
    rows.append(Check(GAME, CITATION,
                      "verbal summary of the optimal strategy: every recommended action optimal",
                      SUMMARY, shown, summary.never_wrong, shown))
    return rows
