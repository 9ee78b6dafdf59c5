"""Tables, LaTeX and plots of a parametric solution.

* :func:`region_rows` / :func:`region_table`: one row per region: its ends (exact
  breakpoints printed to a chosen number of correct digits, with their minimal
  polynomials), the value formula at the initial state, and the actions that change at
  its right end (state: left action -> right action).
* :func:`region_latex`: the value formulas as a LaTeX ``cases`` environment, breakpoints
  named ``p_1, p_2, ...`` with their minimal polynomials (sympy's ``latex``).
* :func:`plot_parametric`: the value at a state against the parameter (exact formulas
  evaluated on a grid), and below it the regions as bands with the breakpoints marked
  (matplotlib, imported when called, as in :mod:`tbsg.outputs.plots.generic`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tbsg._util.optional import optional_import
from tbsg.errors import show
from tbsg.parametric.algebraic import RealAlgebraic

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tbsg.parametric.solve import ParametricSolution

__all__ = ["plot_parametric", "region_latex", "region_rows", "region_table"]


def _end(x: RealAlgebraic, digits: int) -> str:
    return str(x.lo) if x.is_rational() else x.decimal(digits)


def _poly_latex(x: RealAlgebraic, symbol: Any) -> str:
    import sympy

    expr = sympy.Add(*(c * symbol**k for k, c in enumerate(x.minimal_polynomial)))
    return str(sympy.latex(expr))


def region_rows(sol: ParametricSolution[Any, Any], *, state: Hashable | None = None,
                digits: int = 6) -> list[dict[str, str]]:
    """One dict per region: ``from``, ``to``, ``to_exact``, ``value``, ``changes at to``."""
    rows: list[dict[str, str]] = []
    sym = sol.symbol
    for n, r in enumerate(sol.regions):
        change = ""
        exact_end = ""
        if n < len(sol.breakpoints):
            b = sol.breakpoints[n]
            change = "; ".join(f"{show(s, 60)}: {a} -> {c}" for s, a, c in b.changes)
            exact_end = "" if b.at.is_rational() else f"root of {_poly_text(b.at)} in [{b.at.lo}, {b.at.hi}]"
        rows.append({"from": _end(r.lo, digits), "to": _end(r.hi, digits), "to_exact": exact_end,
                     "value": str(r.value_of(state).to_expr(sym)), "changes at to": change})
    return rows


def _poly_text(x: RealAlgebraic) -> str:
    return str(x).split(" in [")[0].removeprefix("root of ")


def region_table(sol: ParametricSolution[Any, Any], *, state: Hashable | None = None,
                 digits: int = 6, changes: bool = True) -> str:
    """A Markdown table of :func:`region_rows`."""
    rows = region_rows(sol, state=state, digits=digits)
    cols = ["from", "to", "to_exact", "value"] + (["changes at to"] if changes else [])
    head = "| " + " | ".join(cols) + " |"
    rule = "|" + "|".join("---" for _ in cols) + "|"
    body = ["| " + " | ".join(r[c].replace("|", "\\|") for c in cols) + " |" for r in rows]
    return "\n".join([head, rule, *body])


def region_latex(sol: ParametricSolution[Any, Any], *, state: Hashable | None = None,
                 name: str = "v") -> str:
    """The value at ``state`` as a piecewise LaTeX formula, with the breakpoints' definitions."""
    import sympy

    sym = sol.symbol
    p = sympy.latex(sym)
    bps = [b.at for b in sol.breakpoints]

    def end(x: RealAlgebraic, k: int | None) -> str:
        if x.is_rational():
            return str(sympy.latex(sympy.Rational(x.lo.numerator, x.lo.denominator)))
        return f"{p}_{{{k}}}"

    lines = []
    for n, r in enumerate(sol.regions):
        lo = end(r.lo, n if n else None)
        hi = end(r.hi, n + 1)
        formula = sympy.latex(r.value_of(state).to_expr(sym))
        lines.append(f"{formula} & {lo} < {p} \\le {hi}" if n + 1 < len(sol.regions)
                     else f"{formula} & {lo} < {p} < {hi}")
    body = f"{name}({p}) = \\begin{{cases}} " + " \\\\ ".join(lines) + " \\end{cases}"
    defs = [f"{p}_{{{k}}} \\approx {x.decimal(9)}: \\text{{root of }} {_poly_latex(x, sym)} "
            f"\\text{{ in }} [{x.lo}, {x.hi}]" for k, x in enumerate(bps, 1) if not x.is_rational()]
    return "\n".join([body, *defs])


def plot_parametric(sol: ParametricSolution[Any, Any], *, state: Hashable | None = None,
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
    """
    plt = optional_import("matplotlib.pyplot", "tbsg.parametric.plot_parametric")
    lo, hi = sol.interval
    fig, (ax, bx) = plt.subplots(2, 1, figsize=figsize, sharex=True,
                                 gridspec_kw={"height_ratios": [3, 1]})
    xs = [lo + (hi - lo) * Fraction(j, points) for j in range(1, points)]
    cmap = plt.get_cmap("tab20")
    for n, r in enumerate(sol.regions):
        a, b = float(r.lo), float(r.hi)
        f = r.value_of(state)
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
    ax.set_ylabel("value (player 0)")
    ax.set_title(title or f"{show(sol.game, 60)}: value and optimal-strategy regions over {sym}")
    ax.grid(True, alpha=0.3)
    bx.set_yticks([])
    bx.set_xlabel(sym)
    bx.set_xlim(float(lo), float(hi))
    bx.set_ylabel("region")
    fig.tight_layout()
    return fig  # type: ignore[no-any-return]
