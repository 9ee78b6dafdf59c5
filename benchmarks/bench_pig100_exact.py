"""Pig exact benchmark: ``tbsg.solve(pig(goal))`` time, peak memory and the size of the value.

Prints, per goal and per ``keep_values`` (``all``: every value stored, as before the
boundary values; ``auto``: the default), states, the values stored, exact seconds
(compile included), the peak resident memory of the run, and the bit sizes of the
numerator and denominator of the first player's value. Each row runs in a fresh child
process, so its peak memory is its own.

With ``--phases`` the child runs the pipeline's steps itself (compile, components, exact
solve) and prints, at each step's end and every tenth of the states solved, the CPU
seconds, the resident memory and the peak so far: where the time and the memory go.

Target (issue 26, on a 2-core machine): goal 100 in under 60 s and under 1 GB.

Usage: python benchmarks/bench_pig100_exact.py [--phases] [--keep all,auto] [goals...]
(default: 100, both; minutes)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

import tbsg
from tbsg.engine._backend import BACKEND
from tbsg.games import pig


def one(goal: int, keep: str) -> dict[str, float | int | str]:
    """Solve Pig to ``goal`` exactly in this process; its figures."""
    t0 = time.perf_counter()
    sol = tbsg.solve(pig(goal), keep_values=keep)  # type: ignore[call-overload]
    seconds = time.perf_counter() - t0
    value = sol.value()
    return {"goal": goal, "keep": keep, "states": sol.n_states, "stored": sol.values_stored,
            "seconds": seconds,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "numerator_bits": value.numerator.bit_length(),
            "denominator_bits": value.denominator.bit_length(), "backend": BACKEND}


def _resident_mb() -> float:
    """Resident memory now (Linux ``/proc``; the peak where that is missing)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def phases(goal: int) -> None:
    """Print CPU seconds, resident and peak memory at the end of each step of the solve."""
    from tbsg.engine.compile import compile_game
    from tbsg.engine.exact import AUTO_KEEP_BYTES, solve_exact
    from tbsg.engine.graph import decompose

    def mark(what: str) -> None:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{time.process_time():8.1f} s cpu  {_resident_mb():7.0f} MB resident  "
              f"{peak:7.0f} MB peak  {what}", flush=True)

    mark("imports")
    g = compile_game(pig(goal))
    mark(f"compiled: {g.n_states:,} states")
    comps = decompose(g)
    mark("components")
    step = [0]

    def progress(done: int, total: int) -> None:
        if done >= step[0]:
            step[0] = done + total // 10
            mark(f"exact solve: {done:,} states")

    solve_exact(g, comps, None, progress, keep=AUTO_KEEP_BYTES)
    mark("exact solve done (optimal actions included; values stored as keep_values='auto')")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("goals", nargs="*", type=int, default=[100])
    parser.add_argument("--keep", default="all,auto", help="keep_values settings, comma-separated")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--phases", action="store_true", help="time and memory of each step")
    parser.add_argument("--phase-child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phases:
        for goal in args.goals:
            subprocess.run([sys.executable, __file__, "--phase-child", str(goal)], check=True)
        return
    if args.phase_child is not None:
        phases(args.phase_child)
        return
    if args.child is not None:
        print(json.dumps(one(args.child, args.keep)))
        return
    print(f"{'goal':>5} {'keep':>5} {'states':>9} {'stored':>9} {'exact s':>9} {'peak MB':>8} "
          f"{'num bits':>9} {'den bits':>9}  backend")
    for goal in args.goals:
        for keep in args.keep.split(","):
            out = subprocess.run([sys.executable, __file__, "--child", str(goal), "--keep", keep],
                                 check=True, capture_output=True, text=True).stdout
            r = json.loads(out.strip().splitlines()[-1])
            print(f"{r['goal']:>5} {r['keep']:>5} {r['states']:>9,} {r['stored']:>9,} {r['seconds']:>9.1f} "
                  f"{r['peak_mb']:>8.0f} {r['numerator_bits']:>9,} {r['denominator_bits']:>9,}  "
                  f"{r['backend']}", flush=True)


if __name__ == "__main__":
    main()
