"""What a notebook of tbsg needs around its analysis: a fast mode, where files go, figures and tables.

The example notebooks (``examples/*.py``, jupytext percent format) start with
``out = Output()``, and so may a notebook of your own: a notebook copied anywhere runs
there, with no helper file beside it. Why a public module: the notebooks are meant to
be copied and changed, and a helper that lived only in ``examples/`` broke every copy.

* ``out.fast`` is true when the environment variable ``TBSG_FAST`` is set (to anything
  but ``0``): small sizes, for a test run in seconds.
* Files go to ``out.dir``: the folder ``TBSG_OUT`` names if set (the test suite and the
  documentation build set it), else the folder given as ``Output(folder)``, else the
  folder of the notebook itself: the current directory in Jupyter (which starts a
  notebook's kernel there), the script's folder when run as ``python notebook.py``.
  Nothing is written anywhere else unless asked.
* ``out.save(name, fig)`` saves a matplotlib figure (and, in Jupyter, shows it below the
  cell), ``out.write(name, text)`` a table export; :func:`show` displays a table as HTML
  in Jupyter and prints it as Markdown in a script; :func:`pyplot` is matplotlib's
  ``pyplot`` with a backend that works without a display outside Jupyter.

Examples
--------
>>> import tempfile
>>> out = Output(tempfile.mkdtemp())
>>> out.write("values.csv", "target,value\\n2,4/7\\n")
>>> sorted(out.written), out.written["values.csv"].read_text(encoding="utf-8").splitlines()[1]
(['values.csv'], '2,4/7')
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

__all__ = ["Output", "in_notebook", "pyplot", "show"]


def in_notebook() -> bool:
    """True inside a Jupyter kernel."""
    return "ipykernel" in sys.modules


def pyplot() -> Any:
    """matplotlib's pyplot: inline in a notebook, the non-interactive Agg backend otherwise
    (needs matplotlib: ``pip install 'tbsg[plots]'``)."""
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

        display(obj)  # type: ignore[no-untyped-call]  # IPython has no annotations
    else:
        print(obj.to_markdown() if hasattr(obj, "to_markdown") else obj)


def beside_the_notebook() -> Path:
    """The folder of the running notebook: the script's folder when run as a script, else
    the current directory (where Jupyter starts a notebook's kernel)."""
    script = getattr(sys.modules.get("__main__"), "__file__", None)
    if script and not in_notebook():
        return Path(script).resolve().parent
    return Path.cwd()


class Output:
    """The settings of one run (``fast``, ``dir``) and the files it writes, by name.

    Parameters
    ----------
    folder : str or path-like, optional
        Where files go when ``TBSG_OUT`` is not set (default: beside the notebook; see
        the module docstring). Created if missing.
    """

    def __init__(self, folder: str | os.PathLike[str] | None = None) -> None:
        self.fast = os.environ.get("TBSG_FAST", "0") not in ("", "0")
        chosen = os.environ.get("TBSG_OUT") or folder
        self.dir = Path(chosen) if chosen else beside_the_notebook()
        self.dir.mkdir(parents=True, exist_ok=True)
        self.written: dict[str, Path] = {}

    def __repr__(self) -> str:
        return f"Output(fast={self.fast})"  # not the folder: it differs between machines and runs

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
