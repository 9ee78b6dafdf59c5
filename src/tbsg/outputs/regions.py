"""Tables and LaTeX of a parametric solution: its regions, breakpoints and formulas.

* :func:`region_rows` / :func:`region_table`: one row per region: its ends (exact
  breakpoints printed to a chosen number of correct digits, with their minimal
  polynomials), the value formula at the initial state, and the actions that change at
  its right end (state: left action -> right action).
* :func:`region_latex`: the value formulas as a LaTeX ``cases`` environment, breakpoints
  named ``p_1, p_2, ...`` with their minimal polynomials (sympy's ``latex``).

Its plot is :func:`tbsg.outputs.plots.parametric.plot_parametric` (``tbsg.plots``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, TypeVar

from tbsg.errors import show
from tbsg.parametric.algebraic import RealAlgebraic
from tbsg.results.query import INITIAL, Initial

if TYPE_CHECKING:
    from tbsg.parametric.solve import ParametricSolution

__all__ = ["region_latex", "region_rows", "region_table"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)


def _end(x: RealAlgebraic, digits: int) -> str:
    return str(x.lo) if x.is_rational() else x.decimal(digits)


def _poly_latex(x: RealAlgebraic, symbol: Any) -> str:
    import sympy

    expr = sympy.Add(*(c * symbol**k for k, c in enumerate(x.minimal_polynomial)))
    return str(sympy.latex(expr))


def region_rows(sol: ParametricSolution[S, A], *, state: S | Initial = INITIAL,
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
                     "value": str(r.value(state).to_expr(sym)), "changes at to": change})
    return rows


def _poly_text(x: RealAlgebraic) -> str:
    return str(x).split(" in [")[0].removeprefix("root of ")


def region_table(sol: ParametricSolution[S, A], *, state: S | Initial = INITIAL,
                 digits: int = 6, changes: bool = True) -> str:
    """A Markdown table of :func:`region_rows` (the ``value`` column titled "expected
    payoff" when the game is not a win-probability game)."""
    rows = region_rows(sol, state=state, digits=digits)
    cols = ["from", "to", "to_exact", "value"] + (["changes at to"] if changes else [])
    titles = [c if c != "value" or sol.win_probability else "expected payoff" for c in cols]
    head = "| " + " | ".join(titles) + " |"
    rule = "|" + "|".join("---" for _ in cols) + "|"
    body = ["| " + " | ".join(r[c].replace("|", "\\|") for c in cols) + " |" for r in rows]
    return "\n".join([head, rule, *body])


def region_latex(sol: ParametricSolution[S, A], *, state: S | Initial = INITIAL,
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
        formula = sympy.latex(r.value(state).to_expr(sym))
        lines.append(f"{formula} & {lo} < {p} \\le {hi}" if n + 1 < len(sol.regions)
                     else f"{formula} & {lo} < {p} < {hi}")
    body = f"{name}({p}) = \\begin{{cases}} " + " \\\\ ".join(lines) + " \\end{cases}"
    defs = [f"{p}_{{{k}}} \\approx {x.decimal(9)}: \\text{{root of }} {_poly_latex(x, sym)} "
            f"\\text{{ in }} [{x.lo}, {x.hi}]" for k, x in enumerate(bps, 1) if not x.is_rational()]
    return "\n".join([body, *defs])
