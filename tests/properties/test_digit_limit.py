"""Tables and pivots of values above Python's 4300-digit int-to-str limit (issue 11, item 7).

Python refuses ``str(n)`` for integers of more than 4300 digits by default; exact values
of long games pass that easily (Pig to 100: about 20,000 digits). Every export must write
such values in full, ``repr`` and the notebook views must shorten them without building
the text. Oracle: a two-state game whose values are exact expressions in
``T = 1/3**9100`` (4342 digits), computed by hand below.
"""

from __future__ import annotations

import csv
import io
import sys
from collections.abc import Iterator
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any, NamedTuple, cast

import pytest

import tbsg
from tbsg._util.digits import fraction_from_text, fraction_text
from tbsg.outputs.formats import abbreviate
from tbsg.outputs.pivot import Pivot
from tbsg.outputs.tables import StateTable, state_table

T = Fraction(1, 3**9100)
"""A probability and a payoff of 4342 digits."""


class Tiny:
    """Player 0 stops (payoff ``T``) or tosses: a win with probability ``T``, else player
    1 moves and pays ``2T`` ("low") or ``1/2 + T`` ("half") to player 0.

    Values (to player 0): state 1: ``2T`` (low); state 0: tossing gives
    ``T + (1 - T) 2T = 3T - 2T^2`` (8684 digits), more than ``T``, so the margin there is
    ``2T - 2T^2``; at state 1 the margin (to player 1) is ``1/2 - T``.
    """

    initial = 0

    def player(self, s: int) -> int:
        return s

    def actions(self, s: int) -> tuple[str, ...]:
        return ("stop", "toss") if s == 0 else ("low", "half")

    def outcomes(self, s: int, a: str) -> list[tuple[Fraction, Any]]:
        if s == 0:
            if a == "stop":
                return [(Fraction(1), tbsg.Terminal(T))]
            return [(T, tbsg.win(0)), (1 - T, 1)]
        return [(Fraction(1), tbsg.Terminal(2 * T if a == "low" else Fraction(1, 2) + T))]


V0 = 3 * T - 2 * T**2
V1 = 2 * T


def decimal(expr: str) -> str:
    """6 significant digits of ``expr`` in ``t = 1/3**9100``, by the decimal module."""
    with localcontext() as ctx:
        ctx.prec = 40
        t = 1 / Decimal(3) ** 9100
        return format(eval(expr, {"t": t, "Decimal": Decimal}), ".6g")


@pytest.fixture(autouse=True)
def _default_digit_limit() -> Iterator[None]:
    """Run every test under Python's default limit (whatever the environment says)."""
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(4300)
    yield
    sys.set_int_max_str_digits(old)


@pytest.fixture(scope="module")
def table() -> StateTable[int, str]:
    return state_table(tbsg.solve(Tiny()))


EXACT = ["state", "player", "value", "value_to_move", "optimal", "margin"]
"""The default columns with the exact margin asked for (the default is its decimal)."""


def exact_cells(t: StateTable[int, str], margin: bool = True) -> list[Fraction]:
    cells = [x for r in t for x in (r.value, r.value_to_move, r.margin if margin else None) if x is not None]
    assert all(type(x) is Fraction for x in cells)  # an exact solution's table
    return cast("list[Fraction]", cells)


def test_the_values_are_beyond_the_limit(table: StateTable[int, str]) -> None:
    r0, r1 = table.rows
    assert (r0.value, r0.optimal, r0.margin) == (V0, ("toss",), 2 * T - 2 * T**2)
    assert (r1.value, r1.value_to_move, r1.optimal, r1.margin) == (V1, 1 - V1, ("low",),
                                                                    Fraction(1, 2) - T)
    with pytest.raises(ValueError, match="4300"):
        str(r0.value)  # the premise: Python's default refuses them


def test_repr_of_row_and_table(table: StateTable[int, str]) -> None:
    r0, r1 = table.rows
    text = repr(r0)
    assert text == (f"Row(state=0, player=0, value={abbreviate(V0)}, optimal=('toss',), "
                    f"margin={abbreviate(2 * T - 2 * T**2)})")
    assert f"value=≈{decimal('3 * t')} (exact: 8684-digit denominator)" in text
    assert len(text) < 200
    assert "≈0.5 (exact: 4343-digit denominator)" in repr(r1)  # margin 1/2 - T
    assert repr(table) == ("<StateTable: 2 rows, exact, columns state, player, value, "
                           "value_to_move, optimal, margin_decimal>")


def test_csv_writes_every_digit(table: StateTable[int, str]) -> None:
    text = table.to_csv(columns=EXACT)
    records = list(csv.DictReader(io.StringIO(text)))
    for rec, row in zip(records, table, strict=True):
        for col in ("value", "value_to_move", "margin"):
            assert fraction_from_text(rec[col]) == row[col]
    default = list(csv.DictReader(io.StringIO(table.to_csv())))
    # the margin's nearest float: 2T - 2T^2 is below the smallest float
    decimals = [rec["margin_decimal"] for rec in default]
    assert decimals == ["0.0", "0.5"] == [rec["margin_decimal"] for rec in records]
    sys.set_int_max_str_digits(0)  # the documented way to read them back with Fraction
    assert [Fraction(rec["value"]) for rec in records] == [V0, V1]
    assert [float(rec["value_decimal"]) for rec in records] == [float(V0), float(V1)]


def test_markdown_latex_and_html_write_every_digit(table: StateTable[int, str]) -> None:
    md, tex = table.to_markdown(columns=EXACT), table.to_latex(columns=EXACT)
    html = table.to_html(columns=EXACT)
    frac = table.to_latex(fractions="frac", columns=["state", "margin"], decimals=False)
    default = table.to_markdown().splitlines()  # the margin's decimal alone: 2T - 2T^2 underflows
    assert default[0].endswith("| optimal | margin_decimal |")
    assert [line.rsplit(" | ", 1)[1] for line in default[2:]] == ["0 |", "0.5 |"]
    for x in exact_cells(table):
        full = fraction_text(x)
        assert f"| {full} |" in md
        assert f"${full}$" in tex
        assert f"<td>{full}</td>" in html
    p, q = fraction_text(Fraction(1, 2) - T).split("/")
    assert f"$\\frac{{{p}}}{{{q}}}$" in frac
    assert len(md.splitlines()) == 4


def test_notebook_views_shorten_like_repr(table: StateTable[int, str]) -> None:
    md, html = table._repr_markdown_(), table._repr_html_()
    for x in exact_cells(table, margin=False):  # the views show the default columns
        assert fraction_text(x) not in md and fraction_text(x) not in html
        assert f"| {abbreviate(x)} |" in md and f"<td>{abbreviate(x)}</td>" in html
    assert max(len(cell) for line in md.splitlines() for cell in line.split("|")) < 60
    assert len(html) < 2000


def test_records_and_pandas_keep_fractions(table: StateTable[int, str]) -> None:
    assert [r["value"] for r in table.records()] == [V0, V1]
    assert [r["margin"] for r in table.records(["margin"])] == [2 * T - 2 * T**2, Fraction(1, 2) - T]
    pytest.importorskip("pandas")
    df = table.to_pandas(columns=EXACT)
    assert df.loc[0, "value"] == V0 and df.loc[1, "margin"] == Fraction(1, 2) - T


def test_pivot_of_such_values(table: StateTable[int, str]) -> None:
    p = table.pivot("state", "player", "value")
    assert p[0, 0] == V0 and p[1, 1] == V1 and p[0, 1] is None
    rows = list(csv.reader(io.StringIO(p.to_csv())))
    assert rows[0] == ["state \\ player", "0", "1"]
    assert fraction_from_text(rows[1][1]) == V0 and rows[1][2] == ""
    assert fraction_from_text(rows[2][2]) == V1
    assert f"| 1 |  | {fraction_text(V1)} |" in p.to_markdown()
    assert f"1 &  & ${fraction_text(V1)}$ \\\\" in p.to_latex()
    assert f"<td>{fraction_text(V0)}</td>" in p.to_html()
    # decimals of values below the smallest float: the exact exponent, not 0
    d0, d1 = decimal("3 * t - 2 * t * t"), decimal("2 * t")
    assert (d0, d1) == ("4.71741e-4342", "3.14494e-4342")
    assert p.to_markdown(exact=False).splitlines()[2:] == [f"| 0 | {d0} |  |", f"| 1 |  | {d1} |"]
    assert "$3.14494\\times 10^{-4342}$" in p.to_latex(exact=False)
    for view in (p._repr_markdown_(), p._repr_html_()):
        assert fraction_text(V0) not in view and abbreviate(V0) in view and abbreviate(V1) in view
    assert repr(p) == "<Pivot 'value': 2 rows (state) x 2 columns (player)>"


def test_huge_integers_as_labels_and_state_fields() -> None:
    big = 3**9100

    class S(NamedTuple):
        n: int

    class G:
        initial = S(big)

        def player(self, s: S) -> int:
            return 0

        def actions(self, s: S) -> tuple[int, ...]:
            return (big,)

        def outcomes(self, s: S, a: int) -> list[tuple[Fraction, Any]]:
            return [(Fraction(1), tbsg.win(0))]

    t = state_table(tbsg.solve(G()))
    full = fraction_text(Fraction(big))
    assert t.to_csv().endswith(f"\n{full},0,1,1.0,1,1.0,{full},\n")  # state, ..., optimal
    assert f"| {full} |" in t.to_markdown() and full in t.to_latex() and full in t.to_html()
    assert full not in t._repr_markdown_() and "4342-digit integer" in t._repr_markdown_()
    assert repr(t.rows[0]).startswith(f"Row(n=≈{decimal('1 / t')} (exact: 4342-digit integer), "
                                      f"player=0, value=1, optimal=({full},)")  # repr of a tuple
    with pytest.raises(KeyError, match="is not an action"):
        t.rows[0].gain(1, big)
    p = Pivot.from_dict({(big, 1): Fraction(1, 3), (1, big): 2}, row_name="r", col_name="c")
    assert p.to_csv().splitlines()[0] == f"r \\ c,1,{full}"
    assert f"| ≈{decimal('1 / t')} (exact: 4342-digit integer) | 1/3 |  |" in p._repr_markdown_()
    with pytest.raises(KeyError, match="not a"):
        p[big, 2]
