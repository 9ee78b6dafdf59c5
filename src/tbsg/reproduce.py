"""Reproduce every published number of the catalog: the engine of ``tbsg reproduce``.

Each catalog module (:mod:`tbsg.games`) has a ``published()`` function returning one
:class:`~tbsg.published.Check` per quantity its source prints: the value as printed and
the value tbsg computes, compared exactly (fractions with ``==``; decimals to every printed
digit; tables cell by cell). This module runs them, times them, and formats the rows as a
text table or as JSON.

Examples
--------
>>> report = reproduce(["unspeakable_words"])
>>> [r.quantity for r in report.rows]
['aMove[a, b] for 0 <= a, b <= 6 (smallest optimal bet)', 'aValue[a, b] for 0 <= a, b <= 6 (3 decimals)']
>>> report.ok
True
"""

from __future__ import annotations

import dataclasses
import json
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tbsg.catalog import CATALOG
from tbsg.errors import InvalidGameError
from tbsg.published import Check

__all__ = ["Report", "format_json", "format_table", "reproduce"]

@dataclass(frozen=True)
class Report:
    """The rows of a reproduction run.

    Attributes
    ----------
    rows : tuple of Check
        One row per published quantity, in catalog order.
    seconds : dict
        Wall-clock seconds spent per game.
    """

    rows: tuple[Check, ...]
    seconds: dict[str, float]

    @property
    def ok(self) -> bool:
        """True when every row is as expected: it matches, or is a documented discrepancy."""
        return all(r.expected for r in self.rows)

    @property
    def unexpected(self) -> tuple[Check, ...]:
        """Rows that fail: a mismatch nobody explained, or a 'known' one that now matches."""
        return tuple(r for r in self.rows if not r.expected)

    @property
    def known(self) -> tuple[Check, ...]:
        """Documented discrepancies of the sources (misprints, values not reproduced)."""
        return tuple(r for r in self.rows if r.known and not r.match)


def _published(game: str) -> Callable[[], list[Check]]:
    fn: Callable[[], list[Check]] = CATALOG[game].load_module().published
    return fn


def reproduce(only: Sequence[str] | None = None,
              progress: Callable[[str], None] | None = None) -> Report:
    """Recompute the published quantities of the catalog (or of the games in ``only``).

    Parameters
    ----------
    only : sequence of str, optional
        Catalog game names (keys of :data:`tbsg.catalog.CATALOG`); all games when omitted.
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
    rows: list[Check] = []
    seconds: dict[str, float] = {}
    done: set[str] = set()
    for name in names:
        module = CATALOG[name].module
        if module in done:  # e.g. piglet: its published numbers are in the pig module
            continue
        done.add(module)
        if progress is not None:
            progress(name)
        start = time.perf_counter()
        rows.extend(_published(name)())
        seconds[name] = time.perf_counter() - start
    return Report(tuple(rows), seconds)


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _split_sources(rows: Sequence[Check]) -> tuple[str, list[str]]:
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
    block's heading the rest.
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

    lines = [line(head), "  ".join("-" * w for w in widths)]
    for title, body in blocks:
        lines += ["", f"[{title}]", *map(line, body)]
    notes = [textwrap.fill(f"note ({r.game}: {r.quantity}): {r.note}", 100, subsequent_indent="    ")
             for r in report.rows if r.note]
    total = sum(report.seconds.values())
    timing = ", ".join(f"{g} {s:.1f} s" for g, s in report.seconds.items())
    summary = (f"{sum(r.match for r in report.rows)}/{len(report.rows)} published quantities "
               f"reproduced; {len(report.known)} known discrepancies of the sources (see the "
               f"notes); {len(report.unexpected)} unexpected ({timing}; total {total:.1f} s)")
    return "\n".join([*lines, "", *notes, *([""] if notes else []), summary])


def _verdict(r: Check) -> str:
    if r.match:
        return "yes" if not r.known else "yes (UNEXPECTED: marked known)"
    return "no (known, see note)" if r.known else "NO"


def format_json(report: Report) -> str:
    """The same rows as JSON: ``{"ok": ..., "seconds": {...}, "rows": [{...}, ...]}``."""
    return json.dumps({"ok": report.ok, "seconds": report.seconds,
                       "rows": [dataclasses.asdict(r) for r in report.rows]}, indent=2,
                      ensure_ascii=False)
