"""Columns of state tables computed from a solution's arrays (tbsg.outputs.columns).

Oracle: the definition of every column, state by state, through the solution's public
queries (``value``, ``value_to_move``, ``optimal_actions``, ``action``,
``action_values_to_move``, ``bounds``) and the margin as its definition reads (module
docstring of :mod:`tbsg.outputs.tables`: best minus second best of the mover's values).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tbsg
from tbsg.outputs.columns import (
    SolutionColumns,
    _each_object,
    _repeats,
    flat_actions,
    margins,
    sorted_by_fields,
    state_fields,
)
from tbsg.testing import games
from tbsg.testing.strategies import TableGame

SETTINGS = settings(max_examples=40, deadline=None)


def expected_margin(q: dict[Any, Any]) -> Any:
    if len(q) < 2:
        return None
    first, second = sorted(q.values(), reverse=True)[:2]
    return first - second


def check_exact_rows(sol: tbsg.Solution[Any, Any], table: tbsg.StateTable[Any, Any]) -> None:
    for row in table:
        s = row.state
        q = sol.action_values_to_move(s)
        assert type(row.value) is Fraction and row.value == sol.value(s)
        assert type(row.value_to_move) is Fraction and row.value_to_move == sol.value_to_move(s)
        assert row.player == sol.player(s) and row.action == sol.action(s)
        assert row.optimal == sol.optimal_actions(s)
        assert row.action_values_to_move == q and list(row.action_values_to_move) == list(q)
        assert all(type(x) is Fraction for x in row.action_values_to_move.values())
        assert row.margin == expected_margin(q)
        assert row.margin is None or type(row.margin) is Fraction
        assert row.lower is None and row.upper is None


@SETTINGS
@given(games(states=(1, 7), actions=(1, 4), outcomes=(1, 3)), st.booleans())
def test_exact_columns_equal_the_per_state_definition(game: Any, subset: bool) -> None:
    sol = tbsg.solve(game)
    table = tbsg.state_table(sol, where=(lambda s: s % 2 == 0) if subset else None)
    # a single row read before any column is computed, then the columns, then every row
    if len(table):
        first = table.row(table.column("state")[0])
        assert first.margin == expected_margin(sol.action_values_to_move(first.state))
    for name in ("value", "value_to_move", "margin", "optimal", "action", "player", "state"):
        assert table.column(name) == [getattr(r, name) for r in table.rows]
    check_exact_rows(sol, table)


@SETTINGS
@given(games(states=(1, 6), actions=(1, 3), outcomes=(1, 3), rewards=True))
def test_exact_columns_of_reward_games(game: Any) -> None:
    sol = tbsg.solve(game)
    check_exact_rows(sol, tbsg.state_table(sol))


@SETTINGS
@given(games(states=(1, 5), actions=(1, 3), outcomes=(1, 3), stopping=False),
       st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1)]))
def test_exact_columns_of_games_that_need_not_end(game: Any, c: Fraction) -> None:
    sol = tbsg.solve(game, infinite_play=c)
    check_exact_rows(sol, tbsg.state_table(sol))


@SETTINGS
@given(games(states=(1, 6), actions=(1, 4), outcomes=(1, 3)), st.integers(0, 3))
def test_exact_columns_of_evaluations_and_best_responses(game: Any, pick: int) -> None:
    """Where a player's strategy is fixed, her optimal actions are the played one alone."""
    def fixed(s: Any) -> Any:
        acts = game.actions(s)
        return acts[pick % len(acts)]
    for sol in (tbsg.evaluate(game, fixed), tbsg.best_response(game, 0, fixed),
                tbsg.best_response(game, 1, fixed)):
        check_exact_rows(sol, tbsg.state_table(sol))


@SETTINGS
@given(st.one_of(games(states=(1, 7), actions=(1, 4), outcomes=(1, 3)),
                 games(states=(1, 5), actions=(1, 3), outcomes=(1, 3), rewards=True)))
def test_float_columns_equal_the_per_state_definition(game: Any) -> None:
    sol = tbsg.solve(game, exact=False)
    table = tbsg.state_table(sol)
    c = float(sol.constant_sum)
    for row in table:
        s = row.state
        lo, hi = sol.bounds(s)
        assert (row.lower, row.upper) == (lo, hi) and row.value == (lo + hi) / 2 == sol.value(s)
        assert row.value_to_move == (row.value if row.player == 0 else c - row.value)
        assert row.optimal == sol.optimal_actions(s) and row.action == sol.action(s)
        q = {a: (x + y) / 2 for a, (x, y) in sol.action_values_to_move(s).items()}
        assert row.action_values_to_move == q and list(row.action_values_to_move) == list(q)
        assert row.margin == expected_margin(q)
    assert table.column("lower") == [r.lower for r in table.rows]


def test_flat_actions_and_margins_by_hand() -> None:
    """States with actions [0, 1], [2], [3, 4, 5] (pointer 0, 2, 3, 6), read in the order
    2, 0; margins: player 0 ranks largest first (5 - 4 = 1), player 1 smallest first
    (her values are c - q: 2 - 1 = 1), two values give |a - b|."""
    ks, counts = flat_actions(np.array([0, 2, 3, 6]), np.array([2, 0]))
    assert ks.tolist() == [3, 4, 5, 0, 1] and counts.tolist() == [3, 2]
    q = [Fraction(5), Fraction(4), Fraction(1), Fraction(1, 3), Fraction(1, 2)]
    assert margins(q, [3, 2], [True, False]) == [Fraction(1), Fraction(1, 6)]
    assert margins([Fraction(5), Fraction(4), Fraction(1)], [3], [False]) == [Fraction(3)]
    assert margins([0.25], [1], [True]) == [None]


@given(st.lists(st.tuples(st.lists(st.fractions(), min_size=1, max_size=4), st.booleans()),
                max_size=12))
def test_margins_of_any_groups_are_best_minus_second_best(groups: list[tuple[list[Fraction], bool]]) -> None:
    """Groups of one to four values, each ranked largest first or smallest first: the
    margin by its definition (best minus second best in the group's order, ``None`` for
    one value), whatever mix of group sizes the column holds (pairs are computed apart)."""
    q = [x for values, _ in groups for x in values]
    expected = [None if len(values) == 1 else sorted(values)[-1] - sorted(values)[-2] if big
                else sorted(values)[1] - sorted(values)[0] for values, big in groups]
    got = margins(q, [len(v) for v, _ in groups], [big for _, big in groups])
    assert got == expected and all(m is None or m >= 0 for m in got)


def check_text_and_decimals(sol: tbsg.Solution[Any, Any], table: tbsg.StateTable[Any, Any]) -> None:
    """Every exact column's text is ``str(Fraction)`` and its decimals ``float(Fraction)``,
    whole and at some positions, asked in either order."""
    cols = SolutionColumns(sol, np.array([sol._index(s) for s in table.column("state")], dtype=np.int64),
                           list(table.column("state")))
    pos = list(range(len(cols)))[::-2]
    for name in ("margin", "value_to_move", "value"):
        exact = table.column(name)
        text = [None if x is None else str(x) for x in exact]
        floats = [None if x is None else float(x) for x in exact]
        assert cols.exact_text(name, pos) == [text[j] for j in pos]
        assert cols.exact_text(name) == text and cols.exact_text(name, pos) == [text[j] for j in pos]
        assert cols.decimals(name, pos) == [floats[j] for j in pos] and cols.decimals(name) == floats


@SETTINGS
@given(games(states=(1, 7), actions=(1, 4), outcomes=(1, 3)))
def test_exact_text_and_decimals_are_those_of_the_fractions(game: Any) -> None:
    sol = tbsg.solve(game)
    check_text_and_decimals(sol, tbsg.state_table(sol))


def test_exact_text_of_shared_values_is_written_per_object() -> None:
    """Risk or Safety to 16 (oracle: ``str`` and ``float`` of each Fraction of the table):
    its equal values are shared objects, so the value column takes the path that writes
    each object once, and the margins (computed per state) the other; both give the text
    of every row."""
    sol = tbsg.solve(tbsg.games.risk_or_safety(16))
    table = tbsg.state_table(sol)
    cols = SolutionColumns(sol, np.arange(len(sol.states), dtype=np.int64), list(sol.states))
    assert _repeats(cols.raw("value"))
    assert not _repeats([x for x in cols.raw("margin") if x is not None])
    check_text_and_decimals(sol, table)


def test_each_object_calls_once_per_object_of_large_numbers() -> None:
    calls: list[object] = []

    def text(x: object) -> str:
        calls.append(x)
        return str(x)

    big, other = Fraction(1, 2**200 + 1), Fraction(3, 2**200 + 1)
    assert _each_object(text, [big, None, big, big]) == [str(big), None, str(big), str(big)]
    assert calls == [big]
    calls.clear()
    again = Fraction(1, 2**200 + 1)  # equal to big, another object
    assert _each_object(text, [big, other, again]) == [str(big), str(other), str(big)]
    assert calls == [big, other, again]
    calls.clear()
    half = Fraction(1, 2)  # small numbers are written where they stand
    assert _each_object(text, [half, half, half]) == ["1/2"] * 3 and calls == [half] * 3


# --- the margin's decimals, from fixed-point bounds ------------------------------------------

def fresh_columns(sol: tbsg.Solution[Any, Any]) -> SolutionColumns[Any, Any]:
    """The columns of every state of ``sol``, none computed yet (so the margin's decimals
    come from :func:`~tbsg.outputs.columns.fixed_margins`, not from the exact margins)."""
    states = sorted(sol.states)
    return SolutionColumns(sol, np.array([sol._index(s) for s in states], dtype=np.int64), states,
                           graph_states=False)


def check_margin_decimals(sol: tbsg.Solution[Any, Any], digits: int = 25) -> SolutionColumns[Any, Any]:
    """The margin's decimals (floats, and texts of ``digits`` digits) are those of the exact
    margin, computed here from the solution's per-state action values (``Fraction``)."""
    from tbsg._util.digits import exact_decimal

    cols = fresh_columns(sol)
    exact = [expected_margin(sol.action_values_to_move(s)) for s in cols.states]
    assert cols.decimals("margin") == [None if m is None else float(m) for m in exact]
    assert "_raw_margin" not in cols.__dict__  # the decimals did not need the exact column
    assert fresh_columns(sol).rounded_text("margin", digits) == [
        None if m is None else exact_decimal(m, digits) for m in exact]
    return cols


CATALOG: dict[str, Callable[[], Any]] = {
    "risk_or_safety(12)": lambda: tbsg.games.risk_or_safety(12),
    "coinball(10)": lambda: tbsg.games.coinball(10), "pig(10)": lambda: tbsg.games.pig(10)}


@pytest.mark.parametrize("name", sorted(CATALOG))
def test_margin_decimals_of_catalog_games(name: str) -> None:
    """Risk or Safety, Coinball (many exact ties: margin 0) and Pig (probabilities 1/6)."""
    cols = check_margin_decimals(tbsg.solve(CATALOG[name]()))
    fixed = cols._margin_bounds
    assert len(fixed.at) > len(fixed.undecided)  # most decided by the bounds


@SETTINGS
@given(st.one_of(games(states=(1, 7), actions=(1, 4), outcomes=(1, 3)),
                 games(states=(1, 5), actions=(1, 3), outcomes=(1, 3), rewards=True)))
def test_margin_decimals_of_any_game(game: Any) -> None:
    check_margin_decimals(tbsg.solve(game))


def choice(margin: Fraction, mover: int) -> TableGame:
    """State 0 (``mover`` to move): ``a`` pays ``x`` at once, ``b`` moves to state 1 (paying
    ``w``) with probability 1/3 and pays ``z`` otherwise, so ``Q(b) = w/3 + 2z/3``; ``x`` is
    set so that the mover's ``a`` is better by ``margin`` (below 0: worse)."""
    w, z = Fraction(1, 5), Fraction(3, 7)
    q_b = w / 3 + 2 * z / 3
    x = q_b + margin if mover == 0 else q_b - margin
    return TableGame(players=(mover, 1 - mover),
                     moves=((("a", ((Fraction(1), tbsg.Terminal(x)),)),
                             ("b", ((Fraction(1, 3), 1), (Fraction(2, 3), tbsg.Terminal(z))))),
                            (("c", ((Fraction(1), tbsg.Terminal(w)),)),)))


HALF_ULP = Fraction(1, 2**55)
"""Half the spacing of the floats in [1/4, 1/2): ``1/4 + HALF_ULP`` is a rounding midpoint."""


@pytest.mark.parametrize("margin", [
    Fraction(0),                                  # a tie: both optimal, exactly 0
    Fraction(1, 2**200),                          # far below what 128 fixed bits resolve
    Fraction(1, 4) + HALF_ULP,                    # a midpoint: rounds to even, 0.25
    Fraction(1, 4) + 3 * HALF_ULP,                # a midpoint: rounds to even, 0.25 + 2^-53
    Fraction(1, 4) + HALF_ULP + Fraction(1, 2**120),  # just above a midpoint: rounds up
    Fraction(1, 4) + HALF_ULP - Fraction(1, 2**120),  # just below: rounds down
    -Fraction(1, 4) - HALF_ULP - Fraction(1, 2**125),  # b better, just above a midpoint
    Fraction(1, 3),
])
@pytest.mark.parametrize("mover", [0, 1])
def test_margin_decimals_at_ties_midpoints_and_near_ties(margin: Fraction, mover: int) -> None:
    """Hand-made margins (``choice``): the decimals are those of ``|margin|`` itself, in the
    columns and in the default CSV (``repr`` of the nearest float, ``0.0`` at a tie)."""
    sol = tbsg.solve(choice(margin, mover))
    cols = check_margin_decimals(sol, digits=40)
    m = abs(margin)
    assert cols.decimals("margin")[0] == float(m)
    assert (m == 0) == (cols._margin_bounds.ties == [0])
    line = tbsg.state_table(sol).to_csv().splitlines()[1]
    assert line.endswith("," + repr(float(m)))
    assert float(line.rpartition(",")[2]) == float(m)


class Point(NamedTuple):
    a: int
    b: int
    c: bool


@SETTINGS
@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(-2**62, 2**62), st.booleans()), unique=True))
def test_sorted_by_fields_is_the_order_of_sorted(points: list[tuple[int, int, bool]]) -> None:
    """Integer (and bool) fields: ``np.lexsort`` of the fields orders the states as
    ``sorted`` does (tuple comparison)."""
    states = [Point(*p) for p in points]
    fields = state_fields(states)
    if not states:
        assert fields is None
        return
    assert fields is not None
    assert sorted_by_fields(fields) == sorted(range(len(states)), key=states.__getitem__)


def test_sorted_by_fields_leaves_other_fields_to_sorted() -> None:
    """Fields beyond 64 bits, or not integers, are not sorted by arrays (``None``)."""
    assert sorted_by_fields(state_fields([Point(2**70, 0, True), Point(0, 0, False)]) or {}) is None
    assert sorted_by_fields(state_fields([Point(1, "x", True)]) or {}) is None  # type: ignore[arg-type]
    assert state_fields([Point(1, 2, True), (1, 2, True)]) is None  # two types
