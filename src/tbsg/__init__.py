"""tbsg: exact and certified solutions of two-player turn-based stochastic games.

Write a game as four members (:class:`Game`), then :func:`solve` it: exact rational
values, every optimal action and a certificate :func:`verify` re-checks; or
``solve(game, exact=False)`` for float values with proven bounds. :func:`save` and
:func:`load` keep exact solutions in a documented JSON format that re-verifies on load.
"""

from tbsg._version import __version__
from tbsg.api import best_response, evaluate, solve
from tbsg.certificate import Verification, verify
from tbsg.errors import (
    ExactnessError,
    InfinitePlayError,
    InvalidArgumentError,
    InvalidGameError,
    InvalidStrategyError,
    NonStoppingGameError,
    SolutionFileError,
    StateLimitError,
    TamperedSolutionError,
    TbsgError,
    UnknownStateError,
    UnsupportedError,
)
from tbsg.model import DRAW, Game, Terminal, win
from tbsg.outputs.persist import load, save
from tbsg.outputs.pivot import Pivot
from tbsg.outputs.tables import Row, StateTable, state_table
from tbsg.results import FloatSolution, Solution, SolutionKind

__all__ = [
    "DRAW",
    "ExactnessError",
    "FloatSolution",
    "Game",
    "InfinitePlayError",
    "InvalidArgumentError",
    "InvalidGameError",
    "InvalidStrategyError",
    "NonStoppingGameError",
    "Pivot",
    "Row",
    "Solution",
    "SolutionFileError",
    "SolutionKind",
    "StateLimitError",
    "StateTable",
    "TamperedSolutionError",
    "TbsgError",
    "Terminal",
    "UnknownStateError",
    "UnsupportedError",
    "Verification",
    "__version__",
    "best_response",
    "evaluate",
    "load",
    "save",
    "solve",
    "state_table",
    "verify",
    "win",
]
