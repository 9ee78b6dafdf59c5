"""Risk or Safety (R. Jehn, "Optimal strategy in the game Risk or Safety", arXiv 2603.01002, 2026).

Rules (seed 000, section 1): the player to move tosses a fair coin. Heads adds one *open*
point; the player may then stop, saving the open points and passing the coin, or take the
risk and toss again. Tails loses all open points and passes the coin. Whoever has
``target`` points (open plus saved) first wins at once.

State: a :class:`RoSState` ``(mover, open, saved, other)``, the player holding the coin,
their open and saved points and the opponent's saved points. The paper writes a position
as ``(a0, a1, b)``, the last three with the mover implied; :meth:`RiskOrSafety.position`
builds that state with player 0 to move, and ``solution.value_to_move(position)`` is the
paper's ``P(a0, a1, b)``. The actions are ``"toss"`` and, with open points, ``"stop"``.
Logically the same game is "choose ``x`` coins, win ``x`` points if all are heads"
(section 1) and Neller and Presser's Piglet (Pig with a coin).

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
from typing import Any, ClassVar, Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from tbsg._util.checks import int_at_least
from tbsg.errors import InvalidGameError
from tbsg.model.arrays import ArrayAction, ArrayOutcome, ArrayTransitions, rules_kept
from tbsg.model.protocol import Terminal, win

__all__ = [
    "BiasedRiskOrSafety",
    "RiskOrSafety",
    "RoSLengthRow",
    "RoSState",
    "biased_risk_or_safety",
    "risk_or_safety",
    "risk_or_safety_coin_table",
    "risk_or_safety_lengths",
]

Action = Literal["toss", "stop"]
_HALF = Fraction(1, 2)
_ONE = Fraction(1)
_TOSS: tuple[Action, ...] = ("toss",)
_TOSS_STOP: tuple[Action, ...] = ("toss", "stop")
_WINS = (win(0), win(1))
_new = tuple.__new__
_PASSED = np.array([0, 1, 3, 2])  # (mover, open, other, saved): the columns of the coin passed


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
    _heads: ClassVar[Any] = _HALF  # the coin (a biased one in BiasedRiskOrSafety)
    _tails: ClassVar[Any] = _HALF

    def __post_init__(self) -> None:
        int_at_least("target", self.target, 1, error=InvalidGameError)

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
        # NamedTuple constructor's Python-level call, a large part of this method's cost
        # when a million states are enumerated)
        mover, open_, saved, other = s
        if a == "stop":
            return [(_ONE, _new(RoSState, (1 - mover, 0, other, saved + open_)))]
        heads: RoSState | Terminal
        if open_ + 1 + saved >= self.target:
            heads = _WINS[mover]
        else:
            heads = _new(RoSState, (mover, open_ + 1, saved, other))
        return [(self._heads, heads), (self._tails, _new(RoSState, (1 - mover, 0, other, saved)))]

    @property
    def array_shape(self) -> tuple[int, ...] | None:
        """The array form (:mod:`tbsg.model.arrays`): every coordinate of a state is below
        ``target``. None for a subclass that changes the rules, or when the cells do not
        fit int64 keys (a target beyond about 1.6 million)."""
        shape = (2, self.target, self.target, self.target)
        return shape if rules_kept(self, RiskOrSafety) and 2 * self.target**3 < 2**63 else None

    array_any_row: ClassVar[bool] = True
    """:meth:`array_transitions` works row by row and accepts any row within the shape, a
    state or not: a chain of this game with an :class:`tbsg.ArrayStrategy` may be
    enumerated from boxes of cells (:class:`tbsg.model.fixed.FixedStrategyGame`,
    :mod:`tbsg.engine.compile.arrays`)."""

    def array_transitions(self, states: npt.NDArray[np.int64]) -> ArrayTransitions:
        """:meth:`outcomes` for every row ``(mover, open, saved, other)`` at once."""
        m, o, s = states[:, 0], states[:, 1], states[:, 2]
        # successors built from copies of ``states`` a column at a time (no stacking): the
        # coin passed swaps the saved points, one gather of the columns
        up = states.copy()
        up[:, 1] += 1
        passed = states[:, _PASSED]
        np.subtract(1, m, out=passed[:, 0])
        passed[:, 1] = 0
        banked = passed.copy()
        banked[:, 3] += o
        heads = ArrayOutcome(self._heads, up, terminal=np.where(o + s >= self.target - 1, m, -1))
        tails = ArrayOutcome(self._tails, passed)
        stop = ArrayOutcome(_ONE, banked)
        return ArrayTransitions(player=m, terminals=_WINS, actions=(
            ArrayAction("toss", (heads, tails)), ArrayAction("stop", (stop,), allowed=o > 0)))


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
        object.__setattr__(self, "_heads", h)  # the coin RiskOrSafety.outcomes tosses
        object.__setattr__(self, "_tails", 1 - h)

    @property
    def array_shape(self) -> None:
        """None: no array form (``heads`` may be a sympy expression)."""
        return None



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
    from tbsg.api.solving import solve

    int_at_least("max_points", max_points, 2, error=InvalidGameError)
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


# -- how long a game lasts ------------------------------------------------------------------


@dataclass(frozen=True)
class RoSLengthRow:
    """How long Risk or Safety to ``target`` lasts under optimal play (one row of
    :func:`risk_or_safety_lengths`).

    A *toss* is one coin toss (``"stop"`` is not a toss); a *turn* is one player's
    spell with the coin, from a state with no open points until the coin passes or the
    game ends. Both players play the exactly optimal strategy of :func:`tbsg.solve`.

    Attributes
    ----------
    target : int
        Points to win.
    tosses : Fraction
        Expected number of coin tosses in the game.
    turns : Fraction
        Expected number of turns (both players' together).
    toss_variance : Fraction
        Variance of the number of tosses.
    fastest_tosses, slowest_tosses : Fraction
        Least and greatest expected number of tosses among all optimal profiles
        (:meth:`tbsg.Solution.fastest` and :meth:`~tbsg.Solution.slowest`); equal to
        ``tosses`` when the optimal strategy is unique where play goes.
    first_player_wins : Fraction
        The first player's winning chance (the paper's ``P(0, 0, 0)``).
    """

    target: int
    tosses: Fraction
    turns: Fraction
    toss_variance: Fraction
    fastest_tosses: Fraction
    slowest_tosses: Fraction
    first_player_wins: Fraction

    @property
    def tosses_per_point(self) -> Fraction:
        """``tosses / target``: expected tosses per point of the target."""
        return self.tosses / self.target

    @property
    def tosses_per_turn(self) -> Fraction:
        """``tosses / turns``: expected tosses per turn, averaged over the game (a ratio
        of expectations)."""
        return self.tosses / self.turns


def _tosses(s: RoSState, a: Action) -> int:
    """Count of a step: 1 per coin toss."""
    return 1 if a == "toss" else 0


def _turns(s: RoSState, a: Action) -> int:
    """Count of a step: 1 at the start of a turn (no open points: the first toss)."""
    return 1 if s.open == 0 else 0


@dataclass(frozen=True)
class _FromPosition:
    """``game`` played from ``initial`` instead of its own initial state."""

    game: RiskOrSafety
    initial: RoSState

    def player(self, s: RoSState) -> int:
        return self.game.player(s)

    def actions(self, s: RoSState) -> Sequence[Action]:
        return self.game.actions(s)

    def outcomes(self, s: RoSState, a: Action) -> list[tuple[Fraction, RoSState | Terminal]]:
        return self.game.outcomes(s, a)


def risk_or_safety_lengths(max_target: int) -> list[RoSLengthRow]:
    """Expected game length under optimal play, for targets ``1 .. max_target``, exactly.

    For each target ``n`` both players follow the exactly optimal strategy, which turns
    the game into a Markov chain (:func:`tbsg.chain`); its expected number of tosses
    ``E_s`` solves the linear system (Kemeny and Snell's fundamental matrix)

    .. math::

        E_s = c(s, \\sigma(s)) + \\sum_{s'} P(s' \\mid s, \\sigma(s))\\, E_{s'},

    with ``E = 0`` at the end of the game, ``sigma`` the optimal strategy and ``c`` the
    count of a step (1 per toss, or 1 per turn: a step from a state with no open points).
    The variance comes from the second moments ``M_s = 2 c E_s - c^2 + sum P M``
    (:meth:`tbsg.Chain.variance_of_steps`); the fastest and slowest optimal expected
    lengths from :meth:`tbsg.Solution.fastest` / :meth:`~tbsg.Solution.slowest`.

    One exact solve serves all targets: a position depends only on the points each
    player still needs, so the game to ``n`` is the game to ``max_target`` started at
    ``(0, max_target - n, max_target - n)`` with player 0 to move; every state it reaches
    is a state of the big game with the same value and the same optimal actions (the
    tests compare with a separate solve per target). The paper (seed 000) reports no game
    length: these numbers are tbsg's own.

    The numbers grow: the expected tosses to 50 have a numerator and denominator of about
    380 digits, the variance a denominator of about 750 (``benchmarks/bench_lengths.py``
    measures the cost). Float bounds, when exact numbers are too large:
    ``tbsg.chain(game, solution).expected_steps(count, exact=False)``.

    Parameters
    ----------
    max_target : int
        The largest target (>= 1).

    Returns
    -------
    list of RoSLengthRow
        One row per target, ``1 .. max_target``.

    Examples
    --------
    Target 1: every toss ends the game with probability 1/2, so 2 tosses (and turns) on
    average. Target 2: both players toss on until two heads in a row, a turn wins with
    probability 1/4 (4 turns on average) and takes 3/2 tosses on average (6 tosses).

    >>> rows = risk_or_safety_lengths(3)
    >>> [(r.target, r.tosses, r.turns) for r in rows[:2]]
    [(1, Fraction(2, 1), Fraction(2, 1)), (2, Fraction(6, 1), Fraction(4, 1))]
    >>> rows[2].tosses, rows[2].first_player_wins
    (Fraction(120, 11), Fraction(6, 11))
    """
    from tbsg.api.solving import solve
    from tbsg.play.chain import chain

    int_at_least("max_target", max_target, 1, error=InvalidGameError)
    big = RiskOrSafety(max_target)
    sol = solve(big)
    fast, slow = sol.fastest(_tosses), sol.slowest(_tosses)
    rows: list[RoSLengthRow] = []
    for n in range(1, max_target + 1):
        start = RoSState(0, 0, max_target - n, max_target - n)
        c = chain(_FromPosition(big, start), sol)
        rows.append(RoSLengthRow(
            target=n, tosses=c.expected_steps(_tosses), turns=c.expected_steps(_turns),
            toss_variance=c.variance_of_steps(_tosses),
            fastest_tosses=fast.expected_from(start), slowest_tosses=slow.expected_from(start),
            first_player_wins=sol.value(start)))
    return rows
