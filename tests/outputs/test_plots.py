"""Plots (tbsg.plots): heat maps, margin curves and the catalog's redrawn figures.

The generic plots are tbsg.outputs.plots.generic, the figures tbsg.outputs.plots.catalog; both are used
here through the tbsg.plots facade, as users do.

Each plot is saved as a PNG and checked for non-trivial content; the numbers drawn in
cells and the curve data are compared with the exact tables they come from (Risk or
Safety Table 1, seed 000; Unspeakable Words aMove, seed 004; Super Six Figure 5's
continue-minus-stop differences, seed 002).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

mpl = pytest.importorskip("matplotlib")
mpl.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

import tbsg  # noqa: E402
from tbsg import plots  # noqa: E402
from tbsg.games import (  # noqa: E402
    risk_or_safety,
    risk_or_safety_coin_table,
    super_six_continue_gain,
    unspeakable_words_tables,
)
from tbsg.outputs.pivot import Pivot  # noqa: E402
from tbsg.outputs.tables import NOTEBOOK_EXTRA, state_table  # noqa: E402


@pytest.fixture(autouse=True)
def _close() -> Iterator[None]:
    yield
    plt.close("all")


def saved(fig: Any, path: Path) -> Path:
    """Save ``fig`` and check the PNG has real content (many colours, not blank)."""
    fig.savefig(path, dpi=60)
    assert path.stat().st_size > 5_000
    img = plt.imread(path)
    assert img.std() > 0.05
    colours = np.unique((img[..., :3] * 255).astype(np.uint8).reshape(-1, 3), axis=0)
    assert len(colours) > 20
    return path


def texts(ax: Any) -> list[str]:
    return [t.get_text() for t in ax.texts]


def test_heatmap_numbers_orientation_and_png(tmp_path: Path) -> None:
    table = risk_or_safety_coin_table(6)
    pivot = Pivot.from_dict(table, row_name="I need", col_name="opponent needs", name="coins")
    fig = plots.heatmap(pivot, columns_on_top=True)
    assert isinstance(fig, Figure) and len(fig.axes) == 2  # the map and its colour bar
    ax = fig.axes[0]
    assert len(ax.texts) == 25
    # cell (row i, column j) carries the table's value: texts are drawn row by row
    assert texts(ax) == [str(table[r, c]) for r in range(2, 7) for c in range(2, 7)]
    assert ax.get_ylim() == (4.5, -0.5)  # origin "upper": row 2 at the top, as printed
    assert [t.get_text() for t in ax.get_yticklabels()] == ["2", "3", "4", "5", "6"]
    assert ax.xaxis.get_label_position() == "top"
    assert ax.get_xlabel() == "opponent needs" and ax.get_title() == "coins"
    saved(fig, tmp_path / "h.png")


def test_heatmap_continuous_missing_and_lower_origin(tmp_path: Path) -> None:
    cells = {(r, c): Fraction(r, c + r) for r in range(4) for c in range(1, 5) if r != c}
    fig = plots.heatmap(Pivot.from_dict(cells, name="x"), origin="lower", fmt=".2f")
    ax = fig.axes[0]
    assert ax.get_ylim() == (-0.5, 3.5)
    assert "0.33" in texts(ax) and len(ax.texts) == len(cells)  # (1, 2): 1/3
    image = ax.images[0]
    assert image.get_array().mask.sum() == 3  # type: ignore[union-attr]  # the three missing cells are masked
    saved(fig, tmp_path / "c.png")


def test_heatmap_categories_of_strings(tmp_path: Path) -> None:
    cells = {(r, c): ("toss", "stop", ("toss", "stop"))[(r + c) % 3] for r in range(5)
             for c in range(5)}
    fig, ax = plt.subplots()
    out = plots.heatmap(Pivot.from_dict(cells), ax, annotate=False)
    assert out is fig and not ax.texts  # drawn into the axes given, their figure returned
    bar = fig.axes[-1]
    labels = {t.get_text() for t in bar.get_yticklabels()}
    assert labels == {"toss", "stop", "toss, stop"}
    with pytest.raises(ValueError, match="not among categories"):
        plots.heatmap(Pivot.from_dict(cells), categories=["toss", "stop"])
    saved(fig, tmp_path / "s.png")


def test_heatmap_thins_ticks_of_large_grids() -> None:
    cells = {(r, c): r * c for r in range(100) for c in range(60)}
    ax = plots.heatmap(Pivot.from_dict(cells)).axes[0]
    assert not ax.texts  # too many cells to write numbers
    ticks = [t.get_text() for t in ax.get_yticklabels()]
    assert ticks[:3] == ["0", "5", "10"] and len(ticks) <= 26


def test_margin_curves(tmp_path: Path) -> None:
    n = 6
    table = state_table(tbsg.solve(risk_or_safety(n)),
                        where=lambda s: s.mover == 0 and s.open >= 1 and s.other == 0)
    fig = plots.margin_curves(table, x="open", curve="saved")
    assert isinstance(fig, Figure) and len(fig.axes) == 1
    ax = fig.axes[0]
    lines = [line for line in ax.get_lines() if not str(line.get_label()).startswith("_")]
    assert len(lines) == n - 1  # saved = 0 .. n - 2 (one open point at least)
    first = lines[0]
    xs, ys = first.get_data()
    rows = sorted((r for r in table if r.saved == 0), key=lambda r: r.open)
    assert list(xs) == [r.open for r in rows]  # type: ignore[arg-type]
    assert list(ys) == [float(r.margin) for r in rows]  # type: ignore[arg-type]
    assert ax.get_legend().get_title().get_text() == "saved"  # type: ignore[union-attr]
    fig2, ax2 = plt.subplots()
    out = plots.margin_curves(table, x="open", curve="saved", y=lambda r: r.gain("stop", "toss"),
                              curves=[0, 2], label="saved {}", yscale="symlog", cmap="viridis", ax=ax2)
    assert out is fig2
    assert [t.get_text() for t in ax2.get_legend().get_texts()] == ["saved 0", "saved 2"]  # type: ignore[union-attr]
    assert ax2.get_yscale() == "symlog"
    saved(fig2, tmp_path / "m.png")


def test_plot_risk_or_safety_table1(tmp_path: Path) -> None:
    fig = plots.plot_risk_or_safety_table1(8)
    ax = fig.axes[0]
    table = risk_or_safety_coin_table(8)
    assert texts(ax) == [str(table[r, c]) for r in range(2, 9) for c in range(2, 9)]
    assert ax.get_ylabel().startswith("points I need")
    saved(fig, tmp_path / "t1.png")


def test_plot_unspeakable_words(tmp_path: Path) -> None:
    fig = plots.plot_unspeakable_words(4)
    moves, values = unspeakable_words_tables(4)
    left, right = fig.axes[0], fig.axes[1]  # axes 2 and 3 are the colour bars
    assert texts(left) == [str(moves[a, b]) for a in range(5) for b in range(5)]
    assert texts(right) == [f"{float(values[a, b]):.3f}" for a in range(5) for b in range(5)]
    saved(fig, tmp_path / "uw.png")


def test_plot_coinball(tmp_path: Path) -> None:
    fig = plots.plot_coinball(12, max_lead=4)
    bar = fig.axes[2]  # the left panel's colour bar
    assert {t.get_text() for t in bar.get_yticklabels()} == {
        "pass", "rush", "either (exact tie)", "either (decided)"}
    assert fig.axes[0].images[0].get_array().shape == (9, 12)  # type: ignore[union-attr]
    saved(fig, tmp_path / "cb.png")


def test_plot_the_race(tmp_path: Path) -> None:
    fig = plots.plot_the_race(6)
    left = fig.axes[0]
    assert len(left.texts) == 36
    from tbsg.games import the_race_strategy

    best = the_race_strategy(6)
    # rows: player 2's score (drawn bottom up), columns: player 1's score
    assert texts(left) == [str(best[a, b]) for b in range(6) for a in range(6)]
    assert left.get_ylim() == (-0.5, 5.5)
    saved(fig, tmp_path / "race.png")


def test_plot_super_six_figure5(tmp_path: Path) -> None:
    total = 10
    fig = plots.plot_super_six_figure5(total, others=(1, 2, 3))
    ax = fig.axes[0]
    gains = {s: g for t in range(5, total + 1) for s, g in super_six_continue_gain(t).items()
             if s[0] == 3}
    curves = [line for line in ax.get_lines() if str(line.get_label()).startswith("l = ")]
    assert [c.get_label() for c in curves] == ["l = 1", "l = 2", "l = 3"]
    for line, l in zip(curves, (1, 2, 3), strict=True):  # noqa: E741
        xs, ys = line.get_data()
        assert list(xs) == list(range(1, total - 3 - l + 1))  # type: ignore[arg-type]
        assert list(ys) == [float(gains[3, k, l]) for k in xs]  # type: ignore[arg-type, index, union-attr]
    assert len(fig.axes) == 2
    saved(fig, tmp_path / "ss.png")
    assert len(plots.plot_super_six_figure5(8, zoom=False).axes) == 1
    with pytest.raises(ValueError, match="total must be"):
        plots.plot_super_six_figure5(3)


@pytest.mark.parametrize("name", plots.__all__)
def test_every_plot_function_returns_a_figure(name: str) -> None:
    # one kind of object from every plot function (annotated and documented;
    # the tests above check the objects returned)
    import inspect

    fn = getattr(plots, name)
    assert inspect.signature(fn).return_annotation == "Figure"
    assert "Returns\n-------\nFigure" in inspect.getdoc(fn) or "a new Figure" in inspect.getdoc(fn)  # type: ignore[operator]


def test_heatmap_in_a_subfigure_returns_the_root_figure() -> None:
    fig = plt.figure()
    (sub,) = fig.subfigures(1, 1, squeeze=False)[0]
    ax = sub.subplots()
    assert plots.heatmap(Pivot.from_dict({(0, 0): 1}), ax) is fig


def test_matplotlib_missing_gives_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match="heatmap needs matplotlib") as info:
        plots.heatmap(Pivot.from_dict({(0, 0): 1}))
    assert NOTEBOOK_EXTRA in str(info.value)


def test_plot_pig_hold_boundary(tmp_path: Path) -> None:
    pig_module = pytest.importorskip("tbsg.games.pig")
    goal = 20
    sol = tbsg.solve(pig_module.pig(goal, 3))  # a three-sided die: holds occur at goal 20
    fig = plots.plot_pig_hold_boundary(solution=sol, sections=[0, 4])
    boundary = pig_module.pig_hold_boundary(sol)
    image: Any = fig.axes[0].images[0].get_array()
    scores = sorted({i for i, _ in boundary})
    holds = 0
    for (i, j), k in boundary.items():
        cell = image[scores.index(j), scores.index(i)]
        if k < goal - i:  # a hold: the cell shows the turn total
            assert cell == k
            holds += 1
        else:             # roll on to the goal: left blank
            assert np.ma.is_masked(cell)
    assert holds > 100
    assert fig.get_suptitle().startswith("Pig to 20 (d3)")
    right = fig.axes[1]
    assert [line.get_label() for line in right.get_lines()] == ["i = 0", "i = 4"]
    saved(fig, tmp_path / "pig.png")


def test_a_reward_game_plots_expected_payoff() -> None:
    """plot_parametric labels the curve "expected payoff" for a game that pays rewards (one
    toss of a coin of bias p, tossed again on heads, earns 1 per toss: ``1/(1 - p)``), and
    "value" for a win-probability game, as before."""
    sympy = pytest.importorskip("sympy")
    pytest.importorskip("flint")
    p = sympy.Symbol("p")

    class KeepTossing:
        initial = "tossing"

        def player(self, s: str) -> int:
            return 0

        def actions(self, s: str) -> tuple[str, ...]:
            return ("toss",)

        def reward(self, s: str, a: str) -> int:
            return 1

        def outcomes(self, s: str, a: str) -> list[tuple[Any, Any]]:
            return [(p, "tossing"), (1 - p, tbsg.Terminal(0))]

    reward = plots.plot_parametric(tbsg.solve_parametric(KeepTossing(), p), points=20)
    win = plots.plot_parametric(tbsg.solve_parametric(tbsg.games.biased_risk_or_safety(2, p), p),
                                points=20)
    try:
        assert reward.axes[0].get_ylabel() == "expected payoff (player 0)"
        assert "expected payoff and optimal-strategy regions" in reward.axes[0].get_title()
        assert win.axes[0].get_ylabel() == "value (player 0)"
    finally:
        plt.close(reward)
        plt.close(win)
