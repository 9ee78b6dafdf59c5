"""The plain enumeration: breadth-first search through ``player``, ``actions`` and ``outcomes``.

States are numbered 0, 1, ... in the order they are first met, states taken in number
order (a FIFO breadth-first search from ``game.initial``); each state's actions keep the
order ``actions(s)`` lists them in, and each action's outcomes the order of their first
occurrence in ``outcomes(s, a)``. Zero-probability outcomes are dropped; a successor met
twice by one action is one outcome whose probability is the sum; outcomes that end play
are listed sparsely while enumerating and folded afterwards into each action's expected
terminal payoff ``c_k = sum p_t r_t`` and probability of ending ``s_k = sum p_t`` (one
integer sum per action over a common denominator, :func:`_terminal_codes`). A game with a
``reward`` method is asked it once per action; nonzero rewards are listed sparsely and
added to ``c_k`` at the end (:func:`_fold_rewards`), and kept on their own as well.

Every rule is one of :mod:`tbsg.engine.compile.checks`. Those that need not be checked
outcome by outcome are batched each time the state table doubles and once at the end:
the probability sums (:func:`~tbsg.engine.compile.checks.check_sums`), the stability of
the new states (:func:`~tbsg.engine.compile.checks.check_stable`) and a second call of
``actions`` at the state being expanded; a game whose probabilities are wrong therefore
stops early, with the first bad action.

Cost: one pass over states, actions and outcomes in Python, doing per outcome little
more than one dictionary probe (``setdefault`` both finds a known state and numbers a
new one; the terminals met are in the same dictionary under negative numbers, so one
probe also tells that play ends; the terminal met last is recognised by identity before
that, as a :class:`~tbsg.model.protocol.Terminal` hashes through a Python method).
Sharing the dictionary needs states and terminals never to compare equal: a successor
found under a terminal's number must be a terminal, a new terminal's class must compare
by class and payoff (:func:`~tbsg.engine.compile.checks.plain_terminal`), and once a
state's class has an ``__eq__`` that could say yes to a terminal (not a tuple's, an
int's, a string's, identity or a dataclass's generated one:
:func:`~tbsg.engine.compile.checks.never_terminal`), or some terminal class has its own
``__eq__``, every successor found among the states is checked not to be a terminal (an
``isinstance`` per outcome in such games only). A
successor met twice by one action is found by a stamp per state, the last 8 bits of the
number of the action that last led to it, a match confirmed among the action's own
outcomes. Work is spared where a game repeats itself: a probability is
validated on its first sight and recognised afterwards by object identity (the last two
objects validated, then a table by ``id``), or for a Fraction built afresh in every
call by its numerator and denominator (the last such value by two slot reads, the
others by a table); an action tuple already checked is recognised by identity; error
messages are formatted only when raised. Integer columns grow as unsigned
``array.array`` (4 or 8 bytes an entry instead of a pointer and an int object; an
unsigned array converts an appended int directly, a signed one through the argument
parser), which numpy reads without a copy.
"""

from __future__ import annotations

import operator
import sys
from array import array
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar, cast

import numpy as np

from tbsg.engine.compile.checks import (
    EXACT,
    Columns,
    action_sequence,
    at,
    at_action,
    check_actions,
    check_actions_again,
    check_stable,
    check_sums,
    check_terminal,
    fold_denominators,
    initial_state,
    int_view,
    lookup_error,
    never_terminal,
    not_a_pair,
    odd_terminal,
    odd_terminal_classes,
    plain_terminal,
    player_of,
    probability,
    reward_number,
    size_limit,
    state_equals_terminal,
    state_limit,
    terminal_changed,
    terminal_equals_state,
    user_error,
)
from tbsg.engine.compiled import CompiledGame, Interner
from tbsg.engine.compiled import IndexArray as Index
from tbsg.errors import InvalidGameError
from tbsg.model.protocol import Game, Terminal, player_function, reward_function

__all__ = ["compile_plain"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

_ZERO = Fraction(0)
_FIRST_CHECK = 1024  # states numbered before the first batched checks (then doubling)


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
        pf = probability(p, nxt, s, a, EXACT)
        if pf is None:
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


_NO_PART: Any = object()
"""The parts of the last probability found by value before there is one: equal to no int
(start values of 0/0 would let a Fraction whose slots were set to 0/0 by hand pass)."""

@dataclass
class _Build(Columns):
    """Everything an enumeration builds: the columns the sum check reads, and the rest."""

    index: dict[Any, int]  # state -> number; distinct terminals met, as -1, -2, ..., until the end
    players: bytearray  # (a bytearray appends a small int without the argument parser)
    out_target: array[int]
    # per state, the last 8 bits of the number of the latest action that led to it: a
    # successor met twice in one action is found in O(1) (a match is confirmed in that
    # action's entries of out_target: it may be an action 256 m earlier). A list: its
    # items are read and written by specialised bytecodes, and as cached small ints they
    # cost 8 bytes a state
    stamp: list[int]
    table: _Rationals
    terminals: list[Terminal]  # distinct terminals met, numbered -1, -2, ... in the index
    term_payoffs: list[Fraction]  # their payoffs, as checked when first met
    rew_act: array[int]  # actions paying a nonzero reward, ascending
    rew_val: list[Fraction]  # their rewards (interned at the end: the table holds probabilities)


def _start(initial: object) -> _Build:
    """The empty columns of an enumeration from ``initial`` (state 0)."""
    return _Build(
        # every column is unsigned: an unsigned array converts an int directly, a signed
        # one through the argument parser (a large part of each append). Successor numbers
        # and probability codes are 32-bit (4 bytes per outcome): neither 2**31 states nor
        # 2**31 distinct probabilities fit in memory; the columns are read as signed
        # (int_view), which is the same for every value below 2**31 (2**63)
        states=[initial], act_ptr=array("Q", [0]), act_labels=[], out_ptr=array("Q", [0]),
        out_code=array("I"), term_act=array("Q"), term_code=array("I"), term_idx=array("I"),
        index={initial: 0}, players=bytearray(), out_target=array("I"), stamp=[0],
        table=_Rationals(), terminals=[], term_payoffs=[], rew_act=array("Q"),
        rew_val=[])


class _Due:
    """The state limit, the progress reports and the batched checks, due as states are added.

    The enumeration numbers states below :meth:`quiet_until` inline and hands the others
    to :meth:`add`.
    """

    __slots__ = ("actions_fn", "b", "checked", "checked_acts", "max_states", "next_check",
                 "next_report", "plain", "progress", "report_every")

    def __init__(self, b: _Build, actions_fn: Callable[[Any], object], max_states: int,
                 progress: Callable[[int, int], None] | None, report_every: int) -> None:
        self.b, self.actions_fn, self.max_states = b, actions_fn, max_states
        self.progress, self.report_every = progress, report_every
        self.next_report = report_every if progress is not None else sys.maxsize
        self.next_check = _FIRST_CHECK
        self.checked = 0  # states before this passed the stability check
        self.checked_acts = 0  # actions before this passed the sum check
        self.plain = True  # every state checked so far is a plain value

    def quiet_until(self) -> int:
        """States numbered below this need none of :meth:`add`'s work."""
        return min(self.max_states, self.next_report, self.next_check)

    def add(self, nxt: object, j: int, stamp: int, s: object, a: object, acts: Sequence[object]) -> None:
        """Number the new state ``nxt`` ``j``, a successor of ``a`` at ``s`` (stamped
        ``stamp``), with the limit, report and checks due."""
        if j >= self.max_states:
            raise state_limit(self.max_states, nxt)
        b = self.b
        b.states.append(nxt)
        b.stamp.append(stamp)
        if j >= self.next_report:
            self.progress(j + 1, self.max_states)  # type: ignore[misc]
            self.next_report += self.report_every
        if j >= self.next_check:  # states whose hash drifts would grow the table forever
            self.plain = check_stable(b.states, b.index.get, self.checked,
                                      f"while enumerating {at_action(s, a)}") and self.plain
            check_sums(b, b.table.values, self.checked_acts, len(b.act_labels))
            check_actions_again(self.actions_fn, s, acts)
            self.checked, self.checked_acts = j + 1, len(b.act_labels)
            self.next_check *= 2


def compile_plain(game: Game[S, A], max_states: int, max_actions: int, max_outcomes: int,
                  progress: Callable[[int, int], None] | None, report_every: int) -> CompiledGame[S, A]:
    """Enumerate ``game`` through the plain protocol (see the module docstring).

    Called by :func:`tbsg.engine.compile.compile_game`, which has validated the
    arguments; ``progress`` is called every ``report_every`` new states.
    """
    b = _start(initial_state(game))
    due = _Due(b, game.actions, max_states, progress, report_every)
    try:
        _enumerate(game, b, due, max_actions, max_outcomes)
    except Exception as exc:
        # a wrong sum met earlier is the first error (the batched check has not seen it
        # yet): report it, not what followed from it (e.g. the state limit)
        try:
            check_sums(b, b.table.values, due.checked_acts, len(b.act_labels))
        except InvalidGameError as earlier:
            raise earlier from exc
        raise
    return cast("CompiledGame[S, A]", _finish(b, due))


def _enumerate(  # noqa: C901, PLR0912, PLR0915  hot loop: a split costs a call per step (docstring)
        game: Game[Any, Any], b: _Build, due: _Due, max_actions: int, max_outcomes: int) -> None:
    """The breadth-first loop over states, actions and outcomes, filling ``b``.

    One function on purpose (the ``noqa``): it runs once per state, action and outcome,
    millions of times on a large game, and keeps everything it touches in local
    variables. Splitting the state, action or outcome step into functions would add a
    call per step, passing about twenty locals (the columns, the identity caches, the
    counters) in and out or turning them into attribute reads: a cost proportional to
    the size of the game on the library's hottest path.
    """
    states, index, stamp, table = b.states, b.index, b.stamp, b.table
    values, players, act_labels = table.values, b.players, b.act_labels
    act_ptr, out_ptr, out_code, out_target = b.act_ptr, b.out_ptr, b.out_code, b.out_target
    by_id_get, by_parts_get = table.by_id.get, table.by_parts.get
    fraction_t, fraction_parts, terminal = Fraction, _FRACTION_PARTS, Terminal
    player_fn, actions_fn, outcomes_fn = player_function(game), game.actions, game.outcomes
    reward_fn = reward_function(game)  # None for a game without rewards: one test per action
    rew_act_append, rew_val_append = b.rew_act.append, b.rew_val.append
    index_setdefault = cast("Callable[[object, int], int]", index.setdefault)
    tuple_t, list_t, int_t = tuple, list, int
    # bound methods of the columns, looked up once (the loop appends millions of times)
    target_append, code_append = out_target.append, out_code.append
    term_act_append, term_code_append, term_idx_append = \
        b.term_act.append, b.term_code.append, b.term_idx.append
    states_append, stamp_append = states.append, stamp.append
    players_append, act_labels_append = players.append, act_labels.append
    out_ptr_append, act_ptr_append = out_ptr.append, act_ptr.append
    n_out = 0
    n_states = 1
    k_now = 0  # number of the action being enumerated
    # identity cache: the last two probability objects validated (positive) and their codes
    last_p: object = object()
    prev_p: object = last_p
    last_code = prev_code = 0
    last_acts: object = None  # the last two action tuples checked (recognised by identity)
    prev_acts: object = None
    remembering = True  # probability objects are known by id (False: a game building them afresh)
    # the parts of the Fraction last found by value: a game building Fraction(1, 2) afresh
    # in every call is recognised by two slot reads and two comparisons, no hashing
    slotted_t: Any = fraction_t if _SLOTTED else None  # (Any: no narrowing to the slotless stub)
    fresh_n, fresh_d, fresh_code = _NO_PART, _NO_PART, 0  # (none yet: parts no Fraction holds)
    last_t, last_t_idx = last_p, 0  # the terminal met last and its number (module docstring)
    # a successor found among the states is checked not to be a terminal once some state's
    # class (or some terminal class) has an __eq__ that could say yes to one (module docstring)
    kind_now = type(states[0])
    kinds_seen = {id(kind_now): kind_now}  # (by id: a class may be unhashable, by its metaclass)
    careful = not never_terminal(kind_now) or odd_terminal_classes()
    quiet_until = due.quiet_until()
    for s in states:  # (the list grows as states are numbered: a breadth-first queue)
        try:
            who = player_fn(s)
        except Exception as exc:
            user_error("game.player()", at(s), exc)
        if type(who) is not int_t or (who != 0 and who != 1):
            who = player_of(who, s)
        players_append(who)
        try:
            acts = actions_fn(s)
        except Exception as exc:
            user_error("game.actions()", at(s), exc)
        acts_seq: Sequence[Any]
        if acts is last_acts or acts is prev_acts:  # a tuple object checked already
            acts_seq = acts
        else:
            acts_seq = acts if type(acts) is tuple_t or type(acts) is list_t \
                else action_sequence(acts, s)
            check_actions(acts_seq, s)
            if type(acts) is tuple_t:  # immutable: safe to recognise by identity
                prev_acts, last_acts = last_acts, acts
        for a in acts_seq:
            try:
                outs = outcomes_fn(s, a)
                if type(outs) is not list_t:
                    outs = list(outs)
            except Exception as exc:
                user_error("game.outcomes()", at_action(s, a), exc)
            first = n_out
            k8 = k_now & 255
            for item in outs:
                try:
                    if type(item) is not tuple_t and not isinstance(item, tuple_t):
                        raise ValueError
                    p, nxt = item
                except ValueError:
                    raise not_a_pair(item, s, a) from None
                if p is last_p:  # games reuse a few probability objects: check identity first
                    code = last_code
                elif p is prev_p:
                    code = prev_code
                else:
                    # an object seen before (unless the game builds them afresh), else a
                    # Fraction seen before by value, else a value met for the first time
                    hit = by_id_get(id(p)) if remembering else None
                    if hit is not None:
                        code = hit
                    elif type(p) is slotted_t and p._numerator == fresh_n and p._denominator == fresh_d:
                        code = fresh_code  # a new object of the value last found by value
                        if remembering:  # (until objects prove to be built afresh: then never)
                            remembering = table.remember(p, code)
                    else:
                        code = by_parts_get(fraction_parts(p), -1) if type(p) is fraction_t else -1
                        if code >= 0:  # another object of a known value
                            if type(p) is slotted_t:
                                fresh_n, fresh_d, fresh_code = p._numerator, p._denominator, code
                            if remembering:
                                remembering = table.remember(p, code)
                        else:
                            remembering = True
                            code = table.probability(p, nxt, s, a)
                            if code < 0:
                                continue  # zero probability: the successor is not enumerated
                            prev_p, prev_code = last_p, last_code
                            last_p, last_code = p, code
                if nxt is last_t:  # play ends
                    term_act_append(k_now)
                    term_code_append(code)
                    term_idx_append(last_t_idx)
                    continue
                try:
                    # one hash and one probe both to look up and to number a new state;
                    # the terminals met are in the index too, under negative numbers
                    j = index_setdefault(nxt, n_states)
                except Exception as exc:
                    lookup_error(nxt, s, a, exc)
                if j >= n_states:  # a new state, or a terminal met for the first time
                    if isinstance(nxt, terminal):
                        del index[nxt]
                        j = -1 - _terminal_number(nxt, b, s, a)
                    else:
                        if type(nxt) is not kind_now:
                            kind_now = type(nxt)
                            if id(kind_now) not in kinds_seen:
                                kinds_seen[id(kind_now)] = kind_now
                                careful = careful or not never_terminal(kind_now)
                        if j < quiet_until:  # no limit, report or check due: inline
                            states_append(nxt)
                            stamp_append(k8)
                        else:
                            due.add(nxt, j, k8, s, a, acts_seq)
                            quiet_until = due.quiet_until()
                        n_states += 1
                        target_append(j)
                        code_append(code)
                        continue
                if j < 0:  # play ends
                    if not isinstance(nxt, terminal):  # (not by identity: checked once each)
                        raise state_equals_terminal(nxt, b.terminals[-1 - j], s, a)
                    last_t, last_t_idx = nxt, -1 - j
                    term_act_append(k_now)
                    term_code_append(code)
                    term_idx_append(last_t_idx)
                    continue
                if careful and isinstance(nxt, terminal):
                    raise terminal_equals_state(nxt, states[j], s, a)
                if stamp[j] == k8 and j in out_target[first:]:
                    # a repeated successor of this action (a stamp may be of an action 256 m
                    # earlier, hence the search): merge by adding probabilities
                    dup_at = out_target.index(j, first)
                    out_code[dup_at] = table.code(values[out_code[dup_at]] + values[code])
                    continue
                stamp[j] = k8
                target_append(j)
                code_append(code)
            if reward_fn is not None:
                try:
                    w = reward_fn(s, a)
                except Exception as exc:
                    user_error("game.reward()", at_action(s, a), exc)
                if type(w) is not int_t or w:  # a plain 0 (the common case) needs nothing
                    w = reward_number(w, s, a)
                    if w:
                        rew_act_append(k_now)
                        rew_val_append(w)
            act_labels_append(a)
            n_out = len(out_target)  # (counted once per action, not once per outcome)
            out_ptr_append(n_out)
            k_now += 1
            if n_out > max_outcomes:
                raise size_limit(max_actions, max_outcomes)
        act_ptr_append(k_now)
        if k_now > max_actions:
            raise size_limit(max_actions, max_outcomes)


_SLOTTED = hasattr(Fraction(1, 2), "_numerator") and hasattr(Fraction(1, 2), "_denominator")
_FRACTION_PARTS: Callable[[Fraction], tuple[int, int]] = operator.attrgetter(
    *(("_numerator", "_denominator") if _SLOTTED
      else ("numerator", "denominator")))
"""``(numerator, denominator)`` of a Fraction at C speed: CPython's Fraction keeps them in
the slots ``_numerator`` and ``_denominator`` (its ``numerator`` property costs a Python
call; a game building ``Fraction(1, 2)`` afresh in every call reads both once per
outcome); the public properties where those slots are absent."""


def _terminal_number(t: Terminal, b: _Build, s: object, a: object) -> int:
    """The number of the terminal ``t`` in ``b.terminals`` (added, its payoff checked, if new).

    Terminals equal by value share a number: they stay in the state index under negative
    numbers ``-1 - number`` until the end of enumeration.
    """
    terminals = b.terminals
    try:
        j = cast("dict[object, int]", b.index).setdefault(t, -1 - len(terminals))
    except Exception as exc:
        lookup_error(t, s, a, exc)
    if j == -1 - len(terminals):
        if type(t) is not Terminal and not plain_terminal(type(t)):
            raise odd_terminal(t, s, a)
        payoff = check_terminal(t, at_action(s, a))  # as checked: a later change is caught at the end
        terminals.append(t)
        b.term_payoffs.append(payoff)
    return -1 - j


def _finish(b: _Build, due: _Due) -> CompiledGame[Any, Any]:
    """The checks left at the end of enumeration, then the compiled game."""
    for t, r in zip(b.terminals, b.term_payoffs, strict=True):
        now = getattr(t, "payoff", None)
        if now is not r and now != r:
            raise terminal_changed(t, r)
        del b.index[t]
    # user code may mutate states it returned earlier, unless they are plain values
    check_stable(b.states, b.index.get, due.checked if due.plain else 0, "after enumeration")
    n_actions = len(b.act_labels)
    check_sums(b, b.table.values, due.checked_acts, n_actions)
    act_code, stop_code = _terminal_codes(b, n_actions)
    reward_code = _fold_rewards(b, act_code, n_actions)
    # each column is narrowed and let go of in turn, so few copies coexist
    act_ptr, b.act_ptr = b.act_ptr, array("Q")
    act_ptr_np = _narrow(act_ptr)
    del act_ptr
    out_ptr, b.out_ptr = b.out_ptr, array("Q")
    out_ptr_np = _narrow(out_ptr)
    del out_ptr
    n = len(b.states)
    return CompiledGame(
        states=b.states,
        index=b.index,
        player=np.frombuffer(b.players, dtype=np.int8),
        act_ptr=act_ptr_np,
        act_labels=b.act_labels,
        act_state=np.repeat(np.arange(n, dtype=np.int32 if n < 2**31 else np.int64), np.diff(act_ptr_np)),
        out_ptr=out_ptr_np,
        out_target=int_view(b.out_target),
        rationals=b.table.values,
        act_code=act_code,
        stop_code=stop_code,
        out_code=int_view(b.out_code),
        reward_code=reward_code,
        win_probability=reward_code is None and all(0 <= r <= 1 for r in b.term_payoffs),
    )


def _fold_rewards(b: _Build, act_code: Index, n_actions: int) -> Index | None:
    """Codes of each action's reward (None when all are 0), after adding each reward to its
    action's ``act_const`` (``act_code`` is updated in place): ``c_k = w_k + sum p_t r_t``.

    Rewards are interned after the probabilities and terminal constants, so a game
    without rewards interns exactly what it would if rewards did not exist.
    """
    if not b.rew_act:
        return None
    table = b.table
    values = table.values
    reward_code = np.zeros(n_actions, dtype=np.int32)  # code 0 is the value 0
    codes = table.codes(b.rew_val)  # rewards repeat: each distinct one is interned once
    folded: dict[tuple[int, int], int] = {}  # (constant, reward) -> code of their sum
    for k, rc in zip(b.rew_act, codes.tolist(), strict=True):
        reward_code[k] = rc
        key = (int(act_code[k]), rc)
        c = folded.get(key)
        if c is None:
            c = folded[key] = table.code(values[key[0]] + values[rc])
        act_code[k] = c
    return reward_code


def _narrow(column: array[int]) -> Index:
    """The final array of an ``array("Q")`` column of indices: int32 if every entry
    fits (a copy: the column is then freed), else a view of it as int64."""
    wide = int_view(column)
    if len(wide) == 0 or int(wide.max()) < 2**31:
        return wide.astype(np.int32)
    return wide


def _terminal_codes(b: _Build, n_actions: int) -> tuple[Index, Index]:
    """Codes of ``act_const`` (expected terminal payoff) and ``act_stop`` per action.

    ``c_k = sum p_t r_t`` and ``s_k = sum p_t`` over the terminal outcomes of each action,
    in integer arithmetic over one common denominator ``dp dr`` (of the probabilities and
    of the payoffs), one vectorised sum per action; the distinct results are interned
    once each. Games whose denominators are too large for int64 fall back to memoised
    rational sums (:func:`_terminal_sums`).
    """
    table = b.table
    zero_code = table.code(_ZERO)
    act_code = np.full(n_actions, zero_code, dtype=np.int32)
    stop_code = np.full(n_actions, zero_code, dtype=np.int32)
    if not len(b.term_act):
        return act_code, stop_code
    values = table.values
    t_act, t_code, t_idx = int_view(b.term_act), int_view(b.term_code), int_view(b.term_idx)
    used = np.flatnonzero(np.bincount(t_code, minlength=len(values))).tolist()
    terms = len(t_act) + 1
    fit = fold_denominators((values[c].denominator for c in used), b.term_payoffs, terms)
    if fit is None:
        return _terminal_sums(b, act_code, stop_code)
    dp, dr = fit
    p_num = np.zeros(len(values), dtype=np.int64)
    p_num[used] = [values[c].numerator * (dp // values[c].denominator) for c in used]
    r_num = np.array([r.numerator * (dr // r.denominator) for r in b.term_payoffs], dtype=np.int64)
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


def _terminal_sums(b: _Build, act_code: Index, stop_code: Index) -> tuple[Index, Index]:
    """:func:`_terminal_codes` in rational arithmetic, memoised by each action's outcomes."""
    table, payoffs = b.table, b.term_payoffs
    values = table.values
    term_act, term_code, term_idx = b.term_act, b.term_code, b.term_idx
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
