"""Parametric games: values as exact functions of a coin's or die's bias, and where the
optimal strategy changes.

A parametric game is an ordinary :class:`tbsg.Game` whose probabilities are sympy
expressions in one symbol ``p`` (the catalog's :func:`~tbsg.games.biased_risk_or_safety`
and :func:`~tbsg.games.biased_pig` take one). A move may pay a reward (the optional
``reward(state, action)`` of :mod:`tbsg.model.protocol`) that is a rational function of
``p`` too, and a terminal any rational: values are then expected totals (``win_probability``
is False and player 1's view is ``-v``). For every ``p`` of an open interval on which every
probability is positive (and every reward finite):

* :func:`evaluate_parametric`: the values of a fixed profile as exact rational functions
  of ``p`` (:class:`RationalFunction`, evaluated exactly at any rational);
* :func:`solve_parametric`: the interval cut into regions, each with an optimal profile,
  its value formulas and a certificate; the breakpoints exactly (:class:`RealAlgebraic`:
  minimal polynomial and isolating interval, printable to any number of digits) with the
  optimal actions there; :func:`verify_parametric` re-checks it independently;
* outputs live with the other outputs: :func:`tbsg.region_table`,
  :func:`tbsg.region_latex` and :func:`tbsg.plots.plot_parametric`.

The results (:mod:`tbsg.parametric.results`: :class:`Region`, :class:`ParametricValues`,
:class:`ParametricSolution`) answer the query vocabulary of every tbsg result
(:mod:`tbsg.results.query`): ``value(state)`` is a function of ``p`` and
``value(state, at=x)`` its exact value at a rational ``x``.

The mathematics is in :mod:`tbsg.parametric.solve`; the representation of rational
functions (and why) in :mod:`tbsg.parametric.rational`; breakpoints in
:mod:`tbsg.parametric.algebraic`. Needs the ``parametric`` extra (sympy, python-flint):
``pip install 'tbsg[parametric]'``; ``import tbsg`` does not import it, and
``tbsg.solve_parametric`` loads it on first use.

Findings
--------
Computed exactly (``benchmarks/bench_parametric.py`` and ``examples/parametric.py``
recompute them; every breakpoint is a proved root, every region certified):

* *Risk or Safety, P(heads) = p* (:func:`~tbsg.games.biased_risk_or_safety`). Targets
  1 to 5 fully (1, 3, 7, 20, 40 regions); 6 (82 regions, breakpoints of degree up to
  32) and 7 (135 regions, degree 43) by the benchmark. The first player's
  value exceeds 1/2 for *every* bias in (0, 1): ``v(p) - 1/2`` has no root in any
  region and is positive inside, so her advantage never disappears; it tends to 1/2 as
  ``p -> 0`` (and to 1 as ``p -> 1``). Stopping after the first head, at
  ``(1, 0, 0)``, is optimal exactly for ``p <= p*``: ``p* = 0.403031716...`` (root of
  ``2p^3 - 2p^2 - 2p + 1``) to 2 points, ``0.534373776...`` (degree 5) to 3,
  ``0.475111291...`` (degree 11) to 4 and ``0.498745338...`` (degree 15) to 5, so with a fair coin the
  first player banks her first point to 3 but not to 2, 4 or 5 points. The simplest
  breakpoint, ``1 - 1/sqrt(2) = 0.2928...`` (``2p^2 - 4p + 1``), recurs for every
  target from 2: it is decided where the opponent needs a single point.
* *Pig with P(1) = p* (:func:`~tbsg.games.biased_pig`, six-sided die, other faces
  ``(1 - p)/5`` each), goals 3 to 6 (3, 3, 10, 21 regions; goal 8: 73 regions).
  Again the first player's value exceeds 1/2 for every bias (tending to 1/2 as
  ``p -> 1``). At 0-0 with a turn total of 2, rolling on is optimal up to
  ``P(1) = 0.904254124`` to 3, ``0.815611413`` to 4, ``0.753438735`` to 5 and
  ``0.675214166`` to 6 points: the fair die (1/6) is far inside the "roll" region.

Examples
--------
>>> import sympy, tbsg
>>> from fractions import Fraction
>>> from tbsg.games import biased_risk_or_safety
>>> p = sympy.Symbol("p")
>>> sol = tbsg.solve_parametric(biased_risk_or_safety(2, p), p)
>>> len(sol.regions), sol.breakpoints[0].at.decimal(12)
(3, '0.292893218813')
>>> sol.value(at=Fraction(1, 2)) == tbsg.solve(tbsg.games.risk_or_safety(2)).value()
True
>>> verify_parametric(sol).ok
True
"""

import importlib
import warnings

from tbsg.parametric.algebraic import RealAlgebraic
from tbsg.parametric.certificate import ParametricVerification, verify_parametric
from tbsg.parametric.rational import RationalFunction
from tbsg.parametric.results import Breakpoint, ParametricSolution, ParametricValues, Piecewise, Region
from tbsg.parametric.solve import evaluate_parametric, solve_parametric

__all__ = [
    "Breakpoint",
    "ParametricSolution",
    "ParametricValues",
    "ParametricVerification",
    "Piecewise",
    "RationalFunction",
    "RealAlgebraic",
    "Region",
    "evaluate_parametric",
    "solve_parametric",
    "verify_parametric",
]

_MOVED = {
    "region_rows": ("tbsg.outputs.regions", "tbsg.region_rows"),
    "region_table": ("tbsg.outputs.regions", "tbsg.region_table"),
    "region_latex": ("tbsg.outputs.regions", "tbsg.region_latex"),
    "plot_parametric": ("tbsg.outputs.plots.parametric", "tbsg.plots.plot_parametric"),
}
"""Outputs that moved to :mod:`tbsg.outputs` (module, new public name); the old names
warn for one release."""


def __getattr__(name: str) -> object:
    if name in _MOVED:
        module, new = _MOVED[name]
        warnings.warn(f"tbsg.parametric.{name} is deprecated and will be removed in tbsg 0.3; use {new}",
                      DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(module), name)
    raise AttributeError(f"module 'tbsg.parametric' has no attribute {name!r}")
