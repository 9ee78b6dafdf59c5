"""The rows of :mod:`tbsg.sources.pig_solitaire`: simulated averages of "hold at 20 or
goal" (Neller's Nifty page "Average Pig Turns", 10^6 games; Ruskeepää's Wolfram
Demonstration, Snapshot 2, 1000 games) against the exact mean and variance, and the best
threshold (Ruskeepää, Snapshot 3), every row reproduced and able to fail.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tbsg.sources import pig_solitaire as source
from tbsg.sources.reproduce import reproduce


def test_every_row_reproduces() -> None:
    # Nifty "Average Pig Turns": 12.634906; Ruskeepää 2012, Snapshot 2: 12.749, Snapshot 3: 20
    rows = source.checks()
    assert [r.published for r in rows] == ["12.634906", "12.749", "20"]
    assert all(r.match for r in rows), [r for r in rows if not r.match]
    assert rows[0].value == rows[1].value
    assert isinstance(rows[0].value, Fraction)
    assert f"{float(rows[0].value):.9f}" == "12.636769490"
    assert rows[2].value == "[20]"


def test_a_mean_outside_three_standard_errors_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    # 12.66 is more than 3 standard errors (0.0134) from 12.6368 for 10^6 games: rejected
    monkeypatch.setattr(source, "AVERAGE_TURNS", "12.66")
    assert not source.checks()[0].match
    monkeypatch.setattr(source, "BEST_THRESHOLD", "19")
    assert not source.checks()[2].match


def test_within_is_exact_at_the_edge() -> None:
    # |x - m| = 3 sqrt(v / n) exactly is accepted, a hair beyond is not
    m, v, n = Fraction(10), Fraction(4), 100   # 3 standard errors = 3 * 2 / 10
    assert source._within(m, v, m + Fraction(6, 10), n)
    assert not source._within(m, v, m + Fraction(6, 10) + Fraction(1, 10**9), n)


def test_tbsg_reproduce_runs_the_source() -> None:
    report = reproduce(["pig_solitaire"])
    assert report.ok
    assert len(report.rows) == 3
