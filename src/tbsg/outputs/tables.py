"""Per-state tables of a solved game (one row per state) and their exports.

Why: a solution answers questions one state at a time; papers and blog posts print
*tables* ("rows: points I need, columns: points the opponent needs, cell: coins to
toss"). :func:`state_table` turns a :class:`~tbsg.results.Solution` (or
:class:`~tbsg.results.FloatSolution`) into one row per non-terminal state, keyed by
the game's own variables (the fields of its ``NamedTuple`` states), and
:meth:`StateTable.pivot` rearranges any quantity of the rows over two of them (a
:class:`~tbsg.outputs.pivot.Pivot`). Both export to Markdown, LaTeX (booktabs), CSV,
HTML and pandas with exact values kept exact.

Columns of a :class:`StateTable`
--------------------------------
* the state's fields (``RoSState(mover, open, saved, other)`` gives ``mover``, ``open``,
  ``saved``, ``other``); states that are not ``NamedTuple`` s give one column ``state``.
  A field whose name is also a computed column below (or its ``<name>_decimal``) is
  renamed ``state.<name>``;
* ``player``: who moves there;
* ``value``: value to player 0 (exact ``Fraction``; for a float solution the midpoint of
  the proven bounds, with the bounds themselves in ``lower`` and ``upper``);
* ``value_to_move``: value to the player who moves there (player 1's is ``c - value``:
  ``c = 1`` in a win-probability game, ``0`` in any other, :mod:`tbsg.model.protocol`);
* ``optimal``: every optimal action (exact ties included), in the game's action order.
  For a float solution: the actions the proven bounds cannot rule out (a superset of the
  exactly optimal ones, :meth:`tbsg.FloatSolution.optimal_actions`), also in the game's
  order;
* ``margin_decimal`` (exact solutions): how close the decision is (below), as the float
  nearest to the exact margin (0.0 at a tie, and otherwise only for a margin below the
  smallest positive float; ``inf`` for one past the largest finite float, as IEEE 754
  rounds); empty with a single action. The
  exact margin is the column ``margin``, on request (``columns=[..., "margin"]``, the
  rows' :attr:`Row.margin`): a table of a large game has a margin per state, each a
  difference of fractions of thousands of digits, and putting them all in lowest terms
  costs several times the solve, where their decimals cost a fraction of it
  (:func:`tbsg.outputs.columns.fixed_margins`). A CSV therefore never holds a
  ``margin`` column that is not the exact margin;
* ``margin`` (float solutions): the margin of the midpoints, ``None`` with a single action.

In a game that is not a win-probability game (rewards per move, or payoffs outside
[0, 1]) the values are expected payoffs: the column keys stay ``value`` and
``value_to_move`` (records, CSV, pandas), and the titles the human-readable exports
print (text, Markdown, LaTeX, HTML) and a pivot's default name say "expected payoff".

Each :class:`Row` also carries ``action`` (the action the solution's strategy plays) and
``action_values_to_move`` (the mover's value of every action, as
:meth:`tbsg.Solution.action_values_to_move`), e.g. for signed gains such as Super Six's
"continue minus stop" (:meth:`Row.gain`).

The margin
----------
With ``q(a)`` the value *to the mover* of playing action ``a`` and then playing
optimally, sorted so that ``q(a1) >= q(a2) >= ...``, the margin is ``q(a1) - q(a2)``:
the value of the best action minus that of the best other action. It is ``>= 0``, it is
0 exactly when several actions have the best value, and it is what the mover loses by the
cheapest mistake. Those actions are all optimal, except in a game with never-ending play
(``infinite_play=``), where an action that ties only by coming back (waiting forever
would pay the never-ending payoff instead) is left out of ``optimal``, so a margin of 0
may stand beside a single optimal action (user guide, section 5). Exact solutions give
it as a ``Fraction`` (a row's ``margin``, the column ``margin`` when asked for) and by
default as its nearest float
(``margin_decimal``); float solutions as the difference of midpoint estimates, whose
error is at most the bounds' gap.

Exact values in exports
-----------------------
A ``Fraction`` is written ``p/q`` (``p`` when the denominator is 1) in CSV, Markdown and
HTML, and ``$p/q$`` in LaTeX (``fractions="frac"`` gives ``$\\frac{p}{q}$``), in full
whatever its size (also beyond Python's 4300-digit int-to-str limit: Pig to 100 has
values of about 20,000 digits); exact columns ``value``, ``value_to_move`` and
``margin`` come with a decimal column ``<name>_decimal`` next to them (which may also be
asked for alone, as ``margin_decimal`` is by default). A decimal column holds the float
nearest to the exact value, CSV decimals are ``repr(float)`` (shortest round-trip);
``Fraction(cell)`` reads every exact CSV cell back (for numbers of more than 4300 digits,
after ``sys.set_int_max_str_digits(0)``).
Only the notebook views (``_repr_markdown_``, ``_repr_html_``) and ``repr`` shorten
long fractions (past 30 characters, to a decimal and a digit count) and long tables.

How a table is built
--------------------
A table of a large game has a row per state, and most uses (an export, a pivot of one
column) read every row once. So the columns are computed from the solution's arrays, all
states at once (:mod:`tbsg.outputs.columns`: the margins' decimals from fixed-point bounds,
the exact margins, when asked for, from every action value in one pass), a :class:`Row`
object is made only when a row is read (iteration, :meth:`StateTable.row`, a predicate),
and the exports write each column's cells in one pass: an exact value's text and decimal
from the arithmetic backend's number (once per value object: a solution's equal values are
mostly one shared object), a field's or an action's text once per distinct value. The
document is then joined once from its cells and separators (a large game's Markdown or CSV
is hundreds of megabytes, and each copy of it costs as much as writing it); CSV is written
to its file in chunks of rows as they are formatted (the cells of a chunk are freed once
it is joined), and :meth:`StateTable.to_csv` also returns the whole text, as its callers
expect. The exports allocate millions of cells and lists, none in a reference cycle, next
to a solution's millions of live objects, so the cyclic collector (whose passes would scan
them all and free nothing) is paused while an export runs.

pandas is an optional dependency (the ``notebook`` extra): it is imported only by
:meth:`StateTable.to_pandas` and :meth:`~tbsg.outputs.pivot.Pivot.to_pandas`.

Examples
--------
>>> import tbsg
>>> from tbsg.games import risk_or_safety
>>> sol = tbsg.solve(risk_or_safety(4))
>>> table = state_table(sol, where=lambda s: s.mover == 0)
>>> row = table.row((0, 3, 0, 0))        # 3 open points, nothing saved, player 0 to move
>>> row.optimal, row.action_values_to_move, row.margin
(('stop',), {'toss': Fraction(3047, 4165), 'stop': Fraction(15, 17)}, Fraction(628, 4165))
>>> row.open, row["saved"], row.value_to_move
(3, 0, Fraction(15, 17))

Table 1 of the paper (coins to toss before saving) as a pivot: a cell collects every
state with the same points needed, and ``agg=min`` keeps the first stop:

>>> n = 4
>>> coins = table.pivot(rows=lambda r: n - r.saved, columns=lambda r: n - r.other,
...                     cell=lambda r: r.open if "stop" in r.optimal else n - r.saved,
...                     agg=min, row_name="I need", col_name="opponent needs",
...                     name="coins")
>>> print(coins.to_markdown())
| I need \\ opponent needs | 1 | 2 | 3 | 4 |
| ---: | ---: | ---: | ---: | ---: |
| 1 | 1 | 1 | 1 | 1 |
| 2 | 2 | 2 | 2 | 1 |
| 3 | 3 | 3 | 1 | 1 |
| 4 | 4 | 2 | 2 | 2 |
>>> print(table.where(lambda r: r.saved == 3 and r.other == 3).to_csv(), end="")
mover,open,saved,other,player,value,value_decimal,value_to_move,value_to_move_decimal,optimal,margin_decimal
0,0,3,3,0,2/3,0.6666666666666666,2/3,0.6666666666666666,toss,
>>> print(table.where(lambda r: r.open == 3 and r.saved == 0).to_csv(columns=["other", "margin"]), end="")
other,margin,margin_decimal
0,628/4165,0.15078031212484994
1,34558/294525,0.1173346914523385
2,6/595,0.010084033613445379
3,10/51,0.19607843137254902
"""

from __future__ import annotations

import html
import math
import os
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import FrozenInstanceError, dataclass, replace
from fractions import Fraction
from functools import cached_property
from typing import Any, Generic, Literal, TypeAlias, TypeVar, cast

import numpy as np
import numpy.typing as npt

from tbsg._util.gc import paused
from tbsg._util.optional import NOTEBOOK_EXTRA, optional_import
from tbsg.errors import InvalidArgumentError, shorten, show
from tbsg.outputs.columns import (
    COLUMN_NAMES,
    SolutionColumns,
    at_positions,
    nearest_float,
    sorted_by_fields,
    state_fields,
)
from tbsg.outputs.formats import (
    Fmt,
    Kind,
    csv_table,
    html_table,
    latex_escape,
    latex_table,
    markdown_columns,
    markdown_table,
    safe_repr,
    short,
    text_table,
    write_csv,
    write_text,
)
from tbsg.outputs.pivot import Pivot
from tbsg.results import FloatSolution, Solution
from tbsg.results.deprecation import deprecated

__all__ = ["NOTEBOOK_EXTRA", "ColumnSpec", "Row", "RowKey", "StateTable", "row_key", "state_table"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

Number: TypeAlias = Fraction | float
"""A value in a table: exact (``Fraction``) or float (float solutions)."""

RowKey: TypeAlias = "str | Callable[[Row[Any, Any]], Any]"
"""A column name of the rows, or a function of a :class:`Row`."""

_COMPUTED = ("player", "value", "lower", "upper", "value_to_move", "optimal", "action",
             "margin", "action_values_to_move", "action_values")
_EXACT_COLUMNS = ("value", "value_to_move", "margin")
_DECIMAL_COLUMNS = {f"{c}_decimal": c for c in _EXACT_COLUMNS}
"""The decimal twin of each exact column, which an export may also name on its own."""
_REPR_ROWS = 40


# --- rows ---------------------------------------------------------------------------------


def _is_namedtuple(x: object) -> bool:
    return isinstance(x, tuple) and isinstance(getattr(type(x), "_fields", None), tuple)


@dataclass(frozen=True, eq=False, repr=False)
class Row(Generic[S, A]):
    """One state of a :class:`StateTable`.

    Columns are read as items (``row["open"]``) or attributes (``row.open``); the state's
    own fields are also ``row.state.<field>``.

    Attributes
    ----------
    state : state
        The game's state.
    player : int
        Who moves at ``state``.
    value : Fraction or float
        Value to player 0 (float solutions: midpoint of ``lower`` and ``upper``).
    value_to_move : Fraction or float
        Value to the player who moves.
    optimal : tuple
        Every optimal action, in the game's order (float solutions: every action the
        bounds cannot rule out).
    action : action
        The action the solution's strategy plays (one of ``optimal``; for a float
        solution the solver's greedy action, see :meth:`tbsg.FloatSolution.action`).
    margin : Fraction or float or None
        Mover's value of the best action minus that of the best other action; ``None``
        when there is a single action.
    action_values_to_move : dict
        Mover's value of each action (action, then optimal play), in the game's order
        (float solutions: midpoints of the proven bounds).
    lower, upper : float or None
        Proven bounds on ``value`` (float solutions only).
    """

    state: S
    player: int
    value: Number
    value_to_move: Number
    optimal: tuple[A, ...]
    action: A
    margin: Number | None
    action_values_to_move: Mapping[A, Number]
    lower: float | None = None
    upper: float | None = None

    @property
    @deprecated("Row.action_values (the mover's view, unlike Solution.action_values: player 0's)",
                "Row.action_values_to_move (the same numbers)")
    def action_values(self) -> Mapping[A, Number]:
        """The mover's value of each action: :attr:`action_values_to_move`."""
        return self.action_values_to_move

    def gain(self, action: A, other: A) -> Number:
        """Mover's value of ``action`` minus that of ``other`` (signed).

        Examples
        --------
        >>> import tbsg
        >>> from tbsg.games import risk_or_safety
        >>> row = state_table(tbsg.solve(risk_or_safety(4))).row((0, 3, 0, 0))
        >>> row.gain("toss", "stop")
        Fraction(-628, 4165)
        """
        q = self.action_values_to_move
        for a in (action, other):
            if a not in q:
                raise KeyError(f"{safe_repr(a)} is not an action at {safe_repr(self.state)}; actions: "
                               f"{', '.join(map(safe_repr, q))}")
        return q[action] - q[other]

    def __getitem__(self, name: str) -> Any:
        if name in _COMPUTED or name == "state":
            return getattr(self, name)
        if name in _DECIMAL_COLUMNS:  # the nearest float of an exact column
            x = getattr(self, _DECIMAL_COLUMNS[name])
            return None if x is None else nearest_float(x)
        if _is_namedtuple(self.state):
            attr = name[6:] if name.startswith("state.") else name
            if attr in type(self.state)._fields:  # type: ignore[attr-defined]
                return getattr(self.state, attr)
        raise KeyError(f"no column {name!r}; columns: state fields "
                       f"{self._field_names()} and {', '.join(_COMPUTED)}")

    def __getattr__(self, name: str) -> Any:
        # only called when normal lookup fails: the state's fields as attributes
        if name.startswith("_"):
            raise AttributeError(name)
        state = object.__getattribute__(self, "state")
        if _is_namedtuple(state) and name in type(state)._fields:
            return getattr(state, name)
        raise AttributeError(f"Row has no column {name!r}")

    def _field_names(self) -> tuple[str, ...]:
        return tuple(type(self.state)._fields) if _is_namedtuple(self.state) else ()  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        if _is_namedtuple(self.state):
            key = ", ".join(f"{f}={_key_repr(getattr(self.state, f))}" for f in self._field_names())
        else:
            key = f"state={_key_repr(self.state)}"
        shown = ", ".join(f"{k}={short(getattr(self, k))}" for k in
                          ("player", "value", "optimal", "margin"))
        return f"Row({key}, {shown})"


def _key_repr(x: object) -> str:
    """``repr`` of a state's field, ints longer than ``REPR_CHARS`` abbreviated like values."""
    return short(x) if type(x) is int else safe_repr(x)


# --- building ------------------------------------------------------------------------------


def _float_action_bounds(solution: FloatSolution[Any, Any]
                         ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Proven lower and upper bounds on every action's value to player 0 (flat actions).

    The solution's own (:meth:`~tbsg.results.FloatSolution.action_bounds`, from the
    engine's outward-rounded Bellman step, computed once per solution): an action is
    ruled out of ``optimal`` only when its upper bound is below another action's lower
    bound, which no rounding can make wrong.
    """
    return solution._action_bounds


@paused()
def state_table(solution: Solution[S, A] | FloatSolution[S, A], states: Iterable[S] | None = None,
                where: Callable[[S], bool] | None = None, *, sort: bool = True) -> StateTable[S, A]:
    """One row per non-terminal state of a solved game (see the module docstring).

    Parameters
    ----------
    solution : Solution or FloatSolution
        From :func:`tbsg.solve`, :func:`tbsg.evaluate` or :func:`tbsg.best_response`.
    states : iterable of states, optional
        The states to tabulate, in this order (default: every reachable state).
    where : callable, optional
        Keep only the states for which ``where(state)`` is true (applied to the states
        before any value is computed, so it is the cheap way to tabulate part of a large
        game).
    sort : bool
        Sort the rows by state when ``states`` is not given (default True; if the states
        do not compare, the solution's order is kept).

    Returns
    -------
    StateTable

    Raises
    ------
    tbsg.results.UnknownStateError
        If ``states`` names a state the solution does not cover.

    Examples
    --------
    >>> import tbsg
    >>> from tbsg.games import risk_or_safety
    >>> t = state_table(tbsg.solve(risk_or_safety(2)), where=lambda s: s.mover == 0)
    >>> len(t), t.fields, t.columns
    (6, ('mover', 'open', 'saved', 'other'), ('mover', 'open', 'saved', 'other', \
'player', 'value', 'value_to_move', 'optimal', 'margin_decimal'))
    >>> t.rows[0]
    Row(mover=0, open=0, saved=0, other=0, player=0, value=4/7, optimal=('toss',), margin=None)
    """
    if not isinstance(solution, Solution | FloatSolution):
        raise InvalidArgumentError(f"state_table() takes a Solution or FloatSolution, got "
                                   f"{type(solution).__name__}")
    fields = state_fields(solution.graph.states) if states is None else None
    chosen, order = _chosen(solution, states, sort, fields)
    if where is not None:
        keep = [_keep(where, s) for s in chosen]
        chosen = [s for s, k in zip(chosen, keep, strict=True) if k]
        order = [i for i, k in zip(order, keep, strict=True) if k]
    columns = SolutionColumns(solution, np.asarray(order, dtype=np.int64), chosen,
                              graph_states=states is None, graph_fields=fields)
    names = _fields_of(chosen)
    return StateTable._of(names, _ColumnStore(columns, names), None,
                          isinstance(solution, Solution), solution.win_probability)


def _chosen(solution: Solution[S, A] | FloatSolution[S, A], states: Iterable[S] | None,
            sort: bool, fields: dict[str, Any] | None) -> tuple[list[S], list[int]]:
    """The table's states and their indices in the solution (sorted by state if asked; by
    the arrays of their ``fields`` where those are integers,
    :func:`~tbsg.outputs.columns.sorted_by_fields`)."""
    g = solution.graph
    if states is None:
        order = list(range(g.n_states))
        by_fields = None if fields is None or not sort else sorted_by_fields(fields)
        if by_fields is not None:
            order = by_fields
        elif sort:
            state_of: Callable[[int], Any] = g.states.__getitem__
            try:
                order.sort(key=state_of)
            except TypeError:
                order = list(range(g.n_states))
        return list(map(g.states.__getitem__, order)), order
    chosen = list(states)
    return chosen, [solution._index(s) for s in chosen]  # raises UnknownStateError with a clear message


def _keep(where: Callable[[S], bool], s: S) -> bool:
    try:
        return bool(where(s))
    except Exception as exc:
        raise InvalidArgumentError(f"where= raised {type(exc).__name__}: {shorten(str(exc))} at state "
                                   f"{show(s)}") from exc


def _fields_of(states: Sequence[object]) -> tuple[str, ...]:
    kinds = set(map(type, states))
    if states and all(issubclass(t, tuple) and isinstance(getattr(t, "_fields", None), tuple)
                      for t in kinds):
        names = {tuple(t._fields) for t in kinds}  # type: ignore[attr-defined]
        if len(names) == 1:
            (only,) = names
            taken = {*_COMPUTED, *_DECIMAL_COLUMNS, "state"}
            return tuple(f"state.{f}" if f in taken else f for f in only)
    return ("state",)


def _cut(n: int, max_rows: int | None) -> tuple[list[int], int]:
    """Row positions to show (head and tail) and how many are left out."""
    if max_rows is None or n <= max_rows:
        return list(range(n)), 0
    head = max_rows - max_rows // 4
    tail = max_rows // 4
    return [*range(head), *range(n - tail, n)], n - head - tail


# --- where a table's rows come from --------------------------------------------------------

_DENSE = 8
"""A column is computed for the whole table when at least 1 row in ``_DENSE`` is read
(an export, ``records``); fewer rows (a notebook view of a large table) are read row by row."""


class _Store(Generic[S, A]):
    """The rows of one or more tables (a table reads them at its positions ``pos``; ``None``:
    all, in order). The column methods return ``None`` where the rows must be asked."""

    def __len__(self) -> int:
        raise NotImplementedError

    def row(self, j: int) -> Row[S, A]:
        raise NotImplementedError

    def states(self, pos: Sequence[int] | None) -> list[S]:
        return [self.row(j).state for j in (range(len(self)) if pos is None else pos)]

    def column(self, name: str, pos: Sequence[int] | None) -> list[Any] | None:
        return None

    def exact_text(self, name: str, pos: Sequence[int] | None) -> list[str | None] | None:
        return None

    def decimals(self, name: str, pos: Sequence[int] | None) -> list[float | None] | None:
        return None

    def rounded_text(self, name: str, digits: int, pos: Sequence[int] | None) -> list[str | None] | None:
        return None

    def decimal_cells(self, name: str, write: Callable[[float], str], key: str,
                      pos: Sequence[int] | None) -> list[str] | None:
        return None


class _RowStore(_Store[S, A]):
    """Rows given one by one (``StateTable(fields, rows, exact)``)."""

    def __init__(self, rows: tuple[Row[S, A], ...]) -> None:
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows)

    def row(self, j: int) -> Row[S, A]:
        return self.rows[j]


class _ColumnStore(_Store[S, A]):
    """The columns of a solution (:class:`~tbsg.outputs.columns.SolutionColumns`); a
    :class:`Row` is made the first time it is read, then kept (one object per state)."""

    def __init__(self, columns: SolutionColumns[S, A], fields: tuple[str, ...]) -> None:
        self.columns = columns
        self._rows: list[Row[S, A] | None] = [None] * len(columns)
        self._full: dict[str, list[Any]] = {}
        first = columns.states[0] if columns.states else None
        uniform = _is_namedtuple(first) and fields != ("state",)
        self._attrs: tuple[str, ...] = tuple(cast(Any, type(first))._fields) if uniform else ()

    def __len__(self) -> int:
        return len(self.columns)

    def row(self, j: int) -> Row[S, A]:
        r = self._rows[j]
        if r is None:
            r = self._rows[j] = Row(**self.columns.row(j))
        return r

    def states(self, pos: Sequence[int] | None) -> list[S]:
        return at_positions(self.columns.states, pos)

    def column(self, name: str, pos: Sequence[int] | None) -> list[Any] | None:
        if name not in self._full:
            attr = name[6:] if name.startswith("state.") else name
            if name in COLUMN_NAMES:
                self._full[name] = self.columns.column(name)
            elif attr in self._attrs:
                self._full[name] = self.columns.field(attr)
            else:
                return None  # the rows raise the error that says why
        return at_positions(self._full[name], pos)

    def exact_text(self, name: str, pos: Sequence[int] | None) -> list[str | None] | None:
        return self.columns.exact_text(name, pos) if self.columns.exact else None

    def decimals(self, name: str, pos: Sequence[int] | None) -> list[float | None] | None:
        return self.columns.decimals(name, pos) if self.columns.exact else None

    def rounded_text(self, name: str, digits: int, pos: Sequence[int] | None) -> list[str | None] | None:
        return self.columns.rounded_text(name, digits, pos) if self.columns.exact else None

    def decimal_cells(self, name: str, write: Callable[[float], str], key: str,
                      pos: Sequence[int] | None) -> list[str] | None:
        return self.columns.decimal_cells(name, write, key, pos) if self.columns.exact else None


# --- the table -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Column:
    """One column of an export: a column of the table (``name``; with ``decimal``, the
    nearest floats of its exact values) or ``fn`` of each row, written as ``kind``."""

    header: str
    name: str | None
    kind: Kind | None
    fn: Callable[[Row[Any, Any]], object] | None = None
    decimal: bool = False


_PAYOFF_TITLES = {"value": "expected payoff", "value_decimal": "expected payoff (decimal)",
                  "value_to_move": "expected payoff to move",
                  "value_to_move_decimal": "expected payoff to move (decimal)"}
ColumnSpec: TypeAlias = "str | tuple[str, Callable[[Row[Any, Any]], Any]]"
"""An export column: a column name, or ``(header, function of a row)`` for a computed one."""
_CSV_CHUNK = 20_000
"""Rows of CSV written at a time."""


class StateTable(Generic[S, A]):
    """Rows of states of a solved game (built by :func:`state_table`).

    The columns of a table built from a solution are computed from its arrays, and a
    :class:`Row` object is made only when one is read (iterating, :meth:`row`,
    :attr:`rows`); the exports read the columns directly.

    Attributes
    ----------
    fields : tuple of str
        Columns naming the state: its ``NamedTuple`` fields, or ``("state",)``.
    rows : tuple of Row
        One row per state.
    exact : bool
        True for an exact solution (Fraction values), False for a float one.
    win_probability : bool
        The values are probabilities of winning (a win-probability game), else expected
        payoffs (titles say so).
    """

    fields: tuple[str, ...]
    exact: bool
    win_probability: bool
    _store: _Store[S, A]
    _sel: list[int] | None

    def __init__(self, fields: tuple[str, ...], rows: tuple[Row[S, A], ...], exact: bool,
                 win_probability: bool = True) -> None:
        self._set(tuple(fields), _RowStore(tuple(rows)), None, exact, win_probability)

    def _set(self, fields: tuple[str, ...], store: _Store[S, A], sel: list[int] | None, exact: bool,
             win_probability: bool) -> None:
        for k, v in (("fields", fields), ("_store", store), ("_sel", sel), ("exact", exact),
                     ("win_probability", win_probability)):
            object.__setattr__(self, k, v)

    @classmethod
    def _of(cls, fields: tuple[str, ...], store: _Store[S, A], sel: list[int] | None, exact: bool,
            win_probability: bool) -> StateTable[S, A]:
        table: StateTable[S, A] = cls.__new__(cls)
        table._set(fields, store, sel, exact, win_probability)
        return table

    def _select(self, sel: list[int]) -> StateTable[S, A]:
        """A table of the same rows at store positions ``sel``."""
        return self._of(self.fields, self._store, sel, self.exact, self.win_probability)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    @property
    def _positions(self) -> list[int]:
        return list(range(len(self._store))) if self._sel is None else self._sel

    def _at(self, pos: Sequence[int]) -> Sequence[int] | None:
        """Store positions of the table's rows at ``pos`` (``None``: all, in order)."""
        if self._sel is None:
            return None if len(pos) == len(self._store) else pos
        return [self._sel[p] for p in pos]

    @cached_property
    def rows(self) -> tuple[Row[S, A], ...]:
        """One row per state (made on first use)."""
        row = self._store.row
        return tuple(row(j) for j in self._positions)

    def _titles(self, cols: list[_Column]) -> list[str]:
        """Column titles of the human-readable exports: the keys, with the value columns of
        an expected-payoff table called so."""
        if self.win_probability:
            return [c.header for c in cols]
        return [_PAYOFF_TITLES.get(c.header, c.header) for c in cols]

    @property
    def columns(self) -> tuple[str, ...]:
        """Columns in export order (decimal twins of exact columns are added on export)."""
        if self.exact:
            return (*self.fields, "player", "value", "value_to_move", "optimal", "margin_decimal")
        return (*self.fields, "player", "value", "lower", "upper", "value_to_move", "optimal", "margin")

    def __len__(self) -> int:
        return len(self._store) if self._sel is None else len(self._sel)

    def __iter__(self) -> Iterator[Row[S, A]]:
        return iter(self.rows)

    @cached_property
    def _by_state(self) -> dict[S, int]:
        """Store position of each state of the table."""
        sel = self._positions
        return dict(zip(self._store.states(self._sel), sel, strict=True))

    def __contains__(self, state: object) -> bool:
        try:
            return state in self._by_state
        except TypeError:
            return False

    def row(self, state: S) -> Row[S, A]:
        """The row of ``state`` (a plain tuple equal to a ``NamedTuple`` state works too)."""
        try:
            return self._store.row(self._by_state[state])
        except KeyError:
            raise KeyError(f"state {safe_repr(state)} is not in this table ({len(self)} rows)") from None

    def column(self, name: str) -> list[Any]:
        """The values of one column (a field or a computed column), row by row."""
        decimal = name in _DECIMAL_COLUMNS
        (col,) = self._export_columns([name], False) if decimal else [_Column(name, name, None)]
        return self._values(col, list(range(len(self))))

    def where(self, predicate: Callable[[Row[S, A]], bool]) -> StateTable[S, A]:
        """The rows for which ``predicate(row)`` is true, as a new table."""
        row = self._store.row
        return self._select([j for j in self._positions if predicate(row(j))])

    def sorted(self, key: Callable[[Row[S, A]], Any], reverse: bool = False) -> StateTable[S, A]:
        """The rows sorted by ``key(row)``, as a new table."""
        row = self._store.row
        return self._select(sorted(self._positions, key=lambda j: key(row(j)), reverse=reverse))

    def head(self, n: int = 10) -> StateTable[S, A]:
        """The first ``n`` rows, as a new table."""
        return self._select(self._positions[:n])

    def records(self, columns: Sequence[ColumnSpec] | None = None) -> list[dict[str, Any]]:
        """Rows as dicts of Python objects (Fractions stay Fractions), keyed by column."""
        cols = self._export_columns(columns, decimals=False)
        pos = list(range(len(self)))
        values = [self._values(c, pos) for c in cols]
        if not cols:
            return [{} for _ in pos]
        return [dict(zip([c.header for c in cols], r, strict=True)) for r in zip(*values, strict=True)]

    def pivot(self, rows: RowKey, columns: RowKey, cell: RowKey = "value", *,
              agg: Callable[[list[Any]], Any] | None = None,
              where: Callable[[Row[S, A]], bool] | None = None, sort: bool = True,
              name: str | None = None, row_name: str | None = None,
              col_name: str | None = None) -> Pivot:
        """Arrange ``cell(row)`` in a grid with ``rows(row)`` down and ``columns(row)`` across.

        Parameters
        ----------
        rows, columns : str or callable
            A column name (``"saved"``) or a function of a :class:`Row` giving its label.
        cell : str or callable
            What a cell shows (default ``"value"``); ``None`` leaves the cell empty.
        agg : callable, optional
            Combines the cell values of several rows falling in one cell (it receives the
            list, in table order), e.g. ``min``, ``max``, ``sum``. Without it, two rows in
            one cell is an error.
        where : callable, optional
            Only rows with ``where(row)`` true take part.
        sort : bool
            Sort the labels (default); if they do not compare, first-seen order is kept.
        name, row_name, col_name : str, optional
            What the cells, rows and columns are (default: the column names given, or
            ``"cell"``, ``"row"``, ``"column"`` for functions).

        Returns
        -------
        Pivot

        Raises
        ------
        ValueError
            If two rows fall in one cell and no ``agg`` is given.

        Examples
        --------
        >>> import tbsg
        >>> from tbsg.games import coinball
        >>> t = state_table(tbsg.solve(coinball(4)))
        >>> def caller_lead(r): return r.lead if r.player == 0 else -r.lead
        >>> p = t.pivot(caller_lead, "toss", lambda r: "/".join(r.optimal),
        ...             where=lambda r: abs(r.lead) <= 2)
        >>> print(p.to_markdown())
        | caller_lead \\ toss | 0 | 1 | 2 | 3 |
        | ---: | ---: | ---: | ---: | ---: |
        | -2 |  | pass | pass | pass |
        | -1 |  | rush/pass | rush/pass | pass |
        | 0 | rush/pass |  | rush/pass | rush/pass |
        | 1 |  | rush | rush/pass | rush |
        | 2 |  | rush/pass | rush/pass | rush |
        >>> p
        <Pivot 'cell': 5 rows (caller_lead) x 4 columns (toss)>
        """
        rkey, rdefault = row_key(rows, "row")
        ckey, cdefault = row_key(columns, "column")
        vkey, vdefault = row_key(cell, "cell")
        grouped: dict[tuple[Any, Any], list[Any]] = {}
        first: dict[tuple[Any, Any], Row[S, A]] = {}
        for r in self.rows:
            if where is not None and not where(r):
                continue
            k = (rkey(r), ckey(r))
            if k in grouped and agg is None:
                raise ValueError(
                    f"rows {first[k]!r} and {r!r} both fall in cell {short(k)}; select rows with "
                    "where= or combine them with agg= (e.g. agg=min)")
            grouped.setdefault(k, []).append(vkey(r))
            first.setdefault(k, r)
        cells = {k: (agg(v) if agg is not None else v[0]) for k, v in grouped.items()}
        if not self.win_probability and isinstance(cell, str):
            vdefault = _PAYOFF_TITLES.get(vdefault, vdefault)
        return Pivot.from_dict(cells, row_name=row_name or rdefault, col_name=col_name or cdefault,
                               name=name or vdefault, sort=sort)

    # --- exports -------------------------------------------------------------------------

    def _export_columns(self, columns: Sequence[ColumnSpec] | None, decimals: bool,
                        only: bool = False) -> list[_Column]:
        """The columns of an export: ``columns`` (default :attr:`columns`), each exact
        column followed by its decimal twin with ``decimals`` (unless that is asked for by
        name too); ``only`` (decimals-only exports): a decimal column is written as its
        exact column is, rounded."""
        named = self.columns if columns is None else columns
        out: list[_Column] = []
        for c in named:
            if isinstance(c, tuple):
                header, fn = c
                out.append(_Column(header, None, None, fn))  # formatted by the type of each value
            elif c == "optimal":
                out.append(_Column(c, c, "actions"))
            elif self.exact and c in _EXACT_COLUMNS:
                out.append(_Column(c, c, "exact"))
                if decimals and f"{c}_decimal" not in named:
                    out.append(_Column(f"{c}_decimal", c, "float", decimal=True))
            elif c in _DECIMAL_COLUMNS:
                exact = _DECIMAL_COLUMNS[c]
                if not self.exact:  # a float table's column is its own decimal
                    out.append(_Column(c, exact, "float"))
                else:
                    out.append(_Column(c, exact, "exact") if only else
                               _Column(c, exact, "float", decimal=True))
            elif c in ("lower", "upper"):  # proven bounds: decimals rounded outward
                out.append(_Column(c, c, "lower" if c == "lower" else "upper"))
            elif c in _EXACT_COLUMNS:
                out.append(_Column(c, c, "float"))
            else:
                out.append(_Column(c, c, "other"))
        return out

    def _values(self, col: _Column, pos: Sequence[int], total: int | None = None) -> list[object]:
        """The values of ``col`` at the table positions ``pos``, from the columns where the
        table has them and the read is dense (``total``, default ``len(pos)``, rows read
        in all), else row by row."""
        at = self._at(pos)
        if col.name is not None and self._dense(len(pos) if total is None else total):
            values: Sequence[object] | None = (self._store.decimals(col.name, at) if col.decimal
                                               else self._store.column(col.name, at))
            if values is not None:
                return list(values)
        rows = [self._store.row(j) for j in (self._positions if at is None else at)]
        if col.fn is not None:
            return [col.fn(r) for r in rows]
        name = cast(str, col.name)
        if col.decimal:
            return [None if x is None else nearest_float(x) for x in (r[name] for r in rows)]
        return [r[name] for r in rows]

    def _cells(self, col: _Column, fmt: Fmt, pos: Sequence[int], total: int | None = None) -> list[str]:
        """The cells of ``col`` at the table positions ``pos`` (exact values written from
        their text where the table has it; ``total`` as in :meth:`_values`)."""
        return self._numeric_cells(col, fmt, pos, total)[0]

    def _numeric_cells(self, col: _Column, fmt: Fmt, pos: Sequence[int],
                       total: int | None = None) -> tuple[list[str], bool]:
        """:meth:`_cells`, and whether every cell is known to be a number's text or empty:
        an exact value's ``p/q`` from the table's columns, or a decimal column (floats)."""
        if col.decimal and col.name is not None and self._dense(len(pos) if total is None else total):
            cells = self._store.decimal_cells(col.name, fmt.float_writer(), f"{fmt.target} {fmt.digits}",
                                              self._at(pos))
            if cells is not None:
                return cells, True
        if col.kind == "exact" and not col.decimal and not fmt.abbreviate and (fmt.exact or fmt.rounded) \
                and self._dense(len(pos) if total is None else total):
            name, at = cast(str, col.name), self._at(pos)
            if fmt.exact:
                texts = self._store.exact_text(name, at)
                if texts is not None:
                    return fmt.fraction_cells(texts), True
            else:
                texts = self._store.rounded_text(name, fmt.digits, at)
                if texts is not None:
                    return fmt.decimal_cells(texts), True
        return fmt.cells(self._values(col, pos, total), col.kind), col.decimal

    def _dense(self, read: int) -> bool:
        """Whether reading ``read`` rows is done column by column (:data:`_DENSE`)."""
        return read * _DENSE >= len(self._store)

    def _body(self, cols: list[_Column], fmt: Fmt, pos: list[int]) -> list[Sequence[str]]:
        if not cols:
            return [[] for _ in pos]
        return list(zip(*(self._cells(c, fmt, pos) for c in cols), strict=True))

    def _exports(self, columns: Sequence[ColumnSpec] | None, decimals: bool | int, fmt: Fmt
                 ) -> tuple[list[_Column], Fmt]:
        """The columns and cell format of an export with ``decimals`` (see :meth:`to_csv`)."""
        if isinstance(decimals, bool):
            if not decimals and columns is None and self.exact:
                # exact values only: the table's decimal columns (the default margin_decimal)
                # are written as their exact columns
                columns = [c if isinstance(c, tuple) else _DECIMAL_COLUMNS.get(c, c) for c in self.columns]
            return self._export_columns(columns, decimals), fmt
        if not isinstance(decimals, int) or decimals < 1:
            raise InvalidArgumentError(f"decimals must be True, False or a number of significant "
                                       f"digits >= 1 (decimals only), got {show(decimals, 40)}")
        only = replace(fmt, digits=decimals, exact=False, rounded=True)
        return self._export_columns(columns, False, only=True), only

    @paused()  # (module docstring)
    def to_csv(self, path: str | os.PathLike[str] | None = None, *,
               columns: Sequence[ColumnSpec] | None = None, decimals: bool | int = True) -> str:
        """CSV text (also written to ``path`` if given): exact values as ``p/q``.

        Parameters
        ----------
        path : str, optional
            File to write.
        columns : sequence, optional
            Columns to export (default :attr:`columns`): any field, ``action``, ``lower``,
            ``upper`` or computed column name, or ``(header, function of a row)`` for a
            column of your own (exact values in it stay exact).
        decimals : bool or int
            ``True`` (default): add ``<name>_decimal`` after each exact column; ``False``:
            exact values only (a decimal column of the table's, such as the default
            ``margin_decimal``, is written as its exact column, ``margin``: on a game with
            large denominators the exact margins cost more than the solve); an int ``n``:
            *decimals only*, every exact value written as
            a decimal of ``n`` significant digits, correctly rounded from the exact value
            (the size of a large game's export: fractions of thousands of digits become
            ``n`` digits). The other exports take the same argument.

        Examples
        --------
        >>> import tbsg
        >>> from tbsg.games import risk_or_safety
        >>> t = state_table(tbsg.solve(risk_or_safety(2))).head(2)
        >>> print(t.to_csv(columns=["value", "optimal"]), end="")
        value,value_decimal,optimal
        4/7,0.5714285714285714,toss
        2/5,0.4,toss
        >>> print(t.to_csv(columns=["value", "optimal"], decimals=4), end="")
        value,optimal
        0.5714,toss
        0.4,toss
        """
        cols, fmt = self._exports(columns, decimals, Fmt("csv"))
        n = len(self)
        if not cols:
            return write_text(csv_table([], [[] for _ in range(n)]), path)
        chunks = ([self._numeric_cells(c, fmt, pos, n) for c in cols]
                  for pos in (range(a, min(a + _CSV_CHUNK, n)) for a in range(0, n, _CSV_CHUNK)))
        return write_csv([c.header for c in cols], chunks, path)

    def to_markdown(self, *, columns: Sequence[ColumnSpec] | None = None, decimals: bool | int = True,
                    digits: int = 6, max_rows: int | None = None) -> str:
        """A Markdown (GitHub) table: exact values as ``p/q``, decimals to ``digits`` digits.

        ``max_rows`` shows only the first and last rows with a line saying how many are
        left out (default: all rows); ``decimals`` as in :meth:`to_csv`.
        """
        return self._markdown(Fmt("markdown", digits=digits), columns, decimals, max_rows)

    @paused()
    def _markdown(self, fmt: Fmt, columns: Sequence[ColumnSpec] | None, decimals: bool | int,
                  max_rows: int | None) -> str:
        cols, fmt = self._exports(columns, decimals, fmt)
        align = ["l" if _left(c) else "r" for c in cols]
        header = [fmt.text(c) for c in self._titles(cols)]
        if not cols:
            return markdown_table(header, self._shown_body(cols, fmt, max_rows), align)
        return markdown_columns(header, self._shown_columns(cols, fmt, max_rows), align)

    def _shown_columns(self, cols: list[_Column], fmt: Fmt, max_rows: int | None) -> list[list[str]]:
        """Formatted columns (at least one), the middle rows replaced by one "… n more rows …"
        line past ``max_rows``."""
        positions, left = _cut(len(self), max_rows)
        cells = [self._cells(c, fmt, positions) for c in cols]
        if left:
            head = len(positions) - max_rows // 4 if max_rows else len(positions)
            gap = [f"… {left} more rows …"] + [""] * (len(cols) - 1)
            cells = [[*column[:head], g, *column[head:]] for column, g in zip(cells, gap, strict=True)]
        return cells

    def _shown_body(self, cols: list[_Column], fmt: Fmt, max_rows: int | None) -> list[Sequence[str]]:
        """Formatted rows, the middle ones replaced by one "… n more rows …" line past ``max_rows``."""
        if cols:
            return list(zip(*self._shown_columns(cols, fmt, max_rows), strict=True))
        positions, left = _cut(len(self), max_rows)
        body: list[Sequence[str]] = [[] for _ in positions]
        if left:
            head = len(positions) - max_rows // 4 if max_rows else len(positions)
            body.insert(head, [f"… {left} more rows …"])
        return body

    @paused()
    def to_text(self, *, columns: Sequence[ColumnSpec] | None = None, decimals: bool | int = True,
                digits: int = 6, max_rows: int | None = None, shorten: bool = True) -> str:
        """Plain text in aligned columns, for a terminal (``tbsg solve --table``).

        Exact values longer than :data:`~tbsg.outputs.formats.REPR_CHARS` characters are
        shortened to a decimal and their size (``shorten=False``: in full); ``max_rows``
        as in :meth:`to_markdown`, ``decimals`` as in :meth:`to_csv`.

        Examples
        --------
        >>> import tbsg
        >>> from tbsg.games import risk_or_safety
        >>> t = state_table(tbsg.solve(risk_or_safety(2)), where=lambda s: s.saved == 1 and s.open == 0)
        >>> print(t.to_text(columns=["mover", "other", "value", "optimal"]))
        mover  other  value  value_decimal  optimal
        -----  -----  -----  -------------  -------
            0      0    4/5            0.8  toss
            0      1    2/3       0.666667  toss
            1      0    1/5            0.2  toss
            1      1    1/3       0.333333  toss
        """
        cols, fmt = self._exports(columns, decimals, Fmt("text", digits=digits, abbreviate=shorten))
        body = self._shown_body(cols, fmt, max_rows)
        align = ["l" if _left(c) else "r" for c in cols]
        return text_table(self._titles(cols), body, align)

    @paused()
    def to_latex(self, *, columns: Sequence[ColumnSpec] | None = None, decimals: bool | int = True,
                 digits: int = 6, fractions: Literal["slash", "frac"] = "slash",
                 caption: str | None = None, label: str | None = None) -> str:
        """A LaTeX ``tabular`` with booktabs rules (``\\toprule``, ``\\midrule``, ``\\bottomrule``).

        Exact values are ``$p/q$`` (``fractions="frac"``: ``$\\frac{p}{q}$``). With a
        ``caption`` or ``label`` the tabular is wrapped in a ``table`` environment;
        ``decimals`` as in :meth:`to_csv`. Needs ``\\usepackage{booktabs}``.
        """
        cols, fmt = self._exports(columns, decimals, Fmt("latex", digits=digits, fractions=fractions))
        body = self._body(cols, fmt, list(range(len(self))))
        header = " & ".join(latex_escape(c.replace("_", " ")) for c in self._titles(cols)) + " \\\\"
        align = "".join("l" if _left(c) else "r" for c in cols)
        return latex_table([header], body, align, caption, label)

    def to_html(self, *, columns: Sequence[ColumnSpec] | None = None, decimals: bool | int = True,
                digits: int = 6, max_rows: int | None = None) -> str:
        """An HTML table (exact values in full; ``max_rows`` as in :meth:`to_markdown`,
        ``decimals`` as in :meth:`to_csv`)."""
        return self._html(Fmt("html", digits=digits), columns, decimals, max_rows)

    @paused()
    def _html(self, fmt: Fmt, columns: Sequence[ColumnSpec] | None, decimals: bool | int,
              max_rows: int | None) -> str:
        cols, fmt = self._exports(columns, decimals, fmt)
        body = self._shown_body(cols, fmt, max_rows)
        kind = "exact" if self.exact else "float (proven bounds)"
        what = "" if self.win_probability else ", expected payoffs"
        return html_table([html.escape(c) for c in self._titles(cols)], body,
                     f"tbsg state table: {len(self)} states, {kind}{what}")

    @paused()
    def to_pandas(self, *, columns: Sequence[ColumnSpec] | None = None, decimals: bool = True,
                  index: bool = True) -> Any:
        """A pandas DataFrame (needs pandas: ``pip install 'tbsg[notebook]'``).

        Exact columns hold ``Fraction`` objects (dtype ``object``) next to float
        ``<name>_decimal`` columns; ``optimal`` holds tuples. With ``index`` (default)
        the state's fields form the index, so ``df.loc[(0, 3, 0, 0)]`` finds a state.
        """
        pd = optional_import("pandas", "StateTable.to_pandas")
        cols = self._export_columns(columns, decimals)
        pos = list(range(len(self)))
        data = {c.header: self._values(c, pos) for c in cols}
        for c in cols:
            if c.kind in ("float", "lower", "upper"):
                data[c.header] = [math.nan if x is None else x for x in data[c.header]]
        df = pd.DataFrame(data, columns=[c.header for c in cols])
        keys = [c for c in self.fields if c in df.columns]
        if index and keys:
            df = df.set_index(keys)
        return df

    def __repr__(self) -> str:
        kind = "exact" if self.exact else "float"
        return f"<StateTable: {len(self)} rows, {kind}, columns {', '.join(self.columns)}>"

    def _repr_markdown_(self) -> str:
        return self._markdown(Fmt("markdown", abbreviate=True), None, True, _REPR_ROWS)

    def _repr_html_(self) -> str:
        return self._html(Fmt("html", abbreviate=True), None, True, _REPR_ROWS)


def _left(column: _Column) -> bool:
    """Left-align action columns, right-align numbers and the state's fields."""
    return column.kind == "actions" or column.header in ("action", "action_values_to_move", "action_values")


def _getter(name: str) -> Callable[[Row[Any, Any]], object]:
    def get(r: Row[Any, Any]) -> object:
        return r[name]
    return get


def row_key(key: RowKey, default: str) -> tuple[Callable[[Row[Any, Any]], Any], str]:
    """A column name or a function of a row, as ``(function of a row, name)``.

    The name is the column name, the function's ``__name__``, or ``default`` for a
    lambda (shared by :meth:`StateTable.pivot` and the plots of tables).
    """
    if isinstance(key, str):
        return _getter(key), key
    if callable(key):
        fn_name = getattr(key, "__name__", "")
        return key, fn_name if fn_name and fn_name != "<lambda>" else default
    raise TypeError(f"expected a column name or a function of a row, got {key!r}")
