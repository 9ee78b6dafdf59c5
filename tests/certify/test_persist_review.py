"""Review 34: attacks on saved files of format 5 (values stored at boundary states only)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import tbsg
from tbsg.certify.persist import load, save


def _boundary_file(tmp_path: Path, game: Any) -> Path:
    path = tmp_path / "boundary.json"
    save(tbsg.solve(game, keep_values="boundary"), path)
    return path


def _edit(path: Path, change: Any) -> dict[str, Any]:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))
    return doc


def _set_huge_stored_value(doc: dict[str, Any]) -> None:
    """The first stored row after the initial state's (a boundary state) of
    risk_or_safety(12): its value made 10**400, an integer over the denominator "1"."""
    rows = doc["states"]
    i = next(i for i, r in enumerate(rows) if i and r[1] is not None)
    assert any(r[1] is None for r in rows)
    if "1" not in doc["denominators"]:
        doc["denominators"].append("1")
    rows[i][1:3] = ["1" + "0" * 400, doc["denominators"].index("1")]


@pytest.mark.parametrize("check", [True, False])
def test_a_huge_stored_value_read_by_omitted_values_is_refused_not_overflowerror(
        tmp_path: Path, check: bool) -> None:
    # risk_or_safety(12), keep_values="boundary"; stored row 1 edited to 10**400.
    # Expected: TamperedSolutionError (the values it determines are not those of the game).
    # Got: bare OverflowError ('mpq' too large to convert to float) from the recomputation
    # (exact._Engine._settle -> bk.to_float), with check=True and check=False alike.
    path = _boundary_file(tmp_path, tbsg.games.risk_or_safety(12))
    _edit(path, _set_huge_stored_value)
    with pytest.raises((tbsg.TamperedSolutionError, tbsg.SolutionFileError)):
        load(path, check=check)


def test_verify_on_the_command_line_reports_a_huge_stored_value_without_a_traceback(
        tmp_path: Path) -> None:
    # `tbsg verify FILE` on the file of the test above: expected a failing exit code and a
    # message; got the OverflowError traceback.
    from tbsg.cli import main
    path = _boundary_file(tmp_path, tbsg.games.risk_or_safety(12))
    _edit(path, _set_huge_stored_value)
    assert main(["verify", str(path)]) != 0


@pytest.mark.parametrize("infinite_play", [Fraction(1, 2), Fraction(0)], ids=str)
def test_a_boundary_solution_with_infinite_play_saves_a_file_load_accepts(
        tmp_path: Path, infinite_play: Fraction) -> None:
    # tbsg.solve(risk_or_safety(5), keep_values="boundary", infinite_play=1/2 or 0), saved:
    # expected load to give back the same values; got SolutionFileError "state row 1
    # (RoSState(mover=0, open=1, ...)): value null in a file with 'infinite_play'": save
    # writes null rows that load refuses in any file with infinite_play.
    game = tbsg.games.risk_or_safety(5)
    path = tmp_path / "ip.json"
    save(tbsg.solve(game, keep_values="boundary", infinite_play=infinite_play), path)
    loaded = load(path)
    whole = tbsg.solve(game, keep_values="all", infinite_play=infinite_play)
    assert list(loaded._raw_values) == list(whole._raw_values)


def test_an_evaluation_with_infinite_play_stored_as_boundary_values_saves_a_file_load_accepts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # tbsg.evaluate(risk_or_safety(5), an optimal strategy, infinite_play=1/2) with the
    # "auto" budget 0 (boundary values), saved: load refused it (same cause as above).
    import tbsg.api.solving as solving
    game = tbsg.games.risk_or_safety(5)
    whole = tbsg.solve(game, keep_values="all")
    strategy = {s: whole.optimal_actions(s)[0] for s in whole.graph.states}
    full = tbsg.evaluate(game, strategy, infinite_play=Fraction(1, 2))
    monkeypatch.setitem(solving._KEEP_BUDGET, "auto", 0)
    path = tmp_path / "ev.json"
    save(tbsg.evaluate(game, strategy, infinite_play=Fraction(1, 2)), path)
    assert list(load(path)._raw_values) == list(full._raw_values)
