"""The documentation site builds with warnings as errors (``mkdocs build --strict``).

The build runs the hooks of docs/hooks/ as a user's build does, with two settings that
keep it quick: the notebooks are rendered without running them (``TBSG_DOCS_EXECUTE=0``;
tests/test_notebooks.py runs them) and the catalog page recomputes the sources that take
about a second (``TBSG_DOCS_REPRODUCE``; ``tbsg reproduce`` and tests/test_reproduce.py
cover the others, Pig's float solves taking most of a minute).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

for _module in ("mkdocs", "material", "mkdocstrings_handlers.python", "mkdocs_jupyter", "jupytext"):
    pytest.importorskip(_module, reason="the docs extra is not installed: pip install -e '.[docs]'")

ROOT = Path(__file__).resolve().parents[1]
FAST_SOURCES = ("risk_or_safety", "super_six", "unspeakable_words")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "TBSG_DOCS_EXECUTE": "0", "TBSG_DOCS_REPRODUCE": ",".join(FAST_SOURCES),
           "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f",
                           str(ROOT / "mkdocs.yml"), "-d", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def page(site: Path, name: str) -> str:
    return (site / name / "index.html").read_text(encoding="utf-8")


def test_every_page_is_built(site: Path) -> None:
    names = ["guide", "tables", "performance", "catalog", "changelog", "api/solving",
             "api/solutions", "api/model", "api/tables", "api/plots", "api/persist",
             "api/errors", "api/games", "api/sources"]
    names += [f"tutorials/{p.stem}" for p in (ROOT / "examples").glob("*.py")
              if not p.name.startswith("_")]
    assert (site / "index.html").exists()
    missing = [n for n in names if not (site / n / "index.html").exists()]
    assert not missing


def test_guide_has_the_modelling_sections(site: Path) -> None:
    html = page(site, "guide")
    for anchor in ("6-discounting", "7-duplicate-outcomes", "8-making-a-game-fast"):
        assert f'id="{anchor}"' in html, anchor


def test_api_reference_is_generated_from_docstrings(site: Path) -> None:
    solving = page(site, "api/solving")
    assert 'id="tbsg.solve"' in solving and 'id="tbsg.verify"' in solving
    assert "Progress of the enumeration" in solving  # from solve's docstring
    games = page(site, "api/games")
    assert 'id="tbsg.games.pig"' in games and 'id="tbsg.games.coinball.coinball"' in games
    assert 'id="tbsg.plots.plot_coinball"' in page(site, "api/plots")
    # the docstrings' Sphinx roles became code, not literal ":func:" text
    assert ":func:" not in games and ":class:" not in solving


def test_catalog_page_is_computed_at_build_time(site: Path) -> None:
    from tbsg.games.registry import CATALOG
    from tbsg.sources.reproduce import reproduce

    html = page(site, "catalog")
    for entry in CATALOG.values():
        assert f"tbsg.games.{entry.constructor}(" in html, entry.name
    report = reproduce(["unspeakable_words"])
    for row in report.rows:  # the rows the build recomputed are on the page
        assert row.quantity.replace("<", "&lt;") in html
    assert "Not recomputed in this build" in html  # Pig, Coinball and The Race were skipped
    assert "tbsg reproduce --only pig" in html


def test_notebooks_are_rendered(site: Path) -> None:
    html = page(site, "tutorials/your_own_game")
    assert "Your own game in 15 lines" in html
    assert re.search(r"class\W+Hog", html)
    assert (site / "tutorials" / "your_own_game" / "your_own_game.ipynb").exists()
