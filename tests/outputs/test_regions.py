"""Tables of a parametric solution (tbsg.outputs.regions): the value column is titled
"expected payoff" when the game pays rewards, "value" otherwise."""

from __future__ import annotations

from typing import Any

import pytest

sympy = pytest.importorskip("sympy")
pytest.importorskip("flint")

import tbsg  # noqa: E402
from tbsg.outputs.regions import region_rows, region_table  # noqa: E402

P = sympy.Symbol("p")


class StopOrToss:
    """Player 0 stops (paying 0) or tosses: a toss earns 1, heads (probability ``p``) lets
    her choose again, tails ends play costing her 3."""

    initial = "s"

    def player(self, s: str) -> int:
        return 0

    def actions(self, s: str) -> tuple[str, ...]:
        return ("stop", "toss")

    def reward(self, s: str, a: str) -> int:
        return 1 if a == "toss" else 0

    def outcomes(self, s: str, a: str) -> list[tuple[Any, Any]]:
        if a == "stop":
            return [(1, tbsg.Terminal(0))]
        return [(P, "s"), (1 - P, tbsg.Terminal(-3))]


def test_region_table_titles() -> None:
    """Hand derivation: tossing for ever is worth ``(3p - 2)/(1 - p)``, stopping 0, so the
    regions meet at ``p = 2/3`` and the second one's value is that formula."""
    sol = tbsg.solve_parametric(StopOrToss(), P)
    table = region_table(sol)
    assert table.splitlines()[0] == "| from | to | to_exact | expected payoff | changes at to |"
    rows = region_rows(sol)
    assert rows[0]["to"] == "2/3" and rows[0]["changes at to"] == "'s': stop -> toss"
    assert sympy.simplify(sympy.sympify(rows[1]["value"]) - (3 * P - 2) / (1 - P)) == 0
    win = region_table(tbsg.solve_parametric(tbsg.games.biased_risk_or_safety(2, P), P))
    assert win.splitlines()[0] == "| from | to | to_exact | value | changes at to |"
