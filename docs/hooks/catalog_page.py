"""mkdocs hook: the page ``catalog.md``, generated from ``tbsg.games.registry`` and ``tbsg.sources``.

For every source of the catalog: its games (name, constructor and parameters, read from
the constructors' signatures), the source module's docstring (what the source prints,
what reproduces and why not), the figures the notebooks drew (``docs/figures/``), and
every published quantity with the value tbsg computes *during this build*
(:func:`tbsg.sources.reproduce.reproduce`, the engine of ``tbsg reproduce``), judged against the
source's declared known discrepancies. No number on the page is typed by hand.

``TBSG_DOCS_REPRODUCE``: which games' sources to recompute: ``all`` (default), ``none``,
or catalog names separated by commas; the others say they were not recomputed.
"""

from __future__ import annotations

import inspect
import os
import time
from pathlib import Path
from typing import Any

DOCS = Path(__file__).resolve().parents[1]
_WIDTH = 90


def selected() -> set[str]:
    """The catalog games whose sources this build recomputes."""
    from tbsg.games.registry import CATALOG

    value = os.environ.get("TBSG_DOCS_REPRODUCE", "all").strip()
    if value == "all":
        return set(CATALOG)
    if value in ("", "none"):
        return set()
    names = {n.strip() for n in value.split(",") if n.strip()}
    unknown = names - set(CATALOG)
    if unknown:
        raise ValueError(f"TBSG_DOCS_REPRODUCE names no catalog game {sorted(unknown)}; "
                         f"choose from {', '.join(CATALOG)}")
    return names


def _escape(text: str) -> str:
    """Plain text for Markdown: one line, with the characters Markdown would read escaped."""
    text = " ".join(str(text).split()).replace("|", "\\|")
    return text.replace("*", "\\*").replace("_", "\\_").replace("<", "&lt;").replace("`", "'")


def _cell(text: str, code: bool = True) -> str:
    """A Markdown table cell: shortened, as code unless ``code`` is False."""
    text = " ".join(str(text).split())
    if len(text) > _WIDTH:
        text = text[: _WIDTH - 1] + "…"
    if code and "`" not in text:
        return "`" + text.replace("|", "\\|") + "`"
    return _escape(text)


def _verdict(row: Any) -> str:
    if row.expected:
        return "known discrepancy" if row.known else "yes"
    return "**NO: " + _cell(row.problem, code=False) + "**"


def page() -> str:
    """The Markdown of the catalog page."""
    from tbsg.games.registry import CATALOG
    from tbsg.sources.reproduce import reproduce

    by_source: dict[str, list[Any]] = {}
    for entry in CATALOG.values():
        by_source.setdefault(entry.source_module, []).append(entry)
    chosen = selected()
    out = ["# The catalog", "",
           "Every game of `tbsg.games`, with its source and every number the source prints,",
           "recomputed while this page was built (`tbsg reproduce` does the same from the command",
           "line). A printed value that tbsg does not reproduce is accepted only as a *known",
           "discrepancy* that its source module declares in advance, with the exact value tbsg must",
           "compute instead and the reason.", ""]
    summary = ["| source | games | quantities reproduced | known discrepancies | seconds |",
               "| --- | --- | ---: | ---: | ---: |"]
    sections: list[str] = []
    for module, entries in by_source.items():
        names = [e.name for e in entries]
        anchor = names[0].replace("_", "-")
        games = ", ".join(f"`{n}`" for n in names)
        run = [n for n in names if n in chosen]
        section = [f"## {entries[0].source} {{#{anchor}}}", ""]
        for e in entries:
            fn = e.make_function()
            try:
                signature = inspect.signature(fn, eval_str=True)
            except NameError:
                signature = inspect.signature(fn)
            section.append(f"* `tbsg.games.{e.constructor}{signature}` "
                           f"(catalog name `{e.name}`, class `{e.module}.{e.cls}`; "
                           f"`tbsg solve {e.name}` on the command line)")
        notebook = DOCS.parent / "examples" / f"{names[0]}.py"
        if notebook.exists():
            section.append(f"* notebook: [`examples/{names[0]}.py`](tutorials/{names[0]}.ipynb)")
        section += ["", f"::: {module}", "    options:", "      show_root_heading: false",
                    "      show_root_toc_entry: false", "      members: false", ""]
        figures = sorted((DOCS / "figures").glob(f"{names[0]}_*.png"))
        if figures:
            section += [" ".join(f"![{f.stem}](figures/{f.name}){{ width=\"48%\" loading=lazy }}"
                                 for f in figures), ""]
        if not run:
            section += [f"*Not recomputed in this build* (`TBSG_DOCS_REPRODUCE`); run "
                        f"`tbsg reproduce --only {names[0]}`.", ""]
            summary.append(f"| [{_cell(entries[0].source, False)}](#{anchor}) | {games} | "
                           "not run | | |")
            sections += section
            continue
        start = time.perf_counter()
        report = reproduce([names[0]])
        seconds = time.perf_counter() - start
        rows = report.rows
        section += ["| where | quantity | published | computed (tbsg) | match |",
                    "| --- | --- | --- | --- | --- |"]
        for r in rows:
            where = r.source.split(", ")[-1]
            section.append(f"| {_cell(where, False)} | {_cell(r.quantity, False)} | "
                           f"{_cell(r.published)} | {_cell(r.computed)} | {_verdict(r)} |")
        notes = [(r.quantity, r.note) for r in rows if r.note]
        if notes:
            section += ["", "Notes:", ""]
            section += [f"* *{_escape(q)}*: {_escape(n)}" for q, n in notes]
        section.append("")
        sections += section
        summary.append(f"| [{_cell(entries[0].source, False)}](#{anchor}) | {games} | "
                       f"{sum(r.match for r in rows)} of {len(rows)} | {len(report.known)} | "
                       f"{seconds:.1f} |")
        if not report.ok:
            raise RuntimeError(f"tbsg reproduce --only {names[0]} fails: "
                               + "; ".join(r.problem for r in report.unexpected))
    return "\n".join(out + summary + [""] + sections)


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    files.append(File.generated(config, "catalog.md", content=page()))
    return files
