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
# # Pig for points and Pig solitaire: expected scores and turns, exactly
#
# Two one-player games cut from Pig (Neller and Presser, *Optimal Play of the Dice Game
# Pig*, The UMAP Journal 25(1), 2004): **one turn played for points** (roll a die, a 1
# loses the turn total, hold to bank it; maximise the expected score) and **Pig
# solitaire** (reach 100 in the fewest expected turns, a reward of 1 per turn that the
# one player, player 1, minimises). Their answers are expected scores and turns, not
# win probabilities.
#
# Reproduced: the distribution of a "hold at 20" turn printed by Neller's Nifty
# Assignment (SIGCSE 2010), Knizia's "continue throwing below 20" as the paper quotes it,
# and the simulated averages of "hold at 20 or goal" (Nifty: 12.634906 over 10^6 games;
# Ruskeepää's Wolfram Demonstration: 12.749 over 1000 games, best threshold 20). Past
# the sources: the exact optimum of Pig solitaire and where it holds.
#
# `TBSG_FAST=1`: Pig solitaire to 40 instead of 100.

# %%
from fractions import Fraction

import tbsg
from tbsg.games import hold_at, pig_solitaire, pig_solitaire_boundary, pig_turn, pig_turn_table
from tbsg.games.pig_turn import TurnState, pig_turn_outcomes
from tbsg.outputs.notebook import Output, pyplot
from tbsg.sources.pig_solitaire import AVERAGE_TURNS, GAMES
from tbsg.sources.pig_turn import OUTCOMES  # as printed on the Nifty page

out = Output()
goal = 40 if out.fast else 100
print(out, f"goal {goal}")

# %% [markdown]
# ## 1. One turn: the Nifty page's distribution, exactly
#
# Under "hold at 20" a turn ends with 0 or with 20 to 25 points. The page prints the
# probabilities to 6 decimals; tbsg computes them as fractions (the chain of the rule).

# %%
dist = pig_turn_outcomes(20)
for score, printed in OUTCOMES.items():
    p = dist[score]
    assert f"{float(p):.6f}" == printed, f"P({score}) = {p}; the Nifty page prints {printed}"
    print(f"P(score {score:2d}) = {p!s:>20} ≈ {float(p):.6f}  (printed: {printed})")

# %% [markdown]
# ## 2. The best holding value, and Knizia's rule
#
# The value of the turn is its optimal expected score; rolling is optimal exactly below
# 20, and at 20 rolling and holding tie (Knizia's fair bet), so "hold at 20" and "hold at
# 21" both reach it.

# %%
sol = tbsg.solve(pig_turn(6, 40))
assert sol.action_values(TurnState(20)) == {"roll": 20, "hold": 20}
rows = pig_turn_table(range(1, 41))
best = [r.hold for r in rows if r.optimal]
assert best == [20, 21]
print(f"optimal expected score {sol.value()} ≈ {float(sol.value()):.6f}; best holds {best}")

plt = pyplot()
fig, ax = plt.subplots(figsize=(6, 3.5), layout="constrained")
ax.plot([r.hold for r in rows], [float(r.expected) for r in rows], marker=".")
ax.axhline(float(sol.value()), color="grey", linestyle=":", label="optimal (exact)")
ax.set_xlabel('holding value h ("hold at h")')
ax.set_ylabel("expected score of one turn")
ax.set_title("One turn of Pig: expected score by holding value")
ax.legend()
out.save("pig_turn_by_hold.png", fig)

# %% [markdown]
# ## 3. Pig solitaire: the simulated average against the exact expectation
#
# "Hold at 20 or goal": the exact mean and variance of the number of turns, and the
# printed sample mean within three standard errors (goal 100 only).

# %%
game = pig_solitaire(goal)
rule = tbsg.chain(game, hold_at(20))
mean = rule.expected_reward(game.reward)
var = rule.variance_of_steps(game.reward)
print(f"to {goal}: hold at 20 or goal takes {float(mean):.9f} turns on average (sd {float(var) ** 0.5:.4f})")
if goal == 100:
    z = abs(float(Fraction(AVERAGE_TURNS) - mean)) / (float(var) / GAMES) ** 0.5
    assert z <= 3, f"the Nifty page's {AVERAGE_TURNS} is {z:.2f} standard errors from {float(mean)}"
    print(f"the Nifty page's {AVERAGE_TURNS} is {z:.2f} standard errors away")

# %% [markdown]
# ## 4. Fewest expected turns, exactly, and where optimal play holds
#
# The one player minimises the expected number of turns: tbsg solves it exactly (a
# strongly connected component per score) and certifies it.

# %%
opt = tbsg.solve(game)
tbsg.verify(game, opt)
assert opt.value() <= mean
print(f"to {goal}: fewest expected turns {float(opt.value()):.12f} "
      f"({len(str(opt.value().denominator))}-digit denominator), {opt.n_states:,} states")
boundary = pig_solitaire_boundary(opt)
scores = sorted(boundary)

fig, ax = plt.subplots(figsize=(6, 3.5), layout="constrained")
ax.step(scores, [boundary[i] for i in scores], where="post", label="optimal: first hold")
ax.plot(scores, [min(20, goal - i) for i in scores], color="grey", linestyle=":",
        label="hold at 20 or goal")
ax.set_xlabel("score")
ax.set_ylabel("turn total at which to hold")
ax.set_title(f"Pig solitaire to {goal}: fewest expected turns")
ax.legend()
out.save(f"pig_solitaire_boundary_{goal}.png", fig)
