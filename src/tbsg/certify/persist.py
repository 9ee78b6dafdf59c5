"""Saved solutions: an open, versioned JSON format in which every field is checked on load.

A file written by :func:`save` holds everything needed to rebuild and re-verify an exact
solution, and nothing that has to be trusted:

.. code-block:: text

    {
      "format": "tbsg-solution",            fixed marker
      "format_version": 5,                  this layout
      "tbsg_version": "0.1.0",              library that wrote it (informational)
      "game": {"module": "tbsg.games.risk_or_safety", "class": "RiskOrSafety",
               "fields": {"target": 4},     how to rebuild the game: its class and the
                                            parameters it reports (null if none)
               "factory": {"name": "risk_or_safety", "arguments": {"target": "4"}}},
                                            how it was built, if by a factory (or null)
      "graph": {"sha256": "...",            hash of the state graph, in enumeration order
                "states": 120, "actions": 200, "outcomes": 310, "components": 87,
                "largest_component": 6},
      "kind": "solve",                      solve | evaluate | best_response
      "optimizing": [0, 1],                 the players who optimise
      "method": "...",                      the kind in words (fixed text per kind)
      "infinite_play": null,                payoff "p/q" of never-ending play, if any
      "value": "2236/4165",                 value of the initial state (for readers)
      "denominators": ["4165", "595", ...], the distinct denominators of the values
      "states": [                           one line per state, in enumeration order:
        ["RoSState(mover=0, open=0, saved=0, other=0)", "2236", 0, 0, "'toss'"],
        ["RoSState(mover=0, open=1, saved=0, other=0)", null, null, 0, "'toss'"], ...]
    }                                       state, numerator, denominator, action, label

Values are exact, to player 0 (as everywhere in tbsg): a row's value is its numerator
over the denominator the row names by its position in ``denominators``, in lowest terms;
``action`` is the position of the chosen action in ``game.actions(state)`` and ``label``
its ``repr``. The rows are written and read in bulk (:mod:`tbsg.certify.encoding`, which
says why the layout is what it is).

A row may omit its value, ``null`` for both numerator and denominator, when the state's
value is read by no other strongly connected component and the state is not the initial
one (:func:`tbsg.engine.boundary.boundary_states`): :func:`save` writes such rows for a
solution that stores only these *boundary* values (``keep_values="boundary"``, or
``"auto"`` past its budget), whose other values would be most of the file as they are
most of the memory (Pig to 100 stores 19,405 of its 960,894 values). The omitted values
are determined: with the strategy fixed, the values of a component's states are the
unique solution of a linear system whose right-hand side reads only the values the
component's states reach outside it, which are boundary values
(:mod:`tbsg.engine.boundary`); the system is non-singular when play under the strategy
ends, so omitted values in a file whose play may not end (``infinite_play`` not null)
are refused rather than solved (and :func:`save` writes every value of such a solution).
:func:`load` recomputes them
(:func:`tbsg.engine.exact.recomputed_values`) and checks the certificate on every value,
stored or recomputed: the stored values are judged as in a file that holds every value,
and a recomputation that went wrong could not be certified. The loaded solution stores
the same values as the file.

Format version 5 is version 4 with these ``null`` rows (a solution that stores every
value writes what version 4 wrote, with the version number changed). Files of format
versions 4 (no ``null`` values), 3 (each row an object
``{"state": ..., "value": "p/q", "action": ..., "label": ...}``, and a second graph
hash ``sha256_unordered``) and 2 (no ``factory`` either) are read as well, with every
check they had.

A game's ``fields`` are the parameters it reports (:func:`tbsg.results.provenance.game_parameters`:
a ``parameters()`` method, or a dataclass's fields), as JSON: ``None``, ``bool``, ``int``,
``str``, and fractions as ``{"fraction": "p/q"}``; ``null`` for a game that reports
none, or a value JSON cannot hold. Its ``factory`` records how the game was built when
it was built by a factory: ``name`` a catalog name, ``module:factory`` or
``file.py:factory`` (a path relative to the solution file's folder), and ``arguments``
the texts of its parameters (``tbsg solve GAME -p NAME=VALUE`` writes both, so that
``tbsg verify FILE`` rebuilds the game the same way without retyping them). Files of
format version 2 (no ``factory``) are read as well.

The graph hash is SHA-256 over a canonical text of the compiled game: every state's
``repr``, mover, and each action's label, terminal payoff part and successor
probabilities, in enumeration order. (States must have a deterministic ``repr``;
:func:`graph_hash` is defined in ``tbsg.engine.fingerprint`` and is also the hash
:meth:`tbsg.Solution.provenance` reports.) :func:`save` and :func:`load` each hash the game
once. When the hash differs, the rows tell why: rows naming the game's states in another
order (actions returned from a set, a ``repr`` that changed) are told apart from another
game; files of format 3 tell it by their order-free hash.

:func:`load` rebuilds the game (or takes the ``game`` you pass), recompiles it no further
than the state count the file records, and checks **every field**: the keys present (no
more, no fewer, none twice), the game's class and fields, the hash(es) and five counts,
kind, players and method, the rule for infinite play, the top-level value against the
first row, and each row's state, value, action and label (and, from format 4, the table
of denominators: positive, each listed once; in format 5, which rows may omit their
value, before any is recomputed). Then, by default, it checks
the certificate on that same compile (:func:`tbsg.certify.certificate.check_certificate`,
the conditions :func:`tbsg.verify` checks, which also give the optimal actions): a loaded
solution is as trustworthy as a fresh one, and the game is compiled once. With
``check=False`` the optimal actions are derived by the same definition, unchecked.

Nothing in a file makes :func:`load` do more than the file's size and the game it names
justify. Integers longer than 100 digits and numbers longer than ``max_digits``
characters are refused on their text, before they are parsed; a number is checked to be
in lowest terms without being written back as text (quadratic in its digits). The
recorded game fields are checked against the class's annotations, and, for tbsg's own
games, against the ranges declared for them (:data:`tbsg.games.registry.GAME_BOUNDS`), before
the class is called: an edited die of a hundred million faces is refused, not built.
Messages shorten long values.

Games from the ``tbsg`` package are rebuilt from the file; a game of your own is passed
with ``game=``: the game itself, or its class, which :func:`load` calls with the fields
the file records (for a game that reports its parameters). ``import_game=True`` imports the module the file
names instead: only for files you trust. When the game cannot be had (a module that does
not import, a class that refuses the recorded fields, another class passed) the error is
:class:`~tbsg.errors.GameUnavailableError`: the file was not judged, as opposed to a
:class:`~tbsg.errors.SolutionFileError` or :class:`~tbsg.errors.TamperedSolutionError`
for a file that was checked and is wrong.

Examples
--------
>>> import os, tempfile, tbsg
>>> from tbsg.games import risk_or_safety
>>> path = os.path.join(tempfile.mkdtemp(), "ros4.json")
>>> save(tbsg.solve(risk_or_safety(4)), path)
>>> load(path).value()
Fraction(2236, 4165)
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import re
import sys
import time
import types
import typing
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, NoReturn, TypeVar, overload

import numpy as np

from tbsg._util.bounds import bounds_of
from tbsg._util.digits import approx_digits, fraction_text, short_fraction, unlimited_digits
from tbsg._util.gc import paused, release_free_memory
from tbsg._version import __version__
from tbsg.certify import encoding
from tbsg.certify.certificate import check_certificate, read_values
from tbsg.engine import _backend as bk
from tbsg.engine.boundary import BoundaryValues, as_list, boundary_states
from tbsg.engine.compile import DEFAULT_MAX_STATES, check_max_states, compile_game
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.exact import recomputed_values
from tbsg.engine.fingerprint import graph_hash
from tbsg.engine.graph import ComponentLabels, decompose, strong_components
from tbsg.engine.optimality import optimal_mask
from tbsg.errors import (
    GameUnavailableError,
    InvalidArgumentError,
    InvalidStrategyError,
    SolutionFileError,
    StateLimitError,
    TamperedSolutionError,
    shorten,
    show,
)
from tbsg.model.fixed import FixedStrategyGame
from tbsg.model.protocol import Game
from tbsg.results import Solution, SolutionKind
from tbsg.results.provenance import game_parameters

__all__ = ["FORMAT", "FORMAT_VERSION", "MAX_DIGITS", "GameRecord", "command_line", "graph_hash",
           "load", "read_game_record", "save"]

FORMAT = "tbsg-solution"
FORMAT_VERSION = 5
READS = (2, 3, 4, 5)
"""The format versions :func:`load` reads (version 2 records no factory; 2 and 3 write each
row as an object with the value as ``"p/q"`` and record a second, order-free graph hash;
4 writes every value, 5 may omit those of states no other component reads)."""
MAX_DIGITS = 1_000_000 if bk.BACKEND == "gmpy2" else 100_000
"""Default limit on the characters of one number in a file (Pig to 100 needs about 42,000).

GMP parses and reduces numbers in time close to linear in their digits; Python's own
integer parsing and gcd are quadratic, so without gmpy2 the limit is ten times smaller.
"""
TRUSTED_MODULES = ("tbsg.",)
"""Modules whose games :func:`load` rebuilds without ``import_game=True``."""

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

_RATIONAL = re.compile(r"-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?")
_VERSION = re.compile(r"[0-9]+(\.[0-9]+)*([a-z]+[0-9]*)?(\+[A-Za-z0-9.]+)?")
_TOP_KEYS = {"format", "format_version", "tbsg_version", "game", "graph", "kind", "optimizing",
             "method", "infinite_play", "value", "denominators", "states"}
_GAME_KEYS = {"module", "class", "fields", "factory"}
_FACTORY_KEYS = {"name", "arguments"}
_NAME_CHARS = 1000
"""Longest factory name or parameter name or text a file may record."""
_GRAPH_KEYS = {"sha256", "states", "actions", "outcomes", "components", "largest_component"}
_UNORDERED = "sha256_unordered"
"""The order-free graph hash files of versions 2 and 3 record besides ``sha256``."""
_INT_DIGITS = 100
"""Longest integer literal a file may hold (counts, action positions, game parameters)."""
_PARSE_DIGITS = 640
"""Python's least int/str digit limit, in force while a file is parsed."""
_ROW_KEYS = {"state", "value", "action", "label"}
_METHOD = {
    SolutionKind.SOLVE: "optimal play of both players (tbsg.solve), exact",
    SolutionKind.EVALUATE: "values of a fixed strategy profile (tbsg.evaluate), exact",
    SolutionKind.BEST_RESPONSE: "best response to a fixed opponent (tbsg.best_response), exact",
}


# --- saving --------------------------------------------------------------------------------

def _encode_field(value: object) -> object:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, Fraction):
        return {"fraction": fraction_text(value)}
    raise TypeError(type(value).__name__)


def _game_record(game: object, factory: dict[str, Any] | None = None) -> dict[str, Any]:
    """Class, module and (JSON-encoded) parameters of ``game``, and how it was built."""
    values = game_parameters(game)
    fields: dict[str, object] | None = None
    if values is not None:
        try:
            fields = {name: _encode_field(value) for name, value in values.items()}
        except TypeError:
            fields = None  # a value JSON cannot hold: the game must be passed to load()
    return {"module": type(game).__module__, "class": type(game).__qualname__, "fields": fields,
            "factory": factory}


def _factory_record(factory: object, arguments: object) -> dict[str, Any] | None:
    """``{"name": ..., "arguments": {...}}`` of :func:`save`'s ``factory`` and ``arguments``."""
    if factory is None:
        if arguments is not None:
            raise InvalidArgumentError("arguments= are the parameters of factory=: give factory too")
        return None
    if not isinstance(factory, str) or not factory or len(factory) > _NAME_CHARS:
        raise InvalidArgumentError(f"factory must be a non-empty str (a catalog name, module:factory "
                                   f"or file.py:factory), got {show(factory, 60)}")
    texts = {} if arguments is None else arguments
    if not isinstance(texts, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and len(k) <= _NAME_CHARS
            and len(v) <= _NAME_CHARS for k, v in texts.items()):
        raise InvalidArgumentError(f"arguments must map parameter names to their texts (str to str, "
                                   f"as -p NAME=VALUE gives them), got {show(arguments, 80)}")
    return {"name": factory, "arguments": dict(texts)}


@unlimited_digits()
def save(solution: Solution[S, A], path: str | os.PathLike[str], *,
         game: object | None = None, factory: str | None = None,
         arguments: dict[str, str] | None = None) -> None:
    """Write an exact solution to ``path`` as JSON (any kind: solve, evaluate, best response).

    Parameters
    ----------
    solution : Solution
        An exact solution.
    path : str or path-like
        File to write (overwritten).
    game : object, optional
        The game solved; defaults to ``solution.game``.
    factory : str, optional
        How the game was built: a catalog name, ``module:factory`` or ``file.py:factory``
        (a path relative to the folder of ``path``), recorded so that the game can be
        rebuilt from the file alone (``tbsg verify FILE``).
    arguments : dict of str to str, optional
        The factory's parameters as texts, as ``-p NAME=VALUE`` gives them.

    Raises
    ------
    InvalidArgumentError
        For a float solution (float bounds are not a certificate; save the exact one).
    SolutionFileError
        For a solution without its game, or a path that cannot be written.
    InvalidGameError
        For a game whose ``parameters()`` raises or returns no mapping of names.
    """
    if not isinstance(solution, Solution):
        raise InvalidArgumentError(
            f"save() takes an exact tbsg.Solution, got {type(solution).__name__}")
    game = solution.game if game is None else game
    if game is None:
        raise SolutionFileError("the solution does not record its game; pass game=")
    _check_path(path)
    record = _game_record(game, _factory_record(factory, arguments))
    g = solution.graph
    choice = solution.choice.tolist()
    try:
        states = encoding.state_texts(g)
        labels = encoding.label_texts(g, choice)
    except Exception as exc:  # a user __repr__ that raises
        raise SolutionFileError(f"{path}: cannot write a state or action as text ({type(exc).__name__}: "
                                f"{shorten(str(exc))}); states and actions need a repr") from exc
    # the stored backend values (GMP's integers print in linear time), not Fraction views;
    # of a solution that stores its boundary values only, those (the others are null);
    # every value when play may not end, since load recomputes omitted values only in a
    # game that stops (a file with 'infinite_play' and nulls is refused)
    raw = solution._raw_values
    denominators, numerators, index = (
        encoding.encode_stored(raw.kept_values(), raw.kept)
        if isinstance(raw, BoundaryValues) and solution.infinite_play is None
        else encoding.encode_values(as_list(raw)))
    head = _head(solution, record, denominators)
    # one state per line: readable, diff-able, and still plain JSON
    text = json.dumps(head, indent=1, ensure_ascii=False)[:-2]
    actions = (solution.choice - g.act_ptr[:-1]).tolist()
    try:
        with Path(path).open("w", encoding="utf-8") as out, paused():
            out.write(f'{text},\n "states": [\n')
            encoding.write_rows(out, states, numerators, index, actions, labels)
            out.write("\n ]\n}\n")
    except (OSError, ValueError) as exc:
        raise SolutionFileError(f"{path}: cannot write: {getattr(exc, 'strerror', None) or exc}") from exc


def _head(solution: Solution[Any, Any], record: dict[str, Any], denominators: list[str]) -> dict[str, Any]:
    """Every field of the file before its rows."""
    g = solution.graph
    value = solution.values_exact[0]
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "tbsg_version": __version__,
        "game": record,
        "graph": {"sha256": solution._graph_sha256,  # (computed once per solution)
                  "states": g.n_states, "actions": g.n_actions, "outcomes": len(g.out_target),
                  "components": solution.n_components,
                  "largest_component": solution.largest_component},
        "kind": solution.kind.value,
        "optimizing": list(solution.optimizing),
        "method": _METHOD[solution.kind],
        "infinite_play": None if solution.infinite_play is None else fraction_text(solution.infinite_play),
        "value": fraction_text(value),
        "denominators": denominators,
    }


def _check_path(path: object) -> None:
    if not isinstance(path, (str, os.PathLike)) or not str(os.fspath(path)):
        raise InvalidArgumentError(f"path must be a non-empty str or path-like, got {show(path)}")


# --- loading -------------------------------------------------------------------------------

class _Reader:
    """Checks of one file's fields, with messages naming the file and the field."""

    def __init__(self, path: object, max_digits: int) -> None:
        self.path = path
        self.max_digits = max_digits

    def fail(self, message: str) -> NoReturn:
        raise SolutionFileError(f"{self.path}: {message}")

    def keys(self, obj: object, expected: set[str], where: str) -> dict[str, Any]:
        if not isinstance(obj, dict):
            self.fail(f"{where} should be an object, found {type(obj).__name__}")
        missing = sorted(expected - set(obj))
        extra = sorted(set(obj) - expected)
        if missing or extra:
            self.fail(f"{where} has {'missing ' + ', '.join(missing) if missing else ''}"
                      f"{'; ' if missing and extra else ''}"
                      f"{'unexpected ' + ', '.join(shorten(k, 40) for k in extra) if extra else ''} "
                      f"field(s)")
        return obj

    def get(self, obj: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
        value = obj[key]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            name = getattr(kind, "__name__", None) or " or ".join(k.__name__ for k in kind)  # type: ignore[union-attr]
            self.fail(f"{where}{key!r} should be {name}, found {type(value).__name__} "
                      f"{shorten(repr(value), 60)}")
        return value

    def rational(self, text: object, where: str) -> Fraction:
        if not isinstance(text, str):
            self.fail(f"{where}: {shorten(repr(text), 60)} is not an exact rational 'p/q'")
        if len(text) > self.max_digits:
            self.fail(f"{where}: a number of {len(text):,} characters, more than max_digits="
                      f"{self.max_digits:,} (raise it for a file you trust)")
        if not _RATIONAL.fullmatch(text):
            self.fail(f"{where}: value {shorten(repr(text), 60)} is not an exact rational 'p/q'")
        x = bk.fraction_from_text(text)
        # lowest terms, checked without writing x back as text (quadratic in its digits):
        # the denominator written is the reduced one, and "p/1", "0/q", "-0" are not written
        _, slash, den = text.partition("/")
        reduced = (x.denominator != 1 and bk.fraction_from_text(den).numerator == x.denominator
                   if slash else text != "-0")
        if not reduced:
            self.fail(f"{where}: value {shorten(text, 60)} is not in lowest terms")
        return x


def _rebuild_game(r: _Reader, info: dict[str, Any], game: object | None,
                  import_game: bool) -> Game[Any, Any]:
    """The game of the file: ``game`` itself, or rebuilt from the recorded fields with the
    class ``game`` (a class), the trusted module's class, or (``import_game``) any module's.

    A file whose game cannot be had is not judged: :class:`GameUnavailableError`.
    """
    module = r.get(info, "module", str, "game ")
    cls_name = r.get(info, "class", str, "game ")
    fields = info["fields"]
    if fields is not None and not isinstance(fields, dict):
        r.fail(f"game 'fields' should be an object or null, found {type(fields).__name__}")

    def unavailable(message: str) -> NoReturn:
        raise GameUnavailableError(f"{r.path}: {message}", module, cls_name)

    built = _built_by(_factory_info(r, info))
    if game is not None:
        _check_given_class(game if isinstance(game, type) else type(game), module, cls_name, unavailable)
        if not isinstance(game, type):
            _check_given_fields(game, fields, cls_name, unavailable)
            return game  # type: ignore[return-value]  # checked by compiling
    elif not (import_game or module.startswith(TRUSTED_MODULES)):
        unavailable(f"the game is {module}.{cls_name}, outside tbsg{built}: pass it (load(path, "
                    "game=...), or its class) or, for a file you trust, rebuild it from the file "
                    "(import_game=True; tbsg verify FILE --import-game)")
    if fields is None:
        unavailable(f"the game {cls_name} has no fields recorded (it reports no parameters of JSON "
                    f"values){built}: pass the game itself with game=")
    cls = game if game is not None else _import_class(module, cls_name, unavailable)
    if not (isinstance(cls, type) and (dataclasses.is_dataclass(cls) or _reports_parameters(cls))):
        unavailable(f"{module}.{cls_name} is neither a dataclass nor a class with parameters(){built}: "
                    "pass the game itself with game=")
    return _construct(r, cls, _decode_fields(r, cls, fields, cls_name, unavailable), fields,
                      cls_name, unavailable)


def _reports_parameters(cls: type) -> bool:
    """Whether instances of ``cls`` report their parameters with a ``parameters()`` method."""
    return callable(getattr(cls, "parameters", None))


def _factory_info(r: _Reader, info: dict[str, Any]) -> tuple[str, dict[str, str]] | None:
    """The factory the game record names and its argument texts (``None``: none recorded)."""
    raw = info.get("factory")
    if raw is None:
        return None
    factory = r.keys(raw, _FACTORY_KEYS, "game 'factory'")
    name = r.get(factory, "name", str, "game factory ")
    arguments = r.get(factory, "arguments", dict, "game factory ")
    if not name or len(name) > _NAME_CHARS:
        r.fail(f"game factory 'name' {shorten(repr(name), 60)} is not a factory name")
    for key, text in arguments.items():
        if not isinstance(text, str) or len(key) > _NAME_CHARS or len(text) > _NAME_CHARS:
            r.fail(f"game factory argument {shorten(repr(key), 40)} should be a text of at most "
                   f"{_NAME_CHARS} characters, found {shorten(repr(text), 60)}")
    return name, arguments


def _built_by(factory: tuple[str, dict[str, str]] | None) -> str:
    """``" (built by NAME -p ...)"`` for messages, or ``""``."""
    if factory is None:
        return ""
    name, arguments = factory
    return f" (built by {shorten(command_line(name, arguments), 200)})"


def command_line(name: str, arguments: dict[str, str]) -> str:
    """``NAME -p K=V ...``: how the command line names a game built by a factory.

    >>> command_line("./duel.py:duel", {"goal": "20"})
    './duel.py:duel -p goal=20'
    """
    return " ".join([name, *(f"-p {k}={v}" for k, v in arguments.items())])


def _check_given_class(kind: type, module: str, cls_name: str,
                       unavailable: Callable[[str], NoReturn]) -> None:
    """The class of the game passed to :func:`load` is the file's (a game run as a script
    is recorded under ``__main__``)."""
    if kind.__qualname__ != cls_name or (kind.__module__ != module
                                         and "__main__" not in (module, kind.__module__)):
        unavailable(f"the file is for {module}.{cls_name}, the game given is "
                    f"{kind.__module__}.{kind.__qualname__}")


def _check_given_fields(game: object, fields: dict[str, Any] | None, cls_name: str,
                        unavailable: Callable[[str], NoReturn]) -> None:
    """The game passed to :func:`load` has the fields the file records (if it records any)."""
    if fields is not None and _game_record(game)["fields"] != fields:
        unavailable(f"the file is for {cls_name} with fields {shorten(repr(fields), 200)}; "
                    f"the game given has {shorten(repr(_game_record(game)['fields']), 200)}")


def _import_class(module: str, cls_name: str, unavailable: Callable[[str], NoReturn]) -> object:
    """The class the file names, imported (running the module's code)."""
    try:
        cls: object = importlib.import_module(module)
        for part in cls_name.split("."):
            cls = getattr(cls, part)
    except Exception as exc:  # ImportError, or any error raised by the module's code
        unavailable(f"cannot find the game class {module}.{cls_name}: {type(exc).__name__}: "
                    f"{shorten(str(exc))}")
    return cls


def _construct(r: _Reader, cls: type, decoded: dict[str, object], fields: dict[str, Any],
               cls_name: str, unavailable: Callable[[str], NoReturn]) -> Game[Any, Any]:
    """``cls(**decoded)``; a constructor that refuses the fields leaves the game unavailable."""
    try:
        rebuilt: Game[Any, Any] = cls(**decoded)
        return rebuilt
    except MemoryError:
        r.fail(f"rebuilding {cls_name} from fields {shorten(repr(fields), 200)} ran out of memory "
               "(edited parameters?)")
    except Exception as exc:  # the constructor refuses the recorded fields
        unavailable(f"cannot rebuild {cls_name} from fields {shorten(repr(fields), 200)}: "
                    f"{type(exc).__name__}: {shorten(str(exc))}")


_FRACTION_KEYS = {"fraction"}


def _decode_fields(r: _Reader, cls: type, fields: dict[str, Any], cls_name: str,
                   unavailable: Callable[[str], NoReturn]) -> dict[str, object]:
    """The recorded ``fields`` as keyword arguments of ``cls``, checked before ``cls`` is called.

    Names against the dataclass's fields; each value's type against the field's
    annotation, on the JSON value (a fraction of the wrong field is not even parsed); and,
    for a game of tbsg, each number against the range :data:`tbsg.games.registry.GAME_BOUNDS`
    declares for it. The enumeration limit (the recorded state count) bounds how many
    states the rebuilt game may have, not what one call of ``actions`` or ``outcomes``
    builds, nor the constructor: those the declared ranges bound.
    """
    init, required = _keywords(cls)
    unknown = [name for name in fields if name not in init]
    missing = [name for name in required if name not in fields]
    if unknown or missing:
        problem = (f"it has no field {', '.join(shorten(repr(n), 40) for n in unknown)}" if unknown
                   else f"the file records no {', '.join(map(repr, missing))}")
        unavailable(f"cannot rebuild {cls_name} from fields {shorten(repr(fields), 200)}: {problem} "
                    f"(its fields: {', '.join(init) or 'none'})")
    try:
        hints = typing.get_type_hints(cls if dataclasses.is_dataclass(cls)
                                      else cls.__init__)  # type: ignore[misc]  # the class's own
    except Exception:  # names the annotations cannot resolve: the constructor checks
        hints = {}
    decoded: dict[str, object] = {}
    for name, value in fields.items():
        is_fraction = isinstance(value, dict) and set(value) == _FRACTION_KEYS
        if not (is_fraction or value is None or isinstance(value, (bool, int, str))):
            r.fail(f"game field {name!r} has an unsupported value {shorten(repr(value), 60)}")
        hint = hints.get(name, Any)
        if not _fits(value, hint):
            found = (f"fraction {shorten(str(value['fraction']), 40)}" if is_fraction
                     else f"{type(value).__name__} {shorten(repr(value), 60)}")
            r.fail(f"game field {name!r} should be {_hint_text(hint)} (the annotation of "
                   f"{cls_name}.{name}), found {found}")
        decoded[name] = r.rational(value["fraction"], f"game field {name!r}") if is_fraction else value
    if not cls.__module__.startswith(TRUSTED_MODULES):
        return decoded  # a game of one's own: its class declares no ranges
    declared = bounds_of(cls.__module__, cls.__qualname__) or {}
    beyond = (f"; for a genuine game, pass it: load(path, game={cls_name}(...)), or tbsg verify FILE "
              f"--game {cls.__module__}:{cls.__qualname__} -p NAME=VALUE")
    for name, value in decoded.items():
        numeric = isinstance(value, (int, Fraction)) and not isinstance(value, bool)
        if not numeric and name not in declared:
            continue  # a str, bool or None, which the annotation checked
        bounds = declared.get(name)
        if bounds is None:
            unavailable(f"tbsg declares no range for game field {name!r} of {cls_name}, so it does not "
                        f"build that game from a file{beyond}")
        wrong = bounds.problem(value)
        if wrong is not None:
            shown = short_fraction(value, 60) if isinstance(value, Fraction) else show(value, 60)
            unavailable(f"game field {name!r} of {cls_name} is {shown} ({wrong}): tbsg rebuilds "
                        f"{cls_name} from a file for {bounds} only (edited?){beyond}")
    return decoded


def _keywords(cls: type) -> tuple[list[str], list[str]]:
    """The keyword parameters of ``cls(...)`` and those without a default.

    A dataclass's are its ``init`` fields; another class's, its constructor's signature.
    """
    if dataclasses.is_dataclass(cls):
        fields = [f for f in dataclasses.fields(cls) if f.init]
        return [f.name for f in fields], [f.name for f in fields if f.default is dataclasses.MISSING
                                          and f.default_factory is dataclasses.MISSING]
    import inspect

    try:
        params = [p for p in inspect.signature(cls).parameters.values()
                  if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    except (TypeError, ValueError):  # no signature to read: the constructor checks
        return [], []
    return [p.name for p in params], [p.name for p in params if p.default is p.empty]


def _fits(value: object, hint: object) -> bool:
    """Whether the JSON ``value`` of a game field (a fraction as ``{"fraction": ...}``) can
    be of the annotation ``hint``; annotations other than int, bool, str, Fraction, None,
    Literal and their unions are left to the constructor."""
    if hint in (Any, object) or isinstance(hint, typing.TypeVar):
        return True
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return any(type(value) is type(c) and value == c for c in typing.get_args(hint))
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, m) for m in typing.get_args(hint))
    test = _SIMPLE_FITS.get(hint) if isinstance(hint, type) else None
    return True if test is None else test(value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_SIMPLE_FITS: dict[type, Callable[[object], bool]] = {
    type(None): lambda value: value is None,
    bool: lambda value: isinstance(value, bool),
    int: _is_int,
    str: lambda value: isinstance(value, str),
    Fraction: lambda value: isinstance(value, dict) or _is_int(value),  # {"fraction": "p/q"} or an int
}
"""The test of a JSON value against each plain annotation :func:`_fits` knows."""


def _hint_text(hint: object) -> str:
    if typing.get_origin(hint) is typing.Literal:
        return "one of " + ", ".join(map(repr, typing.get_args(hint)))
    return hint.__name__ if isinstance(hint, type) else str(hint).replace("typing.", "")


def _where(doc: object, target: object) -> str:
    """Where the JSON object ``target`` lies in ``doc``: ``states[3]``, ``game.fields``, ..."""
    stack: list[tuple[object, str]] = [(doc, "")]
    while stack:
        obj, path = stack.pop()
        if obj is target:
            return path or "the top-level object"
        if isinstance(obj, dict):
            stack.extend((v, f"{path}.{shorten(k, 40)}" if path else shorten(k, 40))
                         for k, v in obj.items() if isinstance(v, (dict, list)))
        elif isinstance(obj, list):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(obj) if isinstance(v, (dict, list)))
    return "the file"


def _read_json(r: _Reader, path: str | os.PathLike[str]) -> dict[str, Any]:
    """The file's top-level object, parsed and checked for format, version and keys."""
    doc = _parse(r, _read_text(r, path))
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        r.fail(f"not a tbsg solution file (no \"format\": {FORMAT!r})")
    version = doc.get("format_version")
    if type(version) is not int or version not in READS:
        r.fail(f"format_version {shorten(repr(version), 40)} is not supported (this tbsg reads "
               f"{' and '.join(map(str, READS))}; files of version 1 were written by development "
               "versions: solve and save again)")
    return r.keys(doc, _TOP_KEYS if version >= 4 else _TOP_KEYS - {"denominators"}, "the file")


def _read_text(r: _Reader, path: str | os.PathLike[str]) -> str:
    try:
        file = Path(path)
        if not file.is_file():
            r.fail("cannot read: not a regular file" if file.exists() else "cannot read: no such file")
        return file.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        r.fail(f"not a UTF-8 text file ({exc.reason} at byte {exc.start})")
    except (OSError, ValueError) as exc:
        r.fail(f"cannot read: {getattr(exc, 'strerror', None) or exc}")


def _long_integer(r: _Reader, digits: str) -> NoReturn:
    r.fail(f"an integer of {digits} digits, more than the {_INT_DIGITS} any field of a solution "
           "file needs (edited?)")


def _check_integers(r: _Reader, doc: object) -> None:
    """Refuse integers of more than :data:`_INT_DIGITS` digits outside the rows (whose
    integers are positions, checked against their ranges)."""
    limit = 10 ** _INT_DIGITS
    stack = [v for k, v in doc.items() if k != "states"] if isinstance(doc, dict) else [doc]
    while stack:
        obj = stack.pop()
        if isinstance(obj, dict):
            stack.extend(obj.values())
        elif isinstance(obj, list):
            stack.extend(obj)
        elif type(obj) is int and not -limit < obj < limit:
            _long_integer(r, f"{approx_digits(obj):,}")


@contextmanager
def _parse_digits() -> Iterator[None]:
    """Python's least int/str digit limit, :data:`_PARSE_DIGITS`, inside a ``with`` block."""
    get = getattr(sys, "get_int_max_str_digits", None)
    if get is None:  # pragma: no cover - Python without the guard
        yield
        return
    old = get()
    sys.set_int_max_str_digits(_PARSE_DIGITS)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


def _parse(r: _Reader, text: str) -> object:
    """JSON, refusing integers longer than any field needs and keys given twice.

    Integer literals are parsed by the JSON parser's own C path, under Python's digit
    limit (:data:`_PARSE_DIGITS`): a longer literal is refused before it is converted, a
    shorter one costs little, and those beyond :data:`_INT_DIGITS` are refused after.
    """
    twice: list[tuple[str, dict[str, Any]]] = []

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) != len(pairs) and not twice:  # JSON would keep the last: refused below
            seen: set[str] = set()
            key = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
            twice.append((key, obj))
        return obj

    try:
        with paused(), _parse_digits():
            doc = json.loads(text, object_pairs_hook=unique)
    except json.JSONDecodeError as exc:
        r.fail(f"not valid JSON (truncated or edited?): {shorten(str(exc), 200)}")
    except ValueError:  # an integer literal beyond the digit limit
        _long_integer(r, f"more than {_PARSE_DIGITS}")
    except RecursionError:
        r.fail("not a tbsg solution file (JSON nested too deeply)")
    except MemoryError:
        r.fail("not a tbsg solution file (too large to read)")
    if twice:
        key, obj = twice[0]
        r.fail(f"key {shorten(repr(key), 40)} appears twice in {_where(doc, obj)} (edited?): a reader "
               "would see one value and JSON keep the other")
    _check_integers(r, doc)
    return doc


def _compile(r: _Reader, game: Game[S, A], counts: dict[str, int], max_states: int) -> CompiledGame[S, A]:
    """The game, enumerated no further than the sizes the file records."""
    recorded = counts["states"]
    limit = min(max_states, max(recorded, 1))
    try:
        return compile_game(game, max_states=limit, max_actions=max(counts["actions"], 1),
                            max_outcomes=max(counts["outcomes"], 0), check_arrays="all")
    except StateLimitError:
        if limit < max_states:  # the file's sizes bound enumeration, not the caller's limit
            r.fail(f"the rebuilt game is larger than the file records ({recorded} states, "
                   f"{counts['actions']} actions, {counts['outcomes']} outcomes): edited parameters "
                   "or another version of the game's rules?")
        raise
    except MemoryError:
        r.fail("rebuilding the game ran out of memory (edited parameters?)")


@overload
def load(path: str | os.PathLike[str], *, game: Game[S, A], check: bool = ...,
         max_states: int = ..., max_digits: int = ..., import_game: bool = ...) -> Solution[S, A]: ...
@overload
def load(path: str | os.PathLike[str], *, game: type | None = ..., check: bool = ...,
         max_states: int = ..., max_digits: int = ...,
         import_game: bool = ...) -> Solution[Hashable, Hashable]: ...
@unlimited_digits()
def load(path: str | os.PathLike[str], *, game: Game[S, A] | type | None = None, check: bool = True,
         max_states: int = DEFAULT_MAX_STATES, max_digits: int = MAX_DIGITS,
         import_game: bool = False) -> Solution[S, A] | Solution[Hashable, Hashable]:
    """Read a solution written by :func:`save`, rebuild its game and check every field.

    Parameters
    ----------
    path : str or path-like
    game : object or class, optional
        For a solution of a game outside tbsg (or to override): the game, or its class,
        called with the fields the file records (a dataclass game).
    check : bool
        Check the certificate exactly (default), on the game compiled for the field
        checks. ``False`` still checks every field against the rebuilt game (hashes,
        counts, rows).
    max_states : int
        Never enumerate more states than this (nor more than the file records).
    max_digits : int
        Refuse numbers longer than this many characters without parsing them.
    import_game : bool
        Import the module the file names to rebuild a game from outside tbsg. Importing
        runs that module's code: only for files you trust.

    Returns
    -------
    Solution
        With ``method`` saying where it came from and ``game`` the rebuilt game.

    Raises
    ------
    SolutionFileError
        Unreadable, truncated or edited file, wrong format version, or a game that does
        not match the file (hash, a count, a state, an action).
    GameUnavailableError
        (A ``SolutionFileError``.) The game cannot be had: not passed and outside tbsg
        (without ``import_game``), not importable, not rebuilt from the recorded fields,
        or another class or other fields than the file's passed as ``game``.
    TamperedSolutionError, NonStoppingGameError
        If the certificate fails (``check=True``). Also (``TamperedSolutionError``, with
        either ``check``) when the file omits values that its strategy leaves undetermined
        (play never ends among them: edited actions).
    """
    t0 = time.perf_counter()
    r = _Reader(path, _check_load_options(path, check, max_states, max_digits, import_game))
    doc = _read_json(r, path)
    the_game = _rebuild_game(r, _game_info(r, doc), game, import_game)
    graph, counts = _graph_info(r, doc)
    kind, optimizing = _kind(r, doc)
    g = _compile_recorded(r, doc, the_game, optimizing, counts, max_states)
    comps = _check_graph(r, g, graph, counts, doc["states"])
    c = _rule(r, doc, kind)
    rows = _rows(r, g, doc, c)
    choice = rows.choice
    exact: Sequence[Any] = rows.exact
    values: Sequence[Any]
    if rows.kept is None:  # every row has its value
        values = typing.cast("Sequence[Any]", rows.values)
    else:  # values omitted (format 5): recomputed from the stored ones and the strategy
        exact, values = _recomputed(r, g, choice, rows.exact, rows.kept, check)
    # the certificate's checks on this compile (tbsg.verify's, without compiling the game
    # again), which give the optimal actions; without them, the same mask unchecked
    optimal = (check_certificate(g, values, choice, optimizing, c, scc=comps.label) if check else
               optimal_mask(g, values, choice, optimizing=optimizing, infinite_play=c))
    if rows.kept is not None:  # every value was built to be checked: only the stored ones stay
        del values
        release_free_memory()
    return Solution(
        graph=g, method=f"{_METHOD[kind]} (loaded from {os.fspath(path)})",
        seconds=time.perf_counter() - t0, n_components=comps.count,
        largest_component=comps.largest,
        # stored in the backend type (the certificate's fast path), read as Fractions
        values_exact=typing.cast("list[Fraction]", exact),
        choice=choice, optimal=optimal, improvements=0, exact_solves=0, game=the_game,
        infinite_play=c, optimizing=optimizing)


def _check_load_options(path: object, check: object, max_states: int, max_digits: object,
                        import_game: object) -> int:
    """Refuse bad arguments of :func:`load`; return ``max_digits``."""
    _check_path(path)
    check_max_states(max_states)
    if not isinstance(check, bool) or not isinstance(import_game, bool):
        raise InvalidArgumentError("check and import_game must be True or False")
    if isinstance(max_digits, bool) or not isinstance(max_digits, int) or max_digits < 1:
        raise InvalidArgumentError(f"max_digits must be an int >= 1, got {shorten(repr(max_digits))}")
    return max_digits


def _game_info(r: _Reader, doc: dict[str, Any]) -> dict[str, Any]:
    """The version that wrote the file (checked for form only) and the record of its game."""
    written = r.get(doc, "tbsg_version", str, "")
    if not _VERSION.fullmatch(written):
        r.fail(f"'tbsg_version' {shorten(repr(written), 40)} is not a version number")
    keys = _GAME_KEYS if doc["format_version"] >= 3 else _GAME_KEYS - {"factory"}
    return r.keys(doc["game"], keys, "'game'")


@dataclass(frozen=True)
class GameRecord:
    """What a solution file records of its game (:func:`read_game_record`).

    Attributes
    ----------
    module, qualname : str
        The game's class.
    fields : dict or None
        The parameters it reports, as JSON values (fractions as ``{"fraction": "p/q"}``).
    factory : str or None
        How it was built: a catalog name, ``module:factory`` or ``file.py:factory`` (a
        path relative to the file's folder); ``None`` if not recorded.
    arguments : dict of str to str
        The factory's parameters as texts.
    """

    module: str
    qualname: str
    fields: dict[str, Any] | None
    factory: str | None
    arguments: dict[str, str]


def read_game_record(path: str | os.PathLike[str], *, max_digits: int = MAX_DIGITS) -> GameRecord:
    """The record of the game in a file written by :func:`save`, checked for form only.

    What the command line reads to rebuild the game before :func:`load` checks the rest.

    Raises
    ------
    SolutionFileError
        An unreadable file, or a game record of the wrong form.
    """
    _check_path(path)
    r = _Reader(path, max_digits)
    info = _game_info(r, _read_json(r, path))
    module = r.get(info, "module", str, "game ")
    qualname = r.get(info, "class", str, "game ")
    fields = info["fields"]
    if fields is not None and not isinstance(fields, dict):
        r.fail(f"game 'fields' should be an object or null, found {type(fields).__name__}")
    factory = _factory_info(r, info)
    return GameRecord(module, qualname, fields, None if factory is None else factory[0],
                      {} if factory is None else factory[1])


def _graph_info(r: _Reader, doc: dict[str, Any]) -> tuple[dict[str, Any], dict[str, int]]:
    """The record of the state graph, and its five counts."""
    graph = r.keys(doc["graph"], _GRAPH_KEYS if doc["format_version"] >= 4 else _GRAPH_KEYS | {_UNORDERED},
                   "'graph'")
    counts = {key: r.get(graph, key, int, "graph ") for key in
              ("states", "actions", "outcomes", "components", "largest_component")}
    return graph, counts


def _kind(r: _Reader, doc: dict[str, Any]) -> tuple[SolutionKind, tuple[int, ...]]:
    """The kind of solution and the players who optimise, which must agree."""
    kind_text = r.get(doc, "kind", str, "")
    try:
        kind = SolutionKind(kind_text)
    except ValueError:
        r.fail(f"'kind' {shorten(repr(kind_text), 40)} is not one of "
               f"{', '.join(k.value for k in SolutionKind)}")
    raw_players = r.get(doc, "optimizing", list, "")
    if any(isinstance(p, bool) or not isinstance(p, int) for p in raw_players) \
            or raw_players not in ([0, 1], [], [0], [1]):
        r.fail(f"'optimizing' {shorten(repr(raw_players), 40)} is not [0, 1], [0], [1] or []")
    optimizing = tuple(raw_players)
    if SolutionKind.of(optimizing) is not kind:
        r.fail(f"'kind' is {kind.value!r} but 'optimizing' is {raw_players!r}")
    return kind, optimizing


def _compile_recorded(r: _Reader, doc: dict[str, Any], game: Game[S, A], optimizing: tuple[int, ...],
                      counts: dict[str, int], max_states: int) -> CompiledGame[Any, Any]:
    """The graph the file covers, compiled from the game.

    An evaluation or best response covers the game under the strategy the rows record,
    reachable states only (``reach="profile"``); if the file counts more states or actions
    than that, it was written with ``reach="game"`` and covers the whole game.
    """
    fixed = tuple(p for p in (0, 1) if p not in optimizing)
    if fixed:
        choose = _recorded_strategy(r, doc, game)
        try:
            g = _compile(r, FixedStrategyGame(game, choose, fixed, "the file's strategy"), counts,
                         max_states)
        except InvalidStrategyError as exc:
            r.fail(f"the strategy the file records does not fit the game: {shorten(str(exc), 200)}")
        if (g.n_states, g.n_actions) == (counts["states"], counts["actions"]):
            return g
    return _compile(r, game, counts, max_states)


def _check_graph(r: _Reader, g: CompiledGame[Any, Any], graph: dict[str, Any], counts: dict[str, int],
                 rows: object) -> ComponentLabels:
    """The hash(es) and five counts of the file against the compiled game; its components.

    The game is hashed once (:func:`graph_hash`); files of versions 2 and 3 also record
    the order-free hash, checked as well. When the hash differs, the rows tell a game that
    lists the same states in another order from another game.
    """
    digest = r.get(graph, "sha256", str, "graph ")
    unordered = r.get(graph, _UNORDERED, str, "graph ") if _UNORDERED in graph else None
    if digest != graph_hash(g):
        in_order = _rows_in_game_order(g, rows)
        same_states = (not in_order and _rows_name_the_game_states(g, rows)) if unordered is None \
            else unordered == graph_hash(g, ordered=False)
        if same_states and not in_order:
            r.fail("the game lists its states or actions in another order than when the file was "
                   "written (are actions returned from a set, or does a state's repr change?); "
                   "return actions as a tuple in a fixed order")
        if in_order and unordered is None:
            r.fail("graph hash differs (graph 'sha256' does not match the game): the file was edited, "
                   "or is for another version of the game's rules with the same states")
        if in_order and same_states:
            r.fail("graph 'sha256' does not match the game (edited?)")
        r.fail(f"graph hash differs: the file is for another game, other parameters or another "
               f"version of the game's rules ({g.n_states} states now, {counts['states']} in the file)")
    if unordered is not None and unordered != graph_hash(g, ordered=False):
        r.fail("graph 'sha256_unordered' does not match the game (edited?)")
    comps = strong_components(g)  # (their solving order is not needed here)
    actual = {"states": g.n_states, "actions": g.n_actions, "outcomes": len(g.out_target),
              "components": comps.count, "largest_component": comps.largest}
    for key, value in counts.items():
        if value != actual[key]:
            r.fail(f"graph {key!r} is {value} but the game has {actual[key]}")
    return comps


def _rule(r: _Reader, doc: dict[str, Any], kind: SolutionKind) -> Fraction | None:
    """The method (fixed text per kind) and the payoff of never-ending play, if any."""
    if r.get(doc, "method", str, "") != _METHOD[kind]:
        r.fail(f"'method' {shorten(repr(doc['method']), 80)} does not describe a {kind.value!r} "
               f"solution (expected {_METHOD[kind]!r})")
    raw_c = doc["infinite_play"]
    return None if raw_c is None else r.rational(raw_c, "infinite_play")  # any rational


def _rows(r: _Reader, g: CompiledGame[Any, Any], doc: dict[str, Any], c: Fraction | None
          ) -> encoding.Rows:
    """Values (as ``Fraction`` s, of format 4 and 5 read as their integer parts, and in the
    backend type) and chosen actions of the rows, one per state, and the top-level value.

    Rows without a value (format 5) are those of states no other component reads
    (:mod:`tbsg.engine.boundary`): any other, or any in a game whose play may not end
    (whose values are not one linear solve of a component away), is refused.
    """
    rows = r.get(doc, "states", list, "")
    if len(rows) != g.n_states:
        r.fail(f"{len(rows)} state rows but the game has {g.n_states} states (truncated?)")
    if doc["format_version"] >= 4:
        with paused():
            denominators = encoding.read_denominators(r.fail, doc["denominators"], r.max_digits)
            read = encoding.read_rows(r.fail, g, rows, denominators, r.max_digits)
    else:
        values, choice = _read_rows(r, g, rows)
        read = encoding.Rows(values, [bk.from_fraction(v) for v in values], choice, None)
    if read.kept is not None:
        i = int(np.argmin(read.kept))  # the first row without a value
        where = f"state row {i} ({shorten(encoding.state_texts(g)[i], 60)})"
        if doc["format_version"] < 5:
            r.fail(f"{where}: value null, which files of format version {doc['format_version']} "
                   "do not have (from version 5, a row whose value is recomputed from the others)")
        if c is not None:
            r.fail(f"{where}: value null in a file with 'infinite_play': only values of a game that "
                   "stops may be omitted (they are then one linear solve of their component away)")
    if read.kept is None or read.kept[0]:  # (else refused with the other omitted values it needs)
        first = read.values[0] if read.values is not None else bk.to_fraction(read.exact[0])
        if r.rational(doc["value"], "'value'") != first:
            r.fail(f"'value' {shorten(str(doc['value']), 60)} is not the value of the initial state "
                   f"in the rows ({short_fraction(first, 60)})")
    return read


def _recomputed(r: _Reader, g: CompiledGame[Any, Any], choice: np.ndarray[Any, np.dtype[np.int64]],
                exact: list[Any], kept: np.ndarray[Any, np.dtype[np.bool_]], check: bool
                ) -> tuple[BoundaryValues[Any], Sequence[Any]]:
    """The values of a file that omits some (format 5): the stored ones and a way to
    recompute the others (:func:`tbsg.engine.exact.recomputed_values`), and every value
    once, as the certificate reads them (as backend values with ``check=False``).

    A row may omit its value only at a state no other component reads, since a
    component's values are then one linear solve away given the values it reads and the
    strategy (:mod:`tbsg.engine.boundary`); any other omission is refused. A strategy
    under which a component never stops makes that solve singular: edited actions.
    """
    comps = decompose(g)
    needed = boundary_states(g, comps) & ~kept
    if needed.any():
        i = int(np.argmax(needed))
        r.fail(f"state row {i} ({shorten(encoding.state_texts(g)[i], 60)}): value null, but another "
               "component reads the state's value (or it is the initial state): it must be stored "
               "(edited?)")
    stored = recomputed_values(g, comps, choice, exact, kept)
    try:
        with paused():
            every = stored.materialize()
    except ZeroDivisionError:
        raise TamperedSolutionError(
            f"{r.path}: the strategy the rows record never ends play in some component, so the "
            "values its rows omit are not determined (edited actions?)") from None
    except OverflowError:  # the solve keeps each value as a float too: no game value is this big
        raise TamperedSolutionError(
            f"{r.path}: a value recomputed from the stored ones is too large to be a value of "
            "the game (edited values?)") from None
    return stored, (read_values(g, every) if check else every)


def _named(row: object) -> tuple[object, object, object]:
    """The state, action position and label a row names (format 4: an array; else an object)."""
    if isinstance(row, list) and len(row) == len(encoding.ROW_FIELDS):
        return row[0], row[3], row[4]
    if isinstance(row, dict):
        return row.get("state"), row.get("action"), row.get("label")
    return None, None, None


def _rows_name_the_game_states(g: CompiledGame[Any, Any], rows: object) -> bool:
    """Whether the rows name the game's states, in any order."""
    if not isinstance(rows, list) or len(rows) != g.n_states:
        return False
    return sorted(str(_named(row)[0]) for row in rows) == sorted(encoding.state_texts(g))


def _rows_in_game_order(g: CompiledGame[Any, Any], rows: object) -> bool:
    """Whether the rows name the game's states and actions in the game's present order."""
    if not isinstance(rows, list) or len(rows) != g.n_states:
        return False
    act_ptr = g.act_ptr.tolist()
    for i, (row, s) in enumerate(zip(rows, g.states, strict=True)):
        state, a, label = _named(row)
        if state != repr(s):
            return False
        if not isinstance(a, int) or not 0 <= a < act_ptr[i + 1] - act_ptr[i] \
                or label != repr(g.act_labels[act_ptr[i] + a]):
            return False
    return True


def _recorded_strategy(r: _Reader, doc: dict[str, Any], game: Any) -> Callable[[Any], Any]:
    """The strategy of the rows (state repr -> action repr) as a function of the state.

    Rows are matched by ``repr``, as :func:`_read_rows` matches them; the action returned
    is the game's own object whose ``repr`` the row names.
    """
    rows = r.get(doc, "states", list, "")
    labels: dict[str, str] = {}
    for i, row in enumerate(rows):
        state, _, label = _named(row)
        if not isinstance(state, str) or not isinstance(label, str):
            r.fail(f"state row {i} has no 'state' and 'label' strings")
        labels[state] = label

    def choose(state: Any) -> Any:
        label = labels.get(repr(state))
        if label is None:
            raise InvalidStrategyError(f"no row for state {shorten(repr(state), 80)}")
        for a in game.actions(state):
            if repr(a) == label:
                return a
        raise InvalidStrategyError(f"the row of state {shorten(repr(state), 80)} names action "
                                   f"{shorten(label, 60)}, which the game does not offer there")

    return choose


def _read_rows(r: _Reader, g: CompiledGame[Any, Any], rows: list[Any]
               ) -> tuple[list[Fraction], np.ndarray[Any, np.dtype[np.int64]]]:
    act_ptr = g.act_ptr.tolist()
    values: list[Fraction] = []
    choice = np.empty(g.n_states, dtype=np.int64)
    for i, s in enumerate(g.states):
        where = f"state row {i}"
        row = r.keys(rows[i], _ROW_KEYS, where)
        if r.get(row, "state", str, f"{where}: ") != repr(s):
            r.fail(f"{where} is {shorten(row['state'], 80)} but the game's state there is "
                   f"{shorten(repr(s), 80)}")
        values.append(r.rational(row["value"], f"{where} ({shorten(repr(s), 60)})"))
        a = r.get(row, "action", int, f"{where}: ")
        n_actions = act_ptr[i + 1] - act_ptr[i]
        if not 0 <= a < n_actions:
            r.fail(f"{where} ({shorten(repr(s), 60)}): action {a} out of range, the state has {n_actions}")
        k = act_ptr[i] + a
        if row["label"] != repr(g.act_labels[k]):
            r.fail(f"{where} ({shorten(repr(s), 60)}): action {a} is {shorten(repr(g.act_labels[k]), 60)}, "
                   f"the file says {shorten(repr(row['label']), 60)}")
        choice[i] = k
    return values, choice
