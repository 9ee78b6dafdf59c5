"""The Race (Project Euler 232; seed 003): the answer 0.83648556, and past it.

Reproduces the published answer, P(player 2 wins) to 8 decimals for a race to 100
points, as an exact rational (a 480-digit denominator), and the same number from the
float solver with proven bounds.

Goes past the problem:

* player 2's optimal number of tosses ``T`` and her winning chance in every position
  (one map each, over both scores);
* her winning chance for every goal from 1 to 100, from the one exact solve (a race to
  ``g`` is the end of a race to 100 from scores ``100 - g`` each);
* how close her choices are: the margin of the best ``T`` over the next best.

Run ``python examples/the_race.py`` (about 30 s) or ``--fast``. Files go to
``docs/figures/`` (``--out DIR``).
"""

from __future__ import annotations

from pathlib import Path

from _output import Output, pyplot, run

import tbsg
from tbsg.games import RaceState, the_race
from tbsg.games.the_race import PLAYER_1, PLAYER_2
from tbsg.outputs.tables import state_table
from tbsg.sources.the_race import ANSWER as PRINTED  # seed 003: the answer


def main(fast: bool = False, out: Path | None = None) -> dict[str, Path]:
    """Reproduce and extend the problem; return the files written, by name."""
    from tbsg import plots

    plt = pyplot()
    output = Output(out, fast)
    save, written = output.save, output.written

    goal = 10 if fast else 100
    game = the_race(goal)
    sol = tbsg.solve(game)
    v = sol.value()
    shown = f"{float(v):.8f}"
    print(f"The Race to {goal}: P(player 2 wins) = {shown} "
          f"(exact, {len(str(v.denominator))}-digit denominator, {sol.seconds:.1f} s)"
          + (f"; published {PRINTED}: {'matches' if shown == PRINTED else 'DIFFERS'}"
             if goal == 100 else ""))
    approx = tbsg.solve(game, exact=False, tol=1e-12)
    lo, hi = approx.bounds()
    print(f"float solver: {lo:.15f} <= P <= {hi:.15f}, contains the exact value: {lo <= v <= hi}")

    # the strategy and value maps
    save("the_race_strategy.png", plots.plot_the_race(goal, solution=sol))

    # every goal from one solve
    goals = list(range(1, goal + 1))
    by_goal = [sol.value(RaceState(PLAYER_1, goal - g, goal - g)) for g in goals]
    fig, ax = plt.subplots(figsize=(8.5, 4.8), layout="constrained")
    ax.plot(goals, [float(x) for x in by_goal], "o-", markersize=3, linewidth=1)
    ax.axhline(0.5, color="0.2", linewidth=1.0)
    ax.set_xlabel("goal (points to reach)")
    ax.set_ylabel("P(player 2 wins), player 1 starts")
    ax.set_title("The Race: player 2's winning chance by goal (exact, both from 0 points)")
    ax.grid(True, color="0.9")
    if goal == 100:
        ax.annotate(f"goal 100: {PRINTED}", (100, float(by_goal[-1])), xytext=(62, 0.7),
                    arrowprops={"arrowstyle": "->", "color": "0.3"})
    save("the_race_by_goal.png", fig)
    worst = min(zip(by_goal, goals, strict=True))
    print(f"player 2's chance is lowest for goal {worst[1]}: {float(worst[0]):.6f}")

    # how close player 2's choices are
    table = state_table(sol, where=lambda s: s.mover == PLAYER_2)
    margins = table.pivot("score2", "score1", lambda r: r.margin, name="margin",
                          row_name="player 2's score", col_name="player 1's score")
    fig, ax = plt.subplots(figsize=(8.5, 7), layout="constrained")
    plots.heatmap(margins.map(float), ax, origin="lower", annotate=False, cmap="magma_r",
                  max_ticks=12, log=True, vmin=1e-12,
                  title=f"The Race to {goal}: best T minus next best T, player 2 to move "
                        "(log scale)")
    save("the_race_margin.png", fig)
    close = table.where(lambda r: r.margin is not None and 0.05 < r.value < 0.95).sorted(
        lambda r: r.margin)
    print("\nthe closest choices of player 2 (winning chance between 5% and 95%):")
    print(close.head(8).to_markdown(columns=[
        "score1", "score2", ("P(player 2 wins)", lambda r: float(r.value)), "optimal",
        ("second best", lambda r: sorted(r.action_values, key=r.action_values.get)[-2]),
        ("margin", lambda r: float(r.margin))], digits=4))
    return written


if __name__ == "__main__":
    run(main, __doc__)
