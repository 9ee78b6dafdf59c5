"""Published quantities and their recomputation, for ``tbsg reproduce``.

Each catalog module exposes ``published() -> list[Check]``: one row per number or table
its source prints, with the published value as printed and the value tbsg computes.
Published values are *oracles*: they are only compared with, never used to compute.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from tbsg._digits import fraction_text, short_fraction

__all__ = ["Check", "decimal_check", "decimal_match", "fraction_check"]


@dataclass(frozen=True)
class Check:
    """One published quantity.

    Attributes
    ----------
    game : str
        Catalog game name (``risk_or_safety``, ``super_six``, ...).
    source : str
        Where it is published (seed file and section/table/figure).
    quantity : str
        What it is, in the source's notation.
    published : str
        The value as printed in the source.
    computed : str
        The value tbsg computed.
    match : bool
        Whether they agree (exactly for fractions, to every printed digit for decimals).
    note : str
        How the comparison was made when it is not literal, or why the source's value
        differs (a misprint, a value that could not be reproduced); empty otherwise.
    known : bool
        The mismatch is a documented discrepancy of the source, explained in ``note``:
        ``tbsg reproduce`` reports it but does not fail on it. A row marked ``known`` that
        matches is itself reported as unexpected (the explanation is out of date).
    """

    game: str
    source: str
    quantity: str
    published: str
    computed: str
    match: bool
    note: str = ""
    known: bool = False

    def __post_init__(self) -> None:
        if self.known and not self.note:
            raise ValueError(f"row {self.quantity!r}: a known discrepancy needs a note explaining it")

    @property
    def expected(self) -> bool:
        """True when the row is as expected: a match, or a documented known discrepancy."""
        return self.match != self.known


def decimal_match(printed: str, exact: Fraction) -> bool:
    """True if ``exact`` rounds (half-even or half-up) to ``printed`` at its printed digits."""
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
                 published == computed)


def decimal_check(game: str, source: str, quantity: str, printed: str,
                  computed: Fraction) -> Check:
    """Row for a published decimal: match to every printed digit."""
    places = max(0, -int(Decimal(printed).as_tuple().exponent))
    shown = f"{computed} ≈ {float(computed):.{places + 2}f}" if computed.denominator < 10**30 \
        else f"≈ {_decimal_string(computed, places + 2)}"
    return Check(game, source, quantity, printed, shown, decimal_match(printed, computed))


def _decimal_string(x: Fraction, places: int) -> str:
    q = round(x * 10**places)
    s = str(abs(q)).rjust(places + 1, "0")
    return ("-" if q < 0 else "") + s[:-places] + "." + s[-places:]
