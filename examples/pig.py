"""Pig and Piglet (Neller and Presser, "Optimal Play of the Dice Game Pig", 2004), and past it.

Reproduces the paper's headline number, the first player's chance of winning Pig to 100
under optimal play (53.06%, p. 34), from the float solver's proven bounds, and its
roll/hold boundary (Figures 3 and 4) as a map over both scores.

Goes past the paper:

* the exact value of Pig to 30, and the float bounds that contain it;
* Piglet (Pig with a coin) is Risk or Safety under a renaming: the exact values agree;
* the boundary at goal 100 drawn from the certified float solution.

Run ``python examples/pig.py`` (about a minute: 960,894 states) or ``--fast``. Files go to
``docs/figures/`` (``--out DIR``).
"""

from __future__ import annotations

from pathlib import Path

from _output import Output, pyplot, run

import tbsg
from tbsg.games import pig, piglet, risk_or_safety
from tbsg.games.pig import pig_hold_boundary
from tbsg.sources.pig import OPTIMAL as PRINTED  # Neller and Presser 2004, p. 34: 53.06%


def main(fast: bool = False, out: Path | None = None) -> dict[str, Path]:
    """Reproduce and extend the paper; return the files written, by name."""
    from tbsg import plots

    output = Output(out, fast)

    goal = 20 if fast else 100
    approx = tbsg.solve(pig(goal), exact=False, tol=1e-12)
    lo, hi = approx.bounds()
    line = f"Pig to {goal}: first player wins with probability in [{lo:.12f}, {hi:.12f}]"
    if goal == 100:
        both = f"{lo:.4f}" == PRINTED == f"{hi:.4f}"
        line += f"; published {PRINTED}: {'matches' if both else 'DIFFERS'}"
    print(line + f" ({approx.n_states:,} states, {approx.seconds:.1f} s)")
    boundary = pig_hold_boundary(approx)
    print(f"at 0-0 hold from a turn total of {boundary[0, 0]}")

    small = 10 if fast else 30
    exact = tbsg.solve(pig(small))
    flo, fhi = tbsg.solve(pig(small), exact=False).bounds()
    v = exact.value()
    print(f"Pig to {small}: exact {v} ≈ {float(v):.15f}; float bounds contain it: {flo <= v <= fhi}")

    for n in range(1, 5 if fast else 9):
        a, b = tbsg.solve(piglet(n)).value(), tbsg.solve(risk_or_safety(n)).value()
        print(f"Piglet to {n} = Risk or Safety to {n} = {a}: {'equal' if a == b else 'DIFFERS'}")

    pyplot()
    output.save(f"pig_hold_boundary_{goal}.png", plots.plot_pig_hold_boundary(goal, solution=approx))
    return output.written


if __name__ == "__main__":
    run(main, __doc__)
