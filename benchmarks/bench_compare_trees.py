"""The same tbsg calls on two source trees, side by side, in fresh processes.

A change that should not cost speed (a move, a refactoring) is measured against the code
before it: check the old commit out beside this one (``git worktree add ../before REV``)
and run::

    python benchmarks/bench_compare_trees.py ../before/src [--rounds 3] [--only CASE ...]

Each case runs in a new process per tree (``PYTHONPATH`` set to the tree's ``src``), the
trees alternating from round to round; the figure is the CPU seconds of the call alone
(imports and setup excluded), and a row prints the medians and their ratio (after /
before). Times on a shared machine vary; ratios from one run are what to compare.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES = {
    "ros20 exact": "tbsg.solve(G.risk_or_safety(20))",
    "ros40 exact": "tbsg.solve(G.risk_or_safety(40))",
    "ros60 exact": "tbsg.solve(G.risk_or_safety(60))",
    "ros100 exact": "tbsg.solve(G.risk_or_safety(100))",
    "ros20 float": "tbsg.solve(G.risk_or_safety(20), exact=False)",
    "ros40 float": "tbsg.solve(G.risk_or_safety(40), exact=False)",
    "ros60 float": "tbsg.solve(G.risk_or_safety(60), exact=False)",
    "ros100 float": "tbsg.solve(G.risk_or_safety(100), exact=False)",
    "pig100 float": "tbsg.solve(G.pig(100), exact=False)",
    "coinball tmy exact": "tbsg.solve(U.PlainCoinball(100))",
    "coinball tmy float": "tbsg.solve(U.PlainCoinball(100), exact=False)",
    "param ros4": "tbsg.solve_parametric(G.biased_risk_or_safety(4, P), P)",
    "pig50 verify": "tbsg.verify(G.pig(50), SOL)",
}
CHILD = f"""
import gc, sys, time
sys.path.insert(0, {str(HERE)!r})
import sympy, tbsg, tbsg.games as G, user_games as U
P = sympy.Symbol("p")
SOL = tbsg.solve(G.pig(50)) if "verify" in sys.argv[1] else None
gc.collect()
t = time.process_time(); eval(sys.argv[2]); print(time.process_time() - t)
"""


def run(tree: str, case: str) -> float:
    env = dict(os.environ, PYTHONPATH=tree)
    out = subprocess.run([sys.executable, "-c", CHILD, case, CASES[case]], env=env,
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", help="the src folder of the code before the change")
    ap.add_argument("--after", default=str(HERE.parent / "src"), help="default: this checkout's src")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", nargs="*", choices=sorted(CASES), default=list(CASES))
    args = ap.parse_args()
    trees = {"before": args.before, "after": args.after}
    print(f"{'case':22s} {'before':>8s} {'after':>8s} {'ratio':>6s}  (median CPU s of {args.rounds})")
    for case in args.only:
        times: dict[str, list[float]] = {k: [] for k in trees}
        for r in range(args.rounds):
            for k in (("before", "after") if r % 2 == 0 else ("after", "before")):
                times[k].append(run(trees[k], case))
        b, a = statistics.median(times["before"]), statistics.median(times["after"])
        print(f"{case:22s} {b:8.3f} {a:8.3f} {a / b:6.2f}", flush=True)


if __name__ == "__main__":
    main()
