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
# # Coinball (The Riddler)
#
# The Riddler, *Coinball* (FiveThirtyEight; seed 001). Two players take turns calling a
# fair coin, 100 tosses in all. The caller says "rush" (1 point) or "pass" (2 points): to
# the caller if the call is right, to the opponent if it is wrong. More points after the
# last toss wins; equal points are a draw (half a win).
#
# This notebook reproduces the source's three answers, the first player's chance against
# an opponent who always rushes, who always passes, and with both optimal (better to go
# second), as exact rationals, and checks the source's verbal summary of the optimal
# strategy in every state. Past the source: the optimal call as a map, the exact ties of
# undecided positions, and every game length from 1 to 200 tosses from one solve.
#
# `TBSG_FAST=1`: 12 tosses instead of 100 (the published decimals are then not compared).

# %%
from fractions import Fraction

import tbsg
from tbsg import plots
from tbsg.games import CoinballState, coinball, coinball_outcomes, coinball_summary_check
from tbsg.outputs.notebook import Output, pyplot, show
from tbsg.outputs.tables import state_table
from tbsg.sources.coinball import BEST_RESPONSES, OPTIMAL  # the source's printed decimals

out, plt = Output(), pyplot()
tosses = 12 if out.fast else 100
game = coinball(tosses)
print(out, f"{tosses} tosses")

# %% [markdown]
# ## 1. The three answers
#
# Against a fixed opponent the first player's chance is a best response
# (`tbsg.best_response`); with both optimal it is the value of the game. Every value is
# an exact rational with a power of 2 as denominator. The source prints 12 decimals.

# %%
sol = tbsg.solve(game)
answers = {
    "always rush": (tbsg.best_response(game, 0, lambda s: "rush").value(), BEST_RESPONSES["rush"]),
    "always pass": (tbsg.best_response(game, 0, lambda s: "pass").value(), BEST_RESPONSES["pass"]),
    "optimal": (sol.value(), OPTIMAL),
}
for what, (v, printed) in answers.items():
    power = v.denominator.bit_length() - 1
    print(f"opponent {what:11}: {float(v):.12f}  (= {v.numerator} / 2**{power})")
    if tosses == 100:
        assert f"{float(v):.12f}" == printed, \
            f"opponent {what}: tbsg computes {float(v):.12f}, the Riddler's solution prints {printed}"
        print(f"{'':22}the Riddler's solution prints {printed}: equal to every digit")

# %% [markdown]
# ## 2. The verbal summary, state by state
#
# The source summarises optimal play in words (pass when losing, rush when winning, a
# rule by turn number when tied); `coinball_summary_check` compares that rule with the
# exact optimal actions in every reachable state.

# %%
check = coinball_summary_check(tosses)
assert check.never_wrong, "the Riddler's verbal summary picks a non-optimal call somewhere"
print(f"verbal summary never wrong in {check.states} states; it is the only optimal call in "
      f"{check.exact}, and misses a tie in {check.missed_tie} ({check.missed_tie_decided} of "
      "them already decided)")

# %% [markdown]
# ## 3. The optimal call in every state
#
# Over the caller's lead and the toss number: the verbal rule, its exact ties and the
# states already decided, at a glance.

# %%
out.save("coinball_strategy.png", plots.plot_coinball(tosses, max_lead=8 if out.fast else 12,
                                                      solution=sol))

# %% [markdown]
# ## 4. Exact ties
#
# Undecided positions (value strictly between 0 and 1) where rush and pass are exactly as
# good: the states with margin 0. A float solver could not tell these from near-ties.

# %%
ties = state_table(sol).where(lambda r: r.margin == 0 and 0 < r.value_to_move < 1)
md = ties.to_markdown(columns=[
    "toss", ("caller's lead", lambda r: r.lead if r.player == 0 else -r.lead),
    ("caller", lambda r: "first" if r.player == 0 else "second"), "value_to_move", "optimal"])
out.write("coinball_ties.md", md + "\n")
print(f"{len(ties)} undecided states where rush and pass are exactly as good")
show(ties.head(8))

# %% [markdown]
# ## 5. Every game length from one solve
#
# A game of `T` tosses is the last `T` tosses of a longer one, started level (lead 0 is
# reachable from toss 2 on), so one solve gives the first caller's chance for every
# length. The first caller is better off exactly when the number of tosses is odd and at
# least 3; with one toss it is a fair coin.

# %%
longest = 20 if out.fast else 200
n = longest + 2
long_game = tbsg.solve(coinball(n))
lengths = list(range(1, longest + 1))
chances = [long_game.value_to_move(CoinballState(n - t, 0)) for t in lengths]
odd_better = all((c > Fraction(1, 2)) == (t % 2 == 1)
                 for t, c in zip(lengths, chances, strict=True) if t > 1)
assert odd_better and chances[0] == Fraction(1, 2)
print(f"first caller better off exactly for odd lengths (2..{longest}); 1 toss: {chances[0]}")

fig, ax = plt.subplots(figsize=(9, 4.8), layout="constrained")
ax.axhline(0.5, color="0.2", linewidth=1.0)
for parity, colour, name in ((1, "#1b9e77", "odd number of tosses"),
                             (0, "#d95f02", "even number of tosses")):
    xs = [t for t in lengths if t % 2 == parity]
    ax.plot(xs, [float(chances[t - 1]) for t in xs], "o-", markersize=3, linewidth=1,
            color=colour, label=name)
optimal = float(answers["optimal"][0])
ax.annotate(f"{tosses} tosses (the source): {optimal:.4f}", (tosses, optimal),
            xytext=(tosses * 0.55, 0.43), arrowprops={"arrowstyle": "->", "color": "0.3"})
ax.set_xlabel("number of tosses in the game")
ax.set_ylabel("P(first caller wins), both optimal")
ax.set_title("Coinball: calling first helps for an odd number of tosses (3 or more), "
             "hurts for an even one")
ax.grid(True, color="0.9")
ax.legend()
out.save("coinball_first_player.png", fig)

# %% [markdown]
# ## 6. How often is it a draw? And how many passes?
#
# Fixing both players' strategies makes the game a Markov chain (`tbsg.chain`), whose
# terminal distribution splits the expectation into win, draw and loss. But Coinball's
# many exact ties matter here: optimal profiles share the expectation, not the split.
# `coinball_outcomes` gives the draw probability of the solution's own strategy and its
# least and greatest value over all optimal profiles (the fastest and slowest play, in
# `Solution.fastest` / `slowest`, with "a draw now" as the count), against an optimal
# opponent and the source's two fixed opponents (the first player best-responding).
# It also counts the "pass" calls: the fewest and most expected among optimal profiles.
# The source reports none of these: they are tbsg's own numbers.

# %%
outcomes = coinball_outcomes(tosses)
for r in outcomes:
    split = tbsg.chain(game, sol if r.opponent == "optimal" else tbsg.best_response(
        game, 0, lambda s, c=r.opponent: c)).outcome_probabilities()
    assert sum(split.values()) == 1 and sum(p * q for p, q in split.items()) == r.value
    print(f"vs {'an optimal opponent' if r.opponent == 'optimal' else 'always ' + r.opponent}: "
          f"expectation {float(r.value):.12f}; P(draw) {float(r.draw):.6f} under the "
          f"solution's strategy, from {float(r.draw_least):.6f} to {float(r.draw_most):.6f} "
          f"over the optimal profiles (win {float(r.win(r.draw_most)):.6f} to "
          f"{float(r.win(r.draw_least)):.6f}); passes {float(r.passes_fewest):.3f} to "
          f"{float(r.passes_most):.3f}")
opt = outcomes[0]
print(f"both optimal, {tosses} tosses: the tie-breaking moves the draw probability by "
      f"{float(opt.draw_most - opt.draw_least):.6f} and the number of passes by "
      f"{float(opt.passes_most - opt.passes_fewest):.3f}")
