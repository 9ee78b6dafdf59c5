"""Risk or Safety benchmark: tbsg exact and float against a plain dict-and-Fraction baseline.

Prints, per target ``n``: states, components, largest component, compile seconds, exact
seconds (``tbsg.solve``, compile included), float seconds (``tbsg.solve(exact=False,
tol=1e-12)``, compile included), the float run's proven max gap and converged flag, the
baseline's seconds (same algorithm, plain dicts and Fractions: value iteration for the
strategy, then exact Gauss-Jordan per component; run in the same process, for
``n <= --baseline-max``) with the ratio baseline / tbsg exact, and the peak resident
memory of that run. Each ``n`` runs in a fresh child process so its peak RSS is its own.

Targets (issue 2, on a 2-core machine): exact 20 < 0.5 s, 50 < 10 s, 100 < 90 s;
float 100 to 1e-12 < 10 s.

Usage: python benchmarks/bench_risk_or_safety.py [targets...] [--with-100]
[--baseline-max N] [--no-exact-above N]
(default targets 10 20 30 50, plus 100 with ``--with-100``: it takes minutes).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from fractions import Fraction

import tbsg
from tbsg.engine._backend import BACKEND
from tbsg.engine.compile import compile_game
from tbsg.games import risk_or_safety


def baseline(n: int) -> Fraction:
    """Plain implementation: dict of Fractions, value iteration for the strategy, then an
    exact Gauss-Jordan solve per (saved, saved) pair, highest scores first."""
    half = Fraction(1, 2)
    val: dict[tuple[int, int, int, int], Fraction] = {}
    # components: unordered saved pair {x, y}; solve pairs in decreasing x + y
    pairs = sorted({(min(x, y), max(x, y)) for x in range(n) for y in range(n)},
                   key=lambda p: -(p[0] + p[1]))
    for x, y in pairs:
        states = [(m, a, s, o) for m in (0, 1) for (s, o) in {(x, y), (y, x)}
                  for a in range(n - s)]
        states = sorted(set(states))
        idx = {st: i for i, st in enumerate(states)}

        def q(st: tuple[int, int, int, int], act: str, v: dict[tuple[int, int, int, int], float]) -> float:
            m, a, s, o = st
            if act == "stop":
                nxt = (1 - m, 0, o, s + a)
                return 1 - v[nxt] if nxt in v else 1 - float(val[nxt])
            win = 1.0 if a + 1 + s >= n else v.get((m, a + 1, s, o), 0.0)
            tails = (1 - m, 0, o, s)
            return 0.5 * win + 0.5 * (1 - v[tails])

        v = {st: 0.5 for st in states}
        for _ in range(400):
            v = {st: max(q(st, "toss", v), q(st, "stop", v)) if st[1] > 0 else q(st, "toss", v)
                 for st in states}
        choice = {st: ("stop" if st[1] > 0 and q(st, "stop", v) > q(st, "toss", v) else "toss")
                  for st in states}
        # exact linear system in mover-relative values w(st) = P(mover wins)
        size = len(states)
        mat = [[Fraction(0)] * (size + 1) for _ in range(size)]
        for st, i in idx.items():
            m, a, s, o = st
            mat[i][i] += 1
            if choice[st] == "stop":
                nxt = (1 - m, 0, o, s + a)
                if nxt in idx:
                    mat[i][idx[nxt]] += 1
                    mat[i][size] += 1
                else:
                    mat[i][size] += 1 - val[nxt]
            else:
                if a + 1 + s >= n:
                    mat[i][size] += half
                else:
                    mat[i][idx[(m, a + 1, s, o)]] -= half
                tails = (1 - m, 0, o, s)
                mat[i][idx[tails]] += half
                mat[i][size] += half
        for c in range(size):
            piv = next(r for r in range(c, size) if mat[r][c] != 0)
            mat[c], mat[piv] = mat[piv], mat[c]
            inv = 1 / mat[c][c]
            mat[c] = [e * inv for e in mat[c]]
            for r in range(size):
                if r != c and mat[r][c] != 0:
                    f = mat[r][c]
                    mat[r] = [e - f * ec for e, ec in zip(mat[r], mat[c], strict=True)]
        for st, i in idx.items():
            val[st] = mat[i][size]
    return val[(0, 0, 0, 0)]


def measure(n: int, exact: bool, with_baseline: bool) -> dict[str, object]:
    """One row of the table, measured in this process."""
    game = risk_or_safety(n)
    row: dict[str, object] = {"n": n}
    t = time.perf_counter()
    g = compile_game(game)
    row["compile"] = time.perf_counter() - t
    del g
    value = None
    if exact:
        t = time.perf_counter()
        sol = tbsg.solve(game)
        row["exact"] = time.perf_counter() - t
        value = sol.value()
        row["value"] = float(value)
        del sol
    t = time.perf_counter()
    fs = tbsg.solve(game, exact=False, tol=1e-12)
    row["float"] = time.perf_counter() - t
    row.update(states=fs.n_states, comps=fs.n_components, largest=fs.largest_component,
               gap=fs.max_gap, converged=fs.converged)
    if value is not None:
        lo, hi = fs.bounds()
        if not lo <= value <= hi:
            raise SystemExit(f"float bounds [{lo}, {hi}] miss the exact value at n={n}")
    else:
        row["value"] = fs.value()
    del fs
    if with_baseline:
        t = time.perf_counter()
        b = baseline(n)
        row["baseline"] = time.perf_counter() - t
        if value is not None and b != value:
            raise SystemExit(f"baseline disagrees at n={n}: {b} != {value}")
    row["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("targets", type=int, nargs="*", default=[10, 20, 30, 50])
    ap.add_argument("--with-100", action="store_true", help="also run n = 100 (minutes)")
    ap.add_argument("--baseline-max", type=int, default=30)
    ap.add_argument("--no-exact-above", type=int, default=100)
    ap.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child is not None:
        n = args.child
        print(json.dumps(measure(n, n <= args.no_exact_above, n <= args.baseline_max)))
        return
    targets = list(args.targets) + ([100] if args.with_100 and 100 not in args.targets else [])
    print(f"exact arithmetic backend: {BACKEND}")
    print(f"{'n':>4} {'states':>9} {'comps':>6} {'largest':>7} {'compile s':>9} {'exact s':>8} "
          f"{'float s':>8} {'gap':>8} {'conv':>5} {'baseline s':>10} {'ratio':>6} {'RSS MB':>7}"
          "  value")
    for n in targets:
        out = subprocess.run(
            [sys.executable, __file__, "--child", str(n), "--baseline-max", str(args.baseline_max),
             "--no-exact-above", str(args.no_exact_above)],
            check=True, capture_output=True, text=True).stdout
        r = json.loads(out.strip().splitlines()[-1])
        ex = f"{r['exact']:.2f}" if "exact" in r else "-"
        base = f"{r['baseline']:.2f}" if "baseline" in r else "-"
        ratio = f"{r['baseline'] / r['exact']:.1f}x" if "baseline" in r and "exact" in r else "-"
        print(f"{n:>4} {r['states']:>9} {r['comps']:>6} {r['largest']:>7} {r['compile']:>9.2f} "
              f"{ex:>8} {r['float']:>8.2f} {r['gap']:>8.1e} {r['converged']!s:>5} {base:>10} "
              f"{ratio:>6} {r['rss_mb']:>7.0f}  {r['value']:.15f}", flush=True)


if __name__ == "__main__":
    main()
