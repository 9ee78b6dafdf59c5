"""Float solve by phase: compile, components, end components, proven bounds.

Prints, per game, the CPU seconds of ``compile_game``, ``decompose``, ``end_components``
and ``solve_float(tol=1e-12)`` (``1e-9`` for the line, whose proven gap cannot reach
``1e-12``), with the number of sparse LU factorisations and value-iteration sweeps the
float solver spent, its proven gap, and the peak resident memory of the process. Each
game runs in a fresh child process.

Games: ``pig`` (catalog Pig to 100, 960,894 states), ``hog`` (``PlainHog(100)`` of
``user_games.py``), ``ros`` (Risk or Safety to 100), ``line`` (``Line(100_000)``).

Usage: python benchmarks/bench_float_phases.py [pig hog ros line]
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))


def _game(name: str) -> tuple[Any, float]:
    from user_games import Line, PlainHog

    from tbsg.games import pig, risk_or_safety

    makers = {"pig": (lambda: pig(100), 1e-12), "hog": (lambda: PlainHog(100), 1e-12),
              "ros": (lambda: risk_or_safety(100), 1e-12),
              "line": (lambda: Line(100_000), 1e-9)}
    make, tol = makers[name]
    return make(), tol


def measure(name: str) -> dict[str, object]:
    """One row, measured in this process."""
    import scipy.sparse.linalg as spla

    from tbsg._util.gc import paused
    from tbsg.engine import floating
    from tbsg.engine.compile import compile_game
    from tbsg.engine.graph import decompose, end_components

    game, tol = _game(name)
    row: dict[str, object] = {"game": name}
    t = time.process_time()
    g = compile_game(game)
    row["compile"] = time.process_time() - t
    row["states"] = g.n_states
    t = time.process_time()
    comps = decompose(g)
    row["decompose"] = time.process_time() - t
    t = time.process_time()
    end_components(g, None, scc=comps.label)
    row["end_components"] = time.process_time() - t
    factorisations = 0
    splu = spla.splu

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal factorisations
        factorisations += 1
        return splu(*args, **kwargs)

    floating.spla.splu = counted  # type: ignore[assignment]
    t = time.process_time()
    with paused():
        r = floating.solve_float(g, comps, tol=tol)
    row["solve_float"] = time.process_time() - t
    floating.spla.splu = splu  # type: ignore[assignment]
    row["factorisations"] = factorisations
    row["sweeps"] = r.sweeps
    row["gap"] = float((r.upper - r.lower).max())
    row["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return row


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        print(json.dumps(measure(sys.argv[2])))
        return
    names = sys.argv[1:] or ["pig", "hog", "ros", "line"]
    print(f"{'game':>5} {'states':>9} {'compile':>8} {'decomp':>7} {'end c.':>7} {'float':>7} "
          f"{'after compile':>13} {'LU':>5} {'sweeps':>7} {'gap':>8} {'peak MB':>8}")
    for name in names:
        out = subprocess.run([sys.executable, __file__, "--child", name], check=True,
                             capture_output=True, text=True).stdout
        r = json.loads(out.strip().splitlines()[-1])
        after = r["decompose"] + r["end_components"] + r["solve_float"]
        print(f"{name:>5} {r['states']:>9} {r['compile']:>8.2f} {r['decompose']:>7.2f} "
              f"{r['end_components']:>7.2f} {r['solve_float']:>7.2f} {after:>13.2f} "
              f"{r['factorisations']:>5} {r['sweeps']:>7} {r['gap']:>8.1e} {r['peak_mb']:>8.0f}",
              flush=True)


if __name__ == "__main__":
    main()
