"""Risk or Safety benchmark: tbsg exact and float against a plain dict-and-Fraction baseline.

Prints, per target: states, components, largest component, exact and float seconds, the
baseline's seconds (same algorithm, plain dicts and Fractions, run in this process) and
the ratio baseline / tbsg. Issue 2 targets on a 2-core machine: exact 20 < 0.5 s,
50 < 10 s, 100 < 90 s; float 100 to 1e-12 < 10 s.

Usage: python benchmarks/bench_risk_or_safety.py [targets...] [--baseline-max N]
(default targets 10 20 30 50 100; the baseline runs up to --baseline-max, default 30).
"""

from __future__ import annotations

import argparse
import resource
import time
from fractions import Fraction

import tbsg
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("targets", type=int, nargs="*", default=[10, 20, 30, 50, 100])
    ap.add_argument("--baseline-max", type=int, default=30)
    ap.add_argument("--no-exact-above", type=int, default=100)
    args = ap.parse_args()
    print(f"backend: {tbsg.__name__} exact arithmetic = "
          f"{__import__('tbsg._backend', fromlist=['BACKEND']).BACKEND}")
    print(f"{'n':>4} {'states':>9} {'comps':>6} {'largest':>7} {'exact s':>8} {'float s':>8} "
          f"{'gap':>8} {'baseline s':>10} {'ratio':>6}  value")
    for n in args.targets:
        game = risk_or_safety(n)
        ex_s = "-"
        value = None
        if n <= args.no_exact_above:
            t = time.perf_counter()
            sol = tbsg.solve(game)
            ex_t = time.perf_counter() - t
            ex_s = f"{ex_t:.2f}"
            value = sol.value()
        t = time.perf_counter()
        fs = tbsg.solve(game, exact=False)
        fl_t = time.perf_counter() - t
        base_s, ratio = "-", "-"
        if n <= args.baseline_max:
            t = time.perf_counter()
            b = baseline(n)
            base_t = time.perf_counter() - t
            if value is not None and b != value:
                raise SystemExit(f"baseline disagrees at n={n}: {b} != {value}")
            base_s = f"{base_t:.2f}"
            if value is not None:
                ratio = f"{base_t / ex_t:.1f}x"
        shown = f"{float(value):.15f}" if value is not None else f"{fs.value():.15f} (float)"
        print(f"{n:>4} {fs.n_states:>9} {fs.n_components:>6} {fs.largest_component:>7} "
              f"{ex_s:>8} {fl_t:>8.2f} {fs.max_gap:>8.1e} {base_s:>10} {ratio:>6}  {shown}",
              flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS: {peak:.0f} MB")


if __name__ == "__main__":
    main()
