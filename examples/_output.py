"""What the example notebooks share: the fast mode, where files go, saving figures and tables.

Each notebook (``examples/<name>.py``, jupytext percent format) starts with
``out = Output()``: the environment variable ``TBSG_FAST=1`` selects small sizes
(seconds; what the test suite runs), ``TBSG_OUT=DIR`` where files go (default
``docs/figures/``). In Jupyter, figures are shown below the cell as well as saved (not
in the fast mode), and
:func:`show` displays tables as HTML; run as a script (``python examples/pig.py``),
figures are only saved and tables printed as Markdown.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

FIGURES = Path(__file__).resolve().parents[1] / "docs" / "figures"


def in_notebook() -> bool:
    """True inside a Jupyter kernel."""
    return "ipykernel" in sys.modules


def pyplot() -> Any:
    """matplotlib's pyplot: inline in a notebook, the non-interactive Agg backend otherwise."""
    import matplotlib

    if not in_notebook():
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def show(obj: Any) -> None:
    """Show a table, pivot or other object: rich display in a notebook, Markdown (or
    ``print``) in a script."""
    if in_notebook():
        from IPython.display import display

        display(obj)
    else:
        print(obj.to_markdown() if hasattr(obj, "to_markdown") else obj)


class Output:
    """The settings of one run (``fast``, ``dir``) and the files it writes, by name."""

    def __init__(self) -> None:
        self.fast = os.environ.get("TBSG_FAST", "0") not in ("", "0")
        self.dir = Path(os.environ.get("TBSG_OUT") or FIGURES)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.written: dict[str, Path] = {}

    def __repr__(self) -> str:
        return f"Output(fast={self.fast})"  # not the folder: in the docs build it is a temporary one

    def save(self, name: str, fig: Any) -> None:
        """Save a matplotlib figure (or the figure of an Axes) as ``name``; in a notebook
        it is also shown below the cell, except in the fast mode (low resolution, saved
        only: what the tests run)."""
        if not hasattr(fig, "savefig"):  # an Axes: save the figure it belongs to
            fig = fig.figure
        path = self.dir / name
        fig.savefig(path, dpi=50 if self.fast else 110)
        self.written[name] = path
        if self.fast or not in_notebook():
            pyplot().close(fig)

    def write(self, name: str, text: str) -> None:
        """Write a text file (a table export) as ``name``."""
        path = self.dir / name
        path.write_text(text, encoding="utf-8")
        self.written[name] = path
