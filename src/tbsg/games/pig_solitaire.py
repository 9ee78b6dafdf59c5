"""Pig solitaire: the fewest expected turns to reach the goal, exactly.

Rules (the turn of Pig, T. W. Neller and C. G. M. Presser, "Optimal Play of the Dice Game
Pig", The UMAP Journal 25(1) (2004) 25-47, p. 25, played alone; T. W. Neller, "Pig",
Nifty Assignments, SIGCSE 2010, "Average Pig Turns"): one player takes turns until the
score reaches ``goal`` (100). A turn is a sequence of rolls of a ``die``-sided die: a 1 ends
the turn and loses the turn total; any other face is added to the turn total; after a roll
that is not a 1 the player may hold, banking the turn total and ending the turn. Reaching
the goal (score plus turn total) ends the game at once, as in :mod:`tbsg.games.pig`. The
player *minimises the expected number of turns*.

In tbsg this is a one-player game whose player is player 1, the minimiser
(:mod:`tbsg.model.protocol`, one-player games), with a reward of 1 paid by the first roll
of every turn (:meth:`PigSolitaire.reward`) and ``Terminal(0)`` at the goal, so the value
of a state is the expected number of turns still to start, the current one included when
its turn total is 0. No win probability and no negation by hand are involved.

State: :class:`SolitaireState` ``(score, turn_total)``, ``score + turn_total < goal``. A
turn starts with a roll (holding at turn total 0 would only waste a turn, and would let
play go on for ever, which a reward game may not: every strategy here ends play with
probability 1: whatever is held, each roll that is not a 1 raises score plus turn total by
at least 2, so from any state a run of at most ``goal / 2`` such rolls, which has positive
probability, ends the game).

Mathematics
-----------
With ``W(i)`` the expected number of turns from the start of a turn at score ``i`` and
``U(i, k)`` the expected number of turns *after* the current one from turn total ``k``,

.. math::

    W(i) = 1 + U(i, 0), \\qquad
    U(i, k) = \\min\\Big(W(i + k),\\; \\frac{1}{d} W(i)
    + \\frac{1}{d} \\sum_{r=2}^{d} [i + k + r < g]\\, U(i, k + r)\\Big),

with the hold only for ``k >= 1`` (``g = goal``, ``d = die``). The bust returns to the
start of a turn at the same score, so each score is a cycle of its own: tbsg solves the
scores from the goal down, one strongly connected component each, by exact strategy
iteration. Unlike the one-turn problem (:mod:`tbsg.games.pig_turn`) the best play is not
"hold at 20": it aims at a good number of remaining turns rather than at the points of
this one. To 100 the first turn total at which it holds is 19 at score 0, 24 at 50, 14 at
70, and 25 at 75 (then it rolls on to the goal) (:func:`pig_solitaire_boundary`).

Findings (exact): to 100 with a six-sided die the fewest expected turns are
``12.545232351955...`` (a fraction whose denominator has 189 digits; tbsg's own, no source
found prints it), against ``12.636769490454...`` for "hold at 20 or goal", the best
*single* holding value (:func:`pig_solitaire_table`; 19 follows with ``12.638483...``, as
Ruskeepää's simulations found, :mod:`tbsg.sources.pig_solitaire`). To 10 and 20 the fewest
are ``7776/4591`` and ``15116544/5675645``: to 20 or less, rolling on until the goal is
optimal.

Examples
--------
>>> import tbsg
>>> sol = tbsg.solve(pig_solitaire(10))
>>> sol.value()
Fraction(7776, 4591)
>>> game = pig_solitaire(10)
>>> pig_solitaire_turns(10).hold_mean == tbsg.chain(game, hold_at(20)).expected_reward(game.reward)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

from tbsg._util.checks import int_at_least
from tbsg.errors import InvalidGameError
from tbsg.games.pig_turn import TurnAction, hold_at
from tbsg.model.protocol import Terminal

if TYPE_CHECKING:
    from tbsg.results import FloatSolution, Solution

__all__ = [
    "PigSolitaire",
    "SolitaireRow",
    "SolitaireState",
    "SolitaireTurns",
    "hold_at",
    "pig_solitaire",
    "pig_solitaire_boundary",
    "pig_solitaire_table",
    "pig_solitaire_turns",
]

_ROLL: tuple[TurnAction] = ("roll",)
_BOTH: tuple[TurnAction, TurnAction] = ("roll", "hold")
_DONE = Terminal(0)


class SolitaireState(NamedTuple):
    """A position of Pig solitaire, before the next decision.

    Attributes
    ----------
    score : int
        Points banked so far (0 to ``goal - 1``).
    turn_total : int
        Points rolled so far this turn, lost on a 1 (``score + turn_total < goal``).
    """

    score: int
    turn_total: int


@dataclass(frozen=True)
class PigSolitaire:
    """Pig solitaire to ``goal`` points with a ``die``-sided die: minimise expected turns.

    See the module docstring for the rules and the mathematics.
    """

    goal: int = 100
    die: int = 6

    def __post_init__(self) -> None:
        int_at_least("goal", self.goal, 1, error=InvalidGameError)
        int_at_least("die", self.die, 2, error=InvalidGameError)

    @property
    def initial(self) -> SolitaireState:
        """Score 0, before the first roll."""
        return SolitaireState(0, 0)

    def player(self, s: SolitaireState) -> int:
        """Always 1: the one player minimises the expected number of turns."""
        return 1

    def actions(self, s: SolitaireState) -> Sequence[TurnAction]:
        """``("roll",)`` at the start of a turn, else ``("roll", "hold")``."""
        return _ROLL if s.turn_total == 0 else _BOTH

    def reward(self, s: SolitaireState, a: TurnAction) -> int:
        """1 for the first roll of a turn (turn total 0), else 0: the total counts turns."""
        return 1 if s.turn_total == 0 else 0

    def outcomes(self, s: SolitaireState, a: TurnAction
                 ) -> list[tuple[Fraction, SolitaireState | Terminal]]:
        if a == "hold":
            return [(Fraction(1), SolitaireState(s.score + s.turn_total, 0))]
        if a != "roll":
            raise InvalidGameError(f"action must be 'roll' or 'hold', got {a!r}")
        p = Fraction(1, self.die)
        out: list[tuple[Fraction, SolitaireState | Terminal]] = [(p, SolitaireState(s.score, 0))]
        need = self.goal - s.score - s.turn_total
        done = sum(1 for r in range(2, self.die + 1) if r >= need)
        out.extend((p, SolitaireState(s.score, s.turn_total + r))
                   for r in range(2, self.die + 1) if r < need)
        if done:
            out.append((done * p, _DONE))
        return out


def pig_solitaire(goal: int = 100, die: int = 6) -> PigSolitaire:
    """Pig solitaire to ``goal`` points (100) with a ``die``-sided die (6)."""
    return PigSolitaire(goal, die)


@dataclass(frozen=True)
class SolitaireTurns:
    """Expected numbers of turns of Pig solitaire, exactly (:func:`pig_solitaire_turns`).

    Attributes
    ----------
    goal, die, hold : int
        The game and the holding value of the rule compared with optimal play.
    optimal : Fraction
        The fewest expected turns (the value of the game, :func:`tbsg.solve`).
    hold_mean, hold_variance : Fraction
        Mean and variance of the number of turns under "hold at ``hold`` or goal"
        (:meth:`tbsg.Chain.expected_reward`, :meth:`tbsg.Chain.variance_of_steps`).
    """

    goal: int
    die: int
    hold: int
    optimal: Fraction
    hold_mean: Fraction
    hold_variance: Fraction


def pig_solitaire_turns(goal: int = 100, die: int = 6, *, hold: int = 20) -> SolitaireTurns:
    """Fewest expected turns to ``goal``, and the turns of "hold at ``hold`` or goal".

    Examples
    --------
    To 2 points every turn ends the game unless its first roll is a 1 (probability
    ``1/6``), whatever the rule: ``6/5`` turns on average, variance ``6/25``.

    >>> t = pig_solitaire_turns(2)
    >>> t.optimal, t.hold_mean, t.hold_variance
    (Fraction(6, 5), Fraction(6, 5), Fraction(6, 25))
    """
    from tbsg.api.solving import solve
    from tbsg.play.chain import chain

    game = pig_solitaire(goal, die)
    rule = chain(game, hold_at(hold))
    return SolitaireTurns(goal, die, hold, optimal=solve(game).value(),
                          hold_mean=rule.expected_reward(game.reward),
                          hold_variance=rule.variance_of_steps(game.reward))


@dataclass(frozen=True)
class SolitaireRow:
    """One row of :func:`pig_solitaire_table`.

    Attributes
    ----------
    goal : int
        The goal.
    optimal : Fraction
        The fewest expected turns.
    best_holds : tuple of int
        The holding values ``h`` (among those tried) whose rule "hold at ``h`` or goal"
        needs the fewest expected turns.
    best_hold_turns : Fraction
        Their expected number of turns (``>= optimal``).
    """

    goal: int
    optimal: Fraction
    best_holds: tuple[int, ...]
    best_hold_turns: Fraction


def pig_solitaire_table(goals: Sequence[int], die: int = 6,
                        holds: Sequence[int] = tuple(range(15, 31))) -> list[SolitaireRow]:
    """Fewest expected turns against the best single holding value, for each goal.

    Each rule "hold at ``h`` or goal" is evaluated exactly (:func:`tbsg.chain`); the
    optimal policy may change its holding value with the score, so it needs fewer turns
    than every fixed rule, or as many.

    Examples
    --------
    >>> row, = pig_solitaire_table([10], holds=range(1, 12))
    >>> row.optimal == row.best_hold_turns, row.best_holds   # to 10: roll until done
    (True, (10, 11))
    """
    from tbsg.api.solving import solve
    from tbsg.play.chain import chain

    rows = []
    for goal in goals:
        game = pig_solitaire(goal, die)
        turns = {h: chain(game, hold_at(h)).expected_reward(game.reward) for h in holds}
        least = min(turns.values())
        rows.append(SolitaireRow(goal, solve(game).value(),
                                 tuple(h for h in holds if turns[h] == least), least))
    return rows


def pig_solitaire_boundary(
        solution: Solution[SolitaireState, Any] | FloatSolution[SolitaireState, Any]
) -> dict[int, int]:
    """Where optimal play first holds, by score: the data of the policy's figure.

    Returns
    -------
    dict
        ``{score: k}``: the smallest turn total ``k >= 1`` at which holding is optimal
        (among the exactly optimal actions for an exact solution; the greedy action for
        a float one), or ``goal - score`` when the player should roll until the goal.

    Examples
    --------
    >>> import tbsg
    >>> pig_solitaire_boundary(tbsg.solve(pig_solitaire(4)))
    {0: 4, 2: 2, 3: 1}
    """
    from tbsg.results import Solution

    game = solution.game
    if not isinstance(game, PigSolitaire):
        raise InvalidGameError(f"expected a solution of PigSolitaire, got one of {type(game).__name__}")
    index = solution.graph.index
    table: dict[int, int] = {}
    for i in range(game.goal):
        if SolitaireState(i, 0) not in index:
            continue
        table[i] = game.goal - i
        for k in range(1, game.goal - i):
            s = SolitaireState(i, k)
            if s not in index:
                continue
            holds = ("hold" in solution.optimal_actions(s) if isinstance(solution, Solution)
                     else solution.action(s) == "hold")
            if holds:
                table[i] = k
                break
    return table
