"""tbsg against peer systems on the same games, side by side in one run, as ratios.

The peers are the scripts of ``../shared/peers`` (see its README): OpenSpiel's value
iteration on Piglet (= Risk or Safety) and Pig, Storm on the Risk or Safety best response
(an MDP: Storm cannot solve the game itself) and on the Markov chain of one Risk or Safety
profile (both players bank their first head: expected tosses, P(win), and P(win) as a
rational function of P(heads)), QuantEcon's ``DiscreteDP`` and the Riddler seed's own
dynamic program on Coinball. Every row is the same model on both sides (the same states,
the same question). Each peer runs in a child process with the peers' interpreter and
reports its own solve time, model construction included (after a warm-up run of its own);
tbsg runs in this process on the same game, enumeration included, after one untimed
warm-up run of the same case, as the median of three runs. The table prints both times
and ``peer / tbsg``, plus the largest difference between the two values (the peers'
values are floats; tbsg's exact ones are compared after conversion, its float ones by
their proven interval). Storm's chain rows (``(DRN)``) time the reading of a model file that
the peer script writes, from its own enumeration of the chain, before its timer starts;
tbsg's time includes enumerating the chain from the game. Its best-response rows build the
model from a PRISM program inside the timer, as tbsg does from the game.

Usage::

    python benchmarks/bench_peers.py --peers-python $PEERS/bin/python [--only NAME] [--peer NAME]
        [--repeat N] [--long]

``$PEERS`` is a virtual environment with ``open-spiel cvxpy quantecon stormpy`` (the peers
README has the command); a peer whose package is missing is reported as unavailable. The
default cases take a few minutes (OpenSpiel dominates); ``--long`` adds the slow ones
(OpenSpiel Piglet 30 and Pig 30, Storm exact at 100).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

import sympy

import tbsg
from tbsg.games import biased_risk_or_safety, coinball, pig, piglet, risk_or_safety
from tbsg.games.risk_or_safety import RoSState

PEERS = Path(__file__).resolve().parents[2] / "shared" / "peers"

Answer = tuple[float, float, str]  # (low, high, how): a point when exact
Runner = Callable[[], Answer]


@dataclass(frozen=True)
class Case:
    """One game instance: the peer's command line and tbsg's way of solving it."""

    name: str
    peer: str
    script: str
    args: tuple[str, ...]
    tbsg: Runner
    long: bool = False


def _exact(solve: Callable[[], tbsg.Solution[Any, Any]]) -> Runner:
    def run() -> Answer:
        v = float(solve().value())
        return v, v, "exact"
    return run


def _float(solve: Callable[[], tbsg.FloatSolution[Any, Any]]) -> Runner:
    def run() -> Answer:
        lo, hi = solve().bounds()
        return lo, hi, "float 1e-12"
    return run


def _bank(s: RoSState) -> Literal["toss", "stop"]:
    return "stop" if s.open >= 1 else "toss"


# "bank at the first head" as a user writes it for a game with an array form: the function
# (the definition) and its array form (column 1 is ``open``; codes index the actions)
_bank_at_first_heads = tbsg.ArrayStrategy(_bank, lambda rows: rows[:, 1] >= 1, ("toss", "stop"))


def _toss(s: object, a: object) -> int:
    return int(a == "toss")


def _chain_tosses(n: int, exact: bool) -> Runner:
    """Expected number of tosses of the chain where both players bank their first head."""
    def run() -> Answer:
        c = tbsg.chain(risk_or_safety(n), _bank_at_first_heads)
        if exact:
            v = float(c.expected_steps(_toss))
            return v, v, "exact"
        lo, hi = c.expected_steps(_toss, exact=False)
        return lo, hi, f"float {(hi - lo) / hi:.0e}"  # the proven relative gap
    return run


def _chain_win(n: int) -> Runner:
    """P(player 0 wins) on the same chain, exactly."""
    def run() -> Answer:
        v = float(tbsg.chain(risk_or_safety(n), _bank_at_first_heads).value())
        return v, v, "exact"
    return run


def _chain_parametric(n: int) -> Runner:
    """P(player 0 wins) on the same chain as a rational function of P(heads) = p, read at
    p = 1/2 (as the peer prints it)."""
    def run() -> Answer:
        p = sympy.Symbol("p")
        ev = tbsg.evaluate_parametric(biased_risk_or_safety(n, p), p, _bank_at_first_heads)
        v = float(ev.value(at=Fraction(1, 2)))
        return v, v, "parametric"
    return run


def _coinball_vs(action: str) -> Callable[[], tbsg.Solution[Any, Any]]:
    return lambda: tbsg.best_response(coinball(100), 0, lambda s: action)


def cases() -> list[Case]:
    ros_br = "Risk or Safety {n}, best response to 'bank at first heads'"
    return [
        Case("Piglet 20 (= Risk or Safety 20)", "OpenSpiel VI 1e-12", "openspiel_pig.py", ("20",),
             _exact(lambda: tbsg.solve(piglet(20)))),
        Case("Piglet 20 (= Risk or Safety 20)", "OpenSpiel VI 1e-12", "openspiel_pig.py", ("20",),
             _float(lambda: tbsg.solve(piglet(20), exact=False))),
        Case("Piglet 30 (= Risk or Safety 30)", "OpenSpiel VI 1e-12", "openspiel_pig.py", ("30",),
             _exact(lambda: tbsg.solve(piglet(30))), long=True),
        Case("Pig 20 (d6)", "OpenSpiel VI 1e-12", "openspiel_pig.py", ("20", "--game", "pig"),
             _exact(lambda: tbsg.solve(pig(20)))),
        Case("Pig 20 (d6)", "OpenSpiel VI 1e-12", "openspiel_pig.py", ("20", "--game", "pig"),
             _float(lambda: tbsg.solve(pig(20), exact=False))),
        Case("Pig 30 (d6)", "OpenSpiel VI 1e-12", "openspiel_pig.py", ("30", "--game", "pig"),
             _exact(lambda: tbsg.solve(pig(30))), long=True),
        Case(ros_br.format(n=30), "Storm float 1e-12", "storm_ros.py",
             ("30", "--precision", "1e-12"),
             _float(lambda: tbsg.best_response(risk_or_safety(30), 0, _bank_at_first_heads,
                                               exact=False))),
        Case(ros_br.format(n=30), "Storm exact", "storm_ros.py", ("30", "--exact"),
             _exact(lambda: tbsg.best_response(risk_or_safety(30), 0, _bank_at_first_heads))),
        Case(ros_br.format(n=50), "Storm exact", "storm_ros.py", ("50", "--exact"),
             _exact(lambda: tbsg.best_response(risk_or_safety(50), 0, _bank_at_first_heads))),
        Case(ros_br.format(n=100), "Storm exact", "storm_ros.py", ("100", "--exact"),
             _exact(lambda: tbsg.best_response(risk_or_safety(100), 0, _bank_at_first_heads)),
             long=True),
        Case("Coinball 100 vs always rush", "seed DP", "seed_coinball.py",
             ("100", "--strategy", "rush"), _exact(_coinball_vs("rush"))),
        Case("Coinball 100 vs always pass", "seed DP", "seed_coinball.py",
             ("100", "--strategy", "pass"), _exact(_coinball_vs("pass"))),
        Case("Coinball 100, both optimal", "seed DP", "seed_coinball.py",
             ("100", "--strategy", "optimal"), _exact(lambda: tbsg.solve(coinball(100)))),
        Case("Coinball 100 vs always rush", "QuantEcon DiscreteDP (m, y)", "quantecon_coinball.py",
             ("100",), _exact(_coinball_vs("rush"))),
        *_chain_cases(),
    ]


def _chain_cases() -> list[Case]:
    """The rows of ``storm_chain.py``: the chain of "bank at the first head" for both."""
    name = "Risk or Safety {n} chain (both bank first head): {q}"
    return [
        *(row for n in (30, 100) for row in (
            Case(name.format(n=n, q="E tosses"), "Storm exact (DRN)", "storm_chain.py", (str(n),),
                 _chain_tosses(n, True)),
            Case(name.format(n=n, q="E tosses"), "Storm float 1e-12 (DRN)", "storm_chain.py",
                 (str(n), "--mode", "float", "--precision", "1e-12"), _chain_tosses(n, False)))),
        Case(name.format(n=30, q="P(win)"), "Storm exact (DRN)", "storm_chain.py",
             ("30", "--query", "win"), _chain_win(30)),
        Case(name.format(n=12, q="P(win)(p)"), "Storm parametric (DRN)", "storm_chain.py",
             ("12", "--query", "win", "--mode", "parametric"), _chain_parametric(12)),
    ]


_LAST = re.compile(r"value=(\S+) seconds=([0-9.]+)")


def run_peer(python: str, case: Case, timeout: float) -> tuple[float | None, float | None, str]:
    """The peer's value and seconds (its own report), or Nones and the reason."""
    try:
        done = subprocess.run([python, str(PEERS / case.script), *case.args], capture_output=True,
                              text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return None, None, f"timed out after {timeout:.0f} s"
    match = _LAST.search(done.stdout.strip().splitlines()[-1]) if done.stdout.strip() else None
    if done.returncode != 0 or match is None:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return None, None, f"unavailable ({last[:70]})"
    text, seconds = match.groups()
    value = None if text == "None" else float(Fraction(text)) if "/" in text else float(text)
    return value, float(seconds), ""


def _timed(runner: Runner, runs: int = 3) -> tuple[float, float, str, float]:
    """tbsg's answer and its median time over ``runs`` runs, after an untimed warm-up (as
    the peer scripts warm up before they time)."""
    runner()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        lo, hi, how = runner()
        times.append(time.perf_counter() - t)
    return lo, hi, how, sorted(times)[runs // 2]


def _measured(python: str, case: Case, timeout: float, repeat: int
              ) -> tuple[float | None, float | None, str, tuple[float, float, str, float], str]:
    """The peer's value and seconds, the reason it has none, tbsg's answer and seconds,
    and (``repeat > 1``) the range of the ratios: peer and tbsg run ``repeat`` times in
    turn, and the seconds are the medians of their runs."""
    peer_runs: list[float] = []
    tbsg_runs: list[float] = []
    value, why = None, ""
    answer = (0.0, 0.0, "", 0.0)
    for _ in range(repeat):
        value, seconds, why = run_peer(python, case, timeout)
        answer = _timed(case.tbsg)
        tbsg_runs.append(answer[3])
        if seconds is not None:
            peer_runs.append(seconds)
    tb = statistics.median(tbsg_runs)
    seconds = statistics.median(peer_runs) if len(peer_runs) == repeat else None
    spread = ""
    if seconds is not None and repeat > 1:
        ratios = [p / t for p, t in zip(peer_runs, tbsg_runs, strict=True)]
        spread = f"  ({repeat} runs: ratios {min(ratios):.2f}-{max(ratios):.2f}x)"
    return value, seconds, why, (*answer[:3], tb), spread


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--peers-python", default=os.environ.get("TBSG_PEERS_PYTHON", sys.executable),
                    help="interpreter of the peers' virtual environment ($TBSG_PEERS_PYTHON)")
    ap.add_argument("--only", help="run the cases whose name contains this text")
    ap.add_argument("--peer", help="run the cases whose peer contains this text")
    ap.add_argument("--repeat", type=int, default=1,
                    help="run each case this many times (peer and tbsg in turn) and report medians")
    ap.add_argument("--long", action="store_true", help="add the slow cases (minutes each)")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds allowed per peer run")
    args = ap.parse_args()
    chosen = [c for c in cases() if (args.long or not c.long)
              and (args.only is None or args.only.lower() in c.name.lower())
              and (args.peer is None or args.peer.lower() in c.peer.lower())]
    print(f"peers: {PEERS} with {args.peers_python}")
    print(f"{'game':<58} {'peer':<28} {'peer s':>8} {'tbsg':<12} {'tbsg s':>8} {'peer/tbsg':>9}"
          f" {'|diff|':>8}")
    for case in chosen:
        value, seconds, why, (lo, hi, how, tb), spread = _measured(
            args.peers_python, case, args.timeout, max(1, args.repeat))
        if seconds is None:
            print(f"{case.name:<58} {case.peer:<28} {'-':>8} {how:<12} {tb:>8.3f} {'-':>9} {'-':>8}"
                  f"  {why}", flush=True)
            continue
        diff = "-" if value is None else f"{max(0.0, lo - value, value - hi):.1e}"
        ratio = f"{seconds / tb:.1f}x"
        print(f"{case.name:<58} {case.peer:<28} {seconds:>8.3f} {how:<12} {tb:>8.3f} {ratio:>9}"
              f" {diff:>8}{spread}", flush=True)


if __name__ == "__main__":
    main()
