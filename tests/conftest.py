"""Shared pytest configuration: the tests' helper modules, and hypothesis settings.

Helper modules. Test modules import the shared helpers as top-level modules
(``from strategies import TableGame``, ``from oracles import gauss_jordan``). pytest
imports test files by path (``--import-mode=importlib``, see pyproject.toml) and puts
nothing on ``sys.path``, so the helpers are loaded here, once each, and registered under
their plain name and under the name pytest's own collection gives their file
(``tests.strategies``, collected for doctests): one module object whoever imports it,
not two copies with two sets of classes. ``tests/`` itself is not put on ``sys.path``:
its folders mirror tbsg's packages (``tests/testing``, ``tests/engine``, ...) and would
otherwise be importable as top-level namespace packages named ``testing``, ``engine``...

Fixtures: ``run(*argv)`` runs the command line in this process.

Hypothesis: no wall-clock deadlines (exact arithmetic on big rationals has uneven timings).
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import settings

_HELPERS = ("strategies", "oracles")
"""Helper modules of tests/, in an order in which each one's imports are already loaded."""


def _load_helper(name: str) -> ModuleType:
    """``tests/<name>.py`` as the module ``name`` (and under pytest's name for the file)."""
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    path = Path(__file__).resolve().parent / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # pragma: no cover - the files are in the tree
        raise ImportError(f"cannot load the test helper {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # before running it, as an import does
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    package = __name__.rpartition(".")[0]  # "tests" when pytest imported this file by path
    if package:
        sys.modules.setdefault(f"{package}.{name}", module)
    return module


for _name in _HELPERS:
    _load_helper(_name)

settings.register_profile("tbsg", deadline=None)
settings.load_profile("tbsg")


Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Run:
    """``run(*argv)`` -> (exit status, stdout, stderr) of ``tbsg *argv``; usage errors
    (SystemExit) included.

    The command line may put directories on ``sys.path`` and import user modules: both are
    restored after the test.
    """
    from tbsg.cli import main

    monkeypatch.setattr(sys, "path", list(sys.path))

    def go(*argv: str) -> tuple[int, str, str]:
        try:
            status = main(list(argv))
        except SystemExit as exc:
            status = int(exc.code or 0)
        out, err = capsys.readouterr()
        return status, out, err
    return go
