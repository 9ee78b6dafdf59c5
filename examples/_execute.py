"""Execute the example notebooks: the other ``examples/*.py`` files, in jupytext's percent format.

The ``.py`` files are the notebooks' source of truth (readable diffs, linted by ruff);
Jupyter opens them as notebooks once jupytext is installed (``pip install
'tbsg[jupyter]'``), and ``jupytext --to ipynb examples/pig.py`` (or this script) writes
an ``.ipynb``. Git ignores the ``.ipynb`` files: they hold outputs that the code
recomputes anyway.

``python examples/_execute.py [--fast] [NAME ...]`` runs notebooks in a Jupyter kernel
and writes each, with its outputs, as ``examples/NAME.ipynb``. The test suite
(``tests/test_notebooks.py``) and the documentation build (``docs/hooks/notebooks.py``)
run them through :func:`execute`.

Environment of the kernel: ``TBSG_FAST=1`` for small sizes (seconds; what the tests
run) and ``TBSG_OUT=DIR`` for where the notebooks write their figures and tables; see
:mod:`tbsg.outputs.notebook`. Run as a script, this writes them to ``docs/figures``
(``--out DIR`` elsewhere), the figures the documentation shows; a notebook run on its
own writes them beside itself.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any

EXAMPLES = Path(__file__).resolve().parent
FIGURES = EXAMPLES.parent / "docs" / "figures"

#: The notebooks, in reading order: two tutorials, then one notebook per source.
NOTEBOOKS: dict[str, str] = {
    "your_own_game": "Your own game in 15 lines",
    "exact_float_plots": "From exact to float to plots",
    "risk_or_safety": "Risk or Safety (Jehn 2026)",
    "coinball": "Coinball (The Riddler)",
    "super_six": "Super Six (Jehn 2021)",
    "the_race": "The Race (Project Euler 232)",
    "unspeakable_words": "Unspeakable Words (Win-Vector)",
    "pig": "Pig and Piglet (Neller and Presser 2004)",
    "pig_turn": "Pig for points and Pig solitaire (Neller 2010)",
    "parametric": "Parametric games: a biased coin",
}


def read(name: str) -> Any:
    """The notebook ``examples/<name>.py`` as an ``nbformat`` notebook, without outputs."""
    import jupytext

    return jupytext.read(EXAMPLES / f"{name}.py")


def execute(name: str, *, fast: bool, out: Path | None = None, timeout: int = 1800) -> Any:
    """Run notebook ``name`` in a fresh Python kernel and return it with its outputs.

    The kernel starts in ``examples/`` with ``TBSG_FAST`` and ``TBSG_OUT`` set as asked
    (``out=None``: the notebook writes beside itself), matplotlib's inline backend and no
    progress bars (``TQDM_DISABLE=1``: they would be saved among the outputs). A cell
    that raises stops the run with :class:`nbclient.exceptions.CellExecutionError`,
    which shows the cell and the traceback.
    """
    from nbclient import NotebookClient

    nb = read(name)
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    env["TBSG_FAST"] = "1" if fast else "0"
    env["TQDM_DISABLE"] = "1"  # no progress bars among the outputs
    env["PYTHONWARNINGS"] = "ignore:IProgress not found"  # tqdm's hint to install ipywidgets
    if out is not None:
        env["TBSG_OUT"] = str(out)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(EXAMPLES)}})
    client.execute(env=env)
    return nb


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"notebooks (default: all of "
                        f"{', '.join(NOTEBOOKS)})")
    parser.add_argument("--fast", action="store_true", help="small sizes (TBSG_FAST=1)")
    parser.add_argument("--out", type=Path, default=FIGURES,
                        help="TBSG_OUT: where files go (default docs/figures)")
    args = parser.parse_args()
    import nbformat

    for name in args.names or NOTEBOOKS:
        start = time.perf_counter()
        nb = execute(name, fast=args.fast, out=args.out)
        path = EXAMPLES / f"{name}.ipynb"
        nbformat.write(nb, path)
        print(f"wrote {path} ({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
