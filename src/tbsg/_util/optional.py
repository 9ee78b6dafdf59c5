"""Optional dependencies of the outputs (pandas, matplotlib): imported on first use.

Why: ``import tbsg`` must work without the ``notebook`` extra; the exports and plots that
need pandas or matplotlib import it when called, through :func:`optional_import`, and a
missing package gives an ``ImportError`` that names what needs it and how to install it.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["NOTEBOOK_EXTRA", "optional_import"]

NOTEBOOK_EXTRA = "pip install 'tbsg[notebook]'"
"""How to install the optional dependencies (pandas, matplotlib, tqdm)."""


def optional_import(module: str, what: str) -> ModuleType:
    """Import an optional dependency or raise an ImportError that says how to install it.

    Parameters
    ----------
    module : str
        Module name, e.g. ``"pandas"``.
    what : str
        What needs it, for the message (e.g. ``"StateTable.to_pandas"``).

    Raises
    ------
    ImportError
        Naming the module and the ``notebook`` extra.
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        top = module.split(".")[0]
        raise ImportError(
            f"{what} needs {top}, an optional dependency of tbsg that is not installed; "
            f"install it with: {NOTEBOOK_EXTRA}") from exc
