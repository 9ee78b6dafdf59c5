"""The package's structure: a pipeline of packages that flows one way.

Every package of ``src/tbsg`` has a rank, and a module may import only modules of its own
package or of a package of strictly lower rank (function-level imports included). The
modules of one package import each other without cycles. Together these make the tree
the architecture: a reader who sees only the folder names can draw the pipeline

    errors -> _util -> model -> engine -> results -> api, play -> certify -> parametric
    -> games -> sources -> outputs -> testing -> the face (tbsg, tbsg.plots) -> cli

``tbsg.parametric`` keeps its old output names for one release as PEP 562 aliases that
warn and import :mod:`tbsg.outputs` when used; those ``__getattr__`` functions are the only
upward imports, listed in :data:`DEPRECATION_SHIMS`.
"""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

RANKS: dict[str, int] = {
    "tbsg.errors": 0, "tbsg._version": 0,  # the error hierarchy and the version: no tbsg imports
    "tbsg._util": 1,       # shared helpers: digits and bounds of numbers, progress, optional imports
    "tbsg.model": 2,       # what a user writes: the protocol, the array form, fixed strategies
    "tbsg.engine": 3,      # game -> compiled graph -> components -> values
    "tbsg.results": 4,     # what a solve returns, and the query vocabulary
    "tbsg.api": 5,         # solve, evaluate, best_response
    "tbsg.play": 5,        # a fixed profile's Markov chain
    "tbsg.certify": 6,     # verify, and save/load (which re-verify)
    "tbsg.parametric": 7,  # games whose probabilities depend on a parameter
    "tbsg.games": 8,       # the catalog's rules and its registry
    "tbsg.sources": 9,     # the sources' printed numbers, declared discrepancies, reproduce
    "tbsg.outputs": 10,    # tables, pivots, formats, region tables, every plot
    "tbsg.testing": 11,    # users' test tools
    "tbsg": 12, "tbsg.plots": 12,  # the face
    "tbsg.cli": 13,
}

DEPRECATION_SHIMS = {("tbsg.parametric", "tbsg.outputs")}
"""(package, package it may import inside a module ``__getattr__`` only, to serve a
deprecated alias)."""


def _modules() -> dict[str, Path]:
    out = {}
    for path in (SRC / "tbsg").rglob("*.py"):
        name = ".".join(path.relative_to(SRC).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = path
    return out


def package_of(module: str) -> str:
    """The ranked package holding ``module`` (the longest prefix with a rank)."""
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        if ".".join(parts[:n]) in RANKS:
            return ".".join(parts[:n])
    raise KeyError(module)


def _imports(name: str, path: Path, modules: set[str], *, shims: bool) -> set[str]:
    """The tbsg modules ``name`` imports (anywhere in the file; with ``shims=False``, not
    inside a module-level ``__getattr__``)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    node: ast.AST
    if not shims:
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
                skip |= {id(n) for n in ast.walk(node)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in modules else base)
    return {m for m in found if m in modules and m != name}


def test_every_module_is_in_a_ranked_package() -> None:
    for name in _modules():
        package_of(name)  # raises KeyError for a module outside every ranked package


def test_the_top_level_holds_only_the_face_and_the_shared_modules() -> None:
    top = sorted(p.name for p in (SRC / "tbsg").glob("*.py"))
    assert top == ["__init__.py", "_version.py", "errors.py", "plots.py"]


@pytest.mark.parametrize("name", sorted(_modules()))
def test_no_module_imports_a_package_above_or_beside_its_own(name: str) -> None:
    modules = _modules()
    mine = package_of(name)
    bad = []
    for m in _imports(name, modules[name], set(modules), shims=False):
        other = package_of(m)
        if other != mine and RANKS[other] >= RANKS[mine] and not (mine == "tbsg" and other == "tbsg.plots"):
            bad.append(m)
    assert not bad, f"{name} ({mine}, rank {RANKS[mine]}) imports {sorted(bad)}"


def test_deprecation_shims_import_only_what_they_declare() -> None:
    modules = _modules()
    for name, path in modules.items():
        mine = package_of(name)
        names = set(modules)
        extra = _imports(name, path, names, shims=True) - _imports(name, path, names, shims=False)
        for m in extra:
            other = package_of(m)
            if other != mine and RANKS[other] >= RANKS[mine]:
                assert (mine, other) in DEPRECATION_SHIMS, f"{name}.__getattr__ imports {m}"


def test_no_import_cycle_between_modules() -> None:
    modules = _modules()
    graph = {n: _imports(n, p, set(modules), shims=False) for n, p in modules.items()}
    try:
        tuple(TopologicalSorter(graph).static_order())
    except CycleError as exc:  # pragma: no cover - the message is the failure
        pytest.fail(f"import cycle: {exc.args[1]}")
