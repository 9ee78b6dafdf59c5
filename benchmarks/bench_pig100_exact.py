"""Pig exact benchmark: ``tbsg.solve(pig(goal))`` time, peak memory and the size of the value.

Prints, per goal: states, exact seconds (compile included), the peak resident memory of
the run, and the bit sizes of the numerator and denominator of the first player's value.
Each goal runs in a fresh child process, so its peak memory is its own.

Target (issue 26, on a 2-core machine): goal 100 in under 60 s and under 1 GB.

Usage: python benchmarks/bench_pig100_exact.py [goals...]   (default: 100; it takes minutes)
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

import tbsg
from tbsg.engine._backend import BACKEND
from tbsg.games import pig


def one(goal: int) -> dict[str, float | int | str]:
    """Solve Pig to ``goal`` exactly in this process; its figures."""
    t0 = time.perf_counter()
    sol = tbsg.solve(pig(goal))
    seconds = time.perf_counter() - t0
    value = sol.value()
    return {"goal": goal, "states": sol.n_states, "seconds": seconds,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "numerator_bits": value.numerator.bit_length(),
            "denominator_bits": value.denominator.bit_length(), "backend": BACKEND}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("goals", nargs="*", type=int, default=[100])
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(one(args.child)))
        return
    print(f"{'goal':>5} {'states':>9} {'exact s':>9} {'peak MB':>8} {'num bits':>9} {'den bits':>9}  backend")
    for goal in args.goals:
        out = subprocess.run([sys.executable, __file__, "--child", str(goal)], check=True,
                             capture_output=True, text=True).stdout
        r = json.loads(out.strip().splitlines()[-1])
        print(f"{r['goal']:>5} {r['states']:>9,} {r['seconds']:>9.1f} {r['peak_mb']:>8.0f} "
              f"{r['numerator_bits']:>9,} {r['denominator_bits']:>9,}  {r['backend']}")


if __name__ == "__main__":
    main()
