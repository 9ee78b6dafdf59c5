"""The ``tbsg`` command line and the ``tbsg reproduce`` report."""

from __future__ import annotations

import json

import pytest

import tbsg.reproduce
from tbsg.catalog import CATALOG
from tbsg.cli import main
from tbsg.published import Check


def test_reproduce_one_game_prints_rows_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reproduce", "--only", "unspeakable_words"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["source", "quantity", "published", "computed", "match"]
    assert "[unspeakable_words: seed 004 (Win-Vector, Unspeakable bets)]" in out
    assert "2/2 published quantities reproduced" in out


def test_reproduce_json_is_machine_readable(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reproduce", "--only", "unspeakable_words", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True
    assert set(data["seconds"]) == {"unspeakable_words"}
    assert len(data["rows"]) == 2
    assert set(data["rows"][0]) == {"game", "source", "quantity", "published", "computed", "match",
                                    "note"}
    assert all(row["match"] is True for row in data["rows"])


def test_reproduce_mismatch_exits_one(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    bad = Check("the_race", "somewhere", "a number", "1/2", "1/3", False)
    monkeypatch.setattr(tbsg.reproduce, "_published", lambda name: lambda: [bad])
    assert main(["reproduce", "--only", "the_race"]) == 1
    out = capsys.readouterr().out
    assert "NO" in out.split()
    assert "0/1 published quantities reproduced" in out


def test_reproduce_unknown_game_lists_valid_ones(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["reproduce", "--only", "chess"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "unknown game chess" in err
    for name in CATALOG:
        assert name in err


def test_reproduce_function_rejects_unknown_game() -> None:
    with pytest.raises(tbsg.InvalidGameError, match=r"'chess'.*choose from risk_or_safety"):
        tbsg.reproduce.reproduce(["chess"])


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main([])
    assert exc.value.code == 2
    assert "COMMAND" in capsys.readouterr().err


def test_risk_or_safety_command(capsys: pytest.CaptureFixture[str]) -> None:
    # seed 000 (Jehn 2026), section 3.3: P(0,0,0) = 2236/4165 for n = 4
    assert main(["risk-or-safety", "4"]) == 0
    out = capsys.readouterr().out
    assert "P(0,0,0) = 2236/4165" in out
    assert "coins to toss" in out


def test_risk_or_safety_command_rejects_bad_target(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["risk-or-safety", "0"])
    assert "target must be at least 1" in capsys.readouterr().err


@pytest.mark.slow
def test_full_reproduce_passes(capsys: pytest.CaptureFixture[str]) -> None:
    # every published number of every seed: the README's main job
    assert main(["reproduce"]) == 0
    assert " NO" not in capsys.readouterr().out
