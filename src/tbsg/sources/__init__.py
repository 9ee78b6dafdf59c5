"""The published sources of the catalog, as data, and their recomputation.

One module per source: the numbers, strings and tables it prints (with where: section,
table, figure, page), a function ``checks()`` that recomputes each of them with the
catalog's public analysis functions (:mod:`tbsg.games`) and :mod:`tbsg.api.solving`, and the
source's known discrepancies, declared in advance as data
(``KNOWN_DISCREPANCIES``, a tuple of :class:`~tbsg.sources.check.KnownDiscrepancy`).
Each module's docstring says what the source is and what does not reproduce, and why.

* :mod:`tbsg.sources.risk_or_safety`: R. Jehn, Risk or Safety (2026; seed 000);
* :mod:`tbsg.sources.coinball`: The Riddler, Coinball (seed 001);
* :mod:`tbsg.sources.super_six`: R. Jehn, Super Six (2021; seed 002);
* :mod:`tbsg.sources.the_race`: Project Euler 232, The Race (seed 003);
* :mod:`tbsg.sources.unspeakable_words`: Win-Vector, Unspeakable bets (seed 004);
* :mod:`tbsg.sources.pig`: Neller and Presser 2004, Pig and Piglet (both catalog games);
* :mod:`tbsg.sources.pig_turn`: Neller's Nifty Assignment (2010) and Neller and Presser
  2004, one turn of Pig played for points;
* :mod:`tbsg.sources.pig_solitaire`: Neller's Nifty Assignment (2010), Pig solitaire's
  expected number of turns.

The games never import this package: sources depend on games, not the reverse. ``tbsg
reproduce`` (:mod:`tbsg.sources.reproduce`) runs the modules; :mod:`tbsg.games.registry` names each
game's source module.
"""

from tbsg.sources.check import Check, KnownDiscrepancy, decimal_check, decimal_match, fraction_check

__all__ = ["Check", "KnownDiscrepancy", "decimal_check", "decimal_match", "fraction_check"]
