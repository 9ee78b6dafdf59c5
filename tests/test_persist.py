"""Saved solutions: rejection of damaged, edited or foreign files (the catalog round trips are in
test_catalog_conformance.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import tbsg
from strategies import TableGame
from tbsg.cli import main
from tbsg.outputs.persist import graph_hash, load, save


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "ros4.json"
    save(tbsg.solve(tbsg.games.risk_or_safety(4)), path)
    return path


def _edit(path: Path, change: Any) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


def test_file_is_plain_json_with_exact_values(saved: Path) -> None:
    doc = json.loads(saved.read_text())
    assert doc["format"] == "tbsg-solution"
    assert doc["format_version"] == 2
    assert doc["game"] == {"module": "tbsg.games.risk_or_safety", "class": "RiskOrSafety",
                           "fields": {"target": 4}}
    assert (doc["kind"], doc["optimizing"]) == ("solve", [0, 1])
    # seed 000 (Jehn 2026), section 3.3: P(0,0,0) = 2236/4165 for n = 4
    assert doc["value"] == "2236/4165"
    assert doc["graph"]["states"] == len(doc["states"]) == 80
    assert Fraction(doc["states"][0]["value"]) == Fraction(2236, 4165)


# --- every field of a saved file is checked (issue 11, item 4) -------------------------------

def _set(keys: tuple[Any, ...], value: Any) -> Any:
    def change(d: Any) -> None:
        for k in keys[:-1]:
            d = d[k]
        d[keys[-1]] = value
    return change


def _drop(keys: tuple[Any, ...]) -> Any:
    def change(d: Any) -> None:
        for k in keys[:-1]:
            d = d[k]
        del d[keys[-1]]
    return change


FIELD_EDITS = [
    # (edit, error type, message): one per field a file holds, each edited alone
    (_set(("format",), "tbsg-solutions"), tbsg.SolutionFileError, "not a tbsg solution file"),
    (_set(("format_version",), 1), tbsg.SolutionFileError, "format_version 1 is not supported"),
    (_set(("tbsg_version",), "latest"), tbsg.SolutionFileError, "is not a version number"),
    (_set(("game", "module"), "tbsg.games.coinball"), tbsg.SolutionFileError,
     "cannot find the game class"),
    (_set(("game", "module"), "os"), tbsg.SolutionFileError, "outside tbsg: pass it"),
    (_set(("game", "class"), "Coinball"), tbsg.SolutionFileError, "cannot find the game class"),
    (_set(("game", "fields", "target"), 3), tbsg.SolutionFileError, "graph hash differs"),
    (_set(("game", "fields", "target"), 5), tbsg.SolutionFileError, "larger than the file records"),
    (_set(("game", "fields", "goal"), 5), tbsg.SolutionFileError, "cannot rebuild RiskOrSafety"),
    (_set(("graph", "sha256"), "0" * 64), tbsg.SolutionFileError, "'sha256' does not match"),
    (_set(("graph", "sha256_unordered"), "0" * 64), tbsg.SolutionFileError,
     "'sha256_unordered' does not match"),
    (_set(("graph", "states"), 81), tbsg.SolutionFileError, "graph 'states' is 81 but the game has 80"),
    (_set(("graph", "states"), 79), tbsg.SolutionFileError, r"larger than the file records \(79 states"),
    (_set(("graph", "actions"), 7), tbsg.SolutionFileError, "7 actions"),
    (_set(("graph", "actions"), 700), tbsg.SolutionFileError, "graph 'actions' is 700"),
    (_set(("graph", "outcomes"), 7), tbsg.SolutionFileError, "7 outcomes"),
    (_set(("graph", "outcomes"), 700), tbsg.SolutionFileError, "graph 'outcomes' is 700"),
    (_set(("graph", "components"), 7), tbsg.SolutionFileError, "graph 'components' is 7"),
    (_set(("graph", "largest_component"), 7), tbsg.SolutionFileError,
     "graph 'largest_component' is 7"),
    (_set(("kind",), "evaluate"), tbsg.SolutionFileError, "'kind' is 'evaluate' but 'optimizing'"),
    (_set(("kind",), "optimal"), tbsg.SolutionFileError, "'kind' 'optimal' is not one of"),
    (_set(("optimizing",), [0]), tbsg.SolutionFileError, "'kind' is 'solve' but 'optimizing'"),
    (_set(("optimizing",), [True, 1]), tbsg.SolutionFileError, "'optimizing'"),
    (_set(("method",), "exact strategy iteration"), tbsg.SolutionFileError,
     "'method' .* does not describe"),
    (_set(("infinite_play",), "2"), tbsg.SolutionFileError, "outside \\[0, 1\\]"),
    (_set(("infinite_play",), 0.5), tbsg.SolutionFileError, "not an exact rational"),
    (_set(("value",), "1/2"), tbsg.SolutionFileError, "'value' 1/2 is not the value of the initial"),
    (_set(("value",), "4472/8330"), tbsg.SolutionFileError, "not in lowest terms"),
    (_set(("states", 0, "value"), "2237/4165"), tbsg.SolutionFileError,
     "'value' 2236/4165 is not the value of the initial state"),
    (_set(("states", 5, "value"), "1/3"), tbsg.TamperedSolutionError, "fails at state"),
    (_set(("states", 3, "state"), "RoSState(mover=0, open=9, saved=0, other=0)"),
     tbsg.SolutionFileError, "state row 3"),
    (_set(("states", 1, "action"), 5), tbsg.SolutionFileError, "action 5 out of range"),
    (_set(("states", 1, "label"), "'jump'"), tbsg.SolutionFileError, "the file says \"'jump'\""),
    (_set(("states", 1, "note"), "x"), tbsg.SolutionFileError, "unexpected note field"),
    (_set(("comment",), "x"), tbsg.SolutionFileError, "unexpected comment field"),
    (_drop(("method",)), tbsg.SolutionFileError, "missing method field"),
    (_drop(("game", "fields")), tbsg.SolutionFileError, "missing fields field"),
    (_drop(("graph", "components")), tbsg.SolutionFileError, "missing components field"),
]


@pytest.mark.parametrize(("change", "error", "message"), FIELD_EDITS)
def test_every_field_edit_is_rejected(saved: Path, change: Any, error: type[Exception],
                                      message: str) -> None:
    _edit(saved, change)
    with pytest.raises(error, match=message):
        load(saved)


def test_every_field_of_the_format_has_an_edit_test(saved: Path) -> None:
    # guard: a field added to the format without a test of its edit fails here
    doc = json.loads(saved.read_text())
    edited: set[str] = set()
    for change, _, _ in FIELD_EDITS:
        probe = json.loads(saved.read_text())
        change(probe)
        for key in doc:
            if probe.get(key) != doc[key]:
                edited.add(key)
                if isinstance(doc[key], dict):
                    edited |= {f"{key}.{k}" for k in doc[key] if probe.get(key, {}).get(k) != doc[key][k]}
        if probe["states"] != doc["states"]:
            first = next(i for i, (x, y) in enumerate(zip(probe["states"], doc["states"], strict=True))
                         if x != y)
            edited |= {f"row.{k}" for k in doc["states"][first] if probe["states"][first].get(k)
                       != doc["states"][first][k]}
    fields = set(doc) | {f"{k}.{f}" for k in ("game", "graph") for f in doc[k]}
    fields |= {f"row.{k}" for k in doc["states"][0]}
    assert fields <= edited, fields - edited


def test_consistent_kind_edit_loads_as_the_weaker_true_claim(saved: Path) -> None:
    # kind, players and method edited together: the optimal profile's values are also the
    # values of that profile on the whole game (an evaluation with reach="game": the file
    # covers more states than the profile reaches), so it verifies as that (a true statement)
    def change(d: dict[str, Any]) -> None:
        d["kind"], d["optimizing"] = "evaluate", []
        d["method"] = "values of a fixed strategy profile (tbsg.evaluate), exact"
    _edit(saved, change)
    back = load(saved)
    assert back.kind is tbsg.SolutionKind.EVALUATE
    assert back.n_states == 80
    assert all(len(back.optimal_actions(s)) == 1 for s in back.states)


def test_reach_profile_and_game_files_round_trip(tmp_path: Path) -> None:
    game = tbsg.games.risk_or_safety(4)
    for reach in ("profile", "game"):
        ev = tbsg.evaluate(game, lambda s: "toss", reach=reach)
        path = tmp_path / f"{reach}.json"
        tbsg.save(ev, path)
        back = load(path)
        assert back.n_states == ev.n_states and back.values == ev.values


def test_truncated_file_rejected(saved: Path) -> None:
    text = saved.read_text()
    saved.write_text(text[: len(text) // 2])
    with pytest.raises(tbsg.SolutionFileError, match="not valid JSON"):
        load(saved)
    assert main(["verify", str(saved)]) == 1


def test_dropped_rows_rejected(saved: Path) -> None:
    _edit(saved, lambda d: d["states"].pop())
    with pytest.raises(tbsg.SolutionFileError, match="79 state rows but the game has 80"):
        load(saved)


def test_edited_value_rejected_by_the_certificate(saved: Path) -> None:
    def change(d: dict[str, Any]) -> None:
        d["states"][0]["value"] = d["value"] = "2237/4165"
    _edit(saved, change)
    with pytest.raises(tbsg.TamperedSolutionError, match="fails at state"):
        load(saved)
    # without the certificate the row still loads: the hash covers the game, not the values
    assert load(saved, check=False).value() == Fraction(2237, 4165)


def test_edited_action_rejected(saved: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(saved.read_text())
    # a stop that the solution does not play: switch it to a strictly worse toss
    row = next(i for i, r in enumerate(doc["states"]) if r["label"] == "'stop'")

    def change(d: dict[str, Any]) -> None:
        d["states"][row]["action"], d["states"][row]["label"] = 0, "'toss'"
    _edit(saved, change)
    with pytest.raises(tbsg.TamperedSolutionError):
        load(saved)
    assert main(["verify", str(saved)]) == 1
    assert "REJECTED" in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["0.5", "1/0", "1/-2", "abc", "", "1e3"])
def test_inexact_or_malformed_value_rejected(saved: Path, bad: str) -> None:
    def change(d: dict[str, Any]) -> None:
        d["states"][2]["value"] = bad
    _edit(saved, change)
    with pytest.raises(tbsg.SolutionFileError, match="not an exact rational"):
        load(saved)


def test_wrong_version_and_format_rejected(saved: Path) -> None:
    def version(d: dict[str, Any]) -> None:
        d["format_version"] = 99
    _edit(saved, version)
    with pytest.raises(tbsg.SolutionFileError, match="format_version 99 is not supported"):
        load(saved)
    saved.write_text('{"hello": 1}')
    with pytest.raises(tbsg.SolutionFileError, match="not a tbsg solution file"):
        load(saved)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(tbsg.SolutionFileError, match="cannot read"):
        load(tmp_path / "nope.json")


@dataclass(frozen=True)
class Duel:
    """Own game, not in the catalog: player 0 picks a coin with win chance 1/3 or 1/2."""

    initial: str = "pick"

    def player(self, s: str) -> int:
        return 0

    def actions(self, s: str) -> tuple[str, ...]:
        return ("third", "half")

    def outcomes(self, s: str, a: str) -> list[tuple[Fraction, tbsg.Terminal]]:
        p = Fraction(1, 3) if a == "third" else Fraction(1, 2)
        return [(p, tbsg.win(0)), (1 - p, tbsg.win(1))]


def test_own_game_needs_the_game_to_load(tmp_path: Path) -> None:
    path = tmp_path / "duel.json"
    save(tbsg.solve(Duel()), path)
    assert json.loads(path.read_text())["game"] == {"module": __name__, "class": "Duel", "fields":
                                                    {"initial": "pick"}}
    with pytest.raises(tbsg.SolutionFileError, match="pass it"):
        load(path)
    assert load(path, game=Duel()).value() == Fraction(1, 2)
    assert load(path, import_game=True).value() == Fraction(1, 2)
    # another game, or the same class with other fields, is refused by name
    with pytest.raises(tbsg.SolutionFileError, match="the game given is"):
        load(path, game=Lobby())  # type: ignore[arg-type]
    with pytest.raises(tbsg.SolutionFileError, match="with fields"):
        load(path, game=Duel(initial="other"))


def test_float_solutions_cannot_be_saved(tmp_path: Path) -> None:
    game = tbsg.games.risk_or_safety(2)
    with pytest.raises(TypeError, match="FloatSolution"):
        save(tbsg.solve(game, exact=False), tmp_path / "f.json")  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["evaluate", "best_response"])
def test_evaluations_and_best_responses_round_trip(tmp_path: Path, kind: str) -> None:
    game = tbsg.games.risk_or_safety(3)
    sol = (tbsg.evaluate(game, lambda s: "toss") if kind == "evaluate"
           else tbsg.best_response(game, 1, lambda s: "toss"))
    path = tmp_path / f"{kind}.json"
    save(sol, path)
    back = load(path)
    assert back.kind == sol.kind and back.optimizing == sol.optimizing
    assert back.values == sol.values
    for s in sol.states:
        assert back.optimal_actions(s) == sol.optimal_actions(s)


def test_graph_hash_depends_on_the_game() -> None:
    from tbsg.engine.compile import compile_game

    a = graph_hash(compile_game(tbsg.games.risk_or_safety(3)))
    assert a == graph_hash(compile_game(tbsg.games.risk_or_safety(3)))
    assert a != graph_hash(compile_game(tbsg.games.risk_or_safety(4)))
    g = TableGame((0,), ((("x", ((Fraction(1), tbsg.win(0)),)),),))
    assert len(graph_hash(compile_game(g))) == 64


@dataclass(frozen=True)
class Lobby:
    """Player 0 may wait in the lobby forever or leave for a draw (non-stopping)."""

    initial: str = "lobby"

    def player(self, s: str) -> int:
        return 0

    def actions(self, s: str) -> tuple[str, ...]:
        return ("wait", "leave")

    def outcomes(self, s: str, a: str) -> list[tuple[Fraction, str | tbsg.Terminal]]:
        return [(Fraction(1), "lobby" if a == "wait" else tbsg.DRAW)]


@pytest.mark.parametrize(("c", "value", "action"), [(Fraction(0), Fraction(1, 2), "leave"),
                                                     (Fraction(1), Fraction(1), "wait")])
def test_round_trip_infinite_play(tmp_path: Path, c: Fraction, value: Fraction, action: str) -> None:
    # by hand: waiting forever is worth c, leaving 1/2, so the lobby is worth max(c, 1/2)
    sol = tbsg.solve(Lobby(), infinite_play=c)
    path = tmp_path / "lobby.json"
    save(sol, path)
    assert json.loads(path.read_text())["infinite_play"] == str(c)
    back = load(path, game=Lobby())
    assert back.infinite_play == c
    assert back.value() == value
    assert back.optimal_actions() == sol.optimal_actions() == (action,)


@dataclass(frozen=True)
class Huge:
    """One state whose value has a denominator of more than 4300 digits (3**9100)."""

    initial: str = "s"

    def player(self, s: str) -> int:
        return 0

    def actions(self, s: str) -> tuple[str, ...]:
        return ("go",)

    def outcomes(self, s: str, a: str) -> list[tuple[int, tbsg.Terminal]]:
        return [(1, tbsg.Terminal(Fraction(1, 3**9100)))]


def test_values_beyond_python_default_digit_limit(tmp_path: Path) -> None:
    # Python refuses int <-> str beyond 4300 digits by default; Pig to 100 has ~20,000
    sol = tbsg.solve(Huge())
    assert "4342-digit denominator" in repr(sol)
    assert "4342-digit denominator" in sol._repr_html_()
    path = tmp_path / "huge.json"
    save(sol, path)
    assert load(path, game=Huge()).value() == Fraction(1, 3**9100)
