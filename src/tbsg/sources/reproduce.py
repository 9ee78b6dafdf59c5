"""Reproduce every published number of the catalog: the engine of ``tbsg reproduce``.

Each catalog game names its source module (:attr:`tbsg.games.registry.CatalogEntry.source_module`,
in :mod:`tbsg.sources`), which returns one :class:`~tbsg.sources.check.Check` per
quantity the source prints (the value as printed and the value tbsg computes, compared
exactly: fractions with ``==``, decimals to every printed digit, strings and tables
character for character) and declares the source's known discrepancies in advance, as
data (``KNOWN_DISCREPANCIES``). This module runs the sources, times them, judges every
row against the declarations, and formats the rows as a text table or as JSON.

A row is *expected* when

* no discrepancy is declared for its quantity and it matches; or
* a :class:`~tbsg.sources.check.KnownDiscrepancy` is declared for it, it does not match,
  and its computed value is ``==`` the declared one.

Everything else fails the run: an unexplained mismatch, a declared discrepancy whose row
now matches (the declaration is out of date) or computes another value (a regression
behind a known discrepancy), and a declaration that names no row (stale).

Examples
--------
>>> report = reproduce(["unspeakable_words"])
>>> [r.quantity for r in report.rows]
['aMove[a, b] for 0 <= a, b <= 6 (smallest optimal bet)', 'aValue[a, b] for 0 <= a, b <= 6 (3 decimals)']
>>> report.ok
True
"""

from __future__ import annotations

import json
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tbsg.errors import InvalidGameError
from tbsg.games.registry import CATALOG
from tbsg.sources.check import Check, KnownDiscrepancy, Value, value_text

__all__ = ["Report", "Row", "Source", "Stale", "format_json", "format_table", "judge", "reproduce"]


@dataclass(frozen=True)
class Source:
    """What ``tbsg reproduce`` reads from a source module.

    Attributes
    ----------
    module : str
        The module, e.g. ``tbsg.sources.super_six``.
    checks : callable
        Returns the rows (the module's ``checks``).
    known : tuple of KnownDiscrepancy
        The module's ``KNOWN_DISCREPANCIES``.
    """

    module: str
    checks: Callable[[], list[Check]]
    known: tuple[KnownDiscrepancy, ...]


@dataclass(frozen=True)
class Row:
    """A recomputed row and the discrepancy declared for its quantity, if any.

    Attributes
    ----------
    check : Check
        The row as the source module computed it.
    declared : KnownDiscrepancy or None
        The known discrepancy declared for ``check.quantity``.
    """

    check: Check
    declared: KnownDiscrepancy | None = None

    @property
    def game(self) -> str:
        return self.check.game

    @property
    def source(self) -> str:
        return self.check.source

    @property
    def quantity(self) -> str:
        return self.check.quantity

    @property
    def published(self) -> str:
        return self.check.published

    @property
    def computed(self) -> str:
        return self.check.computed

    @property
    def match(self) -> bool:
        return self.check.match

    @property
    def value(self) -> Value:
        return self.check.value

    @property
    def known(self) -> bool:
        """A discrepancy is declared for this row's quantity."""
        return self.declared is not None

    @property
    def reason(self) -> str:
        """The declared reason ("" when nothing is declared)."""
        return "" if self.declared is None else self.declared.reason

    @property
    def expected(self) -> bool:
        """A match with nothing declared, or a declared discrepancy computed as declared."""
        if self.declared is None:
            return self.match
        return self.declared.excuses(self.check)

    @property
    def problem(self) -> str:
        """Why the row fails ("" when it is expected)."""
        if self.expected:
            return ""
        if self.declared is None:
            return "mismatch with no known discrepancy declared"
        if self.match:
            return "declared as a known discrepancy, but it now matches (out-of-date declaration)"
        return (f"declared as a known discrepancy with value {_value_repr(self.declared.value)}, "
                f"but tbsg now computes {_value_repr(self.value)}")

    @property
    def note(self) -> str:
        """The declared reason (for a known discrepancy), then how the row was computed."""
        if self.reason and self.check.note:
            return f"{self.reason}. Computed: {self.check.note}"
        return self.reason or self.check.note


@dataclass(frozen=True)
class Stale:
    """A declared discrepancy that names no row of its source."""

    game: str
    module: str
    declared: KnownDiscrepancy


@dataclass(frozen=True)
class Report:
    """The rows of a reproduction run.

    Attributes
    ----------
    rows : tuple of Row
        One row per published quantity, in catalog order.
    seconds : dict
        Wall-clock seconds spent per game.
    stale : tuple of Stale
        Declared discrepancies that name no row (each fails the run).
    """

    rows: tuple[Row, ...]
    seconds: dict[str, float]
    stale: tuple[Stale, ...] = ()

    @property
    def ok(self) -> bool:
        """True when every row is as expected and no declaration is stale."""
        return all(r.expected for r in self.rows) and not self.stale

    @property
    def unexpected(self) -> tuple[Row, ...]:
        """Rows that fail: an unexplained mismatch, or a declaration they do not fit."""
        return tuple(r for r in self.rows if not r.expected)

    @property
    def known(self) -> tuple[Row, ...]:
        """Declared discrepancies of the sources, computed as declared."""
        return tuple(r for r in self.rows if r.known and r.expected)


def _value_repr(value: Value) -> str:
    text = value_text(value)
    return text if isinstance(text, str) else "(" + ", ".join(text) + ")"


def _load(name: str) -> Source:
    """The source module of catalog game ``name``."""
    entry = CATALOG[name]
    module = entry.load_source()
    return Source(entry.source_module, module.checks, tuple(module.KNOWN_DISCREPANCIES))


def judge(source: Source, checks: Sequence[Check]) -> tuple[list[Row], list[KnownDiscrepancy]]:
    """Pair each row with the discrepancy declared for its quantity; list declarations left over.

    Raises
    ------
    ValueError
        When two rows of the source, or two declarations, name the same quantity (the
        quantity is the key that ties a declaration to its row).
    """
    declared: dict[str, KnownDiscrepancy] = {}
    for d in source.known:
        if d.quantity in declared:
            raise ValueError(f"{source.module}: two known discrepancies for {d.quantity!r}")
        declared[d.quantity] = d
    seen: set[str] = set()
    rows: list[Row] = []
    for c in checks:
        if c.quantity in seen:
            raise ValueError(f"{source.module}: two rows for the quantity {c.quantity!r}")
        seen.add(c.quantity)
        rows.append(Row(c, declared.get(c.quantity)))
    return rows, [d for q, d in declared.items() if q not in seen]


def reproduce(only: Sequence[str] | None = None,
              progress: Callable[[str], None] | None = None) -> Report:
    """Recompute the published quantities of the catalog (or of the games in ``only``).

    Parameters
    ----------
    only : sequence of str, optional
        Catalog game names (keys of :data:`tbsg.games.registry.CATALOG`); all games when omitted.
        Games that share a source (Pig and Piglet) run it once.
    progress : callable, optional
        Called with each game's name before it runs.

    Raises
    ------
    InvalidGameError
        For a name that is not in the catalog (the message lists the valid ones).
    """
    names = list(CATALOG) if not only else list(dict.fromkeys(only))
    unknown = [n for n in names if n not in CATALOG]
    if unknown:
        raise InvalidGameError(f"unknown catalog game(s) {', '.join(map(repr, unknown))}; "
                               f"choose from {', '.join(CATALOG)}")
    rows: list[Row] = []
    stale: list[Stale] = []
    seconds: dict[str, float] = {}
    done: set[str] = set()
    for name in names:
        if CATALOG[name].source_module in done:  # e.g. piglet: its rows are pig's source's
            continue
        done.add(CATALOG[name].source_module)
        if progress is not None:
            progress(name)
        start = time.perf_counter()
        source = _load(name)
        judged, left = judge(source, source.checks())
        rows.extend(judged)
        stale.extend(Stale(name, source.module, d) for d in left)
        seconds[name] = time.perf_counter() - start
    return Report(tuple(rows), seconds, tuple(stale))


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _split_sources(rows: Sequence[Row]) -> tuple[str, list[str]]:
    """Common leading part of the rows' sources (at ", " boundaries) and the rest of each."""
    parts = [r.source.split(", ") for r in rows]
    common = 0
    while all(len(p) > common + 1 and p[common] == parts[0][common] for p in parts):
        common += 1
    return ", ".join(parts[0][:common]), [", ".join(p[common:]) for p in parts]


def format_table(report: Report, width: int = 32) -> str:
    """Plain-text table, one block per game: source, quantity, published, computed, match.

    Cells longer than ``width`` characters are shortened with an ellipsis (``--json``
    keeps them whole); the source column shows what differs between a game's rows, the
    block's heading the rest. Notes follow: for a known discrepancy its declared reason,
    for a failing row what is wrong, and for a stale declaration that it names no row.
    """
    head = ("source", "quantity", "published", "computed", "match")
    blocks: list[tuple[str, list[tuple[str, ...]]]] = []
    for game in dict.fromkeys(r.game for r in report.rows):
        rows = [r for r in report.rows if r.game == game]
        common, local = _split_sources(rows)
        body: list[tuple[str, ...]] = [
            (_shorten(src, 24), _shorten(r.quantity, 60), _shorten(r.published, width),
             _shorten(r.computed, width), _verdict(r))
            for src, r in zip(local, rows, strict=True)]
        blocks.append((f"{game}: {common}" if common else game, body))
    every = [head, *(row for _, body in blocks for row in body)]
    widths = [max(len(row[c]) for row in every) for c in range(len(head))]

    def line(row: tuple[str, ...]) -> str:
        return "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()

    def wrap(text: str) -> str:
        return textwrap.fill(text, 100, subsequent_indent="    ")

    lines = [line(head), "  ".join("-" * w for w in widths)]
    for title, body in blocks:
        lines += ["", f"[{title}]", *map(line, body)]
    notes = [wrap(f"note ({r.game}: {r.quantity}): {r.note}") for r in report.rows if r.note]
    notes += [wrap(f"UNEXPECTED ({r.game}: {r.quantity}): {r.problem}")
              for r in report.rows if not r.expected]
    notes += [wrap(f"UNEXPECTED ({s.game}: {s.declared.quantity}): a known discrepancy is "
                   f"declared in {s.module} but no row has this quantity (stale declaration)")
              for s in report.stale]
    total = sum(report.seconds.values())
    timing = ", ".join(f"{g} {s:.1f} s" for g, s in report.seconds.items())
    summary = (f"{sum(r.match for r in report.rows)}/{len(report.rows)} published quantities "
               f"reproduced; {len(report.known)} known discrepancies of the sources (see the "
               f"notes); {len(report.unexpected) + len(report.stale)} unexpected ({timing}; "
               f"total {total:.1f} s)")
    return "\n".join([*lines, "", *notes, *([""] if notes else []), summary])


def _verdict(r: Row) -> str:
    if r.expected:
        return "no (known, see note)" if r.known else "yes"
    if r.declared is None:
        return "NO"
    return "yes (UNEXPECTED: declared known)" if r.match else "NO (UNEXPECTED: value changed)"


def _row_json(r: Row) -> dict[str, Any]:
    return {"game": r.game, "source": r.source, "quantity": r.quantity, "published": r.published,
            "computed": r.computed, "value": value_text(r.value), "match": r.match,
            "known": r.known, "reason": r.reason, "expected": r.expected, "note": r.check.note,
            "problem": r.problem}


def format_json(report: Report) -> str:
    """The same rows as JSON: ``{"ok": ..., "seconds": {...}, "rows": [...], "stale": [...]}``.

    Each row has the fields of its :class:`~tbsg.sources.check.Check` (``value`` as exact
    text), ``known`` (a discrepancy is declared for it), ``reason`` (the declared reason),
    ``expected`` and ``problem`` (why it fails, when it does).
    """
    return json.dumps({"ok": report.ok, "seconds": report.seconds,
                       "rows": [_row_json(r) for r in report.rows],
                       "stale": [{"game": s.game, "module": s.module,
                                  "quantity": s.declared.quantity, "reason": s.declared.reason}
                                 for s in report.stale]},
                      indent=2, ensure_ascii=False)
