"""The end game of Unspeakable Words, idealised (J. Mount, "Unspeakable bets: take small
steps", Win-Vector blog; seed 004).

Rules (seed 004): players a and b (tbsg players 0 and 1; a moves first) hold ``a`` and
``b`` points; the first to take their own count to zero on their move wins. The player
to move bets an integer number of points, at least 1 and at most both their points and
the largest number ``die`` on the die, then rolls the die. If the roll is at most the
bet (``bust="at_most"``, the post's rule) the player busts and the opponent wins;
otherwise the bet is removed from the player's points and the opponent moves. The post
also mentions a variant, ``bust="less_than"``: bust only if the roll is *less* than the
bet, so a bet of 1 never busts (its code's ``bustFn = min(1, (m - 1)/n)``). The post
works with a d6; the real game uses a d20.

State: a :class:`UWState` ``(mover, a, b)``, the player to move (0 for a, 1 for b) and
both players' remaining points; an action is the bet, an int.

The post's code lets a player bet anything from 1 to their points, a bet above ``die``
busting surely (``bustFn`` is capped at 1). Such bets are never better than a bet of 1
and are left out here, as the post's rules say; they only exist when the points exceed
the die, which never happens in the post's tables (points at most ``n = die``).

Tables (:func:`unspeakable_words_tables`): the post prints ``aMove`` and ``aValue`` for
a d6, indexed ``[a, b]`` with a to move: the optimal bet and a's probability of winning.
Its code keeps the first strictly better bet, i.e. the *smallest* optimal bet among
ties, and so do the tables here. Row ``a = 0`` and column ``b = 0`` are not positions
of the game (someone has already won); they are artefacts of the code's base cases,
reproduced as printed: ``a = 0`` has value 1 and move 0 (the code's ``bestMove = 0``
default when a has already emptied their count), and ``b = 0`` with ``a > 0`` has value
0 and move 1 (the code still loops over bets, every bet worth 0 as b has already won,
and keeps the first, 1).

Findings (exact): the values are exact rationals, e.g. ``aValue[6, 6] = 43835/93312``.
With a d6 the diagonal values for ``a = b >= 4`` are below 1/2 (moving first is a
disadvantage); ``aValue[3, 3]`` is exactly 1/2. Under ``less_than`` no diagonal value is
below 1/2, but ``aValue[4, 4]`` is *exactly* 1/2 (d6). With the real game's d20 the
diagonal is exactly 1/2 at ``a = b = 10`` and below 1/2 for ``a = b = 11, ..., 20``
(``at_most``); under ``less_than`` it is exactly 1/2 at ``a = b = 11`` and above 1/2
elsewhere. Under ``at_most`` no position of the d6 or d20 tables has two exactly optimal
bets; under ``less_than`` exact ties are common (e.g. bets 1 and 3 at ``(3, 5)``, d6),
and the tables here give the smallest exactly optimal bet. In the one-player warm-up (no
opponent; bet until you have emptied your count or bust) betting 1 is always optimal and
``value(a) = (1-1/n)^a``.

What the post prints and how it compares (its tables reproduce; its warm-up formula and
its float tie-breaking do not quite) is in :mod:`tbsg.sources.unspeakable_words`.

Examples
--------
>>> import tbsg
>>> from tbsg.games.unspeakable_words import unspeakable_words
>>> sol = tbsg.solve(unspeakable_words(2, 5))
>>> sol.value(), sol.optimal_actions()
(Fraction(25, 36), (1,))
>>> moves, values = unspeakable_words_tables(6)
>>> moves[3, 3], values[3, 3], moves[6, 6], values[6, 6], round(float(values[6, 6]), 3)
(3, Fraction(1, 2), 1, Fraction(43835, 93312), 0.47)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, NamedTuple

from tbsg._util.checks import int_at_least
from tbsg.errors import InvalidGameError
from tbsg.model.protocol import Terminal, win

__all__ = [
    "Bust",
    "UWState",
    "UnspeakableWords",
    "unspeakable_words",
    "unspeakable_words_tables",
]

Bust = Literal["at_most", "less_than"]
_BUSTS = ("at_most", "less_than")


class UWState(NamedTuple):
    """A position of the Unspeakable Words end game.

    Attributes
    ----------
    mover : int
        Player to move: 0 for the post's player a, 1 for player b.
    a : int
        Points player a still has to get rid of (at least 1).
    b : int
        Points player b still has to get rid of (at least 1).
    """

    mover: int
    a: int
    b: int


@dataclass(frozen=True)
class UnspeakableWords:
    """The end game from ``a`` points against ``b``, player a (tbsg player 0) to move."""

    a: int
    b: int
    die: int = 6
    bust: Bust = "at_most"

    def __post_init__(self) -> None:
        int_at_least("a", self.a, 1, error=InvalidGameError)
        int_at_least("b", self.b, 1, error=InvalidGameError)
        int_at_least("die", self.die, 1, error=InvalidGameError)
        if self.bust not in _BUSTS:
            raise InvalidGameError(f"bust must be 'at_most' or 'less_than', got {self.bust!r}")

    @property
    def initial(self) -> UWState:
        return UWState(0, self.a, self.b)

    def player(self, s: UWState) -> int:
        return s.mover

    def actions(self, s: UWState) -> Sequence[int]:
        """Bets ``1, ..., min(points of the mover, die)``."""
        return tuple(range(1, min(s.b if s.mover else s.a, self.die) + 1))

    def bust_probability(self, bet: int) -> Fraction:
        """Probability that a bet of ``bet`` busts (the post's ``bustFn``)."""
        busting = bet if self.bust == "at_most" else bet - 1
        return Fraction(min(busting, self.die), self.die)

    def outcomes(self, s: UWState, bet: int) -> list[tuple[Fraction, UWState | Terminal]]:
        points = s.b if s.mover else s.a
        if isinstance(bet, bool) or not isinstance(bet, int) or not 1 <= bet <= points:
            raise InvalidGameError(f"bet must be an int in [1, {points}], got {bet!r}")
        q = self.bust_probability(bet)
        mover, other = s.mover, 1 - s.mover
        rest: UWState | Terminal
        if bet == points:
            rest = win(0 if mover == 0 else 1)
        elif mover == 0:
            rest = UWState(other, s.a - bet, s.b)
        else:
            rest = UWState(other, s.a, s.b - bet)
        return [(q, win(0 if other == 0 else 1)), (1 - q, rest)]


def unspeakable_words(a: int, b: int, die: int = 6, bust: Bust = "at_most") -> UnspeakableWords:
    """The end game from ``a`` points against ``b``, player a to move (seed 004)."""
    return UnspeakableWords(a, b, die, bust)


_START = UWState(0, 0, 0)  # not a position of the game: the deal of _EveryPosition


@dataclass(frozen=True)
class _EveryPosition:
    """All positions ``(a, b)`` with ``1 <= a, b <= n``, a to move, from one deal.

    The initial state is a chance move to each such position; one solve then covers
    every position (a game started at ``(n, n)`` reaches a-to-move states only with
    ``a < n`` or ``(n, n)``).
    """

    game: UnspeakableWords
    n: int

    @property
    def initial(self) -> UWState:
        return _START

    def player(self, s: UWState) -> int:
        return s.mover

    def actions(self, s: UWState) -> Sequence[int]:
        return (0,) if s == _START else self.game.actions(s)

    def outcomes(self, s: UWState, bet: int) -> list[tuple[Fraction, UWState | Terminal]]:
        if s == _START:
            p = Fraction(1, self.n * self.n)
            return [(p, UWState(0, a, b)) for a in range(1, self.n + 1)
                    for b in range(1, self.n + 1)]
        return self.game.outcomes(s, bet)


def unspeakable_words_tables(
    n: int, die: int = 6, bust: Bust = "at_most"
) -> tuple[dict[tuple[int, int], int], dict[tuple[int, int], Fraction]]:
    """The post's ``aMove`` and ``aValue`` tables for ``0 <= a, b <= n``, computed exactly.

    ``aMove[a, b]`` is a's optimal bet with a to move (the smallest one where several
    are exactly optimal, as the post's code breaks ties) and ``aValue[a, b]`` a's
    exact probability of winning. Row ``a = 0`` (value 1, move 0) and column ``b = 0``
    with ``a > 0`` (value 0, move 1) follow the printed tables' conventions (see the
    module docstring).

    >>> moves, values = unspeakable_words_tables(2)
    >>> [[moves[a, b] for b in range(3)] for a in range(3)]
    [[0, 0, 0], [1, 1, 1], [1, 2, 2]]
    >>> values[2, 1]
    Fraction(2, 3)
    """
    from tbsg.api.solving import solve

    int_at_least("n", n, 1, error=InvalidGameError)
    game = UnspeakableWords(1, 1, die, bust)
    sol = solve(_EveryPosition(game, n))
    moves: dict[tuple[int, int], int] = {}
    values: dict[tuple[int, int], Fraction] = {}
    for a in range(n + 1):
        for b in range(n + 1):
            if a == 0:
                moves[a, b], values[a, b] = 0, Fraction(1)
            elif b == 0:
                moves[a, b], values[a, b] = 1, Fraction(0)
            else:
                s = UWState(0, a, b)
                moves[a, b] = min(sol.optimal_actions(s))
                values[a, b] = sol.value(s)
    return moves, values
