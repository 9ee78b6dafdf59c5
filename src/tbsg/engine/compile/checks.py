"""What a game must satisfy to be compiled, and the words of every refusal.

The three compilers, the plain loop (:mod:`tbsg.engine.compile.plain`), the array form
(:mod:`tbsg.engine.compile.arrays`) and the parametric compiler
(:mod:`tbsg.parametric.compile`), hold a game to one set of rules, written here once so
that a game is refused for the same reason, in the same words, whichever path met it:

* the game implements the protocol; user code that raises is reported with the state
  and action it was asked about (:func:`call`, :func:`user_error`);
* ``player(s)`` is 0 or 1 (numpy integers accepted); a game without ``player`` is player
  0's everywhere (:func:`tbsg.model.protocol.player_function`);
* ``actions(s)`` is a sequence of hashable actions, at least one, none listed twice, and
  asking again returns equal actions in the same order (a solution names its actions);
* ``outcomes(s, a)`` yields ``(probability, successor)`` pairs; every probability passes
  the number gate (:class:`Numbers`: exact rationals, or for a parametric game rational
  functions of the parameter), is non-negative (positive on the parameter's interval),
  and the probabilities of an action sum to exactly 1; a zero probability drops its
  outcome, whose successor must still be hashable;
* a terminal's payoff is an exact rational, and so is a move's reward (``reward(s, a)``,
  when the game has that method: :func:`reward_value`);
* states are hashable and stable: their hash and equality do not drift, and each equals
  a fresh copy of itself (:func:`check_stable`; a state that equals nothing, such as one
  holding a fresh ``float('nan')``, would be new every time it is returned and make
  enumeration endless);
* the limits: at most ``max_states`` states and, when given, ``max_actions`` actions and
  ``max_outcomes`` outcomes.

What differs between compilers is only how a probability is read and signed, so that is
a parameter (:class:`Numbers`): :data:`EXACT` for the numeric compilers, the parametric
compiler's own gate for rational functions, whose sum must be 1 identically.

The sum check is batched: with ``D`` the lowest common denominator of the probabilities
of many actions, an action's probabilities ``p_i`` sum to 1 exactly when the integers
``p_i D`` sum to ``D``. When every partial sum stays below :data:`INT64_SAFE` that is one
vectorised int64 cumulative sum for all the actions at once (:func:`check_sums`); else
the actions are summed one by one in integer arithmetic over their own denominators, so
the cost stays linear in the number of outcomes either way.
"""

from __future__ import annotations

import bisect
import copy
import math
import pickle
from array import array
from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import chain
from typing import Any, NoReturn, Protocol, TypeVar, cast

import numpy as np
import numpy.typing as npt

from tbsg.errors import InvalidArgumentError, InvalidGameError, StateLimitError, TbsgError, shorten, show
from tbsg.model.protocol import Terminal, exact

__all__ = [
    "COPIES", "DEFAULT_MAX_STATES", "EXACT", "INT64_SAFE", "Columns", "Numbers", "action_sequence", "at",
    "at_action", "bad_sum", "call", "check_actions", "check_actions_again", "check_copy",
    "check_hashable", "check_max_states", "check_protocol", "check_stable", "check_sums",
    "check_terminal", "common_denominator", "distinct_actions", "fold_denominators", "initial_state",
    "int_view", "lookup_error", "negative_probability", "never_terminal", "no_actions", "not_a_pair",
    "not_a_player", "odd_terminal", "odd_terminal_classes", "plain_terminal", "player_of",
    "probability", "reward_number", "reward_value", "size_limit", "state_equals_terminal",
    "state_limit", "terminal_changed", "terminal_equals_state", "user_error",
]

N = TypeVar("N")
R = TypeVar("R")

DEFAULT_MAX_STATES = 5_000_000
"""Default bound on the number of reachable states before compilation stops.

Memory per state, on a game with about 2 actions and 6.6 outcomes per state (as Pig):

* the state object and its entries in ``states`` and ``index``: about 125 bytes for a
  tuple of four small ints (72 for the tuple, 8 for the list, about 45 for the dict);
* per action, 8 bytes for its label and 4 bytes in each of ``act_ptr``, ``act_state``,
  ``out_ptr``, ``act_code`` and ``stop_code`` (int32 while the numbers fit): 28 bytes;
* per outcome, 4 bytes in each of ``out_target`` and ``out_code``: 8 bytes.

That is about 270 bytes per compiled state, before the solvers' working arrays (and, on
the exact path, a rational per state). The default keeps a runaway game's compilation
near 1.5 GB; pass ``max_states`` to go further.
"""

INT64_SAFE = 2**62
"""Bound on every partial sum done in int64 by the batched checks and folds."""

COPIES = 8
"""States compared with copies of themselves per stability check."""

_PROTOCOL = ("initial", "actions", "outcomes")  # ``player`` and ``reward`` are optional


# --- words -------------------------------------------------------------------------------------

def at(s: object) -> str:
    """``at state <s>``: where a refusal happened."""
    return f"at state {show(s)}"


def at_action(s: object, a: object) -> str:
    """``at state <s>, action <a>``: where a refusal happened."""
    return f"at state {show(s)}, action {show(a)}"


def _outcome(nxt: object, s: object, a: object) -> str:
    return f"probability of outcome {show(nxt)} {at_action(s, a)}"


# --- arguments and user code -------------------------------------------------------------------

def check_max_states(max_states: object) -> int:
    """Validate a ``max_states`` argument: an int >= 1.

    >>> check_max_states(0)
    Traceback (most recent call last):
    ...
    tbsg.errors.InvalidArgumentError: max_states must be an int >= 1 (the most reachable states \
to enumerate), got 0
    """
    if isinstance(max_states, bool) or not isinstance(max_states, int) or max_states < 1:
        raise InvalidArgumentError(
            f"max_states must be an int >= 1 (the most reachable states to enumerate), "
            f"got {show(max_states)}")
    return max_states


def check_protocol(game: object) -> None:
    """``game`` has the members of the :class:`tbsg.Game` protocol that are not optional."""
    missing = [name for name in _PROTOCOL if not hasattr(type(game), name) and not hasattr(game, name)]
    if missing:
        raise InvalidArgumentError(
            f"{type(game).__name__} does not implement the tbsg.Game protocol: no "
            f"{', '.join(missing)} (a game needs initial, actions(state) and "
            "outcomes(state, action) -> [(probability, successor), ...], and player(state) "
            "unless every state is player 0's)")


def call(what: str, where: str, fn: Callable[[], R]) -> R:
    """Run user code, re-raising its exceptions with the state that caused them."""
    try:
        return fn()
    except Exception as exc:
        user_error(what, where, exc)


def user_error(what: str, where: str, exc: Exception) -> NoReturn:
    """Re-raise ``exc`` (raised by user code ``what``) with the state and action ``where``.

    A tbsg error raised while user code ran (e.g. ``Terminal(2)`` built in ``outcomes()``)
    keeps its type (an ExactnessError stays a TypeError) and gains the place; any other
    exception becomes an :class:`~tbsg.errors.InvalidGameError`.
    """
    if isinstance(exc, TbsgError):
        located: TbsgError | None
        try:
            located = type(exc)(f"{exc} (raised in {what} {where})")
        except TypeError:  # an error class with a different constructor: leave it as is
            located = None
        if located is None:
            raise exc
        raise located from exc
    raise InvalidGameError(f"{what} raised {type(exc).__name__}: {exc} {where}") from exc


def initial_state(game: Any) -> Hashable:
    """``game.initial``, checked as every state is (hashable, equal to a copy of itself),
    with its actions asked twice (:func:`check_actions_again`)."""
    initial = call("game.initial", "(reading the initial state)", lambda: game.initial)
    if isinstance(initial, Terminal):
        raise InvalidGameError("game.initial is a Terminal; the game must start in a state")
    check_hashable(initial, "the initial state")
    check_copy(initial, "state")
    acts = call("game.actions()", at(initial), lambda: game.actions(initial))
    check_actions_again(game.actions, initial, action_sequence(acts, initial))
    return cast("Hashable", initial)


# --- players and actions -----------------------------------------------------------------------

def not_a_player(who: object, s: object, source: str = "game.player() returned") -> InvalidGameError:
    """The error for a player that is not 0 or 1 (``source`` says who gave it)."""
    return InvalidGameError(f"{source} {show(who)} {at(s)}; expected 0 or 1")


def player_of(who: object, s: object) -> int:
    """What ``game.player(s)`` returned, as 0 or 1 (numpy integers accepted), or an error."""
    if not isinstance(who, bool) and isinstance(who, (int, np.integer)) and int(who) in (0, 1):
        return int(who)
    raise not_a_player(who, s)


def action_sequence(acts: object, s: object) -> Sequence[Any]:
    """What ``game.actions(s)`` returned, as a sequence, or an error saying what it was."""
    if type(acts) is tuple or type(acts) is list:
        return cast("Sequence[Any]", acts)
    if isinstance(acts, (str, bytes)):
        raise InvalidGameError(
            f"game.actions() returned the string {show(acts)} {at(s)}; return a tuple of "
            f"actions, e.g. ({show(acts)},)")
    if isinstance(acts, Sequence):
        return acts
    try:
        return tuple(cast("Iterable[Any]", acts))
    except TypeError:
        raise InvalidGameError(
            f"game.actions() returned {show(acts)} ({type(acts).__name__}) {at(s)}; "
            "expected a tuple or list of actions") from None


def no_actions(s: object, source: str = "game.actions() returned") -> InvalidGameError:
    """The error for a state without actions (``source`` says who gave none)."""
    return InvalidGameError(f"{source} no actions {at(s)}; every state needs at least one "
                            "(a chance step has one)")


def check_actions(acts: Sequence[object], s: object) -> None:
    """At least one action, all hashable, none listed twice."""
    if len(acts) == 0:
        raise no_actions(s)
    distinct_actions(acts, at(s))


def distinct_actions(acts: Iterable[object], where: str) -> None:
    """Actions all hashable, comparable, and none listed twice (``where``: the place)."""
    seen: set[object] = set()
    for a in acts:
        try:
            dup = a in seen
            seen.add(a)
        except Exception as exc:
            check_hashable(a, f"action {show(a)} {where}")
            raise InvalidGameError(
                f"comparing the actions {where} raised {type(exc).__name__}: "
                f"{shorten(str(exc))}; actions must hash and compare with == without raising") from exc
        if dup:
            raise InvalidGameError(f"action {show(a)} is listed twice {where}")


def check_actions_again(actions_fn: Callable[[Any], object], s: object, acts: Sequence[object]) -> None:
    """A second call of ``actions(s)`` must return equal actions, in the same order.

    Otherwise a solution's strategy (the action objects of the solve) names actions that
    the game, asked again, no longer recognises (e.g. ``Bet(1)`` objects without ``__eq__``,
    rebuilt on every call), and the order, which saved solutions record, may change.
    """
    try:
        again: Sequence[object] = action_sequence(actions_fn(s), s)
        same = len(again) == len(acts) and all(x == y for x, y in zip(again, acts, strict=True))
    except TbsgError:
        raise
    except Exception as exc:
        user_error("game.actions()", at(s), exc)
    if not same:
        raise InvalidGameError(
            f"game.actions() returned {show(tuple(acts))} and then {show(tuple(again))} "
            f"{at(s)}: asked twice about one state it must return equal actions in the same "
            "order (actions without __eq__, rebuilt on each call, are never equal: make them "
            "values, e.g. ints, strings, NamedTuples or frozen dataclasses; return a tuple, "
            "not a set)")


# --- outcomes and probabilities ----------------------------------------------------------------

def not_a_pair(item: object, s: object, a: object) -> InvalidGameError:
    """The error for an outcome that is not a ``(probability, successor)`` pair."""
    return InvalidGameError(f"game.outcomes() yielded {show(item)} {at_action(s, a)}; "
                            "expected (probability, successor) pairs")


class Numbers(Protocol[N]):
    """How a compiler reads probabilities: the one check that differs between compilers.

    ``read`` is the number gate (raising a tbsg error naming ``what``); ``sign`` is -1, 0
    or 1 (and may raise, naming ``what()``, when the sign is not one over the domain);
    ``show`` writes a number in a message; ``one`` is how "a sum of exactly 1" reads.
    """

    one: str

    def read(self, p: object, what: str) -> N: ...

    def sign(self, x: N, what: Callable[[], str]) -> int: ...

    def show(self, x: N) -> str: ...


class _Exact:
    """Exact rationals: :func:`tbsg.model.protocol.exact` (which also turns numpy
    integers into Python ints) and the sign of a Fraction."""

    one = "1"

    def read(self, p: object, what: str) -> Fraction:
        return exact(p, what)

    def sign(self, x: Fraction, what: Callable[[], str]) -> int:
        return (x > 0) - (x < 0)

    def show(self, x: Fraction) -> str:
        return show(x)


EXACT: Numbers[Fraction] = _Exact()
"""The number gate of the numeric compilers."""


def probability(p: object, nxt: object, s: object, a: object, numbers: Numbers[N]) -> N | None:
    """The probability ``p`` of outcome ``nxt`` of action ``a`` at ``s``, read by ``numbers``.

    None for a zero probability (the outcome is dropped; its successor must still be
    hashable); an error for an inexact or negative one. Messages are built only when
    raised: compilers call this on the first sight of each probability.
    """
    try:
        x = numbers.read(p, "")
    except TbsgError:  # the message names the outcome: read again to raise it
        numbers.read(p, _outcome(nxt, s, a))
        raise
    sign = numbers.sign(x, lambda: _outcome(nxt, s, a))
    if sign > 0:
        return x
    if sign < 0:
        raise negative_probability(numbers.show(x), f"outcome {show(nxt)}", at_action(s, a))
    if not isinstance(nxt, Terminal):
        check_hashable(nxt, f"successor {show(nxt)} (probability 0) {at_action(s, a)}")
    return None


def negative_probability(value: str, outcome: str, where: str) -> InvalidGameError:
    """The error for a negative probability ``value`` of ``outcome`` ``where``."""
    return InvalidGameError(f"negative probability {value} for {outcome} {where}")


def bad_sum(total: str, s: object, a: object, one: str = "1") -> InvalidGameError:
    """The error for an action whose probabilities sum to ``total``, not ``one``."""
    return InvalidGameError(f"probabilities sum to {total}, not {one}, {at_action(s, a)}")


def common_denominator(denominators: Iterable[int], terms: int) -> int | None:
    """The lowest common multiple ``D`` of ``denominators``, or None once ``D * terms``
    reaches :data:`INT64_SAFE` (a sum of ``terms`` integers of at most ``D`` each would
    then not be safe in int64)."""
    d = 1
    for x in denominators:
        d = math.lcm(d, x)
        if d * terms >= INT64_SAFE:
            return None
    return d


def fold_denominators(probabilities: Iterable[int], payoffs: Collection[Fraction], terms: int
                      ) -> tuple[int, int] | None:
    """Common denominators ``(dp, dr)`` of the probabilities (given by their denominators)
    and of the ``payoffs`` of ``terms`` outcomes that end play, or None when sums of
    ``p r`` over ``dp dr`` would not be safe in int64.

    A term is ``(p dp) (r dr)`` with ``p dp <= dp`` and ``|r dr| <= M``, the largest
    payoff numerator over ``dr``, so ``terms`` of them stay below :data:`INT64_SAFE` when
    ``M dp terms`` does (payoffs in [-1, 1], as in win-probability games, give ``M <= dr``).
    Both numeric compilers fold terminal outcomes into ``c_k`` and ``s_k`` in integers
    when this gives a bound and in rationals otherwise; deciding by one function keeps
    them on the same path, which fixes the order their rationals are interned in.

    >>> fold_denominators([2, 3], [Fraction(1), Fraction(0)], 4)
    (6, 1)
    >>> fold_denominators([2], [Fraction(2**62)], 2) is None  # payoffs too large to sum in int64
    True
    """
    dp = common_denominator(probabilities, terms)
    dr = None if dp is None else common_denominator((r.denominator for r in payoffs), dp * terms)
    if dp is None or dr is None:
        return None
    most = max((abs(r.numerator) * (dr // r.denominator) for r in payoffs), default=0)
    return None if max(most, 1) * dp * terms >= INT64_SAFE else (dp, dr)


@dataclass
class Columns:
    """The actions and outcomes an enumeration has laid out so far, in compressed sparse
    rows (see :class:`~tbsg.engine.compiled.CompiledGame`): what :func:`check_sums` reads.

    ``out_code`` holds the probability codes of the outcomes leading to states; the
    outcomes that end play are listed sparsely, one entry each in ``term_act`` (their
    action, ascending), ``term_code`` (their probability) and ``term_idx`` (their
    terminal).
    """

    states: list[Any]
    act_ptr: array[int]
    act_labels: list[Any]
    out_ptr: array[int]
    out_code: array[int]
    term_act: array[int]
    term_code: array[int]
    term_idx: array[int]


def int_view(column: array[int]) -> npt.NDArray[np.signedinteger[Any]]:
    """An ``array("i")`` or ``array("q")`` seen as an int32 or int64 array, without a copy.

    While the view lives the column cannot grow: callers must not keep it.
    """
    return np.frombuffer(column, dtype=np.int32 if column.itemsize == 4 else np.int64)


def check_sums(cols: Columns, values: list[Fraction], k0: int, k1: int) -> None:
    """Probabilities of each action ``k0 <= k < k1`` of ``cols`` must sum to exactly 1.

    ``values[c]`` is the probability of code ``c``. One vectorised int64 sum per action
    over the common denominator when it is safe (see the module docstring), else action
    by action (:func:`_first_bad_sum`). Dropped zero-probability outcomes add nothing and
    merged repeated successors carry the sum of their probabilities.
    """
    if k1 <= k0:
        return
    o0, o1 = cols.out_ptr[k0], cols.out_ptr[k1]
    t0 = bisect.bisect_left(cols.term_act, k0)
    t1 = bisect.bisect_left(cols.term_act, k1)
    codes = int_view(cols.out_code)[o0:o1]
    term_codes = int_view(cols.term_code)[t0:t1]
    seen = np.zeros(len(values), dtype=bool)
    seen[codes] = True  # (bincount would copy the codes to int64)
    seen[term_codes] = True
    used = np.flatnonzero(seen).tolist()
    terms = len(codes) + len(term_codes) + 1
    denom = common_denominator((values[c].denominator for c in used), terms)
    scaled = [] if denom is None else [values[c].numerator * (denom // values[c].denominator)
                                       for c in used]
    if denom is None or max(scaled, default=0) * terms >= INT64_SAFE:
        bad = _first_bad_sum(cols, values, k0, k1, t0)
    else:
        table = np.zeros(len(values), dtype=np.int64)
        table[used] = scaled
        running = np.zeros(len(codes) + 1, dtype=np.int64)
        np.cumsum(table[codes], out=running[1:])
        ptr = int_view(cols.out_ptr)[k0 : k1 + 1] - o0
        sums = running[ptr[1:]] - running[ptr[:-1]]
        if t1 > t0:
            np.add.at(sums, int_view(cols.term_act)[t0:t1] - k0, table[term_codes])
        wrong = np.flatnonzero(sums != denom)
        bad = None if wrong.size == 0 else (
            k0 + int(wrong[0]), Fraction(int(sums[int(wrong[0])]), denom))
    if bad is not None:
        k, total = bad
        i = bisect.bisect_right(cols.act_ptr, k) - 1  # the state owning action k
        raise bad_sum(show(total), cols.states[i], cols.act_labels[k])


def _first_bad_sum(cols: Columns, values: list[Fraction], k0: int, k1: int, t: int
                   ) -> tuple[int, Fraction] | None:
    """First action in ``k0:k1`` whose probabilities do not sum to 1, and their sum.

    Integer arithmetic over each action's own denominators (no gcd per step); ``t`` is
    the first terminal outcome of action ``k0`` or later.
    """
    out_ptr, out_code = cols.out_ptr, cols.out_code
    term_act, term_code = cols.term_act, cols.term_code
    n_t = len(term_act)
    for k in range(k0, k1):
        tot_n, tot_d = 0, 1
        part = list(out_code[out_ptr[k] : out_ptr[k + 1]])
        while t < n_t and term_act[t] == k:
            part.append(term_code[t])
            t += 1
        for c in part:
            p = values[c]
            pn, pd = p.numerator, p.denominator
            if pd == tot_d:
                tot_n += pn
            else:
                tot_n, tot_d = tot_n * pd + pn * tot_d, tot_d * pd
        if tot_n != tot_d:
            return k, Fraction(tot_n, tot_d)
    return None


# --- terminals ---------------------------------------------------------------------------------

def check_terminal(t: object, where: str) -> Fraction:
    """The payoff of the terminal ``t`` met ``where``: an exact rational.

    ``Terminal(...)`` validates it, but a subclass or ``object.__setattr__`` can bypass
    that, so each distinct terminal is checked once.
    """
    p = getattr(t, "payoff", None)
    if type(p) is not Fraction or type(p.numerator) is not int or type(p.denominator) is not int \
            or exact(p, "terminal payoff") is not p:
        raise InvalidGameError(f"terminal {show(t)} {where} has payoff {show(p)}; a payoff "
                               "is an exact rational (build it with tbsg.Terminal)")
    return p


def reward_value(fn: Callable[[Any, Any], object], s: object, a: object) -> Fraction:
    """The reward ``fn(s, a)`` of action ``a`` at state ``s``, through the number gate.

    An exception raised by ``fn`` is reported with the state and action; a float is an
    :class:`~tbsg.errors.ExactnessError` naming them.

    >>> reward_value(lambda s, a: Fraction(3, 2), "s", "go")
    Fraction(3, 2)
    >>> reward_value(lambda s, a: 0.5, "s", "go")
    Traceback (most recent call last):
    ...
    tbsg.errors.ExactnessError: reward at state 's', action 'go' must be an int or \
fractions.Fraction, got float 0.5; write it exactly, e.g. Fraction(1, 2) or Fraction('0.5')
    """
    try:
        raw = fn(s, a)
    except Exception as exc:
        user_error("game.reward()", at_action(s, a), exc)
    return reward_number(raw, s, a)


def reward_number(raw: object, s: object, a: object) -> Fraction:
    """What ``reward(s, a)`` returned, through the number gate (see :func:`reward_value`)."""
    if type(raw) is int:
        return Fraction(raw)
    if type(raw) is Fraction and type(n := raw.numerator) is int and type(d := raw.denominator) is int \
            and d > 0 and math.gcd(n, d) == 1:
        return raw  # already what the gate returns: the place is written only for an error
    return exact(raw, f"reward {at_action(s, a)}")  # (a Fraction built without normalisation too)


def terminal_changed(t: object, was: Fraction) -> InvalidGameError:
    """The error for a terminal whose payoff changed after it was checked."""
    return InvalidGameError(
        f"terminal {show(t)} changed its payoff after it was returned (it was {show(was)}); "
        "terminals must not change: build them with tbsg.Terminal, tbsg.win or tbsg.DRAW")


_EQ_ADVICE = ("a state's __eq__ must be False for anything but an equal state, and a "
              "terminal's for anything but a terminal of the same payoff (compare fields, not "
              "hashes or texts, and return NotImplemented for other types)")


def state_equals_terminal(x: object, t: object, s: object, a: object) -> InvalidGameError:
    """The error for a successor that is not a terminal but compares equal to one."""
    return InvalidGameError(
        f"successor {show(x)} {at_action(s, a)} is not a terminal but compares equal to the "
        f"terminal {show(t)} met before (same hash, and __eq__ says so): it would be taken for "
        f"the end of play; {_EQ_ADVICE}")


def terminal_equals_state(t: object, x: object, s: object, a: object) -> InvalidGameError:
    """The error for a terminal successor that compares equal to a state met before."""
    return InvalidGameError(
        f"the terminal {show(t)} {at_action(s, a)} compares equal to the state {show(x)} met "
        f"before (same hash, and __eq__ says so): it would be taken for that state; {_EQ_ADVICE}")


def odd_terminal(t: object, s: object, a: object) -> InvalidGameError:
    """The error for a terminal whose class compares otherwise than by class and payoff."""
    return InvalidGameError(
        f"the terminal {show(t)} {at_action(s, a)} is a {type(t).__name__}, whose __eq__ is its "
        "own: terminals are told apart by class and payoff, so two terminals of different "
        "payoffs, or a terminal and a state, could be taken for one another; subclass "
        "tbsg.Terminal without __eq__ (a frozen dataclass adding fields is fine)")


# --- states ------------------------------------------------------------------------------------

def check_hashable(x: object, what: str) -> None:
    """``x`` (described by ``what``) can be hashed."""
    try:
        hash(x)
    except TypeError as exc:
        raise InvalidGameError(f"{what} is not hashable ({exc}); use tuples, not lists") from exc
    except Exception as exc:
        raise InvalidGameError(f"hashing {what} raised {type(exc).__name__}: {shorten(str(exc))}") from exc


def lookup_error(nxt: object, s: object, a: object, exc: Exception) -> NoReturn:
    """The error for a successor that could not be hashed or compared with the known states."""
    if isinstance(exc, TypeError):
        check_hashable(nxt, f"successor {show(nxt)} {at_action(s, a)}")
    raise InvalidGameError(
        f"looking up the successor {show(nxt)} {at_action(s, a)} among the known states raised "
        f"{type(exc).__name__}: {shorten(str(exc))}; states must hash and compare with == "
        "without raising (e.g. no numpy arrays or numpy scalars mixed with Decimals in "
        "states: use tuples of ints, strings and Fractions)") from exc


def check_stable(states: Sequence[object], index_get: Callable[[Any], int | None], start: int,
                 when: str) -> bool:
    """States from ``start`` on must be found again at their own number, and equal a copy.

    A state whose hash or equality changes after it was returned (a mutable object, a
    hash of ``id`` or of a counter) would be enumerated again and again; so would a state
    that is equal to nothing, not even to a copy of itself. Compilers run this on the new
    states each time their table doubles and once at the end: the look-ups at C speed
    (``map``), the copies on a sample of :data:`COPIES` (:func:`check_copy`). Returns True
    if those states are plain values (:func:`_plain_values`), which no later check needs
    to look at again.
    """
    part = states[start:]
    if _plain_values(part):
        return True  # hashes and equality of such values are fixed: nothing can drift
    found = list(map(index_get, part))
    if found != list(range(start, start + len(found))):
        bad = next(i for i, k in enumerate(found, start) if k != i)
        raise InvalidGameError(
            f"state {show(states[bad])} cannot be found again in the state table (checked {when}): "
            "its hash or equality changed (or it is not equal to itself); states must be "
            "immutable values with consistent __hash__ and __eq__, e.g. tuples or NamedTuples")
    step = max(len(part) // COPIES, 1)
    for x in part[::step]:
        check_copy(x, "state")
    return False


_NEVER_TERMINAL_EQ = frozenset({object.__eq__, tuple.__eq__, int.__eq__, str.__eq__, bytes.__eq__,
                                float.__eq__, frozenset.__eq__})
"""``__eq__`` methods that are False for every terminal (tuples of anything included)."""

_TERMINAL_EQ = vars(Terminal)["__eq__"]
"""The ``__eq__`` of :class:`~tbsg.model.protocol.Terminal`: same class and same payoff."""


def _own_eq(kind: type) -> object:
    """The ``__eq__`` that instances of ``kind`` use: found in the classes' own namespaces
    along the MRO, as the interpreter's comparison finds it (``kind.__eq__`` could be
    answered by a metaclass)."""
    for k in kind.__mro__:
        eq = vars(k).get("__eq__")
        if eq is not None:
            return eq
    return object.__eq__


def _generated_eq(eq: object) -> bool:
    """Whether ``eq`` is the ``__eq__`` that :mod:`dataclasses` generates (compiled from a
    string inside its ``__create_fn__``): it returns NotImplemented for an object of any
    other class."""
    code = getattr(eq, "__code__", None)
    return code is not None and code.co_filename == "<string>" \
        and code.co_qualname.startswith("__create_fn__.")


def never_terminal(kind: type) -> bool:
    """Whether no instance of ``kind`` can compare equal to a terminal: its ``__eq__`` is
    one of :data:`_NEVER_TERMINAL_EQ` or a dataclass's generated one."""
    eq = _own_eq(kind)
    return eq in _NEVER_TERMINAL_EQ or _generated_eq(eq)


def plain_terminal(kind: type) -> bool:
    """Whether ``kind`` (a :class:`~tbsg.model.protocol.Terminal` class) compares as a
    terminal does, by class and payoff (its own ``__eq__`` or a dataclass's generated one
    over more fields): such terminals equal a state, or another terminal of a different
    payoff, never."""
    eq = _own_eq(kind)
    return eq is _TERMINAL_EQ or _generated_eq(eq)


def odd_terminal_classes() -> bool:
    """Whether some subclass of :class:`~tbsg.model.protocol.Terminal` defined so far has
    an ``__eq__`` of its own (:func:`plain_terminal`): one of its objects could then be
    equal to a state, and a compiler checks every successor found among the states."""
    todo = list(Terminal.__subclasses__())
    while todo:
        kind = todo.pop()
        if not plain_terminal(kind):
            return True
        todo.extend(kind.__subclasses__())
    return False


_PLAIN_ITEMS = frozenset({int, str, bytes, bool, float, type(None)})
"""Item types of plain tuple states (floats are checked for NaN)."""


def _plain_values(states: Sequence[object]) -> bool:
    """True if every state is a plain value that cannot change: an ``int`` or ``str``, or a
    tuple (a NamedTuple included, as long as it keeps tuple's ``__hash__`` and
    ``__eq__``) of ``int``, ``str``, ``bytes``, ``bool``, ``float`` and ``None`` items.

    Such states can be neither mutated nor hashed inconsistently, so the stability check
    can skip the lookups (the common case, checked at C speed with ``map``).
    """
    kinds = set(map(type, states))
    if kinds <= {int, str}:
        return True
    if float in kinds:
        _check_no_nan([x for x in states if type(x) is float])
        if kinds <= {int, str, float}:
            return True
    for kind in kinds:
        if not issubclass(kind, tuple) or kind.__hash__ is not tuple.__hash__ \
                or kind.__eq__ is not tuple.__eq__:
            return False
    items = list(chain.from_iterable(cast("Sequence[tuple[object, ...]]", states)))
    item_kinds = set(map(type, items))
    if float in item_kinds:
        _check_no_nan([x for x in items if type(x) is float])
    return item_kinds <= _PLAIN_ITEMS


def _check_no_nan(floats: Sequence[object]) -> None:
    """No NaN in a state: a fresh ``float('nan')`` is equal to nothing, so every state
    holding one is new and enumeration never ends."""
    bad = next((x for x in floats if x != x), None)
    if bad is not None:
        raise InvalidGameError(
            "a state holds float('nan'), which is not equal to itself: every state built with "
            "a fresh NaN is a new state and enumeration would never end; use None or a "
            "string for a missing number")


def _copy_of(x: object) -> object | None:
    """A fresh copy of ``x`` (pickled and unpickled, else deep-copied), or None."""
    try:
        copied: object = pickle.loads(pickle.dumps(x))
        return copied
    except Exception:
        try:
            return copy.deepcopy(x)
        except Exception:
            return None


def check_copy(x: object, what: str) -> None:
    """``x`` (a ``what``: state or action) must equal a fresh copy of itself, with the same hash.

    Objects with identity semantics (``__eq__`` and ``__hash__`` both inherited from
    ``object``) are exempt: a game may use such objects as states or actions as long as it
    returns the same objects each time.
    """
    kind = type(x)
    if kind.__eq__ is object.__eq__ and kind.__hash__ is object.__hash__:
        return
    y = _copy_of(x)
    if y is None or y is x:
        return
    try:
        same = bool(y == x) and hash(y) == hash(x)
    except Exception as exc:
        raise InvalidGameError(
            f"comparing the {what} {show(x)} with a copy of itself raised "
            f"{type(exc).__name__}: {shorten(str(exc))}; {what}s must compare with == without "
            "raising (e.g. hold tuples, not numpy arrays)") from exc
    if same:
        return
    if kind.__eq__ is object.__eq__:
        why = (f"its class {kind.__name__} defines __hash__ but not __eq__, so a copy, or the "
               f"same {what} built again, is a different {what}; define __eq__ (e.g. a frozen "
               "dataclass or a NamedTuple)")
    else:
        why = (f"does it hold a float('nan') (never equal to itself) or compare by identity? "
               f"{what}s must be values: tuples, NamedTuples or frozen dataclasses of numbers "
               "and strings")
    raise InvalidGameError(f"the {what} {show(x)} is not equal to a copy of itself: {why}")


# --- limits ------------------------------------------------------------------------------------

def state_limit(max_states: int, nxt: object) -> StateLimitError:
    """The error for one state too many, with a hint when states compare by identity."""
    hint = "raise max_states or shrink the game"
    kind = type(nxt)
    if kind.__eq__ is object.__eq__:
        hint = (f"states of class {kind.__name__} compare by identity, so a state built again "
                "is a new state: give the class __eq__ and __hash__ (a frozen dataclass or a "
                "NamedTuple); else " + hint)
    return StateLimitError(
        f"more than max_states={max_states} reachable states ({hint}: pass max_states=N to "
        f"tbsg.solve, tbsg.evaluate or tbsg.best_response, or --max-states N to the tbsg command; "
        f"each state takes about 300 to 500 bytes)")


def size_limit(max_actions: int, max_outcomes: int) -> StateLimitError:
    """The error for a game past the numbers of actions or outcomes it was held to."""
    return StateLimitError(f"more than {max_actions} actions or {max_outcomes} outcomes (the sizes "
                           "recorded for this game)")
