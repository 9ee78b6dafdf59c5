"""The rows of :mod:`tbsg.sources.pig_turn`: Neller's Nifty page "Hold-at-20 Outcomes
(Computation)" (the distribution of a hold-at-20 turn, 6 decimals) and Knizia's rule as
Neller and Presser (2004, pp. 25-26) quote it, every row reproduced and able to fail.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tbsg.sources import pig_turn as source
from tbsg.sources.reproduce import reproduce


def test_every_row_reproduces() -> None:
    # Nifty "Hold-at-20 Outcomes (Computation)" and Neller and Presser 2004, pp. 25-26
    rows = source.checks()
    assert len(rows) == len(source.OUTCOMES) + 3
    assert all(r.match for r in rows), [r for r in rows if not r.match]
    first = rows[0]
    assert (first.published, first.value) == ("0.624541", Fraction(9440899, 15116544))
    assert source.KNOWN_DISCREPANCIES == ()


def test_a_wrong_printed_digit_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    # the last digit of P(25) changed: the row must not match
    monkeypatch.setitem(source.OUTCOMES, 25, "0.017174")
    row = next(r for r in source.checks() if r.quantity.endswith("scores 25)"))
    assert not row.match


def test_tbsg_reproduce_runs_the_source() -> None:
    report = reproduce(["pig_turn"])
    assert report.ok
    assert {r.game for r in report.rows} == {"pig_turn"}
    assert any("Knizia" in r.source for r in report.rows)
