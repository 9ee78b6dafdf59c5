"""One conformance test over every catalog game (as OpenSpiel tests every registered game).

For each entry of :data:`tbsg.games.registry.CATALOG`, on a small instance: the game builds from
command-line parameters, is a frozen dataclass with a ``NamedTuple`` state type whose
fields are documented, solves exactly and in floats (the proven bounds contain the exact
value), verifies, evaluates and best-responds consistently, saves and loads (also through
``tbsg verify``), tabulates by its state fields, and names a source module with checks.
"""

from __future__ import annotations

import dataclasses
import inspect
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import tbsg
from tbsg.certify.persist import load, save
from tbsg.cli import main
from tbsg.games.registry import CATALOG

SMALL = {
    "risk_or_safety": {"target": "5"},
    "coinball": {"tosses": "8"},
    "the_race": {"goal": "6"},
    "unspeakable_words": {"a": "3", "b": "4"},
    "super_six": {"k": "3", "l": "2"},
    "pig": {"goal": "6", "die": "4"},
    "piglet": {"goal": "4"},
    "pig_turn": {"die": "4"},
    "pig_solitaire": {"goal": "8", "die": "4"},
}


def test_every_catalog_game_has_a_small_instance() -> None:
    assert set(CATALOG) == set(SMALL)


@pytest.fixture(scope="module", params=sorted(SMALL))
def case(request: pytest.FixtureRequest) -> tuple[str, Any, tbsg.Solution[Any, Any]]:
    name = request.param
    game = CATALOG[name].make(SMALL[name])
    return name, game, tbsg.solve(game)


def test_game_is_a_frozen_dataclass_with_documented_state_fields(
        case: tuple[str, Any, tbsg.Solution[Any, Any]]) -> None:
    _, game, sol = case
    assert dataclasses.is_dataclass(game)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(game, dataclasses.fields(game)[0].name, 0)
    state_type = type(sol.initial)
    fields = getattr(state_type, "_fields", None)
    assert fields, f"{state_type.__name__} is not a NamedTuple"
    doc = inspect.getdoc(state_type) or ""
    for f in fields:
        assert f"{f} :" in doc, f"{state_type.__name__}.{f} is not documented"
    assert all(type(s) is state_type for s in sol.states)


def test_solves_exactly_and_in_floats_consistently(case: tuple[str, Any, tbsg.Solution[Any, Any]]) -> None:
    _, game, sol = case
    assert sol.kind is tbsg.SolutionKind.SOLVE
    assert isinstance(sol.value(), Fraction)
    assert not sol.win_probability or 0 <= sol.value() <= 1  # a score game pays any rational
    approx = tbsg.solve(game, exact=False)
    for s in sol.states:
        lo, hi = approx.bounds(s)
        assert Fraction(lo) <= sol.value(s) <= Fraction(hi)
    assert approx.converged


def test_verifies_and_evaluates(case: tuple[str, Any, tbsg.Solution[Any, Any]]) -> None:
    _, game, sol = case
    assert tbsg.verify(game, sol).states == sol.n_states
    assert tbsg.evaluate(game, sol.strategy, reach="game").values == sol.values
    for player in (0, 1):
        other = tbsg.best_response(game, player, sol.strategy, reach="game")
        assert other.values == sol.values  # no better reply to an optimal strategy
    # by default only the states the profile reaches are built, with the same values
    reached = tbsg.evaluate(game, sol.strategy)
    assert reached.n_states <= sol.n_states
    assert all(reached.value(s) == sol.value(s) for s in reached.states)


def test_saves_and_loads(case: tuple[str, Any, tbsg.Solution[Any, Any]], tmp_path: Path) -> None:
    name, game, sol = case
    path = tmp_path / f"{name}.json"
    save(sol, path)
    back = load(path)
    assert back.game == game
    assert back.values == sol.values
    assert back.strategy == sol.strategy
    for s in sol.states:
        assert back.optimal_actions(s) == sol.optimal_actions(s)
    assert (back.n_components, back.largest_component) == (sol.n_components, sol.largest_component)
    assert "loaded from" in back.method
    assert main(["verify", str(path)]) == 0


def test_tabulates_by_state_fields(case: tuple[str, Any, tbsg.Solution[Any, Any]]) -> None:
    _, _, sol = case
    table = tbsg.state_table(sol)
    assert len(table) == sol.n_states
    assert table.fields == tuple(f if f not in table.columns[len(table.fields):] else f"state.{f}"
                                 for f in type(sol.initial)._fields)


def test_names_a_source_with_checks(case: tuple[str, Any, tbsg.Solution[Any, Any]]) -> None:
    name, _, _ = case
    module = CATALOG[name].load_source()
    assert callable(module.checks)
    assert (inspect.getdoc(module) or "").strip()
    game_doc = inspect.getdoc(CATALOG[name].load_module()) or ""
    assert game_doc.strip()
