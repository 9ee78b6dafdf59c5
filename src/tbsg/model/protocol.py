"""The game model: what a user writes to describe a turn-based stochastic game.

A two-player turn-based stochastic game (Shapley 1953; Condon 1992, "The complexity of
stochastic games"; Filar and Vrieze 1997, "Competitive Markov Decision Processes", for
total rewards) is given by a set of states ``S``, an owner ``player(s) in {0, 1}`` for
each state, a non-empty set of actions ``A(s)``, and for each action a probability
distribution over successors, each successor being a state or a *terminal* carrying a
payoff ``r(t)``, any exact rational, to player 0. Taking action ``a`` at ``s`` may also
pay player 0 a *reward* ``w(s, a)`` (the optional ``reward`` method; 0 when absent).
Player 0 maximises and player 1 minimises the expected *total*: the rewards collected
along play plus the payoff of the terminal where it ends.

The value ``v`` is the solution of the Bellman (Shapley) equations

.. math::

    v(s) = \\operatorname{opt}_{a \\in A(s)} \\Big( w(s, a)
           + \\sum_{t \\in T} p(t \\mid s, a)\\, r(t)
           + \\sum_{s'} p(s' \\mid s, a)\\, v(s') \\Big),

with ``opt = max`` where player 0 moves and ``min`` where player 1 moves. The solution
is unique, and every expected total finite, when the game is *stopping* (every strategy
pair ends play with probability 1), which the solvers check. A game that is not stopping
is refused, naming the end components where play can stay forever, unless every reward
inside every end component is 0 and the game declares the payoff of play that never ends
(``infinite_play``): the total is then the rewards collected before play settles in an
end component plus that payoff, finite again. A reward collected forever would make the
total infinite or undefined, so that is the case refused.

Win-probability games and player 1's view
-----------------------------------------
A *win-probability game* is one whose rewards are all 0 and whose terminal payoffs (and
``infinite_play``) lie in [0, 1]: with payoffs 1 (player 0 wins), 0 (player 1 wins) and
1/2 (:data:`DRAW`), the value is P(player 0 wins) + P(draw) / 2. Every game is zero-sum;
what player 1 is said to receive is ``c - x`` when player 0 receives ``x``, with ``c = 1``
for a win-probability game (player 1's own probability of winning, the constant-sum
reading) and ``c = 0`` otherwise (the plain zero-sum reading: player 1 pays what player
0 receives). ``value(s, player=1)`` and the mover's views follow this convention, so a
win-probability game reads as it always has.

One-player games
----------------
A game may omit ``player``: every state is then player 0's, who maximises. A game whose
``player`` returns 1 everywhere is a one-player game whose player *minimises* (for
example an expected number of turns, paid as a reward of 1 per turn): nothing more is
needed to state either.

A game is any object with ``initial``, ``actions`` and ``outcomes`` (and ``player``,
``reward`` when it has them); states are any hashable values (tuples and ``NamedTuple``
s are recommended), actions any hashable values; both must compare equal to a fresh
copy of themselves (a state rebuilt by the game must be found again). A pure chance step
is a state with exactly one action; its reward, if any, is paid whatever happens next.

Exact numbers
-------------
Probabilities, payoffs, rewards and the payoff of never-ending play are exact rationals: ``int``
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

A one-player reward game: roll a die until it shows a six, each roll costing a point.
Player 1 minimises the expected number of rolls (geometric: 6).

>>> class Sixes:
...     initial = "rolling"
...     def player(self, s): return 1
...     def actions(self, s): return ("roll",)
...     def reward(self, s, a): return 1
...     def outcomes(self, s, a):
...         return [(Fraction(1, 6), tbsg.Terminal(0)), (Fraction(5, 6), "rolling")]
>>> tbsg.solve(Sixes()).value()
Fraction(6, 1)
"""

from __future__ import annotations

import math
import numbers
import operator
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, Protocol, TypeAlias, TypeVar, runtime_checkable

from tbsg.errors import ExactnessError, InvalidGameError, exactness_error

__all__ = [
    "DRAW",
    "Game",
    "Player",
    "Probability",
    "Terminal",
    "exact",
    "infinite_play_payoff",
    "player_function",
    "reward_function",
    "win",
]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)
S_co = TypeVar("S_co", bound=Hashable, covariant=True)

Player: TypeAlias = Literal[0, 1]
"""Index of a player: 0 maximises the payoff, 1 minimises it."""

Probability: TypeAlias = Fraction | int
"""An exact probability. ``float`` is deliberately not allowed."""


_HASH_TAG = 0x7462_7367_5465_726D
"""Mixed into every terminal's hash (see :class:`Terminal`): no plain value shares it."""


@dataclass(frozen=True, slots=True)
class Terminal:
    """An end of play, paying ``payoff`` (any exact rational) to player 0.

    Parameters
    ----------
    payoff : Fraction or int
        Payoff to player 0; player 1 receives ``c - payoff`` (``c`` is 1 in a
        win-probability game, 0 otherwise: see the module docstring).

    Examples
    --------
    >>> Terminal(Fraction(1, 3)), Terminal(-7)
    (Terminal(payoff=Fraction(1, 3)), Terminal(payoff=Fraction(-7, 1)))
    >>> Terminal(0.5)
    Traceback (most recent call last):
    ...
    tbsg.errors.ExactnessError: terminal payoff must be an int or fractions.Fraction, got float 0.5; \
write it exactly, e.g. Fraction(1, 2) or Fraction('0.5')
    """

    payoff: Fraction
    # hashing a Fraction costs a modular inverse: terminals are looked up once per outcome
    # that ends play, so the hash is computed once, here. It is tagged: a compiler looks
    # states and terminals up in one table, where a state class whose __eq__ compares
    # hashes (or says yes too readily) would be taken for a terminal hashing as
    # ``hash((payoff,))`` does, e.g. a state hashing as ``hash((1,))``.
    _hash: int = field(init=False, repr=False, compare=False)

    def __init__(self, payoff: Fraction | int) -> None:
        value = exact(payoff, "terminal payoff")
        object.__setattr__(self, "payoff", value)
        object.__setattr__(self, "_hash", hash((value, _HASH_TAG)))

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
    # games call this once per outcome that ends play: a plain int is recognised without
    # the abstract-base-class check, which costs several times the rest of the call
    if type(player) is int or (isinstance(player, numbers.Integral) and not isinstance(player, bool)):
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
    """Validate an ``infinite_play`` argument: ``None`` or an exact rational.

    Raises
    ------
    ExactnessError
        For a float (or any other inexact value).

    Examples
    --------
    >>> infinite_play_payoff(Fraction(1, 2)), infinite_play_payoff(None)
    (Fraction(1, 2), None)
    """
    if c is None:
        return None
    return exact(c, "infinite_play")


def _player_zero(state: object, /) -> int:
    """The owner of every state of a game without ``player``: player 0."""
    return 0


def player_function(game: object) -> Callable[[Any], int]:
    """``game.player``, or for a one-player game that omits it, a function returning 0.

    Examples
    --------
    >>> class Solo:
    ...     initial = 0
    >>> player_function(Solo())("any state")
    0
    """
    fn: Callable[[Any], int] | None = getattr(game, "player", None)
    return _player_zero if fn is None else fn


def reward_function(game: object) -> Callable[[Any, Any], object] | None:
    """``game.reward`` when the game pays rewards per move, else None (every reward is 0).

    Examples
    --------
    >>> class Solo:
    ...     def reward(self, s, a): return 1
    >>> reward_function(Solo())("s", "a"), reward_function(object())
    (1, None)
    """
    fn: Callable[[Any, Any], object] | None = getattr(game, "reward", None)
    return fn


DRAW = Terminal(Fraction(1, 2))
_WIN0 = Terminal(1)
_WIN1 = Terminal(0)
"""Terminal of a drawn game: half a win to each player."""


@runtime_checkable
class Game(Protocol[S, A]):
    """Protocol a game implements; solvers see games only through it.

    ``initial`` may be a plain attribute or a property. Two more members are optional, and
    so not members of this class (a ``runtime_checkable`` protocol, and a type checker,
    would require them; see the module docstring):

    * ``player(state) -> int``: who chooses the action at ``state``, 0 (maximiser) or 1
      (minimiser); a one-player game may omit it, every state is then player 0's (read
      through :func:`player_function`);
    * ``reward(state, action) -> int | Fraction``: the reward paid to player 0 when
      ``action`` is taken at ``state``; a game that pays none omits it (read through
      :func:`reward_function`). A game whose states are tuples of
    small ints may also offer the array form (``array_shape`` and ``array_transitions``,
    :mod:`tbsg.model.arrays`): many states at once, for a faster compilation of the same game.
    """

    @property
    def initial(self) -> S:
        """The state play starts in."""
        ...

    def actions(self, state: S, /) -> Sequence[A]:
        """The actions available at ``state`` (at least one)."""
        ...

    def outcomes(
        self, state: S, action: A, /
    ) -> Iterable[tuple[Probability, S | Terminal]]:
        """Pairs ``(probability, successor)``; probabilities exact and summing to 1."""
        ...
