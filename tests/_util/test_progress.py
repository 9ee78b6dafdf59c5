"""``tbsg._util.progress``: long runs report on a stderr that is not a terminal, throttled.

The settings (:data:`DELAY`, :data:`INTERVAL`, :data:`tbsg.engine.compile.REPORT_EVERY`) are
lowered here so that a game of a thousand states is a "long" run: the tests stay well under
a second while taking the same code path as an enumeration of millions of states. pytest's
captured stderr is not a terminal, so the plain lines are what is shown.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
import sympy

import tbsg
import tbsg.engine.compile
from tbsg._util import progress
from tbsg.cli import main
from tbsg.errors import StateLimitError
from tbsg.games import biased_risk_or_safety, risk_or_safety
from tbsg.parametric import solve_parametric


@pytest.fixture
def eager(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every report shown at once: no delay, no throttle, a report every 64 states, and
    no boxes (an enumeration of millions of states finds them wave by wave, not from
    boxes of cells in one batch: tbsg.engine.compile.arrays)."""
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.0)
    monkeypatch.setattr(tbsg.engine.compile, "REPORT_EVERY", 64)
    monkeypatch.setattr(tbsg.engine.compile.arrays, "SPECULATE", 0)


@pytest.mark.usefixtures("eager")
def test_a_long_enumeration_prints_lines_to_a_stderr_that_is_not_a_terminal(
        capsys: pytest.CaptureFixture[str]) -> None:
    # risk_or_safety(10) has 1,100 states (tests/games): reports at 65, 129, ... found
    tbsg.solve(risk_or_safety(10), exact=False)
    err = capsys.readouterr().err
    found = [int(n.replace(",", "")) for n in re.findall(r"^tbsg: enumerating: ([\d,]+) states found "
                                                          r"\([\d,]+ states/s\), \d+ s$", err, re.M)]
    assert len(found) >= 10 and found == sorted(found) and found[-1] <= 1100
    assert re.search(r"^tbsg: float solve: [\d,]+ of 1,100 states done \(\d+%\)", err, re.M)
    assert "the limit of" not in err  # 1,100 states are far below the default limit


@pytest.mark.usefixtures("eager")
def test_verification_reports_the_states_claimed(capsys: pytest.CaptureFixture[str]) -> None:
    sol = tbsg.solve(risk_or_safety(10), progress=False)
    assert tbsg.verify(risk_or_safety(10), sol).states == 1100
    err = capsys.readouterr().err
    line = r"^tbsg: verifying: enumerating: [\d,]+ of 1,100 states done \(\d+%\), \d+ s$"
    assert re.search(line, err, re.M)
    assert tbsg.verify(risk_or_safety(10), sol, progress=False).states == 1100
    assert capsys.readouterr().err == ""


def test_a_short_run_prints_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    # the default delay: a solve of a few milliseconds stays silent (published value from
    # seed 000 (Jehn 2026), section 3.3: 2236/4165)
    assert tbsg.solve(risk_or_safety(4)).value() == Fraction(2236, 4165)
    assert capsys.readouterr().err == ""


def test_lines_are_throttled(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 3600.0)
    report, close = progress.make_progress(None, "counting")
    assert report is not None
    for done in range(1, 1001):
        report(done, 1000)
    close()
    assert capsys.readouterr().err == "tbsg: counting: 1 of 1,000 states done (0%), 0 s\n"


@pytest.mark.usefixtures("eager")
def test_progress_false_and_quiet_silence_every_report(capsys: pytest.CaptureFixture[str]) -> None:
    sol = tbsg.solve(risk_or_safety(10), progress=False)
    tbsg.evaluate(risk_or_safety(10), sol, progress=False)
    tbsg.chain(risk_or_safety(10), sol, progress=False)
    tbsg.verify(risk_or_safety(10), sol, progress=False)
    assert capsys.readouterr().err == ""
    with progress.quiet():
        tbsg.solve(risk_or_safety(10), progress=True)
    assert capsys.readouterr().err == ""
    tbsg.solve(risk_or_safety(10), progress=True)  # and the switch is off again
    assert "tbsg: exact solve:" in capsys.readouterr().err


@pytest.mark.usefixtures("eager")
@pytest.mark.parametrize("where", ["after", "before"])
def test_quiet_on_the_command_line(capsys: pytest.CaptureFixture[str], where: str) -> None:
    args = ["solve", "risk_or_safety", "-p", "target=10", "--no-verify"]
    assert main(args) == 0
    assert "tbsg: enumerating:" in capsys.readouterr().err
    assert main([*args, "--quiet"] if where == "after" else ["--quiet", *args]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "value to player 0:" in out


@pytest.mark.usefixtures("eager")
def test_an_enumeration_heading_for_the_limit_says_so_early(capsys: pytest.CaptureFixture[str]) -> None:
    # 27,900 states (risk_or_safety(30)) against a limit of 20,000: the warning comes once,
    # when a tenth of the limit is found, long before the refusal
    with pytest.raises(StateLimitError):
        tbsg.solve(risk_or_safety(30), max_states=20_000)
    lines = capsys.readouterr().err.splitlines()
    warning = [i for i, line in enumerate(lines) if "the limit of" in line]
    assert len(warning) == 1
    assert re.fullmatch(r"tbsg: enumerating: at [\d,]+ states/s the limit of 20,000 states is reached "
                        r"in ~\d+ s if the game keeps growing; pass a larger max_states= "
                        r"\(--max-states\) or make the game smaller", lines[warning[0]])
    before = [int(m.group(1).replace(",", "")) for line in lines[:warning[0]]
              if (m := re.match(r"tbsg: enumerating: ([\d,]+) states found", line))]
    assert max(before, default=0) < 2_000 + 64  # early: about a tenth of the limit


@pytest.mark.usefixtures("eager")
def test_parametric_regions_report(capsys: pytest.CaptureFixture[str]) -> None:
    p = sympy.Symbol("p")
    sol = solve_parametric(biased_risk_or_safety(2, p), p)
    err = capsys.readouterr().err
    assert len(sol.regions) == 3  # two breakpoints (the solve_parametric docstring)
    assert re.search(r"^tbsg: parametric regions: \d+ regions found, \d+ still searched", err, re.M)
    solve_parametric(biased_risk_or_safety(2, p), p, progress=False)
    assert capsys.readouterr().err == ""


def test_a_terminal_gets_a_bar(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("tqdm")
    monkeypatch.setattr(progress, "_interactive", lambda: True)
    report, close = progress.make_progress(True, "enumerating", limit=True)
    assert report is not None
    report(10, 100)
    close()
    err = capsys.readouterr().err
    assert "enumerating (bar: max_states)" in err and "tbsg:" not in err


def test_progress_must_be_a_bool_or_none() -> None:
    p = sympy.Symbol("p")
    with pytest.raises(tbsg.InvalidArgumentError, match="progress must be True, False or None, got 'yes'"):
        solve_parametric(biased_risk_or_safety(2, p), p, progress="yes")  # type: ignore[arg-type]
    sol = tbsg.solve(risk_or_safety(3))
    with pytest.raises(tbsg.InvalidArgumentError, match="progress must be True, False or None, got 1"):
        tbsg.verify(risk_or_safety(3), sol, progress=1)  # type: ignore[arg-type]


def test_quiet_silences_the_reproduce_roll_call(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reproduce", "--only", "unspeakable_words"]) == 0
    assert capsys.readouterr().err == "solving unspeakable_words ...\n"
    assert main(["reproduce", "--only", "unspeakable_words", "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "2/2 published quantities reproduced" in out


def test_an_imported_ipykernel_is_not_a_notebook() -> None:
    # pytest collection imports ipykernel (tests/test_notebooks.py); no kernel runs here
    pytest.importorskip("ipykernel")
    assert not progress._interactive()
