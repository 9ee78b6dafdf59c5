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
# # Unspeakable Words (Win-Vector)
#
# J. Mount, *Unspeakable bets: take small steps* (Win-Vector blog; seed 004): the end game
# of Unspeakable Words as a betting race. Players a and b hold `a` and `b` points; the
# player to move bets 1 to `min(points, die)` and rolls: a roll at most the bet busts
# (the opponent wins), otherwise the bet comes off the player's points. The first to
# zero wins.
#
# This notebook reproduces the post's two d6 tables (the optimal bet `aMove` and a's
# chance `aValue`, `0 <= a, b <= 6`, a to move) with the exact rationals behind them, and
# goes past the post: the real game's d20, the post's variant bust rule (bust only when
# the roll is *below* the bet) where exact ties between bets are common, and how much the
# best bet beats the next best one.
#
# `TBSG_FAST=1`: a d6 where the full run uses the d20.

# %%
from fractions import Fraction

import tbsg
from tbsg import plots
from tbsg.games import UWState, unspeakable_words_tables
from tbsg.games.unspeakable_words import UnspeakableWords
from tbsg.outputs.notebook import Output, pyplot, show
from tbsg.outputs.pivot import Pivot
from tbsg.outputs.tables import state_table
from tbsg.sources.unspeakable_words import checks  # the post's printed tables, compared

out, plt = Output(), pyplot()
die = 6 if out.fast else 20
print(out)

# %% [markdown]
# ## 1. The post's d6 tables
#
# `unspeakable_words_tables(6)` gives both tables as exact data (the smallest optimal bet,
# as the post's code keeps); `tbsg.sources.unspeakable_words.checks()` compares them with
# the printed tables, every move and every value to the 3 printed decimals.

# %%
moves, values = unspeakable_words_tables(6)
kw = {"row_name": "a", "col_name": "b"}
for check in checks():
    assert check.match, f"{check.quantity}: differs from the post ({check.source})"
    print(f"{check.quantity}: as printed in the post")
print(f"aValue[6, 6] = {values[6, 6]} exactly")
show(Pivot.from_dict(moves, name="aMove (d6; a to move; smallest optimal bet)", **kw))

# %%
show(Pivot.from_dict({k: f"{float(v):.3f}" for k, v in values.items()},
                     name="aValue (d6; P(a wins)), 3 decimals as printed", **kw))
exact = Pivot.from_dict(values, name="aValue", **kw)
out.write("unspeakable_words_d6_values.csv", exact.to_csv())
out.write("unspeakable_words_d6_values.tex", exact.to_latex(
    fractions="frac", caption="Unspeakable Words end game, d6: P(a wins), a to move") + "\n")
out.save("unspeakable_words_d6.png", plots.plot_unspeakable_words(6))

# %% [markdown]
# ## 2. The real game's d20
#
# Where big bets pay, and the diagonal `a = b`: is moving first an advantage?

# %%
out.save(f"unspeakable_words_d{die}.png", plots.plot_unspeakable_words(die, die))
_, v20 = unspeakable_words_tables(die, die)
diagonal = [(a, v20[a, a]) for a in range(1, die + 1)]
below = [a for a, v in diagonal if v < Fraction(1, 2)]
half = [a for a, v in diagonal if v == Fraction(1, 2)]
print(f"d{die}, a = b: exactly 1/2 at {half}; moving first is a disadvantage at {below}")


# %% [markdown]
# ## 3. The variant rule: every optimal bet
#
# Under "bust only if the roll is below the bet", exact ties between bets are common; the
# post's code keeps the smallest. To list every optimal bet in every position, one game
# starts with a chance move to each position `(a, b)`, so that one solve covers the grid.

# %%
class EveryPosition:
    """Every position ``(a, b)``, ``1 <= a, b <= n`` with a to move, behind one chance move
    from ``UWState(0, 0, 0)``."""

    def __init__(self, n: int, die: int, bust: str = "at_most") -> None:
        self.n, self.game = n, UnspeakableWords(1, 1, die, bust)  # type: ignore[arg-type]
        self.initial = UWState(0, 0, 0)

    def player(self, s: UWState) -> int:
        return s.mover

    def actions(self, s: UWState) -> tuple[int, ...]:
        return (0,) if s == self.initial else tuple(self.game.actions(s))

    def outcomes(self, s: UWState, bet: int) -> list[tuple[Fraction, object]]:
        if s == self.initial:
            p = Fraction(1, self.n**2)
            return [(p, UWState(0, a, b)) for a in range(1, self.n + 1)
                    for b in range(1, self.n + 1)]
        return list(self.game.outcomes(s, bet))


table = state_table(tbsg.solve(EveryPosition(6, 6, "less_than")),
                    where=lambda s: s.mover == 0 and s.a > 0)
ties = table.where(lambda r: len(r.optimal) > 1 and 0 < r.value < 1)
print(f"less_than rule, d6: {len(ties)} positions with several exactly optimal bets")
show(ties.head(10))

# %%
every = table.pivot("a", "b", lambda r: r.optimal, row_name="a (to move)",
                    col_name="b", name="every optimal bet (less_than rule, d6)")
fig, ax = plt.subplots(figsize=(7.5, 6), layout="constrained")
plots.heatmap(every, ax, columns_on_top=True, cmap="tab20",
              title="Unspeakable Words, bust only if roll < bet (d6): every optimal bet")
out.save("unspeakable_words_d6_less_than_ties.png", fig)

# %% [markdown]
# ## 4. How much the best bet beats the next best
#
# Over the whole grid (empty: a single possible bet).

# %%
grid = state_table(tbsg.solve(EveryPosition(die, die)), where=lambda s: s.mover == 0 and s.a > 0)
margins = grid.pivot("a", "b", lambda r: r.margin, name="margin: best bet minus next best",
                     row_name="a (to move)", col_name="b")
fig, ax = plt.subplots(figsize=(10, 8.5), layout="constrained")
plots.heatmap(margins, ax, columns_on_top=True, cmap="magma_r", fmt=".3f",
              title=f"Unspeakable Words, d{die}: how much the best bet beats the next best "
                    "(empty: a single bet)")
out.save(f"unspeakable_words_d{die}_margin.png", fig)
