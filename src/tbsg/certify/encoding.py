"""The state rows of a saved solution (format versions 4 and 5), written and read in bulk.

A solution file holds one row per state, in the order the game's compile enumerates
them: the state's ``repr``, its exact value, the position of the chosen action among the
state's actions and that action's ``repr``. Formats 4 and 5 write each row as a JSON array

.. code-block:: text

    ["RoSState(mover=0, open=0, saved=0, other=0)", "2236", 1, 0, "'toss'"]

whose value is ``numerator / denominators[1]``: the file lists the distinct denominators
of the values once (``"denominators": ["1", "4165", ...]``, decimal texts, in order of
first use) and each row names one by its position. The value ``p/q`` of a state is in
lowest terms, ``gcd(p, q) = 1``, so every rational has exactly one encoding and ``0`` is
``"0"`` over the denominator ``"1"``. Format 5 also writes rows without a value,

.. code-block:: text

    ["RoSState(mover=0, open=1, saved=0, other=0)", null, null, 0, "'toss'"]

(both fields ``null``, never one), for a solution that stores only the values other
components read: the others follow from those and the strategy, one linear solve per
component (:mod:`tbsg.engine.boundary`). This module reads and writes such rows; which
rows may omit their value is the caller's to check (:mod:`tbsg.certify.persist`), and the
rows' values are then the stored ones only, the numerators and denominators of the
others neither written nor parsed.

Why this layout: the values of a solved game share few denominators (those of one
strongly connected component are divisors of one determinant; Pig to 50 has 115,444
states and 4,319 distinct denominators), so writing each once makes files about a third
smaller; and rows that are arrays of fixed length can be read column by column. Every
check :func:`read_rows` makes is then one pass of C code over a column (a list
comparison of the state texts with the game's, a range test of the action positions in
numpy, one parse per distinct number, and lowest terms checked with one gcd per
denominator, not per value: see :func:`_coprime`), with a Python loop only to name the
first row that fails. Many states share a value (Risk or Safety to 60: 219,600 states,
15,612 distinct values), so a value is built once and shared by the rows that hold it,
and a solution's shared value objects are written once. The text stays plain JSON with
one state per line, readable and diff-able.

Reading and writing build hundreds of thousands of small objects (the parsed rows, the
texts, the numbers), none of them in a reference cycle; Python's cycle collector would
nevertheless traverse every live object again and again as they accumulate (it runs
after every few hundred allocations, and its older generations grow with the file), so
:func:`tbsg._util.gc.paused` pauses it while they are built. Reference counting still
frees everything; the pause changes only when cycles elsewhere are collected.

Nothing in a row makes the reader do more than its size justifies: a number longer than
``max_digits`` characters is refused on its length, before it is parsed; a number is
parsed by GMP when gmpy2 is installed (close to linear in its digits).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import count, repeat
from json.encoder import encode_basestring
from operator import attrgetter, itemgetter
from typing import Any, NamedTuple, NoReturn, TextIO

import numpy as np

from tbsg.engine import _backend as bk
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.integer_q import ReadValues
from tbsg.errors import shorten

__all__ = ["ROW_FIELDS", "Rows", "encode_stored", "encode_values", "label_texts", "read_denominators",
           "read_rows", "state_texts", "write_rows"]

ROW_FIELDS = ("state", "numerator", "denominator", "action", "label")
"""The fields of a row, in the order a row lists them."""

_CHUNK = 4096
"""Rows joined into one string before writing: the file is streamed in pieces this long."""
_SAMPLE = 4096
"""Values looked at to tell whether the states of a solution (or a file) share values."""
_NUMERATOR = re.compile(r"0|-?[1-9][0-9]*")
_DENOMINATOR = re.compile(r"[1-9][0-9]*")
_numerator = attrgetter("numerator")
_SET_NUMERATOR = getattr(getattr(Fraction, "_numerator", None), "__set__", None)
_SET_DENOMINATOR = getattr(getattr(Fraction, "_denominator", None), "__set__", None)
"""The setters of ``Fraction``'s two slots (``None`` if a Python stores them otherwise)."""

_NULLS = "null, null"
"""The numerator and denominator of a row whose value is not stored (format 5)."""

Fail = Callable[[str], NoReturn]



def state_texts(g: CompiledGame[Any, Any]) -> tuple[str, ...]:
    """The ``repr`` of every state, in enumeration order (written once per compiled game,
    shared with its graph hash)."""
    return g.state_texts()


def label_texts(g: CompiledGame[Any, Any], actions: Sequence[int]) -> list[str]:
    """The ``repr`` of the action at each flat position in ``actions`` (each distinct action
    object is written once per compiled game, see :meth:`CompiledGame.label_texts`)."""
    texts, code = g.label_texts()
    return list(map(texts.__getitem__, code[np.asarray(actions, dtype=np.int64)].tolist()))


def encode_values(values: Sequence[Any]) -> tuple[list[str], list[str], list[int]]:
    """``(denominators, numerators, index)``: the distinct denominators as texts in order
    of first use, each value's numerator as text and the position of its denominator.

    A solver often shares one object among the states of equal value (Risk or Safety to
    60: 15,622 objects for 219,600 states); when the first values show it, each object is
    written once and its texts reused (a look-up per state instead of a conversion).
    """
    head = values[:_SAMPLE]
    if 2 * len(set(map(id, head))) < len(head):
        return _encode_shared(values)
    where: dict[Any, int] = {}
    index = []
    for x in values:
        d = x.denominator
        i = where.get(d)
        if i is None:
            i = where[d] = len(where)
        index.append(i)
    return list(map(str, where)), list(map(str, map(_numerator, values))), index


def _encode_shared(values: Sequence[Any]) -> tuple[list[str], list[str], list[int]]:
    """:func:`encode_values`, each distinct object written once."""
    where: dict[Any, int] = {}
    memo: dict[int, tuple[str, int]] = {}
    numerators, index = [], []
    for x in values:
        hit = memo.get(id(x))
        if hit is None:
            d = x.denominator
            i = where.get(d)
            if i is None:
                i = where[d] = len(where)
            hit = memo[id(x)] = (str(x.numerator), i)
        numerators.append(hit[0])
        index.append(hit[1])
    return list(map(str, where)), numerators, index


def encode_stored(values: Sequence[Any], kept: np.ndarray[Any, np.dtype[np.bool_]]
                  ) -> tuple[list[str], list[str | None], list[int | None]]:
    """:func:`encode_values` of the values of the ``kept`` states (``values``, in state
    order), with ``None`` for the numerator and denominator of every other state."""
    denominators, numerators, index = encode_values(values)
    nums, where = iter(numerators), iter(index)
    flags = kept.tolist()
    return (denominators, [next(nums) if k else None for k in flags],
            [next(where) if k else None for k in flags])


def write_rows(out: TextIO, states: Sequence[str], numerators: Sequence[str | None],
               index: Sequence[int | None], actions: list[int], labels: list[str]) -> None:
    """Write the rows, one JSON array per line separated by ``",\\n"``, in chunks; a value
    whose numerator is ``None`` is written ``null, null``."""
    enc = encode_basestring
    label_json = {text: enc(text) for text in set(labels)}
    for start in range(0, len(states), _CHUNK):
        stop = start + _CHUNK
        if start:
            out.write(",\n")
        out.write(",\n".join(
            f'  [{enc(s)}, {_NULLS if p is None else _value(p, d)}, {a}, {label_json[lab]}]'
            for s, p, d, a, lab in zip(states[start:stop], numerators[start:stop], index[start:stop],
                                       actions[start:stop], labels[start:stop], strict=True)))


def _value(numerator: str, denominator: int | None) -> str:
    """The numerator and denominator fields of a stored value."""
    return f'"{numerator}", {denominator}'


# --- reading -------------------------------------------------------------------------------

def _first(flags: Sequence[bool] | np.ndarray[Any, Any]) -> int:
    """Position of the first true flag (the caller knows there is one)."""
    return next(i for i, bad in enumerate(flags) if bad)


def _columns(fail: Fail, rows: list[Any]) -> list[list[Any]]:
    """The five columns of the rows, each row checked to be an array of five fields."""
    width = len(ROW_FIELDS)
    if not (_only(rows, list) and set(map(len, rows)) <= {width}):
        i = _first([not (type(row) is list and len(row) == width) for row in rows])
        fail(f"state row {i} should be an array [{', '.join(ROW_FIELDS)}], found "
             f"{shorten(repr(rows[i]), 80)}")
    return [list(map(itemgetter(i), rows)) for i in range(width)]


def _check_states(fail: Fail, written: list[Any], expected: Sequence[str]) -> None:
    if written != list(expected):
        i = _first([w != e for w, e in zip(written, expected, strict=True)])
        shown = written[i] if isinstance(written[i], str) else repr(written[i])
        fail(f"state row {i} is {shorten(shown, 80)} but the game's state there is "
             f"{shorten(expected[i], 80)}")


def _only(column: Sequence[Any], kind: type) -> bool:
    """Whether every entry is of type ``kind`` exactly (not a subclass: ``bool`` is no int)."""
    return set(map(type, column)) <= {kind}


def _row_name(states: Sequence[str]) -> Callable[[int], str]:
    """How messages name row ``i``: its position and its state."""
    return lambda i: f"state row {i} ({shorten(states[i], 60)})"


def _check_ints(fail: Fail, column: list[Any], field: str, name: Callable[[int], str]) -> None:
    if not _only(column, int):
        i = _first([type(x) is not int for x in column])
        fail(f"{name(i)}: {field!r} should be int, found "
             f"{shorten(repr(column[i]), 60)}")


def _choice(fail: Fail, g: CompiledGame[Any, Any], column: list[Any],
            states: Sequence[str]) -> np.ndarray[Any, np.dtype[np.int64]]:
    """The flat action of each row, each position checked against its state's actions."""
    _check_ints(fail, column, "action", _row_name(states))
    ptr = g.act_ptr.astype(np.int64)
    counts = np.diff(ptr)
    if column and min(column) >= 0 and max(column) < 2**62:
        small = np.fromiter(column, dtype=np.int64, count=len(column))
    else:  # an entry beyond int64 (refused below)
        small = np.array([x if 0 <= x < 2**62 else -1 for x in column], dtype=np.int64)
    bad = (small < 0) | (small >= counts)
    if bad.any():
        i = _first(bad)
        fail(f"state row {i} ({shorten(states[i], 60)}): action {shorten(repr(column[i]), 40)} out of "
             f"range, the state has {counts[i]}")
    return ptr[:-1] + small


def _check_labels(fail: Fail, g: CompiledGame[Any, Any], written: list[Any],
                  choice: np.ndarray[Any, Any], positions: list[Any], states: Sequence[str]) -> None:
    expected = label_texts(g, choice.tolist())
    if written != expected:
        i = _first([w != e for w, e in zip(written, expected, strict=True)])
        fail(f"state row {i} ({shorten(states[i], 60)}): action {positions[i]} is "
             f"{shorten(expected[i], 60)}, the file says {shorten(repr(written[i]), 60)}")


def _texts(fail: Fail, column: Sequence[Any], pattern: re.Pattern[str], max_digits: int,
           name: Callable[[int], str], what: str) -> None:
    """Each entry a ``str`` of at most ``max_digits`` characters matching ``pattern``."""
    if not _only(column, str):
        i = _first([type(x) is not str for x in column])
        fail(f"{name(i)}: {shorten(repr(column[i]), 60)} is not {what} written as a text")
    longest = max(map(len, column), default=0)
    if longest > max_digits:
        i = _first([len(x) > max_digits for x in column])
        fail(f"{name(i)}: a number of {len(column[i]):,} characters, more than max_digits="
             f"{max_digits:,} (raise it for a file you trust)")
    if not all(map(pattern.fullmatch, dict.fromkeys(column))):  # each distinct text once
        i = _first([pattern.fullmatch(x) is None for x in column])
        fail(f"{name(i)}: {shorten(repr(column[i]), 60)} is not {what}")


def read_denominators(fail: Fail, texts: object, max_digits: int) -> list[Any]:
    """The table of denominators, each a positive integer written once."""
    if not isinstance(texts, list):
        fail(f"'denominators' should be an array of texts, found {type(texts).__name__}")
    _texts(fail, texts, _DENOMINATOR, max_digits, lambda i: f"denominator {i}", "a positive integer")
    if len(set(texts)) != len(texts):
        first_at: dict[str, int] = {}
        i = next(i for i, t in enumerate(texts) if first_at.setdefault(t, i) != i)
        fail(f"denominator {i} ({shorten(texts[i], 60)}) is listed twice")
    return list(map(bk.INTEGER, texts))


def coprime_fractions(numerators: list[int], denominators: list[int]) -> list[Fraction]:
    """The ``Fraction`` of each pair, every pair known to be in lowest terms (``q >= 1``).

    Made as :func:`tbsg.engine._backend.coprime` makes one, without a gcd, but for all
    pairs at once: the objects are created, then their two slots set, each step one pass
    of C code over the lists (``map`` of the slots' setters), with no Python call per value.
    """
    if _SET_NUMERATOR is None or _SET_DENOMINATOR is None:  # pragma: no cover - Fraction without slots
        return list(map(bk._coprime_fraction, numerators, denominators))
    out: list[Fraction] = list(map(object.__new__, repeat(Fraction, len(numerators))))
    deque(map(_SET_NUMERATOR, out, numerators), maxlen=0)
    deque(map(_SET_DENOMINATOR, out, denominators), maxlen=0)
    return out


def _coprime(fail: Fail, numbers: list[Any], index: Sequence[int], denominators: list[Any],
             name: Callable[[int], str]) -> None:
    """Each numerator coprime to its denominator, with one gcd per denominator.

    For a denominator ``d`` shared by the numerators ``n_1 .. n_k``: ``gcd(d, n_i) = 1``
    for every ``i`` exactly when ``gcd(d, (n_1 ... n_k) mod d) = 1``, since a prime divides
    a product only if it divides a factor, and ``gcd(d, x) = gcd(d, x mod d)``. The
    product is reduced mod ``d`` at each step, so a multiplication and a remainder of
    numbers of ``d``'s size replace a gcd per value. Zero is coprime only to 1.
    """
    product = [1] * len(denominators)
    for n, j in zip(numbers, index, strict=True):
        product[j] = product[j] * n % denominators[j]
    if all(bk.gcd(p, d) == 1 for p, d in zip(product, denominators, strict=True)):
        return
    i = _first([bk.gcd(n, denominators[j]) != 1 for n, j in zip(numbers, index, strict=True)])
    fail(f"{name(i)}: value {shorten(str(numbers[i]), 30)}/{shorten(str(denominators[index[i]]), 30)} "
         "is not in lowest terms")


def _values(fail: Fail, numerators: list[Any], index: list[Any], denominators: list[Any],
            name: Callable[[int], str], max_digits: int) -> tuple[ReadValues, list[Any]]:
    """The values ``numerator / denominator``, each in lowest terms, as the integer parts
    of ``Fraction`` s (:class:`~tbsg.engine.integer_q.ReadValues`, which the certificate
    reads) and in the backend's type.

    States of equal value are common (Risk or Safety to 60: 219,600 states, 15,612
    distinct values): when the first rows show it, each distinct pair of a numerator's
    text and a denominator is parsed, checked and built once, and its two objects shared
    by the states that hold it. Neither is reduced again: GMP takes a ``Fraction`` as the
    reduced pair it is.
    """
    _texts(fail, numerators, _NUMERATOR, max_digits, name, "an integer")
    _check_ints(fail, index, "denominator", name)
    n = len(denominators)
    if index and not (min(index) >= 0 and max(index) < n):
        i = _first([not 0 <= d < n for d in index])
        fail(f"{name(i)}: denominator {shorten(repr(index[i]), 40)} out of range, the file lists {n}")
    head = set(zip(numerators[:_SAMPLE], index[:_SAMPLE], strict=True))
    if 2 * len(head) >= min(len(index), _SAMPLE):  # few states share a value: each built
        nums, dens, exact = _build(fail, numerators, index, denominators, name)
        return ReadValues(nums, dens, None), exact
    # the distinct values in order of first use, and the one each state holds
    position = dict(zip(dict.fromkeys(zip(numerators, index, strict=True)), count()))
    texts, where = list(map(itemgetter(0), position)), list(map(itemgetter(1), position))

    def first_holding(k: int) -> str:
        key = (texts[k], where[k])
        return name(next(i for i, row in enumerate(zip(numerators, index, strict=True)) if row == key))

    nums, dens, exact = _build(fail, texts, where, denominators, first_holding)
    which = list(map(position.__getitem__, zip(numerators, index, strict=True)))
    inverse = np.array(which, dtype=np.int64)
    return ReadValues(nums, dens, inverse), list(map(exact.__getitem__, which))


def _build(fail: Fail, numerators: Sequence[str], index: Sequence[int], denominators: list[Any],
           name: Callable[[int], str]) -> tuple[list[int], list[int], list[Any]]:
    """The value of each pair of a numerator's text (checked) and a denominator's position
    (in range), checked to be in lowest terms: its numerator and denominator as Python
    ints, and the value in the backend's type."""
    numbers = list(map(bk.INTEGER, numerators))
    _coprime(fail, numbers, index, denominators, name)
    whole = list(map(int, denominators))
    nums, dens = list(map(int, numbers)), list(map(whole.__getitem__, index))
    if bk.BACKEND != "gmpy2":
        return nums, dens, coprime_fractions(nums, dens)
    return nums, dens, list(map(bk.Q, coprime_fractions(nums, dens)))


class Rows(NamedTuple):
    """What :func:`read_rows` reads.

    Attributes
    ----------
    values : sequence of Fraction, or None
        Every state's value (format 4 and 5: a :class:`ReadValues`, the integer parts the
        certificate reads); ``None`` when some rows store no value.
    exact : list
        Every state's value in the backend's type; ``bk.ZERO`` where a row stores none.
    choice : int array
        The flat action of each row.
    kept : bool array or None
        The states whose rows store a value; ``None`` when every row does.
    """

    values: Sequence[Fraction] | None
    exact: list[Any]
    choice: np.ndarray[Any, np.dtype[np.int64]]
    kept: np.ndarray[Any, np.dtype[np.bool_]] | None


def read_rows(fail: Fail, g: CompiledGame[Any, Any], rows: list[Any], denominators: list[Any],
              max_digits: int) -> Rows:
    """Values (as ``Fraction`` s, read as their integer parts, and in the backend's type)
    and flat chosen actions of the rows of a file of format 4 or 5.

    ``rows`` has one entry per state of ``g`` (the caller checked the count). Each row
    must name the game's state at its position, an action position the state has, that
    action's ``repr``, and a value in lowest terms over a listed denominator, or (format
    5) ``null`` for both: which states may omit their value is the caller's to check.
    """
    states, numerators, index, positions, labels = _columns(fail, rows)
    expected = state_texts(g)
    _check_states(fail, states, expected)
    choice = _choice(fail, g, positions, expected)
    _check_labels(fail, g, labels, choice, positions, expected)
    name = _row_name(expected)
    if None not in numerators and None not in index:
        values, exact = _values(fail, numerators, index, denominators, name, max_digits)
        return Rows(values, exact, choice, None)
    kept = _stored(fail, numerators, index, name)
    at: list[int] = np.flatnonzero(kept).tolist()
    _, stored = _values(fail, [numerators[i] for i in at], [index[i] for i in at], denominators,
                        lambda u: name(at[u]), max_digits)
    every: list[Any] = [bk.ZERO] * len(numerators)
    for i, v in zip(at, stored, strict=True):
        every[i] = v
    return Rows(None, every, choice, kept)


def _stored(fail: Fail, numerators: list[Any], index: list[Any], name: Callable[[int], str]
            ) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """The rows that store a value: those whose numerator and denominator are not null
    (a row with one null field only is refused)."""
    kept = np.fromiter((p is not None for p in numerators), dtype=bool, count=len(numerators))
    has_index = np.fromiter((d is not None for d in index), dtype=bool, count=len(index))
    if (kept != has_index).any():
        i = _first(kept != has_index)
        fail(f"{name(i)}: the numerator is {'not ' if kept[i] else ''}null but the denominator is "
             f"{'' if kept[i] else 'not '}null (a row stores its value whole, or null for both)")
    return kept
