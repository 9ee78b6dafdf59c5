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

import numpy as np

import tbsg
from tbsg.engine.compiled import CompiledGame
from tbsg.testing import TableGame, oracle
from tbsg.testing import solve_linear_system as gauss_jordan

__all__ = [
    "Bet",
    "FewestRolls",
    "KeepRolling",
    "OneTurn",
    "PassTheCoin",
    "PingPong",
    "Profile",
    "Row",
    "Wait",
    "all_profiles",
    "compiled_from_rows",
    "gauss_jordan",
    "max_min",
]

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


# --- reward games: hand-derived values (issue 24) ----------------------------------------------

SIXTH = Fraction(1, 6)


@dataclass(frozen=True)
class OneTurn:
    """One turn of Pig played for points (Neller and Presser's one-turn game): the state is
    the turn total ``t``; "roll" a die: a 1 ends the turn scoring nothing, a face ``k >= 2``
    adds ``k``; "bank" ends the turn scoring ``t`` (a reward, paid to player 0). From
    ``t >= cap`` only "bank" is offered (so the game is finite).

    By hand, with ``cap = 4``: ``V(t) = t`` for ``t >= 4``; ``V(3) = max(3, (5 + 6 + 7 + 8 +
    9) / 6) = 35/6``; ``V(2) = max(2, (4 + 5 + 6 + 7 + 8) / 6) = 5``; ``V(0) = (V(2) + V(3) +
    4 + 5 + 6) / 6 = (5 + 35/6 + 15) / 6 = 155/36`` (banking 0 at ``t = 0`` is worse).

    With a cap far above 20 ("hold at 20"): once every successor banks, rolling at ``t`` is
    worth ``(5/6)(t + 4) = t + (20 - t)/6``, so rolling is better below 20, banking above,
    and at exactly 20 the two tie; the one-step argument holds since above 20 every later
    roll is worse still.
    """

    cap: int = 4
    initial: int = 0  # no player(): a one-player game, every state player 0's

    def actions(self, t: int) -> tuple[str, ...]:
        return ("bank",) if t >= self.cap else ("bank", "roll")

    def reward(self, t: int, a: str) -> int:
        return t if a == "bank" else 0

    def outcomes(self, t: int, a: str) -> list[tuple[Fraction, int | tbsg.Terminal]]:
        if a == "bank":
            return [(Fraction(1), tbsg.Terminal(0))]
        return [(SIXTH, tbsg.Terminal(0)), *((SIXTH, t + k) for k in range(2, 7))]


class KeepRolling:
    """A geometric "keep rolling" game: player 0 may "stop" (nothing more) or "roll": the
    roll pays 1 point, then a six ends play costing 3 points (a terminal paying -3), any
    other face lets him roll again.

    By hand: ``v = max(0, 1 + (1/6)(-3) + (5/6) v)``; rolling for ever (the stationary
    choice) gives ``v = 1/2 + 5v/6``, ``v = 3 > 0``: roll, value 3.
    """

    initial = "go"

    def player(self, s: str) -> int:
        return 0

    def actions(self, s: str) -> tuple[str, ...]:
        return ("stop", "roll")

    def reward(self, s: str, a: str) -> int:
        return 1 if a == "roll" else 0

    def outcomes(self, s: str, a: str) -> list[tuple[Fraction, str | tbsg.Terminal]]:
        if a == "stop":
            return [(Fraction(1), tbsg.Terminal(0))]
        return [(SIXTH, tbsg.Terminal(-3)), (1 - SIXTH, "go")]


class Bet:
    """A two-player game for a score: the terminal pays player 0 the point difference.

    At "A" player 0 may take a "safe" 1 point, or "bet": a coin sends play to "B" or ends
    it at 0. At "B" player 1 may "concede" 4 points, or "call": a die pays 9 on a 1 or 2
    (probability 1/3), and -1 otherwise.

    By hand: ``Q(B, call) = 9/3 - 2/3 = 7/3 < 4 = Q(B, concede)``, so player 1 calls and
    ``V(B) = 7/3``; ``Q(A, bet) = (1/2)(7/3) + (1/2) 0 = 7/6 > 1``, so ``V(A) = 7/6``.
    Player 1's view is ``-7/6`` (a zero-sum game of points, not of win probabilities).
    """

    initial = "A"

    def player(self, s: str) -> int:
        return 0 if s == "A" else 1

    def actions(self, s: str) -> tuple[str, ...]:
        return ("safe", "bet") if s == "A" else ("concede", "call")

    def outcomes(self, s: str, a: str) -> list[tuple[Fraction, str | tbsg.Terminal]]:
        half, third = Fraction(1, 2), Fraction(1, 3)
        table: dict[str, list[tuple[Fraction, str | tbsg.Terminal]]] = {
                "safe": [(Fraction(1), tbsg.Terminal(1))],
                "bet": [(half, "B"), (half, tbsg.Terminal(0))],
                "concede": [(Fraction(1), tbsg.Terminal(4))],
                "call": [(third, tbsg.Terminal(9)), (1 - third, tbsg.Terminal(-1))]}
        return table[a]


@dataclass(frozen=True)
class FewestRolls:
    """A one-player minimisation: player 1 wants a six in as few rolls as possible,
    paying one point per die rolled: roll "one" die (1 point, a six with probability 1/6)
    or "two" dice (2 points, at least one six with probability 11/36).

    By hand: always one die costs ``v = 1 + (5/6) v``, ``v = 6``; always two costs
    ``w = 2 + (25/36) w``, ``w = 72/11``; and at ``v = 6`` the Bellman equation holds
    with "one" strictly better (``2 + (25/36) 6 = 37/6 > 6``), so the value is 6. With
    ``cost = -1`` the same game is player 0's, maximising ``-rolls``: value -6.
    """

    cost: int = 1
    initial: str = "rolling"

    def player(self, s: str) -> int:
        return 1 if self.cost > 0 else 0

    def actions(self, s: str) -> tuple[str, ...]:
        return ("one", "two")

    def reward(self, s: str, a: str) -> int:
        return self.cost * (1 if a == "one" else 2)

    def outcomes(self, s: str, a: str) -> list[tuple[Fraction, str | tbsg.Terminal]]:
        hit = SIXTH if a == "one" else Fraction(11, 36)
        return [(hit, tbsg.Terminal(0)), (1 - hit, "rolling")]


Row = tuple[Fraction | int, Fraction | int, list[tuple[Fraction | int, int]]]
"""An action of :func:`compiled_from_rows`: ``(c_k, s_k, outcomes)``."""


def compiled_from_rows(players: list[int], rows: list[list[Row]]) -> CompiledGame[int, int]:
    """A compiled game from ``rows[i]``: state ``i``'s actions as ``(c_k, s_k, outcomes)``
    (labels ``0, 1, ...`` per state; ``c_k`` the move's reward plus the expected terminal
    payoff, any rationals), for engine tests that need no game object."""
    act_ptr: list[int] = [0]
    out_ptr: list[int] = [0]
    labels: list[int] = []
    target: list[int] = []
    const: list[Fraction] = []
    stop: list[Fraction] = []
    prob: list[Fraction] = []
    for acts in rows:
        for j, (c, s, outs) in enumerate(acts):
            labels.append(j)
            const.append(Fraction(c))
            stop.append(Fraction(s))
            prob.extend(Fraction(p) for p, _ in outs)
            target.extend(t for _, t in outs)
            out_ptr.append(len(target))
        act_ptr.append(len(labels))
    n = len(rows)
    return CompiledGame.from_values(list(range(n)), {i: i for i in range(n)},
                                    np.array(players, dtype=np.int8), np.array(act_ptr, dtype=np.int64),
                                    labels, np.array(out_ptr, dtype=np.int64),
                                    np.array(target, dtype=np.int64), const, stop, prob)


# --- games that pay rewards ---------------------------------------------------------------

@dataclass(frozen=True)
class Sixes:
    """Player 1 rolls a die until it shows a six, paying 1 per roll, or quits paying ``quit``
    at once: she minimises the expected total. Rolling costs 6 on average (geometric,
    success 1/6), so she quits when ``quit < 6`` (value ``quit``), rolls otherwise (6)."""

    quit: int = 4
    initial = "rolling"

    def player(self, s: str) -> int:
        return 1

    def actions(self, s: str) -> tuple[str, ...]:
        return ("roll", "quit")

    def reward(self, s: str, a: str) -> int:
        return 1 if a == "roll" else self.quit

    def outcomes(self, s: str, a: str) -> list[tuple[Fraction, Any]]:
        if a == "quit":
            return [(Fraction(1), tbsg.Terminal(0))]
        return [(Fraction(1, 6), tbsg.Terminal(0)), (Fraction(5, 6), "rolling")]


@dataclass(frozen=True)
class StopOrToss:
    """Player 0 stops (paying 0) or tosses: a toss earns 1, heads (probability ``p``, a
    number or a parameter's symbol) lets her choose again, tails ends play costing her 3."""

    p: Any
    initial = "s"

    def player(self, s: str) -> int:
        return 0

    def actions(self, s: str) -> tuple[str, ...]:
        return ("stop", "toss")

    def reward(self, s: str, a: str) -> int:
        return 1 if a == "toss" else 0

    def outcomes(self, s: str, a: str) -> list[tuple[Any, Any]]:
        if a == "stop":
            return [(1, tbsg.Terminal(0))]
        return [(self.p, "s"), (1 - self.p, tbsg.Terminal(-3))]


# --- Pig by hand ---------------------------------------------------------------------------

def turn_gain(hold: int, die: int, need: int) -> dict[int, Fraction]:
    """Distribution of one hold-at-``hold``-or-goal turn's gain, ``need`` points short of
    the goal: the dynamic program Neller's Nifty Assignment page (2010) describes ("the
    probability of passing through each score"), stopping at the goal too, in Fractions."""
    top = max(hold, need) + die
    score = [Fraction(0)] * (top + 1)
    score[0] = Fraction(1)
    for i in range(min(hold, need)):
        p = score[i] / die
        score[i] = Fraction(0)
        score[0] += p
        for r in range(2, die + 1):
            score[i + r] += p
    return {k: p for k, p in enumerate(score) if p}
