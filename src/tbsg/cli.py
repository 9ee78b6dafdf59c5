"""The ``tbsg`` command line.

Commands
--------
``tbsg list``
    The catalog games, their parameters and sources.
``tbsg solve GAME [--param NAME=VALUE ...] [--float] [--save FILE] [--format FMT] [--table]``
    Solve a catalog game: value, sizes, time, and (exact) the verified certificate;
    ``--table`` prints the per-state table (value, optimal actions, margin) instead, as
    ``md``, ``latex``, ``csv`` or ``json``.
``tbsg verify FILE [--import-game]``
    Rebuild the game of a saved solution, check every field of the file, re-verify it
    exactly; exit status 1 if the file is rejected.
``tbsg reproduce [--only GAME ...] [--json]``
    Recompute every published number of the catalog and compare it with the source;
    the exit status is 1 on an undeclared mismatch, or on a declared discrepancy that now
    matches, computes another value, or names no row.

Errors in the input (a bad parameter, a game that breaks the model, an unreadable file)
are reported in one line on standard error with exit status 1, never as a traceback.
``tbsg risk-or-safety N [--float]``
    Solve Risk or Safety to ``N`` points and print the value, the coin table and the
    verification of the certificate.
"""

from __future__ import annotations

import argparse
import os
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
    from tbsg.catalog import CATALOG
    from tbsg.reproduce import format_json, format_table, reproduce

    unknown = [g for g in args.only or () if g not in CATALOG]
    if unknown:
        parser.error(f"unknown game {', '.join(unknown)}; choose from {', '.join(CATALOG)}")

    def progress(name: str) -> None:
        if not args.json:
            print(f"solving {name} ...", file=sys.stderr, flush=True)

    report = reproduce(args.only, progress=progress)
    print(format_json(report) if args.json else format_table(report))
    return 0 if report.ok else 1


def _list(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from tbsg.catalog import CATALOG

    for entry in CATALOG.values():
        params = ", ".join(map(str, entry.parameters()))
        print(f"{entry.name}({params})\n    {entry.source}")
    return 0


def _parse_params(pairs: Sequence[str], parser: argparse.ArgumentParser) -> dict[str, str]:
    values: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            parser.error(f"--param takes NAME=VALUE, got {pair!r}")
        values[name.strip()] = value.strip()
    return values


def _solve(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import json

    import tbsg
    from tbsg._digits import fraction_text, short_fraction
    from tbsg.catalog import CATALOG
    from tbsg.errors import InvalidGameError
    from tbsg.outputs.persist import save

    entry = CATALOG.get(args.game)
    if entry is None:
        parser.error(f"unknown game {args.game!r}; choose from {', '.join(CATALOG)}")
    try:
        game = entry.make(_parse_params(args.param or (), parser))
    except InvalidGameError as exc:
        parser.error(str(exc))
    if args.table:
        return _print_table(game, args, parser)
    if args.format not in ("text", "json"):
        parser.error(f"--format {args.format} needs --table (without it: text or json)")
    if args.float:
        fsol = tbsg.solve(game, exact=False, tol=args.tol)
        lo, hi = fsol.bounds()
        if args.format == "json":
            print(json.dumps({"game": entry.name, "parameters": repr(game), "lower": lo, "upper": hi,
                              "states": fsol.n_states, "seconds": fsol.seconds,
                              "converged": fsol.converged}, indent=2))
        else:
            print(fsol)
            print(f"value of {game!r} in [{lo!r}, {hi!r}]")
        if args.save is not None:
            parser.error("--save needs an exact solution (drop --float)")
        return 0
    sol = tbsg.solve(game)
    check = tbsg.verify(game, sol)
    if args.format == "json":
        print(json.dumps({"game": entry.name, "parameters": repr(game), "value": fraction_text(sol.value()),
                          "value_decimal": f"{float(sol.value()):.17g}", "states": sol.n_states,
                          "components": sol.n_components, "seconds": sol.seconds,
                          "verified": True}, indent=2))
    else:
        print(sol)
        print(f"value of {game!r} = {short_fraction(sol.value(), 2000)} ≈ {float(sol.value()):.15f}")
        print(check)
    if args.save is not None:
        save(sol, args.save)
        if args.format != "json":
            print(f"saved to {args.save}")
    return 0


def _print_table(game: object, args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import json

    import tbsg
    from tbsg.outputs.tables import state_table

    if args.save is not None:
        parser.error("--save and --table do not combine; save first, then print the table")
    sol = tbsg.solve(game, exact=False, tol=args.tol) if args.float else tbsg.solve(game)  # type: ignore[call-overload]
    table = state_table(sol)
    if args.format in ("text", "md"):
        print(table.to_markdown())
    elif args.format == "latex":
        print(table.to_latex())
    elif args.format == "csv":
        print(table.to_csv(), end="")
    else:
        print(json.dumps(table.records(), default=_json_value, indent=1))
    return 0


def _json_value(x: object) -> object:
    """JSON for the values of table records: exact fractions as ``"p/q"`` of any size."""
    from fractions import Fraction

    from tbsg._digits import fraction_text

    return fraction_text(x) if isinstance(x, Fraction) else str(x)


def _verify(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from tbsg._digits import short_fraction
    from tbsg.errors import TbsgError
    from tbsg.outputs.persist import load

    try:
        sol = load(args.file, check=False, import_game=args.import_game)
        from tbsg.certificate import verify

        check = verify(sol.game, sol)  # type: ignore[arg-type]
    except TbsgError as exc:
        print(f"tbsg verify: REJECTED: {exc}", file=sys.stderr)
        return 1
    print(f"{args.file}: {sol.game!r}, {sol.kind.value}, value {short_fraction(sol.value(), 2000)}")
    print(f"every field checked, graph hash matches; {check}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tbsg`` console script; returns the exit status."""
    from tbsg.catalog import CATALOG

    parser = argparse.ArgumentParser(
        prog="tbsg", description="Exact solutions of two-player turn-based stochastic games.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    lst = sub.add_parser("list", help="list the catalog games and their parameters",
                         description="List the catalog games, their parameters and sources.")
    lst.set_defaults(run=_list)
    slv = sub.add_parser(
        "solve", help="solve a catalog game",
        description="Solve a catalog game exactly (default, with the verified certificate) "
                    "or with float bounds (--float).")
    slv.add_argument("game", metavar="GAME", help=f"catalog game: {', '.join(CATALOG)}")
    slv.add_argument("--param", "-p", action="append", metavar="NAME=VALUE",
                     help="a parameter of the game (repeatable), e.g. --param target=20")
    slv.add_argument("--float", action="store_true", help="float bounds instead of exact values")
    slv.add_argument("--tol", type=float, default=1e-12, help="float path: bound gap (default 1e-12)")
    slv.add_argument("--format", choices=("text", "json", "md", "latex", "csv"), default="text",
                     help="output format (md, latex, csv with --table)")
    slv.add_argument("--table", action="store_true",
                     help="print the per-state table: value, optimal actions, margin")
    slv.add_argument("--save", metavar="FILE", help="save the exact solution (JSON) to FILE")
    slv.set_defaults(run=_solve)
    ver = sub.add_parser(
        "verify", help="re-verify a saved solution",
        description="Rebuild the game of a saved solution from the catalog, check the graph "
                    "hash and every row, and re-verify the certificate in exact arithmetic. "
                    "Exit status 1 if the file is rejected.")
    ver.add_argument("file", metavar="FILE", help="a file written by tbsg solve --save or tbsg.save")
    ver.add_argument("--import-game", action="store_true",
                     help="import the module the file names to rebuild a game from outside tbsg "
                          "(runs that module's code: only for files you trust)")
    ver.set_defaults(run=_verify)
    rep = sub.add_parser(
        "reproduce", help="recompute every published number of the catalog",
        description="Solve every catalog game and compare each published number with the "
                    "computed one. Exit status 1 on an undeclared mismatch, or on a declared "
                    "discrepancy of a source that now matches, computes another value or names "
                    "no row.")
    rep.add_argument("--only", action="append", metavar="GAME",
                     help=f"restrict to this game (repeatable): {', '.join(CATALOG)}")
    rep.add_argument("--json", action="store_true", help="print the rows as JSON")
    rep.set_defaults(run=_reproduce)
    ros = sub.add_parser("risk-or-safety", help="solve Risk or Safety exactly and print the coin table")
    ros.add_argument("target", type=int, nargs="?", default=6, help="points to win (default 6)")
    ros.add_argument("--float", action="store_true", help="float bounds instead of exact values")
    ros.set_defaults(run=_risk_or_safety)
    args = parser.parse_args(argv)
    from tbsg.errors import TbsgError

    try:
        status: int = args.run(args, parser)
    except BrokenPipeError:  # output piped into e.g. `head`: stop quietly
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (must outlive this function)
        return 0
    except TbsgError as exc:  # bad input: one line, no traceback
        print(f"tbsg {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except MemoryError:
        print(f"tbsg {args.command}: error: out of memory (a game too large for this machine, or "
              "parameters that build one)", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"tbsg {args.command}: interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
