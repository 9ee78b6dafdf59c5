"""Super Six (R. Jehn, "Optimum Strategies for the Game Super Six", 2021; seed 002):
the strategy strings and Figure 5, and past them.

Reproduces the optimal strategy strings ``S_7`` to ``S_15`` (sections 6 to 8; the
printed ``S_13`` and ``S_15`` have one zero too many in their last group, a known
discrepancy declared in :mod:`tbsg.sources.super_six`) and Figure 5: with 3 sticks on the lid, the gain of
continuing over stopping against the mover's sticks ``k``, one curve per opponent's
sticks ``l``, up to 15 sticks (the paper's limit: 24 hours of computing, out of memory
at 16).

Goes past the paper: Figure 5 up to 30 sticks, and the decision with 3 on the lid over
``(k, l)`` as a map: from 20 sticks on, stop unless one player holds a single stick.

Run ``python examples/super_six.py`` or ``--fast``. Files go to ``docs/figures/``
(``--out DIR``).
"""

from __future__ import annotations

from pathlib import Path

from _output import Output, pyplot, run

import tbsg
from tbsg.games import super_six_strategy
from tbsg.games.super_six import SuperSix
from tbsg.outputs.tables import state_table
from tbsg.reproduce import reproduce


def main(fast: bool = False, out: Path | None = None) -> dict[str, Path]:
    """Reproduce and extend the paper; return the files written, by name."""
    from tbsg import plots

    plt = pyplot()
    output = Output(out, fast)
    save, written = output.save, output.written

    top = 9 if fast else 15
    print("optimal strategies (1: continue, 0: stop; groups by sticks on the lid):")
    for total in range(7, top + 1):
        print(f"  S_{total} = {super_six_strategy(total)}")
    if not fast:
        rows = [r for r in reproduce(["super_six"]).rows if r.quantity.startswith("optimal strategy")]
        for r in rows:
            verdict = ("matches" if r.match else "differs (known discrepancy): " + r.note
                       if r.expected else "DIFFERS: " + r.problem)
            print(f"  {r.quantity}: printed {r.published} -> {verdict}")

    save("super_six_figure5.png", plots.plot_super_six_figure5(top))

    # past the paper: more sticks
    big = 10 if fast else 30
    save(f"super_six_figure5_to_{big}.png",
         plots.plot_super_six_figure5(big, others=range(1, 9), zoom=True))
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
    save("super_six_lid3_decisions.png", fig)
    stops = {r.hand + r.other + 3 for r in lid3 if r.gain("roll", "stop") < 0}
    print(f"\nwith 3 on the lid, stopping is optimal somewhere for totals {sorted(stops)}")
    return written


if __name__ == "__main__":
    run(main, __doc__)
