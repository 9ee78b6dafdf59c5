"""Known answers for Pig solitaire (:mod:`tbsg.games.pig_solitaire`).

The source: T. W. Neller, "Pig", Nifty Assignments (SIGCSE 2010), page "Average Pig
Turns", http://nifty.stanford.edu/2010/neller-pig/avgturns.html. It asks for "the expected
number of turns per solitaire game with a hold-at-20-or-goal play policy" (roll until a 1,
a turn total of 20 or more, or score plus turn total of 100 or more), estimated by
simulation, and its sample transcript prints ``Average turns: 12.634906`` for 1,000,000
simulated games, warning that "your approximation will vary in latter decimal places".

The printed number is a sample mean, not the expectation, so it is checked as one: tbsg
computes the expectation and the variance of the number of turns exactly
(:func:`tbsg.games.pig_solitaire_turns`: ``E = 12.636769490454...``, ``Var =
19.803975996...``, exact fractions), and the row holds when the printed mean lies within
three standard errors, ``3 * sqrt(Var / 10**6) = 0.01335...``, of ``E``. It does: the
difference is ``0.00186``, 0.42 standard errors. The row's value is the exact ``E``.

The fewest expected turns to 100 under optimal play, ``12.545232351955...`` (exact), is
tbsg's own: no source found prints it. No known discrepancy.

Examples
--------
>>> AVERAGE_TURNS, GAMES
('12.634906', 1000000)
"""

from __future__ import annotations

from fractions import Fraction

from tbsg.games.pig_solitaire import SolitaireState, hold_at, pig_solitaire
from tbsg.sources.check import Check, Citation, KnownDiscrepancy

__all__ = ["AVERAGE_TURNS", "CITATION", "GAMES", "KNOWN_DISCREPANCIES", "checks"]

GAME = "pig_solitaire"
CITATION = "Neller, Pig (Nifty Assignments, SIGCSE 2010)"

#: "Average Pig Turns", sample transcript: the mean number of turns of simulated games.
AVERAGE_TURNS = "12.634906"
#: The same transcript: the number of simulated games ("Games? 1000000").
GAMES = 1_000_000
#: Standard errors within which a sample mean is accepted.
Z = 3

#: Every row reproduces.
KNOWN_DISCREPANCIES: tuple[KnownDiscrepancy, ...] = ()

_NIFTY = Citation(GAME, CITATION)
_WHERE = "Average Pig Turns, nifty.stanford.edu/2010/neller-pig/avgturns.html"


def _within(mean: Fraction, variance: Fraction, printed: Fraction) -> bool:
    """``|printed - mean| <= Z * sqrt(variance / GAMES)``, decided exactly (squares)."""
    return (printed - mean) ** 2 * GAMES <= Z * Z * variance


def checks() -> list[Check]:
    """The simulated mean of "hold at 20 or goal" against the exact expectation."""
    from tbsg.play.chain import chain

    game = pig_solitaire(100, 6)
    rule = chain(game, hold_at(20))
    start = SolitaireState(0, 0)
    mean = rule.expected_reward(game.reward, state=start)
    variance = rule.variance_of_steps(game.reward, state=start)
    printed = Fraction(AVERAGE_TURNS)
    error = float(variance / GAMES) ** 0.5
    shown = (f"E = {float(mean):.6f}, sd = {float(variance) ** 0.5:.4f}: printed mean is "
             f"{abs(float(printed - mean)) / error:.2f} standard errors away")
    return [_NIFTY.claim(_WHERE, "expected turns, hold at 20 or goal, goal 100 (mean of 10^6 games)",
                         AVERAGE_TURNS, shown, _within(mean, variance, printed), mean,
                         note=f"a simulated mean: accepted within {Z} standard errors of the "
                              "exact expectation (exact variance)")]
