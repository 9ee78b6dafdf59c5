"""Rows of ``tbsg reproduce`` and the declarations that excuse some of them.

A source module (:mod:`tbsg.sources`) recomputes every quantity its source prints and
returns one :class:`Check` per quantity: the value as printed, the value tbsg computes
(as an exact object and as display text) and whether they agree. Published values are
*oracles*: they are compared with, never used to compute.

Where a source is known to be wrong (a misprint, a truncated decimal, a value that does
not reproduce), its module declares a :class:`KnownDiscrepancy` *in advance, as data*:
the quantity, the exact value tbsg must compute for it, and the reason. ``tbsg
reproduce`` (:mod:`tbsg.sources.reproduce`) accepts a mismatch only when such a declaration exists
and the computed value equals the declared one, so a regression in a row with a known
discrepancy still fails.

Examples
--------
>>> from fractions import Fraction
>>> row = decimal_check("super_six", "seed 002, Figure 1", "P(1/1/2)", "0.853", Fraction(35, 41))
>>> row.match, row.value, row.computed
(False, Fraction(35, 41), '35/41 ≈ 0.85366')
>>> known = KnownDiscrepancy("P(1/1/2)", Fraction(35, 41), "truncated in the figure")
>>> known.excuses(row)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from tbsg._util.digits import fraction_text, short_fraction

__all__ = [
    "Check",
    "Citation",
    "KnownDiscrepancy",
    "Value",
    "decimal_check",
    "decimal_match",
    "decimal_string",
    "fraction_check",
    "text_check",
    "value_text",
]

Value = Fraction | int | str | tuple[Fraction, ...]
"""An exact computed value: a rational, a count, a string (strategy strings, tables
written out) or a tuple of rationals (rows that compute several numbers). Compared with
``==``; floats are refused (they would compare equal to a nearby rational by accident of
rounding)."""


def _check_value(what: str, value: object) -> None:
    ok = (isinstance(value, (Fraction, int, str)) and not isinstance(value, bool)) or (
        isinstance(value, tuple) and all(isinstance(x, Fraction) for x in value))
    if not ok:
        raise TypeError(f"{what}: the value must be exact (Fraction, int, str or a tuple of "
                        f"Fractions), got {value!r}")


def value_text(value: Value) -> str | list[str]:
    """The exact value as text: ``"p/q"`` for a rational, a list of them for a tuple."""
    if isinstance(value, tuple):
        return [fraction_text(x) for x in value]
    if isinstance(value, Fraction):
        return fraction_text(value)
    return str(value)


@dataclass(frozen=True)
class Check:
    """One published quantity, recomputed.

    Attributes
    ----------
    game : str
        Catalog game name (``risk_or_safety``, ``super_six``, ...).
    source : str
        Where it is published (source and section/table/figure/page).
    quantity : str
        What it is, in the source's notation; unique among its source's rows (it is the
        key a :class:`KnownDiscrepancy` refers to).
    published : str
        The value as printed in the source.
    computed : str
        The value tbsg computed, for display.
    match : bool
        Whether they agree (exactly for fractions, to every printed digit for decimals,
        character for character for strings and tables).
    value : Value
        The value tbsg computed, exact: what a declared discrepancy is compared with.
    note : str
        How the comparison was made when it is not literal; empty otherwise. Why a source
        is wrong is not said here but in its :class:`KnownDiscrepancy`.
    """

    game: str
    source: str
    quantity: str
    published: str
    computed: str
    match: bool
    value: Value
    note: str = ""

    def __post_init__(self) -> None:
        _check_value(f"row {self.quantity!r}", self.value)


@dataclass(frozen=True)
class KnownDiscrepancy:
    """A documented discrepancy of a source, declared in advance.

    Attributes
    ----------
    quantity : str
        The :attr:`Check.quantity` of the row it applies to.
    value : Value
        The exact value tbsg must compute for that row (compared with ``==``): a
        ``Fraction``, the exact string of a strategy string or table, or a tuple of
        ``Fraction`` for a row that computes several numbers.
    reason : str
        Why the printed value differs (shown as the row's note).
    """

    quantity: str
    value: Value
    reason: str

    def __post_init__(self) -> None:
        if not self.quantity or not self.reason:
            raise ValueError(f"known discrepancy {self.quantity!r}: needs a quantity and a reason")
        _check_value(f"known discrepancy {self.quantity!r}", self.value)

    def excuses(self, row: Check) -> bool:
        """Whether ``row`` is this discrepancy: it does not match and its value is the declared one."""
        return row.quantity == self.quantity and not row.match and row.value == self.value


def decimal_match(printed: str, exact: Fraction) -> bool:
    """True if ``exact`` rounds (half-even or half-up) to ``printed`` at its printed digits.

    >>> decimal_match("0.616", Fraction(101, 164)), decimal_match("0.853", Fraction(35, 41))
    (True, False)
    """
    d = Decimal(printed)
    exponent = d.as_tuple().exponent
    places = -exponent if isinstance(exponent, int) else 0
    scale = 10**places
    scaled = exact * scale
    lo, hi = scaled.__floor__(), scaled.__ceil__()
    target = int(d.scaleb(places))
    # accept the nearest integer(s): exact ties accept both neighbours
    if abs(scaled - lo) < abs(hi - scaled):
        return bool(target == lo)
    if abs(scaled - lo) > abs(hi - scaled):
        return bool(target == hi)
    return target in (lo, hi)


def fraction_check(game: str, source: str, quantity: str, published: Fraction,
                   computed: Fraction) -> Check:
    """Row for an exact published fraction (compared with ``==``)."""
    return Check(game, source, quantity, fraction_text(published), short_fraction(computed, 4000),
                 published == computed, computed)


def decimal_check(game: str, source: str, quantity: str, printed: str,
                  computed: Fraction) -> Check:
    """Row for a published decimal: match to every printed digit."""
    places = max(0, -int(Decimal(printed).as_tuple().exponent))
    shown = f"{computed} ≈ {float(computed):.{places + 2}f}" if computed.denominator < 10**30 \
        else f"≈ {decimal_string(computed, places + 2)}"
    return Check(game, source, quantity, printed, shown, decimal_match(printed, computed), computed)


def text_check(game: str, source: str, quantity: str, printed: str, computed: str,
               note: str = "") -> Check:
    """Row for a printed string or table written out: match character for character."""
    return Check(game, source, quantity, printed, computed, printed == computed, computed, note)


@dataclass(frozen=True)
class Citation:
    """The rows of one source: its game and citation, with ``where`` (section, table,
    figure, page) added per row.

    Examples
    --------
    >>> paper = Citation("super_six", "seed 002")
    >>> row = paper.fraction("section 3", "P(0/2/1)", "31/36", Fraction(31, 36))
    >>> row.source, row.match
    ('seed 002, section 3', True)
    >>> paper.claim("section 4", "P(3/1/1) > 0.5", "> 0.5", "0.6 > 0.5", True).value
    '0.6 > 0.5'
    """

    game: str
    citation: str

    def at(self, where: str) -> str:
        """The row's source: the citation, then ``where`` (if any)."""
        return f"{self.citation}, {where}" if where else self.citation

    def fraction(self, where: str, quantity: str, printed: str, computed: Fraction) -> Check:
        """:func:`fraction_check` of the fraction printed as ``printed`` (``"p/q"``)."""
        return fraction_check(self.game, self.at(where), quantity, Fraction(printed), computed)

    def decimal(self, where: str, quantity: str, printed: str, computed: Fraction) -> Check:
        """:func:`decimal_check`: a printed decimal, matched to every printed digit."""
        return decimal_check(self.game, self.at(where), quantity, printed, computed)

    def text(self, where: str, quantity: str, printed: str, computed: str, note: str = "") -> Check:
        """:func:`text_check`: a printed string or table, matched character for character."""
        return text_check(self.game, self.at(where), quantity, printed, computed, note)

    def claim(self, where: str, quantity: str, printed: str, computed: str, ok: bool,
              value: Value | None = None, note: str = "") -> Check:
        """A statement of the source (an inequality, a count, a rule), checked: ``ok`` is
        whether it holds; ``value`` (default: the ``computed`` text) is what a declared
        discrepancy is compared with."""
        return Check(self.game, self.at(where), quantity, printed, computed, ok,
                     computed if value is None else value, note)


def decimal_string(x: Fraction, places: int) -> str:
    """``x`` rounded to ``places`` decimals, for any size of numerator and denominator.

    >>> decimal_string(Fraction(2, 3), 4)
    '0.6667'
    >>> decimal_string(Fraction(107, 2), 0)   # no decimals: an integer (half to even)
    '54'
    """
    q = round(x * 10**places)
    s = str(abs(q)).rjust(places + 1, "0")
    sign = "-" if q < 0 else ""
    if places == 0:
        return sign + s
    return sign + s[:-places] + "." + s[-places:]
