"""What a solve returns: immutable solutions that answer questions about states.

One concept per module:

* :mod:`~tbsg.results.query`: the query vocabulary every result type of tbsg speaks
  (the method names, the default state :data:`~tbsg.results.query.INITIAL`, whose view
  a number is) and the protocols that state it;
* :mod:`~tbsg.results.solution`: :class:`Solution`, the exact solution, and the base it
  shares with the float one;
* :mod:`~tbsg.results.floating`: :class:`FloatSolution`, proven float bounds;
* :mod:`~tbsg.results.kind`: :class:`SolutionKind` (solve, evaluate, best response);
* :mod:`~tbsg.results.views`: read-only mappings over the states and sequences of values,
  and the one state lookup;
* :mod:`~tbsg.results.provenance`: :class:`Provenance`, what a methods section quotes;
* :mod:`~tbsg.results.html`: the notebook views;
* :mod:`~tbsg.results.deprecation`: old names of the vocabulary, which warn for one
  release.

Values are *expected payoff to player 0* (P(player 0 wins) when there are no draws);
``value(state, player=1)`` gives player 1's view (``1 - v`` in a win-probability game,
``-v`` in a game of scores or rewards: :mod:`tbsg.model.protocol`) and ``value_to_move(state)``
the view of the player who moves at ``state``. An exact :class:`Solution` and a float
:class:`FloatSolution` answer the same questions with the same methods, so code written
for one runs on the other. Numbers handed out are ``fractions.Fraction`` (exact) or
Python ``float``, never a type of the arithmetic backend.

Examples
--------
>>> import tbsg
>>> from tbsg.games import risk_or_safety
>>> exact, approx = tbsg.solve(risk_or_safety(3)), tbsg.solve(risk_or_safety(3), exact=False)
>>> exact.value(), exact.bounds()[0] == exact.value()
(Fraction(6, 11), True)
>>> lo, hi = approx.bounds()
>>> lo <= exact.value() <= hi
True
"""

from tbsg.results.floating import FloatSolution, complement_down, complement_up, interval_to
from tbsg.results.html import html_table as _html_table  # noqa: F401  (private, importable)
from tbsg.results.kind import SolutionKind
from tbsg.results.provenance import Checked, Provenance, solution_digest
from tbsg.results.query import INITIAL, Initial, ProfileQueries, StateQueries, check_player
from tbsg.results.solution import Solution, _Base  # noqa: F401  (private, importable)
from tbsg.results.views import ExactValues, FractionValues, Getter, StateMap

__all__ = ["INITIAL", "FloatSolution", "Initial", "ProfileQueries", "Provenance", "Solution",
           "SolutionKind", "StateQueries", "solution_digest"]

# private names of this package, importable from it as from its modules
_INITIAL = INITIAL
_Initial = Initial
_player = check_player
_down = complement_down
_up = complement_up
_interval = interval_to
_StateMap = StateMap
_Getter = Getter
_FractionValues = FractionValues
_ExactValues = ExactValues
_Checked = Checked
