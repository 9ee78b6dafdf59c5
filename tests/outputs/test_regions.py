"""Tables of a parametric solution (tbsg.outputs.regions): the value column is titled
"expected payoff" when the game pays rewards, "value" otherwise."""

from __future__ import annotations

import pytest

sympy = pytest.importorskip("sympy")
pytest.importorskip("flint")

import tbsg  # noqa: E402
from oracles import StopOrToss  # noqa: E402
from tbsg.outputs.regions import region_rows, region_table  # noqa: E402

P = sympy.Symbol("p")


def test_region_table_titles() -> None:
    """Hand derivation: tossing for ever is worth ``(3p - 2)/(1 - p)``, stopping 0, so the
    regions meet at ``p = 2/3`` and the second one's value is that formula."""
    sol = tbsg.solve_parametric(StopOrToss(P), P)
    table = region_table(sol)
    assert table.splitlines()[0] == "| from | to | to_exact | expected payoff | changes at to |"
    rows = region_rows(sol)
    assert rows[0]["to"] == "2/3" and rows[0]["changes at to"] == "'s': stop -> toss"
    assert sympy.simplify(sympy.sympify(rows[1]["value"]) - (3 * P - 2) / (1 - P)) == 0
    win = region_table(tbsg.solve_parametric(tbsg.games.biased_risk_or_safety(2, P), P))
    assert win.splitlines()[0] == "| from | to | to_exact | value | changes at to |"
