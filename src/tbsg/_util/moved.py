"""Modules that moved when the tree became the architecture: the old import paths keep
working for one release, with a :class:`DeprecationWarning` naming the new path.

A meta path finder answers only for the names in :data:`MOVED` and hands back the module
already imported under its new name (one module object, so ``isinstance`` checks and
module state agree whichever path imported it). Public names of ``tbsg`` itself
(``tbsg.solve``, ``tbsg.chain``, ...) never moved; only module paths did.

>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     import tbsg.arrays as old
>>> import tbsg.model.arrays as new
>>> old is new, "tbsg.model.arrays" in str(caught[0].message)
(True, True)
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType

__all__ = ["MOVED", "install"]

MOVED: dict[str, str] = {
    "tbsg.arrays": "tbsg.model.arrays",
    "tbsg.fixed": "tbsg.model.fixed",
    "tbsg.tiebreak": "tbsg.engine.tiebreak",
    "tbsg.engine.compile_arrays": "tbsg.engine.compile.arrays",
    "tbsg.certificate": "tbsg.certify.certificate",
    "tbsg.outputs.persist": "tbsg.certify.persist",
    "tbsg.games.figures": "tbsg.outputs.plots.catalog",
    "tbsg.parametric.outputs": "tbsg.outputs.regions",
    "tbsg.catalog": "tbsg.games.registry",
    "tbsg.reproduce": "tbsg.sources.reproduce",
}
"""Old module path -> new module path. (``tbsg.chain`` is not here: it names the public
function :func:`tbsg.chain`, which an alias module would shadow.)"""


class _Alias(importlib.abc.Loader):
    """Loads an old path as the module of its new path."""

    def __init__(self, new: str) -> None:
        self.new = new
        self.spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(f"{spec.name} is deprecated and will be removed in tbsg 0.3; import {self.new}",
                      DeprecationWarning, stacklevel=4)
        module = importlib.import_module(self.new)
        self.spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        module.__spec__ = self.spec  # the import system wrote the alias's spec over it


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        new = MOVED.get(fullname)
        return None if new is None else importlib.util.spec_from_loader(fullname, _Alias(new))


def install() -> None:
    """Put the finder on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(_Finder())
