"""A reward or score game against the win-probability game of the same graph.

Each catalog game is wrapped in a plain-protocol class (``initial``, ``player``,
``actions``, ``outcomes`` delegated; no array form, which a game with ``reward`` does not
use), and three variants of the same states and actions are solved beside it:

* ``reward 0``: the same game with a ``reward`` method that pays 0 (the cost of asking);
* ``score +-1``: every terminal payoff ``x`` mapped to ``2x - 1`` (a score game: the same
  optimal strategies, values ``2v - 1``, no longer a win-probability game);
* ``score + reward``: the score game paying ``-1/100`` for every move of player 0 (a
  different objective, whose exact values are longer rationals).

Rows print the median CPU seconds of ``rounds`` runs, the variants interleaved in one
process, and each variant's ratio to the win-probability game. Usage::

    python benchmarks/bench_rewards.py [--rounds 3] [--float [--tol 4e-12]]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

import tbsg
import tbsg.games as G


class Plain:
    """A catalog game through its plain protocol only."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.initial = game.initial

    def player(self, s: Hashable) -> int:
        return int(self.game.player(s))

    def actions(self, s: Hashable) -> Any:
        return self.game.actions(s)

    def outcomes(self, s: Hashable, a: Hashable) -> Any:
        return self.game.outcomes(s, a)


class ZeroReward(Plain):
    """The same game asking ``reward``, which pays 0."""

    def reward(self, s: Hashable, a: Hashable) -> int:
        return 0


class Score(Plain):
    """Terminal payoffs ``x`` mapped to ``2x - 1``: a score game of the same graph."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self._mapped: dict[tbsg.Terminal, tbsg.Terminal] = {}

    def outcomes(self, s: Hashable, a: Hashable) -> Any:
        out = []
        for p, t in self.game.outcomes(s, a):
            if isinstance(t, tbsg.Terminal):
                m = self._mapped.get(t)
                if m is None:
                    m = self._mapped[t] = tbsg.Terminal(2 * t.payoff - 1)
                t = m
            out.append((p, t))
        return out


class ScoreReward(Score):
    """The score game paying ``-1/100`` for each of player 0's moves."""

    COST = Fraction(-1, 100)

    def reward(self, s: Hashable, a: Hashable) -> Fraction | int:
        return self.COST if self.game.player(s) == 0 else 0


VARIANTS: dict[str, Callable[[Any], Plain]] = {
    "win": Plain, "reward 0": ZeroReward, "score +-1": Score, "score + reward": ScoreReward}
GAMES: dict[str, Callable[[], Any]] = {"Risk or Safety 60": lambda: G.risk_or_safety(60),
                                      "Pig 50": lambda: G.pig(50)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--float", action="store_true", help="solve in float (proven bounds)")
    parser.add_argument("--tol", type=float, default=4e-12,
                        help="float gap for every variant (a score of range 2 has twice the gap)")
    args = parser.parse_args()
    kind = "float" if args.float else "exact"
    print(f"{'game':20} {'variant':16} {kind + ' s':>9} {'/ win':>7}  value")
    for name, make in GAMES.items():
        times: dict[str, list[float]] = {v: [] for v in VARIANTS}
        values: dict[str, str] = {}
        for _ in range(args.rounds):
            for v, wrap in VARIANTS.items():
                game = wrap(make())
                gc.collect()
                t = time.process_time()
                sol = tbsg.solve(game, exact=False, tol=args.tol) if args.float else tbsg.solve(game)
                times[v].append(time.process_time() - t)
                values[v] = f"{float(sol.value()):.6f}" + ("" if sol.win_probability else " (score)")
        base = statistics.median(times["win"])
        for v in VARIANTS:
            m = statistics.median(times[v])
            print(f"{name:20} {v:16} {m:9.3f} {m / base:7.2f}  {values[v]}")


if __name__ == "__main__":
    main()
