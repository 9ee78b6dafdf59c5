"""Compilation through the array form: breadth-first search a batch of states at a time.

A game that offers :mod:`tbsg.model.arrays` (``array_shape`` and ``array_transitions``) is
enumerated here instead of one state and action at a time; the result is the
:class:`~tbsg.engine.compiled.CompiledGame` the plain protocol gives
(:func:`tbsg.engine.compile.compile_game`, which dispatches here), number for number:
the same state numbering, the same action and outcome arrays, and the same rationals
behind the same codes.

Algorithm
---------
A state ``s = (s_1, ..., s_d)`` with ``0 <= s_i < n_i`` (``array_shape``) has the key
``sum_i s_i w_i`` with mixed-radix weights ``w_d = 1``, ``w_i = w_{i+1} n_{i+1}``. The
plain compiler numbers states in first-occurrence order of the sequence of entries
``(state, action, outcome)``, states taken in number order (FIFO breadth-first search).
Taking the states in number order a batch at a time (at most :data:`CHUNK` rows) keeps
that order: the batch ``i_0 .. i_1 - 1`` asks ``array_transitions`` for all of its rows,
lays its entries out as an ``(n, C)`` grid (one column per outcome of every action,
actions in order), flattens it row by row, which is exactly the plain order, and numbers
the keys not seen before in the order of their first occurrence. Known keys are found in
a dense table of ``prod(n_i)`` int32 (when that is at most :data:`DENSE_LIMIT`), which
also finds first occurrences without sorting (``np.minimum.at`` leaves in each new key's
cell its earliest position), or else in sorted runs of keys (binary search; first
occurrences by ``np.unique(..., return_index=True)``).

A breadth-first level (a *wave*) of a small game or a chain holds a few dozen states,
and a game with hundreds of levels would pay a batch's fixed cost (a few dozen numpy
calls for the checks, the repeated successors, the rationals, the terminal sums) once per
level. So a wave whose arrays are plainly well-formed is only *read* when it is asked:
its successor keys are computed (one stacked range check, one dot product with the
weights) and its new states numbered, which is all the next wave needs; it is then *held*
and checked and recorded with the following waves of the same form (the same action,
terminal and probability objects, only the arrays differ) as one batch of up to
:data:`CHUNK` rows. Joining consecutive waves keeps the plain order (the joined batch's
rows are the waves' rows in number order), so the numbering, the codes and the arrays are
those of a wave-by-wave enumeration. The errors are too: a wave that is not plainly
well-formed, or whose reading raises, first has the held waves recorded and is then
checked alone; a joined batch that fails a check is checked again wave by wave, so the
error reported is the first wave's, in that wave's words. A held wave's successors are
compared, when it is recorded, with those read when it was asked (an array form must not
write into arrays it has returned). The state objects are built at the
end, each as the type of ``game.initial`` (``tuple.__new__`` for a NamedTuple, as its
``_make`` does). ``progress`` is called at most once per batch, when the count has
passed a multiple of the reporting interval.

*Boxes.* A chain or a best response of a small game is a few dozen states per level
over a hundred levels or more, and each level costs a call of ``array_transitions`` and
the fixed cost of a wave. A game that declares ``array_speculation = True`` (its
``array_transitions`` works row by row and accepts any row within the shape, a state or
not; :class:`tbsg.model.fixed.FixedStrategyGame` declares it for a profile given by an
:class:`tbsg.ArrayStrategy` in a game whose ``array_any_row`` is True) is instead
asked about every cell of a *box* ``lo <= s <= hi`` (coordinate by coordinate) at once,
starting from a small box above the initial state's cell (:data:`_FIRST_BOX` cells at
most). The successors of the box's cells give a graph over
them; the cells reached from the initial state are found by one breadth-first search
in C (:func:`scipy.sparse.csgraph.breadth_first_order`). If a reached cell leads out of
the box, the box grows to hold the cells it leads to, each coordinate that grows at
least doubling its width (the whole shape once the box would hold half of it), and is
asked again. Otherwise the order of that search is the plain numbering once checked
(:func:`_plain_order`: each cell must first occur, in order, among the successors of the
cells before it; else the cells are numbered level by level, a few numpy calls per
level). A box of more than :data:`SPECULATE` cells is not asked, and in a shape larger
than that, nor one of more than :data:`_SPARSE` cells per state reached in the box before
(unless it is no larger than the first box): where the states fill their boxes thinly
(a best response: the free player's choices spread play over every coordinate) the
boxes would likely outgrow :data:`SPECULATE` after many cells asked in vain, and the
waves cost less (in a smaller shape the boxes cost at most about the whole shape).
Only the reached states are then asked again, in number order, a batch of up to
:data:`CHUNK` rows at a time, and checked and recorded as any batch, their successors
compared with those the box gave. What the boxes say about
cells that are not reached is never used; if a box's call raises or is not plainly
well-formed, a reached cell leads outside the shape, more than ``max_states`` are
reached, or the second reading fails or differs, the enumeration starts again with the
waves above, which report the error in their words.

Per batch, in integer arithmetic: the probabilities of each allowed action sum to 1
(numerators over the action's common denominator); zero probabilities drop the entry;
repeated successors of one action are merged at their first occurrence by adding
probabilities (a stable sort of each row's keys finds them); outcomes that end play are
folded into ``c_k = sum p r`` and ``s_k = sum p`` per action (``np.add.reduceat`` over a
common denominator). Rationals are interned in the order the plain compiler meets them:
each new probability at its first entry, each merged sum at the entry that completes it,
then the distinct ``s_k`` and ``c_k`` in ascending order (or, when the plain compiler
would sum them in rational arithmetic because the common denominator overflows int64,
in order of the first action that has them).

Cost: a few numpy passes over the ``n C`` entries of a batch, a few more numpy calls per
breadth-first level, and at the end one Python object per state (``tuple.__new__``
through ``map``, at C speed) for ``states`` and ``index``.

Trust: the array form is a second description of a game that also implements the plain
protocol, which is the definition. It is used only where it plainly belongs to those
rules (:func:`offers_arrays`, :func:`tbsg.model.arrays.untrusted_reason`: not forwarded from
another object by ``__getattr__``, not beneath a class that redefines a rule). After
compiling, :data:`SAMPLE` states (the first half of them the first states, the others
spread evenly over the rest) are asked through ``player``, ``actions`` and ``outcomes``,
and any difference is an :class:`~tbsg.errors.InvalidGameError` naming the first state
where the two disagree. A sample cannot see a difference elsewhere: certifying code
(:func:`tbsg.verify`, :func:`tbsg.load`) compiles through the plain protocol and compares
*every* state's array row with it (:func:`check_every_state`: the batches of this module
run over the plain compilation's states, in its numbering, and the resulting arrays must
equal its arrays), so that an array form is trusted for a certified value only once
``verify`` has compared it everywhere.
"""

from __future__ import annotations

import math
import operator
import sys
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from itertools import chain, repeat
from typing import Any, cast

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
from scipy.sparse.csgraph import breadth_first_order

from tbsg.engine.compile.checks import (
    EXACT,
    INT64_SAFE,
    at,
    at_action,
    bad_sum,
    call,
    check_terminal,
    distinct_actions,
    fold_denominators,
    negative_probability,
    no_actions,
    not_a_pair,
    not_a_player,
    probability,
    size_limit,
    state_limit,
    user_error,
)
from tbsg.engine.compiled import CompiledGame, IndexArray, Interner
from tbsg.errors import ExactnessError, InvalidArgumentError, InvalidGameError, StateLimitError
from tbsg.errors import show as _show
from tbsg.model.arrays import ArrayAction, ArrayOutcome, ArrayTransitions, untrusted_reason
from tbsg.model.protocol import Terminal, player_function

__all__ = ["CHUNK", "DENSE_LIMIT", "SAMPLE", "check_every_state", "check_offered", "check_rows",
           "compile_arrays", "offers_arrays"]

CHUNK = 1 << 16
"""Most states handed to one call of ``array_transitions``."""
_SPARSE = 8
"""A box is grown only to at most this many cells per state reached in the one before
(or to :data:`_FIRST_BOX` cells)."""
_FIRST_BOX = 16
"""Cells of the first box (at most), from the initial state upwards."""
SPECULATE = 1 << 17
"""Most cells of a box asked in one call to find the reachable states (module docstring,
*boxes*)."""
DENSE_LIMIT = 1 << 26
"""Largest ``prod(array_shape)`` for a dense key table (int32; pages untouched stay unused)."""
SAMPLE = 32
"""States compared with the plain protocol after an array compilation."""

I64 = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]
_ZERO = Fraction(0)


def offers_arrays(game: object) -> bool:
    """True if ``game`` offers an array form that may stand for its rules:
    ``array_transitions`` and a non-None ``array_shape``, and nothing that makes the
    array form another object's or another class's (:func:`tbsg.model.arrays.untrusted_reason`)."""
    return callable(getattr(game, "array_transitions", None)) \
        and getattr(game, "array_shape", None) is not None and untrusted_reason(game) is None


def check_offered(game: object) -> None:
    """Raise why ``game``'s array form cannot be used, if it cannot (:func:`offers_arrays`)."""
    if not callable(getattr(game, "array_transitions", None)) or getattr(game, "array_shape", None) is None:
        why = f"{type(game).__name__} does not offer the array form (array_transitions and array_shape)"
    else:
        untrusted = untrusted_reason(game)
        if untrusted is None:
            return
        why = f"{type(game).__name__}'s array form is not used: {untrusted}"
    raise InvalidArgumentError(f"{why}; compile it with arrays=None or arrays=False (the plain protocol)")


class _Keys:
    """States as integer keys: the mixed-radix code of a tuple of ``d`` small ints."""

    def __init__(self, game: object, initial: object) -> None:
        shape = getattr(game, "array_shape", None)
        if not isinstance(shape, tuple) or not shape or any(
                isinstance(x, bool) or not isinstance(x, int) or x < 1 for x in shape):
            raise InvalidGameError(f"array_shape must be a non-empty tuple of ints >= 1, got {_show(shape)}")
        if math.prod(shape) >= 2**63:
            raise InvalidGameError(f"array_shape {_show(shape)} has {math.prod(shape)} cells; the "
                                   "array form needs fewer than 2**63 (keys are int64)")
        kind = type(initial)
        plain_tuple = kind is tuple or (issubclass(kind, tuple) and hasattr(kind, "_fields")
                                        and kind.__eq__ is tuple.__eq__ and kind.__hash__ is tuple.__hash__)
        if not plain_tuple or len(cast("tuple[object, ...]", initial)) != len(shape) or any(
                type(x) is not int for x in cast("tuple[object, ...]", initial)):
            raise InvalidGameError(
                f"the array form needs states that are tuples (or NamedTuples) of {len(shape)} ints "
                f"(len(array_shape)); game.initial is {_show(initial)}")
        self.shape = shape
        self.d = len(shape)
        self.size = math.prod(shape)
        w = [1] * self.d
        for i in range(self.d - 2, -1, -1):
            w[i] = w[i + 1] * shape[i + 1]
        self.weights = w
        self.weight_array = np.array(w, dtype=np.int64)
        self.kind = kind
        # NamedTuples are built by tuple.__new__ (what their _make does), at C speed
        self.make = cast("Callable[[list[int]], tuple[int, ...]]",
                         tuple if kind is tuple else partial(tuple.__new__, kind))
        row = np.array([initial], dtype=np.int64)
        bad = self.outside(row)
        if bad.any():
            raise InvalidGameError(f"game.initial {_show(initial)} lies outside array_shape {_show(shape)}")

    def outside(self, rows: I64) -> Bools:
        """Rows with a coordinate outside ``array_shape`` (seen as unsigned, a negative
        coordinate is huge: one comparison per coordinate)."""
        u = rows.view(np.uint64)
        out: Bools = u[:, 0] >= self.shape[0]
        for i in range(1, self.d):
            out |= u[:, i] >= self.shape[i]
        return out

    def encode(self, rows: I64) -> I64:
        """The keys of ``rows``, a coordinate (column) at a time (a product with the
        weights would loop over ``d`` numbers per row)."""
        key: I64 = rows[:, 0] * self.weight_array[0]
        for i in range(1, self.d):
            key += rows[:, i] * self.weight_array[i]
        return key

    def decode(self, keys: I64) -> I64:
        rows = np.empty((len(keys), self.d), dtype=np.int64)
        rest = keys
        for i in range(self.d - 1):
            rows[:, i], rest = np.divmod(rest, self.weights[i])
        rows[:, self.d - 1] = rest
        return rows

    def state(self, row: Sequence[int] | I64) -> object:
        """The state object of one row (for messages and the final state list)."""
        return self.make([int(x) for x in row])


class _Index:
    """Key -> state number: a dense int32 table, or sorted runs searched by bisection."""

    def __init__(self, size: int) -> None:
        self.dense: npt.NDArray[np.int32] | None = None
        if size <= DENSE_LIMIT:
            self.dense = np.zeros(size, dtype=np.int32)  # number + 1; 0: unknown (calloc'd)
        self.runs: list[tuple[I64, I64]] = []  # (sorted keys, their numbers)

    def find(self, keys: I64) -> npt.NDArray[np.signedinteger[Any]]:
        """Numbers of ``keys``, -1 where unknown (int32 with the dense table)."""
        if self.dense is not None:
            found: npt.NDArray[np.int32] = self.dense[keys] - 1
            return found
        out = np.full(len(keys), -1, dtype=np.int64)
        for ks, ix in self.runs:
            pos = np.searchsorted(ks, keys)
            np.minimum(pos, len(ks) - 1, out=pos)
            hit = ks[pos] == keys
            out[hit] = ix[pos[hit]]
        return out

    def first_new(self, keys: I64) -> I64:
        """Positions in ``keys`` (all unknown) of the first occurrence of each distinct key,
        in order: with the dense table, marked in it without sorting."""
        if self.dense is None:
            _, first = np.unique(keys, return_index=True)
            first.sort()
            return first
        e = len(keys)
        # unknown cells hold 0: the earliest position p of each key leaves p - e < 0 there
        np.minimum.at(self.dense, keys, np.arange(-e, 0, dtype=np.int32))
        pos: I64 = np.flatnonzero(self.dense[keys] + e == np.arange(e))
        self.dense[keys] = 0  # unknown again until add()
        return pos

    def add(self, keys: I64, numbers: I64) -> None:
        """Record new ``keys`` (distinct, none known) with their ``numbers``."""
        if self.dense is not None:
            self.dense[keys] = (numbers + 1).astype(np.int32)
            return
        order = np.argsort(keys)
        self.runs.append((keys[order], numbers[order]))
        # merge runs of similar size (a run is merged O(log n) times)
        while len(self.runs) > 1 and len(self.runs[-2][0]) <= 2 * len(self.runs[-1][0]):
            (k1, i1), (k2, i2) = self.runs.pop(), self.runs.pop()
            ks, ix = np.concatenate([k2, k1]), np.concatenate([i2, i1])
            order = np.argsort(ks, kind="stable")
            self.runs.append((ks[order], ix[order]))


def _int_array(x: object, shape: tuple[int, ...], what: str, where: str) -> I64:
    """``x`` as an int64 array of ``shape``, or an error saying what it was."""
    try:
        a = np.asarray(x)
    except Exception as exc:
        raise InvalidGameError(f"{what} {where} is not an array ({type(exc).__name__}: {exc})") from exc
    kind = a.dtype.kind
    if kind in "fc" or (kind == "O" and any(isinstance(v, float) for v in a.ravel().tolist())):
        raise ExactnessError(f"{what} {where} holds floats ({a.dtype}); the array form is exact: use "
                             "int arrays (and (numerators, denominator) for probabilities)")
    if kind not in "iu":
        raise InvalidGameError(f"{what} {where} must be an int array, got dtype {a.dtype}")
    if a.shape != shape:
        raise InvalidGameError(f"{what} {where} has shape {a.shape}, expected {shape}")
    return a.astype(np.int64, copy=False)


_INT64_MAX = 2**63 - 1


def _numerators(x: object, n: int, where: str, state: Callable[[int], object]) -> npt.NDArray[Any]:
    """Probability numerators, exactly: int64 when every one fits, else an object array of
    Python ints (the wide, exact paths of the sums take it).

    Any numpy int dtype is read as the values it holds: a uint64 numerator above
    ``2**63 - 1`` (``3 * 2**62`` over ``2**64``) becomes a Python int, not the negative
    number a cast to int64 would make of it. An object array must hold ints (Python or
    numpy; not bools), which a denominator beyond int64 needs.
    """
    try:
        a = np.asarray(x)
    except Exception as exc:
        raise InvalidGameError(f"probability numerators {where} are not an array "
                               f"({type(exc).__name__}: {exc})") from exc
    kind = a.dtype.kind
    if kind in "fc":
        raise ExactnessError(f"probability numerators {where} hold floats ({a.dtype}); the array form is "
                             "exact: use int arrays (and (numerators, denominator) for probabilities)")
    if kind not in "iuO":
        raise InvalidGameError(f"probability numerators {where} must be an int array (or an object array "
                               f"of Python ints), got dtype {a.dtype}")
    if a.shape != (n,):
        raise InvalidGameError(f"probability numerators {where} have shape {a.shape}, expected {(n,)}")
    if kind == "i":
        return a.astype(np.int64, copy=False)
    if kind == "u":
        if a.dtype.itemsize < 8 or n == 0 or int(a.max()) <= _INT64_MAX:
            return a.astype(np.int64)
        return a.astype(object)  # uint64 -> Python ints, exactly
    return _object_numerators(a.tolist(), where, state)


def _object_numerators(values: list[object], where: str, state: Callable[[int], object]) -> npt.NDArray[Any]:
    """The numerators of an object array (``values``), checked one by one: int64 when
    every one fits, else an object array of Python ints."""
    ints: list[int] = []
    for r, v in enumerate(values):
        if type(v) is not int:
            if isinstance(v, (float, complex, np.floating, np.complexfloating)):
                raise ExactnessError(f"probability numerator {_show(v)} {at(state(r))} {where} is a "
                                     f"{type(v).__name__}; the array form is exact: use ints")
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
                raise InvalidGameError(f"probability numerator {_show(v)} ({type(v).__name__}) "
                                       f"{at(state(r))} {where} is not an int; numerators are ints "
                                       "over the one denominator of the pair")
            v = int(cast("int", v))
        ints.append(v)
    if not ints or (min(ints) >= -_INT64_MAX and max(ints) <= _INT64_MAX):
        return np.array(ints, dtype=np.int64)
    out = np.empty(len(ints), dtype=object)
    out[:] = ints
    return out


@dataclass
class _Column:
    """One outcome of one action over a batch: its entries in the batch's grid."""

    action: int  # position of the action in ArrayTransitions.actions
    num: npt.NDArray[Any] | None  # probability numerators (int64, or object for huge ones),
    den: int  # over this denominator; or None:
    const: Fraction | None  # the probability is this one number for every row
    valid: Bools  # allowed and positive probability
    ends: Bools  # valid and ending play
    leads: Bools  # valid and leading to a state
    terminal: I64 | None
    key: I64 | None  # successor keys (meaningful where leads)


@dataclass
class _Tables:
    """What the batches accumulate, in state order."""

    keys: I64  # key of each state numbered so far (grown by doubling)
    n_states: int
    players: list[npt.NDArray[np.int8]] = field(default_factory=list)
    act_count: list[npt.NDArray[np.int32]] = field(default_factory=list)  # actions per state
    labels: list[object] = field(default_factory=list)
    out_count: list[npt.NDArray[np.int32]] = field(default_factory=list)  # outcomes per action
    out_target: list[IndexArray] = field(default_factory=list)
    out_code: list[IndexArray] = field(default_factory=list)
    # per action: the class of its (stop, const), or -1
    term_class: list[npt.NDArray[np.int32]] = field(default_factory=list)
    classes: dict[tuple[Fraction, Fraction], int] = field(default_factory=dict)
    term_prob_codes: set[int] = field(default_factory=set)  # probability codes of outcomes ending play
    payoffs_met: set[Fraction] = field(default_factory=set)
    n_terms: int = 0  # outcomes ending play
    n_actions: int = 0
    n_outcomes: int = 0


def compile_arrays(game: Any, *, max_states: int, max_actions: int, max_outcomes: int,
                   progress: Callable[[int, int], None] | None, report_every: int) -> CompiledGame[Any, Any]:
    """Enumerate ``game`` through its array form (see the module docstring).

    Called by :func:`tbsg.engine.compile.compile_game`, which has validated
    ``max_states`` and passes its reporting interval.
    """
    check_offered(game)
    initial = call("game.initial", "(reading the initial state)", lambda: game.initial)
    keys = _Keys(game, initial)
    limits = (max_states, max_actions, max_outcomes)
    report = _Reporter(progress, report_every, max_states)
    run = _speculate(game, keys, initial, limits, report)
    if run is None:
        run = _start(game, keys, initial, *limits)
        _breadth_first(run, report)
    tab, interner = run.tab, run.interner
    del run  # the key table (up to DENSE_LIMIT int32) before the states are built
    compiled = _assemble(tab, keys, interner)
    _check_against_protocol(game, compiled)
    return compiled


class _Reporter:
    """``progress(found, max_states)`` each time the states found pass a multiple of
    ``every`` (never for fewer states than reported before)."""

    def __init__(self, progress: Callable[[int, int], None] | None, every: int, max_states: int) -> None:
        self.progress, self.every, self.max_states = progress, every, max_states
        self.next = every

    def __call__(self, found: int) -> None:
        if self.progress is not None and found >= self.next:
            self.progress(found, self.max_states)
            self.next = (found // self.every + 1) * self.every


def _start(game: Any, keys: _Keys, initial: object, max_states: int, max_actions: int,
           max_outcomes: int) -> _Run:
    """An enumeration that has numbered the initial state only."""
    index = _Index(keys.size)
    first = keys.encode(np.array([initial], dtype=np.int64))
    index.add(first, np.zeros(1, dtype=np.int64))
    grown = np.empty(1024, dtype=np.int64)
    grown[0] = first[0]
    tab = _Tables(keys=grown, n_states=1)
    return _Run(game, keys, index, tab, Interner(), max_states, max_actions, max_outcomes)


def _breadth_first(run: _Run, report: Callable[[int], None]) -> None:
    """The states in number order, a wave at a time (:func:`_wave`)."""
    tab, keys = run.tab, run.keys
    i = 0
    while i < tab.n_states:
        j = min(i + CHUNK, tab.n_states)
        rows = keys.decode(tab.keys[i:j])
        rows.flags.writeable = False
        _wave(run, rows)
        report(tab.n_states)
        i = j
    _flush(run)


class _Changed(InvalidGameError):
    """Successors of a batch that differ from those read when it was first asked."""


def _speculate(game: Any, keys: _Keys, initial: object, limits: tuple[int, int, int],
               report: Callable[[int], None]) -> _Run | None:
    """The enumeration of a game that allows it, with the numbering found from boxes of
    cells (module docstring, *boxes*), or None where that does not succeed (the
    breadth-first waves then enumerate, and say what is wrong). ``report(n)``: ``n``
    states found so far."""
    if getattr(game, "array_speculation", False) is not True:
        return None
    start = np.array(initial, dtype=np.int64)
    # the first box: up to _FIRST_BOX cells from the initial state upwards (a box that
    # small costs less than the rounds of growing it from one cell)
    width = max(1, round(_FIRST_BOX ** (1 / keys.d)))
    box = _Box(start, np.minimum(start + width - 1, np.array(keys.shape, dtype=np.int64) - 1), keys)
    while True:
        if box.size > SPECULATE:
            return None
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")  # (cells that are no states may hold anything)
            try:
                grid = box.grid(game.array_transitions(box.rows()))
            except Exception:
                return None
        if grid is None:
            return None
        first = int(box.local(start[None, :])[0])
        found = _escapes(grid, box, first, limits[0])
        if found is None:
            return None
        cells, beyond = found
        if beyond is None:
            break
        box = box.grown(*beyond)
        if keys.size > SPECULATE and box.size > max(_SPARSE * len(cells), _FIRST_BOX):
            return None  # the states fill their boxes thinly: the waves cost less
    order = _plain_order(grid, first, cells)
    if order is None:  # (scipy's order is not the plain one: number them level by level)
        levels = _reached(grid, box, first, limits[0], report)
        if levels is None or levels[1] is not None:  # (cannot be: _escapes saw the same cells)
            return None
        order = levels[0]
    report(len(order))
    return _reread(game, keys, initial, limits, box, grid, order)


def _plain_order(grid: I64, start: int, cells: I64) -> I64 | None:
    """``cells`` (the cells reachable from ``start``, ``start`` first) if they are in the
    plain numbering, else None.

    The plain numbering is the one order in which every cell but the first is numbered
    in the order of its first occurrence among the successors of the cells before it,
    read in order: given the cells in some order, listing their successors in that order
    shows whether it is (each cell's first occurrence must come later than the previous
    cell's, and come from a cell before it, which a breadth-first order ensures).
    """
    if len(cells) < 2:
        return cells.astype(np.int64)
    sub = grid[cells]
    leads = sub >= 0
    seq = sub[leads]  # (row by row)
    firsts = np.full(len(grid), len(seq), dtype=np.int64)
    np.minimum.at(firsts, seq, np.arange(len(seq), dtype=np.int64))
    at = firsts[cells[1:]]
    if int(at[-1]) >= len(seq) or not bool(np.all(at[1:] > at[:-1])):
        return None
    # each cell's first occurrence lies among the successors of the cells before it
    owner = np.repeat(np.arange(len(cells)), _row_counts(leads))
    if not bool(np.all(owner[at] < np.arange(1, len(cells)))):
        return None
    return cells.astype(np.int64)


def _row_counts(mask: Bools) -> I64:
    """The True entries of each row of a 2-d ``mask`` with few columns, added column by
    column (a sum along the rows would loop over a handful of numbers per row)."""
    count = mask[:, 0].astype(np.int64)
    for j in range(1, mask.shape[1]):
        count += mask[:, j]
    return count


def _escapes(grid: I64, box: _Box, start: int, max_states: int
             ) -> tuple[I64, tuple[I64, I64] | None] | None:
    """The cells reachable from ``start`` along ``grid``, ``start`` first, in
    breadth-first order, and the least and greatest coordinates of the cells outside the
    box they lead to (None if they stay in it); None if they lead outside the shape or
    are more than ``max_states``.

    One breadth-first search in C (:func:`scipy.sparse.csgraph.breadth_first_order`),
    whose order :func:`_plain_order` checks before it is used as the numbering."""
    n = len(grid)
    flat = grid.ravel()
    edge = flat >= 0
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(_row_counts(edge.reshape(grid.shape)), out=ptr[1:])
    targets = flat[edge]
    graph = sp.csr_matrix((np.ones(len(targets)), targets, ptr), shape=(n, n))
    cells = breadth_first_order(graph, start, directed=True, return_predecessors=False)
    if len(cells) > max_states:
        return None
    low = int(grid[cells].min())
    if low == -2:
        return None
    return cells, (_outside(grid, box, cells) if low == -3 else None)


def _reread(game: Any, keys: _Keys, initial: object, limits: tuple[int, int, int], box: _Box,
            grid: I64, order: I64) -> _Run | None:
    """The states ``order`` (local numbers of ``box``, in the plain numbering) asked again,
    in number order, checked and recorded; None if that fails or their successors are not
    those ``grid`` says."""
    run = _start(game, keys, initial, *limits)
    index, tab = run.index, run.tab
    reached = box.at(order)
    numbered = keys.encode(reached)
    index.add(numbered[1:], np.arange(1, len(order), dtype=np.int64))
    tab.keys, tab.n_states = numbered, len(order)
    # the key of each reached cell (every successor the grid gives a reached cell is one)
    key_of = np.full(box.size, -1, dtype=np.int64)
    key_of[order] = numbered
    try:
        for i in range(0, len(order), CHUNK):
            rows = reached[i : i + CHUNK]
            rows.flags.writeable = False
            succ = grid[order[i : i + CHUNK]].ravel()
            read = key_of[succ[succ >= 0]]
            _record_checked(run, _ask(game, rows, keys), rows, read)
    except Exception:  # (also _Changed): the waves find the same error in their own words
        return None
    return run if tab.n_states == len(order) else None


class _Box:
    """The cells ``lo <= s <= hi`` (coordinate by coordinate) of a shape, numbered locally
    in mixed radix."""

    def __init__(self, lo: I64, hi: I64, keys: _Keys) -> None:
        self.lo, self.hi, self.keys = lo, hi, keys
        self.targets: list[npt.NDArray[np.integer[Any]]] = []  # per column, the last grid's successors
        self.ext = hi - lo + 1
        self.size = math.prod(self.ext.tolist())
        w = [1] * keys.d
        for i in range(keys.d - 2, -1, -1):
            w[i] = w[i + 1] * int(self.ext[i + 1])
        self.weights = np.array(w, dtype=np.int64)

    def rows(self) -> I64:
        """Every cell's row, in local order (broadcast column by column)."""
        d = self.keys.d
        out = np.empty((self.size, d), dtype=np.int64)
        cells = out.reshape(*self.ext.tolist(), d)
        for i in range(d):
            shape = [int(self.ext[i]) if j == i else 1 for j in range(d)]
            cells[..., i] = np.arange(self.lo[i], self.hi[i] + 1, dtype=np.int64).reshape(shape)
        out.flags.writeable = False
        return out

    def local(self, rows: I64) -> I64:
        out: I64 = (rows - self.lo).dot(self.weights)
        return out

    def at(self, local: I64) -> I64:
        """The rows of local numbers."""
        rows = np.empty((len(local), self.keys.d), dtype=np.int64)
        rest = local
        for i in range(self.keys.d - 1):
            rows[:, i], rest = np.divmod(rest, self.weights[i])
        rows[:, -1] = rest
        for i in range(self.keys.d):  # (column by column: see _local)
            rows[:, i] += self.lo[i]
        return rows

    def grid(self, tr: object) -> I64 | None:
        """Per cell, the local number of the successor of each of its entries (one column
        per outcome of every action, in the plain order): -1 where the entry leads to no
        state, -3 where it leads to a cell of the shape outside the box; a cell with an
        entry leading outside the shape has -2 in every column. None if ``tr`` is not
        plainly well-formed (:func:`_fast_column`)."""
        n, keys = self.size, self.keys
        cols = _columns(tr, keys, n)
        if cols is None:
            return None
        self.targets = [t for _, t in cols]  # (what _outside reads)
        grid = np.empty((n, len(cols)), dtype=np.int64)
        bad = np.zeros(n, dtype=bool)
        for c, (v, t) in enumerate(cols):
            to = t.astype(np.int64, copy=False)
            inside, local = self._local(to)
            away = np.flatnonzero(v & ~inside)  # (only these can lead outside the shape)
            if away.size:
                bad[away] |= keys.outside(to[away])
            grid[:, c] = np.where(v, np.where(inside, local, -3), -1)
        rows = np.flatnonzero(bad)
        if rows.size:
            grid[rows] = -2
        return grid

    def _local(self, to: I64) -> tuple[Bools, I64]:
        """Which rows of ``to`` lie in the box, and their local numbers (meaningless
        elsewhere), a coordinate (one column of ``to``) at a time: numpy's loops over a
        row of ``d`` numbers cost more than the arithmetic."""
        inside = np.ones(len(to), dtype=bool)
        local = np.zeros(len(to), dtype=np.int64)
        for i in range(self.keys.d):
            off = to[:, i] - self.lo[i]
            inside &= off.view(np.uint64) < self.ext[i]  # (a negative offset is huge)
            off *= self.weights[i]
            local += off
        return inside, local

    def grown(self, lo: I64, hi: I64) -> _Box:
        """A box holding this one and the cells ``lo .. hi``: each coordinate that must
        grow at least doubles its width (the whole shape once the box would hold half
        of it), so that few boxes are asked."""
        shape = np.array(self.keys.shape, dtype=np.int64)
        width = self.ext
        new_lo = np.where(lo < self.lo, np.maximum(0, np.minimum(lo, self.lo - width)), self.lo)
        new_hi = np.where(hi > self.hi, np.minimum(shape - 1, np.maximum(hi, self.hi + width)), self.hi)
        if 2 * math.prod((new_hi - new_lo + 1).tolist()) > self.keys.size:
            new_lo, new_hi = np.zeros_like(shape), shape - 1
        return _Box(new_lo, new_hi, self.keys)


def _columns(tr: object, keys: _Keys, n: int, *, lenient: bool = True
             ) -> list[tuple[Bools, npt.NDArray[np.integer[Any]]]] | None:
    """Per outcome of every action of ``tr`` (``n`` rows), its entries that lead on and
    their successors; None if not plainly well-formed (``lenient``: as
    :func:`_fast_column` reads a box's cells)."""
    if type(tr) is not ArrayTransitions or type(tr.actions) is not tuple:
        return None
    valid: list[Bools] = []
    succ: list[npt.NDArray[np.integer[Any]]] = []
    for act in tr.actions:
        if type(act) is not ArrayAction or type(act.outcomes) is not tuple:
            return None
        allowed = act.allowed
        if allowed is not None and (type(allowed) is not np.ndarray or allowed.dtype != np.bool_
                                    or allowed.shape != (n,)):
            return None
        for out in act.outcomes:
            if not _fast_column(out, allowed, keys, n, valid, succ, lenient=lenient):
                return None
    return list(zip(valid, succ, strict=True)) or None


def _reached(grid: I64, box: _Box, start: int, max_states: int, report: Callable[[int], None]
             ) -> tuple[I64, tuple[I64, I64] | None] | None:
    """The cells reachable from ``start`` along ``grid`` in the plain numbering (states in
    number order, each one's successors in entry order, new ones numbered at their first
    occurrence), a breadth-first level at a time, and the least and greatest coordinates
    of the cells outside the box that they lead to (None if none). None if a reached row
    leads outside the shape, or more than ``max_states`` are reached."""
    seen = np.zeros(len(grid), dtype=bool)
    seen[start] = True
    levels = [np.array([start], dtype=np.int64)]
    frontier = levels[0]
    total = 1
    beyond: list[I64] = []
    while frontier.size:
        rows = grid[frontier]
        nxt = rows.ravel()
        low = int(nxt.min()) if nxt.size else 0
        if low == -2:
            return None
        if low == -3:
            beyond.append(frontier)
        nxt = nxt[nxt >= 0]
        nxt = nxt[~seen[nxt]]
        if not nxt.size:
            break
        _, first = np.unique(nxt, return_index=True)
        first.sort()
        frontier = nxt[first]
        seen[frontier] = True
        levels.append(frontier)
        total += len(frontier)
        if total > max_states:
            return None
        report(total)
    order = np.concatenate(levels)
    return order, (None if not beyond else _outside(grid, box, np.concatenate(beyond)))


def _outside(grid: I64, box: _Box, cells: I64) -> tuple[I64, I64]:
    """The least and greatest coordinates of the cells outside ``box`` that ``cells``
    lead to."""
    lo = np.full(box.keys.d, np.iinfo(np.int64).max, dtype=np.int64)
    hi = np.full(box.keys.d, -1, dtype=np.int64)
    for c, to in enumerate(box.targets):
        hit = cells[grid[cells, c] == -3]
        if hit.size:
            rows = np.asarray(to)[hit]
            lo = np.minimum(lo, rows.min(axis=0))
            hi = np.maximum(hi, rows.max(axis=0))
    return lo, hi
@dataclass
class _Run:
    """One enumeration's state: the tables, and the waves read but not yet recorded."""

    game: Any
    keys: _Keys
    index: _Index
    tab: _Tables
    interner: Interner
    max_states: int
    max_actions: int
    max_outcomes: int
    waves: list[tuple[ArrayTransitions, I64, I64]] = field(default_factory=list)  # (rules, rows, keys read)
    held: int = 0  # rows in ``waves``


def _wave(run: _Run, rows: I64) -> None:
    """Read one wave (a batch of consecutive numbers) and number its new states.

    A wave whose rules are plainly well-formed only has its successors numbered here and
    is held, to be checked and recorded with the waves after it that have the same form
    (:func:`_flush`): the fixed cost of a batch is paid once per :data:`CHUNK` rows, not
    once per breadth-first level. Any other wave, and anything that raises, first
    records the held waves and then takes the checked path alone, so errors come in the
    order and with the words of a wave-by-wave enumeration.
    """
    try:
        tr = _ask(run.game, rows, run.keys)
    except Exception:
        _flush(run)
        raise
    try:
        succ = _fast_keys(tr, rows, run.keys)
    except Exception:  # (odd arrays: the checked path names what is wrong)
        succ = None
    if succ is None:
        _flush(run)
        _record_checked(run, tr, rows)
        return
    tr = cast("ArrayTransitions", tr)
    if run.waves and not _same_form(run.waves[0][0], tr):
        _flush(run)
    try:
        _number(succ, run.keys, run.index, run.tab, run.max_states)
    except StateLimitError:
        _flush(run)
        _record_checked(run, tr, rows)  # its own errors first, then the limit
        raise
    run.waves.append((tr, rows, succ))
    run.held += len(rows)
    if run.held >= CHUNK:
        _flush(run)


def _record_checked(run: _Run, tr: object, rows: I64, read: I64 | None = None) -> None:
    """Check and record one batch (whose successor keys were ``read`` when it was asked,
    if it was held), then the size limits."""
    _record(_rules(tr, rows, run.keys), run.keys, run.index, run.tab, run.interner, run.max_states, read)
    if run.tab.n_actions > run.max_actions or run.tab.n_outcomes > run.max_outcomes:
        raise size_limit(run.max_actions, run.max_outcomes)


def _flush(run: _Run) -> None:
    """Check and record the held waves: joined into one batch, or, if the joined batch
    is refused, wave by wave (whose first error is the one to report)."""
    waves, run.waves, run.held = run.waves, [], 0
    if len(waves) == 1:
        _record_checked(run, *waves[0])
    elif waves:
        rows = np.concatenate([w[1] for w in waves])
        rows.flags.writeable = False
        try:
            rules = _rules(_joined_transitions([w[0] for w in waves]), rows, run.keys)
        except Exception:
            for wave in waves:
                _record_checked(run, *wave)
        else:
            _record(rules, run.keys, run.index, run.tab, run.interner, run.max_states,
                    np.concatenate([w[2] for w in waves]))
            if run.tab.n_actions > run.max_actions or run.tab.n_outcomes > run.max_outcomes:
                raise size_limit(run.max_actions, run.max_outcomes)


def _fast_keys(tr: object, rows: I64, keys: _Keys) -> I64 | None:
    """The successor keys of a wave in the plain order (entries that lead to a state, row
    by row), read with only the checks needed to compute them; None if anything is not
    plainly well-formed (the checked path then says what)."""
    n = len(rows)
    columns = _columns(tr, keys, n, lenient=False)
    if columns is None:
        return None
    grid = np.empty((n, len(columns)), dtype=bool)  # (filled column by column: cheaper than np.stack)
    cube = np.empty((n, len(columns), keys.d), dtype=np.int64)
    for c, (v, t) in enumerate(columns):
        grid[:, c] = v
        cube[:, c] = t
    leads = grid.ravel()
    to: I64 = cube.reshape(-1, keys.d)
    if (leads & keys.outside(to)).any():
        return None
    return keys.encode(to[leads])


def _ints(x: object, shape: tuple[int, ...]) -> bool:
    return type(x) is np.ndarray and x.dtype.kind in "iu" and x.shape == shape


def _fast_column(out: object, allowed: Bools | None, keys: _Keys, n: int, valid: list[Bools],
                 succ: list[npt.NDArray[np.integer[Any]]], lenient: bool = False) -> bool:
    """Append one outcome's entries that lead to a state (``valid``) and its successors
    over a wave to the lists; False if it is not plainly well-formed (see :func:`_fast_keys`).
    ``lenient``: an outcome without successors that leads on somewhere is kept (its rows
    are no states: :func:`_successor_grid` marks them)."""
    if type(out) is not ArrayOutcome:
        return False
    p = out.probability
    if type(p) is tuple:
        if len(p) != 2 or not _ints(p[0], (n,)):
            return False
        leads: Bools = p[0] > 0
        if allowed is not None:
            leads &= allowed
    elif type(p) is Fraction or type(p) is int:
        leads = np.ones(n, dtype=bool) if allowed is None else allowed.copy()
        if p <= 0:
            leads[:] = False
    else:
        return False
    if out.terminal is not None:
        if not _ints(out.terminal, (n,)):
            return False
        leads &= out.terminal < 0
    to = out.successor
    if to is None:
        if leads.any() and not lenient:
            return False
        to = np.full((n, keys.d), -1 if lenient else 0, dtype=np.int64)  # (-1: outside)
    elif not _ints(to, (n, keys.d)):
        return False
    valid.append(leads)
    succ.append(to)
    return True


def _same_form(a: ArrayTransitions, b: ArrayTransitions) -> bool:
    """True if two waves' rules can be joined into one batch: the same action objects,
    outcomes, terminal objects and constant probabilities, only their arrays differ."""
    if len(a.actions) != len(b.actions) or type(a.terminals) is not tuple \
            or type(b.terminals) is not tuple or len(a.terminals) != len(b.terminals) \
            or any(x is not y for x, y in zip(a.terminals, b.terminals, strict=True)):
        return False
    for x, y in zip(a.actions, b.actions, strict=True):
        if x.label is not y.label or len(x.outcomes) != len(y.outcomes) \
                or (x.allowed is None) != (y.allowed is None):
            return False
        for u, v in zip(x.outcomes, y.outcomes, strict=True):
            p, q = u.probability, v.probability
            same_p = p is q or (type(p) is tuple and type(q) is tuple and type(p[1]) is int
                                and type(q[1]) is int and p[1] == q[1])
            if not same_p or (u.successor is None) != (v.successor is None) \
                    or (u.terminal is None) != (v.terminal is None):
                return False
    return True


def _joined_transitions(trs: list[ArrayTransitions]) -> ArrayTransitions:
    """Waves of the same form (:func:`_same_form`) as one batch's rules."""
    def cat(xs: list[Any]) -> Any:
        return None if xs[0] is None else np.concatenate(xs)

    actions = []
    for j, act in enumerate(trs[0].actions):
        outs = []
        for o, out in enumerate(act.outcomes):
            mine = [t.actions[j].outcomes[o] for t in trs]
            p = out.probability
            prob = (np.concatenate([m.probability[0] for m in mine]), p[1]) if type(p) is tuple else p  # type: ignore[index]
            outs.append(ArrayOutcome(prob, cat([m.successor for m in mine]), cat([m.terminal for m in mine])))
        actions.append(ArrayAction(act.label, tuple(outs), cat([t.actions[j].allowed for t in trs])))
    player = np.concatenate([np.asarray(t.player) for t in trs])
    return ArrayTransitions(player=player, actions=tuple(actions), terminals=trs[0].terminals)


@dataclass
class _Rules:
    """One batch's rules as ``array_transitions`` gives them, checked."""

    rows: I64
    player: I64
    labels: list[object]
    payoffs: list[Fraction]  # of ArrayTransitions.terminals
    allowed: list[Bools]  # per action
    cols: list[_Column]  # per outcome of every action, actions in order


def _batch(game: Any, rows: I64, keys: _Keys, index: _Index, tab: _Tables, interner: Interner,
           max_states: int) -> None:
    """Enumerate one batch of states (rows of consecutive numbers): read and check its
    rules, find its repeated successors and intern its probabilities, number its new
    states, and append its rows to ``tab``."""
    _record(_rules(_ask(game, rows, keys), rows, keys), keys, index, tab, interner, max_states)


def _record(rules: _Rules, keys: _Keys, index: _Index, tab: _Tables, interner: Interner,
            max_states: int, read: I64 | None = None) -> None:
    """Append a batch's checked rules to ``tab``: its repeated successors merged, its
    probabilities interned, its new states numbered. ``read``: the successor keys of a
    held batch as they were when it was asked (they must still be those)."""
    rows = rules.rows
    n, n_acts = len(rows), len(rules.labels)
    target = _repeats(rules.cols, n_acts, n)
    codes = _intern(rules.cols, target, interner, n)
    # the batch's entries as an (n, n_cols) grid, flattened row by row: the plain order
    grid_allowed = np.stack(rules.allowed, axis=1)
    act_num = np.cumsum(grid_allowed.ravel()).reshape(n, n_acts) - 1
    n_batch_actions = int(act_num[-1, -1]) + 1
    col_action = np.array([c.action for c in rules.cols], dtype=np.int64)
    leads = np.stack([c.leads for c in rules.cols], axis=1)
    zeros = np.zeros(n, dtype=np.int64)
    all_keys = np.stack([c.key if c.key is not None else zeros for c in rules.cols], axis=1).ravel()
    if read is not None and not np.array_equal(all_keys[leads.ravel()], read):
        raise _Changed("game.array_transitions() changed arrays it had returned (states already "
                               "asked about now lead elsewhere); it must not write to them afterwards")
    if target is not None:
        leads &= target < 0
    kept = leads.ravel()
    out_keys = all_keys[kept]
    out_action = act_num[:, col_action].ravel()[kept]
    found = _number(out_keys, keys, index, tab, max_states)
    tab.players.append(rules.player.astype(np.int8))
    tab.act_count.append(grid_allowed.sum(axis=1, dtype=np.int32))
    label_objects = np.empty(n_acts, dtype=object)
    for j, lab in enumerate(rules.labels):
        label_objects[j] = lab
    tab.labels.extend(label_objects[np.flatnonzero(grid_allowed.ravel()) % n_acts].tolist())
    tab.out_count.append(np.bincount(out_action, minlength=n_batch_actions).astype(np.int32))
    tab.out_target.append(found)
    tab.out_code.append(np.stack(codes, axis=1).ravel()[kept])
    tab.term_class.append(_fold_terminals(rules.cols, act_num, codes, n_batch_actions, rules.payoffs, tab))
    tab.n_actions += n_batch_actions
    tab.n_outcomes += len(found)


def _ask(game: Any, rows: I64, keys: _Keys) -> object:
    """``game.array_transitions(rows)``, its exceptions naming the batch."""
    try:
        return game.array_transitions(rows)
    except Exception as exc:  # (the words of checks.call, built only when needed)
        where = f"(on {len(rows)} states from {_show(keys.state(rows[0]))})"
        user_error("game.array_transitions()", where, exc)


def _rules(tr: object, rows: I64, keys: _Keys) -> _Rules:
    """Check what ``array_transitions`` says about ``rows`` (``tr``), as the plain
    compiler checks ``player``, ``actions`` and ``outcomes``."""
    n = len(rows)
    where = f"(game.array_transitions() on {n} states from {_show(keys.state(rows[0]))})"
    if not isinstance(tr, ArrayTransitions):
        raise InvalidGameError(f"game.array_transitions() returned {_show(tr)}; expected a "
                               "tbsg.ArrayTransitions")
    player = _int_array(tr.player, (n,), "ArrayTransitions.player", where)
    bad = np.flatnonzero((player != 0) & (player != 1))
    if bad.size:
        r = int(bad[0])
        raise not_a_player(int(player[r]), keys.state(rows[r]), "game.array_transitions() gives player")
    acts = tr.actions
    if not isinstance(acts, tuple) or not acts or not all(isinstance(a, ArrayAction) for a in acts):
        raise InvalidGameError("ArrayTransitions.actions must be a non-empty tuple of tbsg.ArrayAction "
                               f"{where}")
    labels = [a.label for a in acts]
    distinct_actions(labels, where)
    payoffs = _terminals(tr.terminals, where)
    allowed = [_allowed(act, n, where) for act in acts]
    none = np.flatnonzero(~np.logical_or.reduce(allowed))
    if none.size:
        raise no_actions(keys.state(rows[int(none[0])]), "game.array_transitions() allows")
    cols = [_column(j, act.label, o, out, allowed[j], n, len(payoffs), keys, rows, where)
            for j, act in enumerate(acts) for o, out in enumerate(_outcome_tuple(act, where))]
    _check_sums(cols, allowed, labels, lambda r: keys.state(rows[r]))
    return _Rules(rows=rows, player=player, labels=labels, payoffs=payoffs, allowed=allowed, cols=cols)


def _number(out_keys: I64, keys: _Keys, index: _Index, tab: _Tables, max_states: int) -> IndexArray:
    """State numbers of the successor keys ``out_keys``, numbering the new ones in the
    order of their first occurrence (the plain order) and recording them in ``tab``."""
    found = index.find(out_keys)
    unknown = np.flatnonzero(found < 0)
    if not unknown.size:
        return found
    unknown_keys = out_keys[unknown]
    new = unknown_keys[index.first_new(unknown_keys)]  # in order of first occurrence
    if tab.n_states + len(new) > max_states:
        raise state_limit(max_states, keys.state(keys.decode(new[max_states - tab.n_states :])[0]))
    index.add(new, np.arange(tab.n_states, tab.n_states + len(new), dtype=np.int64))
    found[unknown] = index.find(unknown_keys)
    end = tab.n_states + len(new)
    if end > len(tab.keys):
        grown = np.empty(max(2 * len(tab.keys), end), dtype=np.int64)
        grown[: tab.n_states] = tab.keys[: tab.n_states]
        tab.keys = grown
    tab.keys[tab.n_states : end] = new
    tab.n_states = end
    return found


def _allowed(act: ArrayAction, n: int, where: str) -> Bools:
    if act.allowed is None:
        return np.ones(n, dtype=bool)
    m = np.asarray(act.allowed)
    if m.dtype != np.bool_ or m.shape != (n,):
        raise InvalidGameError(f"ArrayAction.allowed of action {_show(act.label)} {where} must be "
                               f"a bool array of shape ({n},), got {m.dtype} {m.shape}")
    return m


def _intern(cols: list[_Column], target: npt.NDArray[np.int64] | None, interner: Interner,
            n: int) -> list[npt.NDArray[np.int32]]:
    """Probability codes of every column's entries, interned in the plain compiler's order:
    each new value at its first entry, each merged sum at the entry that completes it."""
    events: list[tuple[int, int, Fraction]] = []  # (flat position, 0 value / 1 sum, value)
    values: list[list[Fraction]] = []  # per column, its distinct values
    uniq: list[npt.NDArray[Any]] = []  # and their numerators
    for c, col in enumerate(cols):
        vals, firsts, u = _distinct_values(col)
        values.append(vals)
        uniq.append(u)
        events.extend((r * len(cols) + c, 0, v) for v, r in zip(vals, firsts, strict=True)
                      if (v.numerator, v.denominator) not in interner.by_value)
    merged = {} if target is None else _merged_sums(cols, target, events)
    events.sort(key=lambda e: (e[0], e[1]))
    for _, _, v in events:
        interner.code(v)
    codes = []
    for c, col in enumerate(cols):
        if not values[c]:
            codes.append(np.zeros(n, dtype=np.int32))
        elif col.num is None:
            codes.append(np.full(n, interner.code(values[c][0]), dtype=np.int32))
        else:
            lut = np.array([interner.code(v) for v in values[c]], dtype=np.int32)
            pos = np.searchsorted(uniq[c], col.num)
            np.minimum(pos, len(lut) - 1, out=pos)
            codes.append(lut[pos])
    for (r, a), total in merged.items():
        codes[a][r] = interner.code(total)
    return codes


def _distinct_values(col: _Column) -> tuple[list[Fraction], list[int], npt.NDArray[Any]]:
    """The distinct probabilities of a column's valid entries, ascending, with the row of
    each one's first entry and their numerators."""
    if col.num is None:
        const = cast("Fraction", col.const)
        first = int(np.argmax(col.valid)) if const > 0 else -1
        vals = [const] if first >= 0 and col.valid[first] else []
        return vals, [first] if vals else [], np.zeros(0, dtype=np.int64)
    rv = np.flatnonzero(col.valid)
    u, fi = np.unique(col.num[rv], return_index=True)
    return [Fraction(int(x), col.den) for x in u.tolist()], rv[fi].tolist(), u


def _merged_sums(cols: list[_Column], target: npt.NDArray[np.int64], events: list[tuple[int, int, Fraction]]
                 ) -> dict[tuple[int, int], Fraction]:
    """The probability of each repeated successor, ``(row, first column) -> sum``, with
    an event for each partial sum at the entry that completes it (appended to ``events``)."""
    merged: dict[tuple[int, int], Fraction] = {}
    for r in np.flatnonzero((target >= 0).any(axis=1)).tolist():
        cum: dict[int, Fraction] = {}
        for c in np.flatnonzero(target[r] >= 0).tolist():
            a = int(target[r, c])
            total = cum.get(a, _prob(cols[a], r)) + _prob(cols[c], r)
            cum[a] = total
            events.append((r * len(cols) + c, 1, total))
        for a, total in cum.items():
            merged[r, a] = total
    return merged


def _outcome_tuple(act: ArrayAction, where: str) -> tuple[ArrayOutcome, ...]:
    outs = act.outcomes
    if not isinstance(outs, tuple) or not outs or not all(isinstance(o, ArrayOutcome) for o in outs):
        raise InvalidGameError(f"ArrayAction.outcomes of action {_show(act.label)} {where} must be a "
                               "non-empty tuple of tbsg.ArrayOutcome")
    return outs


def _terminals(terms: object, where: str) -> list[Fraction]:
    """Payoffs of the terminals of a batch, each checked as the plain compiler checks it."""
    if not isinstance(terms, tuple) or not all(type(t) is Terminal for t in terms):
        raise InvalidGameError(f"ArrayTransitions.terminals must be a tuple of tbsg.Terminal {where}")
    return [check_terminal(t, where) for t in terms]


def _column(j: int, action: object, o: int, out: ArrayOutcome, allowed: Bools, n: int, n_terms: int,
            keys: _Keys, rows: I64, where: str) -> _Column:
    """Check one outcome of one action over the batch and compute its entries."""
    label = f"outcome {o} of action {_show(action)}"
    here = f"({label}) {where}"
    num, den, const = _probabilities(out.probability, n, label, where, lambda r: keys.state(rows[r]))
    if num is None:
        valid = allowed if cast("Fraction", const) > 0 else np.zeros(n, dtype=bool)
        negative = np.flatnonzero(allowed) if cast("Fraction", const) < 0 else np.zeros(0, dtype=np.int64)
    else:
        valid = allowed & (num > 0)
        negative = np.flatnonzero(allowed & (num < 0))
    if negative.size:
        r = int(negative[0])
        raise negative_probability(_show(_prob_of(num, den, const, r)), label, at(keys.state(rows[r])))
    terminal = None
    ends = np.zeros(n, dtype=bool)
    if out.terminal is not None:
        terminal = _int_array(out.terminal, (n,), "ArrayOutcome.terminal", here)
        bad = np.flatnonzero(valid & ((terminal < -1) | (terminal >= n_terms)))
        if bad.size:
            r = int(bad[0])
            raise InvalidGameError(f"terminal index {int(terminal[r])} of {label} {at(keys.state(rows[r]))} "
                                   f"is not -1 or one of the {n_terms} ArrayTransitions.terminals")
        ends = valid & (terminal >= 0)
    leads = valid & ~ends
    key = _successor_keys(out, leads, label, where, keys, rows)
    return _Column(action=j, num=num, den=den, const=const, valid=valid, ends=ends, leads=leads,
                   terminal=terminal, key=key)


def _probabilities(p: object, n: int, label: str, where: str, state: Callable[[int], object]
                   ) -> tuple[npt.NDArray[Any] | None, int, Fraction | None]:
    """An outcome's probability over the batch, read exactly: ``(numerators, denominator,
    None)`` for a pair of numerators and their denominator, ``(None, denominator, value)``
    for one number that holds for every row."""
    if not isinstance(p, tuple):
        const = EXACT.read(p, f"probability of {label} {where}")
        return None, const.denominator, const
    here = f"({label}) {where}"
    if len(p) != 2:
        raise InvalidGameError(f"the probability of {label} {where} must be a Fraction, an int or "
                               "(numerators, denominator)")
    num = _numerators(p[0], n, here, state)
    d = p[1]
    if isinstance(d, (float, np.floating)):
        raise ExactnessError(f"probability denominator {_show(d)} {here} is a float; use an int")
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or int(d) < 1:
        raise InvalidGameError(f"probability denominator {here} must be an int >= 1, got {_show(d)}")
    den = int(d)
    return (num.astype(object) if den >= INT64_SAFE else num), den, None


def _successor_keys(out: ArrayOutcome, leads: Bools, label: str, where: str, keys: _Keys, rows: I64
                    ) -> I64 | None:
    """The keys of an outcome's successors (meaningful where it ``leads`` to a state), or
    None if it has no successor array; checked to lie within ``array_shape``."""
    if out.successor is None:
        if out.terminal is None:
            raise InvalidGameError(f"{label} {where} has neither a successor nor a terminal array")
        bad = np.flatnonzero(leads)
        if bad.size:
            raise InvalidGameError(f"{label} {at(keys.state(rows[int(bad[0])]))} goes on (terminal -1) "
                                   "but has no successor array")
        return None
    succ = _int_array(out.successor, (len(rows), keys.d), "ArrayOutcome.successor", f"({label}) {where}")
    bad = np.flatnonzero(leads & keys.outside(succ))
    if bad.size:
        r = int(bad[0])
        raise InvalidGameError(f"successor {_show(tuple(int(x) for x in succ[r]))} of {label} "
                               f"{at(keys.state(rows[r]))} lies outside array_shape {_show(keys.shape)}")
    return keys.encode(succ)


def _prob(col: _Column, r: int) -> Fraction:
    return _prob_of(col.num, col.den, col.const, r)


def _prob_of(num: npt.NDArray[Any] | None, den: int, const: Fraction | None, r: int) -> Fraction:
    if const is not None or num is None:
        return cast("Fraction", const)
    return Fraction(int(num[r]), den)


def _check_sums(cols: list[_Column], allowed: list[Bools], labels: list[Any],
                state: Callable[[int], object]) -> None:
    """Probabilities of every allowed action sum to exactly 1 (integer sums per action)."""
    n, n_acts = len(allowed[0]), len(allowed)
    bad = np.zeros((n, n_acts), dtype=bool)
    for j in range(n_acts):
        mine = [c for c in cols if c.action == j]
        fixed = sum((c.const for c in mine if c.const is not None), _ZERO)
        varying = [c for c in mine if c.num is not None]
        if not varying:
            if fixed != 1:
                bad[:, j] = allowed[j]
            continue
        lcm = fixed.denominator
        for c in varying:
            lcm = math.lcm(lcm, c.den)
        wide = lcm * (len(varying) + 1) >= INT64_SAFE or any(c.num.dtype == object for c in varying)  # type: ignore[union-attr]
        kind: Any = object if wide else np.int64
        total: npt.NDArray[Any] = np.full(n, fixed.numerator * (lcm // fixed.denominator), dtype=kind)
        over = np.zeros(n, dtype=bool)
        for c in varying:
            num = cast("npt.NDArray[Any]", c.num)
            above = num > c.den  # a probability above 1 (int64 products stay bounded)
            over |= above
            total = total + np.where(above, 0, num).astype(kind) * (lcm // c.den)
        bad[:, j] = allowed[j] & (over | (total != lcm))
    hit = np.flatnonzero(bad.ravel())
    if hit.size:
        r, j = divmod(int(hit[0]), n_acts)
        exact_total = sum((_prob(c, r) for c in cols if c.action == j), _ZERO)
        raise bad_sum(_show(exact_total), state(r), labels[j])


def _repeats(cols: list[_Column], n_acts: int, n: int) -> npt.NDArray[np.int64] | None:
    """Per entry, the column of the earlier entry of the same action with the same
    successor (the first one), or -1; None if there is no repeat in the batch."""
    target: npt.NDArray[np.int64] | None = None
    for j in range(n_acts):
        mine = [c for c, col in enumerate(cols) if col.action == j and col.key is not None]
        m = len(mine)
        if m < 2:
            continue
        # entries that lead nowhere get distinct negative keys: never equal to anything
        k = [np.where(cols[c].leads, cast("I64", cols[c].key), -1 - i) for i, c in enumerate(mine)]
        if m <= 8 and not any(bool((k[a] == k[b]).any()) for b in range(m) for a in range(b)):
            continue  # no repeat: the common case, told by m (m - 1) / 2 comparisons
        keys = np.stack(k, axis=1)
        order = np.argsort(keys, axis=1, kind="stable")
        ks = np.take_along_axis(keys, order, axis=1)
        same = ks[:, 1:] == ks[:, :-1]
        if not same.any():
            continue
        if target is None:
            target = np.full((n, len(cols)), -1, dtype=np.int64)
        # start of the run of equal keys each sorted position belongs to: its first
        # column, as the sort is stable
        start = np.where(np.c_[np.ones(n, dtype=bool), ~same], np.arange(m), 0)
        start = np.maximum.accumulate(start, axis=1)
        first_col = np.take_along_axis(order, start, axis=1)
        cols_arr = np.array(mine, dtype=np.int64)
        rr, pp = np.nonzero(np.c_[np.zeros(n, dtype=bool), same])
        target[rr, cols_arr[order[rr, pp]]] = cols_arr[first_col[rr, pp]]
    return target


def _fold_terminals(cols: list[_Column], act_num: I64, codes: list[npt.NDArray[np.int32]], n_actions: int,
                    payoffs: list[Fraction], tab: _Tables) -> npt.NDArray[np.int32]:
    """Per action of the batch, the class of its ``(s_k, c_k)`` (sum of ``p`` and of ``p r``
    over its outcomes that end play), or -1 if none ends play."""
    out = np.full(n_actions, -1, dtype=np.int32)
    ending = [c for c, col in enumerate(cols) if col.terminal is not None and col.ends.any()]
    if not ending:
        return out
    dp = 1
    for c in ending:
        dp = math.lcm(dp, cols[c].den)
    dr = 1
    for r in payoffs:
        dr = math.lcm(dr, r.denominator)
    scaled = [r.numerator * (dr // r.denominator) for r in payoffs]
    # above every |sum of p r| over one action, scaled (payoffs may exceed 1 or be negative)
    bound = dp * max(dr, *map(abs, scaled)) * (len(ending) + 1)
    wide = bound >= INT64_SAFE or any(cols[c].num is not None and cols[c].num.dtype == object  # type: ignore[union-attr]
                                       for c in ending)
    kind: Any = object if wide else np.int64
    r_num = np.array(scaled, dtype=kind)
    # (s, c) -> s * width + c + low: one int64 per pair, ordered as the pairs are
    low = bound if min(scaled, default=0) < 0 else 0
    width = bound + 1 + low
    n = len(act_num)
    for j in sorted({cols[c].action for c in ending}):
        stop: npt.NDArray[Any] = np.zeros(n, dtype=kind)
        const: npt.NDArray[Any] = np.zeros(n, dtype=kind)
        ends = np.zeros(n, dtype=bool)
        for c in ending:
            col = cols[c]
            if col.action != j:
                continue
            term = cast("I64", col.terminal)
            p = col.num.astype(kind) if col.num is not None else cast("Fraction", col.const).numerator
            pn = np.where(col.ends, p, 0).astype(kind) * (dp // col.den)
            stop = stop + pn
            const = const + pn * r_num[np.where(col.ends, term, 0)]
            ends |= col.ends
            tab.payoffs_met.update(payoffs[t] for t in np.unique(term[col.ends]).tolist())
            tab.term_prob_codes.update(np.unique(codes[c][col.ends]).tolist())
            tab.n_terms += int(col.ends.sum())
        rows = np.flatnonzero(ends)
        s_n, c_n = stop[rows], const[rows]
        if not wide and width * (bound + 1) < INT64_SAFE:  # one int64 per (stop, const) pair
            _, first, inverse = np.unique(s_n * width + c_n + low, return_index=True,
                                                 return_inverse=True)
            ids = np.array([_class(tab, int(s_n[f]), int(c_n[f]), dp, dr) for f in first.tolist()],
                           dtype=np.int64)
            out[act_num[rows, j]] = ids[inverse.reshape(-1)]
            continue
        memo: dict[tuple[int, int], int] = {}
        ids_list = []
        for pair in zip(s_n.tolist(), c_n.tolist(), strict=True):
            cid = memo.get(pair)
            if cid is None:
                cid = memo[pair] = _class(tab, pair[0], pair[1], dp, dr)
            ids_list.append(cid)
        out[act_num[rows, j]] = np.array(ids_list, dtype=np.int64)
    return out


def _class(tab: _Tables, stop_n: int, const_n: int, dp: int, dr: int) -> int:
    """Number of the class ``(s_k, c_k) = (stop_n / dp, const_n / (dp dr))``."""
    key = (Fraction(stop_n, dp), Fraction(const_n, dp * dr))
    return tab.classes.setdefault(key, len(tab.classes))


def _narrow(x: IndexArray) -> IndexArray:
    """int32 when every entry fits, as the plain compiler stores its index arrays."""
    if len(x) == 0 or int(x.max()) < 2**31:
        return x.astype(np.int32, copy=False)
    return x


def _joined(parts: list[Any]) -> Any:
    """The batches' pieces of one column as one array; the pieces are let go."""
    out = np.concatenate(parts)
    parts.clear()
    return out


def _assemble(tab: _Tables, keys: _Keys, interner: Interner) -> CompiledGame[Any, Any]:
    """The compiled game from the batches' pieces: the arrays first (each column's pieces
    freed as it is joined), then the state objects, so few temporaries coexist with them."""
    n = tab.n_states
    arrays = _arrays(tab, interner, n)
    # the states: one list of Python ints per coordinate, then one tuple per state, in C
    columns = []
    rest = tab.keys[:n]
    tab.keys = np.zeros(0, dtype=np.int64)
    for w in keys.weights[:-1]:
        q, rest = np.divmod(rest, w)
        columns.append(q.tolist())
    columns.append(rest.tolist())
    del rest
    states = list(zip(*columns, strict=True)) if keys.kind is tuple \
        else list(map(cast("Callable[..., tuple[int, ...]]", tuple.__new__), repeat(keys.kind),
                      zip(*columns, strict=True)))
    del columns
    index = dict(zip(states, range(n), strict=True))
    return CompiledGame(states=states, index=index, act_labels=tab.labels, rationals=interner.values,
                        win_probability=all(0 <= r <= 1 for r in tab.payoffs_met), **arrays)


def _arrays(tab: _Tables, interner: Interner, n: int) -> dict[str, Any]:
    """The compiled game's arrays of the first ``n`` states (those whose rows the batches
    enumerated), joined from the batches' pieces."""
    act_count = _joined(tab.act_count)
    act_ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(act_count, out=act_ptr[1:])
    act_state = np.repeat(np.arange(n, dtype=np.int32 if n < 2**31 else np.int64), act_count)
    del act_count
    out_count = _joined(tab.out_count)
    out_ptr = np.zeros(len(out_count) + 1, dtype=np.int64)
    np.cumsum(out_count, out=out_ptr[1:])
    del out_count
    act_code, stop_code = _terminal_codes(tab, interner)
    return {"player": _joined(tab.players), "act_ptr": _narrow(act_ptr), "act_state": act_state,
            "out_ptr": _narrow(out_ptr), "out_target": _narrow(_joined(tab.out_target)),
            "out_code": _narrow(_joined(tab.out_code)), "act_code": act_code, "stop_code": stop_code}


def _terminal_codes(tab: _Tables, interner: Interner) -> tuple[IndexArray, IndexArray]:
    """Codes of ``c_k`` and ``s_k`` per action, interned in the plain compiler's order."""
    cls = _joined(tab.term_class)
    act_code = np.zeros(len(cls), dtype=np.int32)
    stop_code = np.zeros(len(cls), dtype=np.int32)
    if not tab.classes:
        return act_code, stop_code
    pairs = list(tab.classes)  # class id -> (stop, const)
    values = interner.values
    if fold_denominators((values[c].denominator for c in tab.term_prob_codes),
                         tab.payoffs_met, tab.n_terms + 1) is None:
        # the plain compiler sums in rationals, action by action: first occurrences
        has = cls >= 0
        distinct, first = np.unique(cls[has], return_index=True)
        for cid in distinct[np.argsort(first)].tolist():
            stop, const = pairs[cid]
            interner.code(const)
            interner.code(stop)
    else:  # ascending values, the stops first
        for v in sorted({p[0] for p in pairs}):
            interner.code(v)
        for v in sorted({p[1] for p in pairs}):
            interner.code(v)
    const_of = np.array([interner.code(p[1]) for p in pairs], dtype=np.int32)
    stop_of = np.array([interner.code(p[0]) for p in pairs], dtype=np.int32)
    has = cls >= 0
    act_code[has] = const_of[cls[has]]
    stop_code[has] = stop_of[cls[has]]
    return act_code, stop_code


_HOW = ("array_transitions is a fast path for the game player/actions/outcomes define, and both "
        "must describe the same game (compile_game(game, arrays=False) uses the plain protocol alone)")


def _check_against_protocol(game: Any, g: CompiledGame[Any, Any]) -> None:
    """A sample of states asked through the plain protocol must match the array form."""
    n = g.n_states
    head = list(range(min(n, SAMPLE // 2)))
    spread = np.unique(np.linspace(len(head), n - 1, SAMPLE - len(head)).astype(np.int64)).tolist() \
        if n > len(head) else []
    check_rows(game, g, sorted(set(head) | set(spread)))


def check_rows(game: Any, g: CompiledGame[Any, Any], numbers: Iterable[int]) -> None:
    """The states ``numbers`` of ``g``, compiled through the array form, asked through
    the plain protocol one by one (in Python: for a sample, or to find where two
    descriptions that are known to differ do)."""
    for i in numbers:
        why = _difference(_plain_row(game, g.states[i]), _compiled_row(g, i))
        if why is not None:
            raise InvalidGameError(f"the array form and the plain protocol disagree {at(g.states[i])}: "
                                   f"{why}; {_HOW}")


def check_every_state(game: Any, g: CompiledGame[Any, Any]) -> None:
    """Compare the array form of ``game`` with ``g``, its compiled plain protocol, at every
    state of ``g``; raise an :class:`~tbsg.errors.InvalidGameError` naming the first state
    where the two descriptions differ, and how.

    The plain compilation is the definition; the array form is asked about exactly its
    states, in its numbering, a batch at a time (the same checks and the same batch
    processing as :func:`compile_arrays`, with the known states numbered as ``g`` numbers
    them and the rationals coded as ``g`` codes them), so agreement is equality of the
    arrays: players, actions per state, labels, outcomes per action, successors, and the
    codes of probabilities and of the terminal constants. The array form is not explored
    beyond ``g``'s states: a successor that ``g`` does not have gets a number of its own,
    which differs from ``g``'s. Cost: :func:`compile_arrays` without the breadth-first
    bookkeeping and the state objects, plus a few vectorised comparisons.
    """
    n = g.n_states
    keys = _Keys(game, g.states[0])
    rows, m = _rows_of(g.states, keys)
    index = _Index(keys.size)
    known = np.full(n + 1024, -1, dtype=np.int64)  # the states' keys; -1: no key (beyond m)
    known[:m] = keys.encode(rows)
    index.add(known[:m], np.arange(m, dtype=np.int64))
    tab = _Tables(keys=known, n_states=n)
    interner = Interner(g.rationals)
    rows.flags.writeable = False
    for i in range(0, m, CHUNK):
        _batch(game, rows[i : i + CHUNK], keys, index, tab, interner, sys.maxsize)
    del index
    arrays = _arrays(tab, interner, m)
    first = _first_difference(g, arrays, tab.labels, m)
    if first is None:
        if m == n:
            return
        raise InvalidGameError(
            f"the array form cannot describe state {_show(g.states[m])}, which the plain protocol "
            f"reaches: the array form's states are tuples of {keys.d} ints within array_shape "
            f"{_show(keys.shape)}; {_HOW}")
    # the array form's compiled game: g's states, then the successors g does not have
    extra = keys.decode(tab.keys[n : tab.n_states])
    states = [*g.states, *(keys.state(r) for r in extra)]
    mine: CompiledGame[Any, Any] = CompiledGame(states=states, index={}, act_labels=tab.labels,
                                                rationals=interner.values, **arrays)
    why = _difference(_compiled_row(g, first), _compiled_row(mine, first)) or \
        "their compiled rows differ"
    raise InvalidGameError(f"the array form and the plain protocol disagree {at(g.states[first])}: "
                           f"{why}; {_HOW}")


def _rows_of(states: list[Any], keys: _Keys) -> tuple[I64, int]:
    """The states as int64 rows, as far as the array form can describe them: ``(rows, m)``
    with ``m`` the number of leading states that are tuples of ``d`` ints within
    ``array_shape`` (a state is such a tuple if it equals the tuple its row gives)."""
    n, d = len(states), keys.d
    try:
        flat = np.fromiter(chain.from_iterable(states), dtype=np.int64, count=n * d)
        rows = flat.reshape(n, d)
    except (TypeError, ValueError, OverflowError):
        rows = None
    if rows is not None and not keys.outside(rows).any():
        columns = rows.T.tolist()
        if list(zip(*columns, strict=True)) == states:
            return rows, n
    # some state is not such a tuple: find the first one, state by state
    good: list[list[int]] = []
    for s in states:
        try:
            row = [operator.index(x) for x in s]
            fits = len(row) == d and tuple(row) == s and all(
                0 <= x < w for x, w in zip(row, keys.shape, strict=True))
        except Exception:
            fits = False
        if not fits:
            break
        good.append(row)
    return np.array(good, dtype=np.int64).reshape(len(good), d), len(good)


def _first_difference(g: CompiledGame[Any, Any], a: dict[str, Any], labels: list[Any], m: int) -> int | None:
    """The first of the states ``0 .. m-1`` whose row in ``g`` differs from its row in the
    arrays ``a`` (with action ``labels``), or None."""
    g_count, a_count = np.diff(g.act_ptr[: m + 1]), np.diff(a["act_ptr"])
    bad = np.flatnonzero((g.player[:m] != a["player"]) | (g_count != a_count))
    first = int(bad[0]) if bad.size else m
    k = int(g.act_ptr[first])  # the actions of the states before it line up
    bad_act = (np.diff(g.out_ptr[: k + 1]) != np.diff(a["out_ptr"][: k + 1])) \
        | (g.act_code[:k] != a["act_code"][:k]) | (g.stop_code[:k] != a["stop_code"][:k])
    if g.act_labels[:k] != labels[:k]:
        bad_act[next(j for j in range(k) if not _same(g.act_labels[j], labels[j]))] = True
    hit = np.flatnonzero(bad_act)
    if hit.size:
        first = min(first, int(g.act_state[int(hit[0])]))
    o = int(g.out_ptr[int(g.act_ptr[first])])  # and so do the outcomes of their actions
    bad_out = np.flatnonzero((g.out_target[:o] != a["out_target"][:o])
                             | (g.out_code[:o] != a["out_code"][:o]))
    if bad_out.size:
        k_out = int(np.searchsorted(g.out_ptr, int(bad_out[0]), side="right")) - 1
        first = min(first, int(g.act_state[k_out]))
    return first if first < m else None


def _same(x: object, y: object) -> bool:
    try:
        return bool(x == y)
    except Exception:
        return False


_Row = tuple[object, tuple[object, ...], list[tuple[list[tuple[object, Fraction]], Fraction, Fraction]]]
"""A state's rules: player, actions, and per action its successors with their
probabilities (merged, in order of first occurrence), the probability of ending play
and the expected terminal payoff."""


def _plain_row(game: Any, s: object) -> _Row:
    """State ``s`` as the plain protocol describes it, asked now (and checked as the plain
    compiler checks it)."""
    who = call("game.player()", at(s), lambda: player_function(game)(s))
    acts = tuple(call("game.actions()", at(s), lambda: game.actions(s)))
    per_action = []
    for a in acts:
        outs: list[object] = call("game.outcomes()", at_action(s, a), partial(_listed, game.outcomes, s, a))
        succ: dict[object, Fraction] = {}
        stop = const = _ZERO
        for item in outs:
            if not isinstance(item, tuple) or len(item) != 2:
                raise not_a_pair(item, s, a)
            p, nxt = item
            pf = probability(p, nxt, s, a, EXACT)
            if pf is None:
                continue
            if isinstance(nxt, Terminal):
                stop += pf
                const += pf * nxt.payoff
            else:
                succ[nxt] = succ.get(nxt, _ZERO) + pf
        per_action.append((list(succ.items()), stop, const))
    return who, acts, per_action


def _listed(outcomes: Callable[[object, object], Iterable[object]], s: object, a: object) -> list[object]:
    return list(outcomes(s, a))


def _compiled_row(g: CompiledGame[Any, Any], i: int) -> _Row:
    """State ``i`` as the compiled game ``g`` holds it."""
    acts = g.actions_of(i)
    per_action = []
    values = g.rationals  # (read through the codes: a sample need not decode every action)
    for k in acts:
        o0, o1 = int(g.out_ptr[k]), int(g.out_ptr[k + 1])
        succ = [(g.states[int(t)], g.out_prob[o])
                for o, t in zip(range(o0, o1), g.out_target[o0:o1].tolist(), strict=True)]
        per_action.append((succ, values[int(g.stop_code[k])], values[int(g.act_code[k])]))
    return int(g.player[i]), tuple(g.act_labels[k] for k in acts), per_action


def _difference(plain: _Row, arrays: _Row) -> str | None:
    """How the plain protocol's row differs from the array form's, or None."""
    who, acts, outs = plain
    mine, my_acts, my_outs = arrays
    if isinstance(who, bool) or not isinstance(who, (int, np.integer)) or int(who) != mine:
        return f"player() says {_show(who)}, array_transitions {_show(mine)}"
    if acts != my_acts:
        return f"actions() says {_show(acts)}, array_transitions {_show(my_acts)}"
    for a, (succ, stop, const), (my_succ, my_stop, my_const) in zip(acts, outs, my_outs, strict=True):
        if succ != my_succ:
            return (f"action {_show(a)}: outcomes() leads to {_show(succ)}, "
                    f"array_transitions to {_show(my_succ)}")
        if (stop, const) != (my_stop, my_const):
            return (f"action {_show(a)}: outcomes() ends play with probability {_show(stop)} and "
                    f"expected payoff {_show(const)}, array_transitions with {_show(my_stop)} "
                    f"and {_show(my_const)}")
    return None
