"""Games named on the command line: catalog names, ``module:factory``, ``file.py:factory``.

A *game spec* names a factory, a class or function whose call returns a game:

* a catalog name (``tbsg list``), e.g. ``risk_or_safety``;
* ``module:factory``, e.g. ``mygames.dice:Duel``: the module is imported with the
  current directory on the import path (as ``python -m`` does);
* ``path/to/file.py:factory``, e.g. ``./duel.py:Duel``: the file is imported as a module
  named after it (``duel``), its directory on the import path; a file named like a
  module that is already imported (``random.py``) is refused.

``factory`` may be dotted (``Outer.Inner``) or name a game object itself (no
parameters then). Parameters come as ``NAME=VALUE`` texts, converted by the factory's
annotations, with at most :data:`MAX_DIGITS` digits per number and, for a catalog game,
within the ranges its entry declares (:meth:`tbsg.games.registry.CatalogEntry.bounds`):
the rules of :mod:`tbsg._util.parameters`, which the catalog's ``make`` follows too.

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

import importlib
import importlib.util
import inspect
import os
import re
import sys
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tbsg._util.bounds import MAX_DIGITS, Bounds
from tbsg._util.parameters import Parameter, convert_text, describe, keyword_arguments, parameters_of
from tbsg.errors import InvalidArgumentError, TbsgError, shorten, show
from tbsg.games.registry import CATALOG
from tbsg.model.protocol import Game

__all__ = ["MAX_DIGITS", "GameSpec", "Parameter", "convert_text", "is_file_spec", "parse_assignments",
           "recorded_spec", "resolve", "resolve_function", "spec_beside"]

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
        return () if self.factory is None else parameters_of(self.factory)

    def describe(self) -> str:
        """``"name: kind = default, ..."`` for messages and ``tbsg list``."""
        return describe(self.parameters())

    def arguments(self, texts: Mapping[str, str]) -> dict[str, object]:
        """The keyword arguments of ``-p`` texts: names checked, values converted, declared
        ranges checked (:func:`tbsg._util.parameters.keyword_arguments`)."""
        if self.factory is None:
            if texts:
                raise InvalidArgumentError(
                    f"{self.label} is a game object, not a factory: it takes no parameters "
                    f"(got {', '.join(texts)})")
            return {}
        return keyword_arguments(self.label, self.factory, texts, self.bounds,
                                 how=" (give each with -p NAME=VALUE)")

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
                "has initial, actions(state) and outcomes(state, action), and may have "
                "player(state) and reward(state, action))")
        return game

    def bound(self, texts: Mapping[str, str]) -> dict[str, object]:
        """Every parameter value the call uses: the ``-p`` values and the defaults."""
        values = dict(self.arguments(texts))
        for p in self.parameters():
            if p.name not in values and not p.required:
                values[p.name] = p.default
        return values


# --- resolving a spec -----------------------------------------------------------------------------

_MEMBERS = ("initial", "actions", "outcomes")
"""What every game has (the :class:`tbsg.Game` protocol; ``player`` and ``reward`` are optional)."""
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


def is_file_spec(text: str) -> bool:
    """Whether the spec ``text`` names a file (``path/to/file.py:factory``), not a catalog
    game or a module.

    >>> is_file_spec("./duel.py:make"), is_file_spec("mygames.dice:Duel"), is_file_spec("pig")
    (True, False, False)
    """
    where, sep, _ = text.rpartition(":")
    return bool(sep) and text not in CATALOG and _is_file(where)


def _is_file(where: str) -> bool:
    return where.endswith(".py") or "/" in where or os.sep in where


def spec_beside(text: str, folder: Path) -> str:
    """The spec ``text`` as a solution file saved in ``folder`` records it: a file's path
    relative to ``folder`` (so that the folder can move with its code), anything else as
    given.

    >>> spec_beside("./games/duel.py:make", Path("."))
    'games/duel.py:make'
    """
    if not is_file_spec(text):
        return text
    where, _, attr = text.rpartition(":")
    target = Path(where).expanduser().resolve()
    try:
        shown = Path(os.path.relpath(target, folder.resolve())).as_posix()
    except ValueError:  # another drive: no relative path
        shown = target.as_posix()
    return f"{shown}:{attr}"


def recorded_spec(text: str, folder: Path) -> tuple[str, bool]:
    """The spec a solution file in ``folder`` records, as :func:`resolve` takes it, and
    whether its code lies in ``folder`` or below (a file path, read relative to
    ``folder``) or in tbsg's catalog: the code ``tbsg verify FILE`` runs without being told.
    """
    if text in CATALOG:
        return text, True
    if not is_file_spec(text):
        return text, False
    where, _, attr = text.rpartition(":")
    base = folder.resolve()
    target = (base / Path(where).expanduser()).resolve()
    return f"{target}:{attr}", target.is_relative_to(base)


def _attribute(where: str, attr: str) -> object:
    """``attr`` (dotted) of the module or file ``where``, imported."""
    module = _import_file(where) if _is_file(where) else _import_module(where)
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
