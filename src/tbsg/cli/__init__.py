"""The ``tbsg`` command line.

Commands
--------
``tbsg list``
    The catalog games, their parameters and sources.
``tbsg solve GAME [-p NAME=VALUE ...] [--float [--tol TOL] | --infinite-play C] [--max-states N]
[--save FILE] [--no-verify] [--table [--decimals N]] [--format text|md|latex|csv|json]
[--digits N] [--exact-digits] [--provenance] [--play [--count MODULE:FUNCTION]]``
    Solve a game: the value, the optimal actions at the initial state, the number of
    states and components, the time, and (exact) the verified certificate; float: the
    proven bounds and their gap. ``--table`` prints the per-state table instead.
    ``--play`` adds how play goes under the solution's strategy (:func:`tbsg.chain`): the
    outcome split, the expected length (in moves, or what ``--count`` counts) and its
    variance, and for exact solutions the fastest and slowest optimal play.
``tbsg verify FILE [--game GAME [-p NAME=VALUE ...] | --import-game] [--max-states N]
[--provenance]``
    Rebuild the game of a saved solution, check every field of the file and re-verify
    the certificate exactly. ``tbsg solve GAME -p ... --save FILE`` records ``GAME`` (a
    file's path relative to FILE's folder) and the ``-p`` texts, so ``tbsg verify FILE``
    rebuilds the same game from the file alone: a catalog game, or code in FILE's folder
    (or below). Code elsewhere is named with ``--game GAME`` (the file's parameters are
    used; ``-p`` only for files that record none) or, for a file you trust, imported with
    ``--import-game``.
``tbsg simulate GAME [-p NAME=VALUE ...] [-n N] [--seed S] [--strategy MODULE:FUNCTION] ...``
    Play N games under the solver's strategy (or your own function) and print the outcome
    frequencies, mean payoff and length with confidence intervals (:mod:`tbsg.cli._simulate`).
``tbsg play GAME [-p NAME=VALUE ...] [--as 0|1] [--seed S]``
    Play against the solver at the prompt, every action's value shown (:mod:`tbsg.cli._play`).
``tbsg reproduce [--only GAME ...] [--json]``
    Recompute every published number of the catalog and compare it with the source.
``tbsg cite [--format bibtex|apa]``
    How to cite tbsg, from ``CITATION.cff``.

Games
-----
``GAME`` is a catalog name (``tbsg list``), ``module:factory`` (imported with the current
directory on the import path) or ``path/to/file.py:factory``, where ``factory`` is a
class or function returning the game. ``-p NAME=VALUE`` gives its parameters, converted
by the factory's annotations (``int``, ``bool``, ``str``, ``float``, ``Fraction`` such as
``1/3`` or ``0.25``, ``Literal`` choices); unannotated parameters become a bool
(``true``/``false``), an int, an exact ``Fraction`` (``1/3``, ``0.25``) or else a string.
A number has at most 4,300 digits (and a decimal exponent at most 4,300), and a catalog
game's parameters lie in the ranges the catalog declares (``die`` at most 100,000): a
usage error otherwise, before anything is built. See :mod:`tbsg.cli._games`.

Output
------
``--format`` applies with and without ``--table``: ``text`` (aligned, for reading),
``md`` (a Markdown table), ``latex`` (booktabs), ``csv`` and ``json``. Exact values are
written in full in every format except ``text``, where a fraction longer than 60
characters is shortened to a decimal and its size (``--exact-digits``: in full).
``--digits N`` sets the significant digits of decimals (default 15), rounded from the
exact value; proven float bounds are rounded outward (down and up). ``--table --decimals
N`` writes every exact value as a decimal of ``N`` significant digits only, no fractions
(for large games, whose fractions of thousands of digits make tables of megabytes). JSON
has the game's parameters as an object, exact values as ``"p/q"`` strings, and for float
solutions the bounds and their gap.

``tbsg --version`` prints the version of tbsg, its exact backend and Python.

Exit status
-----------
0: done. 1: a saved file that was checked and is wrong (``verify``: REJECTED), a game
that breaks the model while solving, a tolerance not reached, a published number not
reproduced. 2: a usage error (the subcommand's usage and an example are printed), or a
file that cannot be checked (``verify``: CANNOT CHECK, e.g. its game cannot be imported or
rebuilt). 130: interrupted. Errors are one line on standard error, never a traceback.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import sys
import textwrap
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, NoReturn, cast

__all__ = ["main"]

_EXAMPLES = {
    "list": ["tbsg list"],
    "solve": ["tbsg solve risk_or_safety -p target=6",
              "tbsg solve pig -p goal=100 --float --tol 1e-12",
              "tbsg solve ./mygame.py:MyGame -p goal=20 -p p=1/3 --save mygame.json",
              "tbsg solve mypackage.games:make_game --table --format csv",
              "tbsg solve ./mygame.py:MyGame --play --count ./mygame.py:tosses"],
    "verify": ["tbsg verify solution.json",
               "tbsg verify mygame.json --game ./mygame.py:MyGame"],
    "reproduce": ["tbsg reproduce --only pig"],
    "cite": ["tbsg cite --format bibtex"],
}
_SHORT = 60
"""Longest fraction the text format prints in full without ``--exact-digits``."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors print its own usage and an example (exit status 2)."""

    examples: Sequence[str] = ()

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        lines = [f"{self.prog}: error: {message}"]
        if self.examples:
            lines.append("example: " + self.examples[0])
        self.exit(2, "\n".join(lines) + "\n")


class _CannotCheck(Exception):
    """``tbsg verify``: the file was not judged (exit status 2)."""


# --- shared helpers -----------------------------------------------------------------------------

def _positive_float(text: str) -> float:
    from tbsg.errors import show

    try:
        x = float(text) if len(text) <= 100 else math.nan
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive number such as 1e-12, got "
                                         f"{show(text, 40)}") from None
    if not (math.isfinite(x) and x > 0):
        raise argparse.ArgumentTypeError(f"must be a positive finite number such as 1e-12, got "
                                         f"{show(text, 40)}")
    return x


def _positive_int(text: str) -> int:
    from tbsg.errors import show

    if len(text.strip()) > 20:  # more than any count of states or digits this machine holds
        raise argparse.ArgumentTypeError(f"must be an integer of at most 20 digits, got {show(text, 40)}")
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {show(text, 40)}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {n}")
    return n


def _payoff(text: str) -> Fraction:
    """An ``--infinite-play`` payoff: an exact rational in [0, 1] (``0``, ``1/2``, ``0.25``)."""
    from tbsg.cli._games import convert_text
    from tbsg.errors import InvalidArgumentError, show

    try:
        value = convert_text(text, "the payoff")
    except InvalidArgumentError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)) or not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"expected an exact payoff in [0, 1] such as 0, 1/2 or 0.25, "
                                         f"got {show(text, 60)}")
    return Fraction(value)


def _build_game(parser: _Parser, spec_text: str, params: Sequence[str] | None
                ) -> tuple[Any, Any, dict[str, str]]:
    """The game spec and the game of ``GAME -p ...``; every problem is a usage error."""
    from tbsg.cli._games import parse_assignments, resolve
    from tbsg.errors import TbsgError

    try:
        texts = parse_assignments(params or ())
        spec = resolve(spec_text)
        return spec, spec.build(texts), texts
    except TbsgError as exc:
        parser.error(str(exc))


def _command_line(name: str, texts: dict[str, str]) -> str:
    from tbsg.certify.persist import command_line

    return command_line(name, texts)


def _count(parser: _Parser, text: str) -> Callable[[Any, Any], Any]:
    """The ``--count`` function; a problem importing it is a usage error."""
    from tbsg.cli._games import resolve_function
    from tbsg.errors import TbsgError

    try:
        return resolve_function(text, "--count")
    except TbsgError as exc:
        parser.error(str(exc))


# --- tbsg list ----------------------------------------------------------------------------------

def _list(args: argparse.Namespace, parser: _Parser) -> int:
    from tbsg.cli._games import resolve
    from tbsg.games.registry import CATALOG

    for entry in CATALOG.values():
        print(f"{entry.name}({resolve(entry.name).describe()})\n    {entry.source}")
    print("\nA game of your own: tbsg solve path/to/file.py:FACTORY -p NAME=VALUE "
          "(or MODULE:FACTORY; see tbsg solve --help)")
    return 0


# --- tbsg solve ---------------------------------------------------------------------------------

def _check_solve_options(args: argparse.Namespace, parser: _Parser) -> None:
    """Every combination of options, before anything is imported or solved."""
    if args.tol is not None and not args.float:
        parser.error("--tol sets the gap of float bounds: add --float (exact solutions have no gap)")
    if args.float and args.infinite_play is not None:
        parser.error("--infinite-play needs an exact solve (the float path solves stopping games only); "
                     "drop --float")
    if args.float and args.no_verify:
        parser.error("--no-verify skips the exact certificate; a float solve has none: drop it")
    if args.float and args.save is not None:
        parser.error("--save writes exact solutions (a certificate that tbsg verify re-checks); "
                     "drop --float, or drop --save")
    if args.count is not None and not args.play:
        parser.error("--count says what a step of play counts: add --play")
    if args.table and args.play:
        parser.error("--play adds lines to the summary; --table prints the per-state table instead: "
                     "drop one")
    if args.decimals is not None and not args.table:
        parser.error("--decimals N writes the per-state table with decimals only: add --table "
                     "(--digits N sets the decimals of the summary)")
    if args.exact_digits and args.format != "text":
        parser.error(f"--exact-digits is for --format text (--format {args.format} always writes "
                     "exact values in full)")
    if args.save is not None:
        target = Path(args.save)
        if target.is_dir():
            parser.error(f"--save {args.save}: a directory, not a file")
        if not target.parent.is_dir():
            parser.error(f"--save {args.save}: no directory {str(target.parent)!r}")


def _solve(args: argparse.Namespace, parser: _Parser) -> int:
    import tbsg
    from tbsg.cli._report import play_summary, solve_report, table_report

    _check_solve_options(args, parser)
    spec, game, texts = _build_game(parser, args.game, args.param)
    sol: tbsg.Solution[Any, Any] | tbsg.FloatSolution[Any, Any]
    check = None
    unreached: tbsg.ToleranceError | None = None
    if args.float:
        try:
            sol = tbsg.solve(game, exact=False, tol=args.tol, max_states=args.max_states)
        except tbsg.ToleranceError as exc:  # print the bounds found (they hold), then the error
            unreached = exc
            sol = cast("tbsg.FloatSolution[Any, Any]", exc.solution)
    else:
        sol = tbsg.solve(game, max_states=args.max_states, infinite_play=args.infinite_play)
        if not args.no_verify:
            check = tbsg.verify(game, sol, max_states=args.max_states)
        if args.save is not None:  # with how the game was built: verify FILE rebuilds it alone
            from tbsg.cli._games import spec_beside

            tbsg.save(sol, args.save, factory=spec_beside(spec.text, Path(args.save).parent),
                      arguments=texts)
    if args.table:
        print(table_report(sol, args.format, args.digits, args.exact_digits, args.decimals), end="")
    else:
        play = None
        if args.play:
            count, unit = (None, "moves") if args.count is None else (_count(parser, args.count), "count")
            play = play_summary(sol, game, count, unit, args.format, args.digits, args.exact_digits)
        print(solve_report(sol, spec.label, game, spec.bound(texts), check, args.format, args.digits,
                           args.exact_digits, args.provenance, play=play,
                           factory=_command_line(spec.text, texts)), end="")
    if args.save is not None:
        print(f"saved to {args.save}", file=sys.stdout if args.format == "text" else sys.stderr)
    if unreached is not None:
        print(f"tbsg solve: error: {_unreached_tol(args.tol, unreached.reachable)}", file=sys.stderr)
        return 1
    return 0


def _unreached_tol(tol: float | None, gap: float) -> str:
    """The command line's words for a float solve that proved ``gap``, not ``tol``: the
    options to change (``--tol``, ``--float``), where the API's error names its arguments."""
    from tbsg.api.solving import DEFAULT_TOL, suggested_tol

    asked = f"--tol {tol:g}" if tol is not None else f"the default --tol {DEFAULT_TOL:g}"
    return (f"{asked} cannot be reached: the smallest gap proven is {gap:.3g} (the float solver "
            "stalls where the rounding its bounds account for is as large as its progress: long "
            f"expected play, or play that stops with tiny probability); try --tol "
            f"{suggested_tol(gap):g}, or solve without --float for exact values. The bounds "
            "printed above hold.")


# --- tbsg verify --------------------------------------------------------------------------------

def _verify(args: argparse.Namespace, parser: _Parser) -> int:
    from tbsg.errors import (
        GameUnavailableError,
        InvalidGameError,
        NonStoppingGameError,
        StateLimitError,
        TamperedSolutionError,
        TbsgError,
    )

    if args.game is not None and args.import_game:
        parser.error("--game and --import-game do not combine: --game names the game, --import-game "
                     "imports the module the file records")
    if args.param and args.game is None:
        parser.error("-p/--param gives parameters of --game GAME; add --game")

    def say(verdict: str, message: object, status: int) -> int:
        text = str(message).removeprefix(f"{args.file}: ")
        print(f"tbsg verify: {verdict} {args.file}: {text}", file=sys.stderr)
        return status

    try:
        sol, check, built = _load_and_verify(args, parser)
    except _CannotCheck as exc:
        return say("CANNOT CHECK", exc, 2)
    except GameUnavailableError as exc:
        return say("CANNOT CHECK", _unavailable_hint(exc), 2)
    except StateLimitError as exc:
        return say("CANNOT CHECK", f"{exc} (raise --max-states)", 2)
    except (TamperedSolutionError, NonStoppingGameError) as exc:
        return say("REJECTED", exc, 1)
    except InvalidGameError as exc:  # the game's own code fails: nothing was judged
        return say("CANNOT CHECK", f"the game fails: {exc}", 2)
    except TbsgError as exc:  # SolutionFileError: read and found wrong
        return say("REJECTED", exc, 1)
    from tbsg._util.digits import shown_value
    from tbsg.results.provenance import describe_game

    shown = shown_value(sol.value(), 15, _SHORT, exact=True)
    print(f"{args.file}: {describe_game(sol.game) if built is None else built}, {sol.kind.value}, "
          f"value {shown}")
    print(f"every field checked, graph hash matches; {check}")
    if args.provenance:
        print(dataclasses.replace(sol.provenance(check), factory=built))
    return 0


def _load_and_verify(args: argparse.Namespace, parser: _Parser) -> tuple[Any, Any, str | None]:
    """Load FILE (its game from --game, the factory it records, --import-game or the catalog)
    and verify it; also how the game was built, if the file records it."""
    from tbsg.certify.certificate import verify
    from tbsg.certify.persist import command_line, load, read_game_record
    from tbsg.errors import GameUnavailableError, InvalidGameError, StateLimitError

    path = Path(args.file)
    if not path.is_file():
        raise _CannotCheck("no such file" if not path.exists() else "not a regular file")
    record = read_game_record(path)
    built = None if record.factory is None else command_line(record.factory, record.arguments)
    game: Any = None
    if args.game is not None:
        game = _game_for_file(parser, args.game, args.param, record)
    else:
        game = _game_from_factory(record, path, args.import_game)
    if game is None and args.import_game and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # the recorded module, as python -m finds it
    try:
        sol = load(path, game=game, check=False, max_states=args.max_states, import_game=args.import_game)
    except (GameUnavailableError, StateLimitError):
        raise
    except InvalidGameError as exc:  # compiling the game raised: not the file's fault
        raise _CannotCheck(f"the game fails: {exc}") from exc
    the_game: Any = sol.game
    return sol, verify(the_game, sol, max_states=args.max_states), built


def _game_for_file(parser: _Parser, spec_text: str, params: Sequence[str] | None, record: Any) -> object:
    """``--game``: built with its ``-p`` parameters if given; else a class that carries its
    parameters is passed as the class (the file's fields rebuild it); else it is built with
    the parameters the file records (``tbsg solve ... -p`` wrote them)."""
    from tbsg.cli._games import parse_assignments, resolve
    from tbsg.errors import TbsgError

    try:
        texts = parse_assignments(params or ())
    except TbsgError as exc:
        parser.error(str(exc))
    try:
        spec = resolve(spec_text)
        if texts:
            return spec.build(texts)
        cls = spec.factory
        if record.fields is not None and isinstance(cls, type) and (
                dataclasses.is_dataclass(cls) or callable(getattr(cls, "parameters", None))):
            return cls
        return spec.build(record.arguments)
    except TbsgError as exc:
        raise _CannotCheck(f"--game {spec_text}: {exc}") from exc


def _game_from_factory(record: Any, path: Path, import_game: bool) -> object | None:
    """The game of a file of one's own, built by the factory it records with the parameters it
    records; ``None`` for a game of tbsg (the file's fields rebuild it) or no factory recorded.

    Without ``--import-game`` only code in the file's folder (or below) is run: a factory
    elsewhere, or in a module, is named with ``--game``.
    """
    from tbsg.certify.persist import TRUSTED_MODULES, command_line
    from tbsg.cli._games import is_file_spec, recorded_spec, resolve, spec_beside
    from tbsg.errors import TbsgError

    if record.factory is None or record.module.startswith(TRUSTED_MODULES):
        return None
    spec_text, beside = recorded_spec(record.factory, path.parent)
    built = command_line(record.factory, record.arguments)
    if not (beside or import_game):
        where = "outside the file's folder" if is_file_spec(record.factory) else "in a module"
        named = spec_beside(spec_text, Path.cwd())  # as --game takes it: from here
        raise _CannotCheck(f"the game was built by {built}, whose code lies {where}: name it with "
                           f"--game {named} (the file's parameters are used), or, for a file "
                           "you trust, add --import-game")
    try:
        return resolve(spec_text).build(record.arguments)
    except TbsgError as exc:
        raise _CannotCheck(f"rebuilding the game ({built}, from {path.parent}): {exc}") from exc


def _unavailable_hint(exc: Any) -> str:
    """The error of a game that cannot be had, with what to type instead."""
    text = str(exc)
    if exc.module and "outside tbsg" in text:
        return (f"the file is for {exc.module}.{exc.qualname}, a game outside tbsg: name it with "
                f"--game path/to/{exc.module.rsplit('.', 1)[-1]}.py:{exc.qualname} (or "
                f"--game {exc.module}:{exc.qualname}), or, for a file you trust, --import-game")
    if exc.module and "cannot find the game class" in text:
        return (f"{text}; name the game with --game path/to/{exc.module.rsplit('.', 1)[-1]}.py:"
                f"{exc.qualname}")
    if exc.module and "pass the game itself with game=" in text:  # the API's advice, in options
        where = f"path/to/{exc.module.rsplit('.', 1)[-1]}.py:{exc.qualname}"
        return (f"{text.split(': pass the game itself')[0]}: the file does not say how to rebuild "
                f"{exc.qualname}; name it with --game {where} -p NAME=VALUE (to save files that "
                "rebuild themselves, give the class a parameters() method or make it a dataclass, "
                "or save with tbsg solve --save)")
    return text


# --- tbsg reproduce, tbsg cite --------------------------------------------------------------------

def _reproduce(args: argparse.Namespace, parser: _Parser) -> int:
    from tbsg.games.registry import CATALOG
    from tbsg.sources.reproduce import format_json, format_table, reproduce

    unknown = [g for g in args.only or () if g not in CATALOG]
    if unknown:
        parser.error(f"unknown game {', '.join(unknown)}; choose from {', '.join(CATALOG)}")

    def progress(name: str) -> None:
        if not (args.json or args.quiet):
            print(f"solving {name} ...", file=sys.stderr, flush=True)

    report = reproduce(args.only, progress=progress)
    print(format_json(report) if args.json else format_table(report))
    return 0 if report.ok else 1


def _cite(args: argparse.Namespace, parser: _Parser) -> int:
    from tbsg.cli.citation import apa, bibtex

    if args.format in ("bibtex", "both"):
        print(("BibTeX:\n" if args.format == "both" else "") + bibtex())
    if args.format == "both":
        print()
    if args.format in ("apa", "both"):
        print(("APA:\n" if args.format == "both" else "") + apa())
    return 0


# --- the parser ---------------------------------------------------------------------------------

def _subparser(sub: Any, name: str, help_text: str, description: str,
               run: Callable[[argparse.Namespace, _Parser], int]) -> _Parser:
    examples = _EXAMPLES[name]
    text = textwrap.fill(description, 88, break_on_hyphens=False)
    p: _Parser = sub.add_parser(name, help=help_text, description=text,
                                epilog="examples:\n" + "\n".join(f"  {e}" for e in examples),
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.examples = examples
    p.set_defaults(run=run, subparser=p)
    _add_quiet(p, argparse.SUPPRESS)  # after the command too; the command's default keeps tbsg's
    return p


def _add_quiet(p: _Parser, default: object) -> None:
    """``--quiet``: no progress reports on standard error (:func:`tbsg._util.progress.quiet`)."""
    p.add_argument("-q", "--quiet", action="store_true", default=default,
                   help="no progress reports on standard error during long runs")


def _parser() -> _Parser:
    """The ``tbsg`` parser: one subcommand per entry of :data:`_EXAMPLES`."""
    parser = _Parser(prog="tbsg", description="Exact solutions of two-player turn-based stochastic games.",
                     epilog="'tbsg COMMAND --help' describes a command.")
    parser.examples = ["tbsg solve risk_or_safety -p target=6"]
    _add_version(parser)
    _add_quiet(parser, False)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)
    _subparser(sub, "list", "list the catalog games and their parameters",
               "List the catalog games, their parameters and sources.", _list)
    _add_solve(sub)
    _add_verify(sub)
    _add_reproduce(sub)
    from tbsg.cli import _play, _simulate  # the play commands keep their options in their modules

    for command in (_simulate, _play):
        _EXAMPLES[command.NAME] = command.EXAMPLES
        command.register(lambda *spec: _subparser(sub, *spec))
    cite = _subparser(sub, "cite", "how to cite tbsg (BibTeX and APA)",
                      "Print a BibTeX entry and an APA reference for tbsg, from its CITATION.cff.", _cite)
    cite.add_argument("--format", choices=("both", "bibtex", "apa"), default="both",
                      help="which reference to print (default both)")
    return parser


def _add_version(parser: _Parser) -> None:
    """``tbsg --version``: the library, the exact backend and Python, for bug reports."""
    import platform

    from tbsg._version import __version__
    from tbsg.engine._backend import BACKEND

    parser.add_argument("--version", action="version",
                        version=f"tbsg {__version__} (exact arithmetic: {BACKEND}; Python "
                                f"{platform.python_version()})")


def _max_states(p: _Parser, help_text: str) -> None:
    """``--max-states N``, shared by ``solve`` and ``verify`` (``{default}`` in the help)."""
    from tbsg.engine.compile import DEFAULT_MAX_STATES

    p.add_argument("--max-states", type=_positive_int, default=DEFAULT_MAX_STATES, metavar="N",
                   help=help_text.format(default=f"{DEFAULT_MAX_STATES:,}"))


def _add_solve(sub: Any) -> None:
    from tbsg.games.registry import CATALOG

    slv = _subparser(sub, "solve", "solve a game", (
        "Solve a game exactly (default: rational values, every optimal action, the verified "
        "certificate) or with proven float bounds (--float). Prints the value, the optimal actions "
        "at the initial state, the states, components and time; --table prints the per-state table. "
        "Exact values are in full in every format but text (--exact-digits there)."), _solve)
    slv.add_argument("game", metavar="GAME",
                     help=f"a catalog game ({', '.join(CATALOG)}), MODULE:FACTORY or path/to/file.py:FACTORY "
                          "(a class or function returning the game)")
    slv.add_argument("-p", "--param", action="append", metavar="NAME=VALUE",
                     help="a parameter of the game, repeatable; converted by the factory's annotation, or "
                          "else to a bool (true/false), int, exact fraction (1/3, 0.25) or string; numbers "
                          "of at most 4,300 digits")
    slv.add_argument("--float", action="store_true", help="proven float bounds instead of exact values")
    slv.add_argument("--tol", type=_positive_float, default=None,
                     help="with --float: the largest proven gap wanted, relative to max(1, |value|) "
                          "(default 1e-12)")
    slv.add_argument("--infinite-play", type=_payoff, default=None, metavar="C",
                     help="payoff to player 0 of play that never ends, for games that need not end "
                          "(0: a reachability game, 1/2: a draw); exact only")
    _max_states(slv, "stop with an error past N reachable states (default {default})")
    slv.add_argument("--format", choices=("text", "md", "latex", "csv", "json"), default="text",
                     help="output format, with or without --table (default text)")
    slv.add_argument("--table", action="store_true",
                     help="print the per-state table (value, optimal actions, margin) instead")
    slv.add_argument("--digits", type=_positive_int, default=15, metavar="N",
                     help="significant digits of decimals (default 15)")
    slv.add_argument("--decimals", type=_positive_int, default=None, metavar="N",
                     help="with --table: write every exact value as a decimal of N significant digits, "
                          "rounded from the exact value, and no fractions (large games)")
    slv.add_argument("--exact-digits", action="store_true",
                     help="text format: print exact values in full, however long")
    slv.add_argument("--provenance", action="store_true",
                     help="add what a methods section needs (versions, graph hash, certificate)")
    slv.add_argument("--no-verify", action="store_true",
                     help="skip re-checking the exact certificate (tbsg verify FILE does it later)")
    slv.add_argument("--save", metavar="FILE", help="save the exact solution (JSON) to FILE")
    slv.add_argument("--play", action="store_true",
                     help="also describe play under the solution's strategy: the outcome split (win, "
                          "draw, loss), the expected length and its variance, and (exact) the fastest "
                          "and slowest optimal play")
    slv.add_argument("--count", metavar="MODULE:FUNCTION",
                     help="with --play: what a step counts, a function (state, action) -> int or "
                          "Fraction >= 0 (default: 1 per move), e.g. ./mygame.py:tosses")


def _add_verify(sub: Any) -> None:
    ver = _subparser(sub, "verify", "re-verify a saved solution", (
        "Rebuild the game of a saved solution, check the graph hash and every field, and re-verify "
        "the certificate in exact arithmetic. The game is rebuilt from the file: a catalog game, or "
        "the factory and parameters tbsg solve --save recorded (code in the file's folder or below). "
        "Exit status 1 (REJECTED): the file was checked and is wrong; 2 (CANNOT CHECK): its game "
        "cannot be imported or rebuilt (name its code with --game)."),
        _verify)
    ver.add_argument("file", metavar="FILE", help="a file written by tbsg solve --save or tbsg.save")
    ver.add_argument("--game", metavar="GAME",
                     help="where the code of the file's game is: MODULE:FACTORY or path/to/file.py:FACTORY "
                          "(built with the parameters the file records, or a class that reports its "
                          "parameters rebuilt from them)")
    ver.add_argument("-p", "--param", action="append", metavar="NAME=VALUE",
                     help="a parameter of --game (repeatable), for files that record none")
    ver.add_argument("--import-game", action="store_true",
                     help="import the module the file names to rebuild the game (runs that module's "
                          "code: only for files you trust)")
    _max_states(ver, "never enumerate more than N states (default {default})")
    ver.add_argument("--provenance", action="store_true",
                     help="also print what a methods section needs (versions, graph hash, certificate)")


def _add_reproduce(sub: Any) -> None:
    from tbsg.games.registry import CATALOG

    rep = _subparser(sub, "reproduce", "recompute every published number of the catalog", (
        "Solve every catalog game and compare each published number with the computed one. Exit "
        "status 1 on an undeclared mismatch, or on a declared discrepancy of a source that now "
        "matches, computes another value or names no row."), _reproduce)
    rep.add_argument("--only", action="append", metavar="GAME",
                     help=f"restrict to this game (repeatable): {', '.join(CATALOG)}")
    rep.add_argument("--json", action="store_true", help="print the rows as JSON")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tbsg`` console script; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    from contextlib import nullcontext

    from tbsg._util.progress import quiet
    from tbsg.errors import TbsgError

    try:
        with quiet() if args.quiet else nullcontext():
            status: int = args.run(args, args.subparser)
    except BrokenPipeError:  # output piped into e.g. `head`: stop quietly
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (must outlive this function)
        return 0
    except TbsgError as exc:  # bad input: one line, no traceback
        from tbsg.errors import NonStoppingGameError

        hint = (" (on the command line: --infinite-play C)"
                if isinstance(exc, NonStoppingGameError) and args.command == "solve" else "")
        print(f"tbsg {args.command}: error: {exc}{hint}", file=sys.stderr)
        return 1
    except MemoryError:
        print(f"tbsg {args.command}: error: out of memory (a game too large for this machine, or "
              "parameters that build one; --max-states stops earlier)", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"tbsg {args.command}: interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
