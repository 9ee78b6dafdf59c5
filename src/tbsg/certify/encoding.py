"""The state rows of a saved solution (format version 4), written and read in bulk.

A solution file holds one row per state, in the order the game's compile enumerates
them: the state's ``repr``, its exact value, the position of the chosen action among the
state's actions and that action's ``repr``. Format 4 writes each row as a JSON array

.. code-block:: text

    ["RoSState(mover=0, open=0, saved=0, other=0)", "2236", 1, 0, "'toss'"]

whose value is ``numerator / denominators[1]``: the file lists the distinct denominators
of the values once (``"denominators": ["1", "4165", ...]``, decimal texts, in order of
first use) and each row names one by its position. The value ``p/q`` of a state is in
lowest terms, ``gcd(p, q) = 1``, so every rational has exactly one encoding and ``0`` is
``"0"`` over the denominator ``"1"``.

Why this layout: the values of a solved game share few denominators (those of one
strongly connected component are divisors of one determinant; Pig to 50 has 115,444
states and 4,319 distinct denominators), so writing each once makes files about a third
smaller; and rows that are arrays of fixed length can be read column by column. Every
check :func:`read_rows` makes is then one pass of C code over a column (a list
comparison of the state texts with the game's, a range test of the action positions in
numpy, one parse per number, and lowest terms checked with one gcd per denominator, not
per value: see :func:`_coprime`), with a Python loop only to name the first row that
fails. The text stays
plain JSON with one state per line, readable and diff-able.

Reading and writing build hundreds of thousands of small objects (the parsed rows, the
texts, the numbers), none of them in a reference cycle; Python's cycle collector would
nevertheless traverse every live object again and again as they accumulate (it runs
after every few hundred allocations, and its older generations grow with the file), so
:func:`no_cycle_collection` pauses it while they are built. Reference counting still
frees everything; the pause changes only when cycles elsewhere are collected.

Nothing in a row makes the reader do more than its size justifies: a number longer than
``max_digits`` characters is refused on its length, before it is parsed; a number is
parsed by GMP when gmpy2 is installed (close to linear in its digits).
"""

from __future__ import annotations

import gc
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from fractions import Fraction
from json.encoder import encode_basestring
from typing import Any, NoReturn, TextIO

import numpy as np

from tbsg.engine import _backend as bk
from tbsg.engine.compiled import CompiledGame
from tbsg.errors import shorten

__all__ = ["ROW_FIELDS", "encode_values", "label_texts", "no_cycle_collection", "read_denominators",
           "read_rows", "state_texts", "write_rows"]

ROW_FIELDS = ("state", "numerator", "denominator", "action", "label")
"""The fields of a row, in the order a row lists them."""

_CHUNK = 4096
"""Rows joined into one string before writing: the file is streamed in pieces this long."""
_NUMERATOR = re.compile(r"0|-?[1-9][0-9]*")
_DENOMINATOR = re.compile(r"[1-9][0-9]*")

Fail = Callable[[str], NoReturn]

if bk.BACKEND == "gmpy2":
    from gmpy2 import gcd as _gcd
    from gmpy2 import mpz as _parse_int
else:
    from math import gcd as _gcd

    _parse_int = int


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """Pause Python's cycle collector inside a ``with`` block (restored as it was)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def state_texts(g: CompiledGame[Any, Any]) -> list[str]:
    """The ``repr`` of every state, in enumeration order."""
    return list(map(repr, g.states))


def label_texts(g: CompiledGame[Any, Any], actions: Sequence[int]) -> list[str]:
    """The ``repr`` of the action at each flat position in ``actions``.

    Action objects repeat (a game offers the same few labels everywhere), so each distinct
    object is written once and its text reused.
    """
    labels = g.act_labels
    memo: dict[int, str] = {}
    out = []
    for k in actions:
        label = labels[k]
        text = memo.get(id(label))
        if text is None:
            text = memo[id(label)] = repr(label)
        out.append(text)
    return out


def encode_values(values: Sequence[Any]) -> tuple[list[str], list[str], list[int]]:
    """``(denominators, numerators, index)``: the distinct denominators as texts in order
    of first use, each value's numerator as text and the position of its denominator."""
    where: dict[int, int] = {}
    index = []
    for x in values:
        d = x.denominator
        i = where.get(d)
        if i is None:
            i = where[d] = len(where)
        index.append(i)
    return list(map(str, where)), [str(x.numerator) for x in values], index


def write_rows(out: TextIO, states: list[str], numerators: list[str], index: list[int],
               actions: list[int], labels: list[str]) -> None:
    """Write the rows, one JSON array per line separated by ``",\\n"``, in chunks."""
    enc = encode_basestring
    label_json = {text: enc(text) for text in set(labels)}
    for start in range(0, len(states), _CHUNK):
        stop = start + _CHUNK
        if start:
            out.write(",\n")
        out.write(",\n".join(
            f'  [{enc(s)}, "{p}", {d}, {a}, {label_json[lab]}]' for s, p, d, a, lab in zip(
                states[start:stop], numerators[start:stop], index[start:stop], actions[start:stop],
                labels[start:stop], strict=True)))


# --- reading -------------------------------------------------------------------------------

def _first(flags: Sequence[bool] | np.ndarray[Any, Any]) -> int:
    """Position of the first true flag (the caller knows there is one)."""
    return next(i for i, bad in enumerate(flags) if bad)


def _columns(fail: Fail, rows: list[Any]) -> tuple[tuple[Any, ...], ...]:
    """The five columns of the rows, each row checked to be an array of five fields."""
    width = len(ROW_FIELDS)
    if not all(type(row) is list and len(row) == width for row in rows):
        i = _first([not (type(row) is list and len(row) == width) for row in rows])
        fail(f"state row {i} should be an array [{', '.join(ROW_FIELDS)}], found "
             f"{shorten(repr(rows[i]), 80)}")
    return tuple(zip(*rows, strict=True)) if rows else ((),) * width


def _check_states(fail: Fail, written: tuple[Any, ...], expected: list[str]) -> None:
    if list(written) != expected:
        i = _first([w != e for w, e in zip(written, expected, strict=True)])
        shown = written[i] if isinstance(written[i], str) else repr(written[i])
        fail(f"state row {i} is {shorten(shown, 80)} but the game's state there is "
             f"{shorten(expected[i], 80)}")


def _check_ints(fail: Fail, column: tuple[Any, ...], field: str, states: list[str]) -> None:
    if not all(type(x) is int for x in column):
        i = _first([type(x) is not int for x in column])
        fail(f"state row {i} ({shorten(states[i], 60)}): {field!r} should be int, found "
             f"{shorten(repr(column[i]), 60)}")


def _choice(fail: Fail, g: CompiledGame[Any, Any], column: tuple[Any, ...],
            states: list[str]) -> np.ndarray[Any, np.dtype[np.int64]]:
    """The flat action of each row, each position checked against its state's actions."""
    _check_ints(fail, column, "action", states)
    ptr = g.act_ptr.astype(np.int64)
    counts = np.diff(ptr)
    small = np.array([x if 0 <= x < 2**62 else -1 for x in column], dtype=np.int64)
    bad = (small < 0) | (small >= counts)
    if bad.any():
        i = _first(bad)
        fail(f"state row {i} ({shorten(states[i], 60)}): action {shorten(repr(column[i]), 40)} out of "
             f"range, the state has {counts[i]}")
    return ptr[:-1] + small


def _check_labels(fail: Fail, g: CompiledGame[Any, Any], written: tuple[Any, ...],
                  choice: np.ndarray[Any, Any], positions: tuple[Any, ...], states: list[str]) -> None:
    expected = label_texts(g, choice.tolist())
    if list(written) != expected:
        i = _first([w != e for w, e in zip(written, expected, strict=True)])
        fail(f"state row {i} ({shorten(states[i], 60)}): action {positions[i]} is "
             f"{shorten(expected[i], 60)}, the file says {shorten(repr(written[i]), 60)}")


def _texts(fail: Fail, column: Sequence[Any], pattern: re.Pattern[str], max_digits: int,
           name: Callable[[int], str], what: str) -> None:
    """Each entry a ``str`` of at most ``max_digits`` characters matching ``pattern``."""
    if not all(type(x) is str for x in column):
        i = _first([type(x) is not str for x in column])
        fail(f"{name(i)}: {shorten(repr(column[i]), 60)} is not {what} written as a text")
    longest = max(map(len, column), default=0)
    if longest > max_digits:
        i = _first([len(x) > max_digits for x in column])
        fail(f"{name(i)}: a number of {len(column[i]):,} characters, more than max_digits="
             f"{max_digits:,} (raise it for a file you trust)")
    if not all(map(pattern.fullmatch, column)):
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
    return list(map(_parse_int, texts))


def _coprime(fail: Fail, numbers: list[Any], index: tuple[int, ...], denominators: list[Any],
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
    if all(_gcd(p, d) == 1 for p, d in zip(product, denominators, strict=True)):
        return
    i = _first([_gcd(n, denominators[j]) != 1 for n, j in zip(numbers, index, strict=True)])
    fail(f"{name(i)}: value {shorten(str(numbers[i]), 30)}/{shorten(str(denominators[index[i]]), 30)} "
         "is not in lowest terms")


def _values(fail: Fail, numerators: tuple[Any, ...], index: tuple[Any, ...], denominators: list[Any],
            states: list[str], max_digits: int) -> tuple[list[Fraction], list[Any]]:
    """The values ``numerator / denominator``, each in lowest terms, as ``Fraction`` (of
    Python ints) and in the backend's type.

    Neither is reduced again: GMP takes a ``Fraction`` as the reduced pair it is.
    """
    def name(i: int) -> str:
        return f"state row {i} ({shorten(states[i], 60)})"

    _texts(fail, numerators, _NUMERATOR, max_digits, name, "an integer")
    _check_ints(fail, index, "denominator", states)
    n = len(denominators)
    if not all(0 <= d < n for d in index):
        i = _first([not 0 <= d < n for d in index])
        fail(f"{name(i)}: denominator {shorten(repr(index[i]), 40)} out of range, the file lists {n}")
    numbers = list(map(_parse_int, numerators))
    _coprime(fail, numbers, index, denominators, name)
    whole = [int(d) for d in denominators]
    fractions = [bk._coprime_fraction(int(p), whole[j]) for p, j in zip(numbers, index, strict=True)]
    return fractions, (list(map(bk.Q, fractions)) if bk.BACKEND == "gmpy2" else fractions)


def read_rows(fail: Fail, g: CompiledGame[Any, Any], rows: list[Any], denominators: list[Any], max_digits: int
              ) -> tuple[list[Fraction], list[Any], np.ndarray[Any, np.dtype[np.int64]]]:
    """Values (as ``Fraction`` and in the backend's type) and flat chosen actions of the
    rows of a format-4 file.

    ``rows`` has one entry per state of ``g`` (the caller checked the count). Each row
    must name the game's state at its position, an action position the state has, that
    action's ``repr``, and a value in lowest terms over a listed denominator.
    """
    states, numerators, index, positions, labels = _columns(fail, rows)
    expected = state_texts(g)
    _check_states(fail, states, expected)
    choice = _choice(fail, g, positions, expected)
    _check_labels(fail, g, labels, choice, positions, expected)
    return (*_values(fail, numerators, index, denominators, expected, max_digits), choice)
