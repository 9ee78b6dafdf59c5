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
# # Super Six (Jehn 2021)
#
# R. Jehn, *Optimum Strategies for the Game Super Six* (arXiv 2109.10700, 2021; seed 002).
# A die, sticks, and a lid with holes 1 to 5 (a stick placed there stays) and hole 6 (the
# stick falls through, out of play). The player to move rolls: if the hole of the number
# rolled is free, they place a stick in it and may stop or roll again; if it is occupied,
# they take that stick into their hand and the turn passes. Whoever has no stick left in
# hand wins.
#
# This notebook reproduces the optimal strategy strings `S_7` to `S_15` (sections 6 to 8;
# the printed `S_13` and `S_15` have one zero too many in their last group, a known
# discrepancy declared in `tbsg.sources.super_six`) and Figure 5: with 3 sticks on the
# lid, the gain of continuing over stopping, up to 15 sticks (the paper's limit: 24 hours
# of computing, out of memory at 16). Past the paper: Figure 5 to 30 sticks, and the
# decision with 3 on the lid as a map.
#
# `TBSG_FAST=1`: up to 9 sticks (Figure 5) and 10 (the map).

# %%
import tbsg
from tbsg import plots
from tbsg.games import super_six_strategy
from tbsg.games.super_six import SuperSix
from tbsg.outputs.notebook import Output, pyplot
from tbsg.outputs.tables import state_table
from tbsg.sources.super_six import KNOWN_DISCREPANCIES, STRATEGIES  # as printed, and the slips

out, plt = Output(), pyplot()
top = 9 if out.fast else 15
print(out)

# %% [markdown]
# ## 1. The optimal strategy strings
#
# One digit per decision situation (1: continue, 0: stop), in groups by sticks on the
# lid. A string that differs from the printed one must be a declared known discrepancy
# *and* equal the value declared for it, so a change in tbsg's answer still fails here.

# %%
declared = {d.quantity: d for d in KNOWN_DISCREPANCIES}
for total in range(7, top + 1):
    where, printed = STRATEGIES[total]
    computed = super_six_strategy(total)
    known = declared.get(f"optimal strategy S_{total}")
    if known is None:
        assert computed == printed, f"S_{total}: tbsg computes {computed}, Jehn 2021 {where} " \
                                    f"prints {printed}"
        print(f"S_{total} = {computed}  (Jehn 2021, {where}: as printed)")
    else:
        assert computed != printed and computed == known.value, f"S_{total}: {computed}"
        print(f"S_{total} = {computed}  (Jehn 2021, {where}, prints {printed}: known "
              f"discrepancy, {known.reason})")

# %% [markdown]
# ## 2. Figure 5, and past it
#
# With 3 sticks on the lid: the gain of continuing over stopping against the mover's
# sticks `k`, one curve per opponent's sticks `l`; then the same to 30 sticks.

# %%
out.save("super_six_figure5.png", plots.plot_super_six_figure5(top))
big = 10 if out.fast else 30
out.save(f"super_six_figure5_to_{big}.png",
         plots.plot_super_six_figure5(big, others=range(1, 9), zoom=True))

# %% [markdown]
# ## 3. The decision with 3 on the lid, as a map
#
# Over `(k, l)`, from one solve of the game with `big` sticks (every smaller game is part
# of it): from 20 sticks on, stop unless one player holds a single stick.

# %%
sol = tbsg.solve(SuperSix(big - 1, 1))
lid3 = state_table(sol, where=lambda s: s.mover == 0 and s.decision and s.lid == 3)
decision = lid3.pivot("other", "hand", lambda r: "continue" if r.gain("roll", "stop") >= 0
                      else "stop", row_name="l: opponent's sticks",
                      col_name="k: sticks of the player to move",
                      name="best action, 3 sticks on the lid")
fig, ax = plt.subplots(figsize=(10, 8.5), layout="constrained")
plots.heatmap(decision, ax, origin="lower", annotate=False,
              colors={"continue": "#1b9e77", "stop": "#d95f02"},
              title=f"Super Six, 3 sticks on the lid: continue or stop (up to {big} sticks; "
                    "diagonals: k + l + 3 sticks)")
out.save("super_six_lid3_decisions.png", fig)
stops = sorted({r.hand + r.other + 3 for r in lid3 if r.gain("roll", "stop") < 0})
print(f"{sol.n_states:,} states, {sol.seconds:.2f} s; with 3 on the lid, stopping is optimal "
      f"somewhere for totals {stops}")
