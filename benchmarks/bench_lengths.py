"""Game-length benchmark (issue 15): Risk or Safety's table to 50, and the other catalog answers.

Prints, in CPU seconds (``time.process_time``; the machine is shared, wall time varies 2x):

1. ``risk_or_safety_lengths(N)`` (default N = 50): the whole table from one exact solve,
   with the size of its numbers (digits of numerator / denominator of the expected
   tosses, the expected turns and the variance at the largest target, and the largest
   anywhere in the table);
2. the same table the naive way, a separate solve and chain per target (for
   ``n <= --naive-max``, default N), and the same-run ratio naive / one-solve;
3. at the largest target: the exact chain's expected tosses against the float bounds
   (``exact=False``), their width and the time ratio;
4. Coinball (100 tosses), The Race (100) exactly; Pig to 100 in proven float bounds with
   the number of reached states where the float solution's choice is not certain.

Usage: python benchmarks/bench_lengths.py [N] [--naive-max M] [--skip-pig]
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction

import tbsg
from tbsg.games import (
    coinball_outcomes,
    pig_turn_bounds,
    risk_or_safety,
    risk_or_safety_lengths,
    the_race_length,
)
from tbsg.games.risk_or_safety import RoSState


def digits(x: Fraction) -> str:
    return f"{len(str(abs(x.numerator)))}/{len(str(x.denominator))}"


def tosses(s: RoSState, a: str) -> int:
    return 1 if a == "toss" else 0


def turns(s: RoSState, a: str) -> int:
    return 1 if s.open == 0 else 0


def naive(n: int) -> tuple[Fraction, Fraction, Fraction]:
    game = risk_or_safety(n)
    sol = tbsg.solve(game)
    c = tbsg.chain(game, sol)
    sol.fastest(tosses)
    sol.slowest(tosses)
    return c.expected_steps(tosses), c.expected_steps(turns), c.variance_of_steps(tosses)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=50)
    ap.add_argument("--naive-max", type=int, default=None)
    ap.add_argument("--skip-pig", action="store_true")
    args = ap.parse_args()
    n = args.n
    naive_max = n if args.naive_max is None else args.naive_max

    print(f"== Risk or Safety, targets 1..{n}, exact (tbsg {tbsg.__version__})")
    t0 = time.process_time()
    rows = risk_or_safety_lengths(n)
    one = time.process_time() - t0
    last = rows[-1]
    print(f"risk_or_safety_lengths({n}): {one:.2f} s CPU (one solve, fastest/slowest, {n} chains)")
    print(f"target {n}: tosses {float(last.tosses):.6f} (digits num/den {digits(last.tosses)}), "
          f"turns {float(last.turns):.6f} ({digits(last.turns)}), "
          f"variance {float(last.toss_variance):.6f} ({digits(last.toss_variance)})")
    biggest = max(len(str(x.denominator)) for r in rows
                  for x in (r.tosses, r.turns, r.toss_variance))
    print(f"largest denominator in the table: {biggest} digits")
    print("target  tosses        turns        sd(tosses)  tosses/target  P(first wins)")
    for r in rows:
        if r.target in (1, 2, 3, 5, 10, 20, 30, 40, 50) or r.target == n:
            print(f"{r.target:6d}  {float(r.tosses):12.6f} {float(r.turns):12.6f} "
                  f"{float(r.toss_variance) ** 0.5:10.4f}  {float(r.tosses_per_point):12.6f}  "
                  f"{float(r.first_player_wins):.9f}")
    print("ties: fastest == slowest at every target:",
          all(r.fastest_tosses == r.slowest_tosses for r in rows))

    t0 = time.process_time()
    for k in range(1, naive_max + 1):
        e, tu, v = naive(k)
        r = rows[k - 1]
        if (e, tu, v) != (r.tosses, r.turns, r.toss_variance):
            raise SystemExit(f"target {k}: the separate solve disagrees with the table")
    sep = time.process_time() - t0
    ratio = f"; ratio separate / one solve: {sep / one:.2f}" if naive_max == n else ""
    print(f"separate solve per target, 1..{naive_max}: {sep:.2f} s CPU, same numbers{ratio}")

    game = risk_or_safety(n)
    sol = tbsg.solve(game)
    t0 = time.process_time()
    c = tbsg.chain(game, sol)
    exact = c.expected_steps(tosses)
    t_exact = time.process_time() - t0
    t0 = time.process_time()
    c = tbsg.chain(game, sol)
    lo, hi = c.expected_steps(tosses, exact=False)
    t_float = time.process_time() - t0
    print(f"target {n}, chain + expected tosses: exact {t_exact:.3f} s, float bounds "
          f"{t_float:.3f} s (ratio exact/float {t_exact / t_float:.2f}); bounds "
          f"[{lo!r}, {hi!r}], width {hi - lo:.2e}, contain exact: {lo <= exact <= hi}")

    print("\n== Coinball, 100 tosses (exact)")
    t0 = time.process_time()
    for r in coinball_outcomes(100):
        print(f"vs {r.opponent:7s}: value {float(r.value):.12f}, draw (solution's strategy) "
              f"{float(r.draw):.9f}, draw over optimal profiles [{float(r.draw_least):.9f}, "
              f"{float(r.draw_most):.9f}], passes [{float(r.passes_fewest):.6f}, "
              f"{float(r.passes_most):.6f}]")
    print(f"{time.process_time() - t0:.2f} s CPU")

    print("\n== The Race, goal 100 (exact)")
    t0 = time.process_time()
    race = the_race_length(100)
    print(f"rounds {float(race.rounds):.6f} (digits {digits(race.rounds)}), turns "
          f"{float(race.turns):.6f}, tosses {float(race.tosses):.6f}, P(player 2 wins) "
          f"{float(race.player2_wins):.8f}; {time.process_time() - t0:.2f} s CPU")

    if not args.skip_pig:
        print("\n== Pig, goal 100, d6 (float solution, proven bounds)")
        t0 = time.process_time()
        b = pig_turn_bounds(100)
        print(f"optimal: turns in [{b.optimal[0]!r}, {b.optimal[1]!r}]; hold at 20: "
              f"[{b.hold[0]!r}, {b.hold[1]!r}]; {b.states:,} states reached, "
              f"{b.uncertain} with an uncertain choice; {time.process_time() - t0:.2f} s CPU")


if __name__ == "__main__":
    main()
