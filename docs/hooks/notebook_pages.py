"""mkdocs hook: the example notebooks (``examples/*.py``) become the pages ``tutorials/<name>/``.

Each notebook is run by ``examples/_execute.py`` (its figures and tables go to a
temporary folder, never into ``docs/``), written as an ``.ipynb`` with its outputs to a
temporary folder, and added to the site as ``tutorials/<name>.ipynb``, which the
mkdocs-jupyter plugin renders. Environment:

* ``TBSG_FAST=1``: run the notebooks at their small sizes (seconds instead of minutes);
* ``TBSG_DOCS_EXECUTE=0``: do not run them (the pages show the code and text only).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
_TEMP: list[Path] = []


def flag(name: str, default: bool) -> bool:
    """A boolean environment variable: unset is ``default``; ``""``, ``0``, ``false``, ``no`` are False."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() not in ("", "0", "false", "no")


def runner() -> ModuleType:
    """``examples/_execute.py``, which lists and runs the notebooks."""
    spec = importlib.util.spec_from_file_location("tbsg_examples_execute", ROOT / "examples" / "_execute.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _log(message: str) -> None:
    import logging

    logging.getLogger("mkdocs.hooks.notebook_pages").info(message)


def on_files(files: Any, config: Any) -> Any:
    """Add one page per notebook (runs before the plugins' own ``on_files``)."""
    import nbformat
    from mkdocs.structure.files import File

    run = runner()
    execute, fast = flag("TBSG_DOCS_EXECUTE", True), flag("TBSG_FAST", False)
    tmp = Path(tempfile.mkdtemp(prefix="tbsg-docs-"))
    _TEMP.append(tmp)
    (tmp / "tutorials").mkdir()
    for name in run.NOTEBOOKS:
        start = time.perf_counter()
        nb = run.execute(name, fast=fast, out=tmp / "files") if execute else run.read(name)
        path = tmp / "tutorials" / f"{name}.ipynb"
        nbformat.write(nb, path)
        # a File with its own src_dir (not File.generated): mkdocs-jupyter's wrapper reads
        # the path from src_dir
        files.append(File(f"tutorials/{name}.ipynb", src_dir=str(tmp), dest_dir=config.site_dir,
                          use_directory_urls=config.use_directory_urls))
        if execute:
            _log(f"ran examples/{name}.py{' (fast)' if fast else ''} in "
                 f"{time.perf_counter() - start:.1f} s")
    return files


on_files.mkdocs_priority = 100  # type: ignore[attr-defined]  # before mkdocs-jupyter wraps them


def on_post_build(config: Any) -> None:
    while _TEMP:
        shutil.rmtree(_TEMP.pop(), ignore_errors=True)
