"""Cells of exports written a column at a time (tbsg.outputs.formats).

Oracle: :meth:`Fmt.cell`, the definition of one cell's text; a column written by
:meth:`Fmt.cells` (or, for exact values given as text, :meth:`Fmt.fraction_cells`) must
equal it cell by cell, for every target, on values chosen to trip shortcuts: ``True``
beside ``1``, ``-0.0`` beside ``0.0``, NaN, text with the targets' special characters, a
tuple of mixed labels and an integer beyond Python's 4300-digit int-to-str limit.
"""

from __future__ import annotations

import csv
import io
import threading
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tbsg.outputs import formats
from tbsg.outputs.formats import Fmt, Kind, markdown_columns, markdown_table, write_csv

TARGETS = ("csv", "markdown", "latex", "html", "text")
AWKWARD: list[object] = [1, True, 1, "a|b", "x, y", "50% & $", None, (1, "rush"), (True, "rush"),
                         (1, "rush"), 7 ** 6000, 2, 2, "a|b"]
FLOATS: list[object] = [0.5, -0.0, 0.0, float("nan"), float("inf"), None, 1e-300, -2.5e17, 0.1]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("abbreviate", [False, True])
def test_a_column_is_its_cells(target: str, abbreviate: bool) -> None:
    fmt = Fmt(target, abbreviate=abbreviate)  # type: ignore[arg-type]
    kinds: tuple[Kind | None, ...] = ("other", "actions", None)
    for kind in kinds:
        assert fmt.cells(AWKWARD, kind) == [fmt.cell(x, kind) for x in AWKWARD]
        distinct = AWKWARD[:4]  # no repeats: written without the memo
        assert fmt.cells(distinct, kind) == [fmt.cell(x, kind) for x in distinct]
    float_kinds: tuple[Kind, ...] = ("float", "lower", "upper")
    for kind in float_kinds:
        for xs in (FLOATS, [0.5, 0.25, 1 / 3], [0.5, None, 1 / 3]):
            assert fmt.cells(xs, kind) == [fmt.cell(x, kind) for x in xs]


@pytest.mark.parametrize("fractions", ["slash", "frac"])
@pytest.mark.parametrize("target", TARGETS)
def test_exact_cells_from_their_text(target: str, fractions: str) -> None:
    fmt = Fmt(target, fractions=fractions)  # type: ignore[arg-type]
    xs = [Fraction(2, 3), Fraction(-1, 3), Fraction(5), Fraction(-5), Fraction(0), None]
    texts = [None if x is None else str(x) for x in xs]
    assert fmt.fraction_cells(texts) == [fmt.cell(x, "exact") for x in xs]


def test_csv_written_by_columns_is_the_csv_module_s() -> None:
    columns = [["1", "", "a, b", 'say "hi"', "x\ny", "é", " pad "], ["", "", "", "", "", "", ""]]
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows([["h1", "h2"], *zip(*columns, strict=True)])
    assert write_csv(["h1", "h2"], [[(c, False) for c in columns]], None) == buf.getvalue()
    alone = io.StringIO()
    csv.writer(alone, lineterminator="\n").writerows([["h"], *([c] for c in columns[0])])
    # an empty field alone is quoted
    assert write_csv(["h"], [[(columns[0], False)]], None) == alone.getvalue()


def check_csv_like_the_module(cells: list[str]) -> None:
    """``cells`` in a row of two fields and alone: the text the ``csv`` module writes row by row."""
    two = io.StringIO()
    csv.writer(two, lineterminator="\n").writerows([["a", "b"], *([c, c] for c in cells)])
    assert write_csv(["a", "b"], [[(cells, False), (cells, False)]], None) == two.getvalue()
    alone = io.StringIO()
    csv.writer(alone, lineterminator="\n").writerows([["a"], *([c] for c in cells)])
    assert write_csv(["a"], [[(cells, False)]], None) == alone.getvalue()


@given(st.lists(st.text(alphabet=st.sampled_from('ab ,"\n\r\t;é'), max_size=6), min_size=1,
                max_size=8))
def test_csv_of_any_text_is_the_csv_module_s(cells: list[str]) -> None:
    """Any text (delimiters, quotes, line breaks, empty cells), in a row of two fields and
    alone: the text the ``csv`` module writes row by row."""
    check_csv_like_the_module(cells)


@given(st.lists(st.text(alphabet=st.sampled_from("(1, -x)/[e]"), max_size=8), min_size=1,
                max_size=8))
def test_csv_of_plain_text_with_commas_is_the_csv_module_s(cells: list[str]) -> None:
    """Cells whose only special character is a comma (the text of tuple states), in a row
    of two fields and alone: the text the ``csv`` module writes row by row."""
    check_csv_like_the_module(cells)


def test_csv_of_numbers_known_plain_is_the_csv_module_s() -> None:
    """Columns marked plain (exact ``p/q``, ``repr`` of floats) skip the quoting check:
    the ``csv`` module writes such cells as they are, also across chunks, and an empty
    cell alone in its row is still quoted."""
    numbers = [str(Fraction(-2**70, 3)), "7", "", repr(1e-300), repr(float("inf")), repr(-0.5)]
    words = ["a, b", "x", "", "1", "q", "é"]
    expected = io.StringIO()
    csv.writer(expected, lineterminator="\n").writerows([["n", "w"], *zip(numbers, words, strict=True)])
    chunks = [[(numbers[:4], True), (words[:4], False)], [(numbers[4:], True), (words[4:], False)]]
    assert write_csv(["n", "w"], chunks, None) == expected.getvalue()
    alone = io.StringIO()
    csv.writer(alone, lineterminator="\n").writerows([["n"], *([c] for c in numbers)])
    assert write_csv(["n"], [[(numbers, True)]], None) == alone.getvalue()


@pytest.mark.parametrize("rows", [0, 1, 3])
def test_markdown_from_columns_is_the_markdown_of_its_rows(rows: int) -> None:
    columns = [[str(i) for i in range(rows)], [f"x{i}|" for i in range(rows)], [""] * rows]
    align = ["r", "l", "r"]
    body = list(zip(*columns, strict=True))
    assert markdown_columns(["a", "b", "c"], columns, align) == markdown_table(["a", "b", "c"], body, align)


def _chunks(n: int) -> list[list[tuple[list[str], bool]]]:
    return [[([str(10 * k + j) for j in range(3)], True)] for k in range(n)]


def test_csv_is_written_in_the_callers_thread_where_no_thread_can_start(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """At interpreter shutdown (an ``atexit`` handler, a thread outliving the script) no
    thread can be started: the file is written all the same."""
    def refuse(self: threading.Thread) -> None:
        raise RuntimeError("can't create new thread at interpreter shutdown")

    monkeypatch.setattr(threading.Thread, "start", refuse)
    path = tmp_path / "t.csv"
    text = write_csv(["n"], _chunks(4), path)
    rows = [10 * k + j for k in range(4) for j in range(3)]
    assert path.read_text(encoding="utf-8") == text == "n\n" + "".join(f"{i}\n" for i in rows)


def test_csv_writing_stops_at_the_files_first_error(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that fails once is raised, and no later chunk reaches the file (a file
    missing rows in its middle would look whole)."""
    written: list[bytes] = []

    class Failing(io.BytesIO):
        def write(self, data: Any) -> int:
            if len(written) == 2:  # the header and the first chunk went through
                written.append(b"<failed>")
                raise OSError("disk went away")
            written.append(bytes(data))
            return len(data)

    monkeypatch.setattr(formats, "open", lambda *a, **k: Failing(), raising=False)
    with pytest.raises(OSError, match="disk went away"):
        write_csv(["n"], _chunks(50), tmp_path / "t.csv")
    assert written[-1] == b"<failed>" and len(written) == 3
    assert not [t for t in threading.enumerate() if t.name.startswith("tbsg-csv-writer")]
