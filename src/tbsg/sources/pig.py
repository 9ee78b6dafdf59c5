"""T. W. Neller and C. G. M. Presser, "Optimal Play of the Dice Game Pig", The UMAP Journal
25(1) (2004) 25-47: the source of both Pig and Piglet (:mod:`tbsg.games.pig`).

The paper solves Pig by value iteration and prints: for Piglet to 2 (its hand-worked
example), the six exact win probabilities of system (1) (p. 30) and the policy "always
keep flipping" (p. 31); for Pig to 100, the number of equations, 505,000 (p. 31), the
first player's chance with optimal play, 53.06% (p. 34), that "an optimal player with a
score of 0 will never hold with a turn total less than 21" (p. 34), and the "optimal
player" against "hold at 20": 58.74% when the optimal player starts, 47.76% for "hold at
20" when it starts, 55.49% for the optimal player when a fair coin picks the starter
(p. 34).

Everything reproduces. Piglet's values are exact (:func:`tbsg.solve`). Pig to 100 is
solved on the float path with certified bounds (its exact values have tens of thousands
of digits): the first player wins ``0.530592725273...`` (certified interval
``[0.530592725273577, 0.530592725273912]``), and both ends of each interval round to
the printed digits. The 505,000 equations are the triples ``(i, j, k)`` with ``0 <= i,
j < 100`` and ``k < 100 - i``; tbsg solves 960,894 reachable states instead (both players
to move; a score or turn total of 1 is never reached with a die).

One reading had to be chosen, and is not a discrepancy: the paper's "optimal player"
against "hold at 20" is the *best response* to "hold at 20" (:func:`tbsg.games.pig_versus`
with ``None``; ``0.587367621237``, ``0.477618027609``, ``0.554874796814``), which the
paper computes with "the same technique" (value iteration) against the fixed policy.
The minimax-optimal policy of the game, which does not exploit the opponent, wins less
against "hold at 20": about ``0.5715``, ``0.4917`` and ``0.5399`` (the tests check
this). Two "hold at 20" players: the first wins ``0.5347``. No known discrepancy.

Cost: one float solve of Pig to 100 and two float best responses against "hold at 20",
the slowest rows of ``tbsg reproduce``; the Piglet rows are a small exact solve.

Examples
--------
>>> [r.published for r in piglet_checks()][:3]
['4/7', '5/7', '2/5']
"""

from __future__ import annotations

from fractions import Fraction

from tbsg.games.pig import Pig, Piglet, pig_hold_at, pig_hold_boundary, pig_versus
from tbsg.sources.check import Check, Citation, KnownDiscrepancy, decimal_match

__all__ = [
    "CITATION",
    "HOLD_AT_20",
    "KNOWN_DISCREPANCIES",
    "PIGLET_2",
    "checks",
    "pig_checks",
    "piglet_checks",
]

GAME = "pig"
CITATION = "Neller and Presser 2004, The UMAP Journal 25(1) 25-47"
_TOL = 1e-12

#: p. 30 ("Applying Value Iteration to Piglet"): the exact solution of system (1), Piglet
#: to 2, by the paper's ``P(i, j, k)``.
PIGLET_2: dict[tuple[int, int, int], str] = {
    (0, 0, 0): "4/7", (0, 0, 1): "5/7", (0, 1, 0): "2/5", (0, 1, 1): "3/5",
    (1, 0, 0): "4/5", (1, 1, 0): "2/3"}
#: p. 31: the optimal policy of Piglet to 2.
PIGLET_2_POLICY = "one should always keep flipping"
#: p. 31: the number of equations of Pig to 100.
EQUATIONS = "505,000"
#: p. 34: the first player's chance with optimal play, Pig to 100.
OPTIMAL = "0.5306"
#: p. 34: "an optimal player with a score of 0 will never hold with a turn total less than 21".
FIRST_HOLD = "never less than 21"
#: p. 34: the "optimal player" against "hold at 20": (quantity, as printed).
HOLD_AT_20: dict[str, tuple[str, str]] = {
    "first": ("optimal player (first) vs hold at 20: optimal wins (58.74%)", "0.5874"),
    "second": ("hold at 20 (first) vs optimal player: hold at 20 wins (47.76%)", "0.4776"),
    "coin": ("optimal player vs hold at 20, fair coin for the start: optimal wins (55.49%)",
             "0.5549"),
}

#: Every row reproduces.
KNOWN_DISCREPANCIES: tuple[KnownDiscrepancy, ...] = ()

_PAPER = Citation(GAME, CITATION)
_INTERVAL_NOTE = "both ends of the certified float interval round to the printed digits"
_BR_NOTE = ("the optimal player is the best response to 'hold at 20' (computed with that "
            "policy fixed); " + _INTERVAL_NOTE)


def _interval_check(where: str, quantity: str, printed: str, lo: float | Fraction,
                    hi: float | Fraction, note: str = _INTERVAL_NOTE) -> Check:
    """Row for a printed decimal against a certified interval: both ends must round to it."""
    low, high = Fraction(lo), Fraction(hi)
    ok = decimal_match(printed, low) and decimal_match(printed, high)
    return _PAPER.claim(where, quantity, printed, f"in [{float(lo):.12f}, {float(hi):.12f}] (certified)",
                        ok, (low, high), note)


def piglet_checks() -> list[Check]:
    """The rows about Piglet to 2 (pp. 30-31), exact; fast."""
    from tbsg.api.solving import solve

    g2 = Piglet(2)
    s2 = solve(g2)
    rows = [_PAPER.fraction("p. 30", f"Piglet to 2: P({i},{j},{k})", printed,
                            s2.value_to_move(g2.position(i, j, k)))
            for (i, j, k), printed in PIGLET_2.items()]
    choices = {s: s2.optimal_actions(s) for s in s2.states if s.turn_total > 0}
    always = all(a == ("roll",) for a in choices.values())
    shown = (f"flip (roll) is the only optimal action in all {len(choices)} states with a choice"
             if always else f"hold is optimal somewhere: {choices}")
    rows.append(_PAPER.claim("p. 31", "Piglet to 2: optimal policy", PIGLET_2_POLICY, shown, always))
    return rows


def pig_checks() -> list[Check]:
    """The rows about Pig to 100 (pp. 31 and 34), on the certified float path; slow."""
    from tbsg.api.solving import solve

    rows: list[Check] = []
    game = Pig(100, 6)
    sol = solve(game, exact=False, tol=_TOL)
    lo, hi = sol.bounds()
    rows.append(_interval_check("p. 34", "P(0,0,0), goal 100, both optimal (53.06%)", OPTIMAL,
                                lo, hi))

    triples = sum(game.goal - i for i in range(game.goal)) * game.goal
    rows.append(_PAPER.claim("p. 31", "number of equations (states (i, j, k))",
                             EQUATIONS, f"{triples:,}", f"{triples:,}" == EQUATIONS, triples,
                             note=f"triples 0 <= i, j < 100, k < 100 - i; tbsg solves {sol.n_states:,} "
                                  "reachable states (both players to move; no score or turn total 1)"))

    boundary = pig_hold_boundary(sol)
    first_hold = min(k for (i, _), k in boundary.items() if i == 0)
    rows.append(_PAPER.claim("p. 34", "score 0: smallest turn total at which an optimal player holds",
                             FIRST_HOLD, f"{first_hold} (smallest over all opponent scores)",
                             first_hold >= 21, first_hold))

    # The paper's "optimal player" is the best response to "hold at 20" (see the docstring).
    hold20 = pig_hold_at(20)
    a_lo, a_hi = pig_versus(game, None, hold20, tol=_TOL)
    b_lo, b_hi = pig_versus(game, hold20, None, tol=_TOL)
    mean_lo = (Fraction(a_lo) + 1 - Fraction(b_hi)) / 2
    mean_hi = (Fraction(a_hi) + 1 - Fraction(b_lo)) / 2
    intervals: list[tuple[str, float | Fraction, float | Fraction]] = [
        ("first", a_lo, a_hi), ("second", b_lo, b_hi), ("coin", mean_lo, mean_hi)]
    for key, lo_, hi_ in intervals:
        quantity, printed = HOLD_AT_20[key]
        rows.append(_interval_check("p. 34", quantity, printed, lo_, hi_, note=_BR_NOTE))
    return rows


def checks() -> list[Check]:
    """Every number the paper prints about Pig and Piglet, recomputed."""
    return piglet_checks() + pig_checks()
