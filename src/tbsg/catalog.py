"""The registry of catalog games: names, constructors, parameters and sources.

One entry per game of :mod:`tbsg.games`, with the module of :mod:`tbsg.sources` that holds
its source. The command line (``tbsg list``, ``tbsg solve``, ``tbsg reproduce``) finds
games here. Modules are imported only when an entry is used, so listing the catalog stays
cheap. (Saved solutions record a game by its class and fields, and need no registry.)

Parameters are read from the constructor's signature (names, annotations, defaults), so
there is one place where a game's parameters are defined: its constructor.

Where tbsg builds one of its games from values it did not choose itself (the recorded
fields of a saved file, :func:`tbsg.load`; ``-p`` values on the command line), each
numeric parameter must lie in a declared range (:data:`GAME_BOUNDS`, :class:`Bounds`),
checked before the game is built: an edited file cannot make the first call of
``actions`` or ``outcomes`` build a list of a hundred million bets. A die's faces (the
outcomes of one roll, the bets of one turn) are what one call builds, so they are bounded
tightly; sizes (goal, target, tosses, points, sticks) only set how many states there are,
which the enumeration limit bounds, so their range only excludes the absurd. The games
themselves (``tbsg.games.pig(die=...)``) take any value their rules allow.

Examples
--------
>>> entry = CATALOG["risk_or_safety"]
>>> [(p.name, p.kind.__name__, p.default) for p in entry.parameters()]
[('target', 'int', None)]
>>> entry.make({"target": "3"})
RiskOrSafety(target=3)
>>> CATALOG["piglet"].source_module          # Piglet's source is the Pig paper
'tbsg.sources.pig'
>>> print(CATALOG["pig"].bounds()["die"])
an int from 2 to 100,000
"""

from __future__ import annotations

import importlib
import inspect
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tbsg.errors import InvalidArgumentError, InvalidGameError, show

__all__ = ["CATALOG", "GAME_BOUNDS", "Bounds", "CatalogEntry", "Parameter", "bounds_of"]


@dataclass(frozen=True)
class Bounds:
    """The values of one numeric game parameter that tbsg builds a game from, when it did not
    choose them itself (a saved file's fields, the command line).

    Attributes
    ----------
    kind : type
        ``int`` or ``Fraction`` (a ``Fraction`` parameter also takes an ``int``).
    low, high : int or Fraction
        The range, both ends included unless ``strict``.
    strict : bool
        Both ends excluded (a probability strictly between 0 and 1).
    none : bool
        ``None`` is accepted too (the game then picks its default, e.g. a fair die).

    Examples
    --------
    >>> Bounds(int, 2, 10).problem(11), Bounds(int, 2, 10).problem(True), Bounds(int, 2, 10).problem(3)
    ('out of range', 'a bool is not an int', None)
    >>> str(Bounds(Fraction, 0, 1, strict=True, none=True))
    'a Fraction strictly between 0 and 1 (or None)'
    """

    kind: type
    low: int | Fraction
    high: int | Fraction
    strict: bool = False
    none: bool = False

    def __str__(self) -> str:
        kind = "an int" if self.kind is int else "a Fraction"
        rng = (f"strictly between {self.low} and {self.high}" if self.strict
               else f"from {self.low:,} to {self.high:,}" if self.kind is int
               else f"from {self.low} to {self.high}")
        return f"{kind} {rng}" + (" (or None)" if self.none else "")

    def problem(self, value: object) -> str | None:
        """What is wrong with ``value`` (``None`` if nothing): its type, or its range.

        Comparisons only: a value of any size is judged without being converted to text.
        """
        if value is None:
            return None if self.none else "None is not accepted"
        if isinstance(value, bool):
            return f"a bool is not {'an int' if self.kind is int else 'a Fraction'}"
        if not isinstance(value, int) and (self.kind is int or not isinstance(value, Fraction)):
            return f"a {type(value).__name__} is not {'an int' if self.kind is int else 'a Fraction'}"
        inside = self.low < value < self.high if self.strict else self.low <= value <= self.high
        return None if inside else "out of range"


_SIZE = Bounds(int, 1, 10**9)
"""A goal, target, number of tosses, points or sticks: it sets the number of states only."""
_FACES = Bounds(int, 2, 100_000)
"""The faces of a die: one roll has that many outcomes."""
_BETS = Bounds(int, 1, 100_000)
"""Unspeakable Words' die: one turn offers up to that many bets."""
_PROBABILITY = Bounds(Fraction, 0, 1, strict=True, none=True)
"""A biased coin's or die's probability (``None``: the fair one)."""

#: Declared ranges of the numeric parameters of tbsg's games, by ``module.Class`` (the
#: fields a saved file records): :func:`tbsg.load` rebuilds a game of tbsg from a file only
#: if every numeric field it records has a range here, and lies in it.
GAME_BOUNDS: dict[str, Mapping[str, Bounds]] = {
    "tbsg.games.coinball.Coinball": {"tosses": _SIZE},
    "tbsg.games.pig.Pig": {"goal": _SIZE, "die": _FACES},
    "tbsg.games.pig.Piglet": {"goal": _SIZE},
    "tbsg.games.pig.BiasedPig": {"goal": _SIZE, "die": _FACES, "bust": _PROBABILITY},
    "tbsg.games.risk_or_safety.RiskOrSafety": {"target": _SIZE},
    "tbsg.games.risk_or_safety.BiasedRiskOrSafety": {"target": _SIZE, "heads": _PROBABILITY},
    "tbsg.games.super_six.SuperSix": {"hand": _SIZE, "other": _SIZE, "lid": Bounds(int, 0, 5)},
    "tbsg.games.the_race.TheRace": {"goal": _SIZE},
    "tbsg.games.unspeakable_words.UnspeakableWords": {"a": _SIZE, "b": _SIZE, "die": _BETS},
}


def bounds_of(module: str, qualname: str) -> Mapping[str, Bounds] | None:
    """The declared ranges of the fields of the game class ``module.qualname`` (``None``:
    tbsg declares none for it)."""
    return GAME_BOUNDS.get(f"{module}.{qualname}")


@dataclass(frozen=True)
class Parameter:
    """One constructor parameter of a catalog game.

    Attributes
    ----------
    name : str
        Keyword name.
    kind : type
        ``int`` or ``str`` (values given on the command line are converted to it).
    default : int, str or None
        Default value; ``None`` when the parameter is required.
    choices : tuple
        Allowed values for a ``Literal`` parameter, else empty.
    """

    name: str
    kind: type
    default: int | str | None
    choices: tuple[str, ...] = ()

    def __str__(self) -> str:
        kind = "|".join(self.choices) if self.choices else self.kind.__name__
        return f"{self.name}: {kind}" + ("" if self.default is None else f" = {self.default!r}")

    def convert(self, text: str) -> int | str:
        """Parse a command-line value, with an error naming the parameter on failure."""
        if self.choices:
            if text not in self.choices:
                raise InvalidGameError(f"parameter {self.name} must be one of "
                                       f"{', '.join(self.choices)}; got {show(text, 60)}")
            return text
        if self.kind is int:
            from tbsg.cli._games import _convert  # the command line's conversion: digits bounded

            try:
                return typing.cast(int, _convert(text, int, self.name))
            except InvalidArgumentError as exc:
                raise InvalidGameError(str(exc)) from None
        return text


@dataclass(frozen=True)
class CatalogEntry:
    """A catalog game: where its code lives and what its source is.

    Attributes
    ----------
    name : str
        Catalog name, e.g. ``"piglet"``.
    module : str
        The game's module, e.g. ``"tbsg.games.pig"``.
    constructor : str
        Name of the constructor function in ``module``.
    cls : str
        Name of the game's class in ``module``.
    source : str
        The published source, as a citation.
    source_module : str
        The module of :mod:`tbsg.sources` holding the source's printed numbers, their
        recomputation and its known discrepancies, e.g. ``"tbsg.sources.pig"`` (``tbsg
        reproduce`` runs it).
    fields : Mapping[str, str]
        The class field of each constructor parameter named otherwise (Super Six's ``k``
        is the field ``hand``); the others have the field's name.
    """

    name: str
    module: str
    constructor: str
    cls: str
    source: str
    source_module: str
    fields: Mapping[str, str] = field(default_factory=dict)

    def load_module(self) -> Any:
        """Import the game's module (``tbsg.games.<name>``)."""
        return importlib.import_module(self.module)

    def load_source(self) -> Any:
        """Import the source's module (``tbsg.sources.<name>``)."""
        return importlib.import_module(self.source_module)

    def make_function(self) -> Callable[..., Any]:
        """The constructor function, e.g. :func:`tbsg.games.risk_or_safety`."""
        fn: Callable[..., Any] = getattr(self.load_module(), self.constructor)
        return fn

    def parameters(self) -> tuple[Parameter, ...]:
        """The constructor's parameters, from its signature."""
        fn = self.make_function()
        hints = typing.get_type_hints(fn, globalns=vars(self.load_module()))
        params = []
        for p in inspect.signature(fn).parameters.values():
            hint = hints.get(p.name, int)
            choices = tuple(str(c) for c in typing.get_args(hint)) \
                if typing.get_origin(hint) is typing.Literal else ()
            kind = str if choices or hint is str else int
            default = None if p.default is inspect.Parameter.empty else p.default
            params.append(Parameter(p.name, kind, default, choices))
        return tuple(params)

    def bounds(self) -> dict[str, Bounds]:
        """The declared range of each numeric constructor parameter (:data:`GAME_BOUNDS`),
        by parameter name."""
        declared = bounds_of(self.module, self.cls) or {}
        names = inspect.signature(self.make_function()).parameters
        return {name: declared[self.fields.get(name, name)] for name in names
                if self.fields.get(name, name) in declared}

    def make(self, values: Mapping[str, str]) -> Any:
        """Build the game from ``{parameter: text}`` (command-line values), checking names
        and the declared ranges."""
        params = {p.name: p for p in self.parameters()}
        unknown = sorted(set(values) - set(params))
        if unknown:
            raise InvalidGameError(
                f"{self.name} has no parameter {', '.join(unknown)}; its parameters are "
                f"{', '.join(map(str, params.values()))}")
        missing = [p.name for p in params.values() if p.default is None and p.name not in values]
        if missing:
            raise InvalidGameError(
                f"{self.name} needs {', '.join(missing)}; its parameters are "
                f"{', '.join(map(str, params.values()))}")
        kwargs = {k: params[k].convert(v) for k, v in values.items()}
        for k, bounds in self.bounds().items():
            problem = bounds.problem(kwargs[k]) if k in kwargs else None
            if problem is not None:
                raise InvalidGameError(f"parameter {k} of {self.name} must be {bounds}, got "
                                       f"{show(kwargs[k], 40)}")
        return self.make_function()(**kwargs)


def _entry(name: str, cls: str, source: str, module: str | None = None,
           fields: Mapping[str, str] | None = None) -> CatalogEntry:
    return CatalogEntry(name, f"tbsg.games.{module or name}", name, cls, source,
                        f"tbsg.sources.{module or name}", dict(fields or {}))


#: Catalog game name -> entry, in the order ``tbsg list`` and ``tbsg reproduce`` use.
CATALOG: dict[str, CatalogEntry] = {e.name: e for e in [
    _entry("risk_or_safety", "RiskOrSafety",
           "R. Jehn, Optimal strategy in the game Risk or Safety (arXiv 2603.01002, 2026)"),
    _entry("coinball", "Coinball", "The Riddler, Coinball (FiveThirtyEight)"),
    _entry("super_six", "SuperSix", "R. Jehn, Optimum Strategies for the Game Super Six (2021)",
           fields={"k": "hand", "l": "other"}),
    _entry("the_race", "TheRace", "Project Euler 232, The Race"),
    _entry("unspeakable_words", "UnspeakableWords",
           "Win-Vector blog, Unspeakable bets: take small steps"),
    _entry("pig", "Pig", "T. Neller and C. Presser, Optimal Play of the Dice Game Pig (2004)"),
    _entry("piglet", "Piglet", "T. Neller and C. Presser, Optimal Play of the Dice Game Pig (2004)",
           module="pig"),
]}
