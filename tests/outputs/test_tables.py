"""Per-state tables, pivots and their exports (tbsg.outputs.tables, tbsg.outputs.pivot).

Oracles: Risk or Safety's Table 1 as printed in seed 000 (R. Jehn, "Optimal strategy in
the game Risk or Safety", arXiv 2603.01002, 2026, section 5), kept in
``tbsg.sources.risk_or_safety.TABLE_1``, and the action values of section 3.3
(``n = 4``, position ``(3, 0, 0)``: tossing wins 3047/4165, stopping 15/17).
"""

from __future__ import annotations

import csv
import io
import sys
from fractions import Fraction
from typing import Any

import pytest

import tbsg
from tbsg.games import (
    RoSState,
    coinball,
    pig,
    risk_or_safety,
    risk_or_safety_coin_table,
    unspeakable_words_tables,
)
from tbsg.outputs.pivot import Pivot
from tbsg.outputs.tables import NOTEBOOK_EXTRA, Row, StateTable, state_table
from tbsg.sources.risk_or_safety import TABLE_1 as _TABLE1_PRINTED


@pytest.fixture(scope="module")
def ros4() -> tbsg.Solution[RoSState, Any]:
    return tbsg.solve(risk_or_safety(4))


@pytest.fixture(scope="module")
def ros4_table(ros4: tbsg.Solution[RoSState, str]) -> StateTable[RoSState, str]:
    return state_table(ros4)


def coins_pivot(table: StateTable[RoSState, Any], n: int) -> Pivot:
    """Table 1 from a state table: the first open count where stopping is optimal."""
    return table.pivot(
        rows=lambda r: n - r.saved, columns=lambda r: n - r.other,
        cell=lambda r: r.open if "stop" in r.optimal else n - r.saved, agg=min,
        where=lambda r: r.mover == 0 and r.saved <= n - 2 and r.other <= n - 2,
        row_name="I need", col_name="opponent needs", name="coins")


# --- rows ----------------------------------------------------------------------------------


def test_rows_are_keyed_by_the_states_fields(ros4_table: StateTable[RoSState, str]) -> None:
    assert ros4_table.fields == ("mover", "open", "saved", "other")
    row = ros4_table.row(RoSState(0, 2, 1, 3))
    assert (row.mover, row.open, row["saved"], row["other"]) == (0, 2, 1, 3)
    assert row.state == RoSState(0, 2, 1, 3)
    assert ros4_table.row((0, 2, 1, 3)) is row  # type: ignore[arg-type]  # plain tuples find NamedTuple states
    assert RoSState(0, 2, 1, 3) in ros4_table and (9, 9, 9, 9) not in ros4_table
    with pytest.raises(KeyError, match="no column 'nope'"):
        row["nope"]
    with pytest.raises(AttributeError):
        _ = row.nope


def test_margin_is_exact_ros4(ros4_table: StateTable[RoSState, str]) -> None:
    # seed 000, section 3.3 (n = 4): at (3, 0, 0) tossing wins 3047/4165, stopping 15/17
    row = ros4_table.row(RoSState(0, 3, 0, 0))
    assert row.action_values_to_move == {"toss": Fraction(3047, 4165), "stop": Fraction(15, 17)}
    assert row.optimal == ("stop",) and row.action == "stop"
    assert row.margin == Fraction(15, 17) - Fraction(3047, 4165) == Fraction(628, 4165)
    assert row.gain("toss", "stop") == -row.margin
    assert row.value == row.value_to_move == Fraction(15, 17)
    with pytest.raises(KeyError, match="not an action"):
        row.gain("toss", "fold")


def test_every_row_agrees_with_the_solution(ros4: tbsg.Solution[RoSState, str],
                                            ros4_table: StateTable[RoSState, str]) -> None:
    assert len(ros4_table) == ros4.n_states
    for row in ros4_table:
        s = row.state
        assert row.player == ros4.player(s)
        assert row.value == ros4.value(s)
        assert row.value_to_move == ros4.value_to_move(s)
        assert row.optimal == ros4.optimal_actions(s)
        q = ros4.action_values(s)
        mine = {a: (v if row.player == 0 else 1 - v) for a, v in q.items()}
        assert row.action_values_to_move == mine == ros4.action_values_to_move(s)
        assert max(mine.values()) == row.value_to_move
        if len(q) == 1:
            assert row.margin is None
        else:
            ranked = sorted(mine.values(), reverse=True)
            assert row.margin == ranked[0] - ranked[1] >= 0
            assert (row.margin == 0) == (len(row.optimal) > 1)


def test_player_1_rows_use_the_movers_view(ros4_table: StateTable[RoSState, str]) -> None:
    row = ros4_table.row(RoSState(1, 3, 0, 0))
    assert row.player == 1
    assert row.value_to_move == 1 - row.value == Fraction(15, 17)
    assert row.margin == Fraction(628, 4165)
    # the mirror of (0, 3, 0, 0): her values of the actions, as player 0's there
    assert row.action_values_to_move == {"toss": Fraction(3047, 4165), "stop": Fraction(15, 17)}
    assert row["action_values_to_move"] == row.action_values_to_move


def test_the_old_row_action_values_warn_and_keep_the_movers_view(
        ros4_table: StateTable[RoSState, str]) -> None:
    row = ros4_table.row(RoSState(1, 3, 0, 0))
    for read in (lambda: row.action_values, lambda: row["action_values"],
                 lambda: ros4_table.where(lambda r: r is row).records(["action_values"])[0]["action_values"]):
        with pytest.warns(DeprecationWarning, match=r"Row.action_values .*mover's view.*"
                          r"use Row.action_values_to_move") as caught:
            assert read() == row.action_values_to_move
        assert caught[0].filename == __file__


def test_ties_give_margin_zero_and_every_optimal_action() -> None:
    game = coinball(4)
    table = state_table(tbsg.solve(game))
    row = table.row(game.position(2, 1, 1))  # tied, two tosses left: a wash (coinball docs)
    assert row.optimal == ("rush", "pass")
    assert row.margin == 0


def test_states_where_and_sort(ros4: tbsg.Solution[RoSState, str]) -> None:
    t = state_table(ros4, where=lambda s: s.mover == 1 and s.open == 0)
    assert all(r.mover == 1 and r.open == 0 for r in t)
    assert [r.state for r in t] == sorted(r.state for r in t)
    picked = [RoSState(0, 1, 0, 0), RoSState(0, 0, 0, 0)]
    assert [r.state for r in state_table(ros4, states=picked)] == picked
    with pytest.raises(tbsg.InvalidGameError, match="not reachable"):
        state_table(ros4, states=[RoSState(0, 9, 9, 9)])
    unsorted = state_table(ros4, sort=False)
    assert [r.state for r in unsorted] == ros4.states


def test_non_namedtuple_states_get_one_state_column() -> None:
    class Toss:
        initial = 0

        def player(self, s: int) -> int:
            return s

        def actions(self, s: int) -> tuple[str, ...]:
            return ("toss",)

        def outcomes(self, s: int, a: str) -> list[tuple[Fraction, Any]]:
            half = Fraction(1, 2)
            return [(half, tbsg.win(s)), (half, 1 - s)]

    t = state_table(tbsg.solve(Toss()))
    assert t.fields == ("state",)
    assert t.column("state") == [0, 1]
    assert t.column("value") == [Fraction(2, 3), Fraction(1, 3)]
    assert t.to_csv().splitlines()[0].startswith("state,player,value")


def test_field_names_that_clash_are_renamed() -> None:
    from typing import NamedTuple

    class S(NamedTuple):
        player: int
        value: int
        margin_decimal: int

    class G:
        initial = S(0, 0, 5)

        def player(self, s: S) -> int:
            return s.player

        def actions(self, s: S) -> tuple[int, ...]:
            return (1,)

        def outcomes(self, s: S, a: int) -> list[tuple[Fraction, Any]]:
            if s.value == 2:
                return [(Fraction(1), tbsg.win(0))]
            return [(Fraction(1), S(1 - s.player, s.value + 1, 5))]

    t = state_table(tbsg.solve(G()))
    assert t.fields == ("state.player", "state.value", "state.margin_decimal")
    assert t.column("state.value") == [0, 2, 1]  # sorted by state: (0, 0), (0, 2), (1, 1)
    assert t.column("state.margin_decimal") == [5, 5, 5] and t.column("margin_decimal") == [None] * 3
    assert t.to_csv().splitlines()[0].startswith("state.player,state.value,state.margin_decimal,player,value")


# --- pivots --------------------------------------------------------------------------------


def test_pivot_reproduces_table_1_as_printed() -> None:
    # seed 000 (Jehn 2026), section 5, Table 1: rows = points I need 2..20, columns =
    # points the opponent needs 2..20, cell = coins to toss
    n = 20
    pivot = coins_pivot(state_table(tbsg.solve(risk_or_safety(n))), n)
    assert pivot.row_labels == pivot.col_labels == tuple(range(2, n + 1))
    for need, printed in _TABLE1_PRINTED.items():
        assert " ".join(str(pivot[need, opp]) for opp in range(2, n + 1)) == printed
    assert pivot.to_dict() == risk_or_safety_coin_table(n)


def test_pivot_equals_catalog_table_small(ros4_table: StateTable[RoSState, str]) -> None:
    assert coins_pivot(ros4_table, 4).to_dict() == risk_or_safety_coin_table(4)
    direct = Pivot.from_dict(risk_or_safety_coin_table(4), row_name="I need",
                             col_name="opponent needs", name="coins")
    assert direct == coins_pivot(ros4_table, 4)


def test_pivot_without_agg_refuses_two_rows_per_cell(ros4_table: StateTable[RoSState, str]) -> None:
    with pytest.raises(ValueError, match="both fall in cell"):
        ros4_table.pivot("saved", "other")
    p = ros4_table.pivot("saved", "other", "value_to_move",
                         where=lambda r: r.mover == 0 and r.open == 0)
    assert p.row_name == "saved" and p.col_name == "other" and p.name == "value_to_move"
    assert p[0, 0] == Fraction(2236, 4165)  # seed 000, section 3.3: P(0,0,0), n = 4
    assert p.shape == (4, 4)


def test_pivot_helpers() -> None:
    p = Pivot.from_dict({(1, "x"): 1, (2, "y"): Fraction(1, 2)}, row_name="r", col_name="c")
    assert p[2, "x"] is None
    with pytest.raises(KeyError, match="not a"):
        p[3, "x"]
    t = p.transpose()
    assert t.row_labels == ("x", "y") and t["y", 2] == Fraction(1, 2)
    assert t.row_name == "c"
    assert p.map(float)[2, "y"] == 0.5
    assert Pivot.from_dict({("b", 1): 0, ("a", 1): 0}, sort=False).row_labels == ("b", "a")
    mixed = Pivot.from_dict({(1, 0): 0, ("a", 0): 0})  # labels that do not compare
    assert mixed.row_labels == (1, "a")
    with pytest.raises(ValueError, match="cells must be"):
        Pivot((1,), (1,), ((1, 2),))


# --- exports -------------------------------------------------------------------------------


def parse(cell: str) -> Fraction | None:
    return None if cell == "" else Fraction(cell)


def test_csv_round_trips_exact_values(ros4_table: StateTable[RoSState, str]) -> None:
    text = ros4_table.to_csv()
    records = list(csv.DictReader(io.StringIO(text)))
    assert len(records) == len(ros4_table)
    assert list(records[0]) == ["mover", "open", "saved", "other", "player", "value",
                                "value_decimal", "value_to_move", "value_to_move_decimal",
                                "optimal", "margin_decimal"]
    for rec, row in zip(records, ros4_table, strict=True):
        assert RoSState(*(int(rec[f]) for f in ros4_table.fields)) == row.state
        assert Fraction(rec["value"]) == row.value
        assert Fraction(rec["value_to_move"]) == row.value_to_move
        assert rec["margin_decimal"] == ("" if row.margin is None else repr(float(row.margin)))
        assert float(rec["value_decimal"]) == float(row.value)
        assert tuple(rec["optimal"].split(", ")) == row.optimal
    assert "3047" not in text  # action values are not a column
    assert "628/4165" not in text  # the default margin is its decimal
    exact = ros4_table.to_csv(columns=["open", "margin"])  # the exact margin, on request
    assert exact.splitlines()[0] == "open,margin,margin_decimal" and "628/4165" in exact


def test_default_columns_carry_the_margin_as_its_decimal(ros4_table: StateTable[RoSState, str]) -> None:
    """The default columns of an exact table: the exact margin is not among them (it is
    asked for by name), its nearest float is, as ``margin_decimal``, in every export;
    a float table keeps its float ``margin``."""
    fields = ("mover", "open", "saved", "other")
    assert ros4_table.columns == (*fields, "player", "value", "value_to_move", "optimal", "margin_decimal")
    twins = [*fields, "player", "value", "value_decimal", "value_to_move", "value_to_move_decimal",
             "optimal", "margin_decimal"]
    assert ros4_table.to_csv().splitlines()[0] == ",".join(twins)
    assert ros4_table.to_markdown().splitlines()[0] == f"| {' | '.join(twins)} |"
    assert ros4_table.to_text().splitlines()[0].split() == twins
    assert ros4_table.to_csv(decimals=False).splitlines()[0] == ",".join(  # exact values only
        [*fields, "player", "value", "value_to_move", "optimal", "margin"])
    assert list(ros4_table.records()[0]) == [*ros4_table.columns]
    assert ros4_table.column("margin_decimal") == [None if r.margin is None else float(r.margin)
                                                   for r in ros4_table]
    row = ros4_table.row(RoSState(0, 3, 0, 0))
    assert row.margin == Fraction(628, 4165)  # a row's margin stays exact
    assert row["margin_decimal"] == 628 / 4165 and row["value_decimal"] == 15 / 17
    floats = state_table(tbsg.solve(risk_or_safety(4), exact=False))
    assert floats.columns == (*fields, "player", "value", "lower", "upper", "value_to_move", "optimal",
                              "margin")


def test_csv_columns_and_file(tmp_path: Any, ros4_table: StateTable[RoSState, str]) -> None:
    path = tmp_path / "t.csv"
    text = ros4_table.to_csv(str(path), columns=["open", "value", "action"], decimals=False)
    assert path.read_text(encoding="utf-8") == text
    assert text.splitlines()[0] == "open,value,action"


def test_csv_file_of_no_rows_and_a_failing_file(tmp_path: Any, ros4_table: StateTable[RoSState, str]) -> None:
    """The file gets the header of a table of no rows; an error of writing the file (the
    chunks are written by a thread of their own) is raised by to_csv."""
    import os

    path = tmp_path / "none.csv"
    text = ros4_table.where(lambda r: False).to_csv(str(path))
    assert path.read_text(encoding="utf-8") == text == ros4_table.to_csv().splitlines()[0] + "\n"
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    with pytest.raises(OSError):
        ros4_table.to_csv("/dev/full")


def test_pivot_csv_round_trips(ros4_table: StateTable[RoSState, str]) -> None:
    p = ros4_table.pivot("saved", "other", "value", where=lambda r: r.mover == 0 and r.open == 0)
    rows = list(csv.reader(io.StringIO(p.to_csv())))
    assert rows[0] == ["saved \\ other", "0", "1", "2", "3"]
    back = {(int(r[0]), int(c)): Fraction(v) for r in rows[1:]
            for c, v in zip(rows[0][1:], r[1:], strict=True)}
    assert back == p.to_dict()


def test_markdown_shape(ros4_table: StateTable[RoSState, str]) -> None:
    md = ros4_table.to_markdown()
    lines = md.splitlines()
    assert len(lines) == len(ros4_table) + 2
    assert all(line.count("|") == lines[0].count("|") for line in lines)
    assert lines[1].startswith("| ---: |")
    assert "| 15/17 | 0.882353 |" in md
    short = ros4_table.to_markdown(max_rows=10)
    assert len(short.splitlines()) == 2 + 10 + 1
    assert f"{len(ros4_table) - 10} more rows" in short
    p = coins_pivot(ros4_table, 4)
    pl = p.to_markdown().splitlines()
    assert pl[0] == "| I need \\ opponent needs | 2 | 3 | 4 |"
    assert len(pl) == 2 + 3 and pl[2] == "| 2 | 2 | 2 | 1 |"


def test_latex_booktabs(ros4_table: StateTable[RoSState, str]) -> None:
    tex = ros4_table.to_latex(columns=["open", "saved", "other", "value", "optimal"])
    for rule in ("\\toprule", "\\midrule", "\\bottomrule", "\\begin{tabular}{rrrrrl}"):
        assert rule in tex
    assert "\\hline" not in tex
    assert "value decimal" in tex
    assert "$2236/4165$" in tex  # P(0,0,0), n = 4 (seed 000, section 3.3)
    frac = ros4_table.to_latex(fractions="frac", caption="R & S", label="tab:ros")
    assert "$\\frac{2236}{4165}$" in frac
    assert "\\caption{R \\& S}" in frac and "\\label{tab:ros}" in frac
    assert frac.startswith("\\begin{table}") and frac.endswith("\\end{table}")
    margin = ros4_table.where(lambda r: r.state == RoSState(0, 3, 0, 0)).to_latex(
        columns=["margin"], fractions="frac", decimals=False)
    assert "$\\frac{628}{4165}$" in margin
    negative = Pivot.from_dict({(0, 0): Fraction(-1, 3), (0, 1): -2, (0, 2): 1.5e-7})
    body = negative.to_latex(fractions="frac")
    assert "$-\\frac{1}{3}$" in body and "$-2$" in body and "$1.5\\times 10^{-7}$" in body
    assert "\\multicolumn{3}{c}{column}" in body and "\\cmidrule(l){2-4}" in body


def test_latex_and_markdown_escape_text() -> None:
    p = Pivot.from_dict({("a_b", "x|y"): "50% & more"}, row_name="r_1", col_name="c#")
    tex = p.to_latex()
    assert "a\\_b" in tex and "50\\% \\& more" in tex and "r\\_1" in tex and "c\\#" in tex
    md = p.to_markdown()
    assert "x\\|y" in md


def test_html_and_notebook_views(ros4_table: StateTable[RoSState, str]) -> None:
    html = ros4_table.to_html()
    assert html.startswith("<table>") and html.count("<tr>") == len(ros4_table) + 1
    assert "2236/4165" in html
    assert ros4_table._repr_html_().count("<tr>") <= 42
    assert "more rows" in ros4_table._repr_markdown_()
    p = coins_pivot(ros4_table, 4)
    assert "<th>4</th>" in p._repr_html_() and p._repr_markdown_() == p.to_markdown()
    assert repr(p) == "<Pivot 'coins': 3 rows (I need) x 3 columns (opponent needs)>"
    assert repr(ros4_table).startswith("<StateTable: 80 rows, exact")


def test_long_fractions_are_shortened_only_in_notebook_views() -> None:
    sol = tbsg.solve(risk_or_safety(12))
    t = state_table(sol, states=[sol.initial])
    v = t.rows[0].value
    assert len(str(v)) > 30
    assert str(v) in t.to_markdown() and str(v) in t.to_csv() and str(v) in t.to_html()
    assert str(v) not in t._repr_markdown_() and "digit denominator" in t._repr_markdown_()
    assert "digit denominator" in repr(t.rows[0])
    p = t.pivot("saved", "other", "value")
    assert str(v) in p.to_markdown() and str(v) not in p._repr_html_()
    assert p.to_markdown(exact=False, digits=4).splitlines()[2] == "| 0 | 0.5205 |"


# --- float solutions -----------------------------------------------------------------------


def test_float_solution_table() -> None:
    game = risk_or_safety(5)
    exact = state_table(tbsg.solve(game))
    approx = state_table(tbsg.solve(game, exact=False, tol=1e-12))
    assert not approx.exact and exact.exact
    assert approx.columns == ("mover", "open", "saved", "other", "player", "value", "lower",
                              "upper", "value_to_move", "optimal", "margin")
    for fr, er in zip(approx, exact, strict=True):
        assert fr.state == er.state
        assert fr.lower is not None and fr.upper is not None
        assert fr.lower <= er.value <= fr.upper
        assert abs(fr.value - float(er.value)) <= 1e-12
        assert fr.action in er.optimal
        assert set(er.optimal) <= set(fr.optimal) and fr.optimal[0] == fr.action
        if er.margin is None:
            assert fr.margin is None
        else:
            assert fr.margin is not None and abs(fr.margin - float(er.margin)) <= 1e-11
    records = list(csv.DictReader(io.StringIO(approx.to_csv())))
    assert "value_decimal" not in records[0]
    assert float(records[0]["lower"]) == approx.rows[0].lower


def test_float_ties_are_all_listed() -> None:
    game = coinball(4)
    t = state_table(tbsg.solve(game, exact=False))
    assert set(t.row(game.position(2, 1, 1)).optimal) == {"rush", "pass"}


def test_float_action_bounds_contain_the_exact_action_values() -> None:
    # the contract of the one function float tables read action values from (the solution's
    # outward-rounded Bellman bounds): flat action k's exact value to player 0 lies in
    # [lower[k], upper[k]], and the rows are built from those bounds
    from tbsg.outputs.tables import _float_action_bounds

    catalog: tuple[tbsg.Game[Any, Any], ...] = (risk_or_safety(5), coinball(6))
    for game in catalog:
        exact = tbsg.solve(game)
        approx = tbsg.solve(game, exact=False, tol=1e-12)
        lower, upper = _float_action_bounds(approx)
        g = approx.graph
        assert lower.shape == upper.shape == (g.n_actions,)
        table = state_table(approx)
        for s in exact.states:
            if s not in table:
                continue  # terminal
            q = exact.action_values(s)
            row = table.row(s)
            for k in g.actions_of(g.index[s]):
                a = g.act_labels[k]
                assert float(lower[k]) <= q[a] <= float(upper[k])
                mid = (float(lower[k]) + float(upper[k])) / 2
                assert abs(row.action_values_to_move[a] - (mid if row.player == 0 else 1 - mid)) <= 1e-15


# --- games that pay rewards: expected payoffs ---------------------------------------------------

class TakeOrToss:
    """Two turns, player 0 then player 1. The mover takes 2 points (a reward paid to her)
    and passes the turn, or tosses a fair coin that ends play: heads she gains 3, tails
    she loses 1. States ``(mover, turns left)``; the last take ends play."""

    initial = (0, 2)

    def player(self, s: tuple[int, int]) -> int:
        return s[0]

    def actions(self, s: tuple[int, int]) -> tuple[str, ...]:
        return ("take", "toss")

    def reward(self, s: tuple[int, int], a: str) -> int:
        return (2 if s[0] == 0 else -2) if a == "take" else 0

    def outcomes(self, s: tuple[int, int], a: str) -> list[tuple[Fraction, Any]]:
        mover, left = s
        sign = 1 if mover == 0 else -1
        if a == "toss":
            return [(Fraction(1, 2), tbsg.Terminal(3 * sign)), (Fraction(1, 2), tbsg.Terminal(-sign))]
        return [(Fraction(1), (1 - mover, left - 1) if left > 1 else tbsg.Terminal(0))]


def test_a_reward_table_says_expected_payoff() -> None:
    """Hand derivation: at (1, 1) player 1 takes (-2 to player 0) rather than toss
    (``(-3 + 1)/2 = -1``); at (0, 2) taking is worth ``2 - 2 = 0``, tossing
    ``(3 - 1)/2 = 1``: she tosses, value 1. Player 1's view is ``-v`` (zero-sum)."""
    t = state_table(tbsg.solve(TakeOrToss()))
    assert t.win_probability is False
    assert (t.row((0, 2)).value, t.row((0, 2)).value_to_move) == (1, 1)
    assert (t.row((1, 1)).value, t.row((1, 1)).value_to_move) == (-2, 2)
    text = t.to_text().splitlines()[0].split("  ")
    assert "expected payoff" in text and "expected payoff to move" in text and "value" not in text
    assert "| expected payoff | expected payoff (decimal) |" in t.to_markdown()
    assert "expected payoff & expected payoff (decimal)" in t.to_latex()
    assert "<th>expected payoff</th>" in t.to_html() and "expected payoffs" in t.to_html()
    assert next(csv.reader(io.StringIO(t.to_csv())))[:3] == ["state", "player", "value"]  # keys stay
    assert t.records()[0]["value"] == 1
    assert t.pivot(lambda r: r.state[0], lambda r: r.state[1]).name == "expected payoff"
    assert t.pivot(lambda r: r.state[0], lambda r: r.state[1], "value_to_move").name == \
        "expected payoff to move"
    floats = state_table(tbsg.solve(TakeOrToss(), exact=False))
    assert floats.win_probability is False and "expected payoff" in floats.to_text()


def test_a_win_table_keeps_its_titles() -> None:
    t = state_table(tbsg.solve(risk_or_safety(2)))
    assert t.win_probability is True
    assert "expected payoff" not in t.to_text() + t.to_markdown() + t.to_latex() + t.to_html()
    assert t.pivot("mover", "other", agg=max).name == "value"


# --- pandas --------------------------------------------------------------------------------


def test_to_pandas(ros4_table: StateTable[RoSState, str]) -> None:
    pytest.importorskip("pandas")
    df = ros4_table.to_pandas()
    assert list(df.index.names) == ["mover", "open", "saved", "other"]
    assert "margin" not in df.columns and df.loc[(0, 3, 0, 0), "margin_decimal"] == 628 / 4165
    exact = ros4_table.to_pandas(columns=[*ros4_table.fields, "margin"])
    assert exact.loc[(0, 3, 0, 0), "margin"] == Fraction(628, 4165)
    assert df.loc[(0, 3, 0, 0), "optimal"] == ("stop",)
    assert df["value_decimal"].dtype == float
    flat = ros4_table.to_pandas(index=False, columns=["open", "value"], decimals=False)
    assert list(flat.columns) == ["open", "value"]
    p = coins_pivot(ros4_table, 4).to_pandas()
    assert p.loc[3, 2] == 3 and p.index.name == "I need" and p.columns.name == "opponent needs"


def test_pandas_missing_gives_a_clear_error(monkeypatch: pytest.MonkeyPatch,
                                            ros4_table: StateTable[RoSState, str]) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"StateTable.to_pandas needs pandas") as info:
        ros4_table.to_pandas()
    assert NOTEBOOK_EXTRA in str(info.value) == str(info.value)
    with pytest.raises(ImportError, match=r"pip install 'tbsg\[notebook\]'"):
        coins_pivot(ros4_table, 4).to_pandas()


def test_core_imports_without_optional_dependencies() -> None:
    import subprocess

    code = ("import sys; sys.modules['pandas'] = None; sys.modules['matplotlib'] = None\n"
            "import tbsg, tbsg.outputs.tables, tbsg.outputs.plots.generic, tbsg.plots\n"
            "try:\n    tbsg.plots.plot_risk_or_safety_table1(4)\n"
            "except ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": ":".join(sys.path)})
    assert "needs matplotlib" in out.stdout and NOTEBOOK_EXTRA in out.stdout


# --- catalog tables as pivots ------------------------------------------------------------


def test_unspeakable_words_tables_as_pivots() -> None:
    # seed 004: the printed d6 aMove row a = 2 is "1 2 2 2 2 1 1"
    moves, values = unspeakable_words_tables(6)
    pm = Pivot.from_dict(moves, row_name="a", col_name="b", name="aMove")
    assert pm.cells[2] == (1, 2, 2, 2, 2, 1, 1)
    pv = Pivot.from_dict(values, row_name="a", col_name="b", name="aValue")
    assert pv[6, 6] == Fraction(43835, 93312)
    assert pv.to_markdown(exact=False, digits=3).splitlines()[-1] == \
        "| 6 | 0 | 0.139 | 0.255 | 0.332 | 0.396 | 0.436 | 0.47 |"


def test_row_repr_and_records(ros4_table: StateTable[RoSState, str]) -> None:
    row = ros4_table.row(RoSState(0, 3, 0, 0))
    assert repr(row) == ("Row(mover=0, open=3, saved=0, other=0, player=0, value=15/17, "
                         "optimal=('stop',), margin=628/4165)")
    rec = ros4_table.where(lambda r: r.state == RoSState(0, 3, 0, 0)).records()
    assert rec == [{"mover": 0, "open": 3, "saved": 0, "other": 0, "player": 0,
                    "value": Fraction(15, 17), "value_to_move": Fraction(15, 17),
                    "optimal": ("stop",), "margin_decimal": 628 / 4165}]
    chosen = ros4_table.where(lambda r: r.state == RoSState(0, 3, 0, 0)).records(["open", "margin"])
    assert chosen == [{"open": 3, "margin": Fraction(628, 4165)}]
    assert isinstance(row, Row)
    ordered = ros4_table.sorted(lambda r: r.value, reverse=True)
    assert ordered.rows[0].value == max(ros4_table.column("value"))


# --- decimals only ---------------------------------------------------------------------------

def test_decimals_only_exports_round_every_exact_value(ros4_table: StateTable[RoSState, str]) -> None:
    from tbsg._util.digits import exact_decimal

    rows = list(csv.reader(io.StringIO(ros4_table.to_csv(decimals=30))))
    header = rows[0]
    assert "value_decimal" not in header and "margin" not in header
    col = header.index("value")
    moved, margin = header.index("value_to_move"), header.index("margin_decimal")
    asked = list(csv.reader(io.StringIO(ros4_table.to_csv(columns=["margin"], decimals=30))))
    assert asked[0] == ["margin"] and [r[0] for r in asked[1:]] == [line[margin] for line in rows[1:]]
    for r, line in zip(ros4_table.rows, rows[1:], strict=True):
        # 30 significant digits rounded from the exact value: 1/3 becomes 0.333...3 (30 threes)
        assert line[col] == exact_decimal(r.value, 30)
        assert line[moved] == exact_decimal(r.value_to_move, 30)
        assert line[margin] == ("" if r.margin is None else exact_decimal(r.margin, 30))
        assert "/" not in line[col]
    # seed 000 (Jehn 2026), section 3.3: P(0,0,0) = 2236/4165 = 0.5368547...
    assert rows[1][col] == "0.536854741896758703481392557023"


@pytest.mark.parametrize("export", ["to_markdown", "to_latex", "to_text", "to_html"])
def test_every_export_takes_decimals(export: str, ros4_table: StateTable[RoSState, str]) -> None:
    full = getattr(ros4_table, export)()
    only = getattr(ros4_table, export)(decimals=4)
    assert "2236/4165" in full and "2236/4165" not in only and "0.5369" in only
    assert "value_decimal" not in only and "value decimal" not in only
    assert len(only) < len(full)


@pytest.mark.parametrize("bad", [0, -1, 2.5, "6"])
def test_decimals_must_be_a_bool_or_a_positive_int(bad: object,
                                                   ros4_table: StateTable[RoSState, str]) -> None:
    with pytest.raises(tbsg.InvalidArgumentError, match="decimals must be True, False or a number"):
        ros4_table.to_csv(decimals=bad)  # type: ignore[arg-type]


# --- exports equal their definition, state by state -------------------------------------------

def expected_exact_cells(sol: tbsg.Solution[Any, Any], s: Any, *, csv_target: bool,
                         exact_margin: bool = False) -> list[str]:
    """One row of the default export of an exact table, from the solution's per-state
    queries: the state's fields, player, value and value to move with their decimals, the
    optimal actions and the decimal of the margin (best minus second best of the mover's
    action values); ``exact_margin``: the exact margin before its decimal (the columns of
    the default export with ``margin`` asked for instead of ``margin_decimal``)."""
    def dec(x: Fraction) -> str:
        return repr(float(x)) if csv_target else f"{float(x):.6g}"
    v, m = sol.value(s), sol.value_to_move(s)
    ranked = sorted(sol.action_values_to_move(s).values(), reverse=True)
    margin = ranked[0] - ranked[1] if len(ranked) > 1 else None
    exact = ["" if margin is None else str(margin)] if exact_margin else []
    return [*map(str, s), str(sol.player(s)), str(v), dec(v), str(m), dec(m),
            ", ".join(map(str, sol.optimal_actions(s))),
            *exact, "" if margin is None else dec(margin)]


CATALOG: dict[str, Any] = {"risk_or_safety(6)": lambda: risk_or_safety(6), "coinball(6)": lambda: coinball(6),
                           "pig(10)": lambda: pig(10)}


@pytest.mark.parametrize("name", sorted(CATALOG))
@pytest.mark.parametrize("exact_margin", [False, True])
def test_exact_exports_equal_the_per_state_definition(name: str, exact_margin: bool) -> None:
    """The default CSV and Markdown (the margin as its decimal), and the same columns with
    the exact margin asked for (then written ``p/q`` before its decimal, as it always was),
    cell by cell from the solution's per-state queries."""
    sol = tbsg.solve(CATALOG[name]())
    table = state_table(sol)
    states = sorted(sol.states)
    columns = [*table.fields, "player", "value", "value_to_move", "optimal",
               "margin" if exact_margin else "margin_decimal"]
    assert exact_margin or table.columns == tuple(columns)
    header = [*table.fields, "player", "value", "value_decimal", "value_to_move",
              "value_to_move_decimal", "optimal", *(["margin"] if exact_margin else []), "margin_decimal"]
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(
        [header, *(expected_exact_cells(sol, s, csv_target=True, exact_margin=exact_margin) for s in states)])
    assert table.to_csv(columns=columns) == buf.getvalue()
    md = [f"| {' | '.join(expected_exact_cells(sol, s, csv_target=False, exact_margin=exact_margin))} |"
          for s in states]
    assert table.to_markdown(columns=columns).splitlines()[2:] == md
    assert state_table(sol).to_markdown(columns=columns).splitlines()[2:] == md  # a fresh table too


def test_float_csv_equals_the_per_state_definition() -> None:
    sol = tbsg.solve(coinball(6), exact=False)
    rows = []
    for s in sorted(sol.states):
        lo, hi = sol.bounds(s)
        q = sorted(((x + y) / 2 for x, y in sol.action_values_to_move(s).values()), reverse=True)
        rows.append([*map(str, s), str(sol.player(s)), repr(sol.value(s)), repr(lo), repr(hi),
                     repr(sol.value_to_move(s)), ", ".join(sol.optimal_actions(s)),
                     repr(q[0] - q[1]) if len(q) > 1 else ""])
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    text = state_table(sol).to_csv()
    assert text.split("\n", 1)[1] == buf.getvalue()


def test_float_bounds_in_markdown_are_rounded_outward_state_by_state() -> None:
    from tbsg._util.digits import exact_decimal

    sol = tbsg.solve(pig(8), exact=False)
    lines = state_table(sol).to_markdown(columns=["lower", "upper"], digits=4).splitlines()[2:]
    bounds = [sol.bounds(s) for s in sorted(sol.states)]
    assert lines == [f"| {exact_decimal(lo, 4, 'down')} | {exact_decimal(hi, 4, 'up')} |"
                     for lo, hi in bounds]


def test_csv_in_chunks_reads_columns_not_rows(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """A CSV written in chunks of 7 rows is the text written in one chunk, and no row
    object is made for it (the chunks read the table's columns)."""
    import tbsg.outputs.tables as tables

    sol = tbsg.solve(risk_or_safety(6))
    whole = state_table(sol).to_csv()
    monkeypatch.setattr(tables, "_CSV_CHUNK", 7)
    table = state_table(sol)
    assert table.to_csv(tmp_path / "t.csv") == whole == (tmp_path / "t.csv").read_text(encoding="utf-8")
    assert not any(table._store._rows)  # type: ignore[attr-defined]
    assert table.head(3).to_csv() == "".join(whole.splitlines(keepends=True)[:4])


def test_an_exact_only_export_writes_the_exact_margin() -> None:
    """``decimals=False`` asks for exact values only: the default ``margin_decimal`` (a
    float) is written as the exact ``margin`` (Risk or Safety 3: the margins by the
    definition, from the exact action values of each state)."""
    sol = tbsg.solve(risk_or_safety(3))
    table = tbsg.state_table(sol)
    header, *rows = table.to_csv(decimals=False).splitlines()
    assert header.split(",")[-2:] == ["optimal", "margin"] and "_decimal" not in header
    for line, row in zip(rows, table, strict=True):
        q = sorted(sol.action_values_to_move(row.state).values(), reverse=True)
        assert line.rsplit(",", 1)[1] == ("" if len(q) == 1 else str(q[0] - q[1]))


class _FarApart:
    """One choice between payoffs of +10^308 and -10^308: the margin, 2 * 10^308, is past
    the largest finite float (about 1.8 * 10^308)."""

    initial = "s"

    def player(self, s: str) -> int:
        return 0

    def actions(self, s: str) -> tuple[str, ...]:
        return ("up", "down")

    def outcomes(self, s: str, a: str) -> list[tuple[Fraction, tbsg.Terminal]]:
        return [(Fraction(1), tbsg.Terminal(10**308 if a == "up" else -(10**308)))]


def test_a_margin_past_the_float_range_is_infinite_as_ieee_rounds_it() -> None:
    # IEEE 754 rounds a number past the largest finite float (plus half an ulp) to inf;
    # Python's float() raises instead, which broke the default exports
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (the solver's float filter overflows quietly)
        sol = tbsg.solve(_FarApart())
        table = state_table(sol)
        row = next(iter(table))
        assert row.margin == 2 * 10**308
        assert row["margin_decimal"] == float("inf")
        assert table.to_csv().splitlines()[1].endswith(",up,inf")
        assert table.to_markdown().rstrip().endswith("| up | inf |")
        assert "$\\infty$" in table.to_latex()
        assert table.to_csv(columns=["margin"]).splitlines()[1] == f"{2 * 10**308},inf"
    tbsg.verify(_FarApart(), sol)


class _Waiting:
    """Player 0 waits (back to the same state) or leaves for 1/2; never-ending play pays 0."""

    initial = "room"

    def player(self, s: str) -> int:
        return 0

    def actions(self, s: str) -> tuple[str, ...]:
        return ("wait", "leave")

    def outcomes(self, s: str, a: str) -> list[tuple[Fraction, str | tbsg.Terminal]]:
        return [(Fraction(1), "room")] if a == "wait" else [(Fraction(1), tbsg.Terminal(Fraction(1, 2)))]


def test_a_zero_margin_beside_one_optimal_action_is_a_tie_by_coming_back() -> None:
    # by hand: leaving pays 1/2 and waiting forever 0, so the value is 1/2; waiting
    # ties in value (Q = v = 1/2) but waiting forever pays 0: the margin is 0 and only
    # "leave" is optimal (the tables module docstring, "The margin")
    sol = tbsg.solve(_Waiting(), infinite_play=0)
    row = next(iter(state_table(sol)))
    assert sol.value() == Fraction(1, 2)
    assert row.margin == 0 and row["optimal"] == ("leave",)
