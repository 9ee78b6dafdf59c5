"""Checks of plain arguments, written once so that every message reads the same.

A count (a goal, a number of tosses, a limit) is an ``int`` of at least some size; a
``bool`` is refused although Python counts it as an int (``True`` is no goal). The error
class is the caller's: a game's constructor raises :class:`~tbsg.errors.InvalidGameError`,
a function's argument :class:`~tbsg.errors.InvalidArgumentError`.

Examples
--------
>>> int_at_least("goal", 20, 1)
20
>>> int_at_least("goal", True, 1)
Traceback (most recent call last):
...
tbsg.errors.InvalidArgumentError: goal must be an int >= 1, got True
"""

from __future__ import annotations

from tbsg.errors import InvalidArgumentError, TbsgError, show

__all__ = ["int_at_least"]


def int_at_least(name: str, value: object, least: int, *,
                 error: type[TbsgError] = InvalidArgumentError, what: str = "") -> int:
    """``value`` if it is an int (not a bool) of at least ``least``, else ``error``.

    Parameters
    ----------
    name : str
        The argument's name in the message.
    value : object
        What was given.
    least : int
        The smallest value allowed.
    error : type
        The tbsg error to raise (default :class:`~tbsg.errors.InvalidArgumentError`).
    what : str
        What the argument counts, added to the message in parentheses.
    """
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        meaning = f" ({what})" if what else ""
        raise error(f"{name} must be an int >= {least}{meaning}, got {show(value)}")
    return value
