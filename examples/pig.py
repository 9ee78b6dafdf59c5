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
# # Pig and Piglet (Neller and Presser 2004)
#
# T. Neller and C. Presser, *Optimal Play of the Dice Game Pig* (The UMAP Journal 25(1),
# 2004, pp. 25-47). The player to move rolls a die as often as they like, adding the
# faces to a turn total, and may hold (bank the turn total and pass the die) at any time;
# a 1 loses the turn total and passes the die. The first to 100 wins. Piglet is the same
# game with a coin (tails loses the turn total, heads adds 1).
#
# This notebook reproduces the paper's exact Piglet-to-2 values (p. 30), its headline
# number, the first player's chance in Pig to 100 under optimal play (53.06%, p. 34),
# from the float solver's *proven* bounds, and its roll/hold boundary (Figures 3 and 4).
# Past the paper: the exact value of Pig to 30 inside the float bounds, and Piglet, which
# is Risk or Safety under another name.
#
# `TBSG_FAST=1`: Pig to 20 instead of 100 (the 53.06% is then not compared).

# %%
from fractions import Fraction

import tbsg
from tbsg import plots
from tbsg.games import pig, piglet, risk_or_safety
from tbsg.games.pig import PigState, pig_hold_at, pig_hold_boundary, pig_turns
from tbsg.outputs.notebook import Output, pyplot
from tbsg.sources.pig import OPTIMAL, PIGLET_2  # as printed: p. 34 and p. 30

out = Output()
goal = 20 if out.fast else 100
print(out, f"goal {goal}")

# %% [markdown]
# ## 1. Piglet to 2, exactly (p. 30)
#
# The paper solves Piglet to 2 by hand: six exact probabilities `P(i, j, k)` (score,
# opponent's score, turn total; the player to move).

# %%
game2 = piglet(2)
sol2 = tbsg.solve(game2)
for (i, j, k), printed in PIGLET_2.items():
    v = sol2.value_to_move(game2.position(i, j, k))
    assert v == Fraction(printed), f"P({i},{j},{k}): tbsg computes {v}, Neller and Presser " \
                                   f"2004 (p. 30) print {printed}"
    print(f"P({i},{j},{k}) = {v}  (p. 30: {printed}, equal)")

# %% [markdown]
# ## 2. Pig to 100: 53.06% from proven bounds (p. 34)
#
# Close to a million reachable states, and an exact first-player value with tens of
# thousands of digits: the float path is the right tool: its bounds are proven, rounding included, and both
# must round to the printed 53.06%.

# %%
approx = tbsg.solve(pig(goal), exact=False, tol=1e-12)
lo, hi = approx.bounds()
print(f"Pig to {goal}: the first player wins with probability in [{lo:.12f}, {hi:.12f}] "
      f"({approx.n_states:,} states, {approx.seconds:.1f} s)")
if goal == 100:
    assert f"{lo:.4f}" == OPTIMAL == f"{hi:.4f}", \
        f"[{lo}, {hi}] does not round to Neller and Presser 2004's {OPTIMAL} (p. 34)"
    print(f"both bounds round to the paper's {OPTIMAL} (p. 34)")
boundary = pig_hold_boundary(approx)
print(f"at 0-0, hold from a turn total of {boundary[0, 0]}")

# %% [markdown]
# ## 3. The roll/hold boundary (Figures 3 and 4)
#
# For each pair of scores, the turn total from which the player to move holds.

# %%
pyplot()
out.save(f"pig_hold_boundary_{goal}.png", plots.plot_pig_hold_boundary(goal, solution=approx))

# %% [markdown]
# ## 4. Exact and float agree
#
# Pig to 30 exactly (a rational with a long denominator), and the float bounds contain it.

# %%
small = 10 if out.fast else 30
exact = tbsg.solve(pig(small))
flo, fhi = tbsg.solve(pig(small), exact=False).bounds()
v = exact.value()
assert flo <= v <= fhi
print(f"Pig to {small}: exact value ≈ {float(v):.15f} ({len(str(v.denominator))}-digit "
      f"denominator), inside the float bounds [{flo:.15f}, {fhi:.15f}]")

# %% [markdown]
# ## 5. Piglet is Risk or Safety
#
# Piglet (Pig with a coin) and Jehn's Risk or Safety are the same game under a renaming:
# the exact values agree.

# %%
for n in range(1, 5 if out.fast else 9):
    a, b = tbsg.solve(piglet(n)).value(), tbsg.solve(risk_or_safety(n)).value()
    assert a == b
    print(f"Piglet to {n} = Risk or Safety to {n} = {a}")

# %% [markdown]
# ## 6. How many turns does a game last?
#
# Under optimal play and when both players "hold at 20", the expected number of turns
# (both players'; a turn starts at turn total 0). For Pig to 100 the profile is the
# float solution's strategy of section 2 (its greedy action against the midpoint
# values), and the chain's expected number of turns comes with proven float bounds
# (`expected_steps(..., exact=False)`). That strategy is the optimal one wherever play
# goes if the proven bounds leave one action at every state it reaches, which is
# checked. Exactly for a smaller goal (`pig_turns`). The paper prints no game length:
# these are tbsg's own numbers.

# %%
def turns(s: PigState, a: str) -> int:
    """1 at the start of a turn (turn total 0)."""
    return 1 if s.turn_total == 0 else 0


play = tbsg.chain(pig(goal), approx)
uncertain = sum(1 for s in play.states if not approx.optimal_actions_certain(s))
assert uncertain == 0, f"{uncertain} reached states where the float choice is not certain"
lo, hi = play.expected_steps(turns, exact=False)
hlo, hhi = tbsg.chain(pig(goal), pig_hold_at(20)).expected_steps(turns, exact=False)
print(f"Pig to {goal}, {play.n_states:,} states reached, every choice certainly optimal: "
      f"optimal play lasts {lo:.9f} to {hi:.9f} turns; hold at 20: {hlo:.9f} to {hhi:.9f}")

exact_goal = 20 if out.fast else 40
t = pig_turns(exact_goal)
assert t.optimal_fastest == t.optimal == t.optimal_slowest
print(f"Pig to {exact_goal}, exactly: optimal {float(t.optimal):.9f} turns "
      f"({len(str(t.optimal.denominator))}-digit denominator), hold at 20 {float(t.hold):.9f}")
