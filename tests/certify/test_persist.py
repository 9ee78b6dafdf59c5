"""Saved solutions: rejection of damaged, edited or foreign files (the catalog round trips are in
tests/games/test_conformance.py, the row codec's own tests in test_encoding.py).

Files of format 4 are written by :func:`save`; ``data/ros4_format3.json`` is a file of
format 3 written by the version of tbsg before format 4 (Risk or Safety to 4), kept to
check that older files still load and that each of their fields is still checked."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
import pkgutil
import re
import shutil
import types
import typing
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import tbsg
from oracles import Sixes
from strategies import TableGame
from tbsg.certify import persist
from tbsg.certify.persist import graph_hash, load, save
from tbsg.cli import main
from tbsg.engine.boundary import BoundaryValues

FORMAT_3 = Path(__file__).parent / "data" / "ros4_format3.json"


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "ros4.json"
    save(tbsg.solve(tbsg.games.risk_or_safety(4)), path)
    return path


@pytest.fixture
def saved_v3(tmp_path: Path) -> Path:
    path = tmp_path / "ros4_format3.json"
    shutil.copyfile(FORMAT_3, path)
    return path


def _edit(path: Path, change: Any) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


def test_file_is_plain_json_with_exact_values(saved: Path) -> None:
    doc = json.loads(saved.read_text())
    assert doc["format"] == "tbsg-solution"
    assert doc["format_version"] == 5
    assert doc["game"] == {"module": "tbsg.games.risk_or_safety", "class": "RiskOrSafety",
                           "fields": {"target": 4}, "factory": None}
    assert (doc["kind"], doc["optimizing"]) == ("solve", [0, 1])
    # seed 000 (Jehn 2026), section 3.3: P(0,0,0) = 2236/4165 for n = 4
    assert doc["value"] == "2236/4165"
    assert doc["graph"]["states"] == len(doc["states"]) == 80
    state, numerator, denominator, action, label = doc["states"][0]
    assert (state, numerator, doc["denominators"][denominator], action, label) == (
        "RoSState(mover=0, open=0, saved=0, other=0)", "2236", "4165", 0, "'toss'")
    # one row per line, the head as indented JSON
    row = '\n  ["RoSState(mover=0, open=0, saved=0, other=0)", "2236", 0, 0, "\'toss\'"],\n'
    assert row in saved.read_text()


def test_a_file_of_format_3_written_before_format_4_still_loads(saved_v3: Path) -> None:
    assert json.loads(saved_v3.read_text())["format_version"] == 3
    back = load(saved_v3)
    fresh = tbsg.solve(tbsg.games.risk_or_safety(4))
    assert back.values == fresh.values and back.choice.tolist() == fresh.choice.tolist()
    assert back.optimal.tolist() == fresh.optimal.tolist()
    assert main(["verify", str(saved_v3)]) == 0


# --- every field of a saved file is checked ---------------------------------------------------

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


COMMON_EDITS_HEAD = [
    # edits of fields both formats hold, with the same error
    (_set(("format",), "tbsg-solutions"), tbsg.SolutionFileError, "not a tbsg solution file"),
    (_set(("format_version",), 1), tbsg.SolutionFileError, "format_version 1 is not supported"),
    (_set(("game", "module"), "tbsg.games.coinball"), tbsg.SolutionFileError,
     "cannot find the game class"),
    (_set(("game", "module"), "os"), tbsg.SolutionFileError, "outside tbsg: pass it"),
    (_set(("game", "class"), "Coinball"), tbsg.SolutionFileError, "cannot find the game class"),
    (_set(("game", "fields", "target"), 3), tbsg.SolutionFileError, "graph hash differs"),
    (_set(("game", "fields", "target"), 5), tbsg.SolutionFileError, "larger than the file records"),
    (_set(("game", "fields", "goal"), 5), tbsg.SolutionFileError, "cannot rebuild RiskOrSafety"),
    (_set(("graph", "sha256"), "0" * 64), tbsg.SolutionFileError, "'sha256' does not match"),
]

COMMON_EDITS_GRAPH = [
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
    (_set(("infinite_play",), "2/4"), tbsg.SolutionFileError, "not in lowest terms"),
    (_set(("infinite_play",), 0.5), tbsg.SolutionFileError, "not an exact rational"),
    (_set(("value",), "1/2"), tbsg.SolutionFileError, "'value' 1/2 is not the value of the initial"),
    (_set(("value",), "4472/8330"), tbsg.SolutionFileError, "not in lowest terms"),
    (_set(("comment",), "x"), tbsg.SolutionFileError, "unexpected comment field"),
    (_drop(("method",)), tbsg.SolutionFileError, "missing method field"),
    (_drop(("game", "fields")), tbsg.SolutionFileError, "missing fields field"),
    (_drop(("game", "factory")), tbsg.SolutionFileError, "missing factory field"),
    (_set(("game", "factory"), {"name": "x"}), tbsg.SolutionFileError, "missing arguments field"),
    (_set(("game", "factory"), {"name": 3, "arguments": {}}), tbsg.SolutionFileError,
     "'name' should be str"),
    (_set(("game", "factory"), {"name": "x", "arguments": {"goal": 3}}), tbsg.SolutionFileError,
     "argument 'goal' should be a text"),
    (_drop(("graph", "components")), tbsg.SolutionFileError, "missing components field"),
    (_set(("tbsg_version",), "latest"), tbsg.SolutionFileError, "is not a version number"),
]


FIELD_EDITS = COMMON_EDITS_HEAD + COMMON_EDITS_GRAPH + [
    # (edit, error type, message): one per field a file holds, each edited alone
    (_set(("format_version",), 3), tbsg.SolutionFileError, "unexpected denominators field"),
    (_set(("graph", "sha256_unordered"), "0" * 64), tbsg.SolutionFileError,
     "unexpected sha256_unordered field"),
    # the rows: [state, numerator, denominator (its position in "denominators"), action, label]
    (_set(("states", 0, 1), "2237"), tbsg.SolutionFileError,
     "'value' 2236/4165 is not the value of the initial state"),
    (_set(("states", 5, 1), "1"), tbsg.TamperedSolutionError, "fails at state"),
    (_set(("states", 5, 1), "2/3"), tbsg.SolutionFileError,
     r"state row 5 \(RoSState\(mover=1, open=1, saved=0, other=0\)\): '2/3' is not an integer"),
    (_set(("states", 3, 0), "RoSState(mover=0, open=9, saved=0, other=0)"),
     tbsg.SolutionFileError, "state row 3 is RoSState.* but the game's state there is"),
    (_set(("states", 1, 2), 99), tbsg.SolutionFileError, "denominator 99 out of range, the file lists 9"),
    (_set(("states", 1, 3), 5), tbsg.SolutionFileError, "action 5 out of range"),
    (_set(("states", 1, 4), "'jump'"), tbsg.SolutionFileError, "the file says \"'jump'\""),
    (lambda d: d["states"][1].append("x"), tbsg.SolutionFileError, "state row 1 should be an array"),
    (_set(("denominators", 0), "4166"), tbsg.SolutionFileError,
     r"state row 0 .*2236/4166 is not in lowest terms"),
    (_set(("denominators", 1), "0595"), tbsg.SolutionFileError, "denominator 1: '0595' is not a positive"),
    (_drop(("denominators",)), tbsg.SolutionFileError, "missing denominators field"),
]


FIELD_EDITS_V3 = COMMON_EDITS_HEAD + COMMON_EDITS_GRAPH + [
    # (edit, error type, message): one per field a file of format 3 holds, each edited alone
    (_set(("graph", "sha256_unordered"), "0" * 64), tbsg.SolutionFileError,
     "'sha256_unordered' does not match"),
    (_set(("states", 0, "value"), "2237/4165"), tbsg.SolutionFileError,
     "'value' 2236/4165 is not the value of the initial state"),
    (_set(("states", 5, "value"), "1/3"), tbsg.TamperedSolutionError, "fails at state"),
    (_set(("states", 3, "state"), "RoSState(mover=0, open=9, saved=0, other=0)"),
     tbsg.SolutionFileError, "state row 3"),
    (_set(("states", 1, "action"), 5), tbsg.SolutionFileError, "action 5 out of range"),
    (_set(("states", 1, "label"), "'jump'"), tbsg.SolutionFileError, "the file says \"'jump'\""),
    (_set(("states", 1, "note"), "x"), tbsg.SolutionFileError, "unexpected note field"),
]


@pytest.mark.parametrize(("change", "error", "message"), FIELD_EDITS)
def test_every_field_edit_is_rejected(saved: Path, change: Any, error: type[Exception],
                                      message: str) -> None:
    _edit(saved, change)
    with pytest.raises(error, match=message):
        load(saved)


@pytest.mark.parametrize(("change", "error", "message"), FIELD_EDITS_V3)
def test_every_field_edit_of_a_format_3_file_is_rejected(saved_v3: Path, change: Any, error: type[Exception],
                                                         message: str) -> None:
    _edit(saved_v3, change)
    with pytest.raises(error, match=message):
        load(saved_v3)


def _edited_fields(path: Path, edits: list[Any]) -> tuple[set[str], set[str]]:
    """The fields of the file at ``path`` (``game.x``, ``graph.x``, ``row.x``, ``denominators.0``)
    and those the edits change."""
    doc = json.loads(path.read_text())
    edited: set[str] = set()
    for change, _, _ in edits:
        probe = json.loads(path.read_text())
        change(probe)
        for key in doc:
            if probe.get(key) != doc[key]:
                edited.add(key)
                if isinstance(doc[key], dict):
                    edited |= {f"{key}.{k}" for k in doc[key] if probe.get(key, {}).get(k) != doc[key][k]}
        for part in ("states", "denominators"):
            if part not in doc or part not in probe or probe[part] == doc[part]:
                continue
            first = next(i for i, (x, y) in enumerate(zip(probe[part], doc[part], strict=False)) if x != y)
            row = doc[part][first]
            keys = (range(len(row)) if isinstance(row, list) else row) if part == "states" else [0]
            prefix = "row" if part == "states" else part
            changed = probe[part][first]
            edited |= {f"{prefix}.{k}" for k in keys if part != "states" or len(changed) != len(row)
                       or changed[k] != row[k]}
    fields = set(doc) | {f"{k}.{f}" for k in ("game", "graph") for f in doc[k]}
    first_row = doc["states"][0]
    fields |= {f"row.{k}" for k in (range(len(first_row)) if isinstance(first_row, list) else first_row)}
    if "denominators" in doc:
        fields.add("denominators.0")
    return fields, edited


@pytest.mark.parametrize("version", [5, 3])
def test_every_field_of_the_format_has_an_edit_test(saved: Path, saved_v3: Path, version: int) -> None:
    # guard: a field added to the format without a test of its edit fails here
    fields, edited = (_edited_fields(saved, FIELD_EDITS) if version == 5
                      else _edited_fields(saved_v3, FIELD_EDITS_V3))
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


@pytest.mark.parametrize("kind", ["solve", "evaluate", "best_response", "infinite_play"])
def test_load_compiles_the_game_once_and_checks_its_certificate(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    import tbsg.certify.certificate
    import tbsg.certify.persist
    from tbsg.engine.compile import compile_game

    game: Any = tbsg.games.risk_or_safety(3)
    if kind == "solve":
        sol = tbsg.solve(game)
    elif kind == "evaluate":
        sol = tbsg.evaluate(game, lambda s: "toss")
    elif kind == "best_response":
        sol = tbsg.best_response(game, 0, lambda s: "toss")
    else:
        game = TableGame(players=(0,), moves=((("wait", ((Fraction(1), 0),)),
                                               ("leave", ((Fraction(1), tbsg.DRAW),))),))
        sol = tbsg.solve(game, infinite_play=Fraction(1, 2))
    path = tmp_path / "sol.json"
    save(sol, path, game=game)
    compiled: list[object] = []

    def counting(*args: Any, **kwargs: Any) -> Any:
        compiled.append(args[0])
        return compile_game(*args, **kwargs)

    for module in (tbsg.certify.persist, tbsg.certify.certificate):
        monkeypatch.setattr(module, "compile_game", counting)
    back = load(path, game=game if kind == "infinite_play" else None)
    assert len(compiled) == 1
    # the certificate's mask, derived on that compile, is the solver's
    assert back.optimal.tolist() == sol.optimal.tolist()
    assert back.values == sol.values


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
        d["states"][0][1], d["value"] = "2237", "2237/4165"
    _edit(saved, change)
    with pytest.raises(tbsg.TamperedSolutionError, match="fails at state"):
        load(saved)
    # without the certificate the row still loads: the hash covers the game, not the values
    assert load(saved, check=False).value() == Fraction(2237, 4165)


def test_edited_action_rejected(saved: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(saved.read_text())
    # a stop that the solution does not play: switch it to a strictly worse toss
    row = next(i for i, r in enumerate(doc["states"]) if r[4] == "'stop'")

    def change(d: dict[str, Any]) -> None:
        d["states"][row][3:] = [0, "'toss'"]
    _edit(saved, change)
    with pytest.raises(tbsg.TamperedSolutionError):
        load(saved)
    assert main(["verify", str(saved)]) == 1
    assert "REJECTED" in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["0.5", "1/0", "1/-2", "abc", "", "1e3"])
def test_inexact_or_malformed_value_rejected(saved_v3: Path, bad: str) -> None:
    def change(d: dict[str, Any]) -> None:
        d["states"][2]["value"] = bad
    _edit(saved_v3, change)
    with pytest.raises(tbsg.SolutionFileError, match="not an exact rational"):
        load(saved_v3)


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
                                                    {"initial": "pick"}, "factory": None}
    with pytest.raises(tbsg.SolutionFileError, match="pass it"):
        load(path)
    assert load(path, game=Duel()).value() == Fraction(1, 2)
    assert load(path, import_game=True).value() == Fraction(1, 2)
    # another game, or the same class with other fields, is refused by name
    with pytest.raises(tbsg.SolutionFileError, match="the game given is"):
        load(path, game=Lobby())
    with pytest.raises(tbsg.SolutionFileError, match="with fields"):
        load(path, game=Duel(initial="other"))


class Race:
    """A plain class that carries its parameters with ``parameters()``: from ``goal`` tosses of
    a fair coin, heads wins for player 0 once ``goal`` heads come before ``goal`` tails."""

    def __init__(self, goal: int = 2, bias: Fraction = Fraction(1, 2)) -> None:
        self.goal, self.bias = goal, bias
        self.initial: tuple[int, int] = (0, 0)

    def parameters(self) -> dict[str, object]:
        return {"goal": self.goal, "bias": self.bias}

    def player(self, s: tuple[int, int]) -> int:
        return 0

    def actions(self, s: tuple[int, int]) -> tuple[str, ...]:
        return ("toss",)

    def outcomes(self, s: tuple[int, int], a: str) -> list[tuple[Fraction, tuple[int, int] | tbsg.Terminal]]:
        h, t = s
        heads = tbsg.win(0) if h + 1 == self.goal else (h + 1, t)
        tails = tbsg.win(1) if t + 1 == self.goal else (h, t + 1)
        return [(self.bias, heads), (1 - self.bias, tails)]


def test_a_class_with_parameters_round_trips_and_names_them(tmp_path: Path) -> None:
    path = tmp_path / "race.json"
    sol = tbsg.solve(Race(3, Fraction(1, 3)))
    save(sol, path)
    assert json.loads(path.read_text())["game"]["fields"] == {"goal": 3, "bias": {"fraction": "1/3"}}
    # rebuilt by calling the class with the recorded parameters
    assert load(path, game=Race).value() == sol.value()
    assert load(path, import_game=True).value() == sol.value()
    with pytest.raises(tbsg.SolutionFileError, match="with fields"):
        load(path, game=Race(3))
    # provenance names the parameters, never an address
    assert "game: Race(goal=3, bias=1/3) (" in str(sol.provenance())
    assert "0x" not in str(load(path, game=Race).provenance())


def test_the_factory_is_recorded_and_named_when_the_game_is_missing(tmp_path: Path) -> None:
    path = tmp_path / "duel.json"
    save(tbsg.solve(Duel()), path, factory="duel.py:Duel", arguments={"initial": "pick"})
    assert json.loads(path.read_text())["game"]["factory"] == {"name": "duel.py:Duel",
                                                               "arguments": {"initial": "pick"}}
    with pytest.raises(tbsg.GameUnavailableError, match=r"built by duel\.py:Duel -p initial=pick"):
        load(path)
    from tbsg.certify.persist import read_game_record
    record = read_game_record(path)
    assert (record.module, record.qualname, record.factory, record.arguments) == (
        __name__, "Duel", "duel.py:Duel", {"initial": "pick"})
    for bad in ({"factory": ""}, {"factory": 3}, {"arguments": {"a": "1"}},
                {"factory": "x:y", "arguments": {"a": 1}}):
        with pytest.raises(tbsg.InvalidArgumentError, match=r"factory|arguments"):
            save(tbsg.solve(Duel()), path, **bad)


def test_files_of_format_version_2_still_load(saved_v3: Path) -> None:
    saved = saved_v3
    # version 2 had no game factory; it is read as recording none
    def older(d: dict[str, Any]) -> None:
        d["format_version"] = 2
        del d["game"]["factory"]
    _edit(saved, older)
    # seed 000 (Jehn 2026), section 3.3: P(0,0,0) = 2236/4165 for n = 4
    assert load(saved).value() == Fraction(2236, 4165)
    _edit(saved, _set(("game", "factory"), None))
    with pytest.raises(tbsg.SolutionFileError, match="unexpected factory field"):
        load(saved)


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


# --- recorded fields: names, annotations and declared ranges, before the game is built --------

def _recordable_tbsg_games() -> list[type]:
    """Every dataclass game of tbsg whose fields a file can record (ints, bools, strings,
    fractions, None): the classes :func:`load` may rebuild from a file."""
    def scalar(hint: object) -> bool:
        if typing.get_origin(hint) in (typing.Union, types.UnionType):
            return all(scalar(m) for m in typing.get_args(hint))
        literal = typing.get_origin(hint) is typing.Literal
        return literal or hint in (int, bool, str, Fraction, Any, type(None))

    found = []
    for info in pkgutil.walk_packages(tbsg.__path__, "tbsg."):
        module = importlib.import_module(info.name)
        for cls in vars(module).values():
            if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == info.name \
                    and all(hasattr(cls, m) for m in ("player", "actions", "outcomes")):
                hints = typing.get_type_hints(cls)
                if all(scalar(hints[f.name]) for f in dataclasses.fields(cls)):
                    found.append(cls)
    return found


def test_every_recordable_tbsg_game_declares_the_range_of_its_numbers() -> None:
    from tbsg.games.registry import CATALOG, GAME_BOUNDS, bounds_of

    games = _recordable_tbsg_games()
    assert {f"{c.__module__}.{c.__qualname__}" for c in games} == set(GAME_BOUNDS)
    for cls in games:
        declared = bounds_of(cls.__module__, cls.__qualname__)
        assert declared is not None
        hints = typing.get_type_hints(cls)
        numeric = {f.name for f in dataclasses.fields(cls)
                   if hints[f.name] in (int, Fraction, Any, int | None)}  # None: a default
        assert set(declared) == numeric, cls
        for f in dataclasses.fields(cls):  # the defaults lie in the ranges
            if f.name in declared and f.default is not dataclasses.MISSING:
                assert declared[f.name].problem(f.default) is None, (cls, f.name)
    for entry in CATALOG.values():  # and so do the catalog factories' defaults
        bounds = entry.bounds()
        assert bounds, entry.name
        for p in inspect.signature(entry.make_function()).parameters.values():
            if p.default is not p.empty and p.name in bounds:
                assert bounds[p.name].problem(p.default) is None


def test_biased_games_round_trip_with_their_fractions(tmp_path: Path) -> None:
    games: tuple[tbsg.Game[Any, Any], ...] = (tbsg.games.biased_pig(3, 4, Fraction(1, 3)),
                                              tbsg.games.biased_risk_or_safety(3, Fraction(2, 5)))
    for game in games:
        path = tmp_path / "biased.json"
        save(tbsg.solve(game), path)
        assert load(path).value() == tbsg.solve(game).value()


@pytest.mark.parametrize(("game", "edit", "error", "message"), [
    ("pig", {"die": 100_001}, tbsg.GameUnavailableError,
     r"game field 'die' of Pig is 100001 \(out of range\): tbsg rebuilds Pig from a file for an int "
     r"from 2 to 100,000 only \(edited\?\); for a genuine game, pass it: load\(path, game=Pig\(\.\.\.\)\)"),
    ("pig", {"goal": 10**9 + 1}, tbsg.GameUnavailableError, "'goal' of Pig is 1000000001 .out of range"),
    ("super_six", {"lid": 6}, tbsg.GameUnavailableError, r"for an int from 0 to 5 only"),
    ("biased_pig", {"bust": {"fraction": "3/2"}}, tbsg.GameUnavailableError,
     r"'bust' of BiasedPig is 3/2 \(out of range\): .* strictly between 0 and 1 \(or None\) only"),
    ("biased_pig", {"bust": True}, tbsg.GameUnavailableError, r"True \(a bool is not a Fraction\)"),
    ("biased_pig", {"bust": "1/2"}, tbsg.GameUnavailableError, r"'1/2' \(a str is not a Fraction\)"),
    ("unspeakable_words", {"bust": "never"}, tbsg.SolutionFileError,
     r"game field 'bust' should be one of 'at_most', 'less_than' \(the annotation of "
     r"UnspeakableWords.bust\), found str 'never'"),
    ("unspeakable_words", {"a": None}, tbsg.SolutionFileError, "game field 'a' should be int, found None"),
    ("pig", {"colour": 1}, tbsg.GameUnavailableError, r"cannot rebuild Pig .*: it has no field 'colour' "
                                                       r"\(its fields: goal, die\)"),
])
def test_recorded_fields_are_checked_before_the_game_is_built(tmp_path: Path, game: str, edit: dict[str, Any],
                                                             error: type[Exception], message: str) -> None:
    games: dict[str, tbsg.Game[Any, Any]] = {
        "pig": tbsg.games.pig(3), "super_six": tbsg.games.super_six(1, 1),
        "biased_pig": tbsg.games.biased_pig(3, 4, Fraction(1, 3)),
        "unspeakable_words": tbsg.games.unspeakable_words(2, 2)}
    path = tmp_path / "edited.json"
    save(tbsg.solve(games[game]), path)
    _edit(path, lambda d: d["game"]["fields"].update(edit))
    with pytest.raises(error, match=message.replace("should be int, found", "should be int .*, found")):
        load(path)


def test_a_missing_field_and_a_field_of_an_own_game(saved: Path, tmp_path: Path) -> None:
    _edit(saved, _drop(("game", "fields", "target")))
    with pytest.raises(tbsg.GameUnavailableError, match="the file records no 'target'"):
        load(saved)

    @dataclass(frozen=True)
    class Coin:
        bias: Fraction = Fraction(1, 3)
        initial: int = 0

        def player(self, s: int) -> int:
            return 0

        def actions(self, s: int) -> tuple[str, ...]:
            return ("toss",)

        def outcomes(self, s: int, a: str) -> list[tuple[Fraction, tbsg.Terminal]]:
            return [(self.bias, tbsg.win(0)), (1 - self.bias, tbsg.win(1))]

    path = tmp_path / "coin.json"
    save(tbsg.solve(Coin()), path)
    assert load(path, game=Coin).value() == Fraction(1, 3)  # the class, called with the fields
    _edit(path, lambda d: d["game"]["fields"].update(bias="1/3"))
    with pytest.raises(tbsg.SolutionFileError, match="game field 'bias' should be Fraction"):
        load(path, game=Coin)


@pytest.mark.parametrize("text", ["4/2", "3/1", "0/5", "-0", "-0/3", "6/4", "-10/15"])
def test_lowest_terms_without_writing_the_number(text: str) -> None:
    from tbsg.certify.persist import _Reader

    with pytest.raises(tbsg.SolutionFileError, match="not in lowest terms"):
        _Reader("f", 100).rational(text, "x")


@pytest.mark.parametrize("text", ["0", "7", "-7", "2/3", "-10/21", "1/" + "3" * 90])
def test_numbers_in_lowest_terms_are_read(text: str) -> None:
    from tbsg.certify.persist import _Reader

    assert _Reader("f", 100).rational(text, "x") == Fraction(text)


def test_a_duplicate_key_inside_a_fraction_is_named(tmp_path: Path) -> None:
    path = tmp_path / "biased.json"
    save(tbsg.solve(tbsg.games.biased_pig(3, 4, Fraction(1, 3))), path)
    text = path.read_text()
    assert text.count('"bust": {\n    "fraction": "1/3"') == 1
    path.write_text(text.replace('"fraction": "1/3"', '"fraction": "1/2", "fraction": "1/3"'))
    with pytest.raises(tbsg.SolutionFileError, match=r"key 'fraction' appears twice in game\.fields\.bust"):
        load(path)


# --- games that pay rewards --------------------------------------------------------------------

@pytest.mark.parametrize(("cost", "value", "action"), [(4, 4, "quit"), (7, 6, "roll")])
def test_a_reward_game_round_trips(tmp_path: Path, cost: int, value: int, action: str) -> None:
    """Hand derivation: rolling until a six takes 6 rolls on average (geometric, success
    1/6), so she quits when quitting costs less than 6. Saved and loaded, the solution
    answers the same, values outside [0, 1] and player 1's view ``-v`` included."""
    path = tmp_path / "sixes.json"
    save(tbsg.solve(Sixes(cost)), path)
    back = load(path, game=Sixes(cost))
    assert back.value() == value and back.action() == action
    assert back.win_probability is False and back.value(player=1) == -value
    assert json.loads(path.read_text())["value"] == str(value)


def test_a_file_of_a_game_whose_reward_changed_is_refused(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """load compiles the game again: its rewards are part of the graph the file records
    (the graph hash), so a game whose reward changed, even where the solution's values
    would still hold, is not the file's game; and an edited value fails the certificate."""
    path = tmp_path / "sixes.json"
    save(tbsg.solve(Sixes()), path)
    monkeypatch.setattr(Sixes, "reward", lambda self, s, a: 2 if a == "roll" else self.quit)
    with pytest.raises(tbsg.SolutionFileError, match="graph hash differs"):
        load(path, game=Sixes())
    monkeypatch.undo()
    _edit(path, _set(("states", 0, 1), "5"))  # over the denominator 1, as the 4 it replaces
    _edit(path, _set(("value",), "5"))
    with pytest.raises(tbsg.TamperedSolutionError, match="value 5 but action 'quit' yields 4"):
        load(path, game=Sixes())


def test_a_score_game_and_any_infinite_play_round_trip(tmp_path: Path) -> None:
    """Issue 24: a reward game's solution, and one with never-ending play worth 2 (any
    rational now), are saved and loaded; a changed reward is not the saved game."""
    from oracles import OneTurn, Wait
    sol = tbsg.solve(OneTurn(4))
    tbsg.save(sol, tmp_path / "turn.json")
    back = tbsg.load(tmp_path / "turn.json", game=OneTurn(4))
    assert back.value() == Fraction(155, 36) and not back.win_probability
    wait = tbsg.solve(Wait(), infinite_play=2)
    tbsg.save(wait, tmp_path / "wait.json")
    assert tbsg.load(tmp_path / "wait.json", game=Wait()).value() == 1  # v(start) = 2 / 2


@pytest.mark.parametrize("cache", ["_state_texts", "_label_texts"])
def test_the_texts_save_caches_on_the_graph_are_checked_by_verify(tmp_path: Path, cache: str) -> None:
    """save writes each state's and action's repr once and keeps them on the solution's
    graph (the graph hash reads them too); verify recomputes such a cache and refuses an
    edited one, as it does every cache of the graph."""
    game = tbsg.games.risk_or_safety(3)
    sol = tbsg.solve(game)
    save(sol, tmp_path / "ros3.json")
    g = sol.graph
    assert cache in vars(g)
    tbsg.verify(game, sol)  # the caches hold what their fields give
    edited: Any = (("'RoSState'",) * g.n_states if cache == "_state_texts"
                   else (("'launch'",) * len(g.label_texts()[0]), g.label_texts()[1]))
    object.__setattr__(g, cache, edited)
    with pytest.raises(tbsg.TamperedSolutionError, match=f"cached {cache}"):
        tbsg.verify(game, sol)


# --- format 5: files of solutions that store only their boundary values --------------------

def _null_rows(path: Path) -> list[int]:
    return [i for i, row in enumerate(json.loads(path.read_text())["states"]) if row[1] is None]


@pytest.mark.parametrize("game", [tbsg.games.pig(12), tbsg.games.risk_or_safety(5)], ids=repr)
def test_a_boundary_solution_saves_its_stored_values_and_loads_as_the_whole_one(tmp_path: Path,
                                                                                game: Any) -> None:
    whole = tbsg.solve(game, keep_values="all")
    part = tbsg.solve(game, keep_values="boundary")
    all_path, part_path = tmp_path / "all.json", tmp_path / "part.json"
    save(whole, all_path)
    save(part, part_path)
    assert _null_rows(all_path) == []
    nulls = _null_rows(part_path)
    assert len(nulls) == whole.n_states - part.values_stored > 0
    assert all(row[1:3] == [None, None] for row in (json.loads(part_path.read_text())["states"][i]
                                                    for i in nulls))
    for check in (True, False):
        back = load(part_path, check=check)
        assert isinstance(back._raw_values, BoundaryValues)
        assert back.values_stored == part.values_stored
        assert list(back.values_exact) == list(whole.values_exact)
        assert back.choice.tolist() == whole.choice.tolist()
        assert back.optimal.tolist() == whole.optimal.tolist()
    # saving the loaded solution writes the same file
    save(load(part_path), tmp_path / "again.json")
    assert (tmp_path / "again.json").read_text() == part_path.read_text()


def test_a_boundary_file_of_long_values_is_smaller(tmp_path: Path) -> None:
    # Pig's omitted values are most of its digits; in Risk or Safety to 5 a value is a few
    # characters, shorter than "null, null", so only a game with long values gains
    game = tbsg.games.pig(12)
    save(tbsg.solve(game, keep_values="all"), tmp_path / "all.json")
    save(tbsg.solve(game, keep_values="boundary"), tmp_path / "part.json")
    assert (tmp_path / "part.json").stat().st_size < (tmp_path / "all.json").stat().st_size


def test_a_file_with_every_value_is_format_4_with_another_version(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    sol = tbsg.solve(tbsg.games.risk_or_safety(5), keep_values="all")
    save(sol, tmp_path / "v5.json")
    monkeypatch.setattr(persist, "FORMAT_VERSION", 4)
    save(sol, tmp_path / "v4.json")
    monkeypatch.undo()
    v4 = (tmp_path / "v4.json").read_text()
    assert '"format_version": 4,' in v4
    assert v4.replace('"format_version": 4,', '"format_version": 5,') == (tmp_path / "v5.json").read_text()
    back = load(tmp_path / "v4.json")
    assert back.values == sol.values and back.optimal.tolist() == sol.optimal.tolist()


@pytest.fixture
def saved_boundary(tmp_path: Path) -> Path:
    path = tmp_path / "ros5.json"
    save(tbsg.solve(tbsg.games.risk_or_safety(5), keep_values="boundary"), path)
    return path


def _stored_row(path: Path, after: int = 0) -> int:
    """A row after ``after`` that stores its value."""
    return next(i for i, row in enumerate(json.loads(path.read_text())["states"]) if i > after
                and row[1] is not None)


def test_a_null_value_where_another_component_reads_it_is_refused(saved_boundary: Path) -> None:
    row = _stored_row(saved_boundary)
    state = json.loads(saved_boundary.read_text())["states"][row][0]
    _edit(saved_boundary, _set(("states", row, slice(1, 3)), [None, None]))
    with pytest.raises(tbsg.SolutionFileError, match=re.escape(
            f"state row {row} ({state}): value null, but another component reads the state's value "
            "(or it is the initial state): it must be stored")):
        load(saved_boundary)


def test_a_null_value_of_the_initial_state_is_refused(saved_boundary: Path) -> None:
    _edit(saved_boundary, _set(("states", 0, slice(1, 3)), [None, None]))
    with pytest.raises(tbsg.SolutionFileError, match=re.escape(
            "state row 0 (RoSState(mover=0, open=0, saved=0, other=0)): value null, but another "
            "component reads")):
        load(saved_boundary)


@pytest.mark.parametrize(("fields", "message"), [
    ([None, 0], "the numerator is null but the denominator is not null"),
    (["1", None], "the numerator is not null but the denominator is null"),
])
def test_a_value_null_in_one_field_only_is_refused(saved_boundary: Path, fields: list[Any],
                                                   message: str) -> None:
    row = _null_rows(saved_boundary)[0]
    _edit(saved_boundary, _set(("states", row, slice(1, 3)), fields))
    with pytest.raises(tbsg.SolutionFileError, match=f"state row {row} \\(.*\\): {message} "):
        load(saved_boundary)


def test_null_values_in_a_file_of_format_4_are_refused(saved_boundary: Path) -> None:
    row = _null_rows(saved_boundary)[0]
    _edit(saved_boundary, _set(("format_version",), 4))
    with pytest.raises(tbsg.SolutionFileError, match=f"state row {row} \\(.*\\): value null, which files "
                                                     "of format version 4 do not have"):
        load(saved_boundary)


def test_null_values_in_a_file_with_infinite_play_are_refused(saved_boundary: Path) -> None:
    row = _null_rows(saved_boundary)[0]
    _edit(saved_boundary, _set(("infinite_play",), "1/2"))
    with pytest.raises(tbsg.SolutionFileError, match=f"state row {row} \\(.*\\): value null in a file "
                                                     "with 'infinite_play'"):
        load(saved_boundary)


def test_an_edited_stored_value_of_a_file_with_null_values_is_refused_by_the_certificate(
        saved_boundary: Path) -> None:
    # the initial state shares its component with states whose values are omitted: they
    # are recomputed from the edited value, and the certificate still refuses it
    doc = json.loads(saved_boundary.read_text())
    assert doc["states"][0][1:3] == ["1026", 0] and doc["denominators"][0] == "1925"
    assert 1 in _null_rows(saved_boundary)  # (a state of the initial state's component)

    def change(d: dict[str, Any]) -> None:
        d["states"][0][1], d["value"] = "1027", "1027/1925"
    _edit(saved_boundary, change)
    with pytest.raises(tbsg.TamperedSolutionError, match="fails at state"):
        load(saved_boundary)
    # without the certificate the stored value is the file's, not a recomputed one
    assert load(saved_boundary, check=False).value() == Fraction(1027, 1925)


class Tag:
    """From the start, "a" leads to "b"; there player 0 may try (win with probability 1/2,
    else "c") or wait (to "c"), and at "c" player 1 may try (player 1 wins with
    probability 1/2, else back to "a") or wait (to "b"): waiting at both never ends."""

    initial = "start"

    def player(self, s: str) -> int:
        return 1 if s == "c" else 0

    def actions(self, s: str) -> tuple[str, ...]:
        return ("go",) if s in ("start", "a") else ("try", "wait")

    def outcomes(self, s: str, a: str) -> list[tuple[Fraction, str | tbsg.Terminal]]:
        if s in ("start", "a"):
            return [(Fraction(1), "a" if s == "start" else "b")]
        if a == "wait":
            return [(Fraction(1), "c" if s == "b" else "b")]
        return [(Fraction(1, 2), tbsg.win(0) if s == "b" else tbsg.win(1)),
                (Fraction(1, 2), "c" if s == "b" else "a")]


@pytest.mark.parametrize("check", [True, False])
def test_edited_actions_that_never_end_play_among_omitted_values_are_refused(tmp_path: Path,
                                                                             check: bool) -> None:
    # a file edited by hand: rule of infinite play dropped, the values of b and c omitted
    # (a is the component's only entry) and both players waiting: the system of b and c
    # is singular (b = c, c = b)
    sol = tbsg.solve(Tag(), infinite_play=Fraction(1, 2))
    assert list(sol.values_exact) == [Fraction(2, 3), Fraction(2, 3), Fraction(2, 3), Fraction(1, 3)]
    path = tmp_path / "tag.json"
    save(sol, path)

    def change(d: dict[str, Any]) -> None:
        d["infinite_play"] = None
        for row in d["states"][2:]:
            row[1:] = [None, None, 1, "'wait'"]
    _edit(path, change)
    with pytest.raises(tbsg.TamperedSolutionError, match="the strategy the rows record never ends play "
                                                         "in some component"):
        load(path, game=Tag(), check=check)


def test_verify_on_the_command_line_reads_a_boundary_file(saved_boundary: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert _null_rows(saved_boundary)
    assert main(["verify", str(saved_boundary)]) == 0
    assert "verified" in capsys.readouterr().out


# --- format 5: attacks found by an adversarial review (each names its exact input) -------
def _boundary_file(tmp_path: Path, game: Any) -> Path:
    path = tmp_path / "boundary.json"
    save(tbsg.solve(game, keep_values="boundary"), path)
    return path


def _edit_boundary_file(path: Path, change: Any) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))
    return doc


def _set_huge_stored_value(doc: dict[str, Any]) -> None:
    """The first stored row after the initial state's (a boundary state) of
    risk_or_safety(12): its value made 10**400, an integer over the denominator "1"."""
    rows = doc["states"]
    i = next(i for i, r in enumerate(rows) if i and r[1] is not None)
    assert any(r[1] is None for r in rows)
    if "1" not in doc["denominators"]:
        doc["denominators"].append("1")
    rows[i][1:3] = ["1" + "0" * 400, doc["denominators"].index("1")]


@pytest.mark.parametrize("check", [True, False])
def test_a_huge_stored_value_read_by_omitted_values_is_refused_not_overflowerror(
        tmp_path: Path, check: bool) -> None:
    # risk_or_safety(12), keep_values="boundary"; stored row 1 edited to 10**400.
    # Expected: TamperedSolutionError (the values it determines are not those of the game).
    # Got: bare OverflowError ('mpq' too large to convert to float) from the recomputation
    # (exact._Engine._settle -> bk.to_float), with check=True and check=False alike.
    path = _boundary_file(tmp_path, tbsg.games.risk_or_safety(12))
    _edit_boundary_file(path, _set_huge_stored_value)
    with pytest.raises((tbsg.TamperedSolutionError, tbsg.SolutionFileError)):
        load(path, check=check)


def test_verify_on_the_command_line_reports_a_huge_stored_value_without_a_traceback(
        tmp_path: Path) -> None:
    # `tbsg verify FILE` on the file of the test above: expected a failing exit code and a
    # message; got the OverflowError traceback.
    from tbsg.cli import main
    path = _boundary_file(tmp_path, tbsg.games.risk_or_safety(12))
    _edit_boundary_file(path, _set_huge_stored_value)
    assert main(["verify", str(path)]) != 0


@pytest.mark.parametrize("infinite_play", [Fraction(1, 2), Fraction(0)], ids=str)
def test_a_boundary_solution_with_infinite_play_saves_a_file_load_accepts(
        tmp_path: Path, infinite_play: Fraction) -> None:
    # tbsg.solve(risk_or_safety(5), keep_values="boundary", infinite_play=1/2 or 0), saved:
    # expected load to give back the same values; got SolutionFileError "state row 1
    # (RoSState(mover=0, open=1, ...)): value null in a file with 'infinite_play'": save
    # writes null rows that load refuses in any file with infinite_play.
    game = tbsg.games.risk_or_safety(5)
    path = tmp_path / "ip.json"
    save(tbsg.solve(game, keep_values="boundary", infinite_play=infinite_play), path)
    loaded = load(path)
    whole = tbsg.solve(game, keep_values="all", infinite_play=infinite_play)
    assert list(loaded._raw_values) == list(whole._raw_values)


def test_an_evaluation_with_infinite_play_stored_as_boundary_values_saves_a_file_load_accepts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # tbsg.evaluate(risk_or_safety(5), an optimal strategy, infinite_play=1/2) with the
    # "auto" budget 0 (boundary values), saved: load refused it (same cause as above).
    import tbsg.api.solving as solving
    game = tbsg.games.risk_or_safety(5)
    whole = tbsg.solve(game, keep_values="all")
    strategy = {s: whole.optimal_actions(s)[0] for s in whole.graph.states}
    full = tbsg.evaluate(game, strategy, infinite_play=Fraction(1, 2))
    monkeypatch.setitem(solving._KEEP_BUDGET, "auto", 0)
    path = tmp_path / "ev.json"
    save(tbsg.evaluate(game, strategy, infinite_play=Fraction(1, 2)), path)
    assert list(load(path)._raw_values) == list(full._raw_values)
