"""One turn of Pig, played for points: the expected score of a turn and its best holding rule.

Rules (T. W. Neller and C. G. M. Presser, "Optimal Play of the Dice Game Pig", The UMAP
Journal 25(1) (2004) 25-47, p. 25; the game of :mod:`tbsg.games.pig` cut to one turn): a
player rolls a ``die``-sided die repeatedly. A 1 ends the turn with nothing; any other
face ``2, ..., die`` is added to the *turn total*; after each roll that is not a 1 the
player may *hold*, ending the turn and scoring the turn total. A turn starts with a roll.
There is no goal and no opponent: the player maximises the expected score of the turn.

This is the question of Knizia's "simple tactics" that the paper quotes (p. 25-26, from
R. Knizia, *Dice Games Properly Explained*, 1999, p. 129): each roll is a bet that a 1
will not come up, and "whenever your accumulated points are less than 20, you should
continue throwing"; at 20 the bet is fair. It is the one-player, score-valued game that a
win-probability solver cannot pose: the payoff of a turn is its score, any whole number.

State: :class:`TurnState` ``(turn_total,)``. Holding at turn total ``k`` ends play with
``tbsg.Terminal(k)``; a 1 with ``tbsg.Terminal(0)``. Its one player is player 0, who
maximises (:mod:`tbsg.model.protocol`, one-player games).

Mathematics
-----------
Let ``d = die`` and ``T = 2 + 3 + ... + d = d (d + 1) / 2 - 1`` (20 for a six-sided die).
With ``V(k)`` the optimal expected score from turn total ``k``,

.. math::

    V(k) = \\max\\Big(k,\\; \\frac{1}{d}\\cdot 0 + \\frac{1}{d}\\sum_{r=2}^{d} V(k + r)\\Big)
    \\quad (k \\ge 1), \\qquad V(0) = \\frac{1}{d}\\sum_{r=2}^{d} V(r).

*Holding is optimal from T on, and rolling below it.* ``V(k) = k`` for ``k >= T`` solves
the equations there: rolling then gives ``((d - 1) k + T) / d``, which is ``<= k`` exactly
when ``k >= T``, with equality at ``k = T`` (Knizia's fair bet: risk ``k`` with
probability ``1/d`` against an average gain of ``T / (d - 1)`` with probability
``(d - 1)/d``). Below ``T`` rolling once and then holding already beats holding now
(``((d - 1) k + T) / d > k``), so rolling is strictly optimal. Hence the optimal rule is
"hold at T", and "hold at T + 1" is optimal too (it rolls once more at ``T``, where the
two actions tie): the two rules have exactly the same expected score, the largest of all
holding values. A rule "hold at h" with another ``h`` is optimal only if it plays the same
at every turn total it reaches: for ``d >= 3`` no other ``h`` does, for ``d = 2`` (gains of
2 only, even totals) 1 and 4 do too (:func:`pig_turn_table`; the tests check ``d <= 8``).

*A finite game.* Rolling can go on without end in the rules, so the game bounds it: rolling
is offered while the turn total is below ``limit`` (default ``T + 1``: rolling is offered
at ``T`` itself, where it ties). Since holding is optimal at every ``k >= T``, any
``limit > T`` changes no value (the tests check it), and the states are the turn totals
``0, ..., limit - 1 + d``. A larger ``limit`` is needed only to follow a rule that rolls
beyond ``T`` (:func:`pig_turn_outcomes` sets it).

For a six-sided die the optimal expected score is
``V(0) = 492303203 / 60466176 = 8.1417948937...`` (tbsg's own exact value; the denominator
is ``6 ** 10``: a "hold at 20" turn has at most 10 rolls). Other dice (exact, tbsg's own):
``d = 3``: ``61/27`` (hold at 5), ``d = 4``: ``3949/1024`` (hold at 9), ``d = 8``:
``13.9007871...`` (hold at 35), ``d = 10``: ``21.1323973...`` (hold at 54); a coin
(``d = 2``, a "die" whose faces are 1 and 2) scores exactly 1.

Examples
--------
>>> import tbsg
>>> sol = tbsg.solve(pig_turn())
>>> sol.value()
Fraction(492303203, 60466176)
>>> sol.optimal_actions(TurnState(19)), sol.optimal_actions(TurnState(20))
(('roll',), ('roll', 'hold'))
>>> pig_turn_outcomes(20)[0]          # a "hold at 20" turn scores nothing
Fraction(9440899, 15116544)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, NamedTuple, Protocol, TypeVar

from tbsg._util.checks import int_at_least
from tbsg.errors import InvalidGameError
from tbsg.model.protocol import Terminal

__all__ = [
    "PigTurn",
    "TurnAction",
    "TurnRow",
    "TurnState",
    "fair_total",
    "hold_at",
    "pig_turn",
    "pig_turn_outcomes",
    "pig_turn_table",
]

TurnAction = Literal["roll", "hold"]
"""The two actions of a turn."""

_ROLL: tuple[TurnAction] = ("roll",)
_HOLD: tuple[TurnAction] = ("hold",)
_BOTH: tuple[TurnAction, TurnAction] = ("roll", "hold")


class TurnState(NamedTuple):
    """A position within one turn of Pig, before the next decision.

    Attributes
    ----------
    turn_total : int
        Points rolled so far this turn, lost on a 1 (0 before the first roll).
    """

    turn_total: int


class _HasTurnTotal(Protocol):
    @property
    def turn_total(self) -> int: ...


_T = TypeVar("_T", bound=_HasTurnTotal)


def hold_at(n: int) -> Callable[[_T], TurnAction]:
    """The rule "hold at ``n``": roll while the turn total is below ``n``, then hold.

    A function of any state with a ``turn_total`` (:class:`TurnState`, and
    :class:`tbsg.games.pig_solitaire.SolitaireState`, where reaching the goal ends play
    at once, as in Neller's "hold-at-20-or-goal").

    >>> rule = hold_at(20)
    >>> rule(TurnState(19)), rule(TurnState(20))
    ('roll', 'hold')
    """
    int_at_least("n", n, 1, error=InvalidGameError)

    def rule(s: _T) -> TurnAction:
        return "roll" if s.turn_total < n else "hold"
    return rule


def fair_total(die: int) -> int:
    """``T = 2 + ... + die``: the turn total at which one more roll is a fair bet."""
    return die * (die + 1) // 2 - 1


@dataclass(frozen=True)
class PigTurn:
    """One turn of Pig with a ``die``-sided die, scored by its points (see the module).

    Rolling is offered while the turn total is below ``limit`` (``None``: ``T + 1`` with
    ``T = 2 + ... + die``, which changes no value); from ``limit`` on the player must hold.
    """

    die: int = 6
    limit: int | None = None

    def __post_init__(self) -> None:
        int_at_least("die", self.die, 2, error=InvalidGameError)
        if self.limit is None:
            object.__setattr__(self, "limit", fair_total(self.die) + 1)
        int_at_least("limit", self.limit, 1, error=InvalidGameError)

    @property
    def initial(self) -> TurnState:
        """Turn total 0, before the first roll."""
        return TurnState(0)

    def player(self, s: TurnState) -> int:
        """Always 0: the one player maximises the expected score."""
        return 0

    def actions(self, s: TurnState) -> Sequence[TurnAction]:
        """``("roll",)`` before the first roll, ``("hold",)`` from ``limit`` on, else both."""
        if s.turn_total == 0:
            return _ROLL
        limit = self.limit  # an int once built (__post_init__)
        return _HOLD if limit is not None and s.turn_total >= limit else _BOTH

    def outcomes(self, s: TurnState, a: TurnAction) -> list[tuple[Fraction, TurnState | Terminal]]:
        if a == "hold":
            return [(Fraction(1), Terminal(s.turn_total))]
        if a != "roll":
            raise InvalidGameError(f"action must be 'roll' or 'hold', got {a!r}")
        p = Fraction(1, self.die)
        out: list[tuple[Fraction, TurnState | Terminal]] = [(p, Terminal(0))]
        out.extend((p, TurnState(s.turn_total + r)) for r in range(2, self.die + 1))
        return out


def pig_turn(die: int = 6, limit: int | None = None) -> PigTurn:
    """One turn of Pig with a ``die``-sided die (6), rolling offered below ``limit``."""
    return PigTurn(die, limit)


def pig_turn_outcomes(hold: int = 20, die: int = 6) -> dict[int, Fraction]:
    """The distribution of one turn's score under "hold at ``hold``", exactly.

    The rule fixes every action, so the turn is a Markov chain (:func:`tbsg.chain`) whose
    terminal payoffs are the scores; the game's ``limit`` is raised to ``hold`` when the
    rule rolls beyond the default.

    Returns
    -------
    dict
        ``{score: probability}`` for the scores with positive probability, increasing.

    Examples
    --------
    >>> pig_turn_outcomes(2, 3)           # roll once: 1 loses, 2 or 3 is held
    {0: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}
    """
    from tbsg.play.chain import chain

    int_at_least("hold", hold, 1, error=InvalidGameError)
    game = PigTurn(die, max(hold, fair_total(die) + 1))
    probabilities = chain(game, hold_at(hold)).outcome_probabilities()
    return {int(score): p for score, p in sorted(probabilities.items())}


@dataclass(frozen=True)
class TurnRow:
    """One row of :func:`pig_turn_table`.

    Attributes
    ----------
    hold : int
        The rule "hold at ``hold``".
    expected : Fraction
        The expected score of a turn under that rule.
    bust : Fraction
        The probability that the turn scores nothing.
    optimal : bool
        Whether the rule is optimal: ``expected`` equals the game's value.
    """

    hold: int
    expected: Fraction
    bust: Fraction
    optimal: bool


def pig_turn_table(holds: Sequence[int] = tuple(range(1, 31)), die: int = 6) -> list[TurnRow]:
    """Expected score of one turn for each rule "hold at ``h``", exactly, for a figure.

    Each row evaluates the rule (:func:`pig_turn_outcomes`) and compares it with the value
    of the game (:func:`tbsg.solve`): for ``die >= 3`` exactly the holding values ``T``
    and ``T + 1`` are optimal (the module docstring).

    Examples
    --------
    >>> rows = pig_turn_table(range(18, 23))
    >>> [r.hold for r in rows if r.optimal]
    [20, 21]
    """
    from tbsg.api.solving import solve

    best = solve(pig_turn(die)).value()
    rows = []
    for h in holds:
        dist = pig_turn_outcomes(h, die)
        expected = sum((score * p for score, p in dist.items()), Fraction(0))
        rows.append(TurnRow(h, expected, dist.get(0, Fraction(0)), expected == best))
    return rows
