"""Plumbing shared by the example scripts: where files go, saving them, the command line.

Each example has ``main(fast, out) -> {name: path}``; :class:`Output` collects what it
writes, and :func:`run` is its ``if __name__ == "__main__"`` block.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

FIGURES = Path(__file__).resolve().parents[1] / "docs" / "figures"


def pyplot() -> Any:
    """matplotlib's pyplot on the non-interactive Agg backend (files only)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


class Output:
    """The output folder of one run and the files written to it, by name."""

    def __init__(self, out: Path | None, fast: bool) -> None:
        self.dir = FIGURES if out is None else Path(out)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.fast = fast
        self.written: dict[str, Path] = {}

    def save(self, name: str, fig: Any) -> None:
        """Save a matplotlib figure as ``name`` (low resolution in fast mode) and close it."""
        path = self.dir / name
        fig.savefig(path, dpi=50 if self.fast else 110)
        pyplot().close(fig)
        self.written[name] = path

    def write(self, name: str, text: str) -> None:
        """Write a text file (a table export) as ``name``."""
        path = self.dir / name
        path.write_text(text, encoding="utf-8")
        self.written[name] = path


def run(main: Callable[[bool, Path | None], dict[str, Path]], doc: str | None) -> None:
    """Command line of an example: ``--fast`` (small sizes) and ``--out DIR``."""
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    parser.add_argument("--fast", action="store_true", help="small sizes (seconds)")
    parser.add_argument("--out", type=Path, default=None, help=f"output folder ({FIGURES})")
    args = parser.parse_args()
    for path in main(args.fast, args.out).values():
        print("wrote", path)
