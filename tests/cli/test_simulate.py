"""``tbsg simulate``: the command line over :func:`tbsg.simulate`.

The oracle is the API: the exact value the command prints is :func:`tbsg.solve`'s, the
estimates are :func:`tbsg.simulate`'s with the same seed, and the value of a user's own
strategy is :func:`tbsg.evaluate`'s (Risk or Safety to 2 points, always tossing: 4/7, the
source's section 3.1).
"""

from __future__ import annotations

import re
import textwrap
import uuid
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

import tbsg
from tbsg.games import risk_or_safety

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def simulate(run: Run) -> Run:
    """``simulate(*argv)``: ``run("simulate", *argv)`` (tests/conftest.py)."""
    return lambda *argv: run("simulate", *argv)


def test_the_solvers_value_is_compared_with_the_simulation(simulate: Run) -> None:
    status, out, _ = simulate("risk_or_safety", "-p", "target=4", "-n", "20000", "--seed", "3")
    assert status == 0
    game = risk_or_safety(4)
    sim = tbsg.simulate(game, tbsg.solve(game), 20000, seed=3)
    assert str(sim) in out
    assert "profile: the solver's strategy for both players" in out
    assert "solver's value: 2236/4165 ≈ 0.536854741897 (inside the simulation's interval)" in out
    assert tbsg.solve(game).value() == Fraction(2236, 4165)


def test_the_seed_reproduces_the_output_and_a_fresh_seed_is_printed(simulate: Run) -> None:
    args = ("risk_or_safety", "-p", "target=3", "-n", "2000")
    assert simulate(*args, "--seed", "9") == simulate(*args, "--seed", "9")
    _, out, _ = simulate(*args)
    seed = re.search(r"\(seed (\d+), compiled\)", out)
    assert seed is not None and simulate(*args, "--seed", seed.group(1))[1] == out


def test_float_solutions_and_walking(simulate: Run) -> None:
    status, out, _ = simulate("risk_or_safety", "-p", "target=3", "-n", "2000", "--seed", "1",
                              "--float", "--walk")
    assert status == 0 and "(seed 1, walk)" in out
    assert re.search(r"solver's value: in \[0\.\d+, 0\.\d+\] \(inside the simulation's interval\)", out)


def test_a_users_own_strategy(simulate: Run, tmp_path: Path) -> None:
    """Always toss: the simulated mean brackets tbsg.evaluate's 4/7; nothing is solved."""
    name = f"strat_{uuid.uuid4().hex[:8]}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent('''
        def always_toss(state):
            return "toss"
    '''))
    spec = f"{tmp_path / name}.py:always_toss"
    status, out, _ = simulate("risk_or_safety", "-p", "target=2", "-n", "20000", "--seed", "4",
                         "--strategy", spec)
    assert status == 0 and f"profile: {spec} for both players" in out and "solver's value" not in out
    mean = re.search(r"mean payoff to player 0: \S+ \[(\S+), (\S+)\]", out)
    assert mean is not None
    value = tbsg.evaluate(risk_or_safety(2), lambda s: "toss").value()
    assert value == Fraction(4, 7) and float(mean.group(1)) <= value <= float(mean.group(2))


def test_a_count_from_a_file(simulate: Run, tmp_path: Path) -> None:
    """--count counts coin tosses: the mean brackets tbsg.chain's exact expected tosses."""
    name = f"count_{uuid.uuid4().hex[:8]}"
    (tmp_path / f"{name}.py").write_text("def tosses(state, action):\n"
                                         "    return 1 if action == 'toss' else 0\n")
    status, out, _ = simulate("risk_or_safety", "-p", "target=3", "-n", "20000", "--seed", "2",
                         "--count", f"{tmp_path / name}.py:tosses")
    assert status == 0
    length = re.search(r"mean length \(counted steps\): +\S+ \[(\S+), (\S+)\]", out)
    game = risk_or_safety(3)
    exact = tbsg.chain(game, tbsg.solve(game)).expected_steps(lambda s, a: 1 if a == "toss" else 0)
    assert length is not None and exact == Fraction(120, 11)  # the guide's section 9
    assert float(length.group(1)) <= exact <= float(length.group(2))


@pytest.mark.parametrize(("argv", "message"), [
    (["risk_or_safety", "-p", "target=2", "-n", "0"], "argument -n: must be at least 1, got 0"),
    (["risk_or_safety", "-p", "target=2", "--seed", "x"], "argument --seed: expected an integer"),
    (["risk_or_safety", "-p", "target=2", "--level", "1.5"], "expected a confidence level between 0 and 1"),
    (["risk_or_safety", "-p", "target=2", "--float", "--strategy", "m:f"],
     "--float chooses how the game is solved"),
    (["risk_or_safety", "-p", "target=2", "--strategy", "no_such_module_q:f"], "no_such_module_q"),
    (["risk_or_safety", "-p", "goal=2"], "goal"),
])
def test_usage_errors(argv: list[str], message: str, simulate: Run) -> None:
    status, _, err = simulate(*argv)
    assert status == 2 and message in err and "example: tbsg simulate" in err


def test_a_strategy_with_an_illegal_move_is_one_line(simulate: Run, tmp_path: Path) -> None:
    name = f"strat_{uuid.uuid4().hex[:8]}"
    (tmp_path / f"{name}.py").write_text("def fly(state):\n    return 'fly'\n")
    status, _, err = simulate("risk_or_safety", "-p", "target=2", "--seed", "0", "--strategy",
                         f"{tmp_path / name}.py:fly")
    assert status == 1 and "not a legal action" in err and len(err.splitlines()) == 1
