"""Parametric games: values as exact functions of a coin's or die's bias, and where the
optimal strategy changes.

A parametric game is an ordinary :class:`tbsg.Game` whose probabilities are sympy
expressions in one symbol ``p`` (the catalog's :func:`~tbsg.games.biased_risk_or_safety`
and :func:`~tbsg.games.biased_pig` take one). For every ``p`` of an open interval on
which every probability is positive:

* :func:`evaluate_parametric`: the values of a fixed profile as exact rational functions
  of ``p`` (:class:`RationalFunction`, evaluated exactly at any rational);
* :func:`solve_parametric`: the interval cut into regions, each with an optimal profile,
  its value formulas and a certificate; the breakpoints exactly (:class:`RealAlgebraic`:
  minimal polynomial and isolating interval, printable to any number of digits) with the
  optimal actions there; :func:`verify_parametric` re-checks it independently;
* :func:`region_table`, :func:`region_latex`, :func:`plot_parametric`: outputs.

The mathematics is in :mod:`tbsg.parametric.solve`; the representation of rational
functions (and why) in :mod:`tbsg.parametric.rational`; breakpoints in
:mod:`tbsg.parametric.algebraic`. Needs the ``parametric`` extra (sympy, python-flint):
``pip install 'tbsg[parametric]'``; ``import tbsg`` does not import it, and
``tbsg.solve_parametric`` loads it on first use.

Findings on the catalog games are in :mod:`tbsg.parametric.findings`.

Examples
--------
>>> import sympy, tbsg
>>> from fractions import Fraction
>>> from tbsg.games import biased_risk_or_safety
>>> p = sympy.Symbol("p")
>>> sol = tbsg.solve_parametric(biased_risk_or_safety(2, p), p)
>>> len(sol.regions), sol.breakpoints[0].at.decimal(12)
(3, '0.292893218813')
>>> sol.value_at(Fraction(1, 2)) == tbsg.solve(tbsg.games.risk_or_safety(2)).value()
True
>>> verify_parametric(sol).ok
True
"""

from tbsg.parametric.algebraic import RealAlgebraic
from tbsg.parametric.certificate import ParametricVerification, verify_parametric
from tbsg.parametric.outputs import plot_parametric, region_latex, region_rows, region_table
from tbsg.parametric.rational import RationalFunction
from tbsg.parametric.solve import (
    Breakpoint,
    ParametricSolution,
    ParametricValues,
    Region,
    evaluate_parametric,
    solve_parametric,
)

__all__ = [
    "Breakpoint",
    "ParametricSolution",
    "ParametricValues",
    "ParametricVerification",
    "RationalFunction",
    "RealAlgebraic",
    "Region",
    "evaluate_parametric",
    "plot_parametric",
    "region_latex",
    "region_rows",
    "region_table",
    "solve_parametric",
    "verify_parametric",
]
