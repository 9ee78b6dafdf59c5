"""Old names of the query vocabulary, kept for one release with a :class:`DeprecationWarning`.

When a query is renamed (:mod:`tbsg.results.query` is the vocabulary), the old name keeps
answering as before for one release and warns, naming the new one, so that code written
against the old name runs unchanged while its author is told what to write instead. The
warning points at the first line outside tbsg on the call stack: the user's line, where
the fix goes, however deep inside tbsg the old use was noticed.

* :func:`deprecated` wraps an old method or property: it warns, then runs the body, which
  calls the new name.
* :func:`warn_deprecated` is the warning itself, for the old uses that are not a whole
  method (an old default value, an old column name).
* :class:`AttributeBecameMethod` serves a data attribute that became a method of the
  same name: called, it is the new method; used as the old value (compared, printed,
  its attributes read, arithmetic), it warns and acts as that value.

Examples
--------
>>> import warnings
>>> class Result:
...     def value(self, state=None):
...         return 1
...     @deprecated("Result.value_of(state)", "Result.value(state)")
...     def value_of(self, state=None):
...         return self.value(state)
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     Result().value_of()
1
>>> print(caught[0].message)
Result.value_of(state) is deprecated and will be removed in tbsg 0.3; use Result.value(state)
"""

from __future__ import annotations

import functools
import os
import sys
import warnings
from collections.abc import Callable
from typing import Any, Generic, TypeVar

__all__ = ["REMOVED_IN", "AttributeBecameMethod", "deprecated", "warn_deprecated"]

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

REMOVED_IN = "0.3"
"""The release that removes the names deprecated now."""


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _outside_level() -> int:
    """The ``stacklevel`` of the first frame outside the tbsg package, seen from the caller
    of :func:`warn_deprecated`."""
    frame = sys._getframe(2)
    level = 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level


def warn_deprecated(old: str, new: str) -> None:
    """Warn that ``old`` is deprecated in favour of ``new``, at the first line outside tbsg."""
    warnings.warn(f"{old} is deprecated and will be removed in tbsg {REMOVED_IN}; use {new}",
                  DeprecationWarning, stacklevel=_outside_level())


def deprecated(old: str, new: str) -> Callable[[F], F]:
    """Decorator of a deprecated function, method or property getter: warn, then run it.

    The wrapped body should call the new name, so that the two cannot drift apart.
    """
    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def warned(*args: Any, **kwargs: Any) -> Any:
            warn_deprecated(old, new)
            return fn(*args, **kwargs)

        warned.__doc__ = f"Deprecated: use {new}.\n\n{fn.__doc__ or ''}".rstrip()
        return warned  # type: ignore[return-value]  # same signature as fn
    return wrap


class AttributeBecameMethod(Generic[T]):
    """Descriptor of a method whose name was a data attribute.

    Parameters
    ----------
    method : callable
        The new method, ``method(obj, *args, **kwargs)``.
    old_value : callable
        ``old_value(obj)``: what the attribute held.
    old, new : str
        The old use and the new call, for the warning.
    legacy_call : callable
        ``legacy_call(obj, args, kwargs)``: whether a call is the old value called
        (the old value may itself be callable, e.g. a function of the parameter); such a
        call warns and calls the old value.
    """

    def __init__(self, method: Callable[..., Any], old_value: Callable[[Any], T], old: str, new: str,
                 legacy_call: Callable[[Any, tuple[Any, ...], dict[str, Any]], bool]) -> None:
        self.method, self.old_value, self.old, self.new = method, old_value, old, new
        self.legacy_call = legacy_call
        self.__doc__ = method.__doc__

    def __get__(self, obj: object | None, owner: type | None = None) -> Any:
        if obj is None:
            return self.method
        return _Bound(self, obj)


class _Bound:
    """:class:`AttributeBecameMethod` on one object: the method when called, the old value
    (with a warning) in every other use."""

    __slots__ = ("_d", "_obj")

    def __init__(self, descriptor: AttributeBecameMethod[Any], obj: object) -> None:
        self._d, self._obj = descriptor, obj

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        d = self._d
        if d.legacy_call(self._obj, args, kwargs):
            warn_deprecated(f"calling {d.old}", d.new)
            return d.old_value(self._obj)(*args, **kwargs)
        return d.method(self._obj, *args, **kwargs)

    def _old(self) -> Any:
        warn_deprecated(self._d.old, self._d.new)
        return self._d.old_value(self._obj)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._old(), name)


def _as_old_value(name: str) -> Callable[..., Any]:
    def op(self: _Bound, *args: Any) -> Any:
        return getattr(self._old(), name)(*args)
    op.__name__ = name
    return op


for _name in ("__eq__", "__ne__", "__hash__", "__str__", "__repr__", "__format__", "__add__", "__radd__",
              "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__", "__neg__",
              "__pos__", "__pow__", "__lt__", "__le__", "__gt__", "__ge__", "__float__"):
    setattr(_Bound, _name, _as_old_value(_name))
del _name
