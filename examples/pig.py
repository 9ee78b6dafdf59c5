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

import argparse
from pathlib import Path

import tbsg
from tbsg.games import pig, piglet, risk_or_safety
from tbsg.games.pig import pig_hold_boundary

FIGURES = Path(__file__).resolve().parents[1] / "docs" / "figures"
PRINTED = "0.5306"  # Neller and Presser 2004, p. 34: "the first player wins 53.06%"


def main(fast: bool = False, out: Path | None = None) -> dict[str, Path]:
    """Reproduce and extend the paper; return the files written, by name."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from tbsg import plots

    out = FIGURES if out is None else Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}

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

    fig = plots.plot_pig_hold_boundary(goal, solution=approx)
    path = out / f"pig_hold_boundary_{goal}.png"
    fig.savefig(path, dpi=50 if fast else 110)
    plt.close(fig)
    written[path.name] = path
    return written


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fast", action="store_true", help="small sizes (seconds)")
    parser.add_argument("--out", type=Path, default=None, help="output folder (default docs/figures)")
    args = parser.parse_args()
    main(fast=args.fast, out=args.out)
