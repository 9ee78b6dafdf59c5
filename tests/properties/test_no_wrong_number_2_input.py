"""No wrong number, round two: command-line parameters, saved files, and ``tol``.

Item 2: a ``-p NAME=VALUE`` number is bounded in digits (and in its exponent) before it is
converted, and every failure is a one-line usage error (exit status 2) naming the
parameter. Item 3: a saved file's game fields are type-checked against the class and
bounded by the ranges tbsg declares for its games *before* the game is built; a long
number is refused or parsed without quadratic work, and shown shortened; a key given twice
is refused. Item 6: ``tol`` belongs to the float path, in the API as on the command line,
and the command line words its tolerance error in its own terms.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
import time
import uuid
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import tbsg
from tbsg._util.digits import unlimited_digits
from tbsg.engine import _backend as bk
from tbsg.games import pig, risk_or_safety, unspeakable_words

Run = Callable[..., tuple[int, str, str]]  # the fixture `run` of tests/conftest.py


@pytest.fixture
def own(tmp_path: Path) -> Iterator[Path]:
    """A user's game file: a dataclass with an int and a Fraction field, and a factory with an
    unannotated parameter."""
    name = f"own2_{uuid.uuid4().hex[:8]}"
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent('''
        from dataclasses import dataclass
        from fractions import Fraction
        import tbsg

        @dataclass(frozen=True)
        class Coin:
            goal: int = 1
            bias: Fraction = Fraction(1, 2)
            initial: int = 0

            def player(self, s):
                return 0

            def actions(self, s):
                return ("toss",)

            def outcomes(self, s, a):
                return [(self.bias, tbsg.win(0)), (1 - self.bias, tbsg.win(1))]

        def bare(p):
            return Coin(1, Fraction(p))
    '''), encoding="utf-8")
    yield path
    sys.modules.pop(name, None)


def _usage_error(err: str) -> str:
    """The one error line of a usage error (between the usage and the example)."""
    lines = [line for line in err.splitlines() if line.startswith("tbsg solve: error: ")]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


# --- 2. command-line parameters: bounded digits and exponents -------------------------------------

BIG = "1" * 5000
"""More digits than a command-line number may have (and than Python's int/str limit)."""


@pytest.mark.parametrize(("spec", "param", "expected"), [
    ("risk_or_safety", f"target={BIG}", "parameter target must be an integer of at most 4,300 digits"),
    ("OWN:Coin", f"goal={BIG}", "parameter goal must be an integer of at most 4,300 digits"),
    ("OWN:Coin", f"bias=1/{BIG}", "parameter bias must be an exact rational of at most 4,300 digits"),
    ("OWN:Coin", f"bias=0.{BIG}", "parameter bias must be an exact rational of at most 4,300 digits"),
    ("OWN:bare", f"p={BIG}", "parameter p must be a number of at most 4,300 digits"),
    ("OWN:bare", f"p=1/{BIG}", "parameter p must be a number of at most 4,300 digits"),
])
def test_2_long_numbers_are_one_line_usage_errors(spec: str, param: str, expected: str, run: Run,
                                                  own: Path) -> None:
    # a 5,000-digit integer was a raw ValueError traceback (Python's int/str digit limit)
    status, out, err = run("solve", spec.replace("OWN", str(own)), "-p", param)
    assert status == 2 and out == ""
    line = _usage_error(err)
    assert expected in line
    assert "5,000 digits" in line and len(line) < 300  # the value itself shortened


def _cli(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The command line in a process of its own (a hang on main must not hang the suite)."""
    code = "import sys; from tbsg.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.parametrize(("spec", "param", "expected"), [
    ("OWN:Coin", "bias=.1e-9999999", "parameter bias must be an exact rational"),
    ("OWN:bare", "p=.1e-9999999", "parameter p must be a number"),
    ("OWN:Coin", "bias=1.5e+9999999", "parameter bias must be an exact rational"),
])
def test_2_huge_exponents_are_refused_at_once(spec: str, param: str, expected: str, own: Path) -> None:
    # the fraction pattern accepted any exponent and built 10**9999999: it hung
    t0 = time.perf_counter()
    try:
        r = _cli("solve", spec.replace("OWN", str(own)), "-p", param, timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail(f"-p {param} still runs after 30 s")
    assert time.perf_counter() - t0 < 30
    assert r.returncode == 2 and r.stdout == ""
    line = _usage_error(r.stderr)
    assert expected in line and "exponent" in line and "9999999" in line


def test_2_huge_exponent_of_infinite_play_is_refused_at_once() -> None:
    try:
        r = _cli("solve", "risk_or_safety", "-p", "target=2", "--infinite-play", ".1e-9999999", timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("--infinite-play .1e-9999999 still runs after 30 s")
    assert r.returncode == 2 and "argument --infinite-play" in r.stderr and "exponent" in r.stderr


# --- 3. saved files: fields bounded and typed before the game is built ----------------------------

def _saved(tmp_path: Path, game: Any, name: str) -> Path:
    path = tmp_path / name
    tbsg.save(tbsg.solve(game), path)
    return path


def _edit(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


class _Built(Exception):
    """Raised by a game method that must not run."""


def test_3_edited_die_is_refused_before_the_game_is_built(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # die=10**8 (with as many points) made the first state's actions() allocate gigabytes
    path = _saved(tmp_path, unspeakable_words(3, 3), "uw.json")

    def change(d: dict[str, Any]) -> None:
        d["game"]["fields"].update(a=10**8, die=10**8)
    _edit(path, change)

    def boom(*args: Any) -> Any:
        raise _Built
    monkeypatch.setattr(tbsg.games.UnspeakableWords, "actions", boom)
    with pytest.raises(tbsg.GameUnavailableError, match=r"game field 'die' of UnspeakableWords is "
                                                        r"100000000 \(out of range\): .* from 1 to "
                                                        r"100,000 only") as info:
        tbsg.load(path)
    assert "UnspeakableWords" in str(info.value) and "game=" in str(info.value)


def test_3_edited_pig_die_is_refused_before_the_constructor_runs(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # Pig's constructor lists the die's faces: die=10**8 allocated gigabytes there
    path = _saved(tmp_path, pig(3), "pig.json")
    _edit(path, lambda d: d["game"]["fields"].update(die=10**8))

    def boom(*args: Any) -> Any:
        raise _Built
    monkeypatch.setattr(tbsg.games.Pig, "__post_init__", boom)
    with pytest.raises(tbsg.GameUnavailableError, match="game field 'die'"):
        tbsg.load(path)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("target", "3", "game field 'target' should be int"),
    ("target", True, "game field 'target' should be int"),
    ("target", {"fraction": "7/2"}, "game field 'target' should be int"),
])
def test_3_field_types_are_checked_against_the_class(tmp_path: Path, field: str, value: Any,
                                                     message: str) -> None:
    # a wrong type reached the constructor ("cannot rebuild": the file was not judged)
    path = _saved(tmp_path, risk_or_safety(3), "ros.json")
    _edit(path, lambda d: d["game"]["fields"].update({field: value}))
    with pytest.raises(tbsg.SolutionFileError, match=message) as info:
        tbsg.load(path)
    assert not isinstance(info.value, tbsg.GameUnavailableError)


def _set_value(d: dict[str, Any], row: int, numerator: str, denominator: str) -> None:
    """Set a row's value in a file of format 4: ``numerator / denominators[index]``."""
    if denominator not in d["denominators"]:
        d["denominators"].append(denominator)
    d["states"][row][1:3] = [numerator, d["denominators"].index(denominator)]


MILLION = "7" * 999_990
"""A number of about a million digits: within the default ``max_digits`` (1,000,000
characters, with gmpy2), even as the numerator of ``p/21``."""


@pytest.mark.parametrize(("where", "message"), [
    ("row", "not in lowest terms"),
    ("value", "is not the value of the initial state"),
    ("field", "game field 'target' should be int"),
])
def test_3_a_million_digits_are_refused_quickly_and_shown_short(tmp_path: Path, where: str,
                                                                message: str) -> None:
    # 13 to 46 s on main: formatting the number with str (quadratic) to check lowest terms,
    # to show it, or inside the game's constructor
    path = _saved(tmp_path, risk_or_safety(3), "ros.json")

    def change(d: dict[str, Any]) -> None:
        if where == "row":
            _set_value(d, 2, MILLION, "21")  # 7...7 / 21: 7 divides both
        elif where == "value":
            d["value"] = MILLION
        else:
            d["game"]["fields"]["target"] = {"fraction": MILLION}
    _edit(path, change)
    if bk.BACKEND != "gmpy2":  # Python's own parsing is quadratic: a smaller max_digits refuses it
        message += "|more than max_digits=100,000"
    t0 = time.perf_counter()
    with pytest.raises(tbsg.SolutionFileError, match=message) as info:
        tbsg.load(path)
    assert time.perf_counter() - t0 < 5
    assert len(str(info.value)) < 400


def test_3_a_million_digit_infinite_play_is_read_quickly(tmp_path: Path) -> None:
    """Issue 24: never-ending play may be worth any rational, so a million-digit rule in a
    file is a rule (of a stopping game, where it changes no value) read in linear time, or
    refused by max_digits where Python's own parsing is quadratic."""
    path = _saved(tmp_path, risk_or_safety(3), "ros.json")
    _edit(path, lambda d: d.update(infinite_play=MILLION))
    t0 = time.perf_counter()
    if bk.BACKEND != "gmpy2":
        with pytest.raises(tbsg.SolutionFileError, match="more than max_digits=100,000"):
            tbsg.load(path)
    else:
        sol = tbsg.load(path)
        assert sol.value() == Fraction(6, 11) and not sol.win_probability  # c > 1
    assert time.perf_counter() - t0 < 5


def test_3_a_wrong_million_digit_value_is_rejected_quickly(tmp_path: Path) -> None:
    # in lowest terms and out of [0, 1]: the certificate's message wrote it in full (str of a
    # million digits, quadratic): 12 s on main
    path = _saved(tmp_path, risk_or_safety(3), "ros.json")
    _edit(path, lambda d: _set_value(d, 2, MILLION, "2"))
    if bk.BACKEND != "gmpy2":
        pytest.skip("without gmpy2 max_digits refuses a million digits (tested above)")
    t0 = time.perf_counter()
    with pytest.raises(tbsg.TamperedSolutionError, match=r"is 7777+…\(999876 more characters\)…7777+/2, "
                                                         r"outside \[0, 1\]") as info:
        tbsg.load(path)
    assert time.perf_counter() - t0 < 5 and len(str(info.value)) < 400


def test_3_show_cuts_a_huge_number_without_writing_it() -> None:
    # tbsg.errors.show lifted the int/str limit and wrote the number in full (quadratic)
    x = Fraction(10**999_999 + 1, 3)
    # CPU time, not wall time (other jobs on the machine); writing this number in full takes
    # about 20 s of CPU, cutting it about 0.5 s: the bound separates the two with room to spare
    t0 = time.process_time()
    text = tbsg.errors.show(x, 40)
    assert time.process_time() - t0 < 6
    assert text == "100000000000000000…(999966 more characters)…0000000000000001/3"
    assert tbsg.errors.show(-(10**5000) - 7, 30) == "-100000000000…(4976 more characters)…0000000000007"
    # the cut is the one shorten(str(x)) makes, for every shape of int and fraction
    rng = random.Random(22)
    for _ in range(60):
        p, q = (rng.randrange(10 ** rng.choice([1, 40, 4400, 6000])) + 1 for _ in range(2))
        y = rng.choice([p, -p, Fraction(p, q), -Fraction(p, q)])
        limit = rng.choice([20, 31, 120, 200])
        with unlimited_digits():
            assert tbsg.errors.show(y, limit) == tbsg.errors.shorten(str(y), limit)


@pytest.mark.parametrize(("old", "new", "key", "where"), [
    ('"largest_component": ', '"largest_component": 1, "largest_component": ', "largest_component", "graph"),
    ('"kind": "solve"', '"kind": "solve", "kind": "solve"', "kind", "the top-level object"),
    ('"target": 3', '"target": 4, "target": 3', "target", "game.fields"),
])
def test_3_duplicate_keys_are_refused(tmp_path: Path, old: str, new: str, key: str, where: str) -> None:
    # JSON keeps the last of two equal keys: a file could show one value and mean another
    path = _saved(tmp_path, risk_or_safety(3), "ros.json")
    original = path.read_text()
    assert original.count(old) == 1
    path.write_text(original.replace(old, new))
    with pytest.raises(tbsg.SolutionFileError, match=f"key '{key}' appears twice in {where}"):
        tbsg.load(path)


# --- 6. tol belongs to the float path; the command line's tolerance error -------------------------

@pytest.mark.parametrize("call", ["solve", "evaluate", "best_response"])
def test_6_tol_with_exact_is_refused_as_on_the_command_line(call: str) -> None:
    # tol was silently ignored by exact solves, while the command line refuses --tol without --float
    game = risk_or_safety(2)
    calls: dict[str, Callable[..., Any]] = {
        "solve": lambda **kw: tbsg.solve(game, **kw),
        "evaluate": lambda **kw: tbsg.evaluate(game, lambda s: "toss", **kw),
        "best_response": lambda **kw: tbsg.best_response(game, 0, lambda s: "toss", **kw),
    }
    f = calls[call]
    with pytest.raises(tbsg.InvalidArgumentError, match=r"tol= applies to exact=False only"):
        f(tol=1e-9)
    with pytest.raises(tbsg.InvalidArgumentError, match=r"tol= applies to exact=False only"):
        f(exact=True, tol=1e-12)
    # the default (None) is accepted either way; exact=False without tol proves 1e-12
    assert f(tol=None).value() == f().value()
    assert f(exact=False, tol=None).tol == 1e-12 == f(exact=False).tol


def test_6_unreached_tol_speaks_the_command_line(run: Run) -> None:
    # it printed the API's words: "tol=1e-300 ... try tol=..., or exact=True; ... this error's .solution"
    status, out, err = run("solve", "risk_or_safety", "-p", "target=3", "--float", "--tol", "1e-300")
    assert status == 1 and "proven bounds" in out
    (line,) = err.strip().splitlines()
    assert line.startswith("tbsg solve: error: --tol 1e-300 cannot be reached: the smallest gap proven is ")
    assert "try --tol " in line and "without --float" in line
    assert "tol=" not in line and "exact=" not in line and ".solution" not in line
    suggested = float(line.split("try --tol ")[1].split(" ")[0].rstrip(",;"))
    status, out, _ = run("solve", "risk_or_safety", "-p", "target=3", "--float", "--tol", str(suggested))
    assert status == 0 and "NOT reached" not in out
