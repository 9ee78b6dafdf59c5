"""``tbsg.sources.check``: the rows of ``tbsg reproduce`` and the builders the sources use."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tbsg.sources.check import Check, Citation, KnownDiscrepancy, decimal_match

PAPER = Citation("super_six", "seed 002")


def test_a_citation_adds_where_to_every_row() -> None:
    assert PAPER.at("Figure 1") == "seed 002, Figure 1" and PAPER.at("") == "seed 002"
    rows = [PAPER.fraction("section 3", "P(0/2/1)", "31/36", Fraction(31, 36)),
            PAPER.decimal("Figure 1", "P(1/1/2)", "0.853", Fraction(35, 41)),
            PAPER.text("section 6", "S_7", "(1111/1111/111/00/0)", "(1111/1111/111/00/0)"),
            PAPER.claim("section 4", "P(3/1/1) > 0.5", "> 0.5", "0.6 > 0.5", False, Fraction(3, 5))]
    assert [r.game for r in rows] == ["super_six"] * 4
    assert [r.source for r in rows] == ["seed 002, section 3", "seed 002, Figure 1", "seed 002, section 6",
                                        "seed 002, section 4"]
    # 35/41 = 0.85366 rounds to 0.854, not the printed 0.853: the one row that does not match
    assert [r.match for r in rows] == [True, False, True, False]
    assert rows[0].value == Fraction(31, 36) and rows[1].value == Fraction(35, 41)
    assert rows[3].value == Fraction(3, 5)


def test_a_claim_without_a_value_is_its_computed_text() -> None:
    row = PAPER.claim("section 5", "6 sticks: decision situations", "9", "9", True, note="counted")
    assert row == Check("super_six", "seed 002, section 5", "6 sticks: decision situations", "9", "9",
                        True, "9", "counted")


def test_a_known_discrepancy_excuses_only_its_own_value() -> None:
    row = PAPER.decimal("Figure 1", "P(1/1/2)", "0.853", Fraction(35, 41))
    assert KnownDiscrepancy("P(1/1/2)", Fraction(35, 41), "truncated").excuses(row)
    assert not KnownDiscrepancy("P(1/1/2)", Fraction(35, 42), "truncated").excuses(row)
    assert not KnownDiscrepancy("P(1/2/1)", Fraction(35, 41), "truncated").excuses(row)


def test_rows_refuse_inexact_values() -> None:
    with pytest.raises(TypeError, match="must be exact"):
        PAPER.claim("section 3", "P", "0.5", "0.5", True, 0.5)  # type: ignore[arg-type]


@pytest.mark.parametrize(("printed", "exact", "match"), [
    ("0.616", Fraction(101, 164), True), ("0.853", Fraction(35, 41), False),
    ("0.5", Fraction(1, 4) + Fraction(1, 4), True), ("0.12", Fraction(1, 8), True),  # a tie: both
    ("0.13", Fraction(1, 8), True), ("0.14", Fraction(1, 8), False),
])
def test_decimal_match_to_every_printed_digit(printed: str, exact: Fraction, match: bool) -> None:
    assert decimal_match(printed, exact) is match
