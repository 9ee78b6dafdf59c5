"""What a step counts: a user's ``count(state, action)`` or ``reward(state, action)``, checked.

Expected lengths and rewards (:mod:`tbsg.play.chain`, :meth:`tbsg.Solution.fastest`) take a
function of the state and the action played there. Its values pass the same gate as
probabilities (:func:`tbsg.model.protocol.exact`: ``int`` or ``Fraction``, a float is an
:class:`~tbsg.errors.ExactnessError`); a count must be non-negative, and an integer where
a length distribution needs whole steps. Errors name the state and action.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, cast

from tbsg.errors import InvalidArgumentError, TbsgError, shorten, show
from tbsg.model.protocol import exact

__all__ = ["StepFunction", "step_values"]

StepFunction = Callable[[Any, Any], Fraction | int]
"""``f(state, action)``: what the step from ``state`` playing ``action`` counts."""

_ONE = Fraction(1)


def step_values(fn: StepFunction | None, what: str, states: Sequence[Any], labels: Sequence[Any],
                steps: Sequence[tuple[int, int]] | None, *, nonnegative: bool = False,
                integer: bool = False) -> list[Fraction]:
    """``fn(states[i], labels[k])`` for each ``(i, k)`` in ``steps``, checked; ``fn=None``: 1.

    Parameters
    ----------
    fn : callable or None
    what : str
        The argument's name, for messages (``"count"``, ``"reward"``).
    steps : sequence of (int, int), or None
        The steps; None: state ``i`` with label ``i``, for every state (the steps of a
        chain, where every state has one action).
    nonnegative, integer : bool
        Refuse negative values, or non-integers.

    The function is called once per step, through ``map`` (at C speed); in the common
    case, where every value is an int, the checks run once per distinct value.

    Examples
    --------
    >>> step_values(lambda s, a: Fraction(1, 2), "reward", ["x"], ["go"], [(0, 0)])
    [Fraction(1, 2)]
    >>> step_values(lambda s, a: 0.5, "count", ["x"], ["go"], [(0, 0)])
    Traceback (most recent call last):
    ...
    tbsg.errors.ExactnessError: count at state 'x', action 'go' must be an int or \
fractions.Fraction, got float 0.5; write it exactly, e.g. Fraction(1, 2) or Fraction('0.5')
    """
    if steps is None:
        ss, aa = list(states), list(labels[: len(states)])
    else:
        ss = list(map(states.__getitem__, map(_FIRST, steps)))
        aa = list(map(labels.__getitem__, map(_SECOND, steps)))
    if fn is None:
        return [_ONE] * len(ss)
    if not callable(fn):
        raise InvalidArgumentError(
            f"{what} must be a function of (state, action) returning an int or Fraction, got "
            f"{show(fn)}")
    try:
        raw: list[object] | None = list(map(fn, ss, aa))
    except Exception:
        raw = None  # the loop below asks again, step by step, and names the step
    if raw is not None and not set(map(type, raw)) - {int}:
        made = {v: Fraction(v) for v in set(cast("list[int]", raw))}
        if not nonnegative or all(v >= 0 for v in made):
            return list(map(made.__getitem__, cast("list[int]", raw)))
    return _checked(fn, what, ss, aa, raw, nonnegative, integer)


def _checked(fn: StepFunction, what: str, ss: list[Any], aa: list[Any], raw: list[object] | None,
             nonnegative: bool, integer: bool) -> list[Fraction]:
    """The values of :func:`step_values` step by step (``raw``: already computed, else
    called here), each checked, errors naming the state and action."""
    out: list[Fraction] = []
    made: dict[int, Fraction] = {}  # one Fraction per distinct int value, checked once
    for r, (s, a) in enumerate(zip(ss, aa, strict=True)):
        if raw is not None:
            value = raw[r]
        else:
            try:
                value = fn(s, a)
            except TbsgError:
                raise
            except Exception as exc:
                raise InvalidArgumentError(
                    f"{what} raised {type(exc).__name__} at state {show(s)}, action {show(a)}: "
                    f"{shorten(str(exc))}") from exc
        if type(value) is int:  # the common case: no message built, checked once per value
            known = made.get(value)
            if known is not None:
                out.append(known)
                continue
            x = made[value] = Fraction(value)
        else:
            x = exact(value, f"{what} at state {show(s)}, action {show(a)}")
        if nonnegative and x < 0:
            raise InvalidArgumentError(
                f"{what} must be >= 0, got {show(x)} at state {show(s)}, action {show(a)}")
        if integer and x.denominator != 1:
            raise InvalidArgumentError(
                f"{what} must be a whole number here (a length distribution counts whole steps), "
                f"got {show(x)} at state {show(s)}, action {show(a)}")
        out.append(x)
    return out


_FIRST = operator.itemgetter(0)
_SECOND = operator.itemgetter(1)
