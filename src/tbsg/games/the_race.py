"""The Race (Project Euler problem 232; seed 003).

Rules (seed 003): two players share a fair coin and take turns; player 1 moves first.
On player 1's turn he tosses the coin once: heads scores 1 point, tails nothing. On
player 2's turn she chooses an integer ``T >= 1`` and tosses the coin ``T`` times: if
all are heads she scores ``2**(T-1)`` points, otherwise nothing. Either way the turn
then passes to the other player. The first to reach ``goal`` points (100 in the
problem) wins at once. Player 1 has no choice; the question is P(player 2 wins) when
player 2 plays optimally.

Players: Project Euler's **player 2 is tbsg player 0** (the maximiser, so
``solution.value()`` is P(player 2 wins), the published quantity) and **player 1 is
tbsg player 1**, who moves first (the initial state belongs to tbsg player 1).

Actions of player 2: ``T = 1, ..., T*`` where ``T*`` is the smallest ``T`` with
``2**(T-1) >= need`` (``need`` = points she still needs). A larger ``T`` is never
better: its success also wins at once, exactly as a success with ``T*`` does, but
with smaller probability ``2**-T < 2**-T*``, and its failure leads to the same state
as a failure with ``T*``. Since winning at once (payoff 1) is at least as good as the
value of any state, ``T*`` weakly dominates every ``T > T*``, and strictly when
player 1 can still win (always, as he needs at most ``goal`` points). The tests
check this with the solver by allowing larger ``T``.

A state is a :class:`RaceState` ``(mover, score1, score2)``: the tbsg player to move and
both scores, 2 * goal**2 states (20,000 for the problem; the exact value has a 480-digit
denominator). Actions are integers: player 1's single toss ``1``, player 2's ``T``.

Examples
--------
>>> import tbsg
>>> from tbsg.games.the_race import the_race
>>> sol = tbsg.solve(the_race(2))
>>> sol.value()
Fraction(71, 135)
>>> the_race_strategy(3)
{(0, 0): 1, (0, 1): 1, (0, 2): 1, (1, 0): 2, (1, 1): 1, (1, 2): 1, (2, 0): 3, (2, 1): 2, (2, 2): 1}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Literal, NamedTuple

from tbsg._util.checks import int_at_least
from tbsg.errors import InvalidGameError
from tbsg.model.protocol import Terminal, win

if TYPE_CHECKING:
    from tbsg.results import Solution

__all__ = [
    "PLAYER_1",
    "PLAYER_2",
    "RaceLength",
    "RaceState",
    "TheRace",
    "the_race",
    "the_race_length",
    "the_race_strategy",
    "the_race_ties",
]

PLAYER_1: Literal[1] = 1
"""tbsg player of Project Euler's player 1 (tosses once, moves first)."""
PLAYER_2: Literal[0] = 0
"""tbsg player of Project Euler's player 2 (chooses ``T``); values are P(she wins)."""

_HALF = Fraction(1, 2)


class RaceState(NamedTuple):
    """A position of The Race.

    Attributes
    ----------
    mover : int
        tbsg player to move: 1 for Project Euler's player 1, 0 for player 2.
    score1 : int
        Player 1's points (0 to ``goal - 1``).
    score2 : int
        Player 2's points (0 to ``goal - 1``).
    """

    mover: int
    score1: int
    score2: int


def _max_tosses(need: int) -> int:
    """Smallest ``T`` with ``2**(T-1) >= need``."""
    return max(1, (need - 1).bit_length() + 1)


@dataclass(frozen=True)
class TheRace:
    """The Race to ``goal`` points; Project Euler's player 1 (tbsg player 1) starts."""

    goal: int = 100

    def __post_init__(self) -> None:
        int_at_least("goal", self.goal, 1, error=InvalidGameError)

    @property
    def initial(self) -> RaceState:
        return RaceState(PLAYER_1, 0, 0)

    def position(self, score1: int, score2: int, *, player2_to_move: bool = False) -> RaceState:
        """The state with the given scores, player 1 to move unless ``player2_to_move``."""
        if not (0 <= score1 < self.goal and 0 <= score2 < self.goal):
            raise InvalidGameError(
                f"scores ({score1}, {score2}) must lie in [0, {self.goal}) for goal {self.goal}")
        return RaceState(PLAYER_2 if player2_to_move else PLAYER_1, score1, score2)

    def player(self, s: RaceState) -> int:
        return s.mover

    def actions(self, s: RaceState) -> Sequence[int]:
        """Player 1: the single action ``1`` (one toss). Player 2: ``T = 1, ..., T*``."""
        if s.mover == PLAYER_1:
            return (1,)
        return tuple(range(1, _max_tosses(self.goal - s.score2) + 1))

    def outcomes(self, s: RaceState, a: int) -> list[tuple[Fraction, RaceState | Terminal]]:
        if s.mover == PLAYER_1:
            heads = (win(PLAYER_1) if s.score1 + 1 >= self.goal
                     else RaceState(PLAYER_2, s.score1 + 1, s.score2))
            return [(_HALF, heads), (_HALF, RaceState(PLAYER_2, s.score1, s.score2))]
        int_at_least("T", a, 1, error=InvalidGameError)
        p = Fraction(1, 2**a)
        gained = s.score2 + 2 ** (a - 1)
        success = win(PLAYER_2) if gained >= self.goal else RaceState(PLAYER_1, s.score1, gained)
        return [(p, success), (1 - p, RaceState(PLAYER_1, s.score1, s.score2))]


def the_race(goal: int = 100) -> TheRace:
    """The Race to ``goal`` points (100 in Project Euler 232)."""
    return TheRace(goal)


def _solve(goal: int) -> tuple[TheRace, Solution[RaceState, int]]:
    from tbsg.api.solving import solve

    game = TheRace(goal)
    return game, solve(game)


def the_race_ties(goal: int = 100) -> dict[tuple[int, int], tuple[int, ...]]:
    """Every optimal ``T`` of player 2, keyed ``(player 1 score, player 2 score)``.

    Exact ties are kept: the tuple lists all exactly optimal ``T`` in increasing order.

    No exact ties occur for goals 1 to 40 nor for 100, so every tuple has one element:

    >>> the_race_ties(2)
    {(0, 0): (1,), (0, 1): (1,), (1, 0): (2,), (1, 1): (1,)}
    """
    game, sol = _solve(goal)
    return {(a, b): tuple(sorted(sol.optimal_actions(RaceState(PLAYER_2, a, b))))
            for a in range(game.goal) for b in range(game.goal)}


def the_race_strategy(goal: int = 100) -> dict[tuple[int, int], int]:
    """Player 2's optimal ``T`` by score, keyed ``(player 1 score, player 2 score)``.

    Where several ``T`` would be exactly optimal (see :func:`the_race_ties`; none are
    for goals 1 to 40 and 100) the smallest is given, the least risky toss count.
    """
    return {k: v[0] for k, v in the_race_ties(goal).items()}


# -- how long a game lasts ------------------------------------------------------------------


@dataclass(frozen=True)
class RaceLength:
    """Expected length of The Race under optimal play (:func:`the_race_length`).

    A *round* is player 1's turn and the player 2 turn that follows it (Project Euler:
    "Player 1 goes first", then the players take turns); a round in which player 1
    reaches the goal ends the game after his turn and still counts. So the rounds are
    player 1's turns.

    Attributes
    ----------
    goal : int
        Points to win.
    rounds : Fraction
        Expected number of rounds (player 1's turns).
    turns : Fraction
        Expected number of turns of both players: ``2 * rounds - P(player 1 wins)``
        (every round but one that player 1 wins has a player 2 turn).
    tosses : Fraction
        Expected number of coin tosses (one per player 1 turn, ``T`` per player 2 turn).
    rounds_fastest, rounds_slowest : Fraction
        Least and greatest expected rounds among all optimal strategies of player 2
        (equal when she has no exact tie where play goes).
    player2_wins : Fraction
        P(player 2 wins) (the problem's answer for goal 100).
    """

    goal: int
    rounds: Fraction
    turns: Fraction
    tosses: Fraction
    rounds_fastest: Fraction
    rounds_slowest: Fraction
    player2_wins: Fraction


def _rounds(s: RaceState, a: int) -> int:
    """Count of a step: 1 per player 1 turn (the start of a round)."""
    return 1 if s.mover == PLAYER_1 else 0


def _race_tosses(s: RaceState, a: int) -> int:
    """Count of a step: the coin tosses of the move (``a = T``; player 1's ``a`` is 1)."""
    return a


def the_race_length(goal: int = 100) -> RaceLength:
    """Expected number of rounds, turns and tosses of The Race when player 2 plays optimally.

    Player 1 has no choice; player 2 plays the exactly optimal strategy
    (:func:`tbsg.solve`). The game is then a Markov chain (:func:`tbsg.chain`) and the
    expected number of rounds solves ``R_s = [player 1 moves at s] + sum_{s'} P(s' | s)
    R_{s'}`` (0 once the game is over). Project Euler 232 asks only for the winning
    chance: these lengths are tbsg's own numbers.

    Examples
    --------
    Goal 1: player 1 wins on heads; player 2's only sensible ``T`` is 1, and her heads
    wins too. A round ends the game with probability ``1/2 + 1/4 = 3/4``: ``4/3`` rounds.

    >>> r = the_race_length(1)
    >>> r.rounds, r.turns, r.tosses
    (Fraction(4, 3), Fraction(2, 1), Fraction(2, 1))
    """
    from tbsg.api.solving import solve
    from tbsg.play.chain import chain

    game = TheRace(goal)
    sol = solve(game)
    c = chain(game, sol)
    return RaceLength(
        goal=goal, rounds=c.expected_steps(_rounds), turns=c.expected_steps(),
        tosses=c.expected_steps(_race_tosses), rounds_fastest=sol.fastest(_rounds).expected,
        rounds_slowest=sol.slowest(_rounds).expected, player2_wins=sol.value())
