"""Plots of solved games: heat maps of pivots, margin curves, and the sources' figures.

Why: the published analyses of the catalog games are tables and figures (Risk or
Safety's Table 1, the Unspeakable Words ``aMove``/``aValue`` grids, Super Six's
Figure 5); these functions redraw them from exact solutions and draw the same views
for any game through :mod:`tbsg.outputs.tables`.

* :func:`heatmap`: a :class:`~tbsg.outputs.pivot.Pivot` as coloured cells, numbers in the cells
  when they fit. Numeric cells get a continuous colour scale; strategies (strings,
  tuples of actions) and small integers get one colour per value, with a legend bar.
* :func:`margin_curves`: one curve per value of a state variable, e.g. the gain of
  continuing over stopping against the mover's sticks, one curve per opponent's sticks
  (Super Six, Figure 5). The margin itself (best action minus best other action, see
  :mod:`tbsg.outputs.tables`) is the default quantity.
* One function per catalog game, returning a new Figure:
  :func:`plot_risk_or_safety_table1`, :func:`plot_unspeakable_words`,
  :func:`plot_coinball`, :func:`plot_the_race`, :func:`plot_super_six_figure5`,
  :func:`plot_pig_hold_boundary`.

matplotlib is an optional dependency (the ``notebook`` extra, ``pip install
'tbsg[notebook]'``); it is imported when a function is called, so ``import tbsg.plots``
works without it. New figures are made with ``matplotlib.pyplot`` (so ``plt.show()``
and notebooks display them); close them with ``plt.close(fig)`` in loops.
Functions taking ``ax`` draw into it and return it; the per-game functions return the
Figure they create.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from tbsg.outputs._optional import optional_import
from tbsg.outputs.pivot import Pivot
from tbsg.outputs.tables import Row, RowKey, StateTable, state_table

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.colors import Colormap
    from matplotlib.figure import Figure

    from tbsg.results import FloatSolution, Solution

__all__ = [
    "heatmap",
    "margin_curves",
    "plot_coinball",
    "plot_pig_hold_boundary",
    "plot_risk_or_safety_table1",
    "plot_super_six_figure5",
    "plot_the_race",
    "plot_unspeakable_words",
]

_MISSING = "#eeeeee"
"""Colour of cells without a value (no such state)."""
_MISSING_RGBA = (0.933, 0.933, 0.933, 1.0)


def _pyplot(what: str) -> Any:
    optional_import("matplotlib", what)
    return optional_import("matplotlib.pyplot", what)


def _is_number(x: object) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool | np.bool_)


def _default_text(x: object) -> str:
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int):
        return str(x)
    if isinstance(x, Fraction | float):
        return f"{float(x):.3f}"
    if isinstance(x, tuple):
        return ", ".join(map(str, x))
    return str(x)


def _formatter(fmt: str | Callable[[Any], str] | None) -> Callable[[Any], str]:
    if fmt is None:
        return _default_text
    if isinstance(fmt, str):
        spec = fmt

        def f(x: Any) -> str:
            return format(float(x) if isinstance(x, Fraction) else x, spec)
        return f
    return fmt


def _nice_step(n: int, max_ticks: int) -> int:
    """Smallest of 1, 2, 5, 10, 20, 25, 50, 100, ... giving at most ``max_ticks`` ticks."""
    if n <= max_ticks:
        return 1
    k = 1
    while True:
        for m in (1, 2, 5, 10, 20, 25, 50):
            if n / (m * k) <= max_ticks:
                return m * k
        k *= 100


def _ticks(labels: Sequence[Hashable], max_ticks: int) -> tuple[list[int], list[str]]:
    step = _nice_step(len(labels), max_ticks)
    if step == 1:
        return list(range(len(labels))), [str(x) for x in labels]
    ints = all(isinstance(x, int) and not isinstance(x, bool) for x in labels)
    pos = [i for i, x in enumerate(labels)
           if (x % step == 0 if ints else i % step == 0)]  # type: ignore[operator]
    return pos, [str(labels[i]) for i in pos]


def _luminance(rgba: Sequence[float]) -> float:
    r, g, b = rgba[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b


def _category_colors(categories: Sequence[Hashable], cmap: str | Colormap | None,
                     colors: Mapping[Hashable, Any] | Sequence[Any] | None) -> list[Any]:
    import matplotlib as mpl

    n = len(categories)
    if isinstance(colors, Mapping):
        return [colors[c] for c in categories]
    if colors is not None:
        return list(colors)[:n]
    ordered = all(_is_number(c) for c in categories)
    if cmap is None:
        cmap = "YlGnBu" if ordered else "tab10"
    cm = mpl.colormaps[cmap] if isinstance(cmap, str) else cmap
    if ordered:  # a sequential ramp, avoiding the palest end
        return [cm(0.15 + 0.75 * i / max(n - 1, 1)) for i in range(n)]
    return [cm(i % cm.N) for i in range(n)] if cm.N < 256 else \
        [cm(i / max(n - 1, 1)) for i in range(n)]


def heatmap(pivot: Pivot, ax: Axes | None = None, *, annotate: bool | None = None,
            fmt: str | Callable[[Any], str] | None = None, cmap: str | Colormap | None = None,
            vmin: float | None = None, vmax: float | None = None, log: bool = False,
            categorical: bool | None = None, categories: Sequence[Hashable] | None = None,
            colors: Mapping[Hashable, Any] | Sequence[Any] | None = None,
            colorbar: bool = True, title: str | None = None,
            origin: Literal["upper", "lower"] = "upper", columns_on_top: bool = False,
            max_ticks: int = 26, fontsize: float | None = None,
            figsize: tuple[float, float] | None = None) -> Axes:
    """Draw a :class:`~tbsg.outputs.pivot.Pivot` as a heat map.

    Parameters
    ----------
    pivot : Pivot
        Rows are drawn top to bottom (``origin="upper"``, like a printed table) or bottom
        to top (``"lower"``, like a graph), columns left to right.
    ax : Axes, optional
        Where to draw (default: a new figure sized to the grid).
    annotate : bool, optional
        Write each cell's value in it (default: when the grid has at most 900 cells).
    fmt : str or callable, optional
        Format of the numbers written: a format spec (``".3f"``) or a function of the
        cell value (default: integers as is, fractions and floats to 3 decimals).
    cmap : str or Colormap, optional
        Colour map (default ``"viridis"``, or a sequential ramp / ``"tab10"`` for
        categories).
    vmin, vmax : float, optional
        Range of the continuous colour scale.
    log : bool
        Logarithmic colour scale (for margins spanning many orders of magnitude); cells
        ``<= 0`` get the colour of missing cells.
    categorical : bool, optional
        One colour per distinct value (default: when the cells are not all numbers,
        or are integers with at most 12 distinct values).
    categories : sequence, optional
        The categories and their order (default: sorted if they compare).
    colors : mapping or sequence, optional
        Colours of the categories (by category, or in order).
    colorbar : bool
        Draw the colour bar (the legend of the categories).
    title : str, optional
        Default: the pivot's ``name``.
    origin : {"upper", "lower"}
        Where the first row label goes.
    columns_on_top : bool
        Put the column labels above the grid, as in a printed table.
    max_ticks : int
        Thin the tick labels beyond this many per axis.
    fontsize : float, optional
        Size of the numbers in the cells (default: fitted to the cell size).
    figsize : tuple, optional
        Size of a new figure, in inches.

    Returns
    -------
    Axes
    """
    plt = _pyplot("tbsg.plots.heatmap")
    import matplotlib as mpl

    nr, nc = pivot.shape
    if ax is None:
        if figsize is None:
            figsize = (min(max(0.42 * nc + 2.2, 4.5), 16.0), min(max(0.36 * nr + 1.6, 3.2), 12.0))
        _, ax = plt.subplots(figsize=figsize, layout="constrained")
    assert ax is not None
    values = [v for row in pivot.cells for v in row if v is not None]
    if categorical is None:
        numeric = bool(values) and all(_is_number(v) for v in values)
        ints = numeric and all(isinstance(v, numbers.Integral)
                               or (isinstance(v, Fraction) and v.denominator == 1) for v in values)
        categorical = not numeric or (ints and len(set(values)) <= 12) or categories is not None
    grid = np.full((nr, nc), np.nan)
    face: Callable[[Any], Any]
    cm: Colormap
    if categorical:
        if categories is None:
            distinct = list(dict.fromkeys(values))
            try:
                cats: list[Hashable] = sorted(distinct)
            except TypeError:
                cats = distinct
        else:
            cats = list(categories)
        where = {c: i for i, c in enumerate(cats)}
        palette = _category_colors(cats, cmap, colors)
        cm = mpl.colors.ListedColormap(palette)
        norm: Any = mpl.colors.BoundaryNorm(np.arange(-0.5, len(cats) + 0.5), len(cats))
        for i, row in enumerate(pivot.cells):
            for j, v in enumerate(row):
                if v is not None:
                    if v not in where:
                        raise ValueError(f"cell value {v!r} is not among categories {cats!r}")
                    grid[i, j] = where[v]

        def face(v: Any) -> Any:
            return palette[where[v]]
    else:
        for i, row in enumerate(pivot.cells):
            for j, v in enumerate(row):
                if v is not None:
                    grid[i, j] = float(v)
        cm = mpl.colormaps[cmap] if isinstance(cmap, str) else (cmap or mpl.colormaps["viridis"])
        if log:
            grid[grid <= 0] = np.nan
        finite = grid[np.isfinite(grid)]
        lo = vmin if vmin is not None else (float(finite.min()) if finite.size else 0.0)
        hi = vmax if vmax is not None else (float(finite.max()) if finite.size else 1.0)
        if log:
            lo = lo if lo > 0 else 1e-300
            norm = mpl.colors.LogNorm(lo, hi if hi > lo else lo * 10)
        else:
            norm = mpl.colors.Normalize(lo, hi if hi > lo else lo + 1)

        def face(v: Any) -> Any:
            x = float(v)
            return cm(norm(x)) if x > 0 or not log else _MISSING_RGBA
    cm = cm.with_extremes(bad=_MISSING)
    image = ax.imshow(np.ma.masked_invalid(grid), cmap=cm, norm=norm, origin=origin,
                      aspect="auto", interpolation="nearest")
    xpos, xlab = _ticks(pivot.col_labels, max_ticks)
    ypos, ylab = _ticks(pivot.row_labels, max_ticks)
    ax.set_xticks(xpos, xlab)
    ax.set_yticks(ypos, ylab)
    ax.set_xlabel(pivot.col_name)
    ax.set_ylabel(pivot.row_name)
    if columns_on_top:
        ax.xaxis.tick_top()
        ax.xaxis.set_label_position("top")
    ax.tick_params(length=0)
    ax.set_xticks(np.arange(-0.5, nc), minor=True)
    ax.set_yticks(np.arange(-0.5, nr), minor=True)
    cell_w, cell_h = _cell_size(ax, nr, nc)
    if min(cell_w, cell_h) >= 9:  # separate cells only where they are big enough
        ax.grid(which="minor", color="white", linewidth=0.6)
    ax.tick_params(which="minor", length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    shown_title = title if title is not None else (pivot.name if pivot.name != "cell" else None)
    if shown_title:
        ax.set_title(shown_title, pad=10 if columns_on_top else 6)
    if colorbar:
        fig = ax.get_figure()
        assert fig is not None
        bar = fig.colorbar(image, ax=ax, shrink=0.9, pad=0.02)
        if categorical:
            bar.set_ticks(list(range(len(cats))), labels=[_default_text(c) for c in cats])
            bar.ax.tick_params(length=0)
        elif pivot.name != "cell":  # categories are named by their tick labels
            bar.set_label(pivot.name)
    if annotate is None:
        annotate = nr * nc <= 900
    if annotate:
        text = _formatter(fmt)
        size = fontsize if fontsize is not None else _cell_fontsize(ax, nr, nc, pivot, text)
        for i, row in enumerate(pivot.cells):
            for j, v in enumerate(row):
                if v is None:
                    continue
                colour = "white" if _luminance(face(v)) < 0.5 else "black"
                ax.text(j, i, text(v), ha="center", va="center", fontsize=size, color=colour)
    return ax


def _cell_size(ax: Axes, nr: int, nc: int) -> tuple[float, float]:
    """Width and height of a cell in points (before layout adjustments)."""
    fig = ax.get_figure(root=True)
    assert fig is not None
    w_in, h_in = fig.get_size_inches()
    box = ax.get_position()
    return box.width * w_in * 72 / max(nc, 1), box.height * h_in * 72 / max(nr, 1)


def _cell_fontsize(ax: Axes, nr: int, nc: int, pivot: Pivot, text: Callable[[Any], str]) -> float:
    cell_w, cell_h = _cell_size(ax, nr, nc)
    longest = max((len(text(v)) for row in pivot.cells for v in row if v is not None), default=1)
    size = min(cell_h * 0.55, cell_w * 0.85 / (0.6 * max(longest, 1)))
    return float(max(3.5, min(size, 11.0)))


def margin_curves(table: StateTable[Any, Any], *, x: RowKey, curve: RowKey,
                  y: RowKey = "margin", ax: Axes | None = None,
                  where: Callable[[Row[Any, Any]], bool] | None = None,
                  curves: Iterable[Hashable] | None = None, label: str = "{}",
                  xlabel: str | None = None, ylabel: str | None = None, title: str | None = None,
                  legend_title: str | None = None, yscale: str | None = None,
                  linthresh: float | None = None, zero_line: bool = True, marker: str = "o",
                  cmap: str | None = None,
                  colors: Mapping[Hashable, Any] | Sequence[Any] | None = None,
                  legend_outside: bool = False,
                  figsize: tuple[float, float] = (7.0, 4.5)) -> Axes:
    """One curve of ``y(row)`` against ``x(row)`` per value of ``curve(row)``.

    Parameters
    ----------
    table : StateTable
        The rows to draw (see :func:`tbsg.outputs.tables.state_table`).
    x, curve : str or callable
        Column name or function of a row: the horizontal position and the curve a row
        belongs to.
    y : str or callable
        The quantity drawn (default ``"margin"``, the mover's value of the best action
        minus that of the best other action). A signed gain such as Super Six's Figure 5
        is ``y=lambda r: r.gain("roll", "stop")``. Rows where it is ``None`` are skipped.
    ax : Axes, optional
        Where to draw (default: a new figure).
    where : callable, optional
        Only rows with ``where(row)`` true are drawn.
    curves : iterable, optional
        Which curve values to draw, in this order (default: all, sorted).
    label : str
        Legend entry, ``label.format(curve value)``.
    xlabel, ylabel, title, legend_title : str, optional
        Texts (defaults from the column names).
    yscale : str, optional
        E.g. ``"symlog"`` (with ``linthresh``) to show large and tiny gains together.
    zero_line : bool
        Draw ``y = 0`` (where the decision flips).
    marker : str
        Marker of the points.
    cmap : str, optional
        Colour the curves from this colour map (default: the colour cycle, or
        ``"viridis"`` beyond 10 curves).
    colors : mapping or sequence, optional
        Colour of each curve (by curve value, or in the order of ``curves``).
    legend_outside : bool
        Put the legend to the right of the axes (for crowded plots).
    figsize : tuple
        Size of a new figure.

    Returns
    -------
    Axes
    """
    plt = _pyplot("tbsg.plots.margin_curves")
    import matplotlib as mpl

    xkey, xname = _key(x, "x")
    ckey, cname = _key(curve, "curve")
    ykey, yname = _key(y, "y")
    groups: dict[Hashable, list[tuple[Any, float]]] = {}
    for r in table.rows:
        if where is not None and not where(r):
            continue
        yv = ykey(r)
        if yv is None:
            continue
        groups.setdefault(ckey(r), []).append((xkey(r), float(yv)))
    order = list(curves) if curves is not None else _sorted(groups)
    if ax is None:
        _, ax = plt.subplots(figsize=figsize, layout="constrained")
    assert ax is not None
    ax.set_axisbelow(True)
    if zero_line:
        ax.axhline(0.0, color="0.2", linewidth=1.0, zorder=1.5)
    cm = mpl.colormaps[cmap] if cmap is not None else (
        mpl.colormaps["viridis"] if len(order) > 10 else None)
    for n, c in enumerate(order):
        pts = sorted(groups.get(c, []), key=lambda p: p[0])
        if not pts:
            continue
        colour: Any = None
        if isinstance(colors, Mapping):
            colour = colors.get(c)
        elif colors is not None:
            colour = list(colors)[n % len(colors)]
        elif cm is not None:
            colour = cm(n / max(len(order) - 1, 1))
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=marker, markersize=4,
                linewidth=1.5, label=label.format(c), color=colour, zorder=2)
    if yscale == "symlog":
        ax.set_yscale("symlog", linthresh=linthresh if linthresh is not None else 1e-3)
    elif yscale is not None:
        ax.set_yscale(yscale)
    ax.set_xlabel(xlabel if xlabel is not None else xname)
    ax.set_ylabel(ylabel if ylabel is not None else yname)
    if title:
        ax.set_title(title)
    ax.grid(True, color="0.9", linewidth=0.6)
    if order:
        placement: dict[str, Any] = ({"loc": "upper left", "bbox_to_anchor": (1.01, 1.0)}
                                     if legend_outside else {})
        ax.legend(title=legend_title if legend_title is not None else cname, fontsize="small",
                  title_fontsize="small", **placement)
    return ax


def _key(key: RowKey, default: str) -> tuple[Callable[[Row[Any, Any]], Any], str]:
    if isinstance(key, str):
        name = key

        def get(r: Row[Any, Any]) -> Any:
            return r[name]
        return get, key
    fn_name = getattr(key, "__name__", "")
    return key, fn_name if fn_name and fn_name != "<lambda>" else default


def _sorted(labels: Iterable[Hashable]) -> list[Hashable]:
    seen = list(dict.fromkeys(labels))
    try:
        return sorted(seen)  # type: ignore[type-var]
    except TypeError:
        return seen


def _figure(what: str, ncols: int, figsize: tuple[float, float]) -> tuple[Figure, list[Axes]]:
    plt = _pyplot(what)
    fig, axes = plt.subplots(1, ncols, figsize=figsize, layout="constrained", squeeze=False)
    return fig, list(axes[0])


# --- the catalog's figures and tables ------------------------------------------------------


def plot_risk_or_safety_table1(max_points: int = 20) -> Figure:
    """Risk or Safety, Table 1 of Jehn 2026 (seed 000): coins to toss before saving.

    Rows: points the player to move still needs (2 at the top, as printed); columns:
    points the opponent needs; cell: how many heads in a row to toss before stopping
    (:func:`tbsg.games.risk_or_safety_coin_table`, computed exactly). The paper prints
    ``max_points = 20``; any size works.
    """
    from tbsg.games.risk_or_safety import risk_or_safety_coin_table

    table = risk_or_safety_coin_table(max_points)
    pivot = Pivot.from_dict(table, row_name="points I need (player to move)",
                            col_name="points the opponent needs", name="coins to toss")
    k = max_points - 1
    side = min(max(0.34 * k + 2.0, 5.0), 17.0)
    fig, (ax,) = _figure("plot_risk_or_safety_table1", 1, (side + 1.2, side))
    import matplotlib as mpl

    ramp = mpl.colormaps["YlGnBu"]
    present = sorted(set(table.values()))
    colours = [ramp(0.12 + 0.8 * min((c - 1) / 5, 1.0)) for c in present]  # same colour per count
    heatmap(pivot, ax, columns_on_top=True, max_ticks=60, annotate=True, categories=present,
            colors=colours,
            title=f"Risk or Safety to {max_points}: coins to toss before saving"
                  + (" (Jehn 2026, Table 1)" if max_points == 20 else ""))
    return fig


def plot_unspeakable_words(n: int = 6, die: int = 6, bust: Literal["at_most", "less_than"] = "at_most"
                           ) -> Figure:
    """Unspeakable Words end game (seed 004): the post's ``aMove`` and ``aValue`` grids.

    Left: a's optimal bet with a to move (the smallest optimal one, as the post's code
    breaks ties); right: a's probability of winning. Rows ``a = 0..n`` (top to bottom),
    columns ``b = 0..n``, as printed; row ``a = 0`` and column ``b = 0`` are the printed
    tables' base cases (see :func:`tbsg.games.unspeakable_words_tables`).
    """
    from tbsg.games.unspeakable_words import unspeakable_words_tables

    moves, values = unspeakable_words_tables(n, die, bust)
    kw: dict[str, Any] = {"row_name": "a (points of player a, to move)",
                          "col_name": "b (points of player b)"}
    pm = Pivot.from_dict(moves, name="aMove: optimal bet", **kw)
    pv = Pivot.from_dict(values, name="aValue: P(a wins)", **kw)
    side = min(max(0.42 * (n + 1) + 2.0, 4.2), 12.0)
    fig, (left, right) = _figure("plot_unspeakable_words", 2, (2 * side + 2.0, side))
    heatmap(pm, left, columns_on_top=True, max_ticks=40)
    heatmap(pv, right, columns_on_top=True, max_ticks=40, cmap="RdBu", vmin=0.0, vmax=1.0,
            fmt=".3f", annotate=(n + 1) ** 2 <= 900)
    rule = "roll <= bet busts" if bust == "at_most" else "roll < bet busts"
    fig.suptitle(f"Unspeakable Words end game, d{die} ({rule})")
    return fig


def _coinball_category(r: Row[Any, Any]) -> str:
    if len(r.optimal) == 1:
        return str(r.optimal[0])
    if r.value_to_move in (0, 1):
        return "either (decided)"
    return "either (exact tie)"


def plot_coinball(tosses: int = 100, max_lead: int = 12, *,
                  solution: Solution[Any, Any] | None = None) -> Figure:
    """Coinball (seed 001): the optimal call over the caller's lead and the toss number.

    Left: ``pass``, ``rush``, or both optimal, split into exact ties of an undecided game
    (the source's "it's a wash") and states already decided; grey: not reachable.
    Right: the caller's probability of winning (a draw counts one half). Rows: the
    caller's lead from ``-max_lead`` (bottom) to ``max_lead``; columns: tosses completed.
    The source's rule ("losing: pass, winning: rush, tied: ...") reads off the rows
    below, above and at 0. ``solution``: an exact solution of ``coinball(tosses)``
    already computed (else it is solved here).
    """
    from tbsg.api import solve
    from tbsg.games.coinball import coinball

    sol = solution if solution is not None else solve(coinball(tosses))
    table = state_table(sol)

    def caller_lead(r: Row[Any, Any]) -> int:
        lead = int(r.state.lead)
        return lead if r.player == 0 else -lead

    keep: dict[str, Any] = {"where": lambda r: abs(caller_lead(r)) <= max_lead,
            "row_name": "caller's lead (points)", "col_name": "tosses completed"}
    strat = table.pivot(caller_lead, "toss", _coinball_category,
                        name="optimal call (light grey: not reachable)", **keep)
    value = table.pivot(caller_lead, "toss", "value_to_move", name="P(caller wins)", **keep)
    rows = 2 * max_lead + 1
    height = min(max(0.2 * rows + 2.0, 3.5), 9.0)
    fig, (left, right) = _figure("plot_coinball", 2, (15.0, height))
    cats = ["pass", "rush", "either (exact tie)", "either (decided)"]
    heatmap(strat, left, origin="lower", annotate=False, categories=cats,
            colors=["#d95f02", "#1b9e77", "#7570b3", "#a9a9a9"], max_ticks=12)
    heatmap(value, right, origin="lower", annotate=False, cmap="RdBu", vmin=0.0, vmax=1.0,
            max_ticks=12)
    fig.suptitle(f"Coinball, {tosses} tosses: optimal call and value to the caller")
    return fig


def plot_the_race(goal: int = 100, *, solution: Solution[Any, Any] | None = None) -> Figure:
    """The Race (Project Euler 232, seed 003): player 2's optimal ``T`` and her winning chance.

    Both at player 2's turn, over player 1's score (across) and player 2's (up). Cells
    hold the smallest optimal ``T`` (no exact ties occur for goals 1 to 40 and 100);
    numbers are written when the grid is small. ``solution``: an exact solution of
    ``the_race(goal)`` already computed (else it is solved here).
    """
    from tbsg.api import solve
    from tbsg.games.the_race import PLAYER_2, the_race

    sol = solution if solution is not None else solve(the_race(goal))
    table = state_table(sol, where=lambda s: s.mover == PLAYER_2)
    kw: dict[str, Any] = {"row_name": "player 2's score", "col_name": "player 1's score"}
    best = table.pivot("score2", "score1", lambda r: min(r.optimal), name="optimal T", **kw)
    value = table.pivot("score2", "score1", "value", name="P(player 2 wins)", **kw)
    side = min(max(0.3 * goal + 2.5, 5.0), 8.0)
    fig, (left, right) = _figure("plot_the_race", 2, (2 * side + 2.5, side))
    heatmap(best, left, origin="lower", annotate=goal <= 24, max_ticks=12)
    heatmap(value, right, origin="lower", annotate=goal <= 12, cmap="viridis", vmin=0.0,
            vmax=1.0, max_ticks=12)
    fig.suptitle(f"The Race to {goal} (Project Euler 232), player 2 to move")
    return fig


_MATLAB_COLORS = ("#0072bd", "#d95319", "#edb120", "#7e2f8e", "#77ac30", "#4dbeee", "#a2142f",
                  "#000000", "#7f7f7f", "#bcbd22", "#e377c2", "#8c564b")
"""MATLAB's default line colours, then a few more: the paper's Figure 5 colours (l = 3
yellow, 4 purple, 5 green, 6 blue) are this cycle's third to sixth entries."""


def plot_super_six_figure5(total: int = 15, others: Iterable[int] = range(1, 7), *,
                           zoom: bool = True) -> Figure:
    """Super Six, Figure 5 of Jehn 2021 (seed 002): continue minus stop with 3 on the lid.

    The mover's winning probability when rolling on minus when stopping, at the decision
    ``(3/k/l)`` (3 sticks on the lid, ``k`` in the mover's hand, ``l`` in the
    opponent's), against ``k``, one curve per ``l`` in ``others``, over every situation
    with at most ``total`` sticks (the paper: 15). Below 0, stopping is better. Computed
    exactly (:func:`tbsg.games.super_six_continue_gain` gives the same numbers); curve
    colours follow the paper (``l = 3`` yellow, 4 purple, 5 green, 6 blue).

    Left: all values on a symmetric log scale (linear within ``±1e-4``); right (with
    ``zoom``, default): a linear zoom on the sign changes, where the differences are
    below ``5e-4`` as the paper says.
    """
    from tbsg.api import solve
    from tbsg.games.super_six import SuperSix

    if isinstance(total, bool) or not isinstance(total, int) or total < 5:
        raise ValueError(f"total must be an int >= 5 (sticks in play), got {total!r}")
    wanted = list(others)
    sol = solve(SuperSix(total - 1, 1))  # reaches every situation with <= total sticks
    table = state_table(sol, where=lambda s: s.mover == 0 and s.decision and s.lid == 3
                        and s.other in wanted)
    fig, axes = _figure("plot_super_six_figure5", 2 if zoom else 1, (13.0 if zoom else 7.5, 5.0))
    colours = {l: _MATLAB_COLORS[(l - 1) % len(_MATLAB_COLORS)] for l in wanted}  # noqa: E741
    ks = sorted({int(r.state.hand) for r in table.rows})
    common: dict[str, Any] = {
        "x": "hand", "curve": "other", "y": lambda r: r.gain("roll", "stop"),
        "curves": wanted, "label": "l = {}", "legend_title": "opponent's sticks l",
        "xlabel": "k: sticks of the player to move", "colors": colours,
        "ylabel": "P(continue) - P(stop)"}
    margin_curves(table, ax=axes[0], yscale="symlog", linthresh=1e-4,
                  title=f"3 sticks on the lid, up to {total} sticks", **common)
    if zoom:
        margin_curves(table, ax=axes[1], title="zoom on the sign changes (below 0: stop)",
                      **common)
        gains = [float(r.gain("roll", "stop")) for r in table.rows]
        span = max(-min(gains, default=-1e-3), 1e-4)
        axes[1].set_ylim(-1.35 * span, 3.0 * span)
    for ax in axes:
        ax.set_xticks(ks)
    fig.suptitle("Super Six: gain of continuing over stopping (Jehn 2021, Figure 5)")
    return fig


def plot_pig_hold_boundary(goal: int = 100, die: int = 6, *,
                           solution: Solution[Any, Any] | FloatSolution[Any, Any] | None = None,
                           sections: Sequence[int] | None = None) -> Figure:
    """Pig (Neller and Presser 2004): the roll/hold boundary, as in their Figures 3 and 4.

    Left: over the mover's score ``i`` (across) and the opponent's ``j`` (up), the turn
    total at which holding first becomes optimal (:func:`tbsg.games.pig.pig_hold_boundary`;
    the paper draws this surface in 3D). Right: cross-sections, the boundary against the
    opponent's score for a few scores of the mover (``sections``, default 0, 30, 60, 90
    percent of the goal). Where the mover should roll on to the goal the boundary is
    ``goal - i``.

    Parameters
    ----------
    goal, die : int
        The game (Pig to 100 with a six-sided die in the paper; ``die=2`` is not Piglet,
        pass a ``solution`` of :func:`tbsg.games.pig.piglet` for that).
    solution : Solution or FloatSolution, optional
        A solution of that game already computed. By default the game is solved in
        floats with proven bounds (Pig to 100 has 960,894 states), which decides the
        boundary wherever roll and hold differ by more than the certified gap.
    sections : sequence of int, optional
        The mover's scores of the cross-sections.
    """
    from tbsg.api import solve
    from tbsg.games.pig import pig, pig_hold_boundary

    sol = solution if solution is not None else solve(pig(goal, die), exact=False)
    boundary = pig_hold_boundary(sol)
    game = sol.game
    goal = int(getattr(game, "goal", max(i for i, _ in boundary) + 1))
    name = type(game).__name__
    dice = f"d{game.die}" if hasattr(game, "die") else "coin"
    holds = {(i, j): k for (i, j), k in boundary.items() if k < goal - i}  # else: roll to goal
    scores = sorted({i for i, _ in boundary} | {j for _, j in boundary})  # reachable only
    pivot = Pivot.from_dict({(j, i): k for (i, j), k in holds.items()},
                            rows=scores, columns=scores,
                            row_name="j: opponent's score", col_name="i: mover's score",
                            name="hold at turn total")
    fig, (left, right) = _figure("plot_pig_hold_boundary", 2, (14.0, 6.2))
    heatmap(pivot, left, origin="lower", annotate=goal <= 12, cmap="viridis", max_ticks=12,
            categorical=False, title="hold when the turn total reaches (grey: roll on to the goal)")
    if sections is None:
        with_holds = sorted({i for i, _ in holds})
        # (no hold anywhere, e.g. Pig to 20 with a d6: then the section at score 0)
        picks = {with_holds[round(f * (len(with_holds) - 1))] for f in (0.0, 0.33, 0.67, 1.0)
                 if with_holds}
        sections = sorted(picks) if picks else [0]
    import matplotlib as mpl

    cmap = mpl.colormaps["plasma"]
    for n, i in enumerate(sections):
        pts = sorted((j, holds.get((i, j), math.nan)) for (ii, j) in boundary if ii == i)
        right.plot([p[0] for p in pts], [p[1] for p in pts], drawstyle="steps-mid",
                   marker="o", markersize=2.5,
                   color=cmap(0.85 * n / max(len(sections) - 1, 1)), label=f"i = {i}")
    right.set_xlabel("j: opponent's score")
    right.set_ylabel("hold at turn total k")
    right.set_title("cross-sections, the mover's score i fixed (gaps: roll on to the goal)")
    right.grid(True, color="0.9")
    right.legend(title="mover's score", fontsize="small", title_fontsize="small")
    fig.suptitle(f"{name} to {goal} ({dice}): the roll/hold boundary (Neller and Presser 2004, "
                 "Figures 3 and 4)")
    return fig

