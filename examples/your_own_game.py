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
# # Your own game in 15 lines
#
# A game for tbsg is any object with four members: `initial` (the first state),
# `player(state)` (0 or 1: who chooses there), `actions(state)` and `outcomes(state,
# action)`, a list of `(probability, next)` pairs where `next` is a state or a terminal
# such as `tbsg.win(0)`. States are any hashable values; probabilities are exact
# (`Fraction` or `int`).
#
# Here is **Hog**: on each turn the player to move chooses how many dice to roll, 1 to 4,
# and scores their sum, or a single point if any die shows a 1. The first to reach the
# goal wins. More dice score more on average but "pig out" more often: how many should
# you roll, and does it depend on the scores?
#
# Copy this notebook anywhere and change it: it needs only tbsg (`Output` comes from
# `tbsg.outputs.notebook`) and writes its figures beside itself (`TBSG_OUT=DIR`
# elsewhere; `TBSG_FAST=1` for small sizes).

# %%
import os
import tempfile
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

import tbsg
from tbsg import plots
from tbsg.outputs.notebook import Output, pyplot, show

out, plt = Output(), pyplot()
goal = 20 if out.fast else 50
print(out, f"goal {goal}")


# %% [markdown]
# ## The game
#
# `roll(dice)` is the distribution of the points a roll scores; the game itself is the
# 15 lines of `Hog`. A state is `(player to move, their score, the opponent's score)`.

# %%
@cache
def roll(dice: int) -> tuple[tuple[Fraction, int], ...]:
    """(probability, points) of rolling ``dice`` dice: their sum, or 1 if any shows a 1."""
    points = Counter(1 if 1 in faces else sum(faces) for faces in product(range(1, 7), repeat=dice))
    return tuple((Fraction(n, 6**dice), p) for p, n in sorted(points.items()))


class Hog:
    """Roll 1 to 4 dice: score their sum, or 1 point if any shows a 1; first to ``goal`` wins."""

    def __init__(self, goal: int) -> None:
        self.goal = goal
        self.initial = (0, 0, 0)                # (player to move, my score, the opponent's)

    def player(self, s): return s[0]

    def actions(self, s): return (1, 2, 3, 4)   # how many dice to roll

    def outcomes(self, s, dice):
        mover, mine, theirs = s
        return [(p, tbsg.win(mover) if mine + points >= self.goal else (1 - mover, theirs, mine + points))
                for p, points in roll(dice)]


# %% [markdown]
# ## Solve it, exactly
#
# `tbsg.solve` enumerates the reachable states, solves them exactly and returns a
# `Solution`: the value (the probability that player 0 wins, as a `Fraction`), every
# optimal action, and a certificate that `tbsg.verify` re-checks from scratch.

# %%
game = Hog(goal)
sol = tbsg.solve(game)
v = sol.value()
print(f"Hog to {goal}: the first player wins with probability {float(v):.6f} "
      f"(exactly a fraction with a {len(str(v.denominator))}-digit denominator)")
print(f"optimal number of dice at the start: {sol.optimal_actions()}")
print(tbsg.verify(game, sol))

# %% [markdown]
# ## The strategy at a glance
#
# `tbsg.state_table` lists every state with its value and optimal actions, keyed by the
# state's fields (here a plain tuple, so by position: `0`, `1`, `2`); a pivot arranges
# the optimal number of dice over both scores, and `plots.heatmap` draws it.

# %%
table = tbsg.state_table(sol, where=lambda s: s[0] == 0)
dice = table.pivot(rows=lambda r: r.state[1], columns=lambda r: r.state[2],
                   cell=lambda r: r.action, row_name="my score", col_name="opponent's score",
                   name="optimal number of dice")
fig, ax = plt.subplots(figsize=(9, 7.5), layout="constrained")
plots.heatmap(dice, ax, origin="lower", annotate=False, cmap="viridis",
              title=f"Hog to {goal}: how many dice to roll (player to move)")
out.save("hog_strategy.png", fig)

# %% [markdown]
# ## How much does it matter?
#
# Against an opponent who always rolls 2 dice, the first player's best response
# (`tbsg.best_response`) wins more than the game's value: the value assumes the
# opponent plays optimally too.

# %%
exploit = tbsg.best_response(game, 0, lambda s: 2).value()
assert exploit >= v
print(f"against 'always 2 dice': {float(exploit):.6f}; against optimal play: {float(v):.6f}")

# %% [markdown]
# ## Duplicate outcomes are merged
#
# `outcomes` may list one successor several times: tbsg adds their probabilities. Listing
# every combination of faces (6, 36, 216, 1296 outcomes per roll, most of them
# repeats) gives the same game, only slower to enumerate (see the guide, "Duplicate
# outcomes").

# %%
class NaiveHog(Hog):
    def outcomes(self, s, dice):
        mover, mine, theirs = s
        p = Fraction(1, 6**dice)
        result = []
        for faces in product(range(1, 7), repeat=dice):
            points = 1 if 1 in faces else sum(faces)
            result.append((p, tbsg.win(mover) if mine + points >= self.goal
                           else (1 - mover, theirs, mine + points)))
        return result


small = 6 if out.fast else 12
assert tbsg.solve(NaiveHog(small)).value() == tbsg.solve(Hog(small)).value()
print(f"Hog to {small}: the same exact value with and without the repeats")

# %% [markdown]
# ## Mistakes are reported, not solved
#
# A float probability is a `TypeError` that names the state and action and says how to
# write it exactly.

# %%
class FloatHog(Hog):
    def outcomes(self, s, dice):
        return [(float(p), nxt) for p, nxt in super().outcomes(s, dice)]


try:
    tbsg.solve(FloatHog(goal))
except tbsg.ExactnessError as exc:
    print(f"{type(exc).__name__}: {exc}")

# %% [markdown]
# ## Bigger games: the float path
#
# Exact values grow long (above: hundreds of digits). `exact=False` solves in floating
# point and returns *proven* bounds: the exact value lies between them, rounding errors
# included.

# %%
big = 30 if out.fast else 100
fsol = tbsg.solve(Hog(big), exact=False, tol=1e-12)
lo, hi = fsol.bounds()
print(f"Hog to {big}: {lo:.12f} <= P(first player wins) <= {hi:.12f} "
      f"({fsol.n_states:,} states, {fsol.seconds:.1f} s)")
show(tbsg.state_table(fsol, where=lambda s: s[0] == 0 and s[1] == s[2] == 0))

# %% [markdown]
# ## Keep the solution
#
# `tbsg.save` writes the exact solution as JSON (values as `p/q`); `tbsg.load` rebuilds
# the game (pass it for your own games), checks every row and re-verifies the
# certificate.

# %%
path = os.path.join(tempfile.mkdtemp(), "hog.json")
tbsg.save(sol, path)
again = tbsg.load(path, game=game)
assert again.value() == v
print(f"saved and re-verified: {path} ({os.path.getsize(path):,} bytes)")
