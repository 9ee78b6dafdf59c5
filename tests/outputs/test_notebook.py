"""A notebook copied out of ``examples/`` runs from any folder and writes beside itself
(:mod:`tbsg.outputs.notebook`)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tbsg.outputs.notebook import Output, beside_the_notebook

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_files_go_to_tbsg_out_then_the_folder_given_then_beside(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TBSG_OUT", raising=False)
    monkeypatch.setenv("TBSG_FAST", "1")
    out = Output(tmp_path / "asked")
    assert out.dir == tmp_path / "asked" and out.dir.is_dir() and out.fast
    monkeypatch.setenv("TBSG_OUT", str(tmp_path / "env"))
    assert Output(tmp_path / "asked").dir == tmp_path / "env"
    monkeypatch.delenv("TBSG_OUT")
    assert Output().dir == beside_the_notebook()
    monkeypatch.setenv("TBSG_FAST", "0")
    assert not Output(tmp_path).fast and repr(Output(tmp_path)) == "Output(fast=False)"


def test_a_copied_notebook_runs_elsewhere_and_writes_beside_itself(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    copy = tmp_path / "copied" / "my_analysis.py"
    copy.parent.mkdir()
    shutil.copy(EXAMPLES / "your_own_game.py", copy)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("TBSG_OUT", "MPLBACKEND")}
    env["TBSG_FAST"] = "1"
    done = subprocess.run([sys.executable, str(copy)], cwd=elsewhere, env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    # the figure the notebook draws (tests/test_notebooks.py: your_own_game writes hog_strategy.png)
    assert (copy.parent / "hog_strategy.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not list(elsewhere.iterdir())
