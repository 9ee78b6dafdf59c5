"""Regressions of the second adversarial review, point 6 (smaller findings): no wrong
number, no misplaced blame, no raw traceback.

Each test reproduces a finding as it was reported (the failing case): a verification
reported for another solution; cached graph fields that ``verify`` did not compare; a
non-stationary strategy blamed on the game; a solution refused as the strategy of
``evaluate`` and ``best_response``; an all-empty heat map.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import tbsg
from tbsg.games import coinball, pig, risk_or_safety
from tbsg.games.risk_or_safety import RoSState

# --- 6a. a verification belongs to the solution it checked ---------------------------------------


def _last_action(game: tbsg.Game[Any, Any]) -> Callable[[Any], Any]:
    return lambda s: tuple(game.actions(s))[-1]


def test_provenance_refuses_the_verification_of_another_solution_of_the_same_size() -> None:
    # two profiles evaluated over the whole game: the same counts, kind and rule, other values
    game = risk_or_safety(3)
    tosses = tbsg.evaluate(game, lambda s: "toss", reach="game")
    others = tbsg.evaluate(game, _last_action(game), reach="game")
    assert tosses.value() != others.value()
    check = tbsg.verify(game, tosses)
    with pytest.raises(tbsg.InvalidArgumentError, match="the verification is of another solution"):
        others.provenance(check)
    assert tosses.provenance(check).certificate == str(check)
    # a solution equal to the one verified, field for field, is that solution
    assert tbsg.evaluate(game, lambda s: "toss", reach="game").provenance(check).certificate == str(check)


def test_provenance_refuses_a_verification_once_the_solution_changed() -> None:
    game = risk_or_safety(3)
    sol = tbsg.solve(game)
    check = tbsg.verify(game, sol)
    values = sol._raw_values
    assert isinstance(values, list)
    values[0] = Fraction(1, 2)  # the stored list, edited in place after the check
    with pytest.raises(tbsg.InvalidArgumentError, match="another solution"):
        sol.provenance(check)


def test_provenance_refuses_a_verification_that_names_no_solution() -> None:
    game = risk_or_safety(3)
    sol = tbsg.solve(game)
    bare = dataclasses.replace(tbsg.verify(game, sol), solution_sha256="")
    with pytest.raises(tbsg.InvalidArgumentError, match="SHA-256 none"):
        sol.provenance(bare)


# --- 6b. verify compares every field a user reads ---------------------------------------------------

_STATE = RoSState(mover=0, open=1, saved=0, other=0)  # Risk or Safety 3: "toss" or "stop"


def _edited(numbers: Sequence[Fraction], k: int, x: Fraction) -> list[Fraction]:
    out = list(numbers)
    out[k] = x
    return out


@pytest.mark.parametrize("cache", ["act_const", "act_stop", "out_prob"])
def test_verify_rejects_an_edited_cache_of_the_solutions_graph(cache: str) -> None:
    game = risk_or_safety(3)
    sol = tbsg.solve(game)
    truth = sol.action_values(_STATE)  # fills the caches action_values reads
    g = sol.graph
    k = g.action_index(g.index[_STATE], "stop")
    assert k is not None
    at = int(g.out_ptr[k]) if cache == "out_prob" else k
    numbers = getattr(g, cache)
    object.__setattr__(g, cache, _edited(numbers, at, numbers[at] + Fraction(1, 7)))
    # action values are read from the checked codes and table, not from these caches (which
    # the chains, the graph export and the outcome tables read)...
    assert sol.action_values(_STATE) == truth
    with pytest.raises(tbsg.TamperedSolutionError, match=rf"cached {cache} .*state .*'stop'"):
        tbsg.verify(game, sol)  # ...and the certificate must not hold with an edited cache


def test_verify_rejects_an_edited_cache_of_float_arrays() -> None:
    game = risk_or_safety(3)
    sol = tbsg.solve(game)
    const, prob = sol.graph.float_arrays()
    object.__setattr__(sol.graph, "_float_arrays", (const + 0.25, prob))
    with pytest.raises(tbsg.TamperedSolutionError, match="cached _float_arrays"):
        tbsg.verify(game, sol)


def test_verify_rejects_an_edited_graph_hash() -> None:
    game = risk_or_safety(3)
    sol = tbsg.solve(game)
    object.__setattr__(sol, "_graph_sha256", "0" * 64)  # what provenance() prints
    with pytest.raises(tbsg.TamperedSolutionError, match="cached _graph_sha256"):
        tbsg.verify(game, sol)


def test_verify_rejects_an_attribute_hiding_a_method() -> None:
    game = risk_or_safety(3)
    sol = tbsg.solve(game)
    object.__setattr__(sol, "action_values", lambda *a, **k: {"stop": Fraction(1)})
    with pytest.raises(tbsg.TamperedSolutionError, match="'action_values' of its own"):
        tbsg.verify(game, sol)
    sol = tbsg.solve(game)
    object.__setattr__(sol.graph, "actions_of", lambda i: range(0))
    with pytest.raises(tbsg.TamperedSolutionError, match="'actions_of' of its own"):
        tbsg.verify(game, sol)


def test_verify_rejects_a_subclass_of_solution() -> None:
    game = risk_or_safety(3)
    sol = tbsg.solve(game)

    class Nicer(tbsg.Solution[Any, Any]):
        def value(self, state: Any = None, *, player: int = 0) -> Fraction:
            return Fraction(1)

    fields = {f.name: getattr(sol, f.name) for f in dataclasses.fields(sol)}
    with pytest.raises(tbsg.TamperedSolutionError, match="subclass"):
        tbsg.verify(game, Nicer(**fields))


def test_verify_rejects_a_state_index_with_extra_states() -> None:
    game = risk_or_safety(3)
    sol = tbsg.solve(game)
    ghost = RoSState(mover=0, open=9, saved=9, other=9)
    sol.graph.index[ghost] = 0  # a lookup that answers for a state the game lacks
    assert sol.value(ghost) == sol.value()
    with pytest.raises(tbsg.TamperedSolutionError, match="states are not the game's"):
        tbsg.verify(game, sol)


def test_verify_rejects_numbers_built_from_numpy_integers() -> None:
    # Fraction(np.int64, np.int64) keeps int64 parts, which wrap in action_values' arithmetic
    game = risk_or_safety(3)
    sol = tbsg.solve(game)
    table = [Fraction(np.int64(x.numerator), np.int64(x.denominator))  # type: ignore[call-overload]
             for x in sol.graph.rationals]
    edited = dataclasses.replace(sol, graph=dataclasses.replace(sol.graph, rationals=table))
    with pytest.raises(tbsg.TamperedSolutionError, match="Fractions of Python ints"):
        tbsg.verify(game, edited)


# --- 6c. a non-stationary strategy is blamed, not the game -------------------------------------------

def _alternating(game: tbsg.Game[Any, Any]) -> Callable[[Any], Any]:
    """A strategy that answers each question with the next legal action in turn."""
    calls = itertools.count()

    def strategy(s: Any) -> Any:
        acts = tuple(game.actions(s))
        return acts[next(calls) % len(acts)]
    return strategy


def test_a_non_stationary_strategy_on_an_array_form_game_is_blamed() -> None:
    game = pig(20)
    with pytest.raises(tbsg.InvalidStrategyError,
                       match=r"strategy chose .* at state PigState\(.*asked again") as info:
        tbsg.evaluate(game, _alternating(game))
    assert "array form" not in str(info.value)


@dataclass(frozen=True)
class Walk:
    """States ``0 .. n-1`` in a row, players alternating: step on, or stop with ``s / n``
    (plain protocol only, two actions everywhere)."""

    n: int = 5
    initial: int = 0

    def player(self, s: int) -> int:
        return s % 2

    def actions(self, s: int) -> tuple[str, ...]:
        return ("step", "stop")

    def outcomes(self, s: int, a: str) -> list[tuple[int, int | tbsg.Terminal]]:
        if a == "stop":
            return [(1, tbsg.Terminal(Fraction(s, self.n)))]
        return [(1, s + 1 if s + 1 < self.n else tbsg.Terminal(1))]


def test_a_non_stationary_strategy_on_a_plain_game_is_blamed() -> None:
    # the plain compiler asks actions() twice at some states (the initial one first): it
    # said "game.actions() returned ('step',) and then ('stop',)"
    game = Walk()
    with pytest.raises(tbsg.InvalidStrategyError,
                       match="strategy chose 'step' at state 0 and, asked again, 'stop'"):
        tbsg.evaluate(game, _alternating(game))
    with pytest.raises(tbsg.InvalidStrategyError, match="opponent strategy chose"):
        tbsg.best_response(game, 1, _alternating(game))
    with pytest.raises(tbsg.InvalidStrategyError, match="asked again"):
        tbsg.chain(pig(20), _alternating(pig(20)))


# --- 6d. a solution is a strategy for evaluate and best_response, as for chain -----------------------

@pytest.mark.parametrize("game", [risk_or_safety(3), pig(10), coinball(6)], ids=repr)
def test_evaluate_and_best_response_accept_a_solution(game: tbsg.Game[Any, Any]) -> None:
    sol = tbsg.solve(game)
    ev = tbsg.evaluate(game, sol)
    assert ev.value() == sol.value()
    assert all(ev.value(s) == sol.value(s) for s in ev.states)
    tbsg.verify(game, ev)
    for player in (0, 1):
        assert tbsg.best_response(game, player, sol).value() == sol.value()
    fsol = tbsg.solve(game, exact=False)
    assert tbsg.evaluate(game, fsol).value() == tbsg.evaluate(game, dict(fsol.strategy)).value()
    assert tbsg.chain(game, sol).reach(lambda s: False) == 0  # chain took one already


def test_a_solutions_strategy_that_misses_a_state_is_named() -> None:
    game = risk_or_safety(3)
    partial = tbsg.evaluate(game, lambda s: "toss")  # covers the states "toss" reaches only
    with pytest.raises(tbsg.InvalidStrategyError, match=r"a solution's strategy\) has no action"):
        tbsg.evaluate(game, partial, reach="game")


# --- 6e. an all-empty heat map is a named error ------------------------------------------------------

def test_heatmap_of_an_all_empty_pivot_is_a_named_error() -> None:
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    import matplotlib.pyplot as plt

    from tbsg import plots
    from tbsg.outputs.tables import state_table

    table = state_table(tbsg.solve(coinball(4)))
    pivot = table.pivot("toss", "lead", lambda r: None, agg=min, name="coins")
    before = plt.get_fignums()
    with pytest.raises(tbsg.InvalidArgumentError, match=r"pivot 'coins' \(4 rows of 'toss' by 13 columns"):
        plots.heatmap(pivot)
    assert plt.get_fignums() == before  # no empty figure left behind
    with pytest.raises(tbsg.InvalidArgumentError, match="no cell of the pivot"):
        plots.heatmap(pivot, categorical=True)
    # a scale given, the empty grid is drawn (every cell grey), as the Pig hold boundary does
    for scale in ({"categorical": False}, {"categories": ["toss", "stop"]}):
        fig = plots.heatmap(pivot, **scale)
        assert len(fig.axes[0].texts) == 0 and len(fig.axes[0].images) == 1
        plt.close(fig)
    with pytest.raises(tbsg.InvalidArgumentError, match="not among categories"):
        plots.heatmap(table.pivot("toss", "lead", lambda r: r.optimal[0], agg=min), categories=["x"])
