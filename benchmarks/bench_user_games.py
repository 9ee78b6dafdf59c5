"""A researcher's own games against the protocol floor, peers and memory (issue 13).

Each row runs in a fresh child process (so its peak memory is its own) and reports:

* ``floor``: the time to merely enumerate the *same* game through its protocol
  (:func:`user_games.protocol_floor`: a dict-and-stack search calling ``player``,
  ``actions`` and ``outcomes`` once per state and action), measured in the same child;
* ``tbsg``: the tbsg call of the row (compile included), and ``tbsg / floor``; rows named
  ``*-array-*`` solve the same game given its array form too (``ArrayHog``,
  ``ArrayCoinball``), against the same floor (the plain protocol), so they can go below
  1; the
  ``pig-compile`` row times the compilation alone, through Pig's array form
  (:mod:`tbsg.model.arrays`), and the plain-protocol compilation of the same game beside it;
* ``peer``: where a peer solves the same model in the same process (the Riddler seed's own
  dynamic program on Coinball ``(t, m, y)``, imported from ``../shared/peers``), its time
  and ``tbsg / peer``; a row says which model each side solves;
* ``peak MB`` and ``bytes/state``: the child's peak resident memory (``ru_maxrss``) and
  that divided by the number of states tbsg built (the interpreter's ~60 MB included).

Usage::

    python benchmarks/bench_user_games.py [--only NAME ...] [--quick]

``--quick`` runs smaller instances (a smoke test of the script). Times are CPU seconds of
the child (``time.process_time``): on a shared machine they vary less than wall time.
OpenSpiel's Pig 100 figure (2,574 s, value iteration to 1e-12, 1,079,298 states) is from
``../shared/peers/README.md``; ``bench_peers.py --long`` re-runs it.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PEERS = HERE.parents[1] / "shared" / "peers"
OPENSPIEL_PIG100_SECONDS = 2574.0  # ../shared/peers/README.md, "Pig (d6)" table
sys.path.insert(0, str(HERE))


def _cpu(f: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.process_time()
    out = f()
    return time.process_time() - t0, out


def _floor_and_solve(row: dict[str, Any], game: Any, exact: bool, tol: float | None = None) -> Any:
    """The protocol floor of ``game`` and tbsg's solve of it, recorded in ``row``."""
    from user_games import protocol_floor

    import tbsg

    row["floor"], _ = _cpu(lambda: protocol_floor(game))
    # tol belongs to the float path (an exact solve refuses it)
    row["tbsg"], sol = _cpu(lambda: tbsg.solve(game, exact=exact, tol=None if exact else tol))
    row["states"] = sol.n_states
    return sol


def _case(name: str, quick: bool) -> dict[str, Any]:
    """Run one row in this (child) process."""
    from user_games import ArrayCoinball, ArrayHog, Line, PlainCoinball, PlainHog

    import tbsg
    from tbsg.games import coinball, pig, pig_hold_at

    row: dict[str, Any] = {"name": name}
    if name == "coinball-catalog":
        tosses = 40 if quick else 100
        row["tbsg"], sol = _cpu(lambda: tbsg.solve(coinball(tosses)))
        row["states"] = sol.n_states
        row["model"] = f"catalog lead-only model, {sol.n_states:,} states (the seed's model has more)"
    elif name.startswith("coinball"):
        tosses = 40 if quick else 100
        exact = "exact" in name
        arrays = "array" in name
        sol = _floor_and_solve(row, (ArrayCoinball if arrays else PlainCoinball)(tosses), exact)
        row["model"] = (f"(t, m, y), {tosses} tosses, {sol.n_states:,} states, both sides"
                        + (", with the array form" if arrays else ""))
        value = float(sol.value()) if exact else sol.bounds()
        if PEERS.is_dir():
            sys.path.insert(0, str(PEERS))
            from seed_coinball import seed_dp  # the seed's own program, same states

            row["peer"], peer_value = _cpu(lambda: seed_dp(tosses, "optimal"))
            row["peer_name"] = "seed DP (float)"
            row["check"] = f"tbsg {value} seed {peer_value}"
    elif name.startswith("hog"):
        goal = 50 if quick else 100
        arrays = "array" in name
        sol = _floor_and_solve(row, (ArrayHog if arrays else PlainHog)(goal), "exact" in name)
        row["model"] = (f"Hog to {goal}, 1-10 dice, every score its own outcome"
                        + (", with the array form" if arrays else ""))
    elif name == "pig-float":
        goal = 50 if quick else 100
        sol = _floor_and_solve(row, pig(goal), False)
        lo, hi = sol.bounds()
        row["check"] = f"[{lo!r}, {hi!r}] gap {hi - lo:.1e}"
        row["model"] = f"catalog Pig to {goal}, {sol.n_states:,} states"
        if goal == 100:
            row["peer"] = OPENSPIEL_PIG100_SECONDS
            row["peer_name"] = "OpenSpiel VI 1e-12 (recorded; 1,079,298 states)"
    elif name == "pig-compile":
        # the array form (tbsg.model.arrays) against the plain protocol, same game, same child
        from user_games import protocol_floor

        from tbsg.engine.compile import compile_game

        goal = 50 if quick else 100
        game = pig(goal)
        row["floor"], _ = _cpu(lambda: protocol_floor(game))
        plain, g = _cpu(lambda: compile_game(game, arrays=False))
        del g
        row["tbsg"], g = _cpu(lambda: compile_game(game))
        row["states"] = g.n_states
        row["model"] = f"catalog Pig to {goal}, compile only, through its array form"
        row["check"] = (f"plain-protocol compile {plain:.2f} s: arrays {plain / row['tbsg']:.1f}x "
                        "faster, the same compiled game")
    elif name in ("pig-hold20-exact", "pig-hold20-br-float"):
        goal = 50 if quick else 100
        game = pig(goal)
        if name == "pig-hold20-exact":
            row["tbsg"], sol = _cpu(lambda: tbsg.evaluate(game, pig_hold_at(20)))
            row["check"] = f"value {float(sol.value())!r}"
        else:
            row["tbsg"], sol = _cpu(lambda: tbsg.best_response(game, 1, pig_hold_at(20), exact=False))
            row["check"] = f"bounds {sol.bounds()}"
        row["states"] = sol.n_states
        row["model"] = f"Pig to {goal}, reachable under 'hold at 20': {sol.n_states:,} states"
    elif name.startswith("line"):
        n = 8000 if quick else 100_000
        stop = "stop" in name
        # the proven float gap grows with the length of play: 1e-12 is out of reach here
        sol = _floor_and_solve(row, Line(n, stop=stop), name.endswith("exact"), tol=1e-9)
        row["model"] = f"{'stopping' if stop else 'deterministic'} line of {n:,} states"
        if not name.endswith("exact"):
            row["check"] = f"gap {sol.max_gap:.1e} (tol 1e-9)"
    else:
        raise SystemExit(f"unknown case {name!r}")
    row["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return row


CASES = ["coinball-exact", "coinball-float", "coinball-array-exact", "coinball-catalog",
         "hog-float", "hog-exact", "hog-array-float",
         "pig-compile", "pig-float", "pig-hold20-exact", "pig-hold20-br-float", "line-exact", "line-float",
         "line-stop-exact", "line-stop-float"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", nargs="*", default=None, help="rows to run (default: all)")
    ap.add_argument("--quick", action="store_true", help="smaller instances")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        print(json.dumps(_case(a.child, a.quick)))
        return
    head = (f"{'row':22s} {'floor s':>8s} {'tbsg s':>8s} {'x floor':>8s} {'peer s':>8s} "
            f"{'tbsg/peer':>9s} {'peak MB':>8s} {'B/state':>8s}  model; check")
    print(head)
    print("-" * len(head))
    for name in a.only or CASES:
        cmd = [sys.executable, __file__, "--child", name] + (["--quick"] if a.quick else [])
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            print(f"{name:22s} failed: {done.stderr.strip().splitlines()[-1:]}")
            continue
        r = json.loads(done.stdout.strip().splitlines()[-1])
        floor, t, peer = r.get("floor"), r["tbsg"], r.get("peer")
        per_state = r["peak_mb"] * 2**20 / max(r["states"], 1)

        def f(x: float | None, spec: str = "8.2f") -> str:
            return format(x, spec) if x is not None else f"{'-':>{spec.split('.')[0]}}"

        print(f"{name:22s} {f(floor)} {f(t)} {f(t / floor if floor else None, '8.2f')} {f(peer)} "
              f"{f(t / peer if peer else None, '9.3f')} {r['peak_mb']:8.0f} {per_state:8.0f}  "
              f"{r['model']}" + (f"; {r['check']}" if r.get("check") else "")
              + (f"; peer: {r['peer_name']}" if r.get("peer_name") else ""), flush=True)


if __name__ == "__main__":
    main()
