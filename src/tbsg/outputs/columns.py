"""The columns of a state table, computed from a solution's arrays all at once.

Why: a table of a large game has one row per state (Pig to 50: 115,444 of them), and
building a Python object per row, each asking the solution for its own action values,
costs several times the solve. Every column of a table is instead one pass over the
solution's compiled arrays (:mod:`tbsg.engine.compiled`), at the table's states (the
positions ``idx`` into the solution's states), and a :class:`~tbsg.outputs.tables.Row`
is made only when a user reads one.

Mathematics
-----------
With ``v`` the solution's values to player 0 and ``Q(k) = c_k + sum_o p_o v(t_o)`` the
value to player 0 of the flat action ``k`` (:meth:`tbsg.engine.bellman.ExactActions.qx`,
the solvers' exact Bellman step, computed once for every action of the table's states),
the columns of state ``i`` are

* ``Q(k) = v(i)`` for every optimal action ``k`` of ``i``: the optimal actions are the
  played action and the ties of the Bellman operator, and a solution plays actions whose
  value is the state's (conditions (a) and (b) of :mod:`tbsg.engine.optimality`, which the
  solvers establish and :func:`tbsg.verify` checks), so only the other actions are summed;
* ``value_to_move``: ``v(i)`` where player 0 moves, ``c - v(i)`` where player 1 does
  (``c`` the game's constant sum, :attr:`tbsg.Solution.constant_sum`);
* ``margin``: with ``q`` the mover's values of the actions at ``i`` sorted so that
  ``q(a1) >= q(a2) >= ...``, ``q(a1) - q(a2)``. Player 1's mover values are ``c - Q``, so
  her two largest are ``c`` minus player 0's two smallest and the margin is
  ``Q(second smallest) - Q(smallest)``: the same exact number, with no subtraction from
  ``c``; with two actions it is ``|Q(a) - Q(b)|`` for either mover.

The margin's decimal (the float nearest to it, or its correctly rounded digits) does not
need the exact margin, whose lowest terms cost a gcd of numbers of the size of the values'
denominators per state (Risk or Safety to 60: 212,400 of them, of up to 1,900 bits, several
times the solve). :func:`fixed_margins` bounds each two-action margin within a few units of
``2^-128`` from the values rounded down to 128 binary places, with integers of about that
size; rounding is monotone, so where both ends of a state's interval round to the same
float (or digits), so does the margin, and only the other states take the exact margin:
margins within a few units of ``2^-128`` of a point halfway between two floats (every
margin below about ``2^-73`` is), and states with more than two actions.
A tie needs no arithmetic: both actions are optimal, their values are the state's, and the
margin is exactly 0.

The exact values stay in the arithmetic backend's type (:mod:`tbsg.engine._backend`) until
a row or a ``Fraction`` column is asked for; their text (``p/q``) and decimals are written
from the backend's numbers, which give the same digits as ``Fraction`` does (they are the
same rational in lowest terms) and the same correctly rounded float. Turning a large
integer into decimal digits is most of an exact export's cost, and hashing a large rational
costs about as much, so values are told apart by object: the solvers store equal values as
one shared object where they can (Risk or Safety to 60: about 15,600 value objects for
219,600 states), and a column whose objects repeat is written once per object.

A float solution's columns are those of its proven bounds: the midpoint ``(lo + hi) / 2``
of each state's and each action's bounds, in the mover's view through
:func:`tbsg.results.floating.interval_to`, here on whole arrays with the same floating-point
operations (so every float equals the one the per-state queries give).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from functools import cached_property
from itertools import islice, repeat
from operator import attrgetter, floordiv, is_, lshift, sub
from typing import Any, Generic, NamedTuple, TypeVar, cast

import numpy as np
import numpy.typing as npt

from tbsg._util.digits import between_writer, decimal_writer, unlimited_digits
from tbsg.engine import _backend as bk
from tbsg.engine.bellman import ExactActions
from tbsg.engine.boundary import as_list
from tbsg.results import FloatSolution, Solution

__all__ = ["COLUMN_NAMES", "FixedMargins", "SolutionColumns", "at_positions", "fixed_margins", "flat_actions",
           "margins", "sorted_by_fields", "state_fields"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

COLUMN_NAMES = frozenset({"state", "player", "value", "value_to_move", "optimal", "action", "margin",
                          "lower", "upper", "action_values_to_move"})
"""Columns :class:`SolutionColumns` computes from arrays (others are read from rows)."""


def state_fields(states: Sequence[Any]) -> dict[str, npt.NDArray[np.object_]] | None:
    """Every field of ``states`` as an array, where they are ``NamedTuple`` s of one type
    (else ``None``).

    >>> from typing import NamedTuple
    >>> class P(NamedTuple):
    ...     x: int
    ...     y: tuple[int, int]
    >>> {k: v.tolist() for k, v in state_fields([P(1, (2, 3)), P(4, (5, 6))]).items()}
    {'x': [1, 4], 'y': [(2, 3), (5, 6)]}
    """
    kinds = set(map(type, states))
    if len(kinds) != 1:
        return None
    names: tuple[str, ...] = getattr(next(iter(kinds)), "_fields", ())
    if not names:
        return None
    # (fromiter: a field holding a tuple stays one object)
    return {name: np.fromiter(map(attrgetter(name), states), dtype=object, count=len(states))
            for name in names}


def sorted_by_fields(fields: dict[str, npt.NDArray[np.object_]]) -> list[int] | None:
    """The positions of states (given by :func:`state_fields`) in sorted order, where every
    field is an ``int`` (or ``bool``) of 64 bits: such ``NamedTuple`` s compare as their
    fields do, first to last, which is the order of a stable sort on the last field, then
    on the one before, ..., then on the first (``np.lexsort``); else ``None``.

    >>> sorted_by_fields({"a": np.array([2, 1, 1], dtype=object), "b": np.array([0, 5, 3], dtype=object)})
    [2, 1, 0]
    """
    keys = []
    for column in reversed(list(fields.values())):
        if not set(map(type, column)) <= {int, bool}:
            return None
        try:
            keys.append(column.astype(np.int64))
        except OverflowError:
            return None
    order: list[int] = np.lexsort(keys).tolist()
    return order


def flat_actions(act_ptr: IntArray, idx: IntArray) -> tuple[IntArray, IntArray]:
    """The flat actions of states ``idx``, state after state, and how many each state has.

    >>> ks, counts = flat_actions(np.array([0, 2, 3, 6]), np.array([2, 0]))
    >>> ks.tolist(), counts.tolist()
    ([3, 4, 5, 0, 1], [3, 2])
    """
    starts = act_ptr[idx]
    counts = act_ptr[idx + 1] - starts
    offsets = np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    return np.repeat(starts, counts) + offsets, counts


def margins(q: Sequence[Any], counts: Sequence[int], largest: Sequence[bool]) -> list[Any]:
    """Best minus second best of each consecutive group of ``counts[j]`` values in ``q``.

    Group ``j`` ranks by largest first where ``largest[j]`` and smallest first elsewhere
    (player 1's mover values are ``c - q``: module docstring); a group of one value has no
    margin (``None``). Works on exact numbers and on floats (the float tables pass the
    mover's values, all ``largest``); for two values it is ``|a - b|``, the same number
    either way, computed for all pairs in C-level passes (most states of the catalog's
    games have two actions).

    >>> margins([3, 1, 5, 2, 4, 7], [2, 1, 3], [True, True, False])
    [2, None, 2]
    """
    n = np.asarray(counts, dtype=np.int64)
    starts = np.cumsum(n) - n
    pairs = np.flatnonzero(n == 2)
    if len(pairs) == len(n):
        seq = list(q)
        return list(map(abs, map(sub, seq[0::2], seq[1::2])))
    out: list[Any] = [None] * len(n)
    at = starts[pairs].tolist()
    pair_margins = map(abs, map(sub, [q[i] for i in at], [q[i + 1] for i in at]))
    for j, m in zip(pairs.tolist(), pair_margins, strict=True):
        out[j] = m
    for j in np.flatnonzero(n > 2).tolist():
        ranked = sorted(q[starts[j]:starts[j] + n[j]], reverse=largest[j])
        out[j] = ranked[0] - ranked[1] if largest[j] else ranked[1] - ranked[0]
    return out


def _grouped(items: Sequence[Any], counts: Sequence[int]) -> list[tuple[Any, ...]]:
    """``items`` cut into consecutive tuples of ``counts[j]`` items."""
    it = iter(items)
    return [(next(it),) if n == 1 else tuple(islice(it, n)) for n in counts]


class SolutionColumns(Generic[S, A]):
    """Every column of a table of ``solution`` at its states ``idx`` (indices into
    ``solution.states``), each computed on first use, as lists in table order.

    Exact columns come as backend numbers (:meth:`raw`), as ``Fraction`` (:meth:`column`),
    as text (:meth:`exact_text`) or as correctly rounded floats (:meth:`decimals`).
    """

    def __init__(self, solution: Solution[S, A] | FloatSolution[S, A], idx: IntArray,
                 states: list[S], *, graph_states: bool = False,
                 graph_fields: dict[str, npt.NDArray[np.object_]] | None = None) -> None:
        self.solution = solution
        self.graph = solution.graph
        self.idx = idx
        self.states = states
        """The table's states, in order (as the caller named them)."""
        self.graph_states = graph_states
        """Whether :attr:`states` are the solution's own state objects (``graph.states[idx]``)."""
        self.exact = isinstance(solution, Solution)
        if graph_fields is not None:  # (:func:`state_fields` of the solution's states)
            self.__dict__["_graph_fields"] = graph_fields

    def __len__(self) -> int:
        return len(self.idx)

    # --- shared -------------------------------------------------------------------------

    @cached_property
    def player(self) -> list[int]:
        """Who moves at each state."""
        players: list[int] = self.graph.player[self.idx].tolist()
        return players

    @cached_property
    def _flat(self) -> tuple[IntArray, list[int]]:
        ks, counts = flat_actions(self.graph.act_ptr, self.idx)
        return ks, counts.tolist()

    @cached_property
    def optimal(self) -> list[tuple[A, ...]]:
        """Every optimal action (float: not ruled out) of each state, in the game's order."""
        sol = self.solution
        mask = sol.optimal if isinstance(sol, Solution) else sol._kept_mask
        ks = self._flat[0]
        keep = mask[ks]
        labels = self.graph.act_labels
        kept = list(map(labels.__getitem__, ks[keep].tolist()))
        if not len(ks):
            return []
        per_state = np.add.reduceat(keep.astype(np.int64), np.asarray(self._starts, dtype=np.int64))
        if len(kept) == len(per_state):  # one optimal action each (every state has one)
            return list(zip(kept))
        return _grouped(kept, per_state.tolist())

    @cached_property
    def action(self) -> list[A]:
        """The action the solution's strategy plays at each state."""
        labels = self.graph.act_labels
        return [labels[k] for k in self.solution.choice[self.idx].tolist()]

    @cached_property
    def action_labels(self) -> list[tuple[A, ...]]:
        """The actions of each state, in the game's order."""
        labels = self.graph.act_labels
        return _grouped([labels[k] for k in self._flat[0].tolist()], self._flat[1])

    def column(self, name: str) -> list[Any]:
        """The column ``name`` (one of :data:`COLUMN_NAMES`) as the rows hold it."""
        if name == "state":
            return self.states
        if name in ("player", "optimal", "action"):
            return cast(list[Any], getattr(self, name))
        if name == "action_values_to_move":
            return [dict(zip(a, q, strict=True)) for a, q in
                    zip(self.action_labels, _grouped(self._action_q_to_move, self._flat[1]), strict=True)]
        if not self.exact:
            return self._float_column(name)
        if name in ("lower", "upper"):
            return [None] * len(self)
        return [None if x is None else bk.to_fraction(x) for x in self.raw(name)]

    def field(self, attr: str) -> list[Any]:
        """The state field ``attr`` of every row (``NamedTuple`` states): read in the
        solution's order, where the states are its own, and then put in the table's (read
        in the order the states were made, the fields are mostly in the processor's cache;
        in sorted order, mostly not)."""
        if not self.graph_states:
            return list(map(attrgetter(attr), self.states))
        if self._graph_fields is None or attr not in self._graph_fields:
            return list(map(attrgetter(attr), self.states))
        fields: list[Any] = self._graph_fields[attr][self.idx].tolist()
        return fields

    @cached_property
    def _graph_fields(self) -> dict[str, npt.NDArray[np.object_]] | None:
        """:func:`state_fields` of the solution's states."""
        return state_fields(self.graph.states)

    # --- exact --------------------------------------------------------------------------

    def raw(self, name: str) -> list[Any]:
        """``value``, ``value_to_move`` or ``margin`` in the backend's type (``None``: no margin)."""
        return cast(list[Any], getattr(self, "_raw_" + name))

    @cached_property
    def _raw_value(self) -> list[Any]:
        return list(map(self._raws.__getitem__, self.idx.tolist()))

    @cached_property
    def _raws(self) -> Sequence[Any]:
        """The solution's values: of a solution that stores only its boundary values, every
        one recomputed once (:func:`~tbsg.engine.boundary.as_list`) for a table of most of
        the states, and the sequence itself, which recomputes a component when one of its
        values is asked for, for a table of a few (``where=``, the cheap way to tabulate
        part of a large game)."""
        raw = cast(Solution[S, A], self.solution)._raw_values
        return raw if 2 * len(self.idx) < len(raw) else as_list(raw)

    @cached_property
    def _c(self) -> Any:
        return bk.from_fraction(cast(Solution[S, A], self.solution).constant_sum)

    @cached_property
    def _shared(self) -> tuple[list[Any], dict[str, IntArray]] | None:
        """The distinct objects of the columns ``value`` and ``value_to_move`` (the values,
        then ``c - x`` of each value where player 1 moves) and each column's positions
        among them, where large values repeat as objects (:func:`_repeats`); else ``None``.

        A solution's equal values are mostly one object, and ``value_to_move`` is the value
        itself where player 0 moves: each distinct object is converted (to text, to a
        float) once for both columns."""
        raw = self._raw_value
        found = _distinct(raw) if _repeats(raw) else None
        if found is None:
            return None
        objs, index = found
        moved = np.asarray(self.player, dtype=np.int64) != 0
        at = np.unique(index[moved])
        c = self._c
        objs += [c - objs[i] for i in at.tolist()]
        shifted = np.full(len(objs), -1, dtype=np.int64)
        shifted[at] = np.arange(len(objs) - len(at), len(objs), dtype=np.int64)
        return objs, {"value": index, "value_to_move": np.where(moved, shifted[index], index)}

    def _each_value(self, name: str, key: str, fn: Callable[[Any], Any]) -> list[Any]:
        """``fn`` of each value of the exact column ``name`` (``None`` kept), called once per
        distinct object (:attr:`_shared`, its results kept under ``key`` for both value
        columns; :func:`_each_object` elsewhere)."""
        shared = self._shared if name in ("value", "value_to_move") else None
        if shared is None:
            return _each_object(fn, self.raw(name))
        objs, index = shared
        if key not in self._converted:
            self._converted[key] = np.fromiter(map(fn, objs), dtype=object, count=len(objs))
        spread: list[Any] = self._converted[key][index[name]].tolist()
        return spread

    @cached_property
    def _converted(self) -> dict[str, npt.NDArray[np.object_]]:
        """The results of :meth:`_each_value` on the distinct objects, by key."""
        return {}

    @cached_property
    def _raw_value_to_move(self) -> list[Any]:
        if self._shared is not None:
            return self._each_value("value_to_move", "object", lambda x: x)
        c = self._c
        values = self._raw_value
        moved = [v for v, p in zip(values, self.player, strict=True) if p]
        if not moved:
            return values
        other = iter(_each_object(lambda v: c - v, moved))
        return [next(other) if p else v for v, p in zip(values, self.player, strict=True)]

    @cached_property
    def _q(self) -> list[Any]:
        """``Q(k)`` of the flat actions of the table's states, state after state."""
        return self._action_values(self._flat[0])

    @cached_property
    def _bellman(self) -> ExactActions:
        return ExactActions(self.graph, list(self._raws), [])

    def _action_values(self, ks: IntArray) -> list[Any]:
        """``Q(k)`` of the flat actions ``ks``: ``v(s)`` for an optimal action of ``s`` (a tie,
        module docstring), else summed in the solver's exact arithmetic (the backend's,
        :class:`~tbsg.engine.bellman.ExactActions`)."""
        sol = cast(Solution[S, A], self.solution)
        raw = self._raws
        opt = sol.optimal[ks]
        tied = opt.tolist()
        owner = self.graph.act_state[ks].tolist()
        if all(tied):
            return [raw[i] for i in owner]
        moved = ks[~opt].tolist()
        q = iter(self._bellman.qx_many(moved))
        return [raw[i] if t else next(q) for t, i in zip(tied, owner, strict=True)]

    @cached_property
    def _raw_margin(self) -> list[Any]:
        return margins(self._q, self._flat[1], [p == 0 for p in self.player])

    def _exact_margins(self, at: list[int]) -> list[Any]:
        """The exact margins of the table's states at positions ``at`` (each with two or
        more actions), from the whole column where it is computed, else from these
        states' action values alone."""
        if not at:
            return []
        if "_raw_margin" in self.__dict__:
            return [self._raw_margin[j] for j in at]
        starts, counts = self._starts, self._flat[1]
        flat = [i for j in at for i in range(starts[j], starts[j] + counts[j])]
        if "_q" in self.__dict__:
            q_all = self._q
            q = [q_all[i] for i in flat]
        else:
            q = self._action_values(self._flat[0][np.asarray(flat, dtype=np.int64)])
        return margins(q, [counts[j] for j in at], [self.player[j] == 0 for j in at])

    @cached_property
    def _margin_bounds(self) -> FixedMargins:
        """:func:`fixed_margins` of the table's states."""
        sol = cast(Solution[S, A], self.solution)
        ks, counts = self._flat
        return fixed_margins(self.graph, self._fixed_values, sol.optimal, self.idx, ks, counts)

    @cached_property
    def _fixed_values(self) -> npt.NDArray[np.object_]:
        """``X(v)`` (:func:`fixed_margins`) of every state of the solution, from the
        table's distinct value objects (:attr:`_shared`) where the table has every state
        of the solution once."""
        raw = self._raws
        shared = self._shared if self.graph_states and len(self.idx) == len(raw) else None
        if shared is None:
            return np.array(_fixed_values(raw), dtype=object)
        objs, index = shared
        distinct = int(index["value"].max(initial=-1)) + 1  # (the values come first)
        fixed = np.fromiter(map(_fixed, objs[:distinct]), dtype=object, count=distinct)
        out = np.empty(len(raw), dtype=object)
        out[self.idx] = fixed[index["value"]]
        return out

    def _margin_texts(self, digits: int) -> list[str | None]:
        """The margin of every state (``None``: a single action) as :func:`decimal_writer`
        writes it at ``digits`` digits: from :attr:`_margin_bounds` where every number of
        a state's interval has one text (:func:`~tbsg._util.digits.between_writer`), else
        from the exact margin."""
        write = decimal_writer(digits)

        def exact(x: Any) -> str:
            return write(x.numerator, x.denominator)
        if "_raw_margin" in self.__dict__:
            return _each_object(exact, self._raw_margin)
        fixed = self._margin_bounds
        out: list[str | None] = [None] * len(self)
        undecided = list(fixed.undecided)
        texts = map(between_writer(digits), fixed.lo.tolist(), fixed.hi.tolist(), repeat(fixed.scale))
        for j, text in zip(fixed.at.tolist(), texts, strict=True):
            if text is None:
                undecided.append(j)
            else:
                out[j] = text
        for j in fixed.ties:
            out[j] = write(0, 1)
        for j, m in zip(undecided, self._exact_margins(undecided), strict=True):
            out[j] = exact(m)
        return out

    def _margin_floats(self) -> list[float | None]:
        """The nearest float of every state's margin (``None``: a single action): where both
        ends of a state's interval (:attr:`_margin_bounds`) round to one float, that float
        (rounding is monotone), else the float of the exact margin.

        ``int / int`` rounds correctly, and so does ``float(int)``: where the scale is a
        power of two ``2^k``, ``float(end) 2^-k`` is the same float (the ends that decide
        are at least ``2^-k``, far above the subnormal range), with no division."""
        if "_raw_margin" in self.__dict__:
            return _each_object(nearest_float, self._raw_margin)
        fixed = self._margin_bounds
        k = fixed.scale.bit_length() - 1
        try:
            if fixed.scale == 1 << k and k < 900:
                low, high = (np.ldexp(end.astype(np.float64), -k) for end in (fixed.lo, fixed.hi))
            else:
                low, high = ((end / fixed.scale).astype(np.float64) for end in (fixed.lo, fixed.hi))
        except OverflowError:  # a margin beyond the float range
            low, high = np.zeros(len(fixed.at)), np.ones(len(fixed.at))
        same = low == high
        out = np.full(len(self), None, dtype=object)
        out[fixed.at[same]] = low[same]
        out[fixed.ties] = 0.0
        undecided = [*fixed.undecided, *fixed.at[~same].tolist()]
        out[undecided] = [nearest_float(x) for x in self._exact_margins(undecided)]
        floats: list[float | None] = out.tolist()
        return floats

    @cached_property
    def _action_q_to_move(self) -> list[Any]:
        if not self.exact:
            mids: list[Any] = self._float_q_to_move.tolist()
            return mids
        c = self._c
        who = np.repeat(np.asarray(self.player), self._flat[1]).tolist()
        return [bk.to_fraction(x if p == 0 else c - x) for x, p in zip(self._q, who, strict=True)]

    def exact_text(self, name: str, pos: Sequence[int] | None = None) -> list[str | None]:
        """``p/q`` (``p`` for an integer) of the values of an exact column at positions
        ``pos`` (default all), as ``str(Fraction)`` writes them, at any size. A column
        whose values repeat is written once per value object (:func:`_each_object`) and
        kept (its text is a list of a few shared strings); any other is written as asked."""
        raw = self.raw(name)
        with unlimited_digits():
            if name not in self._texts:  # decided once per column
                shared = name != "margin" and self._shared is not None
                self._texts[name] = self._each_value(name, "text", str) if shared or _repeats(raw) else None
            kept = self._texts[name]
            if kept is not None:
                return at_positions(kept, pos)
            return [None if x is None else str(x) for x in at_positions(raw, pos)]

    @cached_property
    def _texts(self) -> dict[str, list[str | None] | None]:
        """The kept text of each column whose values repeat (``None``: written as asked)."""
        return {}

    def rounded_text(self, name: str, digits: int, pos: Sequence[int] | None = None) -> list[str | None]:
        """The values of an exact column at positions ``pos`` as decimals of ``digits``
        significant digits correctly rounded from the exact value
        (:func:`~tbsg._util.digits.exact_decimal`), written from the backend's numbers in
        one decimal context, once per value object where they repeat."""
        write = decimal_writer(digits)
        if name == "margin":
            if digits not in self._rounded_margins:  # (an export asks chunk by chunk)
                self._rounded_margins[digits] = self._margin_texts(digits)
            return at_positions(self._rounded_margins[digits], pos)
        return _each_object(lambda x: write(x.numerator, x.denominator), at_positions(self.raw(name), pos))

    @cached_property
    def _rounded_margins(self) -> dict[int, list[str | None]]:
        """The margin's texts (:meth:`_margin_texts`) by number of digits."""
        return {}

    def decimal_cells(self, name: str, write: Callable[[float], str], key: str,
                      pos: Sequence[int] | None = None) -> list[str]:
        """``write`` of each of :meth:`decimals` at positions ``pos`` (``""`` for ``None``),
        once per value object where values repeat; kept under ``key`` (one per ``write``)."""
        cells = self._decimal_cells
        if (name, key) not in cells:
            if name == "margin":
                floats = self._decimals(name)
                cells[name, key] = ["" if x is None else write(x) for x in floats]
            else:
                cells[name, key] = self._each_value(name, f"decimal {key}", lambda x: write(float(x)))
        return at_positions(cells[name, key], pos)

    @cached_property
    def _decimal_cells(self) -> dict[tuple[str, str], list[str]]:
        return {}

    def decimals(self, name: str, pos: Sequence[int] | None = None) -> list[float | None]:
        """The values of an exact column at positions ``pos`` as the nearest floats
        (``float(Fraction)``)."""
        return at_positions(self._decimals(name), pos)

    @cached_property
    def _floats(self) -> dict[str, list[float | None]]:
        return {}

    def _decimals(self, name: str) -> list[float | None]:
        if name not in self._floats:
            # float() rounds both backends' numbers correctly (bk.to_float), and map calls it
            # from C; int / int rounds correctly too
            self._floats[name] = (self._margin_floats() if name == "margin"
                                  else self._each_value(name, "float", float))
        return self._floats[name]

    def row(self, j: int) -> dict[str, Any]:
        """The fields of the :class:`~tbsg.outputs.tables.Row` at position ``j`` (only its own
        numbers converted to ``Fraction``)."""
        start, n, player = self._starts[j], self._flat[1][j], self.player[j]
        if self.exact:
            if "_q" in self.__dict__:
                raw_q = self._q[start:start + n]
            else:  # this row's actions alone
                raw_q = self._action_values(self._flat[0][start:start + n])
            c = self._c
            q = [bk.to_fraction(x if player == 0 else c - x) for x in raw_q]
            values = {"value": bk.to_fraction(self._raw_value[j]),
                      "value_to_move": bk.to_fraction(self._raw_value_to_move[j]),
                      "margin": _fraction(margins(raw_q, [n], [player == 0])[0]),
                      "lower": None, "upper": None}
        else:
            q = self._float_q_to_move[start:start + n].tolist()
            values = {name: self._float_values[name][j] for name in
                      ("value", "value_to_move", "margin", "lower", "upper")}
        return dict(state=self.states[j], player=player, optimal=self.optimal[j], action=self.action[j],
                    action_values_to_move=dict(zip(self.action_labels[j], q, strict=True)), **values)

    @cached_property
    def _starts(self) -> list[int]:
        counts = np.asarray(self._flat[1], dtype=np.int64)
        starts: list[int] = (np.cumsum(counts) - counts).tolist()
        return starts

    # --- float --------------------------------------------------------------------------

    @cached_property
    def _bounds(self) -> tuple[FloatArray, FloatArray]:
        sol = cast(FloatSolution[S, A], self.solution)
        return sol.lower[self.idx], sol.upper[self.idx]

    @cached_property
    def _float_values(self) -> dict[str, list[Any]]:
        sol = cast(FloatSolution[S, A], self.solution)
        lo, hi = self._bounds
        v = (lo + hi) / 2
        to_move = np.where(np.asarray(self.player) == 0, v, float(sol.constant_sum) - v)
        margin = margins(self._float_q_to_move.tolist(), self._flat[1], [True] * len(self))
        return {"value": v.tolist(), "value_to_move": to_move.tolist(), "lower": lo.tolist(),
                "upper": hi.tolist(), "margin": margin}

    def _float_column(self, name: str) -> list[Any]:
        return self._float_values[name]

    @cached_property
    def _float_q_to_move(self) -> FloatArray:
        """Midpoints of every action's proven bounds, to the mover (:func:`interval_to`)."""
        sol = cast(FloatSolution[S, A], self.solution)
        lo_all, hi_all = sol._action_bounds
        ks, counts = self._flat
        lo, hi = lo_all[ks], hi_all[ks]
        mover1 = np.repeat(np.asarray(self.player) == 1, counts)
        if sol.win_probability:
            lo1, hi1 = _complement(hi, "down"), _complement(lo, "up")
        else:
            lo1, hi1 = -hi, -lo
        mid: FloatArray = np.where(mover1, (lo1 + hi1) / 2, (lo + hi) / 2)
        return mid


_FIXED_BITS = 128
"""Bits after the binary point of the fixed-point action values (:func:`fixed_margins`)."""


class FixedMargins(NamedTuple):
    """The margins of a table's states in fixed point (:func:`fixed_margins`)."""

    at: IntArray
    """Positions of the states with two actions, one of them optimal."""
    lo: npt.NDArray[np.object_]
    """For each of ``at``, an integer below ``m * scale`` (``m`` the state's exact margin)."""
    hi: npt.NDArray[np.object_]
    """For each of ``at``, an integer above ``m * scale``."""
    scale: int
    """``M 2^P``."""
    ties: list[int]
    """Positions of the states with two actions, both optimal: margin exactly 0."""
    undecided: list[int]
    """Positions of the states with more than two actions (or none optimal)."""


def fixed_margins(g: Any, fixed: npt.NDArray[np.object_], optimal: npt.NDArray[np.bool_], idx: IntArray,
                  ks: IntArray, counts: Sequence[int]) -> FixedMargins:
    """Open intervals around the margins of the states ``idx`` with two actions, in units of
    ``1 / (M 2^P)`` (``P`` = :data:`_FIXED_BITS`, ``M`` the least common denominator of the
    game's probabilities): ``ks`` are the states' flat actions, ``counts[j]`` for state
    ``j``, state after state; ``fixed`` holds ``X(v)`` (below) of every state's exact value
    and ``optimal`` the optimal mask of every flat action.

    With ``X(x) = floor(x 2^P)`` (``0 <= x 2^P - X(x) < 1``) and the integers ``w_o = M p_o``,
    the non-optimal action's ``T = M 2^P Q(k) = M 2^P (c_k + sum_o p_o v(t_o))`` exceeds
    ``F = M X(c_k) + sum_o w_o X(v(t_o))`` by less than ``M + sum_o |w_o|`` (and by no less
    than ``-sum_o |w_o|``). The other action is optimal, so its value is ``v(s)`` (module
    docstring), and ``M 2^P v(s)`` is within ``M`` of ``M X(v(s))``. The margin
    ``|v(s) - Q(k)|`` times ``M 2^P`` is therefore within ``E = 2 M + d max|w|`` of
    ``gap = |M X(v(s)) - F|`` (``d`` outcomes at most; ``||x| - |y|| <= |x - y|``):
    ``lo = gap - E``, ``hi = gap + E``. A state whose two actions are both optimal is a
    tie (margin exactly 0). Every step is an integer operation on numbers of about ``P``
    bits, where the exact margin's are of the size of the values' denominators.
    """
    n = np.asarray(counts, dtype=np.int64)
    starts = np.cumsum(n) - n
    two = np.flatnonzero(n == 2)
    first, second = optimal[ks[starts[two]]], optimal[ks[starts[two] + 1]]
    one = first ^ second
    undecided = np.concatenate([np.flatnonzero(n > 2), two[~(first | second)]])
    at = two[one]
    other = ks[np.where(first[one], starts[at] + 1, starts[at])]
    rationals = g.rationals
    probabilities = [rationals[c] for c in np.unique(g.out_code[flat_actions(g.out_ptr, other)[0]]).tolist()]
    m = math.lcm(*(p.denominator for p in probabilities))
    weights = [int(x * m) if x.denominator == 1 or m % x.denominator == 0 else 0 for x in rationals]
    degree = g.out_ptr[other + 1] - g.out_ptr[other]
    bound = 2 * m + int(degree.max(initial=0)) * max((abs(int(p * m)) for p in probabilities), default=0)
    q = _fixed_sums(g, other, fixed, np.array(weights, dtype=object),
                    np.array([m * _fixed(x) for x in rationals], dtype=object))
    gap = np.abs(fixed[idx[at]] * m - q)
    return FixedMargins(at, gap - bound, gap + bound, m << _FIXED_BITS, two[first & second].tolist(),
                        sorted(undecided.tolist()))


def _fixed(x: Any) -> int:
    """``floor(x 2^P)`` as a Python integer (``P`` = :data:`_FIXED_BITS`)."""
    return int((x.numerator << _FIXED_BITS) // x.denominator)


def _fixed_values(values: Sequence[Any]) -> list[int]:
    """``[_fixed(x) for x in values]``, once per object where large values repeat
    (:func:`_repeats`), else in C-level passes."""
    if _repeats(values):
        return _per_object(_fixed, values)
    shifted = map(lshift, map(attrgetter("numerator"), values), repeat(_FIXED_BITS))
    return list(map(int, map(floordiv, shifted, map(attrgetter("denominator"), values))))


def _fixed_sums(g: Any, ks: IntArray, fixed: npt.NDArray[np.object_], weights: npt.NDArray[np.object_],
                constants: npt.NDArray[np.object_]) -> npt.NDArray[np.object_]:
    """``F`` of :func:`fixed_margins` for the flat actions ``ks`` (``fixed``: ``X(v)`` of
    every state; ``weights`` and ``constants``: ``w`` and ``M X(c)`` of each code), summed
    outcome slot by outcome slot (as :meth:`~tbsg.engine.bellman.ExactActions.qx_many`
    sums exact values), in arrays of Python integers."""
    lo = g.out_ptr[ks]
    degree = g.out_ptr[ks + 1] - lo
    out: npt.NDArray[np.object_] = constants[g.act_code[ks]]
    for d in np.unique(degree).tolist():
        rows = np.flatnonzero(degree == d)
        totals = out[rows]
        for j in range(d):
            o = lo[rows] + j
            totals = totals + weights[g.out_code[o]] * fixed[g.out_target[o]]
        out[rows] = totals
    return out


_BIG_BITS = 128
"""Numbers this large (bits of numerator or denominator) cost more to write or convert
than to look up by object; smaller ones are written where they stand."""


def _repeats(xs: Sequence[Any]) -> bool:
    """Whether ``xs`` holds large exact numbers (:data:`_BIG_BITS`, judged on a few of
    them) as at most half as many distinct objects as items.

    A solution's equal values are often one shared object (Risk or Safety to 60 has
    about 15,600 distinct value objects among 219,600 states); telling objects apart by
    ``id`` costs little, where hashing a large rational costs about as much as writing it.
    """
    step = max(1, len(xs) // 16)
    sample = [x for x in xs[::step] if x is not None]
    if not any(max(x.numerator.bit_length(), x.denominator.bit_length()) >= _BIG_BITS for x in sample):
        return False
    return len(set(map(id, xs))) * 2 <= len(xs)


def nearest_float(x: Any) -> float:
    """The float nearest the rational ``x``, with IEEE 754's rule beyond the float range:
    ``inf`` (``-inf``) where the nearest is past the largest finite float, where ``float``
    raises (a margin, a difference of two values, may be twice the largest value).

    >>> from fractions import Fraction
    >>> nearest_float(Fraction(1, 3)), nearest_float(Fraction(-(10**400), 7))
    (0.3333333333333333, -inf)
    """
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def _each_object(fn: Callable[[Any], Any], xs: Sequence[Any]) -> list[Any]:
    """``[fn(x) for x in xs]`` (``None`` kept), ``fn`` called once per distinct object
    where large numbers repeat as objects (:func:`_repeats`); ``fn`` must give equal
    results for one object.

    >>> big = Fraction(2**200 + 1, 2**201)
    >>> _each_object(lambda x: x.denominator.bit_length(), [big, None, big, big])
    [202, None, 202, 202]
    """
    if _repeats(xs):
        return _per_object(fn, xs)
    if not any(map(is_, xs, repeat(None))):  # (by identity: == None is slow on GMP numbers)
        return list(map(fn, xs))
    return [None if x is None else fn(x) for x in xs]


def _distinct(xs: Sequence[Any]) -> tuple[list[Any], IntArray] | None:
    """The distinct objects of ``xs`` (by identity) and the position of each item among
    them, sorted in C (``None`` if an object's ``id`` does not fit 64 bits)."""
    try:
        ids = np.fromiter(map(id, xs), dtype=np.int64, count=len(xs))
    except OverflowError:
        return None
    _, first, index = np.unique(ids, return_index=True, return_inverse=True)
    return list(map(xs.__getitem__, first.tolist())), index.reshape(-1)


def _per_object(fn: Callable[[Any], Any], xs: Sequence[Any]) -> list[Any]:
    """``[fn(x) for x in xs]`` (``None`` kept), ``fn`` called once per distinct object."""
    ids = list(map(id, xs))
    done = {i: None if x is None else fn(x) for i, x in dict(zip(ids, xs, strict=True)).items()}
    return list(map(done.__getitem__, ids))


def at_positions(xs: list[Any], pos: Sequence[int] | None) -> list[Any]:
    """``xs`` at positions ``pos`` (``None``: all; a ``range`` is a slice)."""
    if pos is None:
        return xs
    if isinstance(pos, range) and pos.step == 1:
        return xs[pos.start:pos.stop]
    return [xs[j] for j in pos]


def _fraction(x: Any) -> Fraction | None:
    return None if x is None else bk.to_fraction(x)


def _complement(x: FloatArray, direction: str) -> FloatArray:
    """:func:`tbsg.results.floating.complement_down` (``"down"``) or ``complement_up`` on
    an array: ``1 - x``, moved one step outward where the subtraction rounded."""
    y = 1.0 - x
    scaled = x * 2.0**53
    exact = (x >= 0.5) | (np.isfinite(scaled) & (np.floor(scaled) == scaled))
    if direction == "down":
        moved = np.maximum(np.nextafter(y, -math.inf), 0.0)
    else:
        moved = np.minimum(np.nextafter(y, math.inf), 1.0)
    out: FloatArray = np.where(exact, y, moved)
    return out
