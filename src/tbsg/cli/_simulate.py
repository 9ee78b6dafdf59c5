"""``tbsg simulate``: Monte Carlo play of a game under the solver's strategy or one's own.

``tbsg simulate GAME [-p NAME=VALUE ...] [-n N] [--seed S] [--strategy MODULE:FUNCTION]
[--count MODULE:FUNCTION] [--float] [--walk] [--level L] [--max-steps N] [--max-states N]``

Without ``--strategy`` the game is solved first (exactly, or ``--float``) and both players
follow the solution's strategy; the solver's value is printed beside the simulated mean,
with whether it lies in the interval, a check of the solution by play. ``--strategy``
names a function ``state -> action`` (``path/to/file.py:function`` or
``module:function``) that both players follow, and nothing is solved: the estimate for a
game too large to solve (``--walk`` then skips the enumeration of the profile's chain).
:func:`tbsg.simulate` does the work; its docstring states the intervals.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["DESCRIPTION", "EXAMPLES", "HELP", "NAME", "register", "run"]

NAME = "simulate"
HELP = "play a game many times (Monte Carlo) under the solver's strategy or your own"
DESCRIPTION = (
    "Play N games under a profile and print the outcome frequencies, the mean payoff to player 0 "
    "and the mean length with confidence intervals (normal for means, Wilson for frequencies), "
    "reproducible from --seed. Without --strategy the game is solved first and the solver's value "
    "is compared with the simulation; --strategy MODULE:FUNCTION plays your own function "
    "state -> action for both players, for games too large to solve (add --walk).")
EXAMPLES = ["tbsg simulate risk_or_safety -p target=6 -n 100000 --seed 1",
            "tbsg simulate pig -p goal=100 --strategy ./hold20.py:hold_at_20 --walk -n 10000 --seed 7"]


def whole(least: int) -> Callable[[str], int]:
    """An argparse type: an integer of at most 20 digits, at least ``least``."""
    def parse(text: str) -> int:
        try:
            n = int(text) if len(text.strip()) <= 20 else None
        except ValueError:
            n = None
        if n is None:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text[:40]!r}")
        if n < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, got {n}")
        return n
    return parse


def _level(text: str) -> float:
    try:
        x = float(text) if len(text) <= 40 else -1.0
    except ValueError:
        x = -1.0
    if not 0 < x < 1:
        raise argparse.ArgumentTypeError(f"expected a confidence level between 0 and 1 such as 0.95, "
                                         f"got {text[:40]!r}")
    return x


def add_game(p: argparse.ArgumentParser) -> None:
    """``GAME`` and ``-p NAME=VALUE``, as ``tbsg solve`` takes them."""
    p.add_argument("game", metavar="GAME",
                   help="a catalog game (tbsg list), MODULE:FACTORY or path/to/file.py:FACTORY")
    p.add_argument("-p", "--param", action="append", metavar="NAME=VALUE",
                   help="a parameter of the game, repeatable (as for tbsg solve)")


def build_game(parser: argparse.ArgumentParser, spec_text: str, params: Sequence[str] | None) -> Any:
    """The game of ``GAME -p ...``; every problem is a usage error."""
    from tbsg.cli._games import parse_assignments, resolve
    from tbsg.errors import TbsgError

    try:
        return resolve(spec_text).build(parse_assignments(params or ()))
    except TbsgError as exc:
        parser.error(str(exc))


def register(make: Callable[[str, str, str, Callable[[argparse.Namespace, Any], int]], Any]) -> None:
    """Add the subcommand through ``make(name, help, description, run)`` (the parser's own
    subcommand factory, which adds the usage-error behaviour and the examples)."""
    from tbsg.play.simulate import DEFAULT_COMPILE_STATES, DEFAULT_MAX_STEPS

    p = make(NAME, HELP, DESCRIPTION, run)
    add_game(p)
    p.add_argument("-n", type=whole(1), default=10_000, metavar="N", help="games to play (default 10,000)")
    p.add_argument("--seed", type=whole(0), default=None, metavar="S",
                   help="seed of the random numbers (default: a fresh one, printed)")
    p.add_argument("--strategy", metavar="MODULE:FUNCTION",
                   help="play this function state -> action for both players instead of solving")
    p.add_argument("--count", metavar="MODULE:FUNCTION",
                   help="what a move counts towards the length, a function (state, action) -> int or "
                        "Fraction >= 0 (default: 1 per move), e.g. ./mygame.py:tosses")
    p.add_argument("--float", action="store_true",
                   help="solve with proven float bounds instead of exactly (without --strategy)")
    p.add_argument("--walk", action="store_true",
                   help="walk the game's plain protocol instead of enumerating the profile's chain "
                        "(for games too large to enumerate)")
    p.add_argument("--level", type=_level, default=0.95, metavar="L",
                   help="confidence level of the intervals (default 0.95)")
    p.add_argument("--max-steps", type=whole(1), default=DEFAULT_MAX_STEPS, metavar="N",
                   help=f"moves after which a game counts as unfinished (default {DEFAULT_MAX_STEPS:,})")
    p.add_argument("--max-states", type=whole(1), default=DEFAULT_COMPILE_STATES, metavar="N",
                   help="enumerate the profile's chain up to N states, else walk; also the limit of the "
                        f"solve (default {DEFAULT_COMPILE_STATES:,})")


def run(args: argparse.Namespace, parser: Any) -> int:
    """``tbsg simulate``: print the simulation (and the solver's value beside it)."""
    import tbsg
    from tbsg._util.digits import shown_value
    from tbsg.cli._games import resolve_function
    from tbsg.errors import TbsgError, show

    if args.strategy is not None and args.float:
        parser.error("--float chooses how the game is solved; --strategy plays your own function and "
                     "solves nothing: drop one")
    game = build_game(parser, args.game, args.param)
    value: Any = None
    try:
        count: Any = None if args.count is None else resolve_function(args.count, "--count")
        if args.strategy is not None:
            profile: Any = resolve_function(args.strategy, "--strategy")
    except TbsgError as exc:
        parser.error(str(exc))
    if args.strategy is not None:
        said = f"{args.strategy} for both players"
    else:
        profile = tbsg.solve(game, exact=not args.float, max_states=args.max_states)
        value = profile.bounds() if args.float else profile.value()
        said = "the solver's strategy for both players"
    sim = tbsg.simulate(game, profile, args.n, seed=args.seed, level=args.level, count=count,
                        max_steps=args.max_steps, compile=False if args.walk else None,
                        max_states=args.max_states)
    print(f"game: {show(game)}\nprofile: {said}")
    print(sim)
    if value is not None:
        inside = all(v in sim.payoff for v in (value if args.float else (value,)))
        text = (f"in [{value[0]!r}, {value[1]!r}]" if args.float
                else shown_value(value, 12, 60, exact=True))
        print(f"solver's value: {text} ({'inside' if inside else 'OUTSIDE'} the simulation's interval)")
    return 0
