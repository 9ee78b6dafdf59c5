"""Known answers for one turn of Pig played for points (:mod:`tbsg.games.pig_turn`).

Two sources print them:

* T. W. Neller, "Pig", Nifty Assignments (SIGCSE 2010), page "Hold-at-20 Outcomes
  (Computation)", http://nifty.stanford.edu/2010/neller-pig/turnOutcomes.html: the sample
  transcript of a dynamic program printing, to 6 decimals, the probability of each score
  of a "hold at 20" turn with a six-sided die (0: ``0.624541``, 20: ``0.099713``, 21:
  ``0.094991``, 22: ``0.074189``, 23: ``0.054196``, 24: ``0.035198``, 25: ``0.017173``).
* T. W. Neller and C. G. M. Presser, "Optimal Play of the Dice Game Pig", The UMAP Journal
  25(1) (2004) 25-47, pp. 25-26 ("Simple Tactics"), quoting R. Knizia, *Dice Games
  Properly Explained* (1999), p. 129: with 20 points at stake the bet of one more roll is
  a fair game, and "whenever your accumulated points are less than 20, you should
  continue throwing, because the odds are in your favor".

Everything reproduces. The distribution is computed exactly (:func:`tbsg.games.pig_turn_outcomes`,
a Markov chain of the rule): every probability rounds to the printed 6 decimals, e.g.
``P(0) = 9440899/15116544``. Knizia's rule is checked on the exactly solved turn
(:func:`tbsg.solve` of :func:`tbsg.games.pig_turn`, rolling offered below turn total 40):
rolling is the only optimal action at every turn total from 2 to 19 (1 is never reached),
rolling and holding tie exactly at 20 (the fair bet), and holding is the only optimal
action from 21 on. So
"hold at 20" maximises the expected score of a turn, ``492303203/60466176 = 8.1418...``,
and so does "hold at 21" (it rolls once more at the tie). No known discrepancy.

Examples
--------
>>> OUTCOMES[0], KNOWN_DISCREPANCIES
('0.624541', ())
"""

from __future__ import annotations

from tbsg.games.pig_turn import TurnState, pig_turn, pig_turn_outcomes
from tbsg.sources.check import Check, Citation, KnownDiscrepancy

__all__ = ["CITATION", "KNOWN_DISCREPANCIES", "OUTCOMES", "checks"]

GAME = "pig_turn"
CITATION = "Neller, Pig (Nifty Assignments, SIGCSE 2010)"
PAPER = "Neller and Presser 2004, The UMAP Journal 25(1) 25-47"

#: "Hold-at-20 Outcomes (Computation)", sample transcript: score -> probability, as printed.
OUTCOMES: dict[int, str] = {0: "0.624541", 20: "0.099713", 21: "0.094991", 22: "0.074189",
                            23: "0.054196", 24: "0.035198", 25: "0.017173"}
#: pp. 25-26, quoting Knizia (1999, p. 129): roll while the turn total is below 20.
ROLL_BELOW = "continue throwing while the accumulated points are less than 20"
#: pp. 25-26, same quotation: 20 points at stake make one more roll a fair game.
FAIR_AT = "20 points at stake: a fair game"

#: Every row reproduces.
KNOWN_DISCREPANCIES: tuple[KnownDiscrepancy, ...] = ()

_NIFTY = Citation(GAME, CITATION)
_PAPER = Citation(GAME, PAPER)
_WHERE = "Hold-at-20 Outcomes (Computation), nifty.stanford.edu/2010/neller-pig/turnOutcomes.html"
_LIMIT = 40  # rolling offered up to turn total 40: enough to see holding win beyond 20


def _optimal_actions() -> dict[int, tuple[str, ...]]:
    """The exactly optimal actions of one turn, by turn total 1 to ``_LIMIT - 1``."""
    from tbsg.api.solving import solve

    sol = solve(pig_turn(6, _LIMIT))
    return {k: tuple(sol.optimal_actions(TurnState(k))) for k in range(1, _LIMIT)
            if TurnState(k) in sol.values}  # a turn total of 1 is never reached


def checks() -> list[Check]:
    """The printed distribution of a "hold at 20" turn and Knizia's rule, recomputed."""
    dist = pig_turn_outcomes(20, 6)
    rows = [_NIFTY.decimal(_WHERE, f"P(a hold-at-20 turn scores {score})", printed, dist[score])
            for score, printed in OUTCOMES.items()]
    scores = ", ".join(str(s) for s in dist)
    rows.append(_NIFTY.text(_WHERE, "scores a hold-at-20 turn can end with",
                            ", ".join(str(s) for s in OUTCOMES), scores))
    best = _optimal_actions()
    roll = [k for k, a in best.items() if a == ("roll",)]
    tie = [k for k, a in best.items() if set(a) == {"roll", "hold"}]
    hold = [k for k, a in best.items() if a == ("hold",)]
    rolls_below = roll == list(range(2, 20)) and hold == list(range(21, _LIMIT))
    rows.append(_PAPER.claim(
        "pp. 25-26 (Knizia 1999, p. 129)", "one turn: roll is optimal exactly below 20",
        ROLL_BELOW, f"roll only at {min(roll)}..{max(roll)}; hold only at {min(hold)}..{max(hold)}",
        rolls_below, note=f"exact solve, rolling offered up to turn total {_LIMIT - 1}"))
    rows.append(_PAPER.claim(
        "pp. 25-26 (Knizia 1999, p. 129)", "one turn: roll and hold tie exactly at 20",
        FAIR_AT, f"exact ties at turn totals {tie}", tie == [20]))
    return rows
