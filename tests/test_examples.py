"""The scripts in examples/ run, in their fast mode, and write what they promise.

Each example reproduces its source's tables and figures and goes past them (see the
script's docstring); here every script's ``main(fast=True, out=...)`` runs into a
temporary folder and each file it reports must exist and be non-trivial.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("matplotlib")

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SCRIPTS = ["risk_or_safety", "coinball", "unspeakable_words", "the_race", "super_six", "pig"]


def load(name: str) -> ModuleType:
    if str(EXAMPLES) not in sys.path:  # the scripts import their shared helper, examples/_output.py
        sys.path.insert(0, str(EXAMPLES))
    spec = importlib.util.spec_from_file_location(f"tbsg_example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", SCRIPTS)
def test_example_runs_fast(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import matplotlib.pyplot as plt

    written = load(name).main(fast=True, out=tmp_path)
    plt.close("all")
    assert written, "the example wrote nothing"
    assert any(p.suffix == ".png" for p in written.values())
    for path in written.values():
        assert path.parent == tmp_path and path.stat().st_size > 50, path
        if path.suffix == ".png":
            assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out = capsys.readouterr().out
    assert "DIFFERS" not in out
    if name == "risk_or_safety":
        # seed 000 (Jehn 2026), Table 1: the fast run compares the 5 x 5 corner (2..6 points)
        assert "all match the printed table" in out
        md = written["risk_or_safety_table1.md"].read_text(encoding="utf-8").splitlines()
        assert md[0] == "| I need \\ opponent needs | 2 | 3 | 4 | 5 | 6 |"
        assert md[2] == "| 2 | 2 | 2 | 1 | 1 | 1 |"
        tex = written["risk_or_safety_table1.tex"].read_text(encoding="utf-8")
        assert "\\toprule" in tex and "\\bottomrule" in tex

