"""Independent oracles shared by the property tests, and small hand-built games used in
more than one test file.

The oracle itself is :mod:`tbsg.testing.oracle` (the one users get): exact linear
solves on Python integers and Fractions (``gauss_jordan`` here, for the callers that know
it by that name) and max-min over every pure stationary profile, written without any of
tbsg's solver code. This module adapts it to :class:`~tbsg.testing.TableGame`'s
numbered states.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

import tbsg
from tbsg.testing import TableGame, oracle
from tbsg.testing import solve_linear_system as gauss_jordan

__all__ = ["PassTheCoin", "PingPong", "Profile", "Wait", "all_profiles", "gauss_jordan", "max_min"]

Profile = dict[int, Hashable]


def all_profiles(game: TableGame, states: Sequence[int]) -> list[Profile]:
    """Every pure stationary profile over ``states``."""
    return list(oracle.pure_profiles(game, states))


def max_min(game: TableGame, values_of: Callable[[Profile], dict[int, Fraction]],
            fixed: Profile | None = None) -> dict[int, Fraction]:
    """max over player 0 of min over player 1, state by state, over pure stationary profiles
    of the reachable states.

    ``values_of(profile)`` gives the exact values of a full profile (the caller's oracle);
    ``fixed`` pins some states' actions (used for best responses).
    """
    return oracle.max_min(game, game.reachable(), values_of, fixed)


@dataclass(frozen=True)
class Wait:
    """A game that need not end: "start" (chance) leads with probability 1/2 to "lobby",
    else player 1 wins; at "lobby" player 0 may "wait" there for ever or "leave" (a draw)."""

    initial: str = "start"

    def player(self, s: str) -> int:
        return 0

    def actions(self, s: str) -> tuple[str, ...]:
        return ("go",) if s == "start" else ("wait", "leave")

    def outcomes(self, s: str, a: str) -> list[tuple[Fraction, str | tbsg.Terminal]]:
        half = Fraction(1, 2)
        if s == "start":
            return [(half, "lobby"), (half, tbsg.win(1))]
        return [(Fraction(1), "lobby")] if a == "wait" else [(Fraction(1), tbsg.DRAW)]


class PassTheCoin:
    """The holder of a coin (state 0 or 1, who also moves) tosses it: heads wins for the
    holder, tails passes the coin. By hand: ``v0 = 1/2 + 1/2 v1`` and ``v1 = 1/2 v0``
    (values to player 0), so ``v0 = 2/3`` and ``v1 = 1/3``."""

    initial = 0

    def player(self, s: int) -> int:
        return s

    def actions(self, s: int) -> tuple[str, ...]:
        return ("toss",)

    def outcomes(self, s: int, a: str) -> list[tuple[Fraction, int | tbsg.Terminal]]:
        half = Fraction(1, 2)
        return [(half, tbsg.win(0) if s == 0 else tbsg.win(1)), (half, 1 - s)]


@dataclass(frozen=True)
class PingPong:
    """Two states passing play to each other for ever with probability 1: no terminal."""

    initial: str = "ping"

    def player(self, s: str) -> int:
        return 0 if s == "ping" else 1

    def actions(self, s: str) -> tuple[str, ...]:
        return ("hit",)

    def outcomes(self, s: str, a: str) -> list[tuple[int, str]]:
        return [(1, "pong" if s == "ping" else "ping")]


def float_solution(solver: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``solver(*args, exact=False, **kwargs)``'s FloatSolution, also when its tol is not
    reached (tbsg.ToleranceError carries the bounds found, which hold)."""
    try:
        return solver(*args, exact=False, **kwargs)
    except tbsg.ToleranceError as exc:
        found = cast("tbsg.FloatSolution[Any, Any]", exc.solution)
        assert not found.converged and exc.reachable == found.max_gap
        return found
