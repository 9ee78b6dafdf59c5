"""What a user waits for after the solve, on two source trees side by side.

For each game, one child process per tree runs the whole path a user takes after an
exact solve: the float solve (for scale), ``verify``, ``state_table`` and its Markdown
export, a fresh table and its CSV export (a table computes its columns once, at its
first export), ``save`` and ``load`` (with its re-verification). Each step's time is
wall-clock seconds of the call alone; a row prints the step's time on both trees, its
ratio to the same tree's exact solve (the issue's targets are ratios to the solve:
table + one export <= 1, save <= 0.5, load <= 1.5, verify <= 1) and after / before.
The child's peak resident memory closes each game's block.

Usage::

    git worktree add ../before REV
    python benchmarks/bench_after_solve.py ../before/src [--rounds 1] [--only pig50 ...]

Without a ``before`` tree only this tree runs. Times on a shared machine vary by up to
2x; ratios within one child process are what to compare.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
GAMES = {
    "pig50": ("Pig to 50", "G.pig(50)"),
    "ros60": ("Risk or Safety 60", "G.risk_or_safety(60)"),
    "coinball": ("Coinball (t, m, y), 100 tosses", "U.PlainCoinball(100)"),
}
STEPS = ("solve", "float solve", "verify", "state_table", "to_markdown", "table + to_csv",
         "save", "load")
TARGET = {"verify": 1.0, "save": 0.5, "load": 1.5}
CHILD = r"""
import json, os, resource, sys, tempfile, time
sys.path.insert(0, {here!r})
import tbsg, tbsg.games as G, user_games as U
game = eval(sys.argv[1])
out = {{}}
def step(name, call):
    t = time.perf_counter(); r = call(); out[name] = time.perf_counter() - t; return r
sol = step("solve", lambda: tbsg.solve(game))
step("float solve", lambda: tbsg.solve(game, exact=False))
step("verify", lambda: tbsg.verify(game, sol))
table = step("state_table", lambda: tbsg.state_table(sol))
step("to_markdown", table.to_markdown)
with tempfile.TemporaryDirectory() as d:
    # a fresh table: the Markdown export above has computed the first table's columns
    step("table + to_csv", lambda: tbsg.state_table(sol).to_csv(os.path.join(d, "t.csv")))
    path = os.path.join(d, "s.json")
    step("save", lambda: tbsg.save(sol, path))
    out["file MB"] = os.path.getsize(path) / 1e6
    step("load", lambda: tbsg.load(path, game=game))
out["peak MB"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def run(tree: Path, game: str) -> dict[str, float]:
    """One child process on ``tree``: every step's seconds, file size and peak memory."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    code = CHILD.format(here=str(HERE))
    done = subprocess.run([sys.executable, "-c", code, GAMES[game][1]], env=env,
                          capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _median(runs: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def report(game: str, trees: dict[str, list[dict[str, float]]]) -> None:
    """Print one game's block: each step on every tree, as seconds and x its solve."""
    names = list(trees)
    print(f"\n{GAMES[game][0]}")
    head = "".join(f" | {n} s | {n} x solve" for n in names)
    tail = " | after / before" if len(names) == 2 else ""
    print(f"| step{head}{tail} |")
    print("| --- " * (1 + 2 * len(names) + (len(names) == 2)) + "|")
    for key in STEPS:
        cells = ""
        for n in names:
            t, solve = _median(trees[n], key), _median(trees[n], "solve")
            cells += f" | {t:.2f} | {t / solve:.2f}"
        ratio = ""
        if len(names) == 2:
            before, after = (_median(trees[n], key) for n in names)
            ratio = f" | {after / before:.2f}"
        target = f" (target <= {TARGET[key]})" if key in TARGET else ""
        print(f"| {key}{target}{cells}{ratio} |")
    for n in names:
        solve = _median(trees[n], "solve")
        md = (_median(trees[n], "state_table") + _median(trees[n], "to_markdown")) / solve
        csv = _median(trees[n], "table + to_csv") / solve
        print(f"{n}: state_table + to_markdown = {md:.2f}, a fresh table + to_csv = {csv:.2f} "
              f"x solve (target <= 1); file {_median(trees[n], 'file MB'):.1f} MB; "
              f"peak {_median(trees[n], 'peak MB'):.0f} MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", nargs="?", help="the src folder of the code before the change")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--only", nargs="*", choices=sorted(GAMES), default=list(GAMES))
    args = ap.parse_args()
    trees = {"after": SRC} if args.before is None else {"before": Path(args.before), "after": SRC}
    for game in args.only:
        runs: dict[str, list[dict[str, float]]] = {n: [] for n in trees}
        for i in range(args.rounds):
            order = list(trees) if i % 2 == 0 else list(reversed(trees))
            for n in order:
                runs[n].append(run(trees[n], game))
        report(game, runs)


if __name__ == "__main__":
    main()
