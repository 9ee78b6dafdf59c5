"""The rows of a saved file (format 4): round trips, the codec's layout, and damaged rows refused
with a message that names the row and its state."""

from __future__ import annotations

import gc
import json
import re
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tbsg
from tbsg.certify import encoding
from tbsg.certify.persist import load, save
from tbsg.testing import games


def _edit(path: Path, change: Any) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "ros3.json"
    save(tbsg.solve(tbsg.games.risk_or_safety(3)), path)
    return path


def test_values_share_a_table_of_denominators() -> None:
    """By hand: 1/2 and 5/2 share the denominator 2, 3/4 and -1/4 the denominator 4, and 0
    is 0/1; the table lists each once, in order of first use."""
    values = [Fraction(1, 2), Fraction(3, 4), Fraction(0), Fraction(5, 2), Fraction(-1, 4)]
    assert encoding.encode_values(values) == (["2", "4", "1"], ["1", "3", "0", "5", "-1"], [0, 1, 2, 0, 1])


def test_values_sharing_objects_are_written_once_each_with_the_same_texts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """By hand: 1/3, 2/5 three times over, then 7/3 (denominators 3 and 5, in order of
    first use), written the same whether the states share three objects or hold seven."""
    third, two_fifths = Fraction(1, 3), Fraction(2, 5)
    shared = [third, two_fifths] * 3 + [Fraction(7, 3)]
    copies = [Fraction(x.numerator, x.denominator) for x in shared]
    want = (["3", "5"], ["1", "2"] * 3 + ["7"], [0, 1] * 3 + [0])
    assert encoding.encode_values(copies) == want  # seven objects: each written
    calls: list[int] = []
    real = encoding._encode_shared

    def counted(values: Any) -> Any:
        calls.append(len(values))
        return real(values)

    monkeypatch.setattr(encoding, "_encode_shared", counted)
    assert encoding.encode_values(shared) == want  # three objects: each written once
    assert calls == [7]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.one_of(games(states=(1, 6), actions=(1, 3)), games(states=(1, 5), rewards=True),
                      games(states=(1, 5), players=(0,), payoffs="rational")))
def test_random_games_round_trip(tmp_path: Path, game: Any) -> None:
    sol = tbsg.solve(game)
    path = tmp_path / "random.json"
    save(sol, path, game=game)
    back = load(path, game=game)
    assert back.values == sol.values  # Fractions, compared exactly
    assert back.choice.tolist() == sol.choice.tolist()
    assert back.optimal.tolist() == sol.optimal.tolist()


@pytest.mark.parametrize("kind", ["evaluate", "best_response"])
def test_fixed_strategies_round_trip_from_the_rows(tmp_path: Path, kind: str) -> None:
    # load rebuilds the fixed player's strategy from the rows' state and label columns
    game = tbsg.games.risk_or_safety(4)
    sol = (tbsg.evaluate(game, lambda s: "toss") if kind == "evaluate"
           else tbsg.best_response(game, 1, lambda s: "toss"))
    path = tmp_path / "fixed.json"
    save(sol, path)
    back = load(path)
    assert back.values == sol.values and back.choice.tolist() == sol.choice.tolist()


def test_rows_written_in_chunks_join_into_one_array(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # chunks of 3 rows: 80 rows cross 26 chunk boundaries, each needing its separator
    monkeypatch.setattr(encoding, "_CHUNK", 3)
    sol = tbsg.solve(tbsg.games.risk_or_safety(4))
    path = tmp_path / "chunks.json"
    save(sol, path)
    assert len(json.loads(path.read_text())["states"]) == 80
    assert load(path).values == sol.values
    assert path.read_text().count("\n  [") == 80  # one row per line


def test_a_tampered_row_is_rejected_naming_its_state(saved: Path) -> None:
    doc = json.loads(saved.read_text())
    i = next(i for i, row in enumerate(doc["states"]) if i and doc["denominators"][row[2]] != "1")
    state = doc["states"][i][0]
    _edit(saved, lambda d: d["states"][i].__setitem__(1, str(int(d["states"][i][1]) + 1)))
    # the values no longer satisfy the strategy equations: the certificate names the first
    # state where one fails (the edited state or one whose action leads to it)
    with pytest.raises(tbsg.TamperedSolutionError, match=r"\(a\) fails at state RoSState\("):
        load(saved)
    # a label of another action names the row and its state
    saved2 = saved.with_name("label.json")
    saved2.write_text(json.dumps(doc))
    _edit(saved2, lambda d: d["states"][i].__setitem__(4, "'launch'"))
    with pytest.raises(tbsg.SolutionFileError, match=rf"state row {i} \({re.escape(state)}\): action .* the "
                                                     "file says"):
        load(saved2)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["states"].__setitem__(2, {"state": "x"}), r"state row 2 should be an array \[state, "
                                                           "numerator, denominator, action, label\\]"),
    (lambda d: d.__setitem__("denominators", "11"), "'denominators' should be an array"),
    (lambda d: d["denominators"].append(d["denominators"][0]), "is listed twice"),
    (lambda d: d["denominators"].append(11), "denominator .*: 11 is not a positive integer written as a"),
    (lambda d: d["denominators"].append("0"), "'0' is not a positive integer"),
    (lambda d: d["states"][2].__setitem__(1, 7), r"state row 2 \(.*\): 7 is not an integer written as a"),
    (lambda d: d["states"][2].__setitem__(1, "-0"), r"state row 2 \(.*\): '-0' is not an integer"),
    (lambda d: d["states"][2].__setitem__(1, "007"), "'007' is not an integer"),
    (lambda d: d["states"][2].__setitem__(2, -1), "denominator -1 out of range"),
    (lambda d: d["states"][2].__setitem__(2, "0"), "'denominator' should be int, found '0'"),
    (lambda d: d["states"][2].__setitem__(3, True), "'action' should be int, found True"),
    (lambda d: d["states"][2].__setitem__(3, 10**50), "action 1000000000.* out of range"),
    (lambda d: d["states"][2].__setitem__(3, -1), "action -1 out of range"),
    (lambda d: d["states"][2].__setitem__(0, 3), "state row 2 is 3 but the game's state there is"),
])
def test_garbled_rows_are_refused_clearly(saved: Path, change: Any, message: str) -> None:
    _edit(saved, change)
    with pytest.raises(tbsg.SolutionFileError, match=message):
        load(saved)
    assert gc.isenabled()  # the collector paused for the rows runs again after an error


@pytest.mark.parametrize(("numbers", "index", "bad"), [
    ([1, 2, 0], (0, 0, 2), None),          # 1/3, 2/3 and 0/1
    ([1, 3, 5], (0, 0, 0), 1),             # 3/3 shares the factor 3
    ([3, 7, 4], (1, 1, 1), 2),             # over 10: 4 shares the factor 2
    ([1, 0], (0, 0), 1),                   # 0/3: zero is coprime only to 1
    ([-7, 7, 0, 12], (2, 2, 3, 3), None),  # over 1 every integer is in lowest terms
])
def test_lowest_terms_are_checked_per_denominator(numbers: list[int], index: tuple[int, ...],
                                                  bad: int | None) -> None:
    """By hand: the denominators are 3, 10, 1 and 1; a row is in lowest terms exactly when
    gcd(numerator, denominator) = 1, and the first row that is not is named."""
    def fail(message: str) -> Any:
        raise tbsg.SolutionFileError(message)

    denominators = [3, 10, 1, 1]
    if bad is None:
        encoding._coprime(fail, numbers, index, denominators, lambda i: f"row {i}")
        assert all(Fraction(n, denominators[j]).denominator == denominators[j]
                   for n, j in zip(numbers, index, strict=True))
        return
    with pytest.raises(tbsg.SolutionFileError, match=f"row {bad}: value .* is not in lowest terms"):
        encoding._coprime(fail, numbers, index, denominators, lambda i: f"row {i}")


@pytest.mark.parametrize("cut", [0.5, 0.9, 0.999])
def test_a_truncated_file_is_refused(saved: Path, cut: float) -> None:
    text = saved.read_text()
    saved.write_text(text[: int(len(text) * cut)])
    with pytest.raises(tbsg.SolutionFileError, match="not valid JSON"):
        load(saved)


@pytest.mark.parametrize("where", ["numerator", "denominator"])
def test_a_million_digit_number_in_a_row_is_refused_quickly(saved: Path, where: str) -> None:
    big = "7" * 2_000_000
    if where == "numerator":
        _edit(saved, lambda d: d["states"][4].__setitem__(1, big))
    else:
        _edit(saved, lambda d: d["denominators"].__setitem__(0, big))
    t0 = time.perf_counter()
    with pytest.raises(tbsg.SolutionFileError, match="2,000,000 characters, more than max_digits") as info:
        load(saved)
    assert time.perf_counter() - t0 < 5 and len(str(info.value)) < 400


def test_max_digits_bounds_every_number_of_the_rows(saved: Path) -> None:
    # Risk or Safety to 3: the longest number of its rows has 2 digits, the longest text the
    # 4 characters of the value 6/11 of the initial state (the seed's section 3.2, by hand)
    doc = json.loads(saved.read_text())
    longest = max(len(x) for x in doc["denominators"] + [row[1] for row in doc["states"]])
    assert longest == 2 and doc["value"] == "6/11"
    assert load(saved, max_digits=4).value() == Fraction(6, 11)
    with pytest.raises(tbsg.SolutionFileError, match="more than max_digits=1 "):
        load(saved, max_digits=1)


@pytest.mark.parametrize(("digits", "message"), [
    (101, "an integer of 101 digits, more than the 100"),
    (700, "an integer of more than 640 digits, more than the 100"),
    (2_000_000, "an integer of more than 640 digits, more than the 100"),
])
def test_long_integer_literals_are_refused_quickly(saved: Path, digits: int, message: str) -> None:
    # the parser converts integer literals under Python's least digit limit (640), and the
    # head's integers beyond 100 digits are refused after; written as text, never converted
    text = saved.read_text()
    assert text.count('"states": 36,') == 1
    saved.write_text(text.replace('"states": 36,', f'"states": {"9" * digits},'))
    t0 = time.perf_counter()
    with pytest.raises(tbsg.SolutionFileError, match=message) as info:
        load(saved)
    assert time.perf_counter() - t0 < 5 and len(str(info.value)) < 400


def _fail(message: str) -> Any:
    raise tbsg.SolutionFileError(message)


def test_equal_values_are_built_once_and_shared() -> None:
    """By hand: over the denominators 3 and 5 the rows hold 1/3 and 2/5 three times over,
    then 1/5; the rows of 1/3 (and of 2/5) share one value: one entry of the parts, one
    object of the backend's type."""
    values, exact = encoding._values(_fail, ["1", "2"] * 3 + ["1"], [0, 1] * 3 + [1],
                                     [3, 5], encoding._row_name(list("abcdefg")), 100)
    assert list(values) == [Fraction(1, 3), Fraction(2, 5)] * 3 + [Fraction(1, 5)]
    assert all(type(v) is Fraction for v in values)
    # read as the parts of the three distinct values, each row pointing at its own
    assert (values.numerators, values.denominators) == ([1, 2, 1], [3, 5, 5])
    assert values.inverse is not None and values.inverse.tolist() == [0, 1, 0, 1, 0, 1, 2]
    assert exact[0] is exact[2] is exact[4] and exact[1] is exact[5] and exact[6] is not exact[0]
    assert list(map(Fraction, exact)) == list(values)
    # few values shared: each row's value built on its own, the same numbers
    alone, apart = encoding._values(_fail, ["1", "2", "1"], [0, 1, 1], [3, 5],
                                    encoding._row_name(list("abc")), 100)
    assert list(alone) == [Fraction(1, 3), Fraction(2, 5), Fraction(1, 5)] and alone.inverse is None
    assert list(map(Fraction, apart)) == list(alone)


@pytest.mark.parametrize(("numerators", "index", "row"), [
    (["1", "1", "2", "2"], [0, 0, 1, 1], 2),            # 2/4, first held by row 2
    (["1", "2", "1", "2"], [0, 1, 0, 1], 1),            # 1/3 and 2/4, each held twice
    (["2", "1", "2"], [1, 0, 1], 0),                    # 2/4 at rows 0 and 2
    (["1", "2"] * 3 + ["1"], [0, 1] * 3 + [0], 1),      # two values in seven rows: built once each
    (["1"] * 5 + ["2", "2"], [0] * 5 + [1, 1], 5),      # 2/4 first held by row 5 of seven
])
def test_a_value_not_in_lowest_terms_names_the_first_row_holding_it(numerators: list[str], index: list[int],
                                                                    row: int) -> None:
    """By hand: the denominators are 3 and 4; 2/4 is the only value not in lowest terms."""
    with pytest.raises(tbsg.SolutionFileError, match=f"state row {row} \\(s{row}\\): value 2/4 is not in "
                                                     "lowest terms"):
        encoding._values(_fail, numerators, index, [3, 4],
                         encoding._row_name([f"s{i}" for i in range(len(index))]), 100)


def test_a_garbled_numerator_written_twice_names_its_first_row() -> None:
    with pytest.raises(tbsg.SolutionFileError, match=r"state row 1 \(s1\): '007' is not an integer"):
        encoding._values(_fail, ["1", "007", "1", "007"], [0, 0, 0, 0], [3],
                         encoding._row_name(["s0", "s1", "s2", "s3"]), 100)


@pytest.mark.parametrize("slots", [True, False])
def test_coprime_fractions_are_the_fractions_of_the_pairs(monkeypatch: pytest.MonkeyPatch,
                                                           slots: bool) -> None:
    if not slots:  # a Python whose Fraction keeps its numbers otherwise: one Fraction at a time
        monkeypatch.setattr(encoding, "_SET_NUMERATOR", None)
    pairs = [(0, 1), (-3, 4), (10**40 + 1, 10**30), (7, 1)]
    out = encoding.coprime_fractions([p for p, _ in pairs], [q for _, q in pairs])
    assert out == [Fraction(p, q) for p, q in pairs]
    assert all(type(x) is Fraction for x in out)
    assert [hash(x) for x in out] == [hash(Fraction(p, q)) for p, q in pairs]
    assert out[1] + out[3] == Fraction(25, 4)
