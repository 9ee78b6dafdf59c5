"""Unspeakable Words end game (J. Mount, "Unspeakable bets: take small steps", Win-Vector
blog; seed 004): the ``aMove`` and ``aValue`` tables, and past them.

Reproduces the post's two d6 tables (optimal bet and a's chance of winning, a to move,
``0 <= a, b <= 6``): every move and every value to the 3 printed decimals, with the
exact rationals behind them (e.g. ``aValue[6, 6] = 43835/93312``).

Goes past the post:

* the real game's d20, ``a, b <= 20``: where big bets pay, and the diagonal ``a = b``
  (is moving first an advantage?);
* the post's variant bust rule (bust only when the roll is *below* the bet), where exact
  ties between bets are common: the state table lists every optimal bet, not only the
  smallest as the post's code does;
* how much the best bet beats the next best one (the margin), over the whole d20 grid.

Run ``python examples/unspeakable_words.py`` or ``--fast``. Files go to ``docs/figures/``
(``--out DIR``).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from _output import Output, pyplot, run

import tbsg
from tbsg.games import UWState, unspeakable_words_tables
from tbsg.games.unspeakable_words import UnspeakableWords
from tbsg.outputs.pivot import Pivot
from tbsg.outputs.tables import state_table
from tbsg.sources.unspeakable_words import checks


class EveryPosition:
    """Every position ``(a, b)``, ``1 <= a, b <= n`` with a to move, behind one chance move,
    so that one solve covers the whole grid (the start state is ``UWState(0, 0, 0)``)."""

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


def main(fast: bool = False, out: Path | None = None) -> dict[str, Path]:
    """Reproduce and extend the post; return the files written, by name."""
    from tbsg import plots

    plt = pyplot()
    output = Output(out, fast)
    save, write, written = output.save, output.write, output.written

    # 1. the post's d6 tables
    moves, values = unspeakable_words_tables(6)
    kw = {"row_name": "a", "col_name": "b"}
    print("aMove (d6; a to move; smallest optimal bet):")
    print(Pivot.from_dict(moves, name="aMove", **kw).to_markdown())
    shown = Pivot.from_dict({k: f"{float(v):.3f}" for k, v in values.items()}, name="aValue", **kw)
    print("\naValue (d6; P(a wins)), 3 decimals as printed:")
    print(shown.to_markdown())
    for check in checks():  # the post's printed tables (tbsg.sources.unspeakable_words)
        print(f"{check.quantity}: {'matches' if check.match else 'DIFFERS'}")
    exact = Pivot.from_dict(values, name="aValue", **kw)
    write("unspeakable_words_d6_values.csv", exact.to_csv())
    write("unspeakable_words_d6_values.tex", exact.to_latex(
        fractions="frac", caption="Unspeakable Words end game, d6: P(a wins), a to move") + "\n")
    save("unspeakable_words_d6.png", plots.plot_unspeakable_words(6))

    # 2. the real game's d20
    die = 6 if fast else 20
    save(f"unspeakable_words_d{die}.png", plots.plot_unspeakable_words(die, die))
    _, v20 = unspeakable_words_tables(die, die)
    diagonal = [(a, v20[a, a]) for a in range(1, die + 1)]
    below = [a for a, v in diagonal if v < Fraction(1, 2)]
    half = [a for a, v in diagonal if v == Fraction(1, 2)]
    print(f"\nd{die}, a = b: exactly 1/2 at {half}; moving first is a disadvantage at {below}")

    # 3. the variant rule: every optimal bet, and where the post's tie-breaking matters
    game = EveryPosition(6, 6, "less_than")
    table = state_table(tbsg.solve(game), where=lambda s: s.mover == 0 and s.a > 0)
    ties = table.where(lambda r: len(r.optimal) > 1 and 0 < r.value < 1)
    print(f"\nless_than rule, d6: {len(ties)} positions with several exactly optimal bets:")
    print(ties.to_markdown(columns=["a", "b", "value", "optimal"]))
    every = table.pivot("a", "b", lambda r: r.optimal, row_name="a (to move)",
                        col_name="b", name="every optimal bet (less_than rule, d6)")
    fig, ax = plt.subplots(figsize=(7.5, 6), layout="constrained")
    plots.heatmap(every, ax, columns_on_top=True, cmap="tab20",
                  title="Unspeakable Words, bust only if roll < bet (d6): every optimal bet")
    save("unspeakable_words_d6_less_than_ties.png", fig)

    # 4. the margin of the best bet over the whole grid
    grid = state_table(tbsg.solve(EveryPosition(die, die)),
                       where=lambda s: s.mover == 0 and s.a > 0)
    margins = grid.pivot("a", "b", lambda r: r.margin, name="margin: best bet minus next best",
                         row_name="a (to move)", col_name="b")
    fig, ax = plt.subplots(figsize=(10, 8.5), layout="constrained")
    plots.heatmap(margins, ax, columns_on_top=True, cmap="magma_r", fmt=".3f",
                  title=f"Unspeakable Words, d{die}: how much the best bet beats the next best "
                        "(empty: a single bet)")
    save(f"unspeakable_words_d{die}_margin.png", fig)
    return written


if __name__ == "__main__":
    run(main, __doc__)
