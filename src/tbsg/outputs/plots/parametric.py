"""A parametric solution drawn: the value against the parameter, and the strategy regions.

:func:`plot_parametric` evaluates the exact value formula of each region on a grid of
rational points (so the curve is exact at every point drawn) and shows below it the
regions as coloured bands, with the breakpoints marked. matplotlib is imported when the
function is called, as in :mod:`tbsg.outputs.plots.generic`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

from tbsg._util.optional import optional_import
from tbsg.errors import show
from tbsg.results.query import INITIAL, Initial

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tbsg.parametric.solve import ParametricSolution

__all__ = ["plot_parametric"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)


def plot_parametric(sol: ParametricSolution[S, A], *, state: S | Initial = INITIAL,
                    label: Callable[[Any], str] | None = None, points: int = 400,
                    title: str | None = None, figsize: tuple[float, float] = (7.0, 5.0)) -> Figure:
    """The value at ``state`` (default: initial) over the parameter, and the strategy regions.

    Parameters
    ----------
    sol : ParametricSolution
    state : optional
        Whose value to draw (player 0's value).
    label : callable, optional
        Text of a region's band from the region (default: its number).
    points : int
        Grid points of the value curve (each an exact evaluation).
    title : str, optional
    figsize : tuple

    Returns
    -------
    Figure
        Two axes: the value curve, and the regions as coloured bands with breakpoints.
        The curve is labelled "expected payoff" when the game is not a win-probability
        game (``sol.win_probability``).
    """
    plt = optional_import("matplotlib.pyplot", "tbsg.plots.plot_parametric")
    lo, hi = sol.interval
    fig, (ax, bx) = plt.subplots(2, 1, figsize=figsize, sharex=True,
                                 gridspec_kw={"height_ratios": [3, 1]})
    xs = [lo + (hi - lo) * Fraction(j, points) for j in range(1, points)]
    cmap = plt.get_cmap("tab20")
    for n, r in enumerate(sol.regions):
        a, b = float(r.lo), float(r.hi)
        f = r.value(state)
        seg = [x for x in xs if a <= x <= b]
        ax.plot([float(x) for x in seg], [float(f(x)) for x in seg], color=cmap(n % 20), linewidth=2)
        bx.axvspan(a, b, color=cmap(n % 20), alpha=0.6)
        text = label(r) if label is not None else str(n + 1)
        if b - a > (float(hi) - float(lo)) / 40:
            bx.text((a + b) / 2, 0.5, text, ha="center", va="center", fontsize=8)
    for bp in sol.breakpoints:
        for axis in (ax, bx):
            axis.axvline(float(bp.at), color="0.3", linewidth=0.6, linestyle=":")
    sym = str(sol.symbol)
    what = "value" if sol.win_probability else "expected payoff"
    ax.set_ylabel(f"{what} (player 0)")
    ax.set_title(title or f"{show(sol.game, 60)}: {what} and optimal-strategy regions over {sym}")
    ax.grid(True, alpha=0.3)
    bx.set_yticks([])
    bx.set_xlabel(sym)
    bx.set_xlim(float(lo), float(hi))
    bx.set_ylabel("region")
    fig.tight_layout()
    return fig  # type: ignore[no-any-return]
