"""Notebook views of solutions (tbsg.results.html): a reward game's value is shown as the
expected payoff to player 0, a win-probability game's as its value, as before."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import tbsg


class Sixes:
    """Player 1 rolls a die until a six, paying 1 per roll, or quits paying 4: rolling
    costs 6 on average (geometric, success 1/6), so she quits, value 4."""

    initial = "rolling"

    def player(self, s: str) -> int:
        return 1

    def actions(self, s: str) -> tuple[str, ...]:
        return ("roll", "quit")

    def reward(self, s: str, a: str) -> int:
        return 1 if a == "roll" else 4

    def outcomes(self, s: str, a: str) -> list[tuple[Fraction, Any]]:
        if a == "quit":
            return [(Fraction(1), tbsg.Terminal(0))]
        return [(Fraction(1, 6), tbsg.Terminal(0)), (Fraction(5, 6), "rolling")]


def test_views_name_what_the_value_is() -> None:
    reward = tbsg.solve(Sixes())
    assert "expected payoff to player 0: `4`" in reward._repr_markdown_()
    assert "<th style='text-align:left'>expected payoff to player 0</th><td><code>4</code>" \
        in reward._repr_html_()
    win = tbsg.solve(tbsg.games.risk_or_safety(2))
    assert "value to player 0: `4/7`" in win._repr_markdown_()  # seed 000 (Jehn 2026), 3.1
    assert "expected payoff" not in win._repr_markdown_() + win._repr_html_()
    floats = tbsg.solve(tbsg.games.risk_or_safety(2), exact=False)
    assert "value to player 0 in [" in floats._repr_markdown_()
