"""Property-based verification for your own work: random games, an oracle, published numbers.

Three tools, for a test suite of your own (pytest, with hypothesis; install them with
``pip install 'tbsg[testing]'``):

* :func:`games` — hypothesis strategies for random games of a given shape (states,
  actions per state, outcomes per action, cycles, draws, one or both players), returned
  as :class:`TableGame` objects that :func:`tbsg.solve` accepts. *What it guarantees*:
  every drawn game is a valid game with exact probabilities, and stopping (play ends
  with probability 1 under every strategy profile) unless ``stopping=False``; failing
  examples shrink to small games.
* :func:`brute_force` — an oracle for small games that shares no code with tbsg's
  solvers: it enumerates every pure stationary strategy profile, solves each profile's
  linear system exactly (integer Gaussian elimination), and takes max-min state by
  state. *What it proves*: the exact value of every reachable state, by the definition
  (optimal strategies are pure and stationary in these games); so ``tbsg.solve(game).values
  == brute_force(game).values`` checks tbsg, or your own code, independently. It costs
  ``O(profiles x states**3)`` and refuses games above its limits
  (:class:`tbsg.StateLimitError`).
* :func:`assert_reproduces` — a test assertion that a computed value reproduces a
  published number: an exact fraction (``==``), or a printed decimal such as
  ``"0.5306"`` or ``"53.06%"`` to every printed digit. *What it proves*: for an exact
  value, that it gives the printed digits; for a float solution, that *every* value its
  proven bounds allow does (otherwise it fails, or says it cannot decide at this
  tolerance). It raises :class:`AssertionError` on purpose, naming the first differing
  digit.

Examples
--------
A user's test file (run by pytest) checks a paper's fraction and tbsg against the oracle:

>>> from fractions import Fraction
>>> from hypothesis import given, settings
>>> import tbsg
>>> from tbsg.games import risk_or_safety
>>> from tbsg.testing import assert_reproduces, brute_force, games
>>> def test_jehn_2026_section_3_1():
...     assert_reproduces(tbsg.solve(risk_or_safety(2)), Fraction(4, 7), quantity="P(0,0,0), n = 2")
>>> @settings(max_examples=20, database=None)
... @given(games(states=(1, 4), actions=(1, 2)))
... def test_solve_is_brute_force(game):
...     assert tbsg.solve(game).values == brute_force(game).values
>>> test_jehn_2026_section_3_1(); test_solve_is_brute_force()
"""

from __future__ import annotations

try:
    import hypothesis  # noqa: F401  (the strategies need it; checked here for a clear message)
except ImportError as exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        "tbsg.testing needs hypothesis, which is not installed: pip install 'tbsg[testing]'"
    ) from exc

from tbsg.testing.oracle import BruteForce, brute_force, profile_values, solve_linear_system
from tbsg.testing.published import assert_reproduces
from tbsg.testing.strategies import RewardTableGame, TableGame, distributions, games, terminals

__all__ = [
    "BruteForce",
    "RewardTableGame",
    "TableGame",
    "assert_reproduces",
    "brute_force",
    "distributions",
    "games",
    "profile_values",
    "solve_linear_system",
    "terminals",
]
