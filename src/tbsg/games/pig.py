"""Pig and Piglet (T. W. Neller and C. G. M. Presser, "Optimal Play of the Dice Game Pig",
The UMAP Journal 25(1) (2004) 25-47).

Rules (p. 25): two players take turns; the object is to be the first to reach ``goal``
points (100 in the paper). A turn is a sequence of rolls of a die. After each roll the
player either rolls again or *holds*:

* a 1 scores nothing for the turn: the turn total is lost and the turn passes;
* any other face ``2, ..., die`` is added to the *turn total* and the turn continues;
* holding adds the turn total to the player's score and passes the turn.

*Piglet* (p. 28) is the same game with a coin: heads adds one point to the turn total,
tails loses it. The paper plays it to 10 points and, by hand, to 2. Here the coin's
"flip" is called ``"roll"`` too, so one strategy function plays both games.

Two rule details are fixed as the paper's equations fix them (p. 26, and p. 28 for Piglet):

* **Reaching the goal wins at once.** The paper sets ``P(i, j, k) = 1`` whenever
  ``i + k >= goal`` "because the player can simply hold and win". Here a roll that brings
  score plus turn total to the goal ends the game with a win; the player does not have
  to hold.
* **A turn starts with a roll.** Holding is offered only with a turn total ``k >= 1``.
  The paper's system also lists a hold at ``k = 0`` (``P(i, j, 0, hold) = 1 - P(j, i, 0)``:
  passing the turn). That option never helps (see *Mathematics*), but it lets both players
  pass forever, which makes the game non-stopping. Leaving it out keeps the game
  stopping and changes no value (the tests check it for small goals with
  ``tbsg.solve(..., infinite_play=0)`` and ``infinite_play=1``).

State: the paper writes ``P(i, j, k)`` for the mover's chance to win with score ``i``,
opponent's score ``j`` and turn total ``k``. In tbsg a state is a :class:`PigState`
``(mover, score, other, turn_total)``, the player to move included;
:meth:`Pig.position` builds ``(0, i, j, k)`` and
``solution.value_to_move(game.position(i, j, k))`` is ``P(i, j, k)``. The actions are
``"roll"`` and ``"hold"``; a strategy is a plain function of a :class:`PigState`
returning one of them (see :func:`pig_hold_at`).

Mathematics
-----------
With ``d = die`` and ``P(i, j, k) = 1`` for ``i + k >= goal``, the paper's equations are

.. math::

    P_{i,j,k} = \\max(P_{i,j,k}^{roll}, P_{i,j,k}^{hold}), \\quad
    P_{i,j,k}^{roll} = \\frac{1}{d}\\Big[(1 - P_{j,i,0}) + \\sum_{r=2}^{d} P_{i,j,k+r}\\Big],
    \\quad P_{i,j,k}^{hold} = 1 - P_{j,i+k,0}

(only the roll term at ``k = 0`` here), and for Piglet
``P^{flip}_{i,j,k} = [(1 - P_{j,i,0}) + P_{i,j,k+1}] / 2``. They use the symmetry of the
game: the player to move next is in the same situation as the mover was, with the
scores swapped. tbsg solves the two-player form instead (player 0 maximises, player 1
minimises the value to player 0: the Bellman equations of :mod:`tbsg.model.protocol`), whose
solution satisfies ``V(1, i, j, k) = 1 - V(0, i, j, k)``, so both give the same numbers.

Holding at ``k = 0`` is never better than rolling. A player's chance never decreases
with his own score (he can play as if he had fewer points and reaches the goal no later),
so ``P_{j,i',0}`` does not increase with ``i'``, and since ``P_{i,j,r} >= P^{hold}_{i,j,r}``,

.. math::

    P^{roll}_{i,j,0} \\ge \\frac{1}{d}(1 - P_{j,i,0})
    + \\frac{d-1}{d}\\min_{r}(1 - P_{j,i+r,0}) \\ge 1 - P_{j,i,0} = P^{hold}_{i,j,0}.

Piglet is Risk or Safety
------------------------
``solve(piglet(n)).value() == solve(risk_or_safety(n)).value()`` exactly, for every
``n``, and the two games are the same game state for state (Jehn 2026, section 1, says
so of Risk or Safety and Piglet). The map ``RoSState(m, open, saved, other) ->
PigState(m, saved, other, open)`` with ``"toss" -> "roll"`` and ``"stop" -> "hold"`` is a
bijection of the reachable states that preserves the mover and every transition:

* a toss/flip gains one open point with probability 1/2 and wins at once when open plus
  saved points reach the target (Risk or Safety: "whoever has n points (open plus saved)
  first wins at once"; Piglet: ``P = 1`` at ``i + k >= goal``);
* tails (probability 1/2) loses the open points and passes the coin: ``(other, saved, 0)``;
* stopping/holding is allowed only with at least one open point and banks them;
* player 0 starts at ``(0, 0, 0)`` in both.

So the compiled games are isomorphic and every value and optimal action agrees (tests:
``n = 1, ..., 8``), and Piglet's hold boundary is Jehn's Table 1 read from the other end
(``pig_hold_boundary`` at scores ``(i, j)`` is the table at needs ``(n - i, n - j)``).
Neither rule detail above could break the equality: requiring an explicit hold once the
goal is reached only adds states whose value is 1 (holding then wins surely, which is why
the paper sets ``P = 1``), and the paper's hold at turn total 0 changes no value.

Size and exactness
------------------
Pig to 100 with a six-sided die has 960,894 reachable states: the paper's 505,000
equations (p. 31) count the triples ``(i, j, k)`` with ``0 <= i, j < 100`` and
``k < 100 - i``; tbsg keeps both players to move (the paper uses the symmetry above
instead) and drops the triples that are never reached (a score or a turn total of 1
cannot occur when every gain is at least 2). Pig and Piglet have an array form
(:mod:`tbsg.model.arrays`): the compiler takes every state of a batch at once, with
numpy, instead of one ``outcomes`` call per state and action. The float path
(``tbsg.solve(pig(), exact=False)``) proves bounds of width below ``1e-12``.

Exact solving goes much further than for most games, because the state graph splits
into small strongly connected components (the scores ``{i, j}`` of one pair, at most
``4 * goal`` states each, solved from the highest score sum down, as the paper does in
its "stages", p. 31). What grows is the size of the numbers: the denominator of the
first player's value has 8 digits for a goal of 20, 138 for 40, 391 for 50, 1,266 for
60, 2,964 for 65, 5,393 for 70, about 10,300 for 80 and about 20,900 for 100 (that
value lies inside the float path's certified interval); Piglet's, 75 digits for 20 and
1,435 for 100. Time and memory grow with those digits (``docs/performance.md``).

Where exact ends: from a goal of about 70 on, the first player's value has more than
4300 digits, which Python will not turn into a string by default: the solution is fine,
but ``repr`` of a ``tbsg.Solution`` and :func:`tbsg.save` then raise ``ValueError``.
Goal 100 is still solvable exactly, at a cost in time and memory that makes the float
path the practical one there.

Findings
--------
* The first player's chance with optimal play to 100 is ``0.530592725273...`` (certified
  interval ``[0.530592725273577, 0.530592725273912]``).
* Against "hold at 20" (:func:`pig_hold_at`), the best response wins ``0.587367621237``
  when it starts, "hold at 20" wins ``0.477618027609`` when it starts, and the best
  response wins ``0.554874796814`` when a fair coin picks the starter. The
  minimax-optimal policy of the game, which does not exploit the opponent, gets
  ``0.5715``, ``0.4917`` and ``0.5399`` against "hold at 20". Two "hold at 20" players:
  the first wins ``0.5347``.
* The optimal policy is not a threshold in the turn total: to 100, at 41 against 49 the
  optimal player holds at turn totals 22 to 26, rolls again at 27 and holds from 28.

What the paper prints and how these compare (everything reproduces; its "optimal player"
against "hold at 20" is the best response) is in :mod:`tbsg.sources.pig`.

Examples
--------
>>> import tbsg
>>> from tbsg.games.pig import pig, piglet
>>> game = piglet(2)                      # the paper's hand-worked Piglet (p. 28-30)
>>> sol = tbsg.solve(game)
>>> sol.value(), sol.value_to_move(game.position(1, 1, 0))
(Fraction(4, 7), Fraction(2, 3))
>>> sol = tbsg.solve(pig(10))
>>> sol.value(), sol.n_states
(Fraction(7776, 10961), 684)
>>> pig_hold_boundary(sol)[0, 0]          # at 0-0 roll until the turn total is 10 (win)
10
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from tbsg._util.checks import int_at_least
from tbsg.errors import InvalidGameError, InvalidStrategyError
from tbsg.model.arrays import ArrayAction, ArrayOutcome, ArrayTransitions, rules_kept
from tbsg.model.protocol import Terminal, win

if TYPE_CHECKING:
    from tbsg.results import FloatSolution, Solution

__all__ = [
    "BiasedPig",
    "Pig",
    "PigAction",
    "PigState",
    "PigTurnBounds",
    "PigTurns",
    "Piglet",
    "biased_pig",
    "pig",
    "pig_hold_at",
    "pig_hold_boundary",
    "pig_turn_bounds",
    "pig_turns",
    "pig_versus",
    "piglet",
]

PigAction = Literal["roll", "hold"]
"""The two actions; Piglet's "flip" is ``"roll"`` too."""
Strategy = Callable[["PigState"], PigAction]
"""A strategy: a function from a state to ``"roll"`` or ``"hold"``."""

_ONE = Fraction(1)
_ROLL_ONLY: tuple[PigAction] = ("roll",)
_BOTH: tuple[PigAction, PigAction] = ("roll", "hold")
_WIN = (win(0), win(1))


class PigState(NamedTuple):
    """A position of Pig or Piglet, before the mover's next decision.

    Attributes
    ----------
    mover : int
        Player whose turn it is (0 or 1); player 0 moves first.
    score : int
        The mover's banked score: the paper's ``i`` (0 to ``goal - 1``).
    other : int
        The opponent's banked score: ``j`` (0 to ``goal - 1``).
    turn_total : int
        Points rolled so far this turn, lost on a 1: ``k`` (``score + turn_total < goal``).
    """

    mover: int
    score: int
    other: int
    turn_total: int


class _Jeopardy:
    """Rules shared by Pig and Piglet: a jeopardy race to ``goal``.

    Subclasses set ``goal``, ``_bust`` (probability of losing the turn total, a shared
    :class:`~fractions.Fraction`) and ``_gains`` (points added by each good face, each
    with probability ``_bust``).
    """

    goal: int
    _bust: Fraction
    _gains: tuple[int, ...]

    @property
    def initial(self) -> PigState:
        """Player 0 to roll, both scores 0."""
        return PigState(0, 0, 0, 0)

    def position(self, i: int, j: int, k: int = 0) -> PigState:
        """The paper's state ``(i, j, k)`` with player 0 to move.

        ``i`` is the mover's score, ``j`` the opponent's, ``k`` the turn total; any
        ``0 <= i, j < goal`` and ``0 <= k < goal - i`` is accepted, as in the paper.
        With a die (every gain at least 2) a score or turn total of 1 is never reached,
        so solutions hold no value for such positions.
        """
        for name, v in (("i", i), ("j", j), ("k", k)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise InvalidGameError(f"{name} must be an int, got {v!r}")
        if not (0 <= i < self.goal and 0 <= j < self.goal and 0 <= k < self.goal - i):
            raise InvalidGameError(
                f"({i}, {j}, {k}) is not a position of {self!r}: need 0 <= i, j < {self.goal} "
                f"and 0 <= k < {self.goal} - i")
        return PigState(0, i, j, k)

    def player(self, s: PigState) -> int:
        return s.mover

    def actions(self, s: PigState) -> Sequence[PigAction]:
        """``("roll",)`` at the start of a turn, else ``("roll", "hold")``."""
        return _ROLL_ONLY if s.turn_total == 0 else _BOTH

    def outcomes(self, s: PigState, a: PigAction) -> list[tuple[Fraction, PigState | Terminal]]:
        nxt = 1 - s.mover
        if a == "hold":
            return [(_ONE, PigState(nxt, s.other, s.score + s.turn_total, 0))]
        if a != "roll":
            raise InvalidGameError(f"action must be 'roll' or 'hold', got {a!r}")
        p = self._bust
        out: list[tuple[Fraction, PigState | Terminal]] = [(p, PigState(nxt, s.other, s.score, 0))]
        need = self.goal - s.score - s.turn_total
        for gain in self._gains:
            if gain >= need:
                out.append((p, _WIN[s.mover]))
            else:
                out.append((p, PigState(s.mover, s.score, s.other, s.turn_total + gain)))
        return out


class _FairJeopardy(_Jeopardy):
    """Pig and Piglet with their array form (:mod:`tbsg.model.arrays`): every state of a batch
    at once, so the compiler enumerates Pig to 100 at numpy speed. Not
    :class:`BiasedPig`, whose probabilities may be sympy expressions.

    A state ``(mover, score, other, turn_total)`` has every coordinate below ``goal``
    (``turn_total < goal - score``), so ``array_shape`` is ``(2, goal, goal, goal)``. A
    subclass that redefines ``player``, ``actions`` or ``outcomes`` (and not
    ``array_transitions``) has no array form (:func:`tbsg.model.arrays.rules_kept`).
    """

    @property
    def array_shape(self) -> tuple[int, ...] | None:
        """``(2, goal, goal, goal)``; None for a subclass that changes the rules, or when
        the cells do not fit int64 keys (a goal beyond about 1.6 million)."""
        shape = (2, self.goal, self.goal, self.goal)
        return shape if rules_kept(self, _FairJeopardy) and 2 * self.goal**3 < 2**63 else None

    def array_transitions(self, states: npt.NDArray[np.int64]) -> ArrayTransitions:
        """:meth:`outcomes` for every row ``(mover, score, other, turn_total)`` at once."""
        m, i, j, k = states.T
        nxt = 1 - m
        zero = np.zeros_like(m)
        bust = ArrayOutcome(self._bust, np.stack([nxt, j, i, zero], axis=1))
        need = self.goal - i - k
        roll = [bust]
        for gain in self._gains:
            roll.append(ArrayOutcome(self._bust, np.stack([m, i, j, k + gain], axis=1),
                                     terminal=np.where(gain >= need, m, -1)))
        hold = ArrayOutcome(_ONE, np.stack([nxt, j, i + k, zero], axis=1))
        return ArrayTransitions(player=m, terminals=_WIN, actions=(
            ArrayAction("roll", tuple(roll)), ArrayAction("hold", (hold,), allowed=k > 0)))


@dataclass(frozen=True)
class Pig(_FairJeopardy):
    """Pig to ``goal`` points with a ``die``-sided die (1 loses the turn total).

    Player 0 rolls first. See the module docstring for the rules and notation.
    """

    goal: int = 100
    die: int = 6

    def __post_init__(self) -> None:
        int_at_least("goal", self.goal, 1, error=InvalidGameError)
        int_at_least("die", self.die, 2, error=InvalidGameError)
        object.__setattr__(self, "_bust", Fraction(1, self.die))
        object.__setattr__(self, "_gains", tuple(range(2, self.die + 1)))


@dataclass(frozen=True)
class Piglet(_FairJeopardy):
    """Piglet to ``goal`` points: Pig with a fair coin, heads adding 1 point."""

    goal: int

    def __post_init__(self) -> None:
        int_at_least("goal", self.goal, 1, error=InvalidGameError)
        object.__setattr__(self, "_bust", Fraction(1, 2))
        object.__setattr__(self, "_gains", (1,))


@dataclass(frozen=True)
class BiasedPig(_Jeopardy):
    """Pig to ``goal`` points with a ``die``-sided die that shows 1 with probability ``bust``.

    The other faces ``2, ..., die`` are equally likely, ``(1 - bust) / (die - 1)`` each;
    ``bust = Fraction(1, die)`` is :class:`Pig`. ``bust`` may be a sympy expression in one
    symbol, for :func:`tbsg.parametric.solve_parametric` (the game for every bias at once).
    States are :class:`PigState` s, as in :class:`Pig`.

    >>> import tbsg
    >>> tbsg.solve(biased_pig(4, 6, Fraction(1, 6))).value() == tbsg.solve(pig(4)).value()
    True
    """

    goal: int = 10
    die: int = 6
    bust: Any = None

    def __post_init__(self) -> None:
        int_at_least("goal", self.goal, 1, error=InvalidGameError)
        int_at_least("die", self.die, 2, error=InvalidGameError)
        b = Fraction(1, self.die) if self.bust is None else self.bust
        if isinstance(b, (bool, float)):
            raise InvalidGameError(f"bust must be a Fraction in (0, 1) or a sympy expression, got {b!r}")
        if isinstance(b, (int, Fraction)) and not 0 < b < 1:
            raise InvalidGameError(f"bust must lie strictly between 0 and 1, got {b}")
        object.__setattr__(self, "bust", b)
        object.__setattr__(self, "_bust", b)
        object.__setattr__(self, "_face", (1 - b) / (self.die - 1))
        object.__setattr__(self, "_gains", tuple(range(2, self.die + 1)))

    def outcomes(self, s: PigState, a: PigAction) -> list[tuple[Any, PigState | Terminal]]:
        if a != "roll":
            return super().outcomes(s, a)
        nxt = 1 - s.mover
        face: Any = self._face  # type: ignore[attr-defined]
        out: list[tuple[Any, PigState | Terminal]] = [
            (self._bust, PigState(nxt, s.other, s.score, 0))]
        need = self.goal - s.score - s.turn_total
        win_mass: Any = 0
        for gain in self._gains:
            if gain >= need:
                win_mass = win_mass + face
            else:
                out.append((face, PigState(s.mover, s.score, s.other, s.turn_total + gain)))
        if win_mass != 0:
            out.append((win_mass, _WIN[s.mover]))
        return out


def biased_pig(goal: int = 10, die: int = 6, bust: Any = None) -> BiasedPig:
    """Pig to ``goal`` with a ``die``-sided die showing 1 with probability ``bust``
    (see :class:`BiasedPig`)."""
    return BiasedPig(goal, die, bust)


def pig(goal: int = 100, die: int = 6) -> Pig:
    """Pig to ``goal`` points (100 in the paper) with a ``die``-sided die (6)."""
    return Pig(goal, die)


def piglet(goal: int) -> Piglet:
    """Piglet to ``goal`` points (10 in the paper, 2 in its hand-worked example)."""
    return Piglet(goal)


def pig_hold_at(n: int) -> Strategy:
    """The strategy "hold at ``n``": roll while the turn total is below ``n``, then hold.

    The goal needs no rule of its own: reaching it wins at once. This is the paper's
    "hold at 20" player for ``n = 20`` (p. 34: it "holds at less than 20 when the turn
    total is sufficient to reach the goal").

    >>> s = pig_hold_at(20)
    >>> s(PigState(0, 50, 60, 19)), s(PigState(1, 50, 60, 20))
    ('roll', 'hold')
    """
    int_at_least("n", n, 1, error=InvalidGameError)

    def strategy(s: PigState) -> PigAction:
        return "roll" if s.turn_total < n else "hold"
    return strategy


def _game_of(solution: Solution[PigState, Any] | FloatSolution[PigState, Any]) -> _Jeopardy:
    game = solution.game
    if not isinstance(game, _Jeopardy):
        raise InvalidGameError(
            f"expected a solution of Pig or Piglet, got one of {type(game).__name__}")
    return game


def pig_hold_boundary(
        solution: Solution[PigState, Any] | FloatSolution[PigState, Any]) -> dict[tuple[int, int], int]:
    """The roll/hold boundary (the paper's Figures 3 and 4) as data.

    For each reachable pair of scores ``(i, j)`` (player to move, opponent), the smallest
    turn total ``k >= 1`` at which holding is optimal; ``goal - i`` if the mover should
    roll until reaching the goal. The optimal policy need not be a threshold in ``k``
    (to 100, at 41 against 49 holding is optimal at 22 to 26 but rolling at 27), so
    this is where holding first becomes optimal, not a complete policy.

    Parameters
    ----------
    solution : Solution or FloatSolution
        A solution of a :class:`Pig` or :class:`Piglet` game (from :func:`tbsg.solve`).
        Exact: holding counts as optimal when it is among the exactly optimal actions
        (exact ties included). Float: the solution's greedy action against the midpoint
        values; an action within the certified gap of the other may go either way.

    Returns
    -------
    dict
        ``{(i, j): k}`` for the pairs with player 0 to move at ``(i, j, 0)``; by symmetry
        player 1's boundary is the same.

    Examples
    --------
    >>> import tbsg
    >>> t = pig_hold_boundary(tbsg.solve(piglet(3)))
    >>> [[t[i, j] for j in range(3)] for i in range(3)]
    [[1, 3, 3], [2, 2, 2], [1, 1, 1]]
    """
    from tbsg.results import Solution

    game = _game_of(solution)
    index = solution.graph.index
    table: dict[tuple[int, int], int] = {}
    for i in range(game.goal):
        for j in range(game.goal):
            if PigState(0, i, j, 0) not in index:
                continue
            at = game.goal - i
            for k in range(1, game.goal - i):
                s = PigState(0, i, j, k)
                if s not in index:
                    continue
                holds = ("hold" in solution.optimal_actions(s) if isinstance(solution, Solution)
                         else solution.action(s) == "hold")
                if holds:
                    at = k
                    break
            table[i, j] = at
    return table


StrategyLike = Strategy | Mapping[PigState, PigAction] | None
"""A strategy function, a mapping from states (e.g. ``solution.strategy``), or ``None``."""


def pig_versus(game: Pig | Piglet, first: StrategyLike, second: StrategyLike, *,
               tol: float = 1e-12) -> tuple[float, float]:
    """Certified bounds on the chance that the first player wins, strategies fixed.

    ``first`` plays player 0 (who starts), ``second`` player 1. Each is a function of the
    state (or a mapping such as ``solution.strategy``) returning ``"roll"`` or ``"hold"``,
    asked only with a turn total of at least 1 (a turn starts with a roll); or ``None``:
    that player then plays a *best response*, maximising its own chance to win against
    the other's fixed strategy (both ``None``: the value of the game). Only the states
    reachable when the fixed strategies are followed are built, and the game is solved by
    tbsg's float path (:func:`tbsg.solve` with ``exact=False``), so the interval is proven.
    For exact values use :func:`tbsg.evaluate` or :func:`tbsg.best_response`.

    Examples
    --------
    >>> lo, hi = pig_versus(pig(20), pig_hold_at(20), pig_hold_at(10))
    >>> hi - lo <= 1e-12
    True
    >>> lo, hi = pig_versus(piglet(2), None, None)          # the game's value, 4/7
    >>> lo <= 4 / 7 <= hi
    True
    """
    from tbsg.api.solving import best_response, evaluate, solve

    def as_function(s: StrategyLike) -> Strategy | None:
        if isinstance(s, Mapping):
            mapping = s
            return lambda state: mapping[state]
        return s

    chosen = (as_function(first), as_function(second))
    fixed = [p for p in (0, 1) if chosen[p] is not None]

    def play(s: PigState) -> PigAction:
        if s.turn_total == 0:  # a turn starts with a roll: the strategies are not asked
            return "roll"
        strategy = chosen[s.mover]
        if strategy is None:  # pragma: no cover - only fixed players are asked
            raise InvalidStrategyError(f"player {s.mover} is not fixed")
        return strategy(s)

    if len(fixed) == 2:
        return evaluate(game, play, exact=False, tol=tol).bounds()
    if len(fixed) == 1:
        return best_response(game, 1 - fixed[0], play, exact=False, tol=tol).bounds()
    return solve(game, exact=False, tol=tol).bounds()


# -- how long a game lasts ------------------------------------------------------------------


def _turns(s: PigState, a: PigAction) -> int:
    """Count of a step: 1 at the start of a turn (turn total 0: the turn's first roll)."""
    return 1 if s.turn_total == 0 else 0


@dataclass(frozen=True)
class PigTurns:
    """Expected number of turns of Pig or Piglet, exactly (:func:`pig_turns`).

    A turn is one player's sequence of rolls, from turn total 0 until a 1, a hold or
    the goal; both players' turns are counted.

    Attributes
    ----------
    goal, die : int
        The game (``die = 2`` for Piglet, which rolls a coin).
    hold_at : int
        The threshold of the "hold at" strategy (:func:`pig_hold_at`).
    optimal : Fraction
        Expected turns when both play the exactly optimal strategy (:func:`tbsg.solve`).
    optimal_fastest, optimal_slowest : Fraction
        Least and greatest expected turns among all optimal profiles.
    hold : Fraction
        Expected turns when both players hold at ``hold_at``.
    """

    goal: int
    die: int
    hold_at: int
    optimal: Fraction
    optimal_fastest: Fraction
    optimal_slowest: Fraction
    hold: Fraction


@dataclass(frozen=True)
class PigTurnBounds:
    """Proven float bounds on the expected number of turns of Pig (:func:`pig_turn_bounds`).

    Attributes
    ----------
    goal, die, hold_at : int
        The game and the threshold of the "hold at" strategy.
    optimal : tuple of float
        ``(lower, upper)`` on the expected turns when both follow the float solution's
        strategy (:attr:`tbsg.FloatSolution.strategy`).
    hold : tuple of float
        ``(lower, upper)`` on the expected turns when both hold at ``hold_at``.
    states : int
        States the float solution's strategy reaches.
    uncertain : int
        Of those, states where the proven value bounds leave more than one action
        (:meth:`tbsg.FloatSolution.optimal_actions_certain` is false). When 0, the
        strategy plays the unique optimal action wherever play goes, so every optimal
        profile plays the same there and :attr:`optimal` bounds *the* expected number
        of turns under optimal play.
    """

    goal: int
    die: int
    hold_at: int
    optimal: tuple[float, float]
    hold: tuple[float, float]
    states: int
    uncertain: int


def pig_turns(goal: int, die: int = 6, *, hold_at: int = 20) -> PigTurns:
    """Expected number of turns under optimal play and under "hold at ``hold_at``", exactly.

    The profile fixes both players' actions and makes the game a Markov chain
    (:func:`tbsg.chain`); the expected number of turns solves
    ``E_s = [turn total of s = 0] + sum_{s'} P(s' | s, sigma(s)) E_{s'}`` (0 once the
    game is over). Exact Pig is practical up to a goal of about 50 (the module
    docstring); for 100 use :func:`pig_turn_bounds`. Neller and Presser (2004) do not
    print the expected number of turns: these numbers are tbsg's own.

    Parameters
    ----------
    goal, die : int
        The game: :func:`pig` (``die >= 3``) or, with ``die = 2``, :func:`piglet`.
    hold_at : int
        Threshold of the "hold at" strategy (20 in the paper).

    Examples
    --------
    Piglet to 1: every flip ends the game with probability 1/2, so 2 turns on average.

    >>> pig_turns(1, 2).optimal
    Fraction(2, 1)
    >>> t = pig_turns(10)
    >>> t.optimal_fastest <= t.optimal <= t.optimal_slowest
    True
    """
    from tbsg.api.solving import solve
    from tbsg.play.chain import chain

    int_at_least("hold_at", hold_at, 1, error=InvalidGameError)
    game: Pig | Piglet = piglet(goal) if die == 2 else pig(goal, die)
    sol = solve(game)
    return PigTurns(
        goal=goal, die=die, hold_at=hold_at,
        optimal=chain(game, sol).expected_steps(_turns),
        optimal_fastest=sol.fastest(_turns).expected,
        optimal_slowest=sol.slowest(_turns).expected,
        hold=chain(game, pig_hold_at(hold_at)).expected_steps(_turns))


def pig_turn_bounds(goal: int = 100, die: int = 6, *, hold_at: int = 20,
                    tol: float = 1e-12) -> PigTurnBounds:
    """Proven bounds on the expected number of turns, optimal play and "hold at ``hold_at``".

    The exact values of Pig to 100 have tens of thousands of digits, so the game is solved
    in floats with proven bounds (``tbsg.solve(pig(goal), exact=False, tol=tol)``) and the
    **float solution's strategy** is the profile: its greedy action against the midpoint
    values (:meth:`tbsg.FloatSolution.action`). Its expected number of turns is then
    bounded by :meth:`tbsg.Chain.expected_steps` with ``exact=False`` (interval
    iteration on the chain's linear system, proven bounds). Whether that strategy is
    *the* optimal one is checked, not assumed: :attr:`PigTurnBounds.uncertain` counts the
    reached states where the value bounds leave more than one action. For Pig to 100
    it is 0 (``benchmarks/bench_lengths.py`` prints it): every choice along play is
    certainly the unique optimal action.

    Examples
    --------
    >>> b = pig_turn_bounds(10)
    >>> lo, hi = b.optimal
    >>> lo <= float(pig_turns(10).optimal) <= hi, b.uncertain
    (True, 0)
    """
    from tbsg.api.solving import solve
    from tbsg.play.chain import chain

    int_at_least("hold_at", hold_at, 1, error=InvalidGameError)
    game: Pig | Piglet = piglet(goal) if die == 2 else pig(goal, die)
    sol = solve(game, exact=False, tol=tol)
    c = chain(game, sol)
    uncertain = sum(1 for s in c.states if not sol.optimal_actions_certain(s))
    return PigTurnBounds(
        goal=goal, die=die, hold_at=hold_at,
        optimal=c.expected_steps(_turns, exact=False),
        hold=chain(game, pig_hold_at(hold_at)).expected_steps(_turns, exact=False),
        states=c.n_states, uncertain=uncertain)
