"""``tbsg reproduce``: the rows of every source, and how declared discrepancies are judged.

A row passes when it matches and nothing is declared for it, or when a known discrepancy
is declared for it, it does not match and it computes exactly the declared value. The
tests below break each of those conditions on real rows of the real sources.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import re
from collections.abc import Callable
from fractions import Fraction

import pytest

import tbsg.sources.pig
import tbsg.sources.reproduce
import tbsg.sources.super_six
import tbsg.sources.the_race
from tbsg.cli import main
from tbsg.games.registry import CATALOG
from tbsg.sources.check import Check, KnownDiscrepancy, Value
from tbsg.sources.reproduce import Row, Source, judge, reproduce

SOURCE_MODULES = sorted({e.source_module for e in CATALOG.values()})


def _row(quantity: str = "a number", match: bool = False, value: Value = Fraction(1, 3)) -> Check:
    return Check("the_race", "somewhere", quantity, "1/2", str(value), match, value)


def _words(text: str) -> str:
    """``text`` with its line breaks (the notes are wrapped) as single spaces."""
    return " ".join(text.split())


def _replace_source(monkeypatch: pytest.MonkeyPatch, rows: list[Check],
                    known: tuple[KnownDiscrepancy, ...] = ()) -> None:
    """Make the_race's source return ``rows`` and declare ``known``."""
    monkeypatch.setattr(tbsg.sources.the_race, "checks", lambda: rows)
    monkeypatch.setattr(tbsg.sources.the_race, "KNOWN_DISCREPANCIES", known)


# --- the command ----------------------------------------------------------------------------


def test_reproduce_one_game_prints_rows_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reproduce", "--only", "unspeakable_words"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["source", "quantity", "published", "computed", "match"]
    assert "[unspeakable_words: seed 004 (Win-Vector, Unspeakable bets)]" in out
    assert "2/2 published quantities reproduced; 0 known" in out


def test_reproduce_json_is_machine_readable(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reproduce", "--only", "unspeakable_words", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True
    assert set(data["seconds"]) == {"unspeakable_words"}
    assert data["stale"] == []
    assert len(data["rows"]) == 2
    assert set(data["rows"][0]) == {"game", "source", "quantity", "published", "computed", "value",
                                    "match", "known", "reason", "expected", "note", "problem"}
    assert all(row["match"] is True and row["known"] is False for row in data["rows"])
    # the exact value: 49 cells of aValue as p/q; seed 004, aValue[6, 6] printed 0.470
    assert data["rows"][1]["value"][-1] == "43835/93312"


def test_json_states_known_and_the_declared_reason(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reproduce", "--only", "super_six", "--json"]) == 0
    rows = {r["quantity"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    s13 = rows["optimal strategy S_13"]
    assert s13["known"] is True and s13["match"] is False and s13["expected"] is True
    assert s13["reason"].startswith("the printed j = 5 group has 8 digits")
    assert rows["optimal strategy S_14"]["known"] is False
    assert rows["optimal strategy S_14"]["reason"] == ""


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
        reproduce(["chess"])


@pytest.mark.slow
def test_full_reproduce_passes(capsys: pytest.CaptureFixture[str]) -> None:
    # every published number of every source: the README's main job
    assert main(["reproduce"]) == 0
    out = capsys.readouterr().out
    assert " NO" not in out
    # every quantity reproduced but the discrepancies the sources declare, each as declared
    # (counted from the declarations, not pinned: sources gain quantities)
    found = re.search(r"(\d+)/(\d+) published quantities reproduced; (\d+) known discrepancies", out)
    assert found is not None
    ok, total, known = map(int, found.groups())
    modules = {CATALOG[name].source_module: CATALOG[name].load_source() for name in CATALOG}
    assert known == sum(len(m.KNOWN_DISCREPANCIES) for m in modules.values())
    assert ok + known == total
    assert "; 0 unexpected" in out


# --- judging rows against declarations -----------------------------------------------------------


def test_reproduce_mismatch_exits_one(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    _replace_source(monkeypatch, [_row()])
    assert main(["reproduce", "--only", "the_race"]) == 1
    out = capsys.readouterr().out
    assert "NO" in out.split()
    assert "0/1 published quantities reproduced; 0 known discrepancies" in out
    assert "; 1 unexpected" in out
    assert "mismatch with no known discrepancy declared" in _words(out)


def test_reproduce_known_discrepancy_is_reported_but_passes(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    misprint = _row("a string", value="(0)")
    _replace_source(monkeypatch, [misprint], (KnownDiscrepancy("a string", "(0)", "one zero too many"),))
    assert main(["reproduce", "--only", "the_race"]) == 0
    out = capsys.readouterr().out
    assert "no (known, see note)" in out
    assert "note (the_race: a string): one zero too many" in out
    assert "1 known discrepancies of the sources (see the notes); 0 unexpected" in out


def test_declared_discrepancy_with_another_value_fails(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _replace_source(monkeypatch, [_row(value=Fraction(1, 3))],
                    (KnownDiscrepancy("a number", Fraction(1, 4), "a misprint"),))
    assert main(["reproduce", "--only", "the_race"]) == 1
    out = capsys.readouterr().out
    assert "NO (UNEXPECTED: value changed)" in out
    assert "declared as a known discrepancy with value 1/4, but tbsg now computes 1/3" in _words(out)
    assert "0 known discrepancies" in out and "; 1 unexpected" in out


def test_declared_discrepancy_that_now_matches_fails(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    stale = _row(match=True, value=Fraction(1, 2))
    _replace_source(monkeypatch, [stale], (KnownDiscrepancy("a number", Fraction(1, 2), "was a misprint"),))
    assert main(["reproduce", "--only", "the_race"]) == 1
    out = capsys.readouterr().out
    assert "yes (UNEXPECTED: declared known)" in out
    assert "it now matches (out-of-date declaration)" in _words(out)


def test_declaration_without_a_row_fails(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    real = tbsg.sources.the_race.KNOWN_DISCREPANCIES
    ghost = KnownDiscrepancy("P(player 2 wins), goal 99", Fraction(1, 2), "no such row")
    monkeypatch.setattr(tbsg.sources.the_race, "KNOWN_DISCREPANCIES", (*real, ghost))
    report = reproduce(["the_race"])
    assert not report.ok
    assert all(r.expected for r in report.rows)  # the real row still matches
    assert [s.declared for s in report.stale] == [ghost]
    assert main(["reproduce", "--only", "the_race"]) == 1
    out = capsys.readouterr().out
    assert "UNEXPECTED (the_race: P(player 2 wins), goal 99)" in out
    assert "no row has this quantity (stale declaration)" in _words(out)
    assert "; 1 unexpected" in out


@pytest.mark.parametrize(("match", "declared", "expected"), [
    (True, None, True),                                            # a match
    (False, None, False),                                          # unexplained mismatch
    (False, Fraction(1, 3), True),                                 # known, value as declared
    (False, Fraction(1, 4), False),                                # known, value changed
    (True, Fraction(1, 3), False),                                 # known, but now matches
])
def test_row_expected(match: bool, declared: Fraction | None, expected: bool) -> None:
    known = None if declared is None else KnownDiscrepancy("a number", declared, "why")
    row = Row(_row(match=match, value=Fraction(1, 3)), known)
    assert row.expected is expected
    assert row.known is (declared is not None)
    assert bool(row.problem) is not expected


def test_judge_refuses_two_rows_or_two_declarations_for_one_quantity() -> None:
    twice = (KnownDiscrepancy("q", Fraction(1), "a"), KnownDiscrepancy("q", Fraction(2), "b"))
    with pytest.raises(ValueError, match="two known discrepancies for 'q'"):
        judge(Source("m", list, twice), [])
    with pytest.raises(ValueError, match="two rows for the quantity 'q'"):
        judge(Source("m", list, ()), [_row("q"), _row("q")])


def test_declarations_need_a_reason_and_exact_values() -> None:
    with pytest.raises(ValueError, match="needs a quantity and a reason"):
        KnownDiscrepancy("q", Fraction(1), "")
    with pytest.raises(TypeError, match="must be exact"):
        KnownDiscrepancy("q", 0.5, "a float")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be exact"):
        KnownDiscrepancy("q", (Fraction(1), 0.5), "a float inside")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be exact"):
        _row(value=0.5)  # type: ignore[arg-type]


# --- every real source: a new mismatch, in any row, fails ---------------------------------------


def _perturbed(value: Value) -> Value:
    """Another exact value of the same kind."""
    if isinstance(value, tuple):
        return (value[0] + 1, *value[1:]) if value else (Fraction(0),)
    if isinstance(value, str):
        return value + " (tampered)"
    return value + 1


def _tamper(checks: Callable[[], list[Check]], known: tuple[KnownDiscrepancy, ...],
            hit: list[str]) -> Callable[[], list[Check]]:
    """``checks`` with its first row that has no declared discrepancy turned into a mismatch."""
    declared = {d.quantity for d in known}

    def tampered() -> list[Check]:
        rows = checks()
        i = next(n for n, r in enumerate(rows) if r.quantity not in declared)
        rows[i] = dataclasses.replace(rows[i], match=False, value=_perturbed(rows[i].value),
                                      computed="tampered")
        hit.append(rows[i].quantity)
        return rows
    return tampered


@pytest.mark.parametrize("module_name", [
    pytest.param(m, marks=pytest.mark.slow) if m == "tbsg.sources.pig" else m
    for m in SOURCE_MODULES])
def test_new_mismatch_in_any_source_fails(module_name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    module = importlib.import_module(module_name)
    hit: list[str] = []
    monkeypatch.setattr(module, "checks", _tamper(module.checks, module.KNOWN_DISCREPANCIES, hit))
    game = next(e.name for e in CATALOG.values() if e.source_module == module_name)
    report = reproduce([game])
    assert not report.ok
    assert [r.quantity for r in report.unexpected] == hit
    assert report.unexpected[0].problem == "mismatch with no known discrepancy declared"


def test_new_mismatch_in_a_piglet_row_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    # the fast half of the Pig source (Piglet to 2, exact); the Pig-to-100 half is slow and
    # is covered by the slow parameter of the test above
    module = tbsg.sources.pig
    monkeypatch.setattr(module, "pig_checks", list)
    hit: list[str] = []
    monkeypatch.setattr(module, "checks", _tamper(module.checks, module.KNOWN_DISCREPANCIES, hit))
    report = reproduce(["piglet"])
    assert not report.ok and len(report.rows) == 7
    assert [r.quantity for r in report.unexpected] == hit == ["Piglet to 2: P(0,0,0)"]


# --- the real declared discrepancies (Super Six): each guards its value --------------------------


def test_super_six_known_discrepancies_are_the_mismatches() -> None:
    report = reproduce(["super_six"])
    assert report.ok and not report.stale
    assert len(report.rows) == 65
    declared = {d.quantity for d in tbsg.sources.super_six.KNOWN_DISCREPANCIES}
    assert {r.quantity for r in report.rows if not r.match} == declared == {r.quantity for r in report.known}
    assert len(declared) == 6
    for r in report.known:
        assert r.note.startswith(r.reason)


def test_super_six_string_that_changes_behind_a_declaration_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    # a regression in S_13 that still differs from the printed string is not excused by the
    # declaration (the declared value is the exact string tbsg must compute)
    real = tbsg.sources.super_six.super_six_strategy  # type: ignore[attr-defined]

    def wrong(total: int) -> str:
        s = real(total)
        return s.replace("111000111", "111100111") if total == 13 else s

    monkeypatch.setattr(tbsg.sources.super_six, "super_six_strategy", wrong)
    report = reproduce(["super_six"])
    assert [r.quantity for r in report.unexpected] == [
        "optimal strategy S_13", "optimal strategy S_13, each group cut to its number of situations"]
    assert "but tbsg now computes (1111111111/1111111111/111100111/" in report.unexpected[0].problem


def test_super_six_string_that_matches_the_print_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    # if tbsg computed the printed S_15 (one digit too many), the declaration would be out of date
    real = tbsg.sources.super_six.super_six_strategy  # type: ignore[attr-defined]
    printed = tbsg.sources.super_six.STRATEGIES[15][1]
    monkeypatch.setattr(tbsg.sources.super_six, "super_six_strategy",
                        lambda total: printed if total == 15 else real(total))
    report = reproduce(["super_six"])
    bad = {r.quantity: r for r in report.unexpected}
    assert bad["optimal strategy S_15"].problem.endswith("it now matches (out-of-date declaration)")


# --- layering ------------------------------------------------------------------------------------


def test_every_catalog_game_names_a_source_module() -> None:
    for entry in CATALOG.values():
        module = entry.load_source()
        assert callable(module.checks)
        assert isinstance(module.KNOWN_DISCREPANCIES, tuple)
        assert all(isinstance(d, KnownDiscrepancy) for d in module.KNOWN_DISCREPANCIES)
    assert CATALOG["piglet"].source_module == CATALOG["pig"].source_module == "tbsg.sources.pig"
