"""Compilation: enumerate a game's reachable states into a compact indexed graph.

Breadth-first search from ``game.initial`` visits every state reachable under *any*
actions and numbers the states 0, 1, ... in visiting order. The result stores the game
in compressed-sparse-row form: the actions of state ``i`` are ``act_ptr[i]:act_ptr[i+1]``,
the outcomes of action ``k`` are ``out_ptr[k]:out_ptr[k+1]``, each outcome being a
probability and a successor *state index*. Outcomes that end play are folded into a
per-action constant ``act_const[k] = sum p(t) r(t)`` (expected terminal payoff) and
``act_stop[k] = sum p(t)`` (probability of ending now), so the Bellman operator reads

.. math:: Q(k) = c_k + \\sum_{j} p_{kj} v(j), \\qquad v(i) = \\operatorname{opt}_k Q(k).

Validation happens here, once: every probability exact (``int``/``Fraction``),
non-negative and summing to exactly 1 per action; players 0 or 1; at least one action;
hashable states whose hashes do not drift; payoffs in [0, 1]. Zero-probability outcomes
are dropped (the state they name is not enumerated through them) and repeated
successors of one action are merged by adding their probabilities. Errors raised inside
user code are re-raised as :class:`~tbsg.errors.InvalidGameError` naming the state and
action.

Cost: one pass over states, actions and outcomes in Python, doing per outcome little
more than one dictionary probe (``setdefault`` both finds a known state and numbers a
new one). Checks that need not be made outcome by outcome are batched: the probability
sums are checked with integer arrays over a common denominator (:func:`_check_sums`),
and the stability of hashes by looking the new states up again, each time the state
table doubles and once at the end; states that are plain values (ints, strings,
tuples of them) cannot drift and skip the look-ups.
"""

from __future__ import annotations

import bisect
import math
from array import array
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import chain
from typing import Generic, NoReturn, TypeVar, cast, overload

import numpy as np
import numpy.typing as npt

from tbsg._gc import paused
from tbsg.errors import InvalidGameError, StateLimitError, TbsgError, exactness_error
from tbsg.model import Game, Terminal

__all__ = ["DEFAULT_MAX_STATES", "CompiledGame", "compile_game"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)
R = TypeVar("R")

DEFAULT_MAX_STATES = 20_000_000
"""Default bound on the number of reachable states before compilation stops."""

IntArray = npt.NDArray[np.int64]
_ZERO = Fraction(0)
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class CompiledGame(Generic[S, A]):
    """A game as arrays. Solvers work on this, never on the user's object.

    Attributes
    ----------
    states : list
        State objects, indexed by state number; ``states[0]`` is the initial state.
    index : dict
        Inverse of ``states``.
    player : ndarray of int8
        Owner of each state.
    act_ptr : ndarray of int64, length ``n_states + 1``
        Actions of state ``i`` are the flat action numbers ``act_ptr[i]:act_ptr[i+1]``.
    act_labels : list
        The user's action object of each flat action number.
    act_state : ndarray of int64
        State each flat action belongs to.
    act_const, act_stop : sequence of Fraction
        Expected terminal payoff, and probability of ending play, of each action.
    out_ptr : ndarray of int64, length ``n_actions + 1``
        Outcomes of action ``k`` are ``out_ptr[k]:out_ptr[k+1]``.
    out_target : ndarray of int64
        Successor state of each outcome.
    out_prob : sequence of Fraction
        Probability of each outcome.
    rationals : list of Fraction, optional
        The distinct probabilities and terminal constants, each once (set by
        :func:`compile_game`; games derived by other modules may leave it ``None``).
    act_code, stop_code, out_code : ndarray of int64, optional
        Index into ``rationals`` of each ``act_const``, ``act_stop`` and ``out_prob``
        (with ``rationals``), so per-value work (conversion to float or to the exact
        backend, tests for zero) is done once per distinct value.
    """

    states: list[S]
    index: dict[S, int]
    player: npt.NDArray[np.int8]
    act_ptr: IntArray
    act_labels: list[A]
    act_state: IntArray
    act_const: Sequence[Fraction]
    act_stop: Sequence[Fraction]
    out_ptr: IntArray
    out_target: IntArray
    out_prob: Sequence[Fraction]
    rationals: list[Fraction] | None = None
    act_code: IntArray | None = None
    stop_code: IntArray | None = None
    out_code: IntArray | None = None

    @property
    def n_states(self) -> int:
        """Number of reachable non-terminal states."""
        return len(self.states)

    @property
    def n_actions(self) -> int:
        """Number of (state, action) pairs."""
        return len(self.act_labels)

    def actions_of(self, i: int) -> range:
        """Flat action numbers of state ``i``."""
        return range(int(self.act_ptr[i]), int(self.act_ptr[i + 1]))

    @cached_property
    def _float_arrays(self) -> tuple[FloatArray, FloatArray]:
        if self.rationals is not None and self.act_code is not None and self.out_code is not None:
            table = np.array([float(x) for x in self.rationals], dtype=np.float64)
            return table[self.act_code], table[self.out_code]
        memo: dict[int, float] = {}

        def f(x: Fraction) -> float:
            y = memo.get(id(x))
            if y is None:
                y = memo[id(x)] = float(x)
            return y

        return (
            np.array([f(c) for c in self.act_const], dtype=np.float64),
            np.array([f(p) for p in self.out_prob], dtype=np.float64),
        )

    @cached_property
    def _stop_mask(self) -> npt.NDArray[np.bool_]:
        if self.rationals is not None and self.stop_code is not None:
            nonzero = np.array([x != 0 for x in self.rationals], dtype=bool)
            return nonzero[self.stop_code]
        return np.fromiter((x != 0 for x in self.act_stop), dtype=bool, count=self.n_actions)

    @cached_property
    def _out_action(self) -> IntArray:
        return np.repeat(np.arange(self.n_actions, dtype=np.int64), np.diff(self.out_ptr))

    @cached_property
    def _out_source(self) -> IntArray:
        return self.act_state[self._out_action]

    def out_action(self) -> IntArray:
        """Flat action number of each outcome (cached; do not modify)."""
        return self._out_action

    def out_source(self) -> IntArray:
        """State each outcome leaves from (cached; do not modify)."""
        return self._out_source

    def stop_mask(self) -> npt.NDArray[np.bool_]:
        """Actions that end play with positive probability (``act_stop != 0``; cached)."""
        return self._stop_mask

    def float_arrays(self) -> tuple[FloatArray, FloatArray]:
        """``(act_const, out_prob)`` as float64 arrays (correctly rounded; cached)."""
        return self._float_arrays

    def action_index(self, i: int, action: object) -> int | None:
        """Flat action number of ``action`` at state ``i``, or None if it is not legal."""
        for k in self.actions_of(i):
            if self.act_labels[k] == action:
                return k
        return None


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
    return f"at state {s!r}"


def _at_action(s: object, a: object) -> str:
    return f"at state {s!r}, action {a!r}"


class _Rationals:
    """Interning table: one shared ``Fraction`` and one integer code per distinct value.

    During enumeration it holds only probabilities (and 0), so the lowest common
    denominator of its values is a common denominator of every action's probabilities.
    """

    __slots__ = ("by_id", "by_value", "values")

    def __init__(self) -> None:
        # id of a validated *positive* probability object -> (the object, its code); the
        # object is kept so its id is not reused
        self.by_id: dict[int, tuple[object, int]] = {}
        self.by_value: dict[tuple[int, int], tuple[Fraction, int]] = {}
        self.values: list[Fraction] = []

    def of_value(self, x: Fraction) -> tuple[Fraction, int]:
        """Interned copy of ``x`` and its code."""
        key = (x.numerator, x.denominator)
        hit = self.by_value.get(key)
        if hit is None:
            hit = self.by_value[key] = (x, len(self.values))
            self.values.append(x)
        return hit

    def probability(self, p: object, nxt: object, s: object, a: object) -> int:
        """Code of the probability ``p`` of outcome ``nxt`` of action ``a`` at state ``s``.

        Returns -1 for a zero probability (the outcome is dropped); raises for a negative
        or inexact one. The slow path of the lookup by identity: first sight of ``p``.
        """
        if isinstance(p, (int, Fraction)) and not isinstance(p, bool):
            pf = p if type(p) is Fraction else Fraction(p)
        else:
            raise exactness_error(f"probability of outcome {nxt!r} {_at_action(s, a)}", p)
        if pf <= 0:
            if pf < 0:
                raise InvalidGameError(
                    f"negative probability {pf} for outcome {nxt!r} {_at_action(s, a)}")
            return -1
        code = self.of_value(pf)[1]
        if len(self.by_id) > 4096:
            self.by_id.clear()
        self.by_id[id(p)] = (p, code)
        return code


class _Decoded(Sequence[Fraction]):
    """Read-only sequence of the table values named by a sequence of codes (no copies)."""

    __slots__ = ("_codes", "_values")

    def __init__(self, values: list[Fraction], codes: Sequence[int]) -> None:
        self._values = values
        self._codes = codes

    def __len__(self) -> int:
        return len(self._codes)

    @overload
    def __getitem__(self, k: int) -> Fraction: ...

    @overload
    def __getitem__(self, k: slice) -> list[Fraction]: ...

    def __getitem__(self, k: int | slice) -> Fraction | list[Fraction]:
        if isinstance(k, slice):
            return [self._values[c] for c in self._codes[k]]
        return self._values[self._codes[k]]

    def __iter__(self) -> Iterator[Fraction]:
        return map(self._values.__getitem__, self._codes)

    def __repr__(self) -> str:
        return f"_Decoded({list(self)!r})"


def compile_game(game: Game[S, A], *, max_states: int = DEFAULT_MAX_STATES) -> CompiledGame[S, A]:
    """Enumerate the states reachable from ``game.initial`` and validate the game.

    Parameters
    ----------
    game : Game
        The game to compile.
    max_states : int
        Stop with :class:`~tbsg.errors.StateLimitError` once more states than this are
        reached.

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
    with paused():  # millions of objects that all live on: collector passes are overhead
        return _compile(game, max_states)


def _check_stable(states: Sequence[object], index_get: Callable[[object], int | None], start: int,
                  when: str) -> bool:
    """Every state from ``start`` on must be found again at its own number.

    A state whose hash or equality changes after it was returned (a mutable object, a
    hash of ``id`` or of a counter) would be enumerated again and again. Run on the new
    states each time the table doubles and once at the end, at C speed (``map``).
    Returns True if those states are plain values (:func:`_plain_values`), which no
    later check needs to look at again.
    """
    part = states[start:]
    if _plain_values(part):
        return True  # hashes and equality of such values are fixed: nothing can drift
    found = list(map(index_get, part))
    if found == list(range(start, start + len(found))):
        return False
    bad = next(i for i, k in enumerate(found, start) if k != i)
    raise InvalidGameError(
        f"state {states[bad]!r} cannot be found again in the state table (checked {when}): its hash "
        "or equality changed (or it is not equal to itself); states must be immutable "
        "values with consistent __hash__ and __eq__, e.g. tuples or NamedTuples")


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
    term_pay: list[Fraction]  # payoff to player 0


def _ints(column: array[int]) -> IntArray:
    """An ``array("q")`` seen as an int64 array, without a copy.

    While the view lives the column cannot grow: callers must not keep it.
    """
    return np.frombuffer(column, dtype=np.int64)


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
    used = np.flatnonzero(np.bincount(codes, minlength=len(values))
                          + np.bincount(term_codes, minlength=len(values))).tolist()
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
    raise InvalidGameError(f"probabilities sum to {total}, not 1, "
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


def _terminal_codes(acts: _Actions, table: _Rationals, n_actions: int
                    ) -> tuple[IntArray, IntArray]:
    """Codes of ``act_const`` (expected terminal payoff) and ``act_stop`` per action."""
    zero_code = table.of_value(_ZERO)[1]
    act_code = np.full(n_actions, zero_code, dtype=np.int64)
    stop_code = np.full(n_actions, zero_code, dtype=np.int64)
    values = table.values
    term_act, term_code, term_pay = acts.term_act, acts.term_code, acts.term_pay
    memo: dict[tuple[int, int], tuple[int, int]] = {}  # (code, id(payoff)) of a lone outcome
    t, n_t = 0, len(term_act)
    while t < n_t:
        k = term_act[t]
        if t + 1 == n_t or term_act[t + 1] != k:  # one terminal outcome: memoised
            key = (term_code[t], id(term_pay[t]))
            hit = memo.get(key)
            if hit is None:
                q = values[term_code[t]]
                hit = memo[key] = (table.of_value(q * term_pay[t])[1], term_code[t])
            act_code[k], stop_code[k] = hit
            t += 1
            continue
        const, stop = _ZERO, _ZERO
        while t < n_t and term_act[t] == k:
            q = values[term_code[t]]
            const += q * term_pay[t]
            stop += q
            t += 1
        act_code[k] = table.of_value(const)[1]
        stop_code[k] = table.of_value(stop)[1]
    return act_code, stop_code


_PLAIN_ITEMS = frozenset({int, str, bytes, bool, float, type(None)})


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
    for kind in kinds:
        if not issubclass(kind, tuple) or kind.__hash__ is not tuple.__hash__ \
                or kind.__eq__ is not tuple.__eq__:
            return False
    return set(map(type, chain.from_iterable(cast("Sequence[tuple[object, ...]]", states)))) \
        <= _PLAIN_ITEMS


def _compile(game: Game[S, A], max_states: int) -> CompiledGame[S, A]:
    """Body of :func:`compile_game` (run with the garbage collector paused)."""
    initial = _call("game.initial", "(reading the initial state)", lambda: game.initial)
    if isinstance(initial, Terminal):
        raise InvalidGameError("game.initial is a Terminal; the game must start in a state")
    _check_hashable(initial, "the initial state")

    states: list[S] = [initial]
    index: dict[S, int] = {initial: 0}
    # integer columns grow as array.array: appending costs what a list append costs, they
    # take 8 bytes per entry instead of a pointer plus an int object, and numpy reads them
    # without a copy (np.frombuffer)
    players = array("b")
    act_ptr = array("q", [0])
    act_labels: list[A] = []
    out_ptr = array("q", [0])
    out_target = array("q")
    out_code = array("q")
    term_act = array("q")
    term_code = array("q")
    term_pay: list[Fraction] = []
    acts_lists = _Actions(cast("list[object]", states), act_ptr, cast("list[object]", act_labels),
                          out_ptr, out_code, term_act, term_code, term_pay)

    table = _Rationals()
    table.of_value(_ZERO)
    values = table.values
    by_id_get = table.by_id.get
    player_fn = game.player
    actions_fn = game.actions
    outcomes_fn = game.outcomes
    terminal = Terminal
    index_get = cast("Callable[[object], int | None]", index.get)
    index_setdefault = cast("Callable[[object, int], int]", index.setdefault)
    index_any = cast("dict[object, int]", index)
    n_states = 1
    terminals: list[Terminal] = []  # distinct terminals met, numbered -1, -2, ... in the index
    tuple_t, list_t, int_t = tuple, list, int
    n_out = 0
    # identity cache: the last two (positive, validated) probability objects and codes
    last_p: object = object()
    prev_p: object = last_p
    last_code = prev_code = 0
    last_acts: object = None  # the last two action tuples checked (recognised by identity)
    prev_acts: object = None
    checked, checked_acts, next_check = 0, 0, 1024
    plain = True  # every state checked so far is a plain value
    i = 0
    try:
        while i < len(states):
            s = states[i]
            try:
                who = player_fn(s)
            except Exception as exc:
                _user_error("game.player()", _at(s), exc)
            if type(who) is not int_t or (who != 0 and who != 1):
                if isinstance(who, bool) or who not in (0, 1) or not isinstance(who, (int, np.integer)):
                    raise InvalidGameError(f"game.player() returned {who!r} {_at(s)}; expected 0 or 1")
                who = int(who)
            players.append(who)
            try:
                acts = actions_fn(s)
            except Exception as exc:
                _user_error("game.actions()", _at(s), exc)
            acts_seq: Sequence[A]
            if acts is last_acts or acts is prev_acts:  # a tuple object checked already
                acts_seq = acts
            else:
                if type(acts) is tuple_t or type(acts) is list_t:
                    acts_seq = acts
                else:
                    acts_seq = tuple(acts) if not isinstance(acts, Sequence) else acts
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
                for item in outs:
                    try:
                        if type(item) is not tuple_t:
                            raise ValueError
                        p, nxt = item
                    except ValueError:
                        raise InvalidGameError(
                            f"game.outcomes() yielded {item!r} {_at_action(s, a)}; "
                            "expected (probability, successor) pairs") from None
                    if p is last_p:  # games reuse a few probability objects: check identity first
                        code = last_code
                    elif p is prev_p:
                        code = prev_code
                    else:
                        hit = by_id_get(id(p))
                        if hit is not None and hit[0] is p:
                            code = hit[1]
                        else:
                            code = table.probability(p, nxt, s, a)
                            if code < 0:
                                continue  # zero probability: the successor is not enumerated
                        prev_p, prev_code = last_p, last_code
                        last_p, last_code = p, code
                    try:
                        # one hash and one probe both to look up and to number a new state
                        j = index_setdefault(nxt, n_states)
                    except TypeError:
                        _check_hashable(nxt, f"successor {nxt!r} {_at_action(s, a)}")
                        raise
                    if j >= n_states:  # a new state, or a terminal met for the first time
                        if isinstance(nxt, terminal):
                            # terminals stay in the index under negative numbers until the end
                            j = index_any[nxt] = -1 - len(terminals)
                            terminals.append(nxt)
                        else:
                            if j >= max_states:
                                raise StateLimitError(
                                    f"state limit reached: {j} states enumerated and more remain "
                                    f"(max_states={max_states}; raise it or shrink the game)")
                            states.append(nxt)
                            n_states += 1
                            if j >= next_check:  # states whose hash drifts would grow the table forever
                                plain = _check_stable(states, index_get, checked,
                                                      f"while enumerating {_at_action(s, a)}") and plain
                                _check_sums(acts_lists, values, checked_acts, len(act_labels))
                                checked, checked_acts = j + 1, len(act_labels)
                                next_check *= 2
                            out_target.append(j)
                            out_code.append(code)
                            n_out += 1
                            continue
                    if j < 0:  # play ends
                        term_act.append(len(act_labels))
                        term_code.append(code)
                        term_pay.append(terminals[-1 - j].payoff)
                        continue
                    if n_out > first:
                        # a repeated successor of this action: merge (rare, so a linear scan)
                        if out_target[n_out - 1] == j:
                            dup_at = n_out - 1
                        elif n_out - first > 1 and j in (seg := out_target[first : n_out - 1]):
                            dup_at = first + seg.index(j)
                        else:
                            dup_at = -1
                        if dup_at >= 0:
                            out_code[dup_at] = table.of_value(values[out_code[dup_at]] + values[code])[1]
                            continue
                    out_target.append(j)
                    out_code.append(code)
                    n_out += 1
                act_labels.append(a)
                out_ptr.append(n_out)
            act_ptr.append(len(act_labels))
            i += 1
    except Exception as exc:
        # a wrong sum met earlier is the first error (the batched check has not seen it
        # yet): report it, not what followed from it (e.g. the state limit)
        try:
            _check_sums(acts_lists, values, checked_acts, len(act_labels))
        except InvalidGameError as earlier:
            raise earlier from exc
        raise

    for t in terminals:
        del index_any[t]
    # user code may mutate states it returned earlier, unless they are plain values
    _check_stable(states, index_get, checked if plain else 0, "after enumeration")
    n_actions = len(act_labels)
    _check_sums(acts_lists, values, checked_acts, n_actions)
    act_code, stop_code = _terminal_codes(acts_lists, table, n_actions)
    act_ptr_np = _ints(act_ptr)
    return CompiledGame(
        states=states,
        index=index,
        player=np.frombuffer(players, dtype=np.int8),
        act_ptr=act_ptr_np,
        act_labels=act_labels,
        act_state=np.repeat(np.arange(len(states), dtype=np.int64), np.diff(act_ptr_np)),
        act_const=_Decoded(values, act_code.tolist()),
        act_stop=_Decoded(values, stop_code.tolist()),
        out_ptr=_ints(out_ptr),
        out_target=_ints(out_target),
        out_prob=_Decoded(values, out_code),
        rationals=values,
        act_code=act_code,
        stop_code=stop_code,
        out_code=_ints(out_code),
    )


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
        except TypeError:
            _check_hashable(a, f"action {a!r} {_at(s)}")
            raise
        if dup:
            raise InvalidGameError(f"action {a!r} is listed twice {_at(s)}")


def _check_hashable(x: object, what: str) -> None:
    try:
        hash(x)
    except TypeError as exc:
        raise InvalidGameError(f"{what} is not hashable ({exc}); use tuples, not lists") from exc
