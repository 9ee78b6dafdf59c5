"""The registry of catalog games: names, constructors, parameters and sources.

One entry per game of :mod:`tbsg.games`, with the module of :mod:`tbsg.sources` that holds
its source. The command line (``tbsg list``, ``tbsg solve``, ``tbsg reproduce``) finds
games here. Modules are imported only when an entry is used, so listing the catalog stays
cheap. (Saved solutions record a game by its class and fields, and need no registry.)

Parameters are read from the constructor's signature (names, annotations, defaults), so
there is one place where a game's parameters are defined: its constructor. Texts are
converted and checked by the rules of :mod:`tbsg._util.parameters`, the command line's.

Where tbsg builds one of its games from values it did not choose itself (the recorded
fields of a saved file, :func:`tbsg.load`; ``-p`` values on the command line), each
numeric parameter must lie in the range :data:`GAME_BOUNDS` declares for it (defined in
``tbsg._util.bounds``, below the saved-file reader), checked before the game is built;
:meth:`CatalogEntry.bounds` gives them by constructor parameter.

Examples
--------
>>> entry = CATALOG["risk_or_safety"]
>>> [str(p) for p in entry.parameters()], [str(p) for p in CATALOG["pig"].parameters()]
(['target: int'], ['goal: int = 100', 'die: int = 6'])
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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tbsg._util.bounds import GAME_BOUNDS, Bounds, bounds_of
from tbsg._util.parameters import Parameter, keyword_arguments, parameters_of
from tbsg.errors import InvalidArgumentError, InvalidGameError

__all__ = ["CATALOG", "GAME_BOUNDS", "Bounds", "CatalogEntry", "Parameter", "bounds_of"]


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
        """The constructor's parameters, from its signature and annotations."""
        return parameters_of(self.make_function())

    def bounds(self) -> dict[str, Bounds]:
        """The declared range of each numeric constructor parameter (:data:`GAME_BOUNDS`),
        by parameter name."""
        declared = bounds_of(self.module, self.cls) or {}
        names = inspect.signature(self.make_function()).parameters
        return {name: declared[self.fields.get(name, name)] for name in names
                if self.fields.get(name, name) in declared}

    def make(self, values: Mapping[str, str]) -> Any:
        """Build the game from ``{parameter: text}`` (command-line values), checking names
        and the declared ranges as the command line does (:mod:`tbsg._util.parameters`).

        Raises
        ------
        InvalidGameError
            For an unknown, missing or unconvertible parameter, or a value outside its
            declared range.
        """
        fn = self.make_function()
        try:
            kwargs = keyword_arguments(self.name, fn, values, self.bounds())
        except InvalidArgumentError as exc:
            raise InvalidGameError(str(exc)) from None
        return fn(**kwargs)


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
    _entry("pig_turn", "PigTurn", "T. Neller, Pig (Nifty Assignments, 2010); Neller and Presser (2004)"),
    _entry("pig_solitaire", "PigSolitaire", "T. Neller, Pig (Nifty Assignments, 2010)"),
]}
