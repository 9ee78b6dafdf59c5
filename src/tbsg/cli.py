"""The ``tbsg`` command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

__all__ = ["main"]


def _coin_table(target: int) -> str:
    from tbsg.games.risk_or_safety import risk_or_safety_coin_table

    table = risk_or_safety_coin_table(target)
    width = max(2, len(str(target)))
    header = "need\\opp " + " ".join(f"{j:>{width}}" for j in range(2, target + 1))
    lines = [header]
    for i in range(2, target + 1):
        lines.append(f"{i:>8} " + " ".join(f"{table[i, j]:>{width}}" for j in range(2, target + 1)))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tbsg`` console script."""
    import tbsg
    from tbsg.games import risk_or_safety

    parser = argparse.ArgumentParser(prog="tbsg", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    ros = sub.add_parser("risk-or-safety", help="solve Risk or Safety exactly and print the coin table")
    ros.add_argument("target", type=int, nargs="?", default=6, help="points to win (default 6)")
    ros.add_argument("--float", action="store_true", help="float bounds instead of exact values")
    args = parser.parse_args(argv)
    if args.command == "risk-or-safety":
        if args.target < 1:
            parser.error(f"target must be at least 1, got {args.target}")
        game = risk_or_safety(args.target)
        if args.float:
            fsol = tbsg.solve(game, exact=False)
            print(fsol)
            return 0
        sol = tbsg.solve(game)
        print(sol)
        print(f"P(0,0,0) = {sol.value()} ≈ {float(sol.value()):.15f}")
        if args.target >= 2:
            print("coins to toss (rows: points I need, columns: points the opponent needs):")
            print(_coin_table(args.target))
        print(tbsg.verify(game, sol))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
