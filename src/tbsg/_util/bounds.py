"""Bounds on what tbsg reads from text it did not write: numbers typed on the command
line, and the parameters of its games recorded in saved files.

Numbers from text (:func:`number_from_text`) have at most :data:`MAX_DIGITS` digits (an
integer, each side of ``p/q`` or of a decimal point) and a decimal exponent at most
:data:`MAX_DIGITS` in size, checked on the text before any conversion: converting is then
never more than an instant (an exponent of ``9999999`` would build a ten-million-digit
power of ten, and Python refuses to convert more than 4300 digits by default).

Where tbsg builds one of its games from values it did not choose itself (the recorded
fields of a saved file, :func:`tbsg.load`; ``-p`` values on the command line), each
numeric parameter must lie in a declared range (:data:`GAME_BOUNDS`, :class:`Bounds`),
checked before the game is built: an edited file cannot make the first call of
``actions`` or ``outcomes`` build a list of a hundred million bets. A die's faces (the
outcomes of one roll, the bets of one turn) are what one call builds, so they are bounded
tightly; sizes (goal, target, tosses, points, sticks) only set how many states there are,
which the enumeration limit bounds, so their range only excludes the absurd. The games
themselves (``tbsg.games.pig(die=...)``) take any value their rules allow.

The ranges name the games' classes as text: this module sits below the saved-file reader,
which imports no game.

Examples
--------
>>> number_from_text("0.25e-3", "p", "a number"), number_from_text("x", "p", "a number")
(Fraction(1, 4000), None)
>>> print(GAME_BOUNDS["tbsg.games.pig.Pig"]["die"])
an int from 2 to 100,000
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from tbsg._util.digits import unlimited_digits
from tbsg.errors import InvalidArgumentError, shorten, show

__all__ = ["GAME_BOUNDS", "MAX_DIGITS", "Bounds", "OutOfBounds", "bounds_of", "number_from_text"]

MAX_DIGITS = 4300
"""Most digits of one number read from text (and largest size of a decimal's exponent):
Python's own default limit for converting integers from text, so that a value typed by
hand never reaches quadratic-time conversion."""

_INT = re.compile(r"[+-]?([0-9]+)")
_RATIO = re.compile(r"[+-]?([0-9]+)/([0-9]+)")
_DECIMAL = re.compile(r"[+-]?([0-9]*)\.([0-9]*)(?:[eE]([+-]?[0-9]+))?")


class OutOfBounds(InvalidArgumentError):
    """A number with too many digits or too large an exponent."""


def number_from_text(text: str, what: str, expected: str, *,
                     fractions: bool = True) -> int | Fraction | None:
    """The int (or, with ``fractions``, exact Fraction: ``p/q`` or a decimal such as
    ``0.25`` or ``2.5e-3``) that ``text`` writes; ``None`` if it writes none, or a zero
    denominator.

    The digits and the exponent are counted on the text first: a number beyond
    :data:`MAX_DIGITS` raises :class:`OutOfBounds` naming ``what`` and saying it must be
    ``expected``.
    """
    def too_big(found: str) -> OutOfBounds:
        exponent = f" (and an exponent of at most {MAX_DIGITS:,})" if fractions else ""
        return OutOfBounds(f"{what} must be {expected} of at most {MAX_DIGITS:,} digits{exponent}, "
                           f"got {found}: {show(text, 60)}")

    def count(*parts: str) -> None:  # an integer, each side of p/q, each side of a decimal point
        longest = max(len(p) for p in parts)
        if longest > MAX_DIGITS:
            raise too_big(f"{longest:,} digits")

    with unlimited_digits():  # (bounded above: whatever limit the environment sets)
        m = _INT.fullmatch(text)
        if m:
            count(m[1])
            return int(text)
        if not fractions:
            return None
        m = _RATIO.fullmatch(text)
        if m:
            count(m[1], m[2])
            den = int(m[2])
            return Fraction(int(text.partition("/")[0]), den) if den else None
        m = _DECIMAL.fullmatch(text)
        if m and (m[1] or m[2]):
            count(m[1], m[2])
            exponent = m[3] or "0"
            size = exponent.lstrip("+-").lstrip("0")
            if len(size) > len(str(MAX_DIGITS)) or int(size or "0") > MAX_DIGITS:
                raise too_big(f"the exponent {shorten(exponent, 20)}")
            return Fraction(text)
        return None


@dataclass(frozen=True)
class Bounds:
    """The values of one numeric game parameter that tbsg builds a game from, when it did not
    choose them itself (a saved file's fields, the command line).

    Attributes
    ----------
    kind : type
        ``int`` or ``Fraction`` (a ``Fraction`` parameter also takes an ``int``).
    low, high : int or Fraction
        The range, both ends included unless ``strict``.
    strict : bool
        Both ends excluded (a probability strictly between 0 and 1).
    none : bool
        ``None`` is accepted too (the game then picks its default, e.g. a fair die).

    Examples
    --------
    >>> Bounds(int, 2, 10).problem(11), Bounds(int, 2, 10).problem(True), Bounds(int, 2, 10).problem(3)
    ('out of range', 'a bool is not an int', None)
    >>> str(Bounds(Fraction, 0, 1, strict=True, none=True))
    'a Fraction strictly between 0 and 1 (or None)'
    """

    kind: type
    low: int | Fraction
    high: int | Fraction
    strict: bool = False
    none: bool = False

    def __str__(self) -> str:
        kind = "an int" if self.kind is int else "a Fraction"
        rng = (f"strictly between {self.low} and {self.high}" if self.strict
               else f"from {self.low:,} to {self.high:,}" if self.kind is int
               else f"from {self.low} to {self.high}")
        return f"{kind} {rng}" + (" (or None)" if self.none else "")

    def problem(self, value: object) -> str | None:
        """What is wrong with ``value`` (``None`` if nothing): its type, or its range.

        Comparisons only: a value of any size is judged without being converted to text.
        """
        if value is None:
            return None if self.none else "None is not accepted"
        if isinstance(value, bool):
            return f"a bool is not {'an int' if self.kind is int else 'a Fraction'}"
        if not isinstance(value, int) and (self.kind is int or not isinstance(value, Fraction)):
            return f"a {type(value).__name__} is not {'an int' if self.kind is int else 'a Fraction'}"
        inside = self.low < value < self.high if self.strict else self.low <= value <= self.high
        return None if inside else "out of range"


_SIZE = Bounds(int, 1, 10**9)
"""A goal, target, number of tosses, points or sticks: it sets the number of states only."""
_FACES = Bounds(int, 2, 100_000)
"""The faces of a die: one roll has that many outcomes."""
_BETS = Bounds(int, 1, 100_000)
"""Unspeakable Words' die: one turn offers up to that many bets."""
_PROBABILITY = Bounds(Fraction, 0, 1, strict=True, none=True)
"""A biased coin's or die's probability (``None``: the fair one)."""

#: Declared ranges of the numeric parameters of tbsg's games, by ``module.Class`` (the
#: fields a saved file records): :func:`tbsg.load` rebuilds a game of tbsg from a file only
#: if every numeric field it records has a range here, and lies in it.
GAME_BOUNDS: dict[str, Mapping[str, Bounds]] = {
    "tbsg.games.coinball.Coinball": {"tosses": _SIZE},
    "tbsg.games.pig.Pig": {"goal": _SIZE, "die": _FACES},
    "tbsg.games.pig.Piglet": {"goal": _SIZE},
    "tbsg.games.pig.BiasedPig": {"goal": _SIZE, "die": _FACES, "bust": _PROBABILITY},
    "tbsg.games.pig_solitaire.PigSolitaire": {"goal": _SIZE, "die": _FACES},
    "tbsg.games.pig_turn.PigTurn": {"die": _FACES, "limit": Bounds(int, 1, 10**9, none=True)},
    "tbsg.games.risk_or_safety.RiskOrSafety": {"target": _SIZE},
    "tbsg.games.risk_or_safety.BiasedRiskOrSafety": {"target": _SIZE, "heads": _PROBABILITY},
    "tbsg.games.super_six.SuperSix": {"hand": _SIZE, "other": _SIZE, "lid": Bounds(int, 0, 5)},
    "tbsg.games.the_race.TheRace": {"goal": _SIZE},
    "tbsg.games.unspeakable_words.UnspeakableWords": {"a": _SIZE, "b": _SIZE, "die": _BETS},
}


def bounds_of(module: str, qualname: str) -> Mapping[str, Bounds] | None:
    """The declared ranges of the fields of the game class ``module.qualname`` (``None``:
    tbsg declares none for it)."""
    return GAME_BOUNDS.get(f"{module}.{qualname}")
