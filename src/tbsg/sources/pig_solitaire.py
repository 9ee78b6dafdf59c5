"""Known answers for Pig solitaire (:mod:`tbsg.games.pig_solitaire`).

Two sources print them, both for the rule "hold at ``h`` or goal" (roll until a 1, a turn
total of ``h`` or more, or score plus turn total reaching the goal) to 100 with one die:

* T. W. Neller, "Pig", Nifty Assignments (SIGCSE 2010), page "Average Pig Turns",
  http://nifty.stanford.edu/2010/neller-pig/avgturns.html, asks for "the expected number of
  turns per solitaire game with a hold-at-20-or-goal play policy", estimated by
  simulation; its sample transcript prints ``Average turns: 12.634906`` for 1,000,000
  simulated games, warning that "your approximation will vary in latter decimal places".
* H. Ruskeepää, "Throwing a Die to Score 100 Points", Wolfram Demonstrations Project
  (March 2012), https://demonstrations.wolfram.com/ThrowingADieToScore100Points/: Snapshot
  2, 1,000 simulated games with threshold 20, "the average number of needed turns is
  12.749"; Snapshot 3, averages of 100,000 simulations per threshold: "A minimum among the
  average number of turns needed to get 100 points occurs when the threshold value is 20".

The printed averages are sample means, not the expectation, so they are checked as such:
tbsg computes the expectation and the variance of the number of turns exactly
(:func:`tbsg.games.pig_solitaire_turns`: ``E = 12.636769490454...``, ``Var =
19.803975996...``, exact fractions), and a row holds when the printed mean lies within
three standard errors ``3 * sqrt(Var / n)`` of ``E``: Neller's is 0.42 standard errors
away (``n = 10**6``), Ruskeepää's 0.80 (``n = 1000``). The best threshold is exact: every
rule "hold at ``h``" for ``h = 1, ..., 100`` is evaluated exactly (:func:`tbsg.chain`),
and 20 alone needs the fewest expected turns (19 follows with ``12.638483...``). A row's
value is the exact ``E``, or the best threshold.

The fewest expected turns to 100 under optimal play, ``12.545232351955...`` (exact), is
tbsg's own: no source found prints it. No known discrepancy.

Examples
--------
>>> AVERAGE_TURNS, GAMES, RUSKEEPAA_AVERAGE
('12.634906', 1000000, ('12.749', 1000))
"""

from __future__ import annotations

from fractions import Fraction

from tbsg.games.pig_solitaire import SolitaireState, hold_at, pig_solitaire
from tbsg.sources.check import Check, Citation, KnownDiscrepancy

__all__ = ["AVERAGE_TURNS", "BEST_THRESHOLD", "CITATION", "GAMES", "KNOWN_DISCREPANCIES",
           "RUSKEEPAA", "RUSKEEPAA_AVERAGE", "checks"]

GAME = "pig_solitaire"
CITATION = "Neller, Pig (Nifty Assignments, SIGCSE 2010)"

#: "Average Pig Turns", sample transcript: the mean number of turns of simulated games.
AVERAGE_TURNS = "12.634906"
#: The same transcript: the number of simulated games ("Games? 1000000").
GAMES = 1_000_000
#: Standard errors within which a sample mean is accepted.
Z = 3

RUSKEEPAA = "Ruskeepää, Throwing a Die to Score 100 Points (Wolfram Demonstrations, 2012)"
#: Snapshot 2: the mean number of turns of simulated games, threshold 20, and their number.
RUSKEEPAA_AVERAGE = ("12.749", 1000)
#: Snapshot 3: the threshold with the fewest average turns.
BEST_THRESHOLD = "20"

#: Every row reproduces.
KNOWN_DISCREPANCIES: tuple[KnownDiscrepancy, ...] = ()

_NIFTY = Citation(GAME, CITATION)
_DEMO = Citation(GAME, RUSKEEPAA)
_WHERE = "Average Pig Turns, nifty.stanford.edu/2010/neller-pig/avgturns.html"
_THRESHOLDS = range(1, 101)


def _within(mean: Fraction, variance: Fraction, printed: Fraction, n: int) -> bool:
    """``|printed - mean| <= Z * sqrt(variance / n)``, decided exactly (squares)."""
    return (printed - mean) ** 2 * n <= Z * Z * variance


def _sample_mean(cite: Citation, where: str, quantity: str, printed: str, n: int,
                 mean: Fraction, variance: Fraction) -> Check:
    """Row for a simulated mean of ``n`` games against the exact mean and variance."""
    error = float(variance / n) ** 0.5
    shown = (f"E = {float(mean):.6f}, sd = {float(variance) ** 0.5:.4f}: printed mean is "
             f"{abs(float(Fraction(printed) - mean)) / error:.2f} standard errors away")
    return cite.claim(where, quantity, printed, shown, _within(mean, variance, Fraction(printed), n),
                      mean, note=f"a simulated mean of {n:,} games: accepted within {Z} standard "
                                 "errors of the exact expectation (exact variance)")


def checks() -> list[Check]:
    """The simulated means of "hold at 20 or goal" and the best threshold, recomputed exactly."""
    from tbsg.play.chain import chain

    game = pig_solitaire(100, 6)
    start = SolitaireState(0, 0)
    turns = {h: chain(game, hold_at(h)).expected_reward(game.reward, state=start)
             for h in _THRESHOLDS}
    variance = chain(game, hold_at(20)).variance_of_steps(game.reward, state=start)
    printed, n = RUSKEEPAA_AVERAGE
    least = min(turns.values())
    best = [h for h in _THRESHOLDS if turns[h] == least]
    runner = min((h for h in _THRESHOLDS if h not in best), key=turns.__getitem__)
    return [
        _sample_mean(_NIFTY, _WHERE, "expected turns, hold at 20 or goal, goal 100 (mean of 10^6 games)",
                     AVERAGE_TURNS, GAMES, turns[20], variance),
        _sample_mean(_DEMO, "Snapshot 2", "expected turns, threshold 20, goal 100 (mean of 1000 games)",
                     printed, n, turns[20], variance),
        _DEMO.claim("Snapshot 3", "threshold with the fewest expected turns to 100",
                    BEST_THRESHOLD, f"{', '.join(map(str, best))} (of 1 to 100; next: {runner}, "
                    f"{float(turns[runner]):.6f} against {float(least):.6f})",
                    best == [int(BEST_THRESHOLD)], str(best),
                    note="every threshold evaluated exactly (no simulation)"),
    ]
