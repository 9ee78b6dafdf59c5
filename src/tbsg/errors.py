"""Exceptions raised by tbsg.

Every error subclasses the built-in a user would expect: a malformed game is a
:class:`ValueError`, an inexact number is a :class:`TypeError`. Messages name the
state, the action and the offending outcome.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = [
    "ExactnessError",
    "InvalidGameError",
    "InvalidStrategyError",
    "NonStoppingGameError",
    "SolutionFileError",
    "StateLimitError",
    "TamperedSolutionError",
    "TbsgError",
    "exactness_error",
]


class TbsgError(Exception):
    """Base class of all tbsg errors."""


class InvalidGameError(TbsgError, ValueError):
    """The game breaks a rule of the model (probabilities, players, actions, payoffs)."""


class ExactnessError(TbsgError, TypeError):
    """A float (or other inexact number) reached code that computes exactly."""


class StateLimitError(InvalidGameError):
    """Enumeration reached more states than the configured limit."""


class NonStoppingGameError(InvalidGameError):
    """Some strategies can keep play among non-terminal states forever.

    Attributes
    ----------
    trap_states : tuple
        States of the end components found (a sample if there are many).
    """

    def __init__(self, message: str, trap_states: tuple[object, ...]) -> None:
        super().__init__(message)
        self.trap_states = trap_states


class InvalidStrategyError(TbsgError, ValueError):
    """A strategy names an action that does not exist at a state, or misses a state."""


class TamperedSolutionError(TbsgError, ValueError):
    """A solution fails its certificate: it is not the solution of the game."""


class SolutionFileError(TbsgError, ValueError):
    """A saved solution file is unreadable, truncated, edited, or for another game."""


def exactness_error(what: str, value: object) -> ExactnessError:
    """Build the error for an inexact number, with advice on writing it exactly."""
    kind = type(value).__name__
    hint = ""
    if isinstance(value, float):
        try:
            guess = Fraction(repr(value)).limit_denominator(10**6)
            hint = f"; write it exactly, e.g. Fraction({guess.numerator}, {guess.denominator})"
            hint += f" or Fraction('{value!r}')"
        except (ValueError, OverflowError):
            hint = "; write it exactly as a Fraction"
    else:
        hint = "; use int or fractions.Fraction"
    return ExactnessError(f"{what} must be an int or fractions.Fraction, got {kind} {value!r}{hint}")
