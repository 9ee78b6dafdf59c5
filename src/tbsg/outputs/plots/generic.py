"""Generic plots of tables and pivots: heat maps and margin curves (matplotlib).

Why: the views a reader looks at first, a strategy or a value over two variables and how
close each decision is, are the same for every game; these functions draw them for any
:class:`~tbsg.outputs.pivot.Pivot` or :class:`~tbsg.outputs.tables.StateTable`. The
sources' own figures, drawn with them, are in :mod:`tbsg.outputs.plots.catalog`.

* :func:`heatmap`: a :class:`~tbsg.outputs.pivot.Pivot` as coloured cells, numbers in
  the cells when they fit. Numeric cells get a continuous colour scale; strategies
  (strings, tuples of actions) and small integers get one colour per value, with a
  legend bar.
* :func:`margin_curves`: one curve per value of a state variable, e.g. the gain of
  continuing over stopping against the mover's sticks, one curve per opponent's sticks
  (Super Six, Figure 5). The margin itself (best action minus best other action, see
  :mod:`tbsg.outputs.tables`) is the default quantity.
* :func:`new_figure`: a new figure with one row of axes, for figures of several panels.

Every plot function of tbsg returns a :class:`matplotlib.figure.Figure`, here and in
:mod:`tbsg.outputs.plots.catalog`: a notebook shows it, ``fig.savefig(path)`` writes it. Functions
taking ``ax`` draw into those axes (a panel of your own figure) and return the figure
holding them; without ``ax`` they draw on a new figure, whose first axes
(``fig.axes[0]``) are the plot (a colour bar adds axes after it).

matplotlib is an optional dependency (the ``notebook`` extra, ``pip install
'tbsg[notebook]'``); it is imported when a function is called, so importing this module
works without it. New figures are made with ``matplotlib.pyplot`` (so ``plt.show()``
and notebooks display them); close them with ``plt.close(fig)`` in loops.

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from tbsg.outputs.pivot import Pivot
>>> fig = heatmap(Pivot.from_dict({(0, 0): 1, (0, 1): 2, (1, 0): 3, (1, 1): 4}))
>>> type(fig).__name__, [t.get_text() for t in fig.axes[0].texts]
('Figure', ['1', '2', '3', '4'])
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from tbsg._util.optional import optional_import
from tbsg.errors import InvalidArgumentError, show
from tbsg.outputs.pivot import Pivot, ordered_labels
from tbsg.outputs.tables import Row, RowKey, StateTable, row_key

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.colors import Colormap
    from matplotlib.figure import Figure


__all__ = ["figure_of", "heatmap", "margin_curves", "new_figure"]

_MISSING = "#eeeeee"
"""Colour of cells without a value (no such state)."""
_MISSING_RGBA = (0.933, 0.933, 0.933, 1.0)


def _pyplot(what: str) -> Any:
    optional_import("matplotlib", what)
    return optional_import("matplotlib.pyplot", what)


def figure_of(ax: Axes) -> Figure:
    """The figure holding ``ax`` (the root figure when ``ax`` is in a subfigure)."""
    from matplotlib.figure import Figure

    fig: object = ax.figure
    while not isinstance(fig, Figure):
        parent = getattr(fig, "figure", None)  # a SubFigure: its parent figure
        if parent is None or parent is fig:
            raise ValueError(f"the axes {ax!r} are not in a matplotlib Figure")
        fig = parent
    return fig


def _new_axes(plt: Any, figsize: tuple[float, float]) -> Axes:
    """The axes of a new figure of size ``figsize`` (constrained layout)."""
    _, ax = plt.subplots(figsize=figsize, layout="constrained")
    made: Axes = ax
    return made


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
            figsize: tuple[float, float] | None = None) -> Figure:
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
    Figure
        The figure drawn on: a new one (the heat map is ``fig.axes[0]``, its colour bar
        ``fig.axes[1]``), or the one holding ``ax``.

    Raises
    ------
    InvalidArgumentError
        If no cell has a value and neither ``categorical=False`` nor ``categories`` says
        what the empty grid's scale is (with either, it is drawn, every cell grey), or a
        cell's value is not among ``categories``.
    """
    plt = _pyplot("tbsg.plots.heatmap")
    nr, nc = pivot.shape
    values = [v for row in pivot.cells for v in row if v is not None]
    if not values and categorical is not False and (categories is None or len(categories) == 0):
        raise _empty_pivot(pivot)
    if ax is None:
        if figsize is None:
            figsize = (min(max(0.42 * nc + 2.2, 4.5), 16.0), min(max(0.36 * nr + 1.6, 3.2), 12.0))
        ax = _new_axes(plt, figsize)
    fig = figure_of(ax)
    if categorical is None:
        categorical = _looks_categorical(values, categories)
    scale = (_category_scale(pivot, values, categories, cmap, colors) if categorical
             else _continuous_scale(pivot, cmap, vmin, vmax, log))
    image = ax.imshow(np.ma.masked_invalid(scale.grid), cmap=scale.cmap.with_extremes(bad=_MISSING),
                      norm=scale.norm, origin=origin, aspect="auto", interpolation="nearest")
    _label_grid(ax, pivot, columns_on_top, max_ticks)
    shown_title = title if title is not None else (pivot.name if pivot.name != "cell" else None)
    if shown_title:
        ax.set_title(shown_title, pad=10 if columns_on_top else 6)
    if colorbar:
        _colorbar(fig, ax, image, scale, pivot)
    if annotate is None:
        annotate = nr * nc <= 900
    if annotate:
        _annotate(ax, pivot, scale, _formatter(fmt), fontsize)
    return fig


def _empty_pivot(pivot: Pivot) -> InvalidArgumentError:
    """No value to choose a colour scale by and no category to colour: refused by name (an
    explicit continuous scale, or given categories, draw the empty grid, every cell grey)."""
    nr, nc = pivot.shape
    return InvalidArgumentError(
        f"heatmap: no cell of the pivot {pivot.name!r} ({nr} row{'' if nr == 1 else 's'} of "
        f"{pivot.row_name!r} by {nc} column{'' if nc == 1 else 's'} of {pivot.col_name!r}) "
        "has a value: every cell is empty (None), e.g. no row of the table fell in a cell or "
        "each one's cell value was None; pass categorical=False (or categories=) to draw the "
        "grid of empty, grey cells anyway")


def _looks_categorical(values: Sequence[Any], categories: Sequence[Hashable] | None) -> bool:
    """One colour per value: cells that are not all numbers, integers with at most 12
    distinct values, or categories given."""
    numeric = bool(values) and all(_is_number(v) for v in values)
    ints = numeric and all(isinstance(v, numbers.Integral)
                           or (isinstance(v, Fraction) and v.denominator == 1) for v in values)
    return not numeric or (ints and len(set(values)) <= 12) or categories is not None


@dataclass(frozen=True)
class _Scale:
    """How cells are coloured: the grid of numbers drawn (NaN: no value), the colour map
    and norm, the colour of a cell value, and the categories (empty for a continuous scale)."""

    grid: npt.NDArray[np.float64]
    cmap: Colormap
    norm: Any
    face: Callable[[Any], Any]
    categories: list[Hashable]


def _category_scale(pivot: Pivot, values: Sequence[Any], categories: Sequence[Hashable] | None,
                    cmap: str | Colormap | None,
                    colors: Mapping[Hashable, Any] | Sequence[Any] | None) -> _Scale:
    """One colour per category; each cell holds its category's index."""
    import matplotlib as mpl

    cats = list(ordered_labels(values) if categories is None else categories)
    where = {c: i for i, c in enumerate(cats)}
    palette = _category_colors(cats, cmap, colors)
    grid = np.full(pivot.shape, np.nan)
    for i, row in enumerate(pivot.cells):
        for j, v in enumerate(row):
            if v is None:
                continue
            if v not in where:
                raise InvalidArgumentError(
                    f"heatmap: cell ({show(pivot.row_labels[i])}, {show(pivot.col_labels[j])}) "
                    f"of the pivot {pivot.name!r} holds {show(v)}, which is not among "
                    f"categories {show(cats)}")
            grid[i, j] = where[v]
    norm = mpl.colors.BoundaryNorm(np.arange(-0.5, len(cats) + 0.5), len(cats))
    return _Scale(grid, mpl.colors.ListedColormap(palette), norm, lambda v: palette[where[v]], cats)


def _continuous_scale(pivot: Pivot, cmap: str | Colormap | None, vmin: float | None,
                      vmax: float | None, log: bool) -> _Scale:
    """A linear (or logarithmic) scale from ``vmin`` to ``vmax``, by default the cells'
    range; on a log scale cells ``<= 0`` are drawn as missing."""
    import matplotlib as mpl

    grid = np.full(pivot.shape, np.nan)
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
        norm: Any = mpl.colors.LogNorm(lo, hi if hi > lo else lo * 10)
    else:
        norm = mpl.colors.Normalize(lo, hi if hi > lo else lo + 1)

    def face(v: Any) -> Any:
        x = float(v)
        return cm(norm(x)) if x > 0 or not log else _MISSING_RGBA
    return _Scale(grid, cm, norm, face, [])


def _label_grid(ax: Axes, pivot: Pivot, columns_on_top: bool, max_ticks: int) -> None:
    """Tick labels and axis names; white lines between cells where they are big enough."""
    nr, nc = pivot.shape
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
    if min(_cell_size(ax, nr, nc)) >= 9:
        ax.grid(which="minor", color="white", linewidth=0.6)
    ax.tick_params(which="minor", length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)


def _colorbar(fig: Figure, ax: Axes, image: Any, scale: _Scale, pivot: Pivot) -> None:
    """The colour bar: the categories as its tick labels, or the pivot's name as its label."""
    bar = fig.colorbar(image, ax=ax, shrink=0.9, pad=0.02)
    if scale.categories:
        bar.set_ticks(list(range(len(scale.categories))),
                      labels=[_default_text(c) for c in scale.categories])
        bar.ax.tick_params(length=0)
    elif pivot.name != "cell":
        bar.set_label(pivot.name)


def _annotate(ax: Axes, pivot: Pivot, scale: _Scale, text: Callable[[Any], str],
              fontsize: float | None) -> None:
    """Each cell's value written in it, white on dark cells and black on light ones."""
    nr, nc = pivot.shape
    size = fontsize if fontsize is not None else _cell_fontsize(ax, nr, nc, pivot, text)
    for i, row in enumerate(pivot.cells):
        for j, v in enumerate(row):
            if v is not None:
                colour = "white" if _luminance(scale.face(v)) < 0.5 else "black"
                ax.text(j, i, text(v), ha="center", va="center", fontsize=size, color=colour)


def _cell_size(ax: Axes, nr: int, nc: int) -> tuple[float, float]:
    """Width and height of a cell in points (before layout adjustments)."""
    w_in, h_in = figure_of(ax).get_size_inches()
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
                  figsize: tuple[float, float] = (7.0, 4.5)) -> Figure:
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
    Figure
        The figure drawn on: a new one (the curves are ``fig.axes[0]``), or the one
        holding ``ax``.
    """
    plt = _pyplot("tbsg.plots.margin_curves")
    import matplotlib as mpl

    groups, xname, cname, yname = _curve_points(table, x, curve, y, where)
    order = list(curves) if curves is not None else list(ordered_labels(groups))
    if ax is None:
        ax = _new_axes(plt, figsize)
    ax.set_axisbelow(True)
    if zero_line:
        ax.axhline(0.0, color="0.2", linewidth=1.0, zorder=1.5)
    cm = mpl.colormaps[cmap] if cmap is not None else (
        mpl.colormaps["viridis"] if len(order) > 10 else None)
    for n, c in enumerate(order):
        pts = sorted(groups.get(c, []), key=lambda p: p[0])
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=marker, markersize=4,
                    linewidth=1.5, label=label.format(c), color=_curve_colour(n, c, order, colors, cm),
                    zorder=2)
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
    return figure_of(ax)


def _curve_points(table: StateTable[Any, Any], x: RowKey, curve: RowKey, y: RowKey,
                  where: Callable[[Row[Any, Any]], bool] | None
                  ) -> tuple[dict[Hashable, list[tuple[Any, float]]], str, str, str]:
    """The points ``(x, y)`` of each curve (rows failing ``where``, or with ``y`` None, left
    out), and the names of ``x``, ``curve`` and ``y``."""
    xkey, xname = row_key(x, "x")
    ckey, cname = row_key(curve, "curve")
    ykey, yname = row_key(y, "y")
    groups: dict[Hashable, list[tuple[Any, float]]] = {}
    for r in table.rows:
        yv = ykey(r) if where is None or where(r) else None
        if yv is not None:
            groups.setdefault(ckey(r), []).append((xkey(r), float(yv)))
    return groups, xname, cname, yname


def _curve_colour(n: int, c: Hashable, order: Sequence[Hashable],
                  colors: Mapping[Hashable, Any] | Sequence[Any] | None, cm: Colormap | None) -> Any:
    """The colour of the ``n``-th curve ``c``: given by curve value or in order, else from
    the colour map, else None (matplotlib's colour cycle)."""
    if isinstance(colors, Mapping):
        return colors.get(c)
    if colors is not None:
        return list(colors)[n % len(colors)]
    if cm is not None:
        return cm(n / max(len(order) - 1, 1))
    return None


def new_figure(what: str, ncols: int, figsize: tuple[float, float]) -> tuple[Figure, list[Axes]]:
    """A new figure of ``ncols`` axes side by side (constrained layout) and its axes.

    ``what`` names the caller in the ImportError raised without matplotlib.
    """
    plt = _pyplot(what)
    fig, axes = plt.subplots(1, ncols, figsize=figsize, layout="constrained", squeeze=False)
    return fig, list(axes[0])
