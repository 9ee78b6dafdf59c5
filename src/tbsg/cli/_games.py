"""Games named on the command line: catalog names, ``module:factory``, ``file.py:factory``.

A *game spec* names a factory, a class or function whose call returns a game:

* a catalog name (``tbsg list``), e.g. ``risk_or_safety``;
* ``module:factory``, e.g. ``mygames.dice:Duel``: the module is imported with the
  current directory on the import path (as ``python -m`` does);
* ``path/to/file.py:factory``, e.g. ``./duel.py:Duel``: the file is imported as a module
  named after it (``duel``), its directory on the import path; a file named like a
  module that is already imported (``random.py``) is refused.

``factory`` may be dotted (``Outer.Inner``) or name a game object itself (no
parameters then). Parameters come as ``NAME=VALUE`` texts and are converted by the
factory's annotations: ``int``, ``bool`` (``true``/``false``, ``yes``/``no``,
``1``/``0``), ``str``, ``float``, ``Fraction`` (``1/3``, ``0.25``, ``2``, ``2.5e-3``), a
``Literal`` of choices, an ``Enum`` (by name), ``X | None`` (``none``), or unions of
these. A parameter without an annotation takes the type of its default (``fair=True``: a
bool); without either, the first that fits of bool (``true`` or ``false``), int, Fraction
(``p/q`` or a decimal such as ``0.25``, converted exactly) and str.

A number has at most :data:`MAX_DIGITS` digits (an integer, each side of ``p/q`` or of a
decimal point) and a decimal's exponent at most :data:`MAX_DIGITS` in size: checked
on the text, before any conversion, so that no value typed on the command line costs
more than an instant to convert (an exponent of ``9999999`` would build a ten-million-digit
power of ten). A catalog game's parameters must also lie in the ranges its catalog entry
declares (:meth:`tbsg.games.registry.CatalogEntry.bounds`), checked before the game is built.

Every error is an :class:`~tbsg.errors.InvalidArgumentError` naming the parameter, what
was expected and what was found (shortened); the command line reports it as a usage error.

Examples
--------
>>> spec = resolve("risk_or_safety")
>>> spec.label, [str(p) for p in spec.parameters()]
('risk_or_safety', ['target: int'])
>>> spec.build({"target": "3"})
RiskOrSafety(target=3)
>>> convert_text("1/3"), convert_text("0.25"), convert_text("true"), convert_text("7"), convert_text("x")
(Fraction(1, 3), Fraction(1, 4), True, 7, 'x')
"""

from __future__ import annotations

import enum
import importlib
import importlib.util
import inspect
import math
import os
import re
import sys
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from tbsg._util.bounds import MAX_DIGITS, Bounds, OutOfBounds, number_from_text
from tbsg.errors import InvalidArgumentError, TbsgError, shorten, show
from tbsg.games.registry import CATALOG
from tbsg.model.protocol import Game

__all__ = ["MAX_DIGITS", "GameSpec", "Parameter", "convert_text", "parse_assignments", "resolve",
           "resolve_function"]

_RATIO = re.compile(r"[+-]?([0-9]+)/([0-9]+)")
_TRUE, _FALSE = ("true", "yes", "1"), ("false", "no", "0")
_NONE = ("none", "null")


def parse_assignments(pairs: Sequence[str]) -> dict[str, str]:
    """``["goal=20", "die=6"]`` as ``{"goal": "20", "die": "6"}``; a name given twice is an error.

    >>> parse_assignments(["goal=20", "name= a b "])
    {'goal': '20', 'name': 'a b'}
    """
    values: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise InvalidArgumentError(f"-p/--param takes NAME=VALUE, got {show(pair, 80)}")
        if name in values:
            raise InvalidArgumentError(
                f"parameter {shorten(name, 40)} given twice (-p {shorten(f'{name}={values[name]}', 60)} "
                f"and -p {shorten(pair.strip(), 60)}); give each parameter once")
        values[name] = value.strip()
    return values


# --- converting texts -----------------------------------------------------------------------

def convert_text(text: str, what: str = "the value") -> bool | int | Fraction | str:
    """A parameter value without an annotation: bool, int, exact Fraction or str (in that order).

    ``what`` names the value in the error for a number beyond :data:`MAX_DIGITS`.
    """
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    value = number_from_text(text, what, "a number", fractions=True)
    return text if value is None else value


def _convert(text: str, hint: object, name: str) -> object:
    """``text`` as a value of the annotation ``hint`` (see the module docstring)."""
    def bad(expected: str) -> InvalidArgumentError:
        return InvalidArgumentError(f"parameter {name} must be {expected}, got {show(text, 60)}")

    if hint in (inspect.Parameter.empty, typing.Any, object):
        return convert_text(text, f"parameter {name}")
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        choices = typing.get_args(hint)
        for choice in choices:
            if str(choice) == text:
                return choice
        raise InvalidArgumentError(f"parameter {name} must be one of "
                                   f"{', '.join(map(str, choices))}; got {show(text, 60)}")
    if origin in (typing.Union, types.UnionType):
        members = typing.get_args(hint)
        if type(None) in members and text.lower() in _NONE:
            return None
        too_big: OutOfBounds | None = None
        for member in members:
            if member is type(None):
                continue
            try:
                return _convert(text, member, name)
            except OutOfBounds as exc:
                too_big = too_big or exc
            except InvalidArgumentError:
                continue
        if too_big is not None:
            raise too_big
        raise bad(" or ".join(_hint_name(m) for m in members))
    if hint is bool:
        if text.lower() in _TRUE + _FALSE:
            return text.lower() in _TRUE
        raise bad("true or false")
    if hint is int:
        number = number_from_text(text, f"parameter {name}", "an integer", fractions=False)
        if number is None:
            raise bad("an integer")
        return number
    if hint is Fraction:
        number = number_from_text(text, f"parameter {name}", "an exact rational", fractions=True)
        if number is None:
            zero = _RATIO.fullmatch(text) is not None
            raise bad("an exact rational such as 1/3 or 0.25" + (" (not a zero denominator)" if zero else ""))
        return Fraction(number)
    if hint is float:
        if len(text) > MAX_DIGITS:
            raise OutOfBounds(f"parameter {name} must be a number of at most {MAX_DIGITS:,} characters, "
                               f"got {len(text):,}: {show(text, 60)}")
        try:
            x = float(text)
        except ValueError:
            raise bad("a number") from None
        if not math.isfinite(x):
            raise bad("a finite number")
        return x
    if hint is str:
        return text
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        for member in hint:
            if text in (member.name, str(member.value)):
                return member
        raise InvalidArgumentError(f"parameter {name} must be one of "
                                   f"{', '.join(m.name for m in hint)}; got {show(text, 60)}")
    return convert_text(text, f"parameter {name}")  # an annotation the command line cannot build: infer


def _hint_name(hint: object) -> str:
    if hint in (inspect.Parameter.empty, typing.Any, object):
        return ""
    if typing.get_origin(hint) is typing.Literal:
        return "|".join(map(str, typing.get_args(hint)))
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return " | ".join("None" if m is type(None) else _hint_name(m) or "object"
                          for m in typing.get_args(hint))
    if isinstance(hint, type):
        return hint.__name__
    return str(hint).replace("typing.", "")


# --- parameters of a factory ------------------------------------------------------------------

@dataclass(frozen=True)
class Parameter:
    """One keyword parameter of a factory, as the command line fills it.

    Attributes
    ----------
    name : str
    hint : object
        The resolved annotation (``inspect.Parameter.empty`` if none).
    default : object
        The default (``inspect.Parameter.empty`` for a required parameter).
    """

    name: str
    hint: object
    default: object

    @property
    def required(self) -> bool:
        """Whether the parameter has no default."""
        return self.default is inspect.Parameter.empty

    def convert(self, text: str) -> object:
        """The value of ``-p name=text``, or an error saying what was expected."""
        return _convert(text, self.hint, self.name)

    def __str__(self) -> str:
        kind = _hint_name(self.hint)
        shown = self.name + (f": {kind}" if kind else "")
        return shown if self.required else f"{shown} = {show(self.default, 40)}"


def _hints(factory: Callable[..., object]) -> dict[str, object]:
    """The factory's resolved annotations (a class: its ``__init__``'s, else its fields')."""
    targets: list[object] = [factory]
    if isinstance(factory, type):
        targets = [vars(factory).get("__init__", factory), factory]
    for target in targets:
        try:
            return typing.get_type_hints(target)
        except Exception:  # unresolvable names (TYPE_CHECKING imports, typos): try the next
            continue
    return {}


_BY_NAME: dict[str, object] = {"int": int, "bool": bool, "str": str, "float": float,
                                "Fraction": Fraction, "fractions.Fraction": Fraction}


def _annotation(note: object, default: object) -> object:
    """The type of a parameter that ``typing.get_type_hints`` did not resolve: a plain name
    (``"int"``), else the type of a default of a type the command line builds."""
    if isinstance(note, str):
        note = _BY_NAME.get(note.strip(), inspect.Parameter.empty)
    if note is inspect.Parameter.empty and type(default) in (bool, int, float, str, Fraction):
        return type(default)
    return note


@dataclass(frozen=True)
class GameSpec:
    """A resolved game spec: what to call, and how it was named.

    Attributes
    ----------
    text : str
        The spec as given.
    label : str
        The catalog name, or ``module:factory`` / ``file.py:factory`` as given.
    factory : callable or None
        A class or function returning the game; ``None`` when the spec named a game object.
    game : object or None
        The game object the spec named (then ``factory`` is ``None``).
    bounds : Mapping[str, Bounds]
        The declared range of each numeric parameter of a catalog game (empty for others).
    """

    text: str
    label: str
    factory: Callable[..., object] | None
    game: object | None = None
    bounds: Mapping[str, Bounds] = field(default_factory=dict)

    def parameters(self) -> tuple[Parameter, ...]:
        """The keyword parameters the factory accepts (none for a game object)."""
        if self.factory is None:
            return ()
        try:
            sig = inspect.signature(self.factory)
        except (TypeError, ValueError):  # a builtin without a signature: no parameters known
            return ()
        hints = _hints(self.factory)
        return tuple(Parameter(p.name, hints.get(p.name, _annotation(p.annotation, p.default)), p.default)
                     for p in sig.parameters.values()
                     if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))

    def _takes_any_keyword(self) -> bool:
        try:
            sig = inspect.signature(self.factory)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return True
        return any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values())

    def describe(self) -> str:
        """``"name: kind = default, ..."`` for messages and ``tbsg list``."""
        params = self.parameters()
        return ", ".join(map(str, params)) if params else "no parameters"

    def arguments(self, texts: Mapping[str, str]) -> dict[str, object]:
        """The keyword arguments of ``-p`` texts: names checked, values converted."""
        if self.factory is None:
            if texts:
                raise InvalidArgumentError(
                    f"{self.label} is a game object, not a factory: it takes no parameters "
                    f"(got {', '.join(texts)})")
            return {}
        params = {p.name: p for p in self.parameters()}
        unknown = [name for name in texts if name not in params]
        if unknown and not self._takes_any_keyword():
            raise InvalidArgumentError(
                f"{self.label} has no parameter {', '.join(unknown)}; its parameters are "
                f"{self.describe()}")
        missing = [p.name for p in params.values() if p.required and p.name not in texts]
        if missing:
            raise InvalidArgumentError(
                f"{self.label} needs {', '.join(missing)}; its parameters are {self.describe()} "
                f"(give each with -p NAME=VALUE)")
        try:
            sig = inspect.signature(self.factory)
            required_positional = [p.name for p in sig.parameters.values()
                                   if p.kind is p.POSITIONAL_ONLY and p.default is p.empty]
        except (TypeError, ValueError):
            required_positional = []
        if required_positional:
            raise InvalidArgumentError(
                f"{self.label} has positional-only parameters ({', '.join(required_positional)}) "
                "that the command line cannot give; wrap it in a function with keyword parameters")
        values = {name: (params[name].convert(text) if name in params
                         else convert_text(text, f"parameter {name}"))
                  for name, text in texts.items()}
        for name, value in values.items():
            bounds = self.bounds.get(name)
            if bounds is not None and bounds.problem(value) is not None:
                raise InvalidArgumentError(f"parameter {name} of {self.label} must be {bounds}, got "
                                           f"{show(value, 40)}")
        return values

    def build(self, texts: Mapping[str, str]) -> object:
        """Call the factory with the ``-p`` texts and check that the result is a game.

        Raises
        ------
        InvalidArgumentError
            For unknown, missing or unconvertible parameters, an exception raised by the
            factory (its message included), or a result that is not a game.
        """
        kwargs = self.arguments(texts)
        if self.factory is None:
            return self.game
        call = f"{self.label}({', '.join(f'{k}={show(v, 40)}' for k, v in kwargs.items())})"
        try:
            game = self.factory(**kwargs)
        except MemoryError:
            raise
        except TbsgError as exc:  # the factory's own check of its parameters
            raise InvalidArgumentError(f"{call}: {exc}") from exc
        except Exception as exc:
            raise InvalidArgumentError(f"{call} raised {type(exc).__name__}: {shorten(str(exc))}") from exc
        missing = [m for m in _MEMBERS if not hasattr(game, m)]
        if missing or isinstance(game, type):
            lacks = f"no {', '.join(missing)}" if missing else "a class, not an instance"
            raise InvalidArgumentError(
                f"{call} returned {type(game).__name__} {show(game, 60)}, not a game ({lacks}; a game "
                "has initial, player(state), actions(state) and outcomes(state, action))")
        return game

    def bound(self, texts: Mapping[str, str]) -> dict[str, object]:
        """Every parameter value the call uses: the ``-p`` values and the defaults."""
        values = dict(self.arguments(texts))
        for p in self.parameters():
            if p.name not in values and not p.required:
                values[p.name] = p.default
        return values


# --- resolving a spec -----------------------------------------------------------------------------

_MEMBERS = ("initial", "player", "actions", "outcomes")
"""What a game has (the :class:`tbsg.Game` protocol)."""
_SYNTAX = ("a catalog game (tbsg list), MODULE:FACTORY (e.g. mygames.dice:Duel) or "
           "path/to/file.py:FACTORY (e.g. ./duel.py:Duel)")


def resolve(text: str) -> GameSpec:
    """The factory (or game object) that ``text`` names; see the module docstring.

    Raises
    ------
    InvalidArgumentError
        An unknown catalog name, a module or file that cannot be imported (with the
        error its code raised), or a factory that is not there.
    """
    entry = CATALOG.get(text)
    if entry is not None:
        return GameSpec(text, text, entry.make_function(), bounds=entry.bounds())
    where, sep, attr = text.rpartition(":")
    if not sep or not where or not attr:
        hint = (f"; to use a game of your own, name its factory: {text}:FACTORY" if text.endswith(".py")
                else f"; catalog games: {', '.join(CATALOG)}")
        raise InvalidArgumentError(f"unknown game {text!r}: expected {_SYNTAX}{hint}")
    obj = _attribute(where, attr)
    if isinstance(obj, type) or (callable(obj) and not isinstance(obj, Game)):
        return GameSpec(text, text, obj)
    if isinstance(obj, Game):
        return GameSpec(text, text, None, obj)
    raise InvalidArgumentError(f"{text} is a {type(obj).__name__}, neither a game nor a class or "
                               "function returning one")


def _attribute(where: str, attr: str) -> object:
    """``attr`` (dotted) of the module or file ``where``, imported."""
    is_file = where.endswith(".py") or "/" in where or os.sep in where
    module = _import_file(where) if is_file else _import_module(where)
    obj: object = module
    for part in attr.split("."):
        if not part.isidentifier() or not hasattr(obj, part):
            public = sorted(n for n, v in vars(module).items() if not n.startswith("_")
                            and (isinstance(v, type) or inspect.isfunction(v) or isinstance(v, Game))
                            and getattr(v, "__module__", module.__name__) == module.__name__)
            raise InvalidArgumentError(
                f"{where} has no {attr!r}" + (f"; it defines {', '.join(public)}" if public else ""))
        obj = getattr(obj, part)
    return obj


def resolve_function(text: str, what: str) -> Callable[..., object]:
    """The function ``MODULE:NAME`` or ``path/to/file.py:NAME`` names (e.g. ``--count``).

    Raises
    ------
    InvalidArgumentError
        Bad syntax, an import that fails, a missing name, or an object that is not callable.
    """
    where, sep, attr = text.rpartition(":")
    if not sep or not where or not attr:
        raise InvalidArgumentError(f"{what} {text!r}: expected MODULE:FUNCTION or path/to/file.py:FUNCTION")
    obj = _attribute(where, attr)
    if not callable(obj):
        raise InvalidArgumentError(f"{what} {text!r} is a {type(obj).__name__}, not a function")
    return obj


def _import_module(name: str) -> types.ModuleType:
    if not all(part.isidentifier() for part in name.split(".")):
        raise InvalidArgumentError(f"{name!r} is not a module name; expected {_SYNTAX}")
    cwd = os.getcwd()
    if cwd not in sys.path:
        sys.path.insert(0, cwd)
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name or name.startswith(f"{exc.name}."):
            raise InvalidArgumentError(
                f"cannot import module {name!r}: not found from {cwd} or the installed packages "
                "(give a file as path/to/file.py:FACTORY)") from exc
        raise _import_error(name, exc) from exc
    except Exception as exc:
        raise _import_error(name, exc) from exc


def _import_error(what: str, exc: BaseException) -> InvalidArgumentError:
    where = ""
    if isinstance(exc, SyntaxError) and exc.lineno:
        where = f" (line {exc.lineno})"
    return InvalidArgumentError(f"importing {what} raised {type(exc).__name__}{where}: {shorten(str(exc))}")


def _import_file(where: str) -> types.ModuleType:
    path = Path(where).expanduser()
    if not path.is_file():
        raise InvalidArgumentError(f"no file {where!r} (from {os.getcwd()})")
    if path.suffix != ".py":
        raise InvalidArgumentError(f"{where!r} is not a Python file (.py)")
    path = path.resolve()
    name = path.stem
    if not name.isidentifier():
        raise InvalidArgumentError(
            f"{path.name} cannot be imported: its name is not a Python module name (rename it, e.g. "
            f"{re.sub(r'[^0-9A-Za-z_]', '_', name)}.py)")
    existing = sys.modules.get(name)
    if existing is not None:
        if Path(getattr(existing, "__file__", None) or "").resolve() == path:
            return existing
        raise InvalidArgumentError(
            f"{path.name} cannot be imported as module {name!r}: a module of that name is already "
            f"loaded ({getattr(existing, '__file__', None) or 'built in'}); rename the file")
    directory = str(path.parent)
    if directory not in sys.path:
        sys.path.insert(0, directory)  # its own imports of neighbouring files work
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise InvalidArgumentError(f"{where!r} cannot be imported")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look classes up here
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise _import_error(path.name, exc) from exc
    return module
