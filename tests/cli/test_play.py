"""``tbsg play``: sessions scripted through standard input.

The oracle is the API: every value the session prints beside an action is the solution's
``action_values_to_move`` at that state (:func:`tbsg.solve` of the same game), the
optimal marks are its ``optimal_actions``, and the solver's moves are its strategy.
Risk or Safety to 2 points has value 4/7 to player 0 (the source's section 3.1), so 3/7
to player 1.
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
from collections.abc import Callable

import pytest

import tbsg
from tbsg.cli import main
from tbsg.games import risk_or_safety
from tbsg.games.risk_or_safety import RoSState

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Run:
    """``play(stdin_text, *argv)`` -> (exit status, stdout, stderr) of ``tbsg play ...``."""
    def go(stdin: str, *argv: str) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        try:
            status = main(["play", *argv])
        except SystemExit as exc:
            status = int(exc.code or 0)
        out, err = capsys.readouterr()
        return status, out, err
    return go


def _blocks(out: str) -> list[tuple[RoSState, dict[str, str], list[str], str | None]]:
    """Per decision shown: the state, ``{action: value text}``, the optimal actions and
    the solver's move (``None`` at the user's decisions)."""
    found = []
    for block in out.split("\nmove ")[1:]:
        state = eval(block.split(": ", 1)[1].split(", player")[0], {"RoSState": RoSState})
        rows = re.findall(r"^  \d+\. (\w+) +(.+?)(  optimal)?$", block, re.MULTILINE)
        solver = re.search(r"solver plays (\w+)", block)
        if rows:
            found.append((state, {a: v for a, v, _ in rows}, [a for a, _, o in rows if o],
                          solver.group(1) if solver else None))
    return found


def test_a_scripted_session_shows_the_solvers_values() -> None:
    """Player 1 (seed 1), stopping at the first decision: every printed value and mark is
    the solution's; the solver plays its strategy; the game ends with a verdict."""
    from tbsg._util.digits import shown_value

    out = _session("2\n", "--as", "1", "--seed", "1")
    sol = tbsg.solve(risk_or_safety(2))
    assert "value of the game to you: 3/7 ≈ 0.428571" in out
    blocks = _blocks(out)
    assert {sol.player(s) for s, _, _, _ in blocks} == {0, 1}
    for state, shown, optimal, solver in blocks:
        assert shown == {a: shown_value(v, 6, 40) for a, v in sol.action_values_to_move(state).items()}
        assert optimal == list(sol.optimal_actions(state))
        assert solver == (sol.action(state) if sol.player(state) == 0 else None)
    assert "  your move: 2\n  you play stop" in out
    assert re.search(r"\ngame over: player [01] wins \(you (win|lose)\)\n$", out)


def _session(stdin: str, *argv: str) -> str:
    """stdout of ``tbsg play risk_or_safety -p target=2 ARGV`` fed ``stdin`` (exit 0)."""
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    buffer = io.StringIO()
    try:
        with contextlib.redirect_stdout(buffer):
            status = main(["play", "risk_or_safety", "-p", "target=2", *argv])
    finally:
        sys.stdin = old
    assert status == 0
    return buffer.getvalue()


def test_the_seed_replays_a_session() -> None:
    a = _session("1\n" * 40, "--seed", "5")
    assert a == _session("1\n" * 40, "--seed", "5")
    assert "dice seed 5 (--seed 5 replays them)" in a
    fresh = _session("1\n" * 40)
    seed = re.search(r"dice seed (\d+)", fresh)
    assert seed is not None and _session("1\n" * 40, "--seed", seed.group(1)) == fresh


def test_bad_input_asks_again_and_names_accepted(play: Run) -> None:
    status, out, _ = play("fly\n9\nstop\n" + "1\n" * 40, "risk_or_safety", "-p", "target=2", "--seed", "3")
    assert status == 0
    assert "'fly' is not an action here: type 1 to 2 or a name (toss, stop); q quits" in out
    assert "'9' is not an action here" in out
    assert "  you play stop" in out and "game over" in out


def test_quit_and_end_of_input_stop_play(play: Run) -> None:
    status, out, _ = play("q\n", "risk_or_safety", "-p", "target=2", "--seed", "3")
    assert status == 0 and out.endswith("play stopped\n") and "game over" not in out
    status, out, _ = play("", "risk_or_safety", "-p", "target=2", "--seed", "3")
    assert status == 0 and "input ended\nplay stopped\n" in out


def test_usage_errors(play: Run) -> None:
    status, _, err = play("", "risk_or_safety", "-p", "target=2", "--as", "2")
    assert status == 2 and "argument --as: invalid choice: 2" in err
    status, _, err = play("", "no_such_game")
    assert status == 2 and "no_such_game" in err
    status, _, err = play("", "risk_or_safety", "-p", "target=2", "--seed", "-1")
    assert status == 2 and "must be at least 0" in err


def test_max_moves_stops_a_long_game(play: Run) -> None:
    status, out, _ = play("1\n" * 10, "risk_or_safety", "-p", "target=2", "--seed", "1", "--max-moves", "1")
    assert status == 0 and out.endswith("play stopped after 1 moves (--max-moves)\n")


def test_float_values_are_intervals(play: Run) -> None:
    status, out, _ = play("1\n" * 40, "risk_or_safety", "-p", "target=2", "--seed", "3", "--float")
    assert status == 0 and re.search(r"1\. toss  in \[0\.714286, 0\.714286\]  optimal", out)
