"""Risk or Safety (R. Jehn, arXiv 2603.01002, 2026; seed 000): Table 1, and past it.

Reproduces, exactly:

* ``P(0,0,0)`` for targets 1 to 6 (sections 2 and 3.3: 2/3, 4/7, 6/11, 2236/4165,
  1026/1925, 275848876/521145625);
* Table 1 (section 5): how many coins the player to move should toss before saving,
  for 2 to 20 points needed by either player, compared cell by cell with the printed
  table, and exported as Markdown, LaTeX and CSV.

Goes past the paper:

* Table 1 to 50 points (the paper stops at 20);
* the winning chance of the player to move at the start of a turn, over the points
  both players need;
* how close the decision after the first heads is: the gain of stopping over tossing
  on, against the points needed, one curve per opponent's need (positive: take the
  single point; the curves cross zero where Table 1 changes from 1 coin to more);
* the full per-state table for ``n = 6`` (CSV, exact fractions).

Run ``python examples/risk_or_safety.py`` (about 20 s) or ``--fast`` (small sizes, a
few seconds; what the test suite runs). Files go to ``docs/figures/`` (``--out DIR``).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from _output import Output, pyplot, run

import tbsg
from tbsg.games import RoSState, risk_or_safety, risk_or_safety_coin_table
from tbsg.outputs.pivot import Pivot
from tbsg.outputs.tables import StateTable, state_table
from tbsg.sources.risk_or_safety import P000, TABLE_1


def coins_table(table: StateTable[RoSState, str], n: int) -> Pivot:
    """Table 1 from the states of a game to ``n``: rows = points I need, columns = points
    the opponent needs, cell = the first number of open points where stopping is optimal
    (all the points needed if never)."""
    return table.pivot(
        rows=lambda r: n - r.saved, columns=lambda r: n - r.other,
        cell=lambda r: r.open if "stop" in r.optimal else n - r.saved, agg=min,
        where=lambda r: r.mover == 0 and r.saved <= n - 2 and r.other <= n - 2,
        row_name="I need", col_name="opponent needs", name="coins to toss")


def main(fast: bool = False, out: Path | None = None) -> dict[str, Path]:
    """Reproduce and extend the paper; return the files written, by name."""
    from tbsg import plots

    plt = pyplot()
    output = Output(out, fast)
    save, write, written = output.save, output.write, output.written

    # 1. the exact values of sections 2 and 3.3
    print("P(0,0,0), exact (seed 000, sections 2 and 3.3):")
    for n, (_, printed) in P000.items():  # as printed (tbsg.sources.risk_or_safety)
        v = tbsg.solve(risk_or_safety(n)).value()
        status = "matches" if v == Fraction(printed) else "DIFFERS"
        print(f"  n = {n}: {v} ≈ {float(v):.9f}  (printed {printed}: {status})")

    # 2. Table 1, from the per-state table, against the printed one
    n = 6 if fast else 20
    table = state_table(tbsg.solve(risk_or_safety(n)), where=lambda s: s.mover == 0)
    coins = coins_table(table, n)
    assert coins.to_dict() == risk_or_safety_coin_table(n)
    wrong = [(need, opp) for need in range(2, n + 1) for opp in range(2, n + 1)
             if coins[need, opp] != int(TABLE_1[need].split()[opp - 2])]
    print(f"\nTable 1 (coins to toss), {n - 1} x {n - 1} cells: "
          + ("all match the printed table" if not wrong else f"differ at {wrong}"))
    print(coins.to_markdown())
    write("risk_or_safety_table1.md", coins.to_markdown() + "\n")
    write("risk_or_safety_table1.tex", coins.to_latex(
        caption=f"Risk or Safety: number of coins to toss (Jehn 2026, Table 1), n = {n}",
        label="tab:ros-table1") + "\n")
    write("risk_or_safety_table1.csv", coins.to_csv())
    save("risk_or_safety_table1.png", plots.plot_risk_or_safety_table1(n))

    # 3. past the paper: Table 1 to 50 points
    big = 8 if fast else 50
    save(f"risk_or_safety_table1_to_{big}.png", plots.plot_risk_or_safety_table1(big))
    sol_big = tbsg.solve(risk_or_safety(big))
    print(f"\nTo {big} points: P(0,0,0) ≈ {float(sol_big.value()):.15f} "
          f"(exact, {len(str(sol_big.value().denominator))}-digit denominator)")

    # 4. the value of the start of a turn, over the points both players need
    values = table.pivot(rows=lambda r: n - r.saved, columns=lambda r: n - r.other,
                         cell="value_to_move", where=lambda r: r.open == 0,
                         row_name="points I need (player to move)",
                         col_name="points the opponent needs",
                         name="P(player to move wins), start of turn")
    fig, ax = plt.subplots(figsize=(11, 9.5), layout="constrained")
    plots.heatmap(values, ax, cmap="RdBu", vmin=0.0, vmax=1.0, fmt=".2f", columns_on_top=True,
                  title=f"Risk or Safety to {n}: winning chance at the start of a turn")
    save("risk_or_safety_values.png", fig)
    write("risk_or_safety_values.csv", values.to_csv())

    # 5. how close the decision after the first heads is
    first = state_table(sol_big, where=lambda s: s.mover == 0 and s.open == 1)
    needs = [2, 3, 5, 10, 20, 35, 50] if not fast else [2, 3, 5, 8]
    fig, ax = plt.subplots(figsize=(10, 5.5), layout="constrained")
    plots.margin_curves(
        first, x=lambda r: big - r.saved, curve=lambda r: big - r.other,
        y=lambda r: r.gain("stop", "toss"), curves=needs, ax=ax, yscale="symlog",
        linthresh=1e-8, label="{}", legend_title="opponent needs", legend_outside=True,
        xlabel="points I need (before the first heads)",
        ylabel="P(stop) − P(toss on), 1 open point",
        title=f"Risk or Safety to {big}: stop after the first heads? (above 0: yes)")
    save("risk_or_safety_stop_gain.png", fig)

    # 6. the full per-state table of a small game
    small = state_table(tbsg.solve(risk_or_safety(6)))
    write("risk_or_safety_6_states.csv", small.to_csv())
    print(f"\nPer-state table, n = 6: {len(small)} states; the closest decisions:")
    close = small.where(lambda r: r.margin is not None and r.player == 0).sorted(
        lambda r: r.margin)
    print(close.head(5).to_markdown(
        columns=["open", "saved", "other", "value_to_move", "optimal", "margin"]))
    return written


if __name__ == "__main__":
    run(main, __doc__)
