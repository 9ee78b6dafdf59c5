"""The example notebooks (examples/*.py, jupytext percent format) run in a Jupyter kernel.

Each notebook is executed by ``examples/_execute.py`` in its fast mode (``TBSG_FAST=1``:
small sizes) with its files written to a temporary folder (``TBSG_OUT``). A notebook
passes when no cell raises (every published number a notebook states is an assertion
against the value tbsg computes), and every file it writes is a real PNG or a
non-trivial table.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("matplotlib")
pytest.importorskip("nbclient", reason="the notebooks run with the jupyter extra: pip install -e '.[all]'")
pytest.importorskip("jupytext", reason="the notebooks run with the jupyter extra: pip install -e '.[all]'")
pytest.importorskip("ipykernel", reason="the notebooks run with the jupyter extra: pip install -e '.[all]'")

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _load_runner() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tbsg_examples_execute", EXAMPLES / "_execute.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


RUNNER = _load_runner()

#: Files each notebook must write in its fast mode (others may be written too).
EXPECTED: dict[str, set[str]] = {
    "your_own_game": {"hog_strategy.png"},
    "exact_float_plots": {"tour_exact_vs_float.png", "tour_hold_at.png", "tour_margins.png",
                          "tour_pig6.tex", "tour_pig6.csv"},
    "risk_or_safety": {"risk_or_safety_table1.md", "risk_or_safety_table1.tex",
                       "risk_or_safety_table1.csv", "risk_or_safety_table1.png",
                       "risk_or_safety_values.png", "risk_or_safety_stop_gain.png",
                       "risk_or_safety_6_states.csv", "risk_or_safety_lengths.png",
                       "risk_or_safety_lengths.md", "risk_or_safety_lengths.csv"},
    "coinball": {"coinball_strategy.png", "coinball_ties.md", "coinball_first_player.png"},
    "super_six": {"super_six_figure5.png", "super_six_lid3_decisions.png"},
    "the_race": {"the_race_strategy.png", "the_race_by_goal.png", "the_race_margin.png"},
    "unspeakable_words": {"unspeakable_words_d6.png", "unspeakable_words_d6_values.csv",
                          "unspeakable_words_d6_values.tex",
                          "unspeakable_words_d6_less_than_ties.png",
                          "unspeakable_words_d6_margin.png"},
    "pig": {"pig_hold_boundary_20.png"},
    "pig_turn": {"pig_turn_by_hold.png", "pig_solitaire_boundary_40.png"},
    "parametric": {"parametric_risk_or_safety.png", "parametric_risk_or_safety.md",
                   "parametric_risk_or_safety.tex", "parametric_pig.png"},
}


def test_every_notebook_is_listed() -> None:
    on_disk = {p.stem for p in EXAMPLES.glob("*.py") if not p.name.startswith("_")}
    assert on_disk == set(RUNNER.NOTEBOOKS) == set(EXPECTED)


def _text(nb: object) -> str:
    """Everything the notebook printed or displayed as text."""
    parts = []
    for cell in nb.cells:  # type: ignore[attr-defined]
        for o in cell.get("outputs", []):
            parts.append(o.get("text", ""))
            parts.append(o.get("data", {}).get("text/plain", ""))
    return "\n".join(parts)


@pytest.mark.parametrize("name", list(EXPECTED))
def test_notebook_runs_fast(name: str, tmp_path: Path) -> None:
    nb = RUNNER.execute(name, fast=True, out=tmp_path, timeout=300)
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors
    text = _text(nb)
    assert "fast=True" in text, "the notebook did not see TBSG_FAST=1"
    written = {p.name: p for p in tmp_path.iterdir()}
    assert EXPECTED[name] <= set(written), sorted(EXPECTED[name] - set(written))
    for path in written.values():
        assert path.stat().st_size > 50, path
        if path.suffix == ".png":
            assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", path
    if name == "risk_or_safety":
        # Jehn 2026, Table 1: the fast run compares the 5 x 5 corner (2..6 points)
        assert "all match the printed table" in text
        md = written["risk_or_safety_table1.md"].read_text(encoding="utf-8").splitlines()
        assert md[0] == "| I need \\ opponent needs | 2 | 3 | 4 | 5 | 6 |"
        assert md[2] == "| 2 | 2 | 2 | 1 | 1 | 1 |"
        tex = written["risk_or_safety_table1.tex"].read_text(encoding="utf-8")
        assert "\\toprule" in tex and "\\bottomrule" in tex


def test_a_failing_comparison_fails_the_notebook(tmp_path: Path) -> None:
    """A published number that does not match stops the run: the assertions are real."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb = RUNNER.read("pig")
    cell = next(c for c in nb.cells if "PIGLET_2.items()" in c.source)
    cell.source = cell.source.replace("PIGLET_2.items()", "{**PIGLET_2, (0, 0, 0): '4/9'}.items()")
    nb.cells = nb.cells[: nb.cells.index(cell) + 1]
    client = NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(EXAMPLES)}})
    with pytest.raises(CellExecutionError, match="Neller and Presser 2004"):
        client.execute(env={"TBSG_FAST": "1", "TBSG_OUT": str(tmp_path)})
