"""The package's structure: a pipeline that flows one way (issue 11).

Every module of ``src/tbsg`` has a rank; a module may import only modules of a strictly
lower rank (function-level imports included). A strict order makes cycles impossible, and
the ranks follow the layers: model -> engine (compile -> graph -> kernel -> solvers) ->
results -> front and certificate -> outputs -> catalog (rules -> sources -> registry,
reproduce) -> face (``tbsg/__init__``, the plots facade, ``tbsg.testing``, the command line).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

GAMES = ("coinball", "pig", "risk_or_safety", "super_six", "the_race", "unspeakable_words")

RANKS: dict[str, int] = {
    # shared utilities, no tbsg imports above them
    "tbsg._version": 0, "tbsg.errors": 0, "tbsg._digits": 0, "tbsg._gc": 0, "tbsg._progress": 0,
    "tbsg._citation": 0,
    # the game model
    "tbsg.model": 1,
    "tbsg._bounds": 1,  # bounds on numbers from text and on the recorded fields of tbsg's games
    "tbsg.arrays": 2,  # the optional array form of a game (issue 13)
    "tbsg.fixed": 3,  # a fixed game keeps the array form
    # the engine, in pipeline order
    "tbsg.engine": 2, "tbsg.engine._backend": 2,
    "tbsg.engine.compiled": 3,
    "tbsg.engine.compile_arrays": 4,  # the array form's enumeration, dispatched to by compile
    "tbsg.engine.compile": 5,
    # the graph's fingerprint (saved files, provenance), beside compile
    "tbsg._graph_hash": 4,
    "tbsg.engine.graph": 5,
    "tbsg.engine.bellman": 6, "tbsg.engine.adic": 6,
    "tbsg.engine.floating": 7,
    "tbsg.engine.exact": 8,
    "tbsg.engine.infinite": 9,
    # Markov chains of fixed profiles and tie-breaking among optimal actions
    "tbsg.engine.markov": 9, "tbsg._steps": 2, "tbsg.tiebreak": 10,
    # results, then the front doors and the certificate
    "tbsg.results": 11,
    "tbsg.api": 12, "tbsg.chain": 12,
    "tbsg.certificate": 13,
    # outputs: generic, no game names
    "tbsg.outputs": 14, "tbsg.outputs._optional": 14, "tbsg.outputs.formats": 14,
    "tbsg.outputs.pivot": 15,
    "tbsg.outputs.tables": 16,
    "tbsg.outputs.plots": 17, "tbsg.outputs.persist": 17,
    # parametric games (sympy, python-flint): numbers, compile, linear algebra, then the
    # solver (on tbsg.solve), its certificate and outputs
    "tbsg.parametric.rational": 2, "tbsg.parametric.algebraic": 3,
    "tbsg.parametric.compile": 6, "tbsg.parametric.linear": 7,
    "tbsg.parametric.solve": 13, "tbsg.parametric.certificate": 14,
    "tbsg.parametric.outputs": 15, "tbsg.parametric": 17,
    # the catalog: rules, then the sources' printed numbers, then the registry and reproduce
    **{f"tbsg.games.{g}": 18 for g in GAMES},
    "tbsg.games": 19, "tbsg.games.figures": 19,
    "tbsg.sources.check": 20, "tbsg.sources": 21,
    **{f"tbsg.sources.{g}": 21 for g in GAMES},
    "tbsg.catalog": 22,
    "tbsg.reproduce": 23,
    # the face; tbsg.testing (users' test tools) sits on its three parts: strategies (random
    # games), oracle (brute force, no solver code) and published (reads results, and
    # decimals as tbsg.sources.check does)
    "tbsg.testing.strategies": 23, "tbsg.testing.oracle": 23, "tbsg.testing.published": 23,
    "tbsg.plots": 24, "tbsg.testing": 24,
    "tbsg": 25,  # loads tbsg.games, tbsg.plots and tbsg.testing on first use
    "tbsg.cli._games": 26, "tbsg.cli._report": 26,  # the command line's parts, then its parser
    "tbsg.cli": 27,
}


def _modules() -> dict[str, Path]:
    out = {}
    for path in (SRC / "tbsg").rglob("*.py"):
        name = ".".join(path.relative_to(SRC).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = path
    return out


def _imports(name: str, path: Path, modules: set[str]) -> set[str]:
    """The tbsg modules ``name`` imports (anywhere in the file)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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


def test_every_module_has_a_rank() -> None:
    # a new module must be placed in a layer
    assert set(_modules()) == set(RANKS)


@pytest.mark.parametrize("name", sorted(RANKS))
def test_no_module_imports_one_above_or_beside_it(name: str) -> None:
    modules = _modules()
    bad = sorted(m for m in _imports(name, modules[name], set(modules)) if RANKS[m] >= RANKS[name])
    assert not bad, f"{name} (rank {RANKS[name]}) imports {bad}"
