"""The ``tbsg`` command line (``tbsg reproduce`` is tested in ``test_reproduce.py``).

Published numbers used as oracles: Risk or Safety (seed 000, Jehn 2026, sections 2-3):
P(0,0,0) = 4/7, 6/11, 2236/4165 and 1026/1925 for targets 2 to 5. A user's own game is
written into ``tmp_path`` by the tests, as a user would write it, and named on the command
line as ``file.py:factory`` or ``module:factory``.
"""

from __future__ import annotations

import json
import sys
import textwrap
import uuid
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from tbsg.games.registry import CATALOG

Run = Callable[..., tuple[int, str, str]]  # the fixture `run` of tests/conftest.py


@pytest.fixture
def own(tmp_path: Path) -> Iterator[Path]:
    """A user's game file, ``<unique name>.py``: a race to ``goal`` points where the mover
    tosses one coin (heads: +1) or two (both heads: +2), heads with probability ``bias``;
    a dataclass (``Race``), a factory function (``make``) and a few broken factories."""
    name = f"own_{uuid.uuid4().hex[:8]}"
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent('''
        from dataclasses import dataclass
        from fractions import Fraction
        import tbsg

        @dataclass(frozen=True)
        class Race:
            goal: int = 2
            bias: Fraction = Fraction(1, 2)

            @property
            def initial(self):
                return (0, 0, 0)

            def player(self, s):
                return s[0]

            def actions(self, s):
                return (1, 2)

            def outcomes(self, s, coins):
                mover, me, them = s
                p = self.bias ** coins
                hit = tbsg.win(mover) if me + coins >= self.goal else (1 - mover, them, me + coins)
                return [(p, hit), (1 - p, (1 - mover, them, me))]

        def coins(s, a):
            return a  # a move tosses `a` coins

        def make(goal=2, fair=True, label: str = "x"):
            return Race(goal, Fraction(1, 2) if fair else Fraction(1, 3))

        class Tiny:
            """Player 0 stops for 1/3**k or tosses for 1/2: a long exact value."""
            def __init__(self, k: int):
                self.k = k
            initial = 0
            def player(self, s): return 0
            def actions(self, s): return ("stop", "toss")
            def outcomes(self, s, a):
                if a == "stop":
                    return [(1, tbsg.Terminal(Fraction(1, 3**self.k)))]
                return [(Fraction(1, 2**self.k), tbsg.win(0)), (1 - Fraction(1, 2**self.k), tbsg.win(1))]

        def not_a_game():
            return 42

        class NoOutcomes:
            initial = 0
            def player(self, s): return 0
            def actions(self, s): return ("stop",)

        def raises(goal: int = 1):
            raise RuntimeError(f"no game for goal {goal}")
    '''), encoding="utf-8")
    yield path
    sys.modules.pop(name, None)


def _api_value(own: Path, factory: str, **kwargs: object) -> Fraction:
    """The value the Python API computes for the game the command line imported from ``own``."""
    import tbsg

    value: Fraction = tbsg.solve(getattr(sys.modules[own.stem], factory)(**kwargs)).value()
    return value


# --- commands and help -------------------------------------------------------------------------

def test_no_command_is_a_usage_error(run: Run) -> None:
    status, _, err = run()
    assert status == 2 and "usage: tbsg [-h] [--version] [-q] COMMAND" in err


def test_version(run: Run) -> None:
    import platform

    from tbsg._version import __version__
    from tbsg.engine._backend import BACKEND

    status, out, _ = run("--version")
    assert status == 0
    assert out == f"tbsg {__version__} (exact arithmetic: {BACKEND}; Python {platform.python_version()})\n"


def test_help_lists_the_commands_and_no_hyphenated_alias(run: Run) -> None:
    status, out, _ = run("--help")
    assert status == 0
    for command in ("list", "solve", "verify", "reproduce", "cite"):
        assert f"    {command}" in out
    assert "-or-" not in out  # the undocumented `risk-or-safety` command is gone
    status, _, err = run("risk-or-safety", "4")
    assert status == 2 and "invalid choice: 'risk-or-safety'" in err


def test_list_shows_every_game_with_parameters(run: Run) -> None:
    status, out, _ = run("list")
    assert status == 0
    for name in CATALOG:
        assert f"{name}(" in out
    assert "unspeakable_words(a: int, b: int, die: int = 6, bust: at_most|less_than = 'at_most')" in out
    assert "tbsg solve path/to/file.py:FACTORY" in out


# --- tbsg solve: what it prints ----------------------------------------------------------------

def test_solve_prints_value_actions_sizes_time_and_certificate(run: Run) -> None:
    # seed 000 (Jehn 2026), section 3.3: n = 5 gives 1026/1925
    status, out, err = run("solve", "risk_or_safety", "--param", "target=5")
    assert status == 0 and err == ""
    lines = dict(line.split(":", 1) for line in out.splitlines())
    assert lines["value to player 0"].strip() == "1026/1925 ≈ 0.532987012987013"
    assert lines["optimal actions"].strip() == "toss"
    assert lines["initial state"].strip() == "RoSState(mover=0, open=0, saved=0, other=0), player 0 to move"
    assert lines["states"].strip() == "150"
    assert "strongly connected (largest" in lines["components"]
    assert lines["time"].strip().split()[1] == "s"
    assert lines["certificate"].strip().startswith("verified: 150 states")


def test_digits_are_exact(run: Run) -> None:
    # 40 significant digits of 1026/1925, by integer division, rounded (no ties: 1925 is odd)
    status, out, _ = run("solve", "risk_or_safety", "-p", "target=5", "--digits", "40")
    assert status == 0
    q, r = divmod(1026 * 10**40, 1925)
    digits = str(q + (2 * r > 1925))
    assert f"1026/1925 ≈ 0.{digits}" in out and len(digits) == 40


def test_solve_float_prints_outward_bounds_and_gap(run: Run) -> None:
    status, out, _ = run("solve", "risk_or_safety", "-p", "target=5", "--float", "--digits", "12")
    assert status == 0
    lines = dict(line.split(":", 1) for line in out.splitlines())
    lo, hi = lines["value to player 0"].split("[")[1].split("]")[0].split(", ")
    assert Fraction(lo) <= Fraction(1026, 1925) <= Fraction(hi)
    assert len(lo.split(".")[1]) == 12 and Fraction(hi) - Fraction(lo) <= Fraction(2, 10**12)
    assert "(--tol 1e-12)" in lines["gap"]
    assert lines["optimal actions"].strip().startswith("toss (certain")


def test_long_values_are_shortened_unless_exact_digits(run: Run, own: Path) -> None:
    game = f"{own}:Tiny"
    status, out, _ = run("solve", game, "-p", "k=250")
    assert status == 0
    value = Fraction(1, 2**250)  # tossing (1/2**250) beats stopping (1/3**250): 78 characters
    assert str(value) not in out
    assert "value to player 0: ≈5.52714787526044e-76 (exact: 76-digit denominator) " \
        "(--exact-digits prints it)" in out
    status, out, _ = run("solve", game, "-p", "k=250", "--exact-digits")
    assert f"value to player 0: {value} ≈ 5.52714787526044e-76" in out
    status, out, _ = run("solve", game, "-p", "k=250", "--format", "md")
    assert f"| value to player 0 | {value} ≈ 5.52714787526044e-76 |" in out
    status, out, _ = run("solve", game, "-p", "k=250", "--format", "json")
    assert json.loads(out)["value"] == str(value)  # machine formats: always in full
    status, out, _ = run("solve", game, "-p", "k=2")
    assert "value to player 0: 1/4 ≈ 0.25" in out  # short values in full


# --- tbsg solve: formats -----------------------------------------------------------------------

@pytest.mark.parametrize(("fmt", "expected"), [
    ("text", "value to player 0: 4/7 ≈ 0.571428571428571"),
    ("md", "| value to player 0 | 4/7 ≈ 0.571428571428571 |"),
    ("latex", "value to player 0 & 4/7 $\\approx$ 0.571428571428571 \\\\"),
    ("csv", "value to player 0,4/7 ≈ 0.571428571428571"),
])
def test_summary_formats(fmt: str, expected: str, run: Run) -> None:
    # seed 000 (Jehn 2026), section 3.1: n = 2 gives 4/7
    status, out, _ = run("solve", "risk_or_safety", "-p", "target=2", "--format", fmt)
    assert status == 0 and expected in out.splitlines()
    if fmt == "latex":  # pdfLaTeX's default input encoding takes no raw ≈
        assert "\\toprule" in out and "\\bottomrule" in out and "≈" not in out


@pytest.mark.parametrize(("fmt", "expected"), [
    ("text", "    0     0      0      0       0    4/7  0.571428571428571            4/7"),
    ("md", "| 0 | 0 | 0 | 0 | 0 | 4/7 | 0.571428571428571 |"),
    ("latex", r"\toprule"),
    ("csv", "0,0,0,0,0,4/7,0.5714285714285714,"),
    ("json", '"value": "4/7"'),
])
def test_table_formats(fmt: str, expected: str, run: Run) -> None:
    status, out, _ = run("solve", "risk_or_safety", "-p", "target=2", "--table", "--format", fmt)
    assert status == 0 and expected in out


@pytest.mark.parametrize("fmt", ["text", "md", "latex", "csv", "json"])
def test_tables_with_decimals_only(fmt: str, run: Run) -> None:
    # seed 000 (Jehn 2026), section 3.1: n = 2 gives 4/7 = 0.571428571...
    status, out, err = run("solve", "risk_or_safety", "-p", "target=2", "--table", "--decimals", "4",
                           "--format", fmt)
    assert status == 0, err
    assert "0.5714" in out and "4/7" not in out and "value_decimal" not in out
    status, _, err = run("solve", "risk_or_safety", "-p", "target=2", "--decimals", "4")
    assert status == 2 and "--decimals N writes the per-state table with decimals only: add --table" in err


def test_text_and_markdown_tables_differ(run: Run) -> None:
    _, text, _ = run("solve", "risk_or_safety", "-p", "target=2", "--table")
    _, md, _ = run("solve", "risk_or_safety", "-p", "target=2", "--table", "--format", "md")
    assert text != md and "|" not in text and md.startswith("| mover | open |")
    assert text.splitlines()[1].startswith("-----  ----")


def test_json_exact(run: Run) -> None:
    status, out, _ = run("solve", "risk_or_safety", "-p", "target=3", "--format", "json")
    assert status == 0
    data = json.loads(out)
    # seed 000 (Jehn 2026), section 2: n = 3 gives 6/11
    assert data["value"] == "6/11" and data["value_decimal"] == "0.545454545454545"
    assert data["parameters"] == {"target": 3} and data["game"] == "risk_or_safety"
    assert data["exact"] is True and data["verified"] is True
    assert data["optimal_actions"] == ["toss"] and data["optimal_actions_certain"] is True
    assert data["states"] == 36 and data["player_to_move"] == 0


def test_no_verify(run: Run) -> None:
    status, out, _ = run("solve", "risk_or_safety", "-p", "target=3", "--no-verify", "--format", "json",
                         "--provenance")
    data = json.loads(out)
    assert status == 0 and data["verified"] is False and data["certificate"] is None
    assert data["provenance"]["certificate"] is None and data["value"] == "6/11"
    _, out, _ = run("solve", "risk_or_safety", "-p", "target=3", "--no-verify")
    assert "certificate:       not re-checked (--no-verify)" in out


def test_json_float_has_bounds_and_gap(run: Run) -> None:
    status, out, _ = run("solve", "pig", "-p", "goal=3", "-p", "die=3", "--float", "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert data["parameters"] == {"goal": 3, "die": 3}  # defaults included, as an object
    assert data["gap"] == data["upper"] - data["lower"] and 0 <= data["gap"] <= 1e-12
    assert data["exact"] is False and data["converged"] is True and data["tol"] == 1e-12
    import tbsg

    exact = tbsg.solve(tbsg.games.pig(3, 3)).value()
    assert data["lower"] <= exact <= data["upper"]
    assert Fraction(data["lower_decimal"]) <= exact <= Fraction(data["upper_decimal"])


def test_provenance(run: Run) -> None:
    status, out, _ = run("solve", "risk_or_safety", "-p", "target=3", "--format", "json", "--provenance")
    assert status == 0
    prov = json.loads(out)["provenance"]
    assert prov["states"] == 36 and len(prov["graph_sha256"]) == 64
    assert prov["certificate"].startswith("verified: 36 states")
    _, out, _ = run("solve", "risk_or_safety", "-p", "target=3", "--provenance")
    assert "\nprovenance:\n  tbsg " in out and f"graph hash: sha256 {prov['graph_sha256']}" in out


# --- tbsg solve: every option checked before solving ----------------------------------------------

@pytest.mark.parametrize(("argv", "message"), [
    (["chess"], "unknown game 'chess': expected a catalog game"),
    (["risk_or_safety"], "risk_or_safety needs target; its parameters are target: int"),
    (["risk_or_safety", "-p", "goal=3"],
     "risk_or_safety has no parameter goal; its parameters are target: int"),
    (["risk_or_safety", "-p", "target=x"], "parameter target must be an integer, got 'x'"),
    (["risk_or_safety", "-p", "target"], "-p/--param takes NAME=VALUE, got 'target'"),
    (["risk_or_safety", "-p", "target=0"],
     "parameter target of risk_or_safety must be an int from 1 to 1,000,000,000, got 0"),
    (["risk_or_safety", "-p", "target=2", "-p", "target=3"],
     "parameter target given twice (-p target=2 and -p target=3)"),
    (["unspeakable_words", "-p", "a=2", "-p", "b=2", "-p", "bust=never"],
     "parameter bust must be one of at_most, less_than; got 'never'"),
    (["risk_or_safety", "-p", "target=3", "--tol", "1e-9"],
     "--tol sets the gap of float bounds: add --float"),
    (["risk_or_safety", "-p", "target=3", "--float", "--tol", "-1"], "argument --tol: must be a positive"),
    (["risk_or_safety", "-p", "target=3", "--float", "--tol", "0"], "argument --tol: must be a positive"),
    (["risk_or_safety", "-p", "target=3", "--float", "--tol", "nan"], "argument --tol: must be a positive"),
    (["risk_or_safety", "-p", "target=3", "--float", "--tol", "inf"], "argument --tol: must be a positive"),
    (["risk_or_safety", "-p", "target=3", "--float", "--tol", "tiny"], "argument --tol: expected a positive"),
    (["risk_or_safety", "-p", "target=3", "--float", "--save", "x.json"], "--save writes exact solutions"),
    (["risk_or_safety", "-p", "target=3", "--max-states", "0"], "argument --max-states: must be at least 1"),
    (["risk_or_safety", "-p", "target=3", "--digits", "0"], "argument --digits: must be at least 1"),
    (["risk_or_safety", "-p", "target=3", "--format", "md", "--exact-digits"],
     "--exact-digits is for --format text"),
    (["risk_or_safety", "-p", "target=3", "--format", "html"], "argument --format: invalid choice"),
    (["risk_or_safety", "-p", "target=3", "--float", "--no-verify"],
     "--no-verify skips the exact certificate"),
    (["risk_or_safety", "-p", "target=3", "--save", "/no/such/dir/x.json"],
     "--save /no/such/dir/x.json: no directory '/no/such/dir'"),
    (["risk_or_safety", "-p", "target=3", "--count", "m:f"],
     "--count says what a step of play counts: add --play"),
    (["risk_or_safety", "-p", "target=3", "--play", "--table"], "--play adds lines to the summary"),
    (["risk_or_safety", "-p", "target=3", "--play", "--count", "tosses"],
     "--count 'tosses': expected MODULE:FUNCTION or path/to/file.py:FUNCTION"),
    (["risk_or_safety", "-p", "target=3", "--play", "--count", "no_such_module_x:f"],
     "cannot import module 'no_such_module_x'"),
])
def test_usage_errors_show_the_subcommand_usage_and_an_example(argv: list[str], message: str,
                                                               run: Run, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = run("solve", *argv)
    assert status == 2 and out == ""
    assert err.startswith("usage: tbsg solve ") and "usage: tbsg [-h] COMMAND" not in err
    assert f"tbsg solve: error: {message}" in err
    assert err.rstrip().splitlines()[-1].startswith("example: tbsg solve ")
    assert "Traceback" not in err
    assert not (tmp_path / "x.json").exists()  # refused before solving or saving


def test_state_limit_is_one_line(run: Run) -> None:
    status, _, err = run("solve", "risk_or_safety", "-p", "target=3", "--max-states", "5")
    assert status == 1
    assert err.strip() == ("tbsg solve: error: more than max_states=5 reachable states" + err.strip().split(
        "more than max_states=5 reachable states", 1)[1]) and "\n" not in err.strip()


def test_unreachable_tolerance_is_not_a_silent_success(run: Run) -> None:
    # 1e-300 is far below what float bounds can prove: never exit status 0 without a word
    status, _, err = run("solve", "risk_or_safety", "-p", "target=3", "--float", "--tol", "1e-300")
    assert status == 1 and "tol" in err and "Traceback" not in err


# --- a game of one's own -----------------------------------------------------------------------

def test_own_game_from_a_file_solve_save_verify(run: Run, own: Path, tmp_path: Path) -> None:
    saved = tmp_path / "race.json"
    status, out, err = run("solve", f"{own}:Race", "-p", "goal=3", "-p", "bias=1/3", "--save", str(saved))
    assert status == 0, err
    value = _api_value(own, "Race", goal=3, bias=Fraction(1, 3))
    assert f"value to player 0: {value} ≈ " in out and f"saved to {saved}" in out
    assert "game:              Race(goal=3, bias=Fraction(1, 3))" in out
    # the saved file names the game's module and class; --game names where it lives
    status, out, err = run("verify", str(saved), "--game", f"{own}:Race")
    assert status == 0, err
    assert "graph hash matches; verified: 18 states" in out
    # a factory function with parameters works too (it builds the same game)
    status, out, err = run("verify", str(saved), "--game", f"{own}:make", "-p", "goal=3", "-p", "fair=no")
    assert status == 0, err


def test_own_game_json_parameters(run: Run, own: Path) -> None:
    status, out, _ = run("solve", f"{own}:make", "-p", "fair=false", "--format", "json")
    assert status == 0
    data = json.loads(out)
    # fair takes the type of its default (a bool); defaults are included
    assert data["parameters"] == {"fair": False, "goal": 2, "label": "x"}
    assert data["game_repr"] == "Race(goal=2, bias=Fraction(1, 3))"
    assert data["value"] == str(_api_value(own, "Race", goal=2, bias=Fraction(1, 3)))


def test_own_game_as_module_factory(run: Run, own: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(own.parent)  # module:factory imports from the current directory
    status, out, err = run("solve", f"{own.stem}:Race", "--format", "json")
    assert status == 0, err
    assert json.loads(out)["value"] == "4/7"  # the README's race: first to 2 points, fair coins
    # saved: a module's code is run again only when named (--game) or trusted (--import-game)
    assert run("solve", f"{own.stem}:make", "-p", "goal=3", "--save", "race.json")[0] == 0
    status, _, err = run("verify", "race.json")
    assert status == 2 and f"built by {own.stem}:make -p goal=3, whose code lies in a module" in err
    for extra in (["--game", f"{own.stem}:make"], ["--import-game"]):
        status, out, err = run("verify", "race.json", *extra)
        assert status == 0 and "graph hash matches; verified" in out, err


def test_edited_file_is_rejected(run: Run, own: Path, tmp_path: Path) -> None:
    saved = tmp_path / "race.json"
    assert run("solve", f"{own}:Race", "--save", str(saved))[0] == 0
    data = json.loads(saved.read_text())
    dens = data["denominators"]  # format 4: a row's value is numerator / denominators[index]
    row = next(r for r in data["states"][1:] if dens[r[2]] != "1")  # not the initial state
    value = Fraction(int(row[1]), int(dens[row[2]])) + Fraction(1, 10**9)
    dens.append(str(value.denominator))
    row[1:3] = [str(value.numerator), len(dens) - 1]
    saved.write_text(json.dumps(data))
    status, _, err = run("verify", str(saved), "--game", f"{own}:Race")
    assert status == 1 and err.startswith(f"tbsg verify: REJECTED {saved}: (a) fails at state")


def test_game_that_cannot_be_had_cannot_be_checked(run: Run, own: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    saved = tmp_path / "race.json"
    assert run("solve", f"{own}:Race", "--save", str(saved))[0] == 0
    # a file recording no factory (tbsg.save from Python), no --game: outside tbsg, not imported
    # without permission
    bare = tmp_path / "bare.json"
    data = json.loads(saved.read_text())
    assert data["game"]["factory"] == {"name": f"{own.name}:Race", "arguments": {}}
    data["game"]["factory"] = None
    bare.write_text(json.dumps(data))
    status, _, err = run("verify", str(bare))
    assert status == 2 and "CANNOT CHECK" in err and f"--game path/to/{own.stem}.py:Race" in err
    # the factory it records lies outside the file's folder: not run without being told
    (tmp_path / "out").mkdir()
    elsewhere = tmp_path / "out" / "race.json"
    assert run("solve", f"{own}:Race", "--save", str(elsewhere))[0] == 0
    monkeypatch.chdir(tmp_path)  # --game names the code from the current directory
    status, _, err = run("verify", str(elsewhere))
    assert status == 2 and "CANNOT CHECK" in err
    assert f"--game {own.name}:Race (the file's parameters" in err
    assert run("verify", str(elsewhere), "--game", f"{own.name}:Race")[0] == 0  # as suggested
    # the module the file names is not importable from here
    data = json.loads(saved.read_text())
    data["game"]["module"], data["game"]["factory"] = "no_such_module_anywhere", None
    moved = tmp_path / "moved.json"
    moved.write_text(json.dumps(data))
    status, _, err = run("verify", str(moved), "--import-game")
    assert status == 2 and "CANNOT CHECK" in err and "No module named 'no_such_module_anywhere'" in err
    assert "REJECTED" not in err
    # other parameters than the file's, or another class
    status, _, err = run("verify", str(saved), "--game", f"{own}:Race", "-p", "goal=5")
    assert status == 2 and "the game given has {'goal': 5" in err
    status, _, err = run("verify", str(saved), "--game", f"{own}:Tiny", "-p", "k=2")
    assert status == 2 and f"the file is for {own.stem}.Race, the game given is {own.stem}.Tiny" in err
    # --import-game from the game's directory: the recorded module is found there
    monkeypatch.chdir(own.parent)
    status, out, err = run("verify", str(saved), "--import-game")
    assert status == 0 and "graph hash matches; verified" in out, err


def test_verify_missing_file_cannot_be_checked(run: Run, tmp_path: Path) -> None:
    status, _, err = run("verify", str(tmp_path / "none.json"))
    assert status == 2 and err.strip() == f"tbsg verify: CANNOT CHECK {tmp_path / 'none.json'}: no such file"


@pytest.mark.parametrize(("argv", "message"), [
    (["--game", "x.py:Race", "--import-game"], "--game and --import-game do not combine"),
    (["-p", "goal=3"], "-p/--param gives parameters of --game GAME; add --game"),
])
def test_verify_usage_errors(argv: list[str], message: str, run: Run) -> None:
    status, _, err = run("verify", "file.json", *argv)
    assert status == 2 and err.startswith("usage: tbsg verify ") and message in err
    assert "example: tbsg verify" in err


@pytest.mark.parametrize(("factory", "params", "message"), [
    ("Nope", [], "FILE has no 'Nope'; it defines NoOutcomes, Race, Tiny, coins, make, not_a_game, raises"),
    ("not_a_game", [], "FILE:not_a_game() returned int 42, not a game (no initial, actions, outcomes; "
                       "a game has initial"),
    ("NoOutcomes", [], "FILE:NoOutcomes() returned NoOutcomes <"),
    ("raises", ["goal=7"], "FILE:raises(goal=7) raised RuntimeError: no game for goal 7"),
    ("Tiny", [], "FILE:Tiny needs k; its parameters are k: int"),
    ("Tiny", ["k=1/2"], "parameter k must be an integer, got '1/2'"),
    ("make", ["fair=maybe"], "parameter fair must be true or false, got 'maybe'"),
])
def test_broken_factories_and_parameters_are_usage_errors(factory: str, params: list[str], message: str,
                                                          run: Run, own: Path) -> None:
    argv = ["solve", f"{own}:{factory}"] + [x for p in params for x in ("-p", p)]
    status, _, err = run(*argv)
    assert status == 2 and "Traceback" not in err
    assert f"tbsg solve: error: {message.replace('FILE', str(own))}" in err
    if factory == "NoOutcomes":
        assert "not a game (no outcomes; a game has initial" in err


def test_file_with_a_syntax_error(run: Run, tmp_path: Path) -> None:
    bad = tmp_path / f"broken_{uuid.uuid4().hex[:8]}.py"
    bad.write_text("class Game:\n    def initial(self)\n")
    status, _, err = run("solve", f"{bad}:Game")
    assert status == 2 and "raised SyntaxError (line 2)" in err and "Traceback" not in err
    sys.modules.pop(bad.stem, None)


def test_no_file_and_no_factory(run: Run, tmp_path: Path) -> None:
    status, _, err = run("solve", f"{tmp_path}/missing.py:Game")
    assert status == 2 and "no file" in err
    status, _, err = run("solve", "game.py")
    assert status == 2 and "name its factory: game.py:FACTORY" in err


def test_catalog_solution_still_verifies_without_game(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "race.json"
    assert run("solve", "the_race", "-p", "goal=5", "--save", str(path))[0] == 0
    status, out, _ = run("verify", str(path), "--provenance")
    assert status == 0 and "graph hash matches; verified" in out
    assert "certificate: verified:" in out and "graph hash: sha256 " in out


def test_verify_own_game_with_import(run: Run, tmp_path: Path) -> None:
    import tbsg
    from oracles import Wait

    path = f"{tmp_path}/wait.json"
    tbsg.save(tbsg.solve(Wait(), infinite_play=0), path)
    status, _, err = run("verify", path)
    assert status == 2 and "--import-game" in err
    status, out, _ = run("verify", path, "--import-game")
    assert status == 0 and "end-component bounds for infinite play worth 0" in out


@pytest.fixture
def lobby(tmp_path: Path) -> Iterator[Path]:
    """The guide's Lobby (docs/guide.md, section 5): wait for ever or leave for a draw; a
    plain class, not a dataclass, with no parameters."""
    name = f"lobby_{uuid.uuid4().hex[:8]}"
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent("""
        import tbsg

        class Lobby:
            initial = "lobby"
            def player(self, s): return 0
            def actions(self, s): return ("wait", "leave")
            def outcomes(self, s, a): return [(1, "lobby" if a == "wait" else tbsg.DRAW)]
    """), encoding="utf-8")
    yield path
    sys.modules.pop(name, None)


def test_games_that_need_not_end(run: Run, lobby: Path, tmp_path: Path) -> None:
    # the guide: never-ending play worth 0 makes leaving optimal, worth 1 waiting; 1/2: value 1/2
    status, _, err = run("solve", f"{lobby}:Lobby")
    assert status == 1 and "not stopping" in err and "--infinite-play C" in err
    for c, action in (("0", "leave"), ("1", "wait")):
        status, out, _ = run("solve", f"{lobby}:Lobby", "--infinite-play", c, "--format", "json")
        data = json.loads(out)
        assert status == 0 and data["optimal_actions"] == [action] and data["verified"] is True
        assert data["game_repr"] == f"{lobby}:Lobby()"  # a class without a repr of its own
    saved = tmp_path / "lobby.json"
    status, out, _ = run("solve", f"{lobby}:Lobby", "--infinite-play", "1/2", "--save", str(saved))
    assert status == 0 and "value to player 0: 1/2 ≈ 0.5" in out
    # not a dataclass: --game builds it (no parameters) instead of reading fields from the file
    status, out, err = run("verify", str(saved), "--game", f"{lobby}:Lobby")
    assert status == 0 and "end-component bounds for infinite play worth 1/2" in out, err
    for bad, message in ((["--infinite-play", "2"], "argument --infinite-play: expected an exact payoff"),
                         (["--infinite-play", "0.5", "--float"], "--infinite-play needs an exact solve")):
        status, _, err = run("solve", f"{lobby}:Lobby", *bad)
        assert status == 2 and message in err


# --- tbsg cite ---------------------------------------------------------------------------------

def test_cite(run: Run) -> None:
    status, out, _ = run("cite")
    assert status == 0 and "BibTeX:\n@software{tbsg," in out and "\nAPA:\nThe tbsg developers. (" in out
    status, out, _ = run("cite", "--format", "apa")
    assert out.startswith("The tbsg developers. (") and "@software" not in out


def test_table_json_with_values_beyond_the_digit_limit() -> None:
    # exact values of more than 4,300 digits print in full in JSON tables
    from tbsg.cli._report import _json

    big = Fraction(1, 3**9100)
    assert str(_json(big)).endswith(str(3**9100 % 10**20))


def test_play_summary_of_an_own_game_with_a_count(run: Run, own: Path) -> None:
    import json

    import tbsg

    status, out, err = run("solve", f"{own}:make", "-p", "goal=2", "--play", "--count", f"{own}:coins")
    assert status == 0 and err == ""
    module = sys.modules[own.stem]
    game = module.make(goal=2)
    c = tbsg.chain(game, tbsg.solve(game))
    mean = c.expected_steps(module.coins)
    assert "play: expected count:" in out and str(mean) in out
    assert "play: outcomes:" in out and "player 0 wins" in out and "player 1 wins" in out
    assert "play: optimal play, count: fastest" in out
    status, out, _ = run("solve", f"{own}:make", "-p", "goal=2", "--play", "--format", "json")
    play = json.loads(out)["play"]
    assert status == 0 and play["unit"] == "moves"
    assert Fraction(play["expected"]) == c.expected_steps()
    assert sum(Fraction(q) for q in play["outcomes"].values()) == 1
    status, out, _ = run("solve", f"{own}:make", "-p", "goal=2", "--play", "--float", "--format", "json")
    lo, hi = json.loads(out)["play"]["expected"]
    assert status == 0 and lo <= c.expected_steps() <= hi


# --- games that pay rewards --------------------------------------------------------------------

@pytest.fixture
def sixes(tmp_path: Path) -> Iterator[Path]:
    """A user's reward game: player 1 rolls a die until it shows a six, paying 1 per roll,
    or quits paying ``quit`` at once (she minimises the expected total)."""
    name = f"sixes_{uuid.uuid4().hex[:8]}"
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent('''
        from dataclasses import dataclass
        from fractions import Fraction
        import tbsg

        @dataclass(frozen=True)
        class Sixes:
            quit: int = 4
            initial = "rolling"

            def player(self, s):
                return 1

            def actions(self, s):
                return ("roll", "quit")

            def reward(self, s, a):
                return 1 if a == "roll" else self.quit

            def outcomes(self, s, a):
                if a == "quit":
                    return [(1, tbsg.Terminal(0))]
                return [(Fraction(1, 6), tbsg.Terminal(0)), (Fraction(5, 6), "rolling")]
    '''), encoding="utf-8")
    yield path
    sys.modules.pop(name, None)


def test_a_reward_game_reports_expected_payoffs(run: Run, sixes: Path) -> None:
    """Hand derivation: rolling until a six takes 6 rolls on average (geometric, success
    1/6); quitting costs 4 (value 4, she quits), or 7 (value 6, she rolls)."""
    status, out, err = run("solve", f"{sixes}:Sixes")
    assert status == 0 and err == ""
    lines = dict(line.split(":", 1) for line in out.splitlines())
    assert lines["expected payoff to player 0"].strip() == "4" and "value to player 0" not in lines
    assert lines["optimal actions"].strip() == "quit"
    assert lines["certificate"].strip().startswith("verified: 1 states")
    status, out, _ = run("solve", f"{sixes}:Sixes", "-p", "quit=7", "--format", "json")
    data = json.loads(out)
    assert status == 0 and data["value"] == "6" and data["win_probability"] is False
    status, out, _ = run("solve", f"{sixes}:Sixes", "--table")
    head, _, row = out.splitlines()
    assert "expected payoff" in head and "expected payoff to move" in head and " value" not in head
    assert row.split()[:6] == ["rolling", "1", "4", "4", "-4", "-4"]  # hers: -v (zero-sum)
    status, out, _ = run("solve", f"{sixes}:Sixes", "--play")
    assert "play: outcomes:" in out and "payoff 0 1" in out and "wins" not in out
    assert "play: rewards collected:     4 (expected, to player 0)" in out  # she quits: 4


def test_a_one_player_game_without_player_from_a_file(run: Run, tmp_path: Path) -> None:
    """A game may omit ``player`` (player 0's alone). Hand derivation: one die, banking the
    turn total, a 1 loses it, banking forced from 3 on with a 3-sided die (faces 1-3): at 2,
    rolling is worth (1/3)(0) + (1/3)(4) + (1/3)(5) = 3 > 2; at 0, rolling is worth
    (1/3)(0) + (1/3)(3) + (1/3)(3) = 2."""
    name = f"turn_{uuid.uuid4().hex[:8]}"
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent('''
        from fractions import Fraction
        import tbsg

        class Turn:
            initial = 0
            def actions(self, t):
                return ("bank",) if t >= 3 else ("roll",) if t == 0 else ("bank", "roll")
            def reward(self, t, a):
                return t if a == "bank" else 0
            def outcomes(self, t, a):
                if a == "bank":
                    return [(1, tbsg.Terminal(0))]
                third = Fraction(1, 3)
                return [(third, tbsg.Terminal(0)), (third, t + 2), (third, t + 3)]
    '''), encoding="utf-8")
    try:
        status, out, err = run("solve", f"{path}:Turn")
        assert status == 0, err
        lines = dict(line.split(":", 1) for line in out.splitlines())
        assert lines["expected payoff to player 0"].strip() == "2"
        status, out, err = run("solve", f"{path}:Turn", "--float")
        assert status == 0, err
        assert "expected payoff to player 0: in [" in out
    finally:
        sys.modules.pop(name, None)


def test_a_win_game_keeps_its_labels(run: Run) -> None:
    status, out, _ = run("solve", "risk_or_safety", "-p", "target=2", "--format", "json")
    assert status == 0 and json.loads(out)["win_probability"] is True
    _, table, _ = run("solve", "risk_or_safety", "-p", "target=2", "--table")
    assert "expected payoff" not in table and table.split()[5:7] == ["value", "value_decimal"]


def test_a_reward_game_saved_and_verified(run: Run, sixes: Path, tmp_path: Path) -> None:
    saved = tmp_path / "sixes.json"
    status, out, err = run("solve", f"{sixes}:Sixes", "-p", "quit=7", "--save", str(saved))
    assert status == 0, err
    assert "expected payoff to player 0: 6" in out and f"saved to {saved}" in out
    status, out, err = run("verify", str(saved), "--game", f"{sixes}:Sixes", "-p", "quit=7")
    assert status == 0, err
    assert "verified: 1 states" in out
    status, _, err = run("verify", str(saved), "--game", f"{sixes}:Sixes", "-p", "quit=5")
    assert status == 2 and "the file is for Sixes with fields {'quit': 7}" in err  # another game


# --- numbers on the command line: bounded digits, exponents and declared ranges ----------------

def test_number_texts_up_to_the_digit_bound() -> None:
    from tbsg.cli._games import MAX_DIGITS, Parameter, convert_text
    from tbsg.errors import InvalidArgumentError

    n = Parameter("n", int, 1)
    assert n.convert("7" * MAX_DIGITS) == int("7" * MAX_DIGITS)  # Python's own limit, 4300 digits
    assert n.convert("-12") == -12
    with pytest.raises(InvalidArgumentError, match="parameter n must be an integer of at most 4,300 digits, "
                                                   "got 4,301 digits"):
        n.convert("7" * (MAX_DIGITS + 1))
    q = Parameter("q", Fraction, Fraction(1, 2))
    assert q.convert("1/" + "3" * MAX_DIGITS) == Fraction(1, int("3" * MAX_DIGITS))
    assert (q.convert("0.25e-3"), q.convert("2.5e3"), q.convert("-.5"), q.convert("3.")) == \
        (Fraction(1, 4000), 2500, Fraction(-1, 2), 3)
    assert q.convert(f"1.0e-{MAX_DIGITS}") == Fraction(1, 10**MAX_DIGITS)
    assert q.convert("1.0e-0000000000000000000000000000001") == Fraction(1, 10)
    for text in (f"1.0e{MAX_DIGITS + 1}", "1.0e-" + "9" * 50):
        with pytest.raises(InvalidArgumentError, match="of at most 4,300 digits \\(and an exponent of at "
                                                       "most 4,300\\), got the exponent"):
            q.convert(text)
    with pytest.raises(InvalidArgumentError, match=r"exact rational such as 1/3 or 0.25 \(not a zero"):
        q.convert("1/0")
    with pytest.raises(InvalidArgumentError, match="parameter q must be an exact rational such as"):
        q.convert("1e5")  # an exponent needs a decimal point
    x = Parameter("x", float, 0.5)
    assert x.convert("2.5e-3") == 0.0025
    for text in ("inf", "nan", "1e999"):
        with pytest.raises(InvalidArgumentError, match="parameter x must be a finite number"):
            x.convert(text)
    with pytest.raises(InvalidArgumentError, match="at most 4,300 characters"):
        x.convert("1" * 5000)
    # a union tries its members: a long number fits str; int | None says why it does not fit
    assert Parameter("u", int | str, 1).convert("9" * 5000) == "9" * 5000
    with pytest.raises(InvalidArgumentError, match="parameter o must be an integer of at most 4,300"):
        Parameter("o", int | None, None).convert("9" * 5000)
    assert (convert_text("1/0"), convert_text("true"), convert_text("1.5e2")) == ("1/0", True, 150)
    with pytest.raises(InvalidArgumentError, match="the value must be a number of at most"):
        convert_text("9" * 5000)
    # bools and Literal choices are unchanged, their messages shortened
    assert Parameter("b", bool, True).convert("no") is False
    with pytest.raises(InvalidArgumentError, match=r"parameter b must be true or false, got 'y+…\(4946 more"):
        Parameter("b", bool, True).convert("y" * 5000)


@pytest.mark.parametrize(("argv", "message"), [
    (["pig", "-p", "die=100001"], "parameter die of pig must be an int from 2 to 100,000, got 100001"),
    (["super_six", "-p", "k=2", "-p", "l=2", "-p", "lid=6"],
     "parameter lid of super_six must be an int from 0 to 5, got 6"),
    (["risk_or_safety", "-p", f"target={'5' * 30}"],
     "parameter target of risk_or_safety must be an int from 1 to 1,000,000,000, got 5555"),
    (["unspeakable_words", "-p", "a=2", "-p", "b=2", "-p", f"bust={'x' * 500}"],
     "parameter bust must be one of at_most, less_than; got 'xxxxxxx"),
    (["risk_or_safety", "-p", "target=2", "--max-states", "9" * 5000],
     "argument --max-states: must be an integer of at most 20 digits, got '999"),
    (["risk_or_safety", "-p", "target=2", "--infinite-play", "1/" + "3" * 5000],
     "argument --infinite-play: the payoff must be a number of at most 4,300 digits"),
])
def test_catalog_ranges_and_long_values_are_usage_errors(argv: list[str], message: str, run: Run) -> None:
    status, out, err = run("solve", *argv)
    assert status == 2 and out == "" and "Traceback" not in err
    (line,) = [x for x in err.splitlines() if x.startswith("tbsg solve: error: ")]
    assert line.startswith(f"tbsg solve: error: {message}") and len(line) < 300


def test_catalog_make_bounds_digits_and_ranges() -> None:
    from tbsg.errors import InvalidGameError

    with pytest.raises(InvalidGameError, match="parameter goal must be an integer of at most 4,300 digits"):
        CATALOG["pig"].make({"goal": "1" * 5000})
    with pytest.raises(InvalidGameError, match="parameter die of pig must be an int from 2 to 100,000, got "
                                               "1000000"):
        CATALOG["pig"].make({"goal": "3", "die": "1000000"})
    assert CATALOG["super_six"].make({"k": "2", "l": "3", "lid": "5"}).lid == 5


# --- a game that carries its parameters: saved by the command line, verified from the file alone --

_DUEL = '''
from fractions import Fraction
import tbsg

class TwoDiceDuel:
    """Players alternate; the mover adds 1 point (safe) or, on a fair coin, 3 points or none
    (risky); the first to `goal` points wins. A plain class{reports}."""
    def __init__(self, goal=20):
        self.goal = goal
        self.initial = (0, 0, 0)
    {method}
    def player(self, s):
        return s[0]
    def actions(self, s):
        return ("safe", "risky")
    def outcomes(self, s, a):
        mover, mine, theirs = s
        def after(gain):
            return tbsg.win(mover) if mine + gain >= self.goal else (1 - mover, theirs, mine + gain)
        if a == "safe":
            return [(1, after(1))]
        return [(Fraction(1, 2), after(3)), (Fraction(1, 2), after(0))]

def duel(goal: int = 20):
    return TwoDiceDuel(goal)
'''


@pytest.fixture(params=["no parameters()", "parameters()"])
def mygame(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """``mygame_<unique>.py`` in ``tmp_path`` (the current directory): the issue's dice duel,
    a plain class built by the factory ``duel``, with and without a ``parameters()`` method."""
    method = "def parameters(self): return {'goal': self.goal}" if request.param == "parameters()" else ""
    reports = " with parameters()" if method else " without a repr or parameters of its own"
    name = f"mygame_{uuid.uuid4().hex[:8]}"
    path = tmp_path / f"{name}.py"
    path.write_text(_DUEL.format(method=method, reports=reports), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    yield path
    sys.modules.pop(name, None)


def test_own_game_parameters_are_saved_and_verified_from_the_file_alone(
        run: Run, mygame: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tbsg

    spec = f"./{mygame.name}:duel"
    status, out, err = run("solve", spec, "-p", "goal=4", "--save", "f.json", "--provenance")
    assert status == 0, err
    # the value the Python API computes for duel(goal=4): the command line solved that game
    value = tbsg.solve(sys.modules[mygame.stem].duel(goal=4)).value()
    assert f"value to player 0: {value} ≈ " in out
    assert f"  built by: {spec} -p goal=4\n" in out and " at 0x" not in out
    record = json.loads((tmp_path / "f.json").read_text())["game"]
    assert record["factory"] == {"name": f"{mygame.name}:duel", "arguments": {"goal": "4"}}
    # the file alone rebuilds the same game: its factory and parameters are in it
    status, out, err = run("verify", "f.json", "--provenance")
    assert status == 0, err
    assert out.startswith(f"f.json: {mygame.name}:duel -p goal=4, solve, value {value} ")
    assert " at 0x" not in out
    assert f"built by: {mygame.name}:duel -p goal=4\n" in out
    assert "graph hash matches; verified" in out
    # --game only points at the code; the parameters come from the file
    status, out, err = run("verify", "f.json", "--game", spec)
    assert status == 0 and "graph hash matches; verified" in out, err
    # from another folder: the recorded path is relative to the file's folder
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    status, out, err = run("verify", str(tmp_path / "f.json"))
    assert status == 0 and "graph hash matches; verified" in out, err


def test_provenance_names_the_parameters_a_game_reports(run: Run, mygame: Path) -> None:
    status, out, err = run("solve", f"./{mygame.name}:duel", "-p", "goal=3", "--provenance")
    assert status == 0, err
    reports = "parameters(self)" in mygame.read_text()
    game_line = next(line for line in out.splitlines() if line.startswith("  game: "))
    if reports:
        assert game_line.startswith("  game: TwoDiceDuel(goal=3) (")
    else:  # named by its class, never its address; the factory line names the parameters
        assert game_line.startswith("  game: TwoDiceDuel (its parameters are not recorded")
    assert " at 0x" not in out


def test_import_game_of_a_class_without_parameters_answers_in_options(
        run: Run, lobby: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tbsg

    monkeypatch.chdir(lobby.parent)
    assert run("solve", f"{lobby}:Lobby", "--infinite-play", "1/2")[0] == 0  # imports the module
    saved = tmp_path / "lobby.json"
    tbsg.save(tbsg.solve(sys.modules[lobby.stem].Lobby(), infinite_play=Fraction(1, 2)), saved)
    status, _, err = run("verify", str(saved), "--import-game")
    assert status == 2 and "CANNOT CHECK" in err
    assert f"name it with --game path/to/{lobby.stem}.py:Lobby -p NAME=VALUE" in err
    assert "game=" not in err  # the Python API's advice is not the command line's


# --- one tie rule: exact and float --play report the same profile and count its ties ----------

def test_exact_and_float_play_report_the_same_profile_and_its_ties(run: Run, tmp_path: Path) -> None:
    """Coinball with 5 tosses has exact ties between "rush" and "pass" (the example of
    tbsg.engine.tiebreak), and the number of passes play calls depends on them: both paths
    play the first optimal action in the game's order, so the exact count of passes lies
    in the float bounds, and both say how many states are tied."""
    import tbsg
    from tbsg.games import coinball

    count = tmp_path / f"count_{uuid.uuid4().hex[:8]}.py"
    count.write_text("def passes(state, action):\n    return 1 if action == 'pass' else 0\n")
    argv = ("solve", "coinball", "-p", "tosses=5", "--play", "--count", f"{count}:passes")
    status, exact_out, err = run(*argv)
    assert status == 0, err
    status, float_out, err = run(*argv, "--float")
    assert status == 0, err
    sol = tbsg.solve(coinball(5))
    tied = sol.tied_states()
    assert tied > 0
    assert f"play: ties: {tied} decision state(s) with more than one action optimal; the strategy " \
           "plays the first in the game's order" in " ".join(exact_out.split())
    assert f"play: ties: {tied} decision state(s) with more than one action not ruled out by the " \
           "bounds" in " ".join(float_out.split())
    # the fastest and slowest optimal figures differ, and the exact output says the figure depends on it
    assert "depends on the tied choices" in exact_out
    assert "for the tie rule's choice of action" in float_out
    status, out, _ = run(*argv, "--format", "json")
    exact_play = json.loads(out)["play"]
    status, out, _ = run(*argv, "--float", "--format", "json")
    float_play = json.loads(out)["play"]
    assert exact_play["tied_states"] == float_play["tied_states"] == tied
    lo, hi = float_play["expected"]
    assert lo <= Fraction(exact_play["expected"]) <= hi
    assert Fraction(exact_play["fastest"]) < Fraction(exact_play["slowest"])
