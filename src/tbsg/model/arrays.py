"""The array form of a game: many states' transitions at once, as numpy arrays.

A game whose states are tuples of ``d`` small non-negative ints may offer, besides the
four members of :class:`tbsg.Game`, two more:

* ``array_shape``: a tuple ``(n_1, ..., n_d)`` of ints with ``0 <= s[i] < n_i`` for every
  state ``s`` (the product must be below ``2**63``; ``None`` means "no array form", which
  is how a subclass opts out);
* ``array_transitions(states)``: given an ``(n, d)`` int64 array whose rows are states
  (row ``r`` is ``tuple(s)``), an :class:`ArrayTransitions` describing the player, the
  actions and the outcomes of all ``n`` states at once.

:func:`tbsg.engine.compile.compile_game` then enumerates the reachable states a frontier
at a time with numpy (:mod:`tbsg.engine.compile.arrays`) instead of calling ``player``,
``actions`` and ``outcomes`` once per state and action. The compiled game is the one the
plain protocol gives, number for number.

Trust: the plain protocol stays the definition of the game; the array form is a fast
path for a game that *also* implements it, and nothing proves the two agree but a
comparison. :func:`tbsg.solve` (and ``evaluate``, ``best_response``, ``chain``) compare a
sample of states after every array compilation, which catches a careless array form but
not one that differs on a state outside the sample. :func:`tbsg.verify` and
:func:`tbsg.load` (and the command line's ``tbsg verify``) rebuild the game through the
plain protocol and compare *every* state's array row with it: an
:class:`~tbsg.errors.InvalidGameError` names a state where the two descriptions differ.
A value computed through an array form is therefore certified only by ``verify``: that
is what makes an array form trustworthy.

An array form is used only where it plainly belongs to the rules it sits beside
(:func:`untrusted_reason`): ``array_transitions`` must be a method of the game's own
class (not reached through ``__getattr__`` forwarding to another object, nor set on the
instance), and no class below the one that defines it may redefine ``player``,
``actions`` or ``outcomes``. A game that fails this is compiled through the plain
protocol alone.

Semantics, state by state (row ``r``):

* ``player[r]`` is ``player(s)``;
* the actions of ``s`` are the :class:`ArrayAction` s whose ``allowed[r]`` is true (all of
  them where ``allowed`` is ``None``), in the order of ``actions``: the order
  ``actions(s)`` returns them;
* the outcomes of an action are its :class:`ArrayOutcome` s in order, each with
  probability ``p[r]``; one with ``p[r] == 0`` is absent at ``s`` (its successor row is
  not read). An outcome ends play with ``terminals[terminal[r]]`` where ``terminal[r] >= 0``
  and leads to the state ``tuple(successor[r])`` where ``terminal[r] == -1`` (or
  ``terminal`` is ``None``).

Rows of actions that are not allowed, and of outcomes that are absent or end play, may
hold anything. Probabilities are exact: a :class:`~fractions.Fraction` or ``int`` for all
rows, or a pair ``(numerators, denominator)``, an int array and a positive int; a float
anywhere (a float array included) is an :class:`~tbsg.errors.ExactnessError`. The
numerators may be any numpy int dtype (uint64 included, read as the unsigned values it
holds) or an object array of Python ints, which a denominator beyond int64 needs
(``(np.array([3 * 2**68], dtype=object), 2**70)``): sums that int64 cannot hold are done
in exact Python ints.

Examples
--------
A coin passed back and forth: the holder tosses, heads wins, tails passes the coin. The
state is ``(holder,)``.

>>> from fractions import Fraction
>>> import numpy as np
>>> import tbsg
>>> class Toss:
...     initial = (0,)
...     array_shape = (2,)
...     def player(self, s): return s[0]
...     def actions(self, s): return ("toss",)
...     def outcomes(self, s, a):
...         return [(Fraction(1, 2), tbsg.win(s[0])), (Fraction(1, 2), (1 - s[0],))]
...     def array_transitions(self, states):
...         holder = states[:, 0]
...         heads = ArrayOutcome(Fraction(1, 2), None, terminal=holder)  # win(holder)
...         tails = ArrayOutcome(Fraction(1, 2), (1 - holder)[:, None])
...         return ArrayTransitions(holder, (ArrayAction("toss", (heads, tails)),),
...                                 terminals=(tbsg.win(0), tbsg.win(1)))
>>> tbsg.solve(Toss()).value()
Fraction(2, 3)
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeAlias, cast

import numpy as np
import numpy.typing as npt

from tbsg.model.protocol import Terminal

__all__ = ["ArrayAction", "ArrayOutcome", "ArrayProbability", "ArrayTransitions", "rules_kept",
           "untrusted_reason"]

IntArray: TypeAlias = npt.NDArray[np.integer[Any]]
BoolArray: TypeAlias = npt.NDArray[np.bool_]

ArrayProbability: TypeAlias = Fraction | int | tuple[npt.NDArray[Any], int]
"""A probability for all rows: one exact number, or ``(numerators, denominator)``: row
``r`` has probability ``numerators[r] / denominator`` (numerators: an int array, or an
object array of Python ints)."""


@dataclass(frozen=True, eq=False)
class ArrayOutcome:
    """One outcome of an action, for every row of the states given.

    Attributes
    ----------
    probability : Fraction, int or (int array of shape (n,), int)
        Its probability at each row; 0 where the outcome is absent. The numerators may
        be of any numpy int dtype or an object array of Python ints.
    successor : int array of shape (n, d), or None
        The state it leads to (row ``r``: ``tuple(successor[r])``), read where it does not
        end play. ``None`` when the outcome always ends play.
    terminal : int array of shape (n,), or None
        ``terminal[r] >= 0``: play ends with ``terminals[terminal[r]]`` of the
        :class:`ArrayTransitions`; ``-1``: play goes on to ``successor[r]``. ``None``: never
        ends play.
    """

    probability: ArrayProbability
    successor: IntArray | None
    terminal: IntArray | None = None


@dataclass(frozen=True, eq=False)
class ArrayAction:
    """One action, for every row of the states given.

    Attributes
    ----------
    label : hashable
        The action, as ``actions(s)`` returns it (e.g. ``"roll"``).
    outcomes : tuple of ArrayOutcome
        Its outcomes, in the order ``outcomes(s, label)`` returns them.
    allowed : bool array of shape (n,), or None
        The rows (states) that offer this action; ``None``: all of them.
    """

    label: Hashable
    outcomes: tuple[ArrayOutcome, ...]
    allowed: BoolArray | None = None


@dataclass(frozen=True, eq=False)
class ArrayTransitions:
    """What ``game.array_transitions(states)`` returns: ``n`` states' rules at once.

    Attributes
    ----------
    player : int array of shape (n,)
        Who moves at each row (0 or 1).
    actions : tuple of ArrayAction
        Every action any of the rows offers, in the order ``actions(s)`` lists them (the
        actions a row does not offer are masked by :attr:`ArrayAction.allowed`).
    terminals : tuple of Terminal
        The ends of play the outcomes' ``terminal`` arrays index.
    """

    player: IntArray
    actions: tuple[ArrayAction, ...]
    terminals: tuple[Terminal, ...] = ()


_RULES = ("player", "actions", "outcomes")


def rules_kept(game: object, owner: type) -> bool:
    """False if ``type(game)`` redefines a rule of ``owner`` (``player``, ``actions`` or
    ``outcomes``) but not ``array_transitions``. (A new ``initial`` keeps the rules: the
    array form describes transitions only.)

    A class that offers the array form calls it in ``array_shape`` and returns ``None``
    when it is False: a subclass that changes the rules (say, allows another action) then
    loses the array form that still describes the old ones, instead of failing the
    comparison with the plain protocol.

    >>> class Base:
    ...     def outcomes(self, s, a): ...
    ...     def array_transitions(self, states): ...
    >>> class Changed(Base):
    ...     def outcomes(self, s, a): ...
    >>> rules_kept(Base(), Base), rules_kept(Changed(), Base)
    (True, False)
    """
    kind = type(game)
    same = all(getattr(kind, name, None) is getattr(owner, name, None) for name in _RULES)
    return same or getattr(kind, "array_transitions", None) is not getattr(owner, "array_transitions", None)


def untrusted_reason(game: object) -> str | None:
    """Why the array form ``game`` offers cannot be taken to describe its rules, or None.

    The array form is trusted only when it plainly belongs to the rules beside it:

    * ``array_transitions`` is a method defined by ``type(game)`` or a class it inherits
      from, bound to ``game`` itself. A wrapper whose ``__getattr__`` forwards to another
      object finds that object's method (its ``__self__`` is the other object): it
      describes the other object's rules, whatever the wrapper's ``outcomes`` says.
    * No class below it in the method resolution order redefines ``player``, ``actions``
      or ``outcomes``: a subclass that changes a rule and not ``array_transitions`` would
      keep an array form of the old rules.

    These are cheap, structural checks (no state is looked at). Rules set on the
    instance are not refused (a game may bind another object's rules and forward its
    array form with them, as :class:`tbsg.model.fixed.FixedStrategyGame` does); what the
    checks let through is compared with the plain protocol state by state (a sample when
    solving, every state in :func:`tbsg.verify` and :func:`tbsg.load`).

    >>> class Base:
    ...     def player(self, s): ...
    ...     def actions(self, s): ...
    ...     def outcomes(self, s, a): ...
    ...     def array_transitions(self, states): ...
    >>> class Changed(Base):
    ...     def outcomes(self, s, a): ...
    >>> class Wrapper:
    ...     def __init__(self, inner): self.inner = inner
    ...     def __getattr__(self, name): return getattr(self.inner, name)
    >>> untrusted_reason(Base()) is None
    True
    >>> print(untrusted_reason(Changed()))
    Changed redefines outcomes below Base, which defines array_transitions: the array form \
may describe the rules before the change (redefine array_transitions in Changed too to keep it)
    >>> print(untrusted_reason(Wrapper(Base())))
    Wrapper does not define array_transitions (it is reached through __getattr__ or set on \
the instance), so it may describe another object's rules
    """
    kind = type(game)
    mro = kind.__mro__
    owner = next((c for c in mro if "array_transitions" in vars(c)), None)
    name = kind.__name__
    if owner is None:
        return (f"{name} does not define array_transitions (it is reached through __getattr__ or "
                "set on the instance), so it may describe another object's rules")
    own = getattr(game, "__dict__", None)
    own = own if isinstance(own, dict) else {}
    try:
        method = cast("Any", game).array_transitions
    except Exception:
        method = None
    if "array_transitions" in own or getattr(method, "__self__", None) is not game \
            or getattr(method, "__func__", None) is not vars(owner)["array_transitions"]:
        return (f"{name}.array_transitions is not a method of the game itself (set on the instance, "
                "forwarded to another object, or not a plain method), so it may describe another "
                "object's rules")
    below = mro[: mro.index(owner)]
    for rule in _RULES:
        definer = next((c for c in mro if rule in vars(c)), None)
        if definer in below:
            return (f"{definer.__name__} redefines {rule} below {owner.__name__}, which defines "
                    "array_transitions: the array form may describe the rules before the change "
                    f"(redefine array_transitions in {definer.__name__} too to keep it)")
    return None
