"""The ``tbsg`` command line (``tbsg reproduce`` is tested in ``test_reproduce.py``)."""

from __future__ import annotations

import json

import pytest

from tbsg.catalog import CATALOG
from tbsg.cli import main


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


# --- tbsg list / solve / verify ----------------------------------------------------------------

def test_list_shows_every_game_with_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for name in CATALOG:
        assert f"{name}(" in out
    assert "unspeakable_words(a: int, b: int, die: int = 6, bust: at_most|less_than = 'at_most')" in out


def test_solve_prints_exact_value_and_certificate(capsys: pytest.CaptureFixture[str]) -> None:
    # seed 000 (Jehn 2026), section 3.3: n = 5 gives 1026/1925
    assert main(["solve", "risk_or_safety", "--param", "target=5"]) == 0
    out = capsys.readouterr().out
    assert "= 1026/1925" in out
    assert "verified: 150 states" in out


def test_solve_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "risk_or_safety", "-p", "target=3", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    # seed 000 (Jehn 2026), section 2: n = 3 gives 6/11
    assert data["value"] == "6/11"
    assert data["verified"] is True


def test_solve_float_gives_bounds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "risk_or_safety", "-p", "target=3", "--float", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["lower"] <= 6 / 11 <= data["upper"]


@pytest.mark.parametrize(("argv", "message"), [
    (["solve", "chess"], "unknown game 'chess'; choose from risk_or_safety"),
    (["solve", "risk_or_safety"], "risk_or_safety needs target; its parameters are target: int"),
    (["solve", "risk_or_safety", "-p", "goal=3"], "risk_or_safety has no parameter goal"),
    (["solve", "risk_or_safety", "-p", "target=x"], "parameter target must be an integer, got 'x'"),
    (["solve", "risk_or_safety", "-p", "target"], "--param takes NAME=VALUE, got 'target'"),
    (["solve", "risk_or_safety", "-p", "target=0"], "target must be a positive int, got 0"),
    (["solve", "unspeakable_words", "-p", "a=2", "-p", "b=2", "-p", "bust=never"],
     "parameter bust must be one of at_most, less_than; got 'never'"),
])
def test_solve_bad_arguments(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_solve_save_then_verify(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    path = f"{tmp_path}/race.json"
    assert main(["solve", "the_race", "-p", "goal=5", "--save", path]) == 0
    capsys.readouterr()
    assert main(["verify", path]) == 0
    assert "graph hash matches; verified" in capsys.readouterr().out


def test_verify_missing_file(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", f"{tmp_path}/none.json"]) == 1
    assert "REJECTED" in capsys.readouterr().err


@pytest.mark.parametrize(("fmt", "expected"), [
    ("md", "| 0 | 0 | 0 | 0 | 0 | 4/7 |"),
    ("latex", r"\toprule"),
    ("csv", "0,0,0,0,0,4/7,"),
    ("json", '"value": "4/7"'),
])
def test_solve_table_formats(fmt: str, expected: str, capsys: pytest.CaptureFixture[str]) -> None:
    # seed 000 (Jehn 2026), section 3.1: n = 2 gives 4/7
    assert main(["solve", "risk_or_safety", "-p", "target=2", "--table", "--format", fmt]) == 0
    assert expected in capsys.readouterr().out


def test_solve_format_md_needs_table(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["solve", "risk_or_safety", "-p", "target=2", "--format", "md"])
    assert "--format md needs --table" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "message"), [
    (["solve", "risk_or_safety", "-p", "target=3", "--float", "--tol", "-1"], "tol must be a positive"),
    (["solve", "risk_or_safety", "-p", "target=3", "--float", "--tol", "nan"], "tol must be a positive"),
    (["solve", "pig", "-p", "goal=3", "-p", "die=1"], "die"),
])
def test_bad_input_is_one_line_not_a_traceback(argv: list[str], message: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    # issue 12: the command line never prints a traceback for bad input
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        status = int(exc.code or 0)
    assert status != 0
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_verify_own_game_with_import(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    import tbsg
    from oracles import Wait

    path = f"{tmp_path}/wait.json"
    tbsg.save(tbsg.solve(Wait(), infinite_play=0), path)
    assert main(["verify", path]) == 1
    assert "--import-game" in capsys.readouterr().err
    assert main(["verify", path, "--import-game"]) == 0
    assert "end-component bounds for infinite play worth 0" in capsys.readouterr().out


def test_table_json_with_values_beyond_the_digit_limit() -> None:
    # exact values of more than 4,300 digits print in full in JSON tables
    from fractions import Fraction

    from tbsg.cli import _json_value

    big = Fraction(1, 3**9100)
    assert _json_value(big).endswith(str(3**9100 % 10**20))  # type: ignore[union-attr]
