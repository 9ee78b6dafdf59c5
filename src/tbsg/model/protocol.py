"""The game model: what a user writes to describe a turn-based stochastic game.

A two-player turn-based stochastic game (Shapley 1953; Condon 1992, "The complexity of
stochastic games") is given by a set of states ``S``, an owner ``player(s) in {0, 1}``
for each state, a non-empty set of actions ``A(s)``, and for each action a probability
distribution over successors, each successor being a state or a *terminal* carrying a
payoff ``r in [0, 1]`` to player 0. Player 0 maximises and player 1 minimises the
expected terminal payoff; the game is zero-sum, so player 1's payoff is ``1 - r``.
With payoffs 1 (player 0 wins), 0 (player 1 wins) and 1/2 (draw), the value is
P(player 0 wins) + P(draw) / 2.

The value ``v`` is the solution of the Bellman (Shapley) equations

.. math::

    v(s) = \\operatorname{opt}_{a \\in A(s)} \\Big( \\sum_{t \\in T} p(t \\mid s, a)\\, r(t)
           + \\sum_{s'} p(s' \\mid s, a)\\, v(s') \\Big),

with ``opt = max`` where player 0 moves and ``min`` where player 1 moves. The solution
is unique when the game is *stopping* (every strategy pair ends play with
probability 1), which the solvers check.

A game is any object with the four members of :class:`Game`; states are any hashable
values (tuples and ``NamedTuple`` s are recommended), actions any hashable values; both
must compare equal to a fresh copy of themselves (a state rebuilt by the game must be
found again). A pure chance step is a state with exactly one action.

Exact numbers
-------------
Probabilities, payoffs and the payoff of never-ending play are exact rationals: ``int``
or :class:`fractions.Fraction`, never ``float`` (a :class:`~tbsg.errors.ExactnessError`,
a ``TypeError``). :func:`exact` is the one gate every number passes on its way in. numpy
integers (``np.int64(1)``) and Fractions built from them (``Fraction(counts[i],
counts.sum())`` keeps numpy parts, whose arithmetic silently overflows at 2**63) are
converted exactly, once, to Python ints at that gate, so no numpy integer ever reaches
exact arithmetic. ``bool`` is refused (``True`` is not a probability).

Examples
--------
A one-state game: player 0 tosses a fair coin; heads wins, tails hands the coin over.

>>> from fractions import Fraction
>>> import tbsg
>>> class Toss:
...     initial = 0                                   # the player holding the coin
...     def player(self, s): return s
...     def actions(self, s): return ("toss",)
...     def outcomes(self, s, a):
...         half = Fraction(1, 2)
...         return [(half, tbsg.win(s)), (half, 1 - s)]
>>> tbsg.solve(Toss()).value()
Fraction(2, 3)
"""

from __future__ import annotations

import math
import numbers
import operator
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal, Protocol, TypeAlias, TypeVar, runtime_checkable

from tbsg.errors import ExactnessError, InvalidGameError, exactness_error, show

__all__ = [
    "DRAW",
    "Game",
    "Player",
    "Probability",
    "Terminal",
    "exact",
    "infinite_play_payoff",
    "win",
]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)
S_co = TypeVar("S_co", bound=Hashable, covariant=True)

Player: TypeAlias = Literal[0, 1]
"""Index of a player: 0 maximises the payoff, 1 minimises it."""

Probability: TypeAlias = Fraction | int
"""An exact probability. ``float`` is deliberately not allowed."""


@dataclass(frozen=True, slots=True)
class Terminal:
    """An end of play, paying ``payoff`` (a rational in [0, 1]) to player 0.

    Parameters
    ----------
    payoff : Fraction or int
        Payoff to player 0; player 1 receives ``1 - payoff``.

    Examples
    --------
    >>> Terminal(Fraction(1, 3))
    Terminal(payoff=Fraction(1, 3))
    >>> Terminal(0.5)
    Traceback (most recent call last):
    ...
    tbsg.errors.ExactnessError: terminal payoff must be an int or fractions.Fraction, got float 0.5; \
write it exactly, e.g. Fraction(1, 2) or Fraction('0.5')
    """

    payoff: Fraction
    # hashing a Fraction costs a modular inverse: terminals are looked up once per outcome
    # that ends play, so the hash is computed once, here
    _hash: int = field(init=False, repr=False, compare=False)

    def __init__(self, payoff: Fraction | int) -> None:
        value = exact(payoff, "terminal payoff")
        if not 0 <= value <= 1:
            raise InvalidGameError(f"terminal payoff must lie in [0, 1], got {show(value)}")
        object.__setattr__(self, "payoff", value)
        object.__setattr__(self, "_hash", hash((value,)))

    def __hash__(self) -> int:
        return self._hash


def win(player: int) -> Terminal:
    """Terminal in which ``player`` wins (payoff 1 to player 0 if ``player == 0``).

    ``player`` is an ``int`` (or numpy integer) 0 or 1, typically computed from a state
    (``win(s.mover)``, ``win(1 - mover)``); a float, a bool or any other value is an
    error rather than read as a player.

    >>> win(0), win(1)
    (Terminal(payoff=Fraction(1, 1)), Terminal(payoff=Fraction(0, 1)))
    >>> win(0.0)
    Traceback (most recent call last):
    ...
    tbsg.errors.InvalidGameError: win() takes player 0 or 1 (an int), got 0.0
    """
    if isinstance(player, numbers.Integral) and not isinstance(player, bool):
        if player == 0:
            return _WIN0
        if player == 1:
            return _WIN1
    raise InvalidGameError(f"win() takes player 0 or 1 (an int), got {player!r}")


def exact(x: object, what: str) -> Fraction:
    """``x`` as a :class:`~fractions.Fraction` with Python ``int`` parts, or an error.

    Accepts ``int``, ``Fraction``, numpy integers and Fractions with numpy-integer parts
    (converted exactly, see the module docstring); refuses ``bool``, ``float``,
    ``Decimal`` and everything else with an :class:`~tbsg.errors.ExactnessError` saying
    ``what`` it was.

    Examples
    --------
    >>> import numpy as np
    >>> x = exact(Fraction(np.int64(1), np.int64(3)), "a probability")
    >>> x, type(x.numerator)
    (Fraction(1, 3), <class 'int'>)
    >>> exact(0.5, "a probability")
    Traceback (most recent call last):
    ...
    tbsg.errors.ExactnessError: a probability must be an int or fractions.Fraction, got float 0.5; \
write it exactly, e.g. Fraction(1, 2) or Fraction('0.5')
    """
    try:
        kind = type(x)
        if kind is Fraction:
            fx: Fraction = x  # type: ignore[assignment]
            n, d = fx.numerator, fx.denominator
            if type(n) is int and type(d) is int and d > 0 and math.gcd(n, d) == 1:
                return fx
            return _from_parts(n, d, x, what)  # numpy parts, or built without normalising
        if kind is int:
            return Fraction(operator.index(x))  # type: ignore[arg-type]
        if isinstance(x, bool) or type(x).__name__ == "bool_":
            raise exactness_error(what, x)
        if isinstance(x, Fraction):  # a subclass
            return _from_parts(x.numerator, x.denominator, x, what)
        if isinstance(x, numbers.Integral):  # numpy integers, int subclasses
            return _from_parts(x, 1, x, what)
    except ExactnessError:
        raise
    except Exception as exc:  # a number type whose parts cannot be read
        raise exactness_error(what, x) from exc
    raise exactness_error(what, x)


def _from_parts(numerator: object, denominator: object, x: object, what: str) -> Fraction:
    """``Fraction(int(numerator), int(denominator))`` through ``__index__`` (exact), or an error."""
    try:
        return Fraction(operator.index(numerator), operator.index(denominator))  # type: ignore[arg-type]
    except Exception:
        raise exactness_error(what, x) from None


def infinite_play_payoff(c: object) -> Fraction | None:
    """Validate an ``infinite_play`` argument: ``None`` or an exact rational in [0, 1].

    Raises
    ------
    ExactnessError
        For a float (or any other inexact value).
    InvalidGameError
        Outside [0, 1].

    Examples
    --------
    >>> infinite_play_payoff(Fraction(1, 2)), infinite_play_payoff(None)
    (Fraction(1, 2), None)
    """
    if c is None:
        return None
    value = exact(c, "infinite_play")
    if not 0 <= value <= 1:
        raise InvalidGameError(
            f"infinite_play must lie in [0, 1] (a payoff to player 0 for play that never ends), "
            f"got {show(value)}")
    return value


DRAW = Terminal(Fraction(1, 2))
_WIN0 = Terminal(1)
_WIN1 = Terminal(0)
"""Terminal of a drawn game: half a win to each player."""


@runtime_checkable
class Game(Protocol[S, A]):
    """Protocol a game implements; solvers see games only through it.

    ``initial`` may be a plain attribute or a property. A game whose states are tuples of
    small ints may also offer the array form (``array_shape`` and ``array_transitions``,
    :mod:`tbsg.model.arrays`): many states at once, for a faster compilation of the same game.
    """

    @property
    def initial(self) -> S:
        """The state play starts in."""
        ...

    def player(self, state: S, /) -> int:
        """Who chooses the action at ``state``: 0 (maximiser) or 1 (minimiser)."""
        ...

    def actions(self, state: S, /) -> Sequence[A]:
        """The actions available at ``state`` (at least one)."""
        ...

    def outcomes(
        self, state: S, action: A, /
    ) -> Iterable[tuple[Probability, S | Terminal]]:
        """Pairs ``(probability, successor)``; probabilities exact and summing to 1."""
        ...
