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
# # The Race (Project Euler 232)
#
# Project Euler problem 232, *The Race* (seed 003). Player 1 tosses a coin once per turn
# (heads: 1 point); player 2 chooses `T` and tosses `T` times, scoring `2**(T-1)` points
# if all are heads. Player 1 moves first; the first to 100 points wins. The published
# answer is P(player 2 wins) to 8 decimals.
#
# This notebook reproduces it as an exact rational (a 480-digit denominator) and from the
# float solver's proven bounds, and goes past the problem: player 2's optimal `T` and
# winning chance in every position, her chance for every goal from 1 to 100 from one
# exact solve, and how close her choices are.
#
# `TBSG_FAST=1`: a race to 10 (the published decimals are then not compared).

# %%
import tbsg
from tbsg import plots
from tbsg.games import RaceState, the_race
from tbsg.games.the_race import PLAYER_1, PLAYER_2, the_race_length
from tbsg.outputs.notebook import Output, pyplot, show
from tbsg.outputs.tables import state_table
from tbsg.sources.the_race import ANSWER  # the published answer, as printed

out, plt = Output(), pyplot()
goal = 10 if out.fast else 100
game = the_race(goal)
print(out, f"goal {goal}")

# %% [markdown]
# ## 1. The answer, exact and certified in floats
#
# Project Euler's player 2 is tbsg's player 0, so `sol.value()` is P(player 2 wins).

# %%
sol = tbsg.solve(game)
v = sol.value()
print(f"The Race to {goal}: P(player 2 wins) = {float(v):.8f} (exact: a "
      f"{len(str(v.denominator))}-digit denominator; {sol.n_states:,} states, {sol.seconds:.1f} s)")
if goal == 100:
    assert f"{float(v):.8f}" == ANSWER, f"tbsg computes {float(v):.8f}, Project Euler 232's " \
                                        f"answer is {ANSWER}"
    print(f"Project Euler 232's answer {ANSWER}: equal to every digit")
lo, hi = tbsg.solve(game, exact=False, tol=1e-12).bounds()
assert lo <= v <= hi
print(f"float solver: {lo:.15f} <= P <= {hi:.15f}, which contains the exact value")

# %% [markdown]
# ## 2. Player 2's optimal `T` and her winning chance, everywhere

# %%
out.save("the_race_strategy.png", plots.plot_the_race(goal, solution=sol))

# %% [markdown]
# ## 3. Every goal from one solve
#
# A race to `g` is the end of the race to `goal` from scores `goal - g` each, with
# player 1 to move.

# %%
goals = list(range(1, goal + 1))
by_goal = [sol.value(RaceState(PLAYER_1, goal - g, goal - g)) for g in goals]
assert by_goal[-1] == v
fig, ax = plt.subplots(figsize=(8.5, 4.8), layout="constrained")
ax.plot(goals, [float(x) for x in by_goal], "o-", markersize=3, linewidth=1)
ax.axhline(0.5, color="0.2", linewidth=1.0)
ax.set_xlabel("goal (points to reach)")
ax.set_ylabel("P(player 2 wins), player 1 starts")
ax.set_title("The Race: player 2's winning chance by goal (exact, both from 0 points)")
ax.grid(True, color="0.9")
ax.annotate(f"goal {goal}: {float(v):.8f}", (goal, float(v)), xytext=(goal * 0.62, 0.7),
            arrowprops={"arrowstyle": "->", "color": "0.3"})
out.save("the_race_by_goal.png", fig)
worst = min(zip(by_goal, goals, strict=True))
print(f"player 2's chance is lowest for goal {worst[1]}: {float(worst[0]):.6f}")

# %% [markdown]
# ## 4. How close are player 2's choices?
#
# The margin of her best `T` over the next best, over both scores (log scale), and the
# closest choices where the game is still open.

# %%
table = state_table(sol, where=lambda s: s.mover == PLAYER_2)
margins = table.pivot("score2", "score1", lambda r: r.margin, name="margin",
                      row_name="player 2's score", col_name="player 1's score")
fig, ax = plt.subplots(figsize=(8.5, 7), layout="constrained")
plots.heatmap(margins.map(float), ax, origin="lower", annotate=False, cmap="magma_r",
              max_ticks=12, log=True, vmin=1e-12,
              title=f"The Race to {goal}: best T minus next best T, player 2 to move (log scale)")
out.save("the_race_margin.png", fig)
close = table.where(lambda r: r.margin is not None and 0.05 < r.value < 0.95).sorted(
    lambda r: r.margin)
show(close.head(8))

# %% [markdown]
# ## 5. How long does the race last?
#
# Player 1 goes first and the players alternate, so a *round* is player 1's turn and
# player 2's that follows (the round in which player 1 reaches the goal ends after his
# turn). With player 2 playing optimally the game is a Markov chain (`tbsg.chain`);
# `the_race_length` gives the expected rounds, turns and coin tosses, exactly. Project
# Euler asks only for the winning chance: these are tbsg's own numbers.

# %%
race = the_race_length(goal)
assert race.player2_wins == v
# every round has two turns, except a last one that player 1 wins
assert race.turns == 2 * race.rounds - (1 - race.player2_wins)
assert race.rounds_fastest == race.rounds == race.rounds_slowest  # no tie changes the length
print(f"The Race to {goal}: {float(race.rounds):.6f} rounds ({float(race.rounds / goal):.4f} per "
      f"point of the goal), {float(race.turns):.6f} turns, {float(race.tosses):.6f} coin tosses "
      f"(exact: a {len(str(race.rounds.denominator))}-digit denominator)")
