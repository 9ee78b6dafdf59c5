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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, NamedTuple

from tbsg.errors import InvalidGameError
from tbsg.model import Terminal, win
from tbsg.published import Check, fraction_check

__all__ = ["RiskOrSafety", "RoSState", "published", "risk_or_safety", "risk_or_safety_coin_table"]

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


# --- published quantities (seed 000), for ``tbsg reproduce`` ------------------------------

_SOURCE = "Jehn 2026, arXiv 2603.01002 (seed 000)"

# Table 1 (section 5) as printed: row = points the player to move needs (2..20), columns =
# points the opponent needs (2..20). Oracle data: only compared with, never used.
_TABLE1_PRINTED = {
    2: "2 2 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
    3: "3 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
    4: "2 2 2 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
    5: "2 2 2 2 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
    6: "2 2 2 2 2 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
    7: "3 2 2 2 2 2 1 1 1 1 1 1 1 1 1 1 1 1 1",
    8: "3 2 2 2 2 2 2 1 1 1 1 1 1 1 1 1 1 1 1",
    9: "3 3 2 2 2 2 2 2 1 1 1 1 1 1 1 1 1 1 1",
    10: "3 2 2 2 2 2 2 2 2 1 1 1 1 1 1 1 1 1 1",
    11: "3 3 2 2 2 2 2 2 2 2 1 1 1 1 1 1 1 1 1",
    12: "3 3 2 2 2 2 2 2 2 2 2 1 1 1 1 1 1 1 1",
    13: "4 3 3 2 2 2 2 2 2 2 2 2 1 1 1 1 1 1 1",
    14: "4 3 2 2 2 2 2 2 2 2 2 2 2 1 1 1 1 1 1",
    15: "4 3 3 2 2 2 2 2 2 2 2 2 2 2 1 1 1 1 1",
    16: "4 3 3 2 2 2 2 2 2 2 2 2 2 2 2 1 1 1 1",
    17: "4 3 3 3 2 2 2 2 2 2 2 2 2 2 2 2 1 1 1",
    18: "4 3 3 3 2 2 2 2 2 2 2 2 2 2 2 2 2 1 1",
    19: "4 3 3 3 2 2 2 2 2 2 2 2 2 2 2 2 2 2 1",
    20: "4 3 3 3 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2",
}


def _stop_at(stops: frozenset[tuple[int, int, int]]) -> Callable[[RoSState], Action]:
    """The symmetric profile that stops exactly at the paper's positions ``stops``."""
    def strategy(s: RoSState) -> Action:
        return "stop" if (s.open, s.saved, s.other) in stops else "toss"
    return strategy


def published() -> list[Check]:
    """Every number and table seed 000 prints, recomputed (rows for ``tbsg reproduce``).

    P(0,0,0) for targets 1 to 6 (sections 2 and 3), the worked example's values for
    ``n = 3`` (section 2), the strategy comparisons of sections 3.1 and 3.2 (through
    :func:`tbsg.evaluate`), the stated optimal strategies and values for ``n = 3, 4``
    (sections 3.2, 3.3) and Table 1 row by row (section 5).
    """
    from tbsg.api import evaluate, solve

    rows: list[Check] = []

    def frac(where: str, quantity: str, printed: str, computed: Fraction) -> None:
        rows.append(fraction_check("risk_or_safety", f"{_SOURCE}, {where}", quantity,
                                   Fraction(printed), computed))

    printed_p000 = {1: "2/3", 2: "4/7", 3: "6/11", 4: "2236/4165", 5: "1026/1925",
                    6: "275848876/521145625"}
    where_p000 = {1: "section 2", 2: "section 3.1", 3: "section 2", 4: "section 3.3",
                  5: "section 3.3", 6: "section 3.3"}
    sols = {n: solve(RiskOrSafety(n)) for n in range(1, 7)}
    for n, printed in printed_p000.items():
        frac(where_p000[n], f"P(0,0,0), n = {n}", printed, sols[n].value())

    g3, s3 = RiskOrSafety(3), sols[3]
    for pos, printed in [((0, 2, 0), "8/9"), ((0, 1, 0), "8/11"), ((0, 2, 1), "4/5"),
                         ((0, 2, 2), "2/3"), ((0, 1, 1), "4/7"), ((0, 1, 2), "2/5"),
                         ((0, 0, 1), "4/11"), ((0, 0, 2), "2/9")]:
        frac("section 2", f"P{pos}, n = 3", printed, s3.value_to_move(g3.position(*pos)))
    for k, (x, y) in {2: ("8/9", "7/9"), 1: ("8/11", "7/11"), 0: ("6/11", "5/11")}.items():
        frac("section 2", f"x{k}, n = 3", x, s3.value(RoSState(0, 0, k, 0)))
        frac("section 2", f"y{k}, n = 3", y, s3.value(RoSState(1, 0, 0, k)))

    g2 = RiskOrSafety(2)
    e1 = evaluate(g2, _stop_at(frozenset()))
    e2 = evaluate(g2, _stop_at(frozenset({(1, 0, 0)})))
    e3 = evaluate(g2, _stop_at(frozenset({(1, 0, 0), (1, 0, 1)})))
    frac("section 3.1", "P(0,0,0), n = 2, strategy 1 (continue at (1,0,0))", "4/7", e1.value())
    frac("section 3.1", "P(0,0,0), n = 2, strategy 2 (stop at (1,0,0))", "8/15", e2.value())
    frac("section 3.1", "P(0,0,1), n = 2, strategy 2", "2/5", e2.value_to_move(g2.position(0, 0, 1)))
    frac("section 3.1", "P(0,0,1), n = 2, strategy 3 (also stop at (1,0,1))", "2/9",
         e3.value_to_move(g2.position(0, 0, 1)))

    # section 3.2: the strategies of the left branch of the tree (continue at (1,0,0))
    n3 = {k: evaluate(g3, _stop_at(frozenset(stops))) for k, stops in {
        1: set(), 2: {(2, 0, 0)}, 3: {(2, 0, 0), (2, 0, 2)}, 4: {(2, 0, 0), (1, 0, 2)}}.items()}
    for k, pos, printed in [(2, (1, 0, 2), "1/3"), (3, (1, 0, 2), "1/5"), (2, (0, 0, 2), "2/9"),
                            (4, (0, 0, 2), "2/15"), (1, (1, 0, 0), "3/5"), (2, (1, 0, 0), "13/21")]:
        frac("section 3.2", f"P{pos}, n = 3, strategy {k}", printed,
             n3[k].value_to_move(g3.position(*pos)))
    paper3 = evaluate(g3, _stop_at(frozenset({(1, 0, 0)})))
    frac("section 3.2", "P(0,0,0), n = 3, 'stop only at (1,0,0)'", "6/11", paper3.value())
    paper4 = evaluate(RiskOrSafety(4), _stop_at(frozenset({(1, 2, 0), (2, 0, 0), (2, 0, 2)})))
    frac("section 3.3", "P(0,0,0), n = 4, 'stop at (1,2,0), (2,0,0), (2,0,2)'", "2236/4165",
         paper4.value())

    table = risk_or_safety_coin_table(20)
    for need, printed_row in _TABLE1_PRINTED.items():
        computed_row = " ".join(str(table[need, opp]) for opp in range(2, 21))
        rows.append(Check("risk_or_safety", f"{_SOURCE}, Table 1",
                          f"coins to toss, I need {need}, opponent needs 2..20",
                          printed_row, computed_row, printed_row == computed_row))
    return rows
