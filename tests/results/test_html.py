"""Notebook views of solutions (tbsg.results.html): a reward game's value is shown as the
expected payoff to player 0, a win-probability game's as its value, as before."""

from __future__ import annotations

import tbsg
from oracles import Sixes


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
