"""Coinball (The Riddler, FiveThirtyEight; seed 001): the three answers, and past them.

Reproduces, exactly (100 tosses): the first player's chance against an opponent who
always rushes (0.601766458853), who always passes (0.558341814467) and with both
optimal (0.489818590457: better to go second), and checks the source's verbal summary
of the optimal strategy in every state.

Goes past the source:

* the optimal call in every state as a map over the caller's lead and the toss number
  (the verbal rule, its exact ties and the states already decided, at a glance);
* the exact ties of undecided positions, found as the states with margin 0 (Markdown);
* the first caller's chance for every game length from 1 to 200 tosses, from one solve:
  the first caller is better off exactly when the number of tosses is odd and at least 3
  (with 1 toss it is a fair coin).

Run ``python examples/coinball.py`` (about 15 s) or ``--fast`` (small sizes). Files go to
``docs/figures/`` (``--out DIR``).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from _output import Output, pyplot, run

import tbsg
from tbsg.games import CoinballState, coinball, coinball_summary_check
from tbsg.outputs.tables import state_table
from tbsg.sources.coinball import BEST_RESPONSES, OPTIMAL

PRINTED = {"always rush": BEST_RESPONSES["rush"], "always pass": BEST_RESPONSES["pass"],
           "optimal": OPTIMAL}  # seed 001, solution (as kept in tbsg.sources.coinball)


def main(fast: bool = False, out: Path | None = None) -> dict[str, Path]:
    """Reproduce and extend the source; return the files written, by name."""
    from tbsg import plots

    plt = pyplot()
    output = Output(out, fast)
    save, write, written = output.save, output.write, output.written

    tosses = 12 if fast else 100
    game = coinball(tosses)

    # 1. the three published numbers
    print(f"Coinball, {tosses} tosses: first player's chance (draws count 1/2)")
    sol = tbsg.solve(game)
    answers = {
        "always rush": tbsg.best_response(game, 0, lambda s: "rush").value(),
        "always pass": tbsg.best_response(game, 0, lambda s: "pass").value(),
        "optimal": sol.value(),
    }
    for what, v in answers.items():
        power = v.denominator.bit_length() - 1
        line = f"  opponent {what:11}: {float(v):.12f}  (= {v.numerator} / 2**{power})"
        if tosses == 100:
            line += "  matches" if f"{float(v):.12f}" == PRINTED[what] else "  DIFFERS"
        print(line)

    # 2. the verbal summary, state by state
    check = coinball_summary_check(tosses)
    print(f"verbal summary: never wrong = {check.never_wrong} in {check.states} states; "
          f"exact in {check.exact}, misses a tie in {check.missed_tie} "
          f"({check.missed_tie_decided} of them decided)")

    # 3. the strategy map
    save("coinball_strategy.png", plots.plot_coinball(tosses, max_lead=8 if fast else 12,
                                                      solution=sol))

    # 4. exact ties of undecided positions: margin 0, value strictly between 0 and 1
    table = state_table(sol)
    ties = table.where(lambda r: r.margin == 0 and 0 < r.value_to_move < 1)
    print(f"\n{len(ties)} undecided states where rush and pass are exactly as good:")
    md = ties.to_markdown(columns=[
        "toss", ("caller's lead", lambda r: r.lead if r.player == 0 else -r.lead),
        ("caller", lambda r: "first" if r.player == 0 else "second"), "value_to_move",
        "optimal"])
    print(md)
    write("coinball_ties.md", md + "\n")

    # 5. every game length from one solve: a game of T tosses is the last T tosses of a
    # longer one, started level (lead 0 is reachable from toss 2 on)
    longest = 20 if fast else 200
    n = longest + 2
    long_game = tbsg.solve(coinball(n))
    lengths, chances = [], []
    for t in range(1, longest + 1):
        v = long_game.value_to_move(CoinballState(n - t, 0))
        lengths.append(t)
        chances.append(v)
    odd_better = all((c > Fraction(1, 2)) == (t % 2 == 1)
                     for t, c in zip(lengths, chances, strict=True) if t > 1)
    print(f"\nfirst caller better off exactly for odd lengths (2..{longest}): {odd_better}; "
          f"1 toss: {chances[0]}")
    fig, ax = plt.subplots(figsize=(9, 4.8), layout="constrained")
    ax.axhline(0.5, color="0.2", linewidth=1.0)
    for parity, colour, name in ((1, "#1b9e77", "odd number of tosses"),
                                 (0, "#d95f02", "even number of tosses")):
        xs = [t for t in lengths if t % 2 == parity]
        ax.plot(xs, [float(chances[t - 1]) for t in xs], "o-", markersize=3, linewidth=1,
                color=colour, label=name)
    if tosses <= longest:
        ax.annotate(f"{tosses} tosses (the source): {float(answers['optimal']):.4f}",
                    (tosses, float(answers["optimal"])), xytext=(tosses * 0.55, 0.43),
                    arrowprops={"arrowstyle": "->", "color": "0.3"})
    ax.set_xlabel("number of tosses in the game")
    ax.set_ylabel("P(first caller wins), both optimal")
    ax.set_title("Coinball: calling first helps for an odd number of tosses (3 or more), "
                 "hurts for an even one")
    ax.grid(True, color="0.9")
    ax.legend()
    save("coinball_first_player.png", fig)
    return written


if __name__ == "__main__":
    run(main, __doc__)
