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
# # From exact to float to plots
#
# A tour of what to do with a solution, on Pig (Neller and Presser 2004; the catalog's
# `tbsg.games.pig`): the exact answer and what it costs, the float path and its proven
# bounds, then per-state tables, pivots, plots and exports.
#
# `TBSG_FAST=1`: small goals (seconds); the full run goes to goal 50 exactly and 60 in
# floats.

# %%
import time

import tbsg
from tbsg import plots
from tbsg.games import coinball, pig
from tbsg.games.pig import PigState
from tbsg.outputs.notebook import Output, pyplot, show

out, plt = Output(), pyplot()
print(out)

# %% [markdown]
# ## 1. Exact: rationals, every optimal action, a certificate
#
# `tbsg.solve(game)` returns exact values (`fractions.Fraction`) and, in each state, every
# optimal action. A state of Pig is `PigState(mover, score, other, turn_total)`.

# %%
goal = 12 if out.fast else 20
sol = tbsg.solve(pig(goal))
v = sol.value()
print(f"Pig to {goal}: P(first player wins) = {float(v):.12f}, exactly {v}")
s = PigState(0, goal // 2, goal // 2 + 2, 4)     # I am 2 points behind, 4 points in the turn
print(f"at {s}: optimal {sol.optimal_actions(s)}, action values {sol.action_values(s)}")
print(tbsg.verify(pig(goal), sol))

# %% [markdown]
# Only exact arithmetic can say that two actions are *exactly* as good. In Coinball such
# ties are common; a floating-point solver would pick one of them by rounding noise.

# %%
ties = tbsg.state_table(tbsg.solve(coinball(10))).where(lambda r: r.margin == 0)
print(f"Coinball with 10 tosses: {len(ties)} states where both calls are exactly optimal")
show(ties.head(3))

# %% [markdown]
# ## 2. What exactness costs
#
# The denominators grow with the game: for Pig, over a thousand digits by goal 60. The float
# path (`exact=False`) costs about the same at every size and returns *proven* bounds:
# the exact value lies in `bounds(state)`, rounding errors included.

# %%
goals = [5, 10, 15] if out.fast else [10, 20, 30, 40, 50]
rows = []
for goal in goals:
    t = time.perf_counter()
    exact = tbsg.solve(pig(goal))
    t_exact = time.perf_counter() - t
    t = time.perf_counter()
    approx = tbsg.solve(pig(goal), exact=False, tol=1e-12)
    t_float = time.perf_counter() - t
    lo, hi = approx.bounds()
    assert lo <= exact.value() <= hi          # the proven bounds hold
    rows.append((goal, exact.n_states, len(str(exact.value().denominator)), t_exact, t_float,
                 hi - lo))
    print(f"goal {goal:3}: {exact.n_states:7,} states, {rows[-1][2]:5}-digit denominator, "
          f"exact {t_exact:5.2f} s, float {t_float:5.2f} s (proven gap {hi - lo:.1e})")

fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), layout="constrained")
left.plot(goals, [r[3] for r in rows], "o-", label="exact")
left.plot(goals, [r[4] for r in rows], "s-", label="float, proven to 1e-12")
left.set(xlabel="goal", ylabel="seconds", title="Pig: time to solve")
left.legend()
right.semilogy(goals, [r[2] for r in rows], "o-", color="C2")
right.set(xlabel="goal", ylabel="digits", title="digits of the exact value's denominator")
for ax in (left, right):
    ax.grid(True, color="0.9")
out.save("tour_exact_vs_float.png", fig)

# %% [markdown]
# ## 3. The float path on a big game
#
# The float solution's per-state table has the proven `lower` and `upper` bounds, and in
# `optimal` every action the bounds cannot rule out (the greedy one first). The Pig
# notebook goes to the paper's goal of 100, close to a million states.

# %%
big = 25 if out.fast else 60
fsol = tbsg.solve(pig(big), exact=False, tol=1e-12)
lo, hi = fsol.bounds()
print(f"Pig to {big}: {lo:.12f} <= P <= {hi:.12f} ({fsol.n_states:,} states, {fsol.seconds:.1f} s)")
start = tbsg.state_table(fsol, where=lambda s: s.mover == 0 and s.score == s.other == 0)
show(start.where(lambda r: 14 <= r.turn_total <= 24))

# %% [markdown]
# ## 4. Tables and pivots
#
# `tbsg.state_table` has one row per state, keyed by the state's own fields, with the
# value, the value to the player to move, the optimal actions and the `margin` (how much
# the best action beats the next best). `pivot` arranges any of it over two variables:
# here the turn total at which the player to move holds, over both scores, which is the
# paper's Figure 3 read as a table.

# %%
table = tbsg.state_table(fsol, where=lambda s: s.mover == 0 and s.turn_total > 0)
hold_at = table.pivot(rows="score", columns="other",
                      cell=lambda r: r.turn_total if "hold" in r.optimal else big,
                      agg=min, row_name="my score", col_name="opponent's score",
                      name="hold from this turn total")
fig, ax = plt.subplots(figsize=(9, 7.5), layout="constrained")
plots.heatmap(hold_at, ax, origin="lower", annotate=False, cmap="viridis",
              title=f"Pig to {big}: hold once the turn total reaches ... (player to move)")
out.save("tour_hold_at.png", fig)

# %% [markdown]
# `margin_curves` draws one curve per value of a variable: how much better rolling is
# than holding, against the turn total, for a few opponent scores (my score 0).

# %%
fig, ax = plt.subplots(figsize=(9, 4.8), layout="constrained")
others = [0, big // 4, big // 2, 3 * big // 4]
plots.margin_curves(table, x="turn_total", curve="other", curves=others, ax=ax,
                    where=lambda r: r.score == 0,
                    y=lambda r: r.gain("roll", "hold"), label="opponent at {}",
                    xlabel="turn total", ylabel="P(roll) − P(hold)",
                    title=f"Pig to {big}, my score 0: roll or hold? (above 0: roll)")
out.save("tour_margins.png", fig)

# %% [markdown]
# ## 5. Exports
#
# Tables and pivots export to Markdown, LaTeX (booktabs), CSV, HTML and pandas; exact
# values stay exact (`p/q`), with a decimal column beside them.

# %%
small = tbsg.state_table(tbsg.solve(pig(6)), where=lambda s: s.mover == 0 and s.score == 0)
print(small.head(4).to_markdown(columns=["other", "turn_total", "value", "optimal"]))
out.write("tour_pig6.tex", small.to_latex(columns=["other", "turn_total", "value", "optimal"]))
out.write("tour_pig6.csv", small.to_csv())
small.head(4).to_pandas()
