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
# decision after the first heads is, and how long a game lasts (expected tosses and turns
# to 50 points).
#
# Set `TBSG_FAST=1` for small sizes (seconds; the test suite does); figures and tables
# are written beside this notebook, or to the folder `TBSG_OUT` names
# (`tbsg.outputs.notebook`).

# %%
import itertools
import time
from fractions import Fraction

import numpy as np

import tbsg
from tbsg import plots
from tbsg.games import RoSState, risk_or_safety, risk_or_safety_coin_table, risk_or_safety_lengths
from tbsg.outputs.notebook import Output, pyplot, show
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

# %% [markdown]
# ## 7. How long does a game last?
#
# Past the paper, which reports no game length: under optimal play, the expected number
# of coin tosses ("stop" is not a toss) and of turns (a turn starts with no open points),
# the variance of the number of tosses, the fewest and most expected tosses among all
# optimal strategies, and the first player's chance, for every target up to 50 (12 in the
# fast mode), exactly (`risk_or_safety_lengths`: one solve, then the Markov chain of the
# optimal profile for each target).

# %%
longest = 12 if out.fast else 50
t0 = time.process_time()
lengths = risk_or_safety_lengths(longest)
cpu = time.process_time() - t0
last = lengths[-1]
print(f"targets 1..{longest}: {cpu:.1f} s CPU; at {longest} the expected tosses are a fraction "
      f"of {len(str(last.tosses.numerator))}/{len(str(last.tosses.denominator))} digits, "
      f"the variance has a {len(str(last.toss_variance.denominator))}-digit denominator")
assert all(r.turns <= r.tosses and r.fastest_tosses == r.tosses == r.slowest_tosses
           for r in lengths)
print("no exact tie changes the length: the fastest and slowest optimal play coincide "
      "(Jehn 2026 proves the optimal strategy unique)")
rows_md = ["| target | E tosses | E turns | sd tosses | tosses / target | P(first wins) |",
           "|---:|---:|---:|---:|---:|---:|"]
for r in lengths:
    rows_md.append(f"| {r.target} | {float(r.tosses):.4f} | {float(r.turns):.4f} | "
                   f"{float(r.toss_variance) ** 0.5:.4f} | {float(r.tosses_per_point):.4f} | "
                   f"{float(r.first_player_wins):.6f} |")
out.write("risk_or_safety_lengths.md", "\n".join(rows_md) + "\n")
out.write("risk_or_safety_lengths.csv", "target,tosses,turns,toss_variance,first_player_wins\n" + "".join(
    f"{r.target},{r.tosses},{r.turns},{r.toss_variance},{r.first_player_wins}\n" for r in lengths))
for r in lengths[:3] + lengths[-1:]:
    print(f"target {r.target}: {r.tosses} ≈ {float(r.tosses):.4f} tosses, "
          f"{float(r.turns):.4f} turns, sd {float(r.toss_variance) ** 0.5:.4f}")

# %% [markdown]
# How does the length grow with the target? The ratio tosses / target, the successive
# differences, and a least-squares fit of `log E[tosses] = a + k log(target)` over the
# upper half of the targets (the finding is the computed `k`, printed below).

# %%
half = [r for r in lengths if r.target >= max(longest // 2, 2)]
k, _ = np.polyfit(np.log([r.target for r in half]), np.log([float(r.tosses) for r in half]), 1)
steps = [float(b.tosses - a.tosses) for a, b in itertools.pairwise(lengths)]
print(f"tosses / target at {longest}: {float(last.tosses_per_point):.4f}; "
      f"turns / target: {float(last.turns / last.target):.4f}; "
      f"tosses per turn: {float(last.tosses_per_turn):.4f}")
print(f"E[tosses(n+1)] - E[tosses(n)] over the last five targets: "
      f"{', '.join(f'{d:.4f}' for d in steps[-5:])}")
print(f"fitted exponent over targets {half[0].target}..{longest}: k = {k:.4f} "
      f"({'linear growth' if abs(k - 1) < 0.1 else 'not linear'})")
out.save("risk_or_safety_lengths.png", plots.plot_risk_or_safety_lengths(rows=lengths))
