"""tbsg: exact and certified solutions of two-player turn-based stochastic games.

Write a game as four members (:class:`Game`), then :func:`solve` it: exact rational
values, every optimal action and a certificate :func:`verify` re-checks; or
``solve(game, exact=False)`` for float values with proven bounds. :func:`save` and
:func:`load` keep exact solutions in a documented JSON format that re-verifies on load.

Three subpackages load on first use, so ``import tbsg`` stays fast and needs neither
matplotlib nor hypothesis: ``tbsg.games`` (the catalog, e.g. ``tbsg.games.pig()``),
``tbsg.plots`` (heat maps, margin curves and the sources' figures; matplotlib is imported
when a plot is drawn) and ``tbsg.testing`` (hypothesis strategies for random games, a
brute-force oracle and ``assert_reproduces``; the ``testing`` extra) and
``tbsg.parametric`` (games whose probabilities depend on a parameter: exact value
formulas and breakpoints, the ``parametric`` extra; :func:`solve_parametric`,
:func:`evaluate_parametric` and :func:`verify_parametric` are its front doors).

Every result answers the same queries (``value``, ``value_to_move``, ``action``,
``optimal_actions``, ``action_values``, ...: :mod:`tbsg.results.query`), stated by the
protocols :class:`tbsg.results.StateQueries` and :class:`tbsg.results.ProfileQueries`.

>>> import tbsg
>>> tbsg.solve(tbsg.games.piglet(2)).value()
Fraction(4, 7)
"""

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

from tbsg._util.moved import install as _install_moved
from tbsg._version import __version__
from tbsg.api.solving import best_response, evaluate, solve
from tbsg.certify.certificate import Verification, verify
from tbsg.certify.persist import load, save
from tbsg.engine.tiebreak import TieBreak
from tbsg.errors import (
    ExactnessError,
    GameUnavailableError,
    InfiniteExpectationError,
    InfinitePlayError,
    InvalidArgumentError,
    InvalidGameError,
    InvalidStrategyError,
    NonStoppingGameError,
    SolutionFileError,
    StateLimitError,
    TamperedSolutionError,
    TbsgError,
    ToleranceError,
    UnknownStateError,
    UnsupportedError,
)
from tbsg.model.arrays import ArrayAction, ArrayOutcome, ArrayTransitions
from tbsg.model.fixed import ArrayStrategy
from tbsg.model.protocol import DRAW, Game, Terminal, win
from tbsg.outputs.pivot import Pivot
from tbsg.outputs.tables import Row, StateTable, state_table
from tbsg.play.chain import Chain, LengthBounds, LengthDistribution, chain
from tbsg.play.simulate import Simulation, simulate
from tbsg.results import FloatSolution, Provenance, Solution, SolutionKind

if TYPE_CHECKING:  # loaded on first use by __getattr__ below
    from tbsg import games as games
    from tbsg import parametric as parametric
    from tbsg import plots as plots
    from tbsg import testing as testing
    from tbsg.outputs.regions import region_latex as region_latex
    from tbsg.outputs.regions import region_rows as region_rows
    from tbsg.outputs.regions import region_table as region_table
    from tbsg.parametric import evaluate_parametric as evaluate_parametric
    from tbsg.parametric import solve_parametric as solve_parametric
    from tbsg.parametric import verify_parametric as verify_parametric

__all__ = [
    "DRAW",
    "ArrayAction",
    "ArrayOutcome",
    "ArrayStrategy",
    "ArrayTransitions",
    "Chain",
    "ExactnessError",
    "FloatSolution",
    "Game",
    "GameUnavailableError",
    "InfiniteExpectationError",
    "InfinitePlayError",
    "InvalidArgumentError",
    "InvalidGameError",
    "InvalidStrategyError",
    "LengthBounds",
    "LengthDistribution",
    "NonStoppingGameError",
    "Pivot",
    "Provenance",
    "Row",
    "Simulation",
    "Solution",
    "SolutionFileError",
    "SolutionKind",
    "StateLimitError",
    "StateTable",
    "TamperedSolutionError",
    "TbsgError",
    "Terminal",
    "TieBreak",
    "ToleranceError",
    "UnknownStateError",
    "UnsupportedError",
    "Verification",
    "__version__",
    "best_response",
    "chain",
    "evaluate",
    "evaluate_parametric",
    "load",
    "region_latex",
    "region_rows",
    "region_table",
    "save",
    "simulate",
    "solve",
    "solve_parametric",
    "state_table",
    "verify",
    "verify_parametric",
    "win",
]

_install_moved()  # old module paths (tbsg.arrays, ...) warn and still import

_LAZY = ("games", "parametric", "plots", "testing")
"""Subpackages imported on first attribute access (PEP 562)."""

_LAZY_FUNCTIONS = {
    "evaluate_parametric": "tbsg.parametric",
    "solve_parametric": "tbsg.parametric",
    "verify_parametric": "tbsg.parametric",
    "region_rows": "tbsg.outputs.regions",
    "region_table": "tbsg.outputs.regions",
    "region_latex": "tbsg.outputs.regions",
}
"""Functions that need :mod:`tbsg.parametric` (sympy, python-flint), imported on first access."""


if not TYPE_CHECKING:  # type checkers see the imports above; any other name stays an error

    def __getattr__(name: str) -> ModuleType:
        if name in _LAZY:
            return importlib.import_module(f"tbsg.{name}")  # also binds tbsg.<name>
        if name in _LAZY_FUNCTIONS:
            return getattr(importlib.import_module(_LAZY_FUNCTIONS[name]), name)  # type: ignore[no-any-return]
        raise AttributeError(f"module 'tbsg' has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted({*globals(), *_LAZY, *_LAZY_FUNCTIONS})
