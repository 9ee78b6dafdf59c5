"""The ``tbsg`` command line.

Commands
--------
``tbsg reproduce [--only GAME ...] [--json]``
    Recompute every published number of the catalog and compare it with the source;
    the exit status is 1 if any row does not match.
``tbsg risk-or-safety N [--float]``
    Solve Risk or Safety to ``N`` points and print the value, the coin table and the
    verification of the certificate.
"""

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


def _risk_or_safety(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import tbsg
    from tbsg.games import risk_or_safety

    if args.target < 1:
        parser.error(f"target must be at least 1, got {args.target}")
    game = risk_or_safety(args.target)
    if args.float:
        print(tbsg.solve(game, exact=False))
        return 0
    sol = tbsg.solve(game)
    print(sol)
    print(f"P(0,0,0) = {sol.value()} ≈ {float(sol.value()):.15f}")
    if args.target >= 2:
        print("coins to toss (rows: points I need, columns: points the opponent needs):")
        print(_coin_table(args.target))
    print(tbsg.verify(game, sol))
    return 0


def _reproduce(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from tbsg.reproduce import CATALOG, format_json, format_table, reproduce

    unknown = [g for g in args.only or () if g not in CATALOG]
    if unknown:
        parser.error(f"unknown game {', '.join(unknown)}; choose from {', '.join(CATALOG)}")

    def progress(name: str) -> None:
        if not args.json:
            print(f"solving {name} ...", file=sys.stderr, flush=True)

    report = reproduce(args.only, progress=progress)
    print(format_json(report) if args.json else format_table(report))
    return 0 if report.ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tbsg`` console script; returns the exit status."""
    from tbsg.reproduce import CATALOG

    parser = argparse.ArgumentParser(
        prog="tbsg", description="Exact solutions of two-player turn-based stochastic games.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rep = sub.add_parser(
        "reproduce", help="recompute every published number of the catalog",
        description="Solve every catalog game and compare each published number with the "
                    "computed one. Exit status 1 if any row does not match.")
    rep.add_argument("--only", action="append", metavar="GAME",
                     help=f"restrict to this game (repeatable): {', '.join(CATALOG)}")
    rep.add_argument("--json", action="store_true", help="print the rows as JSON")
    rep.set_defaults(run=_reproduce)
    ros = sub.add_parser("risk-or-safety", help="solve Risk or Safety exactly and print the coin table")
    ros.add_argument("target", type=int, nargs="?", default=6, help="points to win (default 6)")
    ros.add_argument("--float", action="store_true", help="float bounds instead of exact values")
    ros.set_defaults(run=_risk_or_safety)
    args = parser.parse_args(argv)
    status: int = args.run(args, parser)
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
