"""The keyword parameters of a factory, filled from texts.

A *factory* is a class or function whose call returns a game. Its parameters are read
from its signature (names, defaults) and its resolved annotations, so a game's
parameters are defined in one place, its constructor. Texts (``-p NAME=VALUE`` on the
command line, a catalog entry's ``make``) are converted by the annotation:

* ``int``, ``bool`` (``true``/``false``, ``yes``/``no``, ``1``/``0``), ``str``,
  ``float`` (finite), ``Fraction`` (``1/3``, ``0.25``, ``2``, ``2.5e-3``, converted
  exactly), a ``Literal`` of choices, an ``Enum`` (by name or value), ``X | None``
  (``none``), and unions of these (the first member that fits);
* without an annotation, the type of the default (``fair=True``: a bool); without
  either, the first that fits of bool (``true``/``false``), int, Fraction and str.

A number has at most :data:`~tbsg._util.bounds.MAX_DIGITS` digits (checked on the text,
before any conversion, see :mod:`tbsg._util.bounds`), and a parameter with a declared
range (:class:`~tbsg._util.bounds.Bounds`) must lie in it. Every error is an
:class:`~tbsg.errors.InvalidArgumentError` naming the parameter, what was expected and
what was found (shortened).

Examples
--------
>>> def duel(goal: int, p: Fraction = Fraction(1, 2), fair=True): ...
>>> [str(p) for p in parameters_of(duel)]
['goal: int', 'p: Fraction = 1/2', 'fair: bool = True']
>>> keyword_arguments("duel", duel, {"goal": "20", "p": "0.25", "fair": "no"})
{'goal': 20, 'p': Fraction(1, 4), 'fair': False}
>>> convert_text("1/3"), convert_text("true"), convert_text("7"), convert_text("x")
(Fraction(1, 3), True, 7, 'x')
"""

from __future__ import annotations

import enum
import inspect
import math
import re
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from tbsg._util.bounds import MAX_DIGITS, Bounds, OutOfBounds, number_from_text
from tbsg.errors import InvalidArgumentError, show

__all__ = ["Parameter", "convert_text", "describe", "keyword_arguments", "parameters_of"]

_RATIO = re.compile(r"[+-]?([0-9]+)/([0-9]+)")
_TRUE, _FALSE = ("true", "yes", "1"), ("false", "no", "0")
_NONE = ("none", "null")
_UNANNOTATED = (inspect.Parameter.empty, typing.Any, object)


def convert_text(text: str, what: str = "the value") -> bool | int | Fraction | str:
    """A value without an annotation: bool, int, exact Fraction or str (in that order).

    ``what`` names the value in the error for a number beyond the digit bound.
    """
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    value = number_from_text(text, what, "a number", fractions=True)
    return text if value is None else value


# --- converting a text by its annotation ------------------------------------------------------

def _bad(name: str, text: str, expected: str) -> InvalidArgumentError:
    return InvalidArgumentError(f"parameter {name} must be {expected}, got {show(text, 60)}")


def _one_of(name: str, text: str, choices: str) -> InvalidArgumentError:
    return InvalidArgumentError(f"parameter {name} must be one of {choices}; got {show(text, 60)}")


def _to_bool(text: str, name: str) -> bool:
    if text.lower() in _TRUE + _FALSE:
        return text.lower() in _TRUE
    raise _bad(name, text, "true or false")


def _to_int(text: str, name: str) -> int | Fraction:
    number = number_from_text(text, f"parameter {name}", "an integer", fractions=False)
    if number is None:
        raise _bad(name, text, "an integer")
    return number


def _to_fraction(text: str, name: str) -> Fraction:
    number = number_from_text(text, f"parameter {name}", "an exact rational", fractions=True)
    if number is None:
        zero = _RATIO.fullmatch(text) is not None
        raise _bad(name, text, "an exact rational such as 1/3 or 0.25"
                   + (" (not a zero denominator)" if zero else ""))
    return Fraction(number)


def _to_float(text: str, name: str) -> float:
    if len(text) > MAX_DIGITS:
        raise OutOfBounds(f"parameter {name} must be a number of at most {MAX_DIGITS:,} characters, "
                          f"got {len(text):,}: {show(text, 60)}")
    try:
        x = float(text)
    except ValueError:
        raise _bad(name, text, "a number") from None
    if not math.isfinite(x):
        raise _bad(name, text, "a finite number")
    return x


def _to_str(text: str, name: str) -> str:
    return text


_BY_TYPE: dict[object, Callable[[str, str], object]] = {
    bool: _to_bool, int: _to_int, Fraction: _to_fraction, float: _to_float, str: _to_str}
"""The converter of each plain type an annotation may name."""


def _to_literal(text: str, hint: object, name: str) -> object:
    choices = typing.get_args(hint)
    for choice in choices:
        if str(choice) == text:
            return choice
    raise _one_of(name, text, ", ".join(map(str, choices)))


def _to_enum(text: str, hint: type[enum.Enum], name: str) -> enum.Enum:
    for member in hint:
        if text in (member.name, str(member.value)):
            return member
    raise _one_of(name, text, ", ".join(m.name for m in hint))


def _to_union(text: str, hint: object, name: str) -> object:
    """The first member of the union that converts ``text``; a number too long for every
    member says so rather than "must be int or ..."."""
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
    raise _bad(name, text, " or ".join(_hint_name(m) for m in members))


def _convert(text: str, hint: object, name: str) -> object:
    """``text`` as a value of the annotation ``hint`` (see the module docstring)."""
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return _to_literal(text, hint, name)
    if origin in (typing.Union, types.UnionType):
        return _to_union(text, hint, name)
    plain = _BY_TYPE.get(hint)
    if plain is not None:
        return plain(text, name)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return _to_enum(text, hint, name)
    # no annotation, or one that cannot be built from text: infer
    return convert_text(text, f"parameter {name}")


def _hint_name(hint: object) -> str:
    """The annotation as the messages and ``tbsg list`` write it (empty when there is none)."""
    if hint in _UNANNOTATED:
        return ""
    if hint is type(None):
        return "None"
    if typing.get_origin(hint) is typing.Literal:
        return "|".join(map(str, typing.get_args(hint)))
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return " | ".join(_hint_name(m) or "object" for m in typing.get_args(hint))
    if isinstance(hint, type):
        return hint.__name__
    return str(hint).replace("typing.", "")


# --- the parameters of a factory --------------------------------------------------------------

@dataclass(frozen=True)
class Parameter:
    """One keyword parameter of a factory, as a text fills it.

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
        """The value of ``name=text``, or an error saying what was expected."""
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
    (``"int"``), else the type of a default of a type a text can build."""
    if isinstance(note, str):
        note = _BY_NAME.get(note.strip(), inspect.Parameter.empty)
    if note is inspect.Parameter.empty and type(default) in (bool, int, float, str, Fraction):
        return type(default)
    return note


def _signature(factory: Callable[..., object]) -> inspect.Signature | None:
    try:
        return inspect.signature(factory)
    except (TypeError, ValueError):  # a builtin without a signature
        return None


def parameters_of(factory: Callable[..., object]) -> tuple[Parameter, ...]:
    """The keyword parameters ``factory`` accepts (none known for a builtin without a signature)."""
    sig = _signature(factory)
    if sig is None:
        return ()
    hints = _hints(factory)
    return tuple(Parameter(p.name, hints.get(p.name, _annotation(p.annotation, p.default)), p.default)
                 for p in sig.parameters.values()
                 if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))


def describe(params: tuple[Parameter, ...]) -> str:
    """``"name: kind = default, ..."`` for messages and ``tbsg list``."""
    return ", ".join(map(str, params)) if params else "no parameters"


def _check_names(label: str, factory: Callable[..., object], params: Mapping[str, Parameter],
                 texts: Mapping[str, str], how: str) -> None:
    """Every name known (unless the factory takes ``**kwargs``), every required one given,
    and no required positional-only parameter (a text cannot give it)."""
    sig = _signature(factory)
    unknown = [name for name in texts if name not in params]
    takes_any = sig is None or any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values())
    if unknown and not takes_any:
        raise InvalidArgumentError(f"{label} has no parameter {', '.join(unknown)}; its parameters "
                                   f"are {describe(tuple(params.values()))}")
    missing = [p.name for p in params.values() if p.required and p.name not in texts]
    if missing:
        raise InvalidArgumentError(f"{label} needs {', '.join(missing)}; its parameters are "
                                   f"{describe(tuple(params.values()))}{how}")
    positional = [] if sig is None else [p.name for p in sig.parameters.values()
                                         if p.kind is p.POSITIONAL_ONLY and p.default is p.empty]
    if positional:
        raise InvalidArgumentError(
            f"{label} has positional-only parameters ({', '.join(positional)}) that cannot be given "
            "by name; wrap it in a function with keyword parameters")


def keyword_arguments(label: str, factory: Callable[..., object], texts: Mapping[str, str],
                      bounds: Mapping[str, Bounds] | None = None, *, how: str = "") -> dict[str, object]:
    """The keyword arguments of ``{name: text}`` for ``factory``: names checked, values
    converted by their annotations, declared ranges checked.

    Parameters
    ----------
    label : str
        The factory's name in messages (a catalog name, ``module:factory``).
    factory : callable
        The class or function to be called with the result.
    texts : mapping
        ``{parameter name: text}``.
    bounds : mapping, optional
        The declared range of numeric parameters, by name.
    how : str
        Appended to the message for a missing parameter (how to give one).

    Raises
    ------
    InvalidArgumentError
        For an unknown, missing, positional-only or unconvertible parameter, or a value
        outside its declared range.
    """
    params = {p.name: p for p in parameters_of(factory)}
    _check_names(label, factory, params, texts, how)
    values = {name: (params[name].convert(text) if name in params
                     else convert_text(text, f"parameter {name}"))
              for name, text in texts.items()}
    for name, value in values.items():
        declared = (bounds or {}).get(name)
        if declared is not None and declared.problem(value) is not None:
            raise InvalidArgumentError(f"parameter {name} of {label} must be {declared}, got "
                                       f"{show(value, 40)}")
    return values
