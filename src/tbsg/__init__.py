"""tbsg: exact and certified solutions of two-player turn-based stochastic games.

Write a game as four members (:class:`Game`), then :func:`solve` it: exact rational
values, every optimal action and a certificate :func:`verify` re-checks; or
``solve(game, exact=False)`` for float values with proven bounds. :func:`save` and
:func:`load` keep exact solutions in a documented JSON format that re-verifies on load.
"""

from tbsg.api import best_response, evaluate, solve
from tbsg.certificate import Verification, verify
from tbsg.engine.infinite import InfinitePlayError
from tbsg.errors import (
    ExactnessError,
    InvalidGameError,
    InvalidStrategyError,
    NonStoppingGameError,
    SolutionFileError,
    StateLimitError,
    TamperedSolutionError,
    TbsgError,
)
from tbsg.model import DRAW, Game, Terminal, win
from tbsg.outputs.pivot import Pivot
from tbsg.outputs.tables import Row, StateTable, state_table
from tbsg.persist import load, save
from tbsg.results import FloatSolution, Solution

__version__ = "0.1.0"

__all__ = [
    "DRAW",
    "ExactnessError",
    "FloatSolution",
    "Game",
    "InfinitePlayError",
    "InvalidGameError",
    "InvalidStrategyError",
    "NonStoppingGameError",
    "Pivot",
    "Row",
    "Solution",
    "SolutionFileError",
    "StateLimitError",
    "StateTable",
    "TamperedSolutionError",
    "TbsgError",
    "Terminal",
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
