# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Risk or Safety (Jehn 2026)
#
# R. Jehn, *Optimal strategy in the game Risk or Safety* (arXiv 2603.01002, 2026; seed
# 000). The player to move tosses a fair coin: heads adds one *open* point, and the player
# may then stop (saving the open points and passing the coin) or toss again; tails loses
# the open points and passes the coin. Whoever has `n` points, open plus saved, wins.
#
# This notebook reproduces, exactly, the paper's `P(0,0,0)` for `n = 1..6` (sections 2
# and 3.3) and Table 1 (section 5: how many coins to toss before saving), and goes past
# it: Table 1 to 50 points, the winning chance at the start of a turn, and how close the
# decision after the first heads is.
#
# Set `TBSG_FAST=1` for small sizes (seconds; the test suite does); figures and tables
# are written to `TBSG_OUT` (default `docs/figures/`).

# %%
from fractions import Fraction

from _output import Output, pyplot, show

import tbsg
from tbsg import plots
from tbsg.games import RoSState, risk_or_safety, risk_or_safety_coin_table
from tbsg.outputs.pivot import Pivot
from tbsg.outputs.tables import StateTable, state_table
from tbsg.sources.risk_or_safety import P000, TABLE_1  # the paper's printed values

out, plt = Output(), pyplot()
print(out)

# %% [markdown]
# ## 1. The exact values of sections 2 and 3.3
#
# `tbsg.sources.risk_or_safety.P000` holds the fractions as printed, with where; each is
# compared with the exact value tbsg computes (the assertion fails on any difference).

# %%
for n, (where, printed) in P000.items():
    v = tbsg.solve(risk_or_safety(n)).value()
    assert v == Fraction(printed), f"n = {n}: tbsg computes {v}, Jehn 2026 {where} prints {printed}"
    print(f"n = {n}: P(0,0,0) = {v} ≈ {float(v):.9f}  (Jehn 2026, {where}: {printed}, equal)")

# %% [markdown]
# ## 2. Table 1: coins to toss
#
# From the per-state table of the game to `n` points: rows are the points I need,
# columns the points the opponent needs, and a cell is the first number of open points
# at which stopping is optimal (all the points I need if never). The fast mode compares
# the 5 x 5 corner (2 to 6 points), the full run the whole printed table (2 to 20).

# %%
def coins_table(table: StateTable[RoSState, str], n: int) -> Pivot:
    """Table 1 from the states of the game to ``n`` points."""
    return table.pivot(
        rows=lambda r: n - r.saved, columns=lambda r: n - r.other,
        cell=lambda r: r.open if "stop" in r.optimal else n - r.saved, agg=min,
        where=lambda r: r.mover == 0 and r.saved <= n - 2 and r.other <= n - 2,
        row_name="I need", col_name="opponent needs", name="coins to toss")


n = 6 if out.fast else 20
table = state_table(tbsg.solve(risk_or_safety(n)), where=lambda s: s.mover == 0)
coins = coins_table(table, n)
assert coins.to_dict() == risk_or_safety_coin_table(n)  # the catalog's own Table 1 agrees
wrong = [(need, opp) for need in range(2, n + 1) for opp in range(2, n + 1)
         if coins[need, opp] != int(TABLE_1[need].split()[opp - 2])]
assert not wrong, f"Table 1 of Jehn 2026 (section 5) differs at {wrong}"
print(f"Table 1, {n - 1} x {n - 1} cells: all match the printed table (Jehn 2026, section 5)")
out.write("risk_or_safety_table1.md", coins.to_markdown() + "\n")
out.write("risk_or_safety_table1.tex", coins.to_latex(
    caption=f"Risk or Safety: number of coins to toss (Jehn 2026, Table 1), n = {n}",
    label="tab:ros-table1") + "\n")
out.write("risk_or_safety_table1.csv", coins.to_csv())
show(coins)

# %%
out.save("risk_or_safety_table1.png", plots.plot_risk_or_safety_table1(n))

# %% [markdown]
# ## 3. Past the paper: Table 1 to 50 points
#
# The paper stops at 20 points; the exact solve of the game to 50 takes seconds.

# %%
big = 8 if out.fast else 50
out.save(f"risk_or_safety_table1_to_{big}.png", plots.plot_risk_or_safety_table1(big))
sol_big = tbsg.solve(risk_or_safety(big))
v = sol_big.value()
print(f"To {big} points: P(0,0,0) ≈ {float(v):.15f} (exact: a {len(str(v.denominator))}-digit "
      f"denominator; {sol_big.n_states:,} states, {sol_big.seconds:.1f} s)")

# %% [markdown]
# ## 4. The winning chance at the start of a turn
#
# Over the points both players need, for the player to move.

# %%
values = table.pivot(rows=lambda r: n - r.saved, columns=lambda r: n - r.other,
                     cell="value_to_move", where=lambda r: r.open == 0,
                     row_name="points I need (player to move)",
                     col_name="points the opponent needs",
                     name="P(player to move wins), start of turn")
fig, ax = plt.subplots(figsize=(11, 9.5), layout="constrained")
plots.heatmap(values, ax, cmap="RdBu", vmin=0.0, vmax=1.0, fmt=".2f", columns_on_top=True,
              title=f"Risk or Safety to {n}: winning chance at the start of a turn")
out.save("risk_or_safety_values.png", fig)
out.write("risk_or_safety_values.csv", values.to_csv())

# %% [markdown]
# ## 5. How close is the decision after the first heads?
#
# The gain of stopping over tossing on with one open point, against the points needed,
# one curve per opponent's need (above 0: take the single point). The curves cross zero
# where Table 1 changes from 1 coin to more.

# %%
first = state_table(sol_big, where=lambda s: s.mover == 0 and s.open == 1)
needs = [2, 3, 5, 8] if out.fast else [2, 3, 5, 10, 20, 35, 50]
fig, ax = plt.subplots(figsize=(10, 5.5), layout="constrained")
plots.margin_curves(
    first, x=lambda r: big - r.saved, curve=lambda r: big - r.other,
    y=lambda r: r.gain("stop", "toss"), curves=needs, ax=ax, yscale="symlog",
    linthresh=1e-8, label="{}", legend_title="opponent needs", legend_outside=True,
    xlabel="points I need (before the first heads)",
    ylabel="P(stop) − P(toss on), 1 open point",
    title=f"Risk or Safety to {big}: stop after the first heads? (above 0: yes)")
out.save("risk_or_safety_stop_gain.png", fig)

# %% [markdown]
# ## 6. Every state of a small game
#
# The full per-state table for `n = 6` (exact fractions, as CSV), and its closest
# decisions: the smallest margins between the best action and the other one.

# %%
small = state_table(tbsg.solve(risk_or_safety(6)))
out.write("risk_or_safety_6_states.csv", small.to_csv())
close = small.where(lambda r: r.margin is not None and r.player == 0).sorted(lambda r: r.margin)
print(f"{len(small)} states; the closest decisions:")
show(close.head(5))
