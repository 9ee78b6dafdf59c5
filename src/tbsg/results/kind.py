"""What a solution is: the optimal play of both players, a fixed profile, or one player's
best response (:class:`SolutionKind`).

Each kind is defined by the players who optimise (``optimizing``); the others play the
solution's strategy. :func:`tbsg.verify` checks the certificate of the kind, and
:func:`tbsg.save` writes its value, so the names are stable.
"""

from __future__ import annotations

from enum import StrEnum

from tbsg.errors import InvalidArgumentError

__all__ = ["SolutionKind"]


class SolutionKind(StrEnum):
    """What a solution is (stable, machine-readable; saved in solution files).

    Examples
    --------
    >>> SolutionKind("best_response"), str(SolutionKind.SOLVE)
    (<SolutionKind.BEST_RESPONSE: 'best_response'>, 'solve')
    """

    SOLVE = "solve"
    """Both players optimal (:func:`tbsg.solve`)."""
    EVALUATE = "evaluate"
    """Both players follow a given profile (:func:`tbsg.evaluate`)."""
    BEST_RESPONSE = "best_response"
    """One player optimal against the other's fixed strategy (:func:`tbsg.best_response`)."""

    @staticmethod
    def of(optimizing: tuple[int, ...]) -> SolutionKind:
        """The kind of a solution in which the players ``optimizing`` optimise."""
        if optimizing == (0, 1):
            return SolutionKind.SOLVE
        if optimizing == ():
            return SolutionKind.EVALUATE
        if optimizing in ((0,), (1,)):
            return SolutionKind.BEST_RESPONSE
        raise InvalidArgumentError(f"optimizing must be (0, 1), (0,), (1,) or (), got {optimizing!r}")
