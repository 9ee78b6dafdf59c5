"""Assert that a computed value reproduces a number published in a paper, to every digit.

:func:`assert_reproduces` is a test assertion: it returns ``None`` when the value
reproduces the published number and raises :class:`AssertionError` (deliberately, so
pytest reports a failed test with its message) when it does not; the message names the
quantity, the published value, the computed one and the first digit where they differ.

A published number is either exact (a :class:`~fractions.Fraction`, an ``int`` or a
string ``"p/q"``), compared with ``==``, or a printed decimal (``"0.5306"``,
``"53.06%"``): every printed digit counts, so ``"0.50"`` says more than ``"0.5"``.
Write printed decimals as strings, as printed; a ``float`` is refused because it has
lost the printed digits (``0.50 == 0.5``).

How a decimal is matched (``rounding=``): the computed value, taken to the printed
number of decimals, must give the printed digits:

* ``"nearest"`` (default): rounded to the nearest; at an exact tie (a computed value
  ending in ...5 exactly) either neighbour is accepted, as sources round half up or
  half to even. This is the rule of ``tbsg reproduce``
  (:func:`tbsg.sources.check.decimal_match`).
* ``"truncate"``: the printed digits are the computed value's leading digits (cut
  towards zero), for sources that truncate.
* ``"either"``: rounded or truncated; when a source does not say.

A computed value is an exact ``Fraction`` (or a :class:`tbsg.Solution`, read at a
state), or a certified interval (a :class:`tbsg.FloatSolution`'s proven bounds, or a
pair ``(lower, upper)`` that you know contains the value). An interval reproduces a
decimal when *every* value in it does (both ends round to the printed digits); it fails
when *no* value in it does; otherwise the tolerance was too coarse to decide, and the
``AssertionError`` says "cannot decide at this tolerance": solve with a smaller ``tol``,
or exactly. An interval never proves an exact fraction unless it is a single point.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal, TypeAlias

from tbsg._util.digits import short_fraction
from tbsg.errors import InvalidArgumentError, show
from tbsg.model.protocol import exact
from tbsg.results import FloatSolution, Solution
from tbsg.sources.check import decimal_match

__all__ = ["ROUNDINGS", "Rounding", "assert_reproduces"]

Rounding: TypeAlias = Literal["nearest", "truncate", "either"]
"""How a printed decimal was obtained from the exact value (see the module docstring)."""

ROUNDINGS: tuple[Rounding, ...] = ("nearest", "truncate", "either")


class _Initial:
    def __repr__(self) -> str:
        return "<initial state>"


_INITIAL: Any = _Initial()

_DECIMAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)")
_RATIO = re.compile(r"[+-]?\d+(/\d+)?")


@dataclass(frozen=True)
class _Printed:
    """A printed decimal: ``digits / 10**places`` in printed units (``percent``: of 100)."""

    text: str
    digits: int
    places: int
    percent: bool

    @property
    def scale(self) -> int:
        """Printed units per unit of value: 100 for a percentage."""
        return 100 if self.percent else 1

    @property
    def number(self) -> str:
        """The printed number without the percent sign, normalised (``".5"`` -> ``"0.5"``)."""
        return _fixed(self.digits, self.places)

    @property
    def value(self) -> Fraction:
        """The printed number as a value (``"53.06%"`` -> ``0.5306``)."""
        return Fraction(self.digits, 10**self.places * self.scale)

    def show(self, y: Fraction | int | str) -> str:
        """A number in printed units as text, with the percent sign if printed with one."""
        return f"{y}%" if self.percent else str(y)

    def match(self, x: Fraction, rounding: Rounding) -> bool:
        """Whether the exact value ``x`` gives the printed digits."""
        y = x * self.scale
        nearest = decimal_match(self.number, y)
        if rounding == "nearest":
            return nearest
        truncated = math.trunc(y * 10**self.places) == self.digits
        return truncated if rounding == "truncate" else nearest or truncated

    def accepted(self, rounding: Rounding) -> str:
        """The set of values (in printed units) that give the printed digits, as text."""
        unit, d = Fraction(1, 10**self.places), Fraction(self.digits, 10**self.places)
        half = unit / 2
        low, high, closed_low, closed_high = d - half, d + half, True, True
        if rounding != "nearest":  # truncation: [d, d + unit) above zero, (d - unit, d] below
            t_low, t_high = (d, d + unit) if self.digits >= 0 else (d - unit, d)
            if rounding == "truncate":
                low, high = t_low, t_high
                closed_low, closed_high = self.digits >= 0, self.digits < 0
            else:
                if t_low < low:
                    low, closed_low = t_low, self.digits >= 0
                if t_high > high:
                    high, closed_high = t_high, self.digits < 0
        places = self.places + 1
        return (f"{'[' if closed_low else '('}{self.show(_rounded(low, places))}, "
                f"{self.show(_rounded(high, places))}{']' if closed_high else ')'}")


def _fixed(q: int, places: int) -> str:
    """``q / 10**places`` written with exactly ``places`` decimals."""
    digits = str(abs(q)).rjust(places + 1, "0")
    text = digits if places == 0 else f"{digits[:-places]}.{digits[-places:]}"
    return ("-" if q < 0 else "") + text


def _scaled(y: Fraction, places: int, rounding: Rounding) -> int:
    """``y * 10**places`` to an integer: to nearest (ties to even) or cut towards zero."""
    scale: int = 10**places
    z = y * scale
    return math.trunc(z) if rounding == "truncate" else round(z)


def _rounded(y: Fraction, places: int, rounding: Rounding = "nearest") -> str:
    return _fixed(_scaled(y, places, rounding), places)


def _published(published: object) -> Fraction | _Printed:
    if isinstance(published, float):
        raise InvalidArgumentError(
            f"published must be written as printed, as a string (e.g. '0.5306' or '53.06%'), "
            f"or as an exact Fraction; got the float {published!r}, which has lost the printed "
            f"digits (0.50 == 0.5)")
    if isinstance(published, str):
        text = published.strip()
        if _RATIO.fullmatch(text) and "/" in text:
            if text.endswith("/0"):
                raise InvalidArgumentError(f"published {published!r} has a zero denominator")
            return Fraction(text)
        percent = text.endswith("%")
        number = text[:-1].strip() if percent else text
        if not _DECIMAL.fullmatch(number):
            raise InvalidArgumentError(
                f"published {published!r} is not a printed decimal ('0.5306', '53.06%') or a "
                f"fraction ('p/q')")
        d = Decimal(number)
        exponent = d.as_tuple().exponent
        places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
        return _Printed(text, int(d.scaleb(places)), places, percent)
    try:
        return exact(published, "published")
    except TypeError:
        raise InvalidArgumentError(
            f"published must be a Fraction, an int or a string as printed ('0.5306', "
            f"'53.06%', 'p/q'), got {show(published)}") from None


def _point(x: object, what: str) -> Fraction:
    if isinstance(x, float):
        if not math.isfinite(x):
            raise InvalidArgumentError(f"{what} must be finite, got {x!r}")
        return Fraction(x)
    try:
        return exact(x, what)
    except TypeError:
        raise InvalidArgumentError(f"{what} must be a number, got {show(x)}") from None


def _computed(computed: object, state: object, player: int) -> tuple[Fraction, Fraction, str]:
    """``(lower, upper, name)``: the computed value as an interval (a point when exact)."""
    if isinstance(player, bool) or player not in (0, 1):
        raise InvalidArgumentError(f"player must be 0 or 1, got {show(player)}")
    where = "the initial state" if state is _INITIAL else f"state {show(state)}"
    name = f"the value of {where}" + (" to player 1" if player else "")
    if isinstance(computed, Solution):
        v = computed.value(player=player) if state is _INITIAL else computed.value(state, player=player)
        return v, v, name
    if isinstance(computed, FloatSolution):
        lo_f, hi_f = computed.bounds() if state is _INITIAL else computed.bounds(state)
        lo, hi = Fraction(lo_f), Fraction(hi_f)
        c = 1 if computed.win_probability else 0  # player 1's view is c - v (tbsg.model.protocol)
        return (lo, hi, name) if player == 0 else (c - hi, c - lo, name)
    if state is not _INITIAL or player != 0:
        raise InvalidArgumentError("state= and player= apply to a Solution or FloatSolution only")
    if isinstance(computed, float):
        raise InvalidArgumentError(
            f"computed is the float {computed!r}, which carries no error bound: pass the exact "
            f"Fraction, the FloatSolution, or a pair (lower, upper) of proven bounds")
    if isinstance(computed, tuple | list):
        if len(computed) != 2:
            raise InvalidArgumentError(f"computed bounds must be a pair (lower, upper), got "
                                       f"{show(computed)}")
        lo, hi = _point(computed[0], "the lower bound"), _point(computed[1], "the upper bound")
        if lo > hi:
            raise InvalidArgumentError(f"computed bounds ({show(lo)}, {show(hi)}): lower > upper")
        return lo, hi, "the computed value"
    try:
        v = exact(computed, "computed")
    except TypeError:
        raise InvalidArgumentError(
            f"computed must be a Fraction, a Solution, a FloatSolution or a pair (lower, upper) "
            f"of proven bounds, got {show(computed)}") from None
    return v, v, "the computed value"


def _first_difference(published: str, computed: str) -> str:
    """Where two numbers with the same decimals first differ, e.g. ``decimal 4 (published
    7, computed 6)``."""
    if published.startswith("-") != computed.startswith("-"):
        return f"the sign (published {published}, computed {computed})"
    a, b = published.lstrip("-"), computed.lstrip("-")
    a_int, _, a_dec = a.partition(".")
    b_int, _, b_dec = b.partition(".")
    if a_int != b_int:
        return f"the integer part (published {a_int}, computed {b_int})"
    for k, (x, y) in enumerate(zip(a_dec, b_dec, strict=True), start=1):
        if x != y:
            return f"decimal {k} (published {x}, computed {y})"
    return "no digit (they are equal)"  # pragma: no cover - callers compare unequal numbers


def _expansion_difference(a: Fraction, b: Fraction) -> tuple[int, str, str]:
    """The first decimal place ``k`` (0: the integer part) where ``a != b`` differ when cut
    towards zero, and both cut to ``k`` places."""
    def cut(x: Fraction, k: int) -> int:
        scale: int = 10**k
        return math.trunc(x * scale)

    hi = 1
    while cut(a, hi) == cut(b, hi):  # ends: |a - b| * 10**hi >= 1 eventually
        hi *= 2
    lo = 0
    if cut(a, 0) != cut(b, 0):
        hi = 0
    while hi - lo > 1:  # invariant: cut differs at hi, and not at lo
        mid = (lo + hi) // 2
        if cut(a, mid) != cut(b, mid):
            hi = mid
        else:
            lo = mid
    return hi, _fixed(cut(a, hi), hi), _fixed(cut(b, hi), hi)


def assert_reproduces(computed: Any, published: Fraction | int | str, *,
                      quantity: str | None = None, state: Any = _INITIAL, player: int = 0,
                      rounding: Rounding = "nearest") -> None:
    """Assert that a computed value reproduces a published number, to every printed digit.

    A test assertion (see the module docstring for the rules): returns ``None``, or
    raises :class:`AssertionError` naming the quantity, the published and computed
    values and the first differing digit.

    Parameters
    ----------
    computed : Fraction, int, Solution, FloatSolution, or (lower, upper)
        The value: exact, or a certified interval. A :class:`tbsg.Solution` or
        :class:`tbsg.FloatSolution` is read at ``state`` for ``player``. A bare
        ``float`` is refused (it has no error bound).
    published : Fraction, int or str
        As printed: an exact ``Fraction``/``int``/``"p/q"`` (compared with ``==``), or a
        decimal string, ``"0.5306"`` or ``"53.06%"`` (every printed digit counts).
    quantity : str, optional
        What the number is and where it is printed, for the message.
    state : optional
        The state to read a solution at (its initial state by default).
    player : {0, 1}
        Whose value to read from a solution (player 0's by default).
    rounding : {"nearest", "truncate", "either"}
        How the source went from the exact value to its printed digits.

    Raises
    ------
    AssertionError
        The computed value does not reproduce the published one, or (the message starts
        with "cannot decide at this tolerance") a certified interval is too wide to tell.
    tbsg.InvalidArgumentError
        A float given as the published or computed value, or another bad argument.

    Examples
    --------
    Risk or Safety (Jehn 2026, section 3.3 prints ``P(0,0,0) = 275848876/521145625`` for
    ``n = 6``):

    >>> import tbsg
    >>> from tbsg.games import risk_or_safety
    >>> sol = tbsg.solve(risk_or_safety(6))
    >>> assert_reproduces(sol, Fraction(275848876, 521145625), quantity="P(0,0,0), n = 6")
    >>> assert_reproduces(sol, "0.5293")
    >>> assert_reproduces(sol, "52.93%")
    >>> assert_reproduces(sol, "0.5292", quantity="P(0,0,0), n = 6")
    Traceback (most recent call last):
    ...
    AssertionError: P(0,0,0), n = 6 does not reproduce the published 0.5292:
      published: 0.5292 (4 decimals, rounding='nearest')
      computed:  275848876/521145625 ≈ 0.52931247, which rounds to 0.5293
      first difference: decimal 4 (published 2, computed 3)

    A float solution's proven bounds must decide the digits:

    >>> fsol = tbsg.solve(risk_or_safety(6), exact=False)
    >>> assert_reproduces(fsol, "0.52931246617")
    >>> assert_reproduces((Fraction(5293, 10**4), Fraction(5294, 10**4)), "0.5293")
    Traceback (most recent call last):
    ...
    AssertionError: cannot decide at this tolerance whether the computed \
value reproduces the published 0.5293:
      published: 0.5293 (4 decimals, rounding='nearest'): the values in [0.52925, 0.52935]
      computed:  the certified interval [0.52930000, 0.52940000] is partly inside and partly outside them
      solve with a smaller tol (tbsg.solve(game, exact=False, tol=...)) or exactly
    """
    if rounding not in ROUNDINGS:
        raise InvalidArgumentError(f"rounding must be one of {ROUNDINGS}, got {show(rounding)}")
    pub = _published(published)
    lo, hi, name = _computed(computed, state, player)
    what = quantity if quantity is not None else name
    if isinstance(pub, Fraction):
        _check_exact(what, pub, lo, hi)
    else:
        _check_printed(what, pub, lo, hi, rounding)


def _approx(x: Fraction, places: int) -> str:
    return _rounded(x, places)


def _check_exact(what: str, pub: Fraction, lo: Fraction, hi: Fraction) -> None:
    if lo == hi == pub:
        return
    shown_pub = short_fraction(pub, 80)
    if lo == hi or not lo <= pub <= hi:
        nearest = lo if abs(lo - pub) <= abs(hi - pub) else hi
        k, a, b = _expansion_difference(pub, nearest)
        places = k + 2
        if lo == hi:
            computed = f"{short_fraction(lo, 80)} ≈ {_approx(lo, places)}"
        else:
            computed = (f"the certified interval [{_approx(lo, places)}, {_approx(hi, places)}], "
                        f"which does not contain it")
        where = "the integer part" if k == 0 else f"decimal {k}"
        raise AssertionError(
            f"{what} does not reproduce the published {shown_pub}:\n"
            f"  published: {shown_pub} ≈ {_approx(pub, places)}\n"
            f"  computed:  {computed}\n"
            f"  first difference: {where} (published {a[-1]}, computed {b[-1]})")
    raise AssertionError(
        f"cannot decide at this tolerance whether {what} equals the published {shown_pub}:\n"
        f"  the certified interval [{_approx(lo, 15)}, {_approx(hi, 15)}] contains it, but an "
        f"interval cannot prove an exact fraction: solve exactly (tbsg.solve(game))")


def _check_printed(what: str, pub: _Printed, lo: Fraction, hi: Fraction, rounding: Rounding) -> None:
    ok_lo, ok_hi = pub.match(lo, rounding), pub.match(hi, rounding)
    if ok_lo and ok_hi:
        return
    s = pub.scale
    p = pub.places
    said = f"{pub.text} ({p} decimal{'s' if p != 1 else ''}, rounding={rounding!r})"
    show_places = p + 4
    if lo != hi:  # enough decimals to tell the ends apart
        show_places = max(show_places, min(_expansion_difference(lo * s, hi * s)[0] + 2, 24))
    if lo == hi or not (ok_lo or ok_hi or lo <= pub.value <= hi):
        # no value in [lo, hi] gives the printed digits: the set of those that do is an
        # interval around the printed value, and neither end of [lo, hi] is in it
        near = lo if abs(lo - pub.value) <= abs(hi - pub.value) else hi
        mode: Rounding = "truncate" if rounding == "truncate" else "nearest"
        near_text = pub.show(_rounded(near * s, p, mode))
        verb = "truncates to" if mode == "truncate" else "rounds to"
        if rounding == "either":
            verb = f"truncates to {pub.show(_rounded(near * s, p, 'truncate'))} and rounds to"
        if lo == hi:
            computed = (f"{short_fraction(lo, 60)} ≈ {pub.show(_approx(lo * s, show_places))}, "
                        f"which {verb} {near_text}")
        else:
            ends = {pub.show(_rounded(x * s, p, mode)) for x in (lo, hi)}
            rounds = (f"which {verb} {near_text}" if len(ends) == 1 else
                      f"whose ends {'truncate' if mode == 'truncate' else 'round'} to "
                      f"{' and '.join(sorted(ends))}")
            computed = (f"the certified interval [{pub.show(_approx(lo * s, show_places))}, "
                        f"{pub.show(_approx(hi * s, show_places))}], {rounds}")
        first = _first_difference(pub.number, _rounded(near * s, p, mode))
        raise AssertionError(
            f"{what} does not reproduce the published {pub.text}:\n"
            f"  published: {said}\n"
            f"  computed:  {computed}\n"
            f"  first difference: {first}")
    raise AssertionError(
        f"cannot decide at this tolerance whether {what} reproduces the published {pub.text}:\n"
        f"  published: {said}: the values in {pub.accepted(rounding)}\n"
        f"  computed:  the certified interval [{pub.show(_approx(lo * s, show_places))}, "
        f"{pub.show(_approx(hi * s, show_places))}] is partly inside and partly outside them\n"
        f"  solve with a smaller tol (tbsg.solve(game, exact=False, tol=...)) or exactly")
