"""R. Jehn, "Optimal strategy in the game Risk or Safety" (arXiv 2603.01002, 2026; seed 000).

The paper solves the coin game of :mod:`tbsg.games.risk_or_safety` by hand for small
targets and prints: the first player's chance ``P(0,0,0)`` as exact fractions for
``n = 1`` to 6 (sections 2, 3.1 and 3.3); the worked example for ``n = 3`` (section 2:
the values "calculated in previous steps" and the solutions ``x_k``, ``y_k`` of its
equations (1) to (6)); the strategy comparisons of sections 3.1 and 3.2 (values of
named sub-optimal strategies); the optimal strategies it states for ``n = 3`` and 4 with
their values (sections 3.2 and 3.3); and Table 1 (section 5), the number of coins to
toss for ``n <= 20``.

Everything reproduces exactly: every fraction with ``==``, every strategy value through
:func:`tbsg.evaluate` of the strategy the paper names, Table 1 cell by cell
(:func:`tbsg.games.risk_or_safety_coin_table`). No known discrepancy.

Examples
--------
>>> rows = checks()
>>> len(rows), all(r.match for r in rows)
(51, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from tbsg.games.risk_or_safety import RiskOrSafety, RoSState, risk_or_safety_coin_table
from tbsg.sources.check import Check, Citation, KnownDiscrepancy

__all__ = [
    "CITATION",
    "KNOWN_DISCREPANCIES",
    "P000",
    "SECTION_2_N3",
    "SECTION_2_XY",
    "SECTION_3_1",
    "SECTION_3_2",
    "STATED_OPTIMA",
    "TABLE_1",
    "checks",
]

GAME = "risk_or_safety"
CITATION = "Jehn 2026, arXiv 2603.01002 (seed 000)"

Position = tuple[int, int, int]
"""The paper's position ``(a0, a1, b)``: open and saved points of the mover, the opponent's."""

#: ``P(0,0,0)`` by target ``n``: (where, as printed).
P000: dict[int, tuple[str, str]] = {
    1: ("section 2", "2/3"),
    2: ("section 3.1", "4/7"),
    3: ("section 2", "6/11"),
    4: ("section 3.3", "2236/4165"),
    5: ("section 3.3", "1026/1925"),
    6: ("section 3.3", "275848876/521145625"),
}

#: Section 2, ``n = 3``: ``P(a0, a1, b)`` "calculated in previous steps" and solved.
SECTION_2_N3: dict[Position, str] = {
    (0, 2, 0): "8/9", (0, 1, 0): "8/11", (0, 2, 1): "4/5", (0, 2, 2): "2/3",
    (0, 1, 1): "4/7", (0, 1, 2): "2/5", (0, 0, 1): "4/11", (0, 0, 2): "2/9",
}

#: Section 2, ``n = 3``: ``(x_k, y_k)``, the chance of the paper's player 1 with ``k``
#: points saved (the opponent none) when player 1, resp. player 2, is to move.
SECTION_2_XY: dict[int, tuple[str, str]] = {2: ("8/9", "7/9"), 1: ("8/11", "7/11"),
                                            0: ("6/11", "5/11")}

#: Section 3.1, ``n = 2``: (quantity, the positions where the strategy stops, the
#: position valued, as printed). The strategies: 1 continue at (1,0,0); 2 stop there and
#: continue at (1,0,1); 3 stop at both.
SECTION_3_1: tuple[tuple[str, frozenset[Position], Position, str], ...] = (
    ("P(0,0,0), n = 2, strategy 1 (continue at (1,0,0))", frozenset(), (0, 0, 0), "4/7"),
    ("P(0,0,0), n = 2, strategy 2 (stop at (1,0,0))", frozenset({(1, 0, 0)}), (0, 0, 0), "8/15"),
    ("P(0,0,1), n = 2, strategy 2", frozenset({(1, 0, 0)}), (0, 0, 1), "2/5"),
    ("P(0,0,1), n = 2, strategy 3 (also stop at (1,0,1))",
     frozenset({(1, 0, 0), (1, 0, 1)}), (0, 0, 1), "2/9"),
)

#: Section 3.2, ``n = 3``: the strategies of the left branch of the tree (continue at
#: (1,0,0)), by number, as the positions where they stop.
SECTION_3_2_STRATEGIES: dict[int, frozenset[Position]] = {
    1: frozenset(), 2: frozenset({(2, 0, 0)}), 3: frozenset({(2, 0, 0), (2, 0, 2)}),
    4: frozenset({(2, 0, 0), (1, 0, 2)})}

#: Section 3.2, ``n = 3``: (strategy, position, as printed).
SECTION_3_2: tuple[tuple[int, Position, str], ...] = (
    (2, (1, 0, 2), "1/3"), (3, (1, 0, 2), "1/5"), (2, (0, 0, 2), "2/9"), (4, (0, 0, 2), "2/15"),
    (1, (1, 0, 0), "3/5"), (2, (1, 0, 0), "13/21"))

#: Sections 3.2 and 3.3: the optimal strategies stated in words, as (where, quantity,
#: target, the positions where it stops, ``P(0,0,0)`` as printed).
STATED_OPTIMA: tuple[tuple[str, str, int, frozenset[Position], str], ...] = (
    ("section 3.2", "P(0,0,0), n = 3, 'stop only at (1,0,0)'", 3, frozenset({(1, 0, 0)}), "6/11"),
    ("section 3.3", "P(0,0,0), n = 4, 'stop at (1,2,0), (2,0,0), (2,0,2)'", 4,
     frozenset({(1, 2, 0), (2, 0, 0), (2, 0, 2)}), "2236/4165"),
)

#: Table 1 (section 5) as printed: row = points the player to move needs (2..20), the
#: columns = points the opponent needs (2..20), cell = coins to toss.
TABLE_1: dict[int, str] = {
    2: "2 2 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
    3: "3 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
    4: "2 2 2 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
    5: "2 2 2 2 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
    6: "2 2 2 2 2 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
    7: "3 2 2 2 2 2 1 1 1 1 1 1 1 1 1 1 1 1 1",
    8: "3 2 2 2 2 2 2 1 1 1 1 1 1 1 1 1 1 1 1",
    9: "3 3 2 2 2 2 2 2 1 1 1 1 1 1 1 1 1 1 1",
    10: "3 2 2 2 2 2 2 2 2 1 1 1 1 1 1 1 1 1 1",
    11: "3 3 2 2 2 2 2 2 2 2 1 1 1 1 1 1 1 1 1",
    12: "3 3 2 2 2 2 2 2 2 2 2 1 1 1 1 1 1 1 1",
    13: "4 3 3 2 2 2 2 2 2 2 2 2 1 1 1 1 1 1 1",
    14: "4 3 2 2 2 2 2 2 2 2 2 2 2 1 1 1 1 1 1",
    15: "4 3 3 2 2 2 2 2 2 2 2 2 2 2 1 1 1 1 1",
    16: "4 3 3 2 2 2 2 2 2 2 2 2 2 2 2 1 1 1 1",
    17: "4 3 3 3 2 2 2 2 2 2 2 2 2 2 2 2 1 1 1",
    18: "4 3 3 3 2 2 2 2 2 2 2 2 2 2 2 2 2 1 1",
    19: "4 3 3 3 2 2 2 2 2 2 2 2 2 2 2 2 2 2 1",
    20: "4 3 3 3 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2",
}

#: Every row reproduces.
KNOWN_DISCREPANCIES: tuple[KnownDiscrepancy, ...] = ()

_PAPER = Citation(GAME, CITATION)


def _stop_at(stops: frozenset[Position]) -> Callable[[RoSState], Literal["toss", "stop"]]:
    """The symmetric profile that stops exactly at the paper's positions ``stops``."""
    def strategy(s: RoSState) -> Literal["toss", "stop"]:
        return "stop" if (s.open, s.saved, s.other) in stops else "toss"
    return strategy


def checks() -> list[Check]:
    """Every number and table of the paper, recomputed (rows for ``tbsg reproduce``).

    ``P(0,0,0)`` for targets 1 to 6 by :func:`tbsg.solve`, the worked example's values for
    ``n = 3``, the values of the strategies named in sections 3.1 to 3.3 by
    :func:`tbsg.evaluate`, and Table 1 row by row by
    :func:`~tbsg.games.risk_or_safety_coin_table`.
    """
    from tbsg.api.solving import evaluate, solve

    frac = _PAPER.fraction
    sols = {n: solve(RiskOrSafety(n)) for n in range(1, 7)}
    rows = [frac(where, f"P(0,0,0), n = {n}", printed, sols[n].value())
            for n, (where, printed) in P000.items()]

    g3, s3 = RiskOrSafety(3), sols[3]
    rows += [frac("section 2", f"P{pos}, n = 3", printed, s3.value_to_move(g3.position(*pos)))
             for pos, printed in SECTION_2_N3.items()]
    for k, (x, y) in SECTION_2_XY.items():
        rows.append(frac("section 2", f"x{k}, n = 3", x, s3.value(RoSState(0, 0, k, 0))))
        rows.append(frac("section 2", f"y{k}, n = 3", y, s3.value(RoSState(1, 0, 0, k))))

    g2 = RiskOrSafety(2)
    rows += [frac("section 3.1", quantity, printed,
                  evaluate(g2, _stop_at(stops), reach="game").value_to_move(g2.position(*pos)))
             for quantity, stops, pos, printed in SECTION_3_1]

    # the paper reads positions its strategies need not reach from the start: reach="game"
    n3 = {k: evaluate(g3, _stop_at(stops), reach="game") for k, stops in SECTION_3_2_STRATEGIES.items()}
    rows += [frac("section 3.2", f"P{pos}, n = 3, strategy {k}", printed,
                  n3[k].value_to_move(g3.position(*pos)))
             for k, pos, printed in SECTION_3_2]
    rows += [frac(where, quantity, printed, evaluate(RiskOrSafety(n), _stop_at(stops)).value())
             for where, quantity, n, stops, printed in STATED_OPTIMA]

    table = risk_or_safety_coin_table(20)
    rows += [_PAPER.text("Table 1", f"coins to toss, I need {need}, opponent needs 2..20", printed_row,
                         " ".join(str(table[need, opp]) for opp in range(2, 21)))
             for need, printed_row in TABLE_1.items()]
    return rows
