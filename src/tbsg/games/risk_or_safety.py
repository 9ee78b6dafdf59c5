"""Risk or Safety (R. Jehn, "Optimal strategy in the game Risk or Safety", arXiv 2603.01002, 2026).

Rules (seed 000, section 1): the player to move tosses a fair coin. Heads adds one *open*
point; the player may then stop, saving the open points and passing the coin, or take the
risk and toss again. Tails loses all open points and passes the coin. Whoever has
``target`` points (open plus saved) first wins at once.

The paper writes a position as ``(a0, a1, b)``: open and saved points of the player to
move and saved points of the opponent; :meth:`RiskOrSafety.position` builds that state
with player 0 to move, and ``solution.value_to_move(position)`` is the paper's
``P(a0, a1, b)``. Logically the same game is "choose ``x`` coins, win ``x`` points if all
are heads" (section 1) and Neller and Presser's Piglet (Pig with a coin).

Examples
--------
>>> import tbsg
>>> from tbsg.games import risk_or_safety
>>> game = risk_or_safety(3)
>>> sol = tbsg.solve(game)
>>> sol.value(), sol.value_to_move(game.position(0, 1, 0))
(Fraction(6, 11), Fraction(8, 11))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, NamedTuple

from tbsg.errors import InvalidGameError
from tbsg.model import Terminal, win

__all__ = ["BiasedRiskOrSafety", "RiskOrSafety", "RoSState", "biased_risk_or_safety", "risk_or_safety",
           "risk_or_safety_coin_table"]

Action = Literal["toss", "stop"]
_HALF = Fraction(1, 2)
_ONE = Fraction(1)
_TOSS: tuple[Action, ...] = ("toss",)
_TOSS_STOP: tuple[Action, ...] = ("toss", "stop")
_WINS = (win(0), win(1))
_new = tuple.__new__


class RoSState(NamedTuple):
    """A position of Risk or Safety.

    Attributes
    ----------
    mover : int
        Player holding the coin (0 or 1).
    open : int
        Open (unsaved) points of the mover: the paper's ``a0``.
    saved : int
        Saved points of the mover: ``a1``.
    other : int
        Saved points of the opponent: ``b``.
    """

    mover: int
    open: int
    saved: int
    other: int


@dataclass(frozen=True)
class RiskOrSafety:
    """Risk or Safety to ``target`` points; player 0 tosses first."""

    target: int

    def __post_init__(self) -> None:
        if isinstance(self.target, bool) or not isinstance(self.target, int) or self.target < 1:
            raise InvalidGameError(f"target must be a positive int, got {self.target!r}")

    @property
    def initial(self) -> RoSState:
        return RoSState(0, 0, 0, 0)

    def position(self, a0: int, a1: int, b: int) -> RoSState:
        """The paper's position ``(a0, a1, b)`` with player 0 to move."""
        if not (0 <= a1 < self.target and 0 <= b < self.target and 0 <= a0 < self.target - a1):
            raise InvalidGameError(
                f"({a0}, {a1}, {b}) is not a position of Risk or Safety to {self.target}: "
                f"need 0 <= a1, b < {self.target} and a0 + a1 < {self.target}")
        return RoSState(0, a0, a1, b)

    def player(self, s: RoSState) -> int:
        return s.mover

    def actions(self, s: RoSState) -> Sequence[Action]:
        return _TOSS if s.open == 0 else _TOSS_STOP

    def outcomes(self, s: RoSState, a: Action) -> list[tuple[Fraction, RoSState | Terminal]]:
        # (states are built with tuple.__new__: the same RoSState, without the
        # NamedTuple constructor's Python-level call, which is a third of this game's
        # cost when a million states are enumerated)
        mover, open_, saved, other = s
        if a == "stop":
            return [(_ONE, _new(RoSState, (1 - mover, 0, other, saved + open_)))]
        heads: RoSState | Terminal
        if open_ + 1 + saved >= self.target:
            heads = _WINS[mover]
        else:
            heads = _new(RoSState, (mover, open_ + 1, saved, other))
        return [(_HALF, heads), (_HALF, _new(RoSState, (1 - mover, 0, other, saved)))]


@dataclass(frozen=True)
class BiasedRiskOrSafety(RiskOrSafety):
    """Risk or Safety to ``target`` points with a coin showing heads with probability ``heads``.

    ``heads`` is a rational in (0, 1) (``Fraction(1, 2)`` is :class:`RiskOrSafety`), or a
    sympy expression in one symbol for :func:`tbsg.parametric.solve_parametric`: e.g.
    ``biased_risk_or_safety(4, sympy.Symbol("p"))`` is the game for every bias at once.
    The states are :class:`RoSState` s, as in :class:`RiskOrSafety`.

    >>> import tbsg
    >>> tbsg.solve(biased_risk_or_safety(3, Fraction(1, 2))).value()
    Fraction(6, 11)
    """

    heads: Any = _HALF

    def __post_init__(self) -> None:
        super().__post_init__()
        h = self.heads
        if isinstance(h, (bool, float)):
            raise InvalidGameError(f"heads must be a Fraction in (0, 1) or a sympy expression, got {h!r}")
        if isinstance(h, (int, Fraction)) and not 0 < h < 1:
            raise InvalidGameError(f"heads must lie strictly between 0 and 1, got {h}")

    def outcomes(self, s: RoSState, a: Action) -> list[tuple[Any, RoSState | Terminal]]:
        mover, open_, saved, other = s
        if a == "stop":
            return [(_ONE, _new(RoSState, (1 - mover, 0, other, saved + open_)))]
        heads: RoSState | Terminal
        if open_ + 1 + saved >= self.target:
            heads = _WINS[mover]
        else:
            heads = _new(RoSState, (mover, open_ + 1, saved, other))
        return [(self.heads, heads), (1 - self.heads, _new(RoSState, (1 - mover, 0, other, saved)))]


def biased_risk_or_safety(target: int, heads: Any) -> BiasedRiskOrSafety:
    """Risk or Safety to ``target`` points with P(heads) = ``heads`` (a rational or a sympy
    expression: see :class:`BiasedRiskOrSafety`)."""
    return BiasedRiskOrSafety(target, heads)


def risk_or_safety(target: int) -> RiskOrSafety:
    """Risk or Safety to ``target`` points (seed 000)."""
    return RiskOrSafety(target)


def risk_or_safety_coin_table(max_points: int) -> dict[tuple[int, int], int]:
    """Table 1 of seed 000 for any size: coins to toss before saving, computed exactly.

    Keys are ``(points I need, points the opponent needs)`` for both from 2 to
    ``max_points``; the value is how many heads in a row the player to move should toss
    before stopping (the number of open points at which the optimal strategy first
    stops, or all the points needed if it never stops). Sub-games depend only on the
    points still needed, so one exact solve to ``max_points`` gives the whole table.

    >>> t = risk_or_safety_coin_table(4)
    >>> t[4, 4], t[2, 2], t[3, 2]
    (2, 2, 3)
    """
    from tbsg.api import solve

    if isinstance(max_points, bool) or not isinstance(max_points, int) or max_points < 2:
        raise InvalidGameError(f"max_points must be an int >= 2, got {max_points!r}")
    game = RiskOrSafety(max_points)
    sol = solve(game)
    table: dict[tuple[int, int], int] = {}
    for need in range(2, max_points + 1):
        for opp in range(2, max_points + 1):
            saved, other = max_points - need, max_points - opp
            coins = need
            for a in range(1, need):
                if sol.action(RoSState(0, a, saved, other)) == "stop":
                    coins = a
                    break
            table[need, opp] = coins
    return table
