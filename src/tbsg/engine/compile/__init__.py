"""Compilation: enumerate a game's reachable states into a :class:`CompiledGame`.

Breadth-first search from ``game.initial`` visits every state reachable under *any*
actions and numbers the states 0, 1, ... in visiting order; the result is the array form
of :mod:`tbsg.engine.compiled` (actions and outcomes in compressed-sparse-row form,
terminal outcomes folded into ``c_k`` and ``s_k``, every rational interned).

Validation happens here, once, and names the state and action at fault: the game
implements the protocol; every probability is exact (:func:`tbsg.model.protocol.exact`, which also
turns numpy integers into Python ints), non-negative and the probabilities of an action
sum to exactly 1; players are 0 or 1; every state has at least one action, none listed
twice; states and actions are hashable, their hashes do not drift, comparing them does
not raise, and they are equal to a fresh copy of themselves (a state that equals nothing,
e.g. one whose class defines ``__hash__`` but not ``__eq__``, or that holds a fresh
``float('nan')``, would make every returned state new and enumeration endless; an action
that equals nothing would make a solution's own strategy unrecognisable); payoffs lie
in [0, 1]. Zero-probability outcomes are dropped (the state they name is not enumerated
through them, but must still be hashable) and repeated successors of one action are
merged by adding their probabilities. Errors raised inside user code are re-raised as
:class:`~tbsg.errors.InvalidGameError` naming the state and action.

Cost: one pass over states, actions and outcomes in Python, doing per outcome little
more than one dictionary probe (``setdefault`` both finds a known state and numbers a
new one). Checks that need not be made outcome by outcome are batched: the probability
sums are checked with integer arrays over a common denominator (:func:`_check_sums`),
and the stability of states by looking the new ones up again and comparing a sample with
copies of themselves, each time the state table doubles and once at the end; states that
are plain values (ints, strings, tuples of them) cannot drift and skip the look-ups.
"""

from __future__ import annotations

import bisect
import copy
import math
import operator
import pickle
import sys
from array import array
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import chain
from typing import Any, Literal, NoReturn, TypeVar, cast

import numpy as np
import numpy.typing as npt

from tbsg._util.gc import paused
from tbsg.engine.compile.arrays import check_every_state, check_rows, compile_arrays, offers_arrays, refusal
from tbsg.engine.compiled import CompiledGame, Interner
from tbsg.engine.compiled import IndexArray as Index
from tbsg.errors import (
    ExactnessError,
    InvalidArgumentError,
    InvalidGameError,
    StateLimitError,
    TbsgError,
    shorten,
)
from tbsg.errors import show as _show
from tbsg.model.protocol import Game, Terminal, exact

__all__ = ["DEFAULT_MAX_STATES", "REPORT_EVERY", "check_max_states", "compile_game"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)
R = TypeVar("R")

DEFAULT_MAX_STATES = 5_000_000
"""Default bound on the number of reachable states before compilation stops.

Memory per state, measured on Pig to 100 (960,894 states, 1.9M actions, 6.3M outcomes:
about 2 actions and 6.6 outcomes per state):

* the state object and its entries in ``states`` and ``index``: about 125 bytes for a
  tuple of four small ints (72 for the tuple, 8 for the list, about 45 for the dict);
* per action, 8 bytes for its label and 4 bytes in each of ``act_ptr``, ``act_state``,
  ``out_ptr``, ``act_code`` and ``stop_code`` (int32 while the numbers fit): 28 bytes;
* per outcome, 4 bytes in each of ``out_target`` and ``out_code``: 8 bytes.

That is about 270 bytes per compiled state (Pig to 100: 260 MB). Solving adds its
working arrays: the float path peaks near 480 bytes per state in all (Pig to 100:
about 530 MB resident, the interpreter's 70 MB included); the exact path adds a rational
per state, whose size grows with its digits. The default keeps a runaway game's
compilation near 1.5 GB; pass ``max_states`` to go further.
"""

REPORT_EVERY = 1 << 16
"""New states between two calls of ``compile_game``'s ``progress`` callback."""

IntArray = npt.NDArray[np.int64]
_ZERO = Fraction(0)
_PROTOCOL = ("initial", "player", "actions", "outcomes")
_SAMPLE = 8  # states (and their actions) compared with copies of themselves per check


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
            f"got {_show(max_states)}")
    return max_states


def _call(what: str, where: str, fn: Callable[[], R]) -> R:
    """Run user code, re-raising its exceptions with the state that caused them."""
    try:
        return fn()
    except Exception as exc:
        _user_error(what, where, exc)


def _user_error(what: str, where: str, exc: Exception) -> NoReturn:
    """Re-raise ``exc`` (raised by user code) with the state and action that caused it."""
    if isinstance(exc, TbsgError):
        # a tbsg error raised while user code ran (e.g. Terminal(2) or Terminal(0.5) built
        # in outcomes()): keep its type (ExactnessError stays a TypeError), add the state
        located: TbsgError | None
        try:
            located = type(exc)(f"{exc} (raised in {what} {where})")
        except TypeError:  # an error class with a different constructor: leave it as is
            located = None
        if located is None:
            raise exc
        raise located from exc
    raise InvalidGameError(f"{what} raised {type(exc).__name__}: {exc} {where}") from exc


def _at(s: object) -> str:
    return f"at state {_show(s)}"


def _at_action(s: object, a: object) -> str:
    return f"at state {_show(s)}, action {_show(a)}"


class _Rationals(Interner):
    """The interning table of an enumeration, with validated probabilities known by identity.

    During enumeration it holds only probabilities (and 0), so the lowest common
    denominator of its values is a common denominator of every action's probabilities.
    """

    __slots__ = ("by_id", "by_parts", "churn", "kept")

    def __init__(self) -> None:
        super().__init__()
        # id of a validated *positive* probability object -> its code; the objects are kept
        # alive in ``kept`` while they are in the table, so no other object can have the
        # same id and a hit needs no identity check
        self.by_id: dict[int, int] = {}
        self.kept: list[object] = []
        self.churn = 0  # times the table was emptied
        # (numerator, denominator) of a validated positive probability given as a
        # canonical Fraction -> its code: a game that builds Fraction(1, 2) afresh in every
        # call is validated once per value, not once per outcome
        self.by_parts: dict[tuple[int, int], int] = {}

    def probability(self, p: object, nxt: object, s: object, a: object) -> int:
        """Code of the probability ``p`` of outcome ``nxt`` of action ``a`` at state ``s``.

        Returns -1 for a zero probability (the outcome is dropped); raises for a negative
        or inexact one. The slow path of the lookups by identity and by value: first
        sight of ``p``.
        """
        try:
            pf = exact(p, "")
        except ExactnessError:  # the message names the outcome: built only when raised
            exact(p, f"probability of outcome {_show(nxt)} {_at_action(s, a)}")
            raise
        if pf <= 0:
            if pf < 0:
                raise InvalidGameError(
                    f"negative probability {_show(pf)} for outcome {_show(nxt)} "
                    f"{_at_action(s, a)}")
            if not isinstance(nxt, Terminal):
                _check_hashable(nxt, f"successor {_show(nxt)} (probability 0) {_at_action(s, a)}")
            return -1
        code = self.code(pf)
        if pf is p:  # a canonical Fraction: known by value from now on
            self.by_parts[pf.numerator, pf.denominator] = code
        self.churn = 0  # a new value: its object must be remembered
        self.remember(p, code)
        return code

    def remember(self, p: object, code: int) -> bool:
        """Know the validated probability object ``p`` by its id from now on.

        A game that builds its probabilities afresh in every call fills the table with
        objects never seen again: once the table has been emptied twice in a row for that
        reason, objects equal to a known value are found by value only (``by_parts``).
        Returns False from then on (until a new value is validated): the caller may stop
        calling.
        """
        if self.churn >= 2:
            return False
        if len(self.by_id) > 4096:
            self.by_id.clear()
            self.kept.clear()
            self.churn += 1
        self.by_id[id(p)] = code
        self.kept.append(p)
        return True


def compile_game(game: Game[S, A], *, max_states: int = DEFAULT_MAX_STATES,
                 max_actions: int | None = None, max_outcomes: int | None = None,
                 progress: Callable[[int, int], None] | None = None,
                 arrays: bool | None = None,
                 check_arrays: Literal["sample", "all"] = "sample") -> CompiledGame[S, A]:
    """Enumerate the states reachable from ``game.initial`` and validate the game.

    Parameters
    ----------
    game : Game
        The game to compile.
    max_states : int
        Stop with :class:`~tbsg.errors.StateLimitError` once more states than this are
        reached.
    max_actions, max_outcomes : int, optional
        Likewise for (state, action) pairs and for outcomes leading to states (checked
        after each action): a rebuilt game is held to the sizes a file or a solution
        records, so an edited parameter cannot make it enumerate for minutes.
    progress : callable, optional
        Called as ``progress(states_found, max_states)`` every :data:`REPORT_EVERY` new
        states (a progress bar: a game that will hit the limit says so early).
    arrays : bool, optional
        Enumerate through the game's array form (:mod:`tbsg.model.arrays`,
        :mod:`tbsg.engine.compile.arrays`): ``None`` (default) when the game offers one,
        ``True`` to require it, ``False`` to use the plain protocol alone. Both give the
        same compiled game. An array form that may not belong to the game's rules (reached
        through ``__getattr__``, or below a class that redefines ``player``, ``actions`` or
        ``outcomes``: :func:`tbsg.model.arrays.untrusted_reason`) is not used by ``None`` and is
        an :class:`~tbsg.errors.InvalidArgumentError` with ``True``.
    check_arrays : {"sample", "all"}
        How an array form is compared with the plain protocol, the definition of the
        game. ``"sample"`` (default, what solving uses): the game is compiled through the
        array form and 32 of its states are asked through ``player``, ``actions`` and
        ``outcomes``. ``"all"`` (what :func:`tbsg.verify` and :func:`tbsg.load` use): the
        game is compiled through the plain protocol, and every state's row of the array
        form is compared with it (:func:`tbsg.engine.compile.arrays.check_every_state`);
        the plain compilation is returned. Either way a difference is an
        :class:`~tbsg.errors.InvalidGameError` naming the state and how the two
        descriptions differ; only ``"all"`` finds every one, at the cost of a plain
        compilation.

    Returns
    -------
    CompiledGame

    Notes
    -----
    The loop is the hot path of large games (one pass per state and action), so it does
    as little per outcome as it can: error messages are only formatted when an error is
    raised; probabilities are recognised by object identity after their first
    validation; outcomes that end play are recorded sparsely and folded into per-action
    constants afterwards; and the probability sums are checked for many actions at once
    in integer arithmetic (:func:`_check_sums`) each time the state table doubles and at
    the end, so a game whose probabilities are wrong stops early with the first bad action.
    """
    check_max_states(max_states)
    missing = [name for name in _PROTOCOL if not hasattr(type(game), name) and not hasattr(game, name)]
    if missing:
        raise InvalidArgumentError(
            f"{type(game).__name__} does not implement the tbsg.Game protocol: no "
            f"{', '.join(missing)} (a game needs initial, player(state), actions(state) and "
            "outcomes(state, action) -> [(probability, successor), ...])")
    if check_arrays not in ("sample", "all"):
        raise InvalidArgumentError(f'check_arrays must be "sample" or "all", got {_show(check_arrays)}')
    if arrays:
        why = refusal(game)
        if why is not None:
            raise InvalidArgumentError(f"{why}; compile it with arrays=None or arrays=False (the "
                                       "plain protocol)")
    use_arrays = arrays or (arrays is None and offers_arrays(game))
    most_actions = sys.maxsize if max_actions is None else max_actions
    most_outcomes = sys.maxsize if max_outcomes is None else max_outcomes
    if use_arrays and check_arrays == "all":
        with paused():
            try:
                g = _compile(game, max_states, most_actions, most_outcomes, progress)
            except StateLimitError:
                # the definition outgrows the limits: if the array form keeps within them,
                # the two differ somewhere, and that state is the error to report
                _compare_within(game, max_states, most_actions, most_outcomes)
                raise
            check_every_state(game, g)
        return g
    if use_arrays:
        with paused():
            return compile_arrays(
                game, max_states=max_states, max_actions=most_actions, max_outcomes=most_outcomes,
                progress=progress, report_every=REPORT_EVERY, state_limit=_state_limit,
                size_limit=_size_limit)
    with paused():  # millions of objects that all live on: collector passes are overhead
        return _compile(game, max_states, most_actions, most_outcomes, progress)


def _compare_within(game: object, max_states: int, max_actions: int, max_outcomes: int) -> None:
    """Raise the first difference between the array form and the plain protocol, when
    the plain protocol has just outgrown the limits; return if the array form outgrows
    them too: the plain protocol's error then stands. (An array form that breaks a rule
    of its own raises that error, which names the state.)

    Both enumerate the same states, in the same order, if they agree at every state; so
    an array form that keeps within limits the plain protocol exceeds differs from it at
    one of its own states, found by asking each of them through the plain protocol.
    """
    try:
        g = compile_arrays(game, max_states=max_states, max_actions=max_actions,
                           max_outcomes=max_outcomes, progress=None, report_every=REPORT_EVERY,
                           state_limit=_state_limit, size_limit=_size_limit)
    except StateLimitError:
        return
    check_rows(game, g, range(g.n_states))


def _check_stable(states: Sequence[object], index_get: Callable[[object], int | None], start: int,
                  when: str) -> bool:
    """States from ``start`` on must be found again at their own number, and equal a copy.

    A state whose hash or equality changes after it was returned (a mutable object, a
    hash of ``id`` or of a counter) would be enumerated again and again; so would a state
    that is equal to nothing, not even to a copy of itself. Run on the new states each
    time the table doubles and once at the end: the look-ups at C speed (``map``), the
    copies on a sample (:func:`_check_copy`). Returns True if those states are plain
    values (:func:`_plain_values`), which no later check needs to look at again.
    """
    part = states[start:]
    if _plain_values(part):
        return True  # hashes and equality of such values are fixed: nothing can drift
    found = list(map(index_get, part))
    if found != list(range(start, start + len(found))):
        bad = next(i for i, k in enumerate(found, start) if k != i)
        raise InvalidGameError(
            f"state {_show(states[bad])} cannot be found again in the state table (checked {when}): "
            "its hash or equality changed (or it is not equal to itself); states must be "
            "immutable values with consistent __hash__ and __eq__, e.g. tuples or NamedTuples")
    step = max(len(part) // _SAMPLE, 1)
    for x in part[::step]:
        _check_copy(x, "state")
    return False


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


def _check_copy(x: object, what: str) -> None:
    """``x`` must equal a fresh copy of itself, with the same hash.

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
            f"comparing the {what} {_show(x)} with a copy of itself raised "
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
    raise InvalidGameError(f"the {what} {_show(x)} is not equal to a copy of itself: {why}")


def _check_actions_again(actions_fn: Callable[[Any], object], s: object,
                         acts: Sequence[object]) -> None:
    """A second call of ``actions(s)`` must return equal actions, in the same order.

    Otherwise a solution's strategy (the action objects of the solve) names actions that
    the game, asked again, no longer recognises (e.g. ``Bet(1)`` objects without ``__eq__``,
    rebuilt on every call), and the order, which saved solutions record, may change.
    """
    try:
        again: Sequence[object] = _action_sequence(actions_fn(s), s)
        same = len(again) == len(acts) and all(x == y for x, y in zip(again, acts, strict=True))
    except TbsgError:
        raise
    except Exception as exc:
        _user_error("game.actions()", _at(s), exc)
    if not same:
        raise InvalidGameError(
            f"game.actions() returned {_show(tuple(acts))} and then {_show(tuple(again))} "
            f"{_at(s)}: asked twice about one state it must return equal actions in the same "
            "order (actions without __eq__, rebuilt on each call, are never equal: make them "
            "values, e.g. ints, strings, NamedTuples or frozen dataclasses; return a tuple, "
            "not a set)")


def _action_sequence(acts: object, s: object) -> Sequence[A]:
    """What ``game.actions(s)`` returned, as a sequence, or an error saying what it was."""
    if type(acts) is tuple or type(acts) is list:
        return cast("Sequence[A]", acts)
    if isinstance(acts, (str, bytes)):
        raise InvalidGameError(
            f"game.actions() returned the string {_show(acts)} {_at(s)}; return a tuple of "
            f"actions, e.g. ({_show(acts)},)")
    if isinstance(acts, Sequence):
        return cast("Sequence[A]", acts)
    try:
        return tuple(cast("Iterable[A]", acts))
    except TypeError:
        raise InvalidGameError(
            f"game.actions() returned {_show(acts)} ({type(acts).__name__}) {_at(s)}; "
            "expected a tuple or list of actions") from None


@dataclass
class _Actions:
    """The action and outcome lists being built (CSR, see :class:`CompiledGame`)."""

    states: list[object]
    act_ptr: array[int]
    act_labels: list[object]
    out_ptr: array[int]
    out_code: array[int]
    term_act: array[int]  # outcomes that end play, one entry each: action,
    term_code: array[int]  # probability code,
    term_idx: array[int]  # terminal (number in the list of distinct terminals met)


def _ints(column: array[int]) -> Index:
    """An ``array("i")`` or ``array("q")`` seen as an int32 or int64 array, without a copy.

    While the view lives the column cannot grow: callers must not keep it.
    """
    return np.frombuffer(column, dtype=np.int32 if column.itemsize == 4 else np.int64)


def _narrow(column: array[int]) -> Index:
    """The final array of an ``array("q")`` column of indices: int32 if every entry
    fits (a copy: the column is then freed), else a view of it as int64."""
    wide = _ints(column)
    if len(wide) == 0 or int(wide.max()) < 2**31:
        return wide.astype(np.int32)
    return wide


def _check_sums(acts: _Actions, values: list[Fraction], k0: int, k1: int) -> None:
    """Probabilities of each action ``k0 <= k < k1`` must sum to exactly 1.

    With ``D`` the lowest common denominator of the probabilities used by these actions,
    each action's sum is ``(sum of p D) / D`` with integer numerators ``p D``: one
    vectorised int64 sum per action, when no partial sum can overflow. Games with many
    unrelated denominators (``1/(i+1)`` for every ``i``) make ``D`` huge; they are
    checked action by action instead (:func:`_first_bad_sum`), so the cost stays linear.
    Probabilities of outcomes that end play count too; dropped zero-probability outcomes
    add nothing and merged repeated successors carry the sum of their probabilities.
    """
    if k1 <= k0:
        return
    o0, o1 = acts.out_ptr[k0], acts.out_ptr[k1]
    t0 = bisect.bisect_left(acts.term_act, k0)
    t1 = bisect.bisect_left(acts.term_act, k1)
    codes = _ints(acts.out_code)[o0:o1]
    term_codes = _ints(acts.term_code)[t0:t1]
    seen = np.zeros(len(values), dtype=bool)
    seen[codes] = True  # (bincount would copy the codes to int64)
    seen[term_codes] = True
    used = np.flatnonzero(seen).tolist()
    terms = len(codes) + len(term_codes) + 1
    denom = 1
    for c in used:
        denom = math.lcm(denom, values[c].denominator)
        if denom * terms >= _INT64_SAFE:
            break
    scaled = [values[c].numerator * (denom // values[c].denominator) for c in used]
    if denom * terms >= _INT64_SAFE or max(scaled, default=0) * terms >= _INT64_SAFE:
        bad = _first_bad_sum(acts, values, k0, k1, t0)
    else:
        table = np.zeros(len(values), dtype=np.int64)
        table[used] = scaled
        running = np.zeros(len(codes) + 1, dtype=np.int64)
        np.cumsum(table[codes], out=running[1:])
        ptr = _ints(acts.out_ptr)[k0 : k1 + 1] - o0
        sums = running[ptr[1:]] - running[ptr[:-1]]
        if t1 > t0:
            np.add.at(sums, _ints(acts.term_act)[t0:t1] - k0, table[term_codes])
        wrong = np.flatnonzero(sums != denom)
        bad = None if wrong.size == 0 else (
            k0 + int(wrong[0]), Fraction(int(sums[int(wrong[0])]), denom))
    if bad is None:
        return
    k, total = bad
    i = bisect.bisect_right(acts.act_ptr, k) - 1  # the state owning action k
    raise InvalidGameError(f"probabilities sum to {_show(total)}, not 1, "
                           f"{_at_action(acts.states[i], acts.act_labels[k])}")


_INT64_SAFE = 2**62  # bound on any partial sum of the vectorised check


def _first_bad_sum(acts: _Actions, values: list[Fraction], k0: int, k1: int, t: int
                   ) -> tuple[int, Fraction] | None:
    """First action in ``k0:k1`` whose probabilities do not sum to 1, and their sum.

    Integer arithmetic over each action's own denominators (no gcd per step); ``t`` is
    the first terminal outcome of action ``k0`` or later.
    """
    out_ptr, out_code = acts.out_ptr, acts.out_code
    term_act, term_code = acts.term_act, acts.term_code
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


def _terminal_codes(acts: _Actions, table: _Rationals, n_actions: int, payoffs: list[Fraction]
                    ) -> tuple[Index, Index]:
    """Codes of ``act_const`` (expected terminal payoff) and ``act_stop`` per action.

    ``c_k = sum p_t r_t`` and ``s_k = sum p_t`` over the terminal outcomes of each action,
    in integer arithmetic over one common denominator, one vectorised sum per action; the
    distinct results are interned once each. Games whose denominators are too large for
    int64 fall back to memoised rational sums (:func:`_terminal_sums`).
    """
    zero_code = table.code(_ZERO)
    act_code = np.full(n_actions, zero_code, dtype=np.int32)
    stop_code = np.full(n_actions, zero_code, dtype=np.int32)
    if not len(acts.term_act):
        return act_code, stop_code
    values = table.values
    t_act = _ints(acts.term_act)
    t_code = _ints(acts.term_code)
    t_idx = _ints(acts.term_idx)
    used = np.flatnonzero(np.bincount(t_code, minlength=len(values))).tolist()
    terms = len(t_act) + 1
    dp = 1  # common denominator of the probabilities
    for c in used:
        dp = math.lcm(dp, values[c].denominator)
    dr = 1  # of the payoffs
    for r in payoffs:
        dr = math.lcm(dr, r.denominator)
    if dp * dr * terms >= _INT64_SAFE:
        return _terminal_sums(acts, table, act_code, stop_code, payoffs)
    p_num = np.zeros(len(values), dtype=np.int64)
    p_num[used] = [values[c].numerator * (dp // values[c].denominator) for c in used]
    r_num = np.array([r.numerator * (dr // r.denominator) for r in payoffs], dtype=np.int64)
    starts = np.flatnonzero(np.r_[True, t_act[1:] != t_act[:-1]])
    owner = t_act[starts]
    pn = p_num[t_code]
    stop_n = np.add.reduceat(pn, starts)
    const_n = np.add.reduceat(pn * r_num[t_idx], starts)
    for nums, den, out in ((stop_n, dp, stop_code), (const_n, dp * dr, act_code)):
        distinct, inverse = np.unique(nums, return_inverse=True)
        codes = np.array([table.code(Fraction(int(x), den)) for x in distinct.tolist()], dtype=np.int64)
        out[owner] = codes[inverse.reshape(-1)]
    return act_code, stop_code


def _terminal_sums(acts: _Actions, table: _Rationals, act_code: Index, stop_code: Index,
                   payoffs: list[Fraction]) -> tuple[Index, Index]:
    """:func:`_terminal_codes` in rational arithmetic, memoised by each action's outcomes."""
    values = table.values
    term_act, term_code, term_idx = acts.term_act, acts.term_code, acts.term_idx
    memo: dict[tuple[bytes, bytes], tuple[int, int]] = {}
    t, n_t = 0, len(term_act)
    while t < n_t:
        k = term_act[t]
        t1 = t + 1
        while t1 < n_t and term_act[t1] == k:
            t1 += 1
        key = (term_code[t:t1].tobytes(), term_idx[t:t1].tobytes())
        hit = memo.get(key)
        if hit is None:
            const, stop = _ZERO, _ZERO
            for u in range(t, t1):
                q = values[term_code[u]]
                const += q * payoffs[term_idx[u]]
                stop += q
            hit = memo[key] = (table.code(const), table.code(stop))
        act_code[k], stop_code[k] = hit
        t = t1
    return act_code, stop_code


_FRACTION_PARTS: Callable[[Fraction], tuple[int, int]] = operator.attrgetter(
    *(("_numerator", "_denominator") if hasattr(Fraction(1, 2), "_numerator")
      else ("numerator", "denominator")))
"""``(numerator, denominator)`` of a Fraction at C speed: CPython's Fraction keeps them in
the slots ``_numerator`` and ``_denominator`` (its ``numerator`` property costs a Python
call, about 4 times the slot read; a game building ``Fraction(1, 2)`` afresh in every
call reads both once per outcome); the public properties where those slots are absent."""

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
        _check_no_nan(cast("Sequence[object]", [x for x in states if type(x) is float]))
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


def _compile(game: Game[S, A], max_states: int, max_actions: int, max_outcomes: int,
             progress: Callable[[int, int], None] | None) -> CompiledGame[S, A]:
    """Body of :func:`compile_game` (run with the garbage collector paused)."""
    initial = _call("game.initial", "(reading the initial state)", lambda: game.initial)
    if isinstance(initial, Terminal):
        raise InvalidGameError("game.initial is a Terminal; the game must start in a state")
    _check_hashable(initial, "the initial state")
    _check_copy(initial, "state")
    _check_actions_again(game.actions, initial,
                         _action_sequence(_call("game.actions()", _at(initial),
                                                lambda: game.actions(initial)), initial))

    states: list[S] = [initial]
    index: dict[S, int] = {initial: 0}
    # integer columns grow as array.array: appending costs what a list append costs, they
    # take 8 bytes per entry instead of a pointer plus an int object, and numpy reads them
    # without a copy (np.frombuffer)
    players = array("b")
    act_ptr = array("q", [0])
    act_labels: list[A] = []
    out_ptr = array("q", [0])
    # successor numbers and probability codes: int32 (4 bytes per outcome) suffices, as
    # neither 2**31 states nor 2**31 distinct probabilities fit in memory
    out_target = array("i")
    # per state, the position of its latest entry in out_target: a successor met twice in
    # one action (an entry at or after the action's first) is merged in O(1)
    last_out = array("q", [-1])
    out_code = array("i")
    term_act = array("q")
    term_code = array("i")
    term_idx = array("i")
    acts_lists = _Actions(cast("list[object]", states), act_ptr, cast("list[object]", act_labels),
                          out_ptr, out_code, term_act, term_code, term_idx)

    table = _Rationals()
    values = table.values
    by_id_get = table.by_id.get
    by_parts_get = table.by_parts.get
    fraction_t = Fraction
    fraction_parts = _FRACTION_PARTS
    player_fn = game.player
    actions_fn = game.actions
    outcomes_fn = game.outcomes
    terminal = Terminal
    index_get = cast("Callable[[object], int | None]", index.get)
    index_setdefault = cast("Callable[[object, int], int]", index.setdefault)
    index_any = cast("dict[object, int]", index)
    n_states = 1
    terminals: list[Terminal] = []  # distinct terminals met, numbered -1, -2, ... in the index
    term_payoffs: list[Fraction] = []  # their payoffs, as checked when first met
    # id of a terminal object met -> (the object, its number in terminals)
    term_by_id: dict[int, tuple[Terminal, int]] = {}
    term_by_id_get = term_by_id.get
    tuple_t, list_t, int_t = tuple, list, int
    # bound methods of the columns, looked up once (the loop appends millions of times)
    target_append, code_append = out_target.append, out_code.append
    term_act_append, term_code_append, term_idx_append = \
        term_act.append, term_code.append, term_idx.append
    n_out = 0
    # identity cache: the last two (positive, validated) probability objects and codes
    last_p: object = object()
    prev_p: object = last_p
    last_code = prev_code = 0
    last_acts: object = None  # the last two action tuples checked (recognised by identity)
    prev_acts: object = None
    checked, checked_acts, next_check = 0, 0, 1024
    next_report = REPORT_EVERY if progress is not None else sys.maxsize
    plain = True  # every state checked so far is a plain value
    remembering = True  # probability objects found by value are remembered by id

    def register(nxt: object, s: S, a: A, acts_seq: Sequence[A]) -> int:
        """Number the new state ``nxt`` (a successor of ``a`` at ``s``), with the checks due."""
        nonlocal n_states, next_report, next_check, checked, checked_acts, plain
        j = n_states
        if j >= max_states:
            raise _state_limit(max_states, nxt)
        states.append(cast("S", nxt))
        last_out.append(-1)
        n_states += 1
        if j >= next_report:
            progress(n_states, max_states)  # type: ignore[misc]
            next_report += REPORT_EVERY
        if j >= next_check:  # states whose hash drifts would grow the table forever
            plain = _check_stable(states, index_get, checked,
                                  f"while enumerating {_at_action(s, a)}") and plain
            _check_sums(acts_lists, values, checked_acts, len(act_labels))
            _check_actions_again(actions_fn, s, acts_seq)
            checked, checked_acts = j + 1, len(act_labels)
            next_check *= 2
        return j

    # states numbered below this need none of register()'s checks: the loop numbers them
    quiet_until = min(max_states, next_report, next_check)
    states_append, last_out_append = states.append, last_out.append
    i = 0
    try:
        while i < len(states):
            s = states[i]
            try:
                who = player_fn(s)
            except Exception as exc:
                _user_error("game.player()", _at(s), exc)
            if type(who) is not int_t or (who != 0 and who != 1):
                who = _player_of(who, s)
            players.append(who)
            try:
                acts = actions_fn(s)
            except Exception as exc:
                _user_error("game.actions()", _at(s), exc)
            acts_seq: Sequence[A]
            if acts is last_acts or acts is prev_acts:  # a tuple object checked already
                acts_seq = acts
            else:
                acts_seq = acts if type(acts) is tuple_t or type(acts) is list_t \
                    else _action_sequence(acts, s)
                _check_actions(acts_seq, s)
                if type(acts) is tuple_t:  # immutable: safe to recognise by identity
                    prev_acts, last_acts = last_acts, acts
            for a in acts_seq:
                try:
                    outs = outcomes_fn(s, a)
                    if type(outs) is not list_t:
                        outs = list(outs)
                except Exception as exc:
                    _user_error("game.outcomes()", _at_action(s, a), exc)
                first = n_out
                k_now = len(act_labels)  # number of this action
                for item in outs:
                    try:
                        if type(item) is not tuple_t and not isinstance(item, tuple_t):
                            raise ValueError
                        p, nxt = item
                    except ValueError:
                        raise InvalidGameError(
                            f"game.outcomes() yielded {_show(item)} {_at_action(s, a)}; "
                            "expected (probability, successor) pairs") from None
                    if p is last_p:  # games reuse a few probability objects: check identity first
                        code = last_code
                    elif p is prev_p:
                        code = prev_code
                    else:
                        # an object seen before, else a Fraction seen before by value
                        hit = by_id_get(id(p))
                        if hit is not None:
                            code = hit
                        else:
                            code = by_parts_get(fraction_parts(p), -1) \
                                if type(p) is fraction_t else -1
                            if code >= 0:  # another object of a known value
                                if remembering:
                                    remembering = table.remember(p, code)
                            else:
                                remembering = True
                                code = table.probability(p, nxt, s, a)
                                if code < 0:
                                    continue  # zero probability: the successor is not enumerated
                        prev_p, prev_code = last_p, last_code
                        last_p, last_code = p, code
                    if type(nxt) is terminal:
                        # terminal objects are few and shared (win(0), DRAW): known by
                        # identity, which spares hashing the payoff Fraction
                        t_hit = term_by_id_get(id(nxt))
                        if t_hit is None or t_hit[0] is not nxt:
                            t_hit = _terminal_number(nxt, index_any, terminals, term_payoffs,
                                                     term_by_id, s, a)
                        term_act_append(k_now)
                        term_code_append(code)
                        term_idx_append(t_hit[1])
                        continue
                    try:
                        # one hash and one probe both to look up and to number a new state
                        j = index_setdefault(nxt, n_states)
                    except Exception as exc:
                        _lookup_error(nxt, s, a, exc)
                    if j >= n_states:  # a new state, or a terminal met for the first time
                        if isinstance(nxt, terminal):  # a subclass of Terminal
                            del index_any[nxt]
                            j = -1 - _terminal_number(nxt, index_any, terminals, term_payoffs,
                                                      term_by_id, s, a)[1]
                        else:
                            if j < quiet_until:  # no limit, report or check due: inline
                                states_append(nxt)
                                last_out_append(n_out)
                                n_states += 1
                            else:
                                register(nxt, s, a, acts_seq)
                                last_out[j] = n_out
                                quiet_until = min(max_states, next_report, next_check)
                            target_append(j)
                            code_append(code)
                            n_out += 1
                            continue
                    if j < 0:  # play ends
                        term_act_append(k_now)
                        term_code_append(code)
                        term_idx_append(-1 - j)
                        continue
                    dup_at = last_out[j]
                    if dup_at >= first:
                        # a repeated successor of this action: merge by adding probabilities
                        out_code[dup_at] = table.code(values[out_code[dup_at]] + values[code])
                        continue
                    last_out[j] = n_out
                    target_append(j)
                    code_append(code)
                    n_out += 1
                act_labels.append(a)
                out_ptr.append(n_out)
                if n_out > max_outcomes:
                    raise _size_limit(max_actions, max_outcomes)
            n_acts = len(act_labels)
            act_ptr.append(n_acts)
            if n_acts > max_actions:
                raise _size_limit(max_actions, max_outcomes)
            i += 1
    except Exception as exc:
        # a wrong sum met earlier is the first error (the batched check has not seen it
        # yet): report it, not what followed from it (e.g. the state limit)
        try:
            _check_sums(acts_lists, values, checked_acts, len(act_labels))
        except InvalidGameError as earlier:
            raise earlier from exc
        raise

    for t, r in zip(terminals, term_payoffs, strict=True):
        now = getattr(t, "payoff", None)
        if now is not r and now != r:
            raise InvalidGameError(
                f"terminal {_show(t)} changed its payoff after it was returned (it was {_show(r)}); "
                "terminals must not change: build them with tbsg.Terminal, tbsg.win or tbsg.DRAW")
        del index_any[t]
    # user code may mutate states it returned earlier, unless they are plain values
    _check_stable(states, index_get, checked if plain else 0, "after enumeration")
    n_actions = len(act_labels)
    _check_sums(acts_lists, values, checked_acts, n_actions)
    act_code, stop_code = _terminal_codes(acts_lists, table, n_actions, term_payoffs)
    acts_lists.act_ptr = acts_lists.out_ptr = array("q")  # let go of the columns
    act_ptr_np = _narrow(act_ptr)
    del act_ptr
    out_ptr_np = _narrow(out_ptr)
    del out_ptr
    n_states = len(states)
    return CompiledGame(
        states=states,
        index=index,
        player=np.frombuffer(players, dtype=np.int8),
        act_ptr=act_ptr_np,
        act_labels=act_labels,
        act_state=np.repeat(np.arange(n_states, dtype=np.int32 if n_states < 2**31 else np.int64),
                            np.diff(act_ptr_np)),
        out_ptr=out_ptr_np,
        out_target=_ints(out_target),
        rationals=values,
        act_code=act_code,
        stop_code=stop_code,
        out_code=_ints(out_code),
    )


def _terminal_number(t: Terminal, index: dict[object, int], terminals: list[Terminal],
                     payoffs: list[Fraction], by_id: dict[int, tuple[Terminal, int]], s: object,
                     a: object) -> tuple[Terminal, int]:
    """``(t, number)`` of the terminal ``t`` in ``terminals`` (added if new), remembered by id.

    Terminals equal by value share a number: they stay in the state index under negative
    numbers ``-1 - number`` until the end of enumeration.
    """
    try:
        j = index.setdefault(t, -1 - len(terminals))
    except Exception as exc:
        _lookup_error(t, s, a, exc)
    if j == -1 - len(terminals):
        _check_terminal(t, s, a)
        terminals.append(t)
        payoffs.append(t.payoff)  # as checked: a later change is caught at the end
    if len(by_id) > 4096:  # terminals built afresh in every call: keep the table small
        by_id.clear()
    hit = by_id[id(t)] = (t, -1 - j)  # the object is kept, so its id is not reused
    return hit


def _check_terminal(t: Terminal, s: object, a: object) -> None:
    """A terminal's payoff, checked once per distinct terminal: ``Terminal(...)`` validates
    it, but a subclass or ``object.__setattr__`` can bypass that."""
    p = getattr(t, "payoff", None)
    if type(p) is not Fraction or type(p.numerator) is not int or type(p.denominator) is not int \
            or not 0 <= p <= 1 or exact(p, "terminal payoff") is not p:
        raise InvalidGameError(f"terminal {_show(t)} {_at_action(s, a)} has payoff {_show(p)}; a payoff "
                               "is an exact rational in [0, 1] (build it with tbsg.Terminal)")


def _player_of(who: object, s: object) -> int:
    """What ``game.player(s)`` returned, as 0 or 1 (numpy integers accepted), or an error."""
    if not isinstance(who, bool) and isinstance(who, (int, np.integer)) and int(who) in (0, 1):
        return int(who)
    raise InvalidGameError(f"game.player() returned {_show(who)} {_at(s)}; expected 0 or 1")


def _lookup_error(nxt: object, s: object, a: object, exc: Exception) -> NoReturn:
    """The error for a successor that could not be hashed or compared with the known states."""
    if isinstance(exc, TypeError):
        _check_hashable(nxt, f"successor {_show(nxt)} {_at_action(s, a)}")
    raise InvalidGameError(
        f"looking up the successor {_show(nxt)} {_at_action(s, a)} among the known states raised "
        f"{type(exc).__name__}: {shorten(str(exc))}; states must hash and compare with == "
        "without raising (e.g. no numpy arrays or numpy scalars mixed with Decimals in "
        "states: use tuples of ints, strings and Fractions)") from exc


def _size_limit(max_actions: int, max_outcomes: int) -> StateLimitError:
    return StateLimitError(f"more than {max_actions} actions or {max_outcomes} outcomes (the sizes "
                           "recorded for this game)")


def _state_limit(max_states: int, nxt: object) -> StateLimitError:
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


def _check_actions(acts: Sequence[object], s: object) -> None:
    """At least one action, all hashable, none listed twice."""
    if len(acts) == 0:
        raise InvalidGameError(f"game.actions() returned no actions {_at(s)}; "
                               "every state needs at least one (a chance step has one)")
    seen: set[object] = set()
    for a in acts:
        try:
            dup = a in seen
            seen.add(a)
        except Exception as exc:
            _check_hashable(a, f"action {_show(a)} {_at(s)}")
            raise InvalidGameError(
                f"comparing the actions {_at(s)} raised {type(exc).__name__}: "
                f"{shorten(str(exc))}; actions must hash and compare with == without raising") from exc
        if dup:
            raise InvalidGameError(f"action {_show(a)} is listed twice {_at(s)}")


def _check_hashable(x: object, what: str) -> None:
    try:
        hash(x)
    except TypeError as exc:
        raise InvalidGameError(f"{what} is not hashable ({exc}); use tuples, not lists") from exc
    except Exception as exc:
        raise InvalidGameError(f"hashing {what} raised {type(exc).__name__}: {shorten(str(exc))}") from exc
