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
# # Parametric games: a biased coin
#
# Every catalog game fixes a probability: a fair coin in Risk or Safety (Jehn 2026), a fair
# die in Pig (Neller and Presser 2004). Here it is a symbol `p`. Under a fixed strategy
# profile the value is a rational function of `p`; the optimal strategy is piecewise
# constant and changes only at real algebraic numbers. `tbsg.solve_parametric` finds every
# region, each breakpoint exactly (minimal polynomial and isolating interval), the value
# formula on each region, and a certificate that `tbsg.verify_parametric` re-checks.
#
# Set `TBSG_FAST=1` for small sizes (the test suite does); figures and tables are written
# beside this notebook, or to the folder `TBSG_OUT` names (`tbsg.outputs.notebook`).

# %%
from fractions import Fraction

import sympy

import tbsg
from tbsg.games import RoSState, biased_pig, biased_risk_or_safety, pig, risk_or_safety
from tbsg.outputs.notebook import Output, pyplot, show
from tbsg.plots import plot_parametric

out, plt = Output(), pyplot()
p = sympy.Symbol("p")
print(out)

# %% [markdown]
# ## 1. Risk or Safety with P(heads) = p
#
# The game for every bias in (0, 1) at once; the certificate is re-checked independently
# (sympy's factoring and root isolation, not the FLINT routines the solver uses).

# %%
target = 3 if out.fast else 4
sol = tbsg.solve_parametric(biased_risk_or_safety(target, p), p)
check = tbsg.verify_parametric(sol)
assert check.ok, check.problems
print(f"{sol}: {len(sol.breakpoints)} breakpoints, certified: {check.ok} ({sol.seconds:.1f} s)")

# %% [markdown]
# At p = 1/2 it is the catalog game: every value and every set of optimal actions agrees
# with the numeric exact solve (which itself reproduces the paper's printed values).

# %%
half = Fraction(1, 2)
fair = tbsg.solve(risk_or_safety(target))
for s in fair.states:
    assert sol.value(s, at=half) == fair.value(s)
    assert set(sol.optimal_actions(s, at=half)) == set(fair.optimal_actions(s))
print(f"p = 1/2: value {sol.value(at=half)} (catalog: {fair.value()}), "
      f"formula {sol.region_at(half).value()}")

# %% [markdown]
# ## 2. The regions
#
# Each row: a region, the first player's value on it, and what changes at its right end.

# %%
table = tbsg.region_table(sol, digits=6)
out.write("parametric_risk_or_safety.md", table + "\n")
out.write("parametric_risk_or_safety.tex", tbsg.region_latex(sol) + "\n")
show(table)

# %% [markdown]
# ## 3. When does banking the first head become right?
#
# At `(1, 0, 0)` (one open point, nothing saved on either side) the first player stops
# exactly for `p` up to a breakpoint; printed here to 30 correct digits.

# %%
first_head = RoSState(0, 1, 0, 0)
for b in sol.breakpoints:
    for state, before, after in b.changes:
        if state == first_head:
            print(f"{before} -> {after} at p = {b.at.decimal(30)}")
            print(f"   {b.at}")

# %% [markdown]
# ## 4. Does the first player's advantage ever disappear?
#
# `v(p) - 1/2` has no real root inside any region (exact root isolation) and is positive at
# each region's sample point: the first player is ahead for every bias.

# %%
from tbsg.parametric.algebraic import real_roots  # noqa: E402

for r in sol.regions:
    n, _ = (r.value() - half).integer_parts()
    assert not real_roots(n, r.lo, r.hi) and r.value(at=r.sample) > half
tiny = Fraction(1, 10**6)
print(f"v(p) > 1/2 on (0, 1); v({tiny}) = {float(sol.value(at=tiny)):.9f}, "
      f"v({1 - tiny}) = {float(sol.value(at=1 - tiny)):.9f}")

# %%
fig = plot_parametric(sol, title=f"Risk or Safety to {target}, P(heads) = p")
out.save("parametric_risk_or_safety.png", fig)

# %% [markdown]
# ## 5. Pig with a loaded die: P(1) = p
#
# The other five faces are equally likely. At p = 1/6 it is the catalog's Pig.

# %%
goal = 4 if out.fast else 6
psol = tbsg.solve_parametric(biased_pig(goal, 6, p), p)
assert tbsg.verify_parametric(psol).ok
sixth = Fraction(1, 6)
fair_pig = tbsg.solve(pig(goal))
assert all(psol.value(s, at=sixth) == fair_pig.value(s) for s in fair_pig.states)
print(f"{psol}; p = 1/6: {psol.value(at=sixth)} = catalog Pig to {goal}")
for b in psol.breakpoints:
    print(f"p = {b.at.decimal(9)}: {len(b.changes)} state(s) change, e.g. {b.changes[0]}")
out.save("parametric_pig.png", plot_parametric(psol, title=f"Pig to {goal}, P(1) = p"))
