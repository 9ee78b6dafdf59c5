"""The sources' figures and tables, redrawn from exact solutions (catalog layer).

Why: the published analyses of the catalog games are tables and figures (Risk or
Safety's Table 1, the Unspeakable Words ``aMove``/``aValue`` grids, Super Six's
Figure 5, Pig's hold boundary); each function here recomputes one source's figure with
the generic plots of :mod:`tbsg.outputs.plots.generic` and returns a new
:class:`matplotlib.figure.Figure`, as every plot function of tbsg does:
:func:`plot_risk_or_safety_table1`, :func:`plot_unspeakable_words`,
:func:`plot_coinball`, :func:`plot_the_race`, :func:`plot_super_six_figure5`,
:func:`plot_pig_hold_boundary`, and one figure past the sources,
:func:`plot_risk_or_safety_lengths`. They are also :mod:`tbsg.plots`' names, the place to
import them from.

matplotlib is an optional dependency (the ``notebook`` extra); it is imported when a
function is called, so importing this module works without it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from tbsg._util.checks import int_at_least
from tbsg.api.solving import solve
from tbsg.errors import InvalidArgumentError
from tbsg.games.coinball import coinball
from tbsg.games.pig import pig, pig_hold_boundary
from tbsg.games.risk_or_safety import RoSLengthRow, risk_or_safety_coin_table, risk_or_safety_lengths
from tbsg.games.super_six import SuperSix
from tbsg.games.the_race import PLAYER_2, the_race
from tbsg.games.unspeakable_words import unspeakable_words_tables
from tbsg.outputs.pivot import Pivot
from tbsg.outputs.plots.generic import heatmap, margin_curves, new_figure
from tbsg.outputs.tables import Row, state_table

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tbsg.results import FloatSolution, Solution

__all__ = [
    "plot_coinball",
    "plot_pig_hold_boundary",
    "plot_risk_or_safety_lengths",
    "plot_risk_or_safety_table1",
    "plot_super_six_figure5",
    "plot_the_race",
    "plot_unspeakable_words",
]


def plot_risk_or_safety_table1(max_points: int = 20) -> Figure:
    """Risk or Safety, Table 1 of Jehn 2026 (seed 000): coins to toss before saving.

    Rows: points the player to move still needs (2 at the top, as printed); columns:
    points the opponent needs; cell: how many heads in a row to toss before stopping
    (:func:`tbsg.games.risk_or_safety_coin_table`, computed exactly). The paper prints
    ``max_points = 20``; any size works.

    Returns
    -------
    Figure
        A new figure (its panels are ``fig.axes``).
    """
    table = risk_or_safety_coin_table(max_points)
    pivot = Pivot.from_dict(table, row_name="points I need (player to move)",
                            col_name="points the opponent needs", name="coins to toss")
    k = max_points - 1
    side = min(max(0.34 * k + 2.0, 5.0), 17.0)
    fig, (ax,) = new_figure("plot_risk_or_safety_table1", 1, (side + 1.2, side))
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

    Returns
    -------
    Figure
        A new figure (its panels are ``fig.axes``).
    """
    moves, values = unspeakable_words_tables(n, die, bust)
    kw: dict[str, Any] = {"row_name": "a (points of player a, to move)",
                          "col_name": "b (points of player b)"}
    pm = Pivot.from_dict(moves, name="aMove: optimal bet", **kw)
    pv = Pivot.from_dict(values, name="aValue: P(a wins)", **kw)
    side = min(max(0.42 * (n + 1) + 2.0, 4.2), 12.0)
    fig, (left, right) = new_figure("plot_unspeakable_words", 2, (2 * side + 2.0, side))
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

    Returns
    -------
    Figure
        A new figure (its panels are ``fig.axes``).
    """
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
    fig, (left, right) = new_figure("plot_coinball", 2, (15.0, height))
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

    Returns
    -------
    Figure
        A new figure (its panels are ``fig.axes``).
    """
    sol = solution if solution is not None else solve(the_race(goal))
    table = state_table(sol, where=lambda s: s.mover == PLAYER_2)
    kw: dict[str, Any] = {"row_name": "player 2's score", "col_name": "player 1's score"}
    best = table.pivot("score2", "score1", lambda r: min(r.optimal), name="optimal T", **kw)
    value = table.pivot("score2", "score1", "value", name="P(player 2 wins)", **kw)
    side = min(max(0.3 * goal + 2.5, 5.0), 8.0)
    fig, (left, right) = new_figure("plot_the_race", 2, (2 * side + 2.5, side))
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

    Returns
    -------
    Figure
        A new figure (its panels are ``fig.axes``).
    """
    int_at_least("total", total, 5, what="sticks in play")
    wanted = list(others)
    sol = solve(SuperSix(total - 1, 1))  # reaches every situation with <= total sticks
    table = state_table(sol, where=lambda s: s.mover == 0 and s.decision and s.lid == 3
                        and s.other in wanted)
    fig, axes = new_figure("plot_super_six_figure5", 2 if zoom else 1, (13.0 if zoom else 7.5, 5.0))
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

    Returns
    -------
    Figure
        A new figure (its panels are ``fig.axes``).
    """
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
    fig, (left, right) = new_figure("plot_pig_hold_boundary", 2, (14.0, 6.2))
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


def plot_risk_or_safety_lengths(max_target: int = 50, *,
                                rows: Sequence[RoSLengthRow] | None = None) -> Figure:
    """Risk or Safety: expected game length under optimal play against the target.

    Left: expected coin tosses (with a band of one standard deviation) and expected
    turns, for targets ``1 .. max_target``; right: expected tosses per point of the
    target, whose levelling off shows the linear growth. Computed exactly
    (:func:`tbsg.games.risk_or_safety_lengths`); the paper (seed 000) reports no
    lengths. ``rows``: that function's rows already computed (else computed here).

    Returns
    -------
    Figure
        A new figure (its panels are ``fig.axes``).
    """
    data = list(rows) if rows is not None else risk_or_safety_lengths(max_target)
    if not data:
        raise InvalidArgumentError("rows must hold at least one target")
    n = [r.target for r in data]
    tosses = [float(r.tosses) for r in data]
    sd = [math.sqrt(float(r.toss_variance)) for r in data]
    fig, (left, right) = new_figure("plot_risk_or_safety_lengths", 2, (13.0, 5.0))
    left.fill_between(n, [t - d for t, d in zip(tosses, sd, strict=True)],
                      [t + d for t, d in zip(tosses, sd, strict=True)], color="#0072bd", alpha=0.15,
                      label="tosses ± 1 standard deviation")
    left.plot(n, tosses, marker="o", markersize=3, color="#0072bd", label="coin tosses")
    left.plot(n, [float(r.turns) for r in data], marker="s", markersize=3, color="#d95319",
              label="turns")
    left.set_xlabel("target (points to win)")
    left.set_ylabel("expected number per game")
    left.set_title("expected game length, optimal play")
    left.legend(fontsize="small")
    right.plot(n, [float(r.tosses_per_point) for r in data], marker="o", markersize=3,
               color="#0072bd", label="tosses per point")
    right.plot(n, [float(r.turns / r.target) for r in data], marker="s", markersize=3,
               color="#d95319", label="turns per point")
    right.set_xlabel("target (points to win)")
    right.set_ylabel("expected number / target")
    right.set_title("per point of the target")
    right.legend(fontsize="small")
    for ax in (left, right):
        ax.grid(True, color="0.9")
        ax.set_ylim(bottom=0)
    fig.suptitle(f"Risk or Safety: how long a game lasts, targets 1 to {data[-1].target} "
                 "(exact, tbsg)")
    return fig
