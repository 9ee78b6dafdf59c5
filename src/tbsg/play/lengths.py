"""How long play lasts: the law of the counted length ``L`` of play, its mean and variance.

A step from state ``s`` counts ``c(s) = count(s, sigma(s))`` (1 per move by default; 1 per
coin toss, 1 per turn, ...), and ``L`` is the sum of the counts until play ends
(``L = infinity`` on play that never ends). :class:`LengthDistribution` states the
definition and its functionals; :func:`length_distribution` computes ``P(L = k)`` for
``k <= n`` by stepping the chain's probability mass forward (:func:`tbsg.engine.markov.length_pmf`),
and the mean and variance from two systems of :mod:`tbsg.play.system`:

.. math::

    T = c + P T, \\qquad M = 2 c T - c^2 + P M, \\qquad \\mathrm{Var}\\, L = M - T^2,

where ``T`` is ``E L`` and ``M`` is ``E L^2`` from each state (expand
``(c + L')^2`` over one step). With ``exact=False`` each is enclosed in proven float
bounds (:class:`LengthBounds`); ``(I - P)^{-1} >= 0`` keeps ``M`` ordered when it is
solved for the extreme right-hand sides.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from tbsg.engine import _backend as bk
from tbsg.engine.bellman import ETA, U
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.markov import (
    ChainStructure,
    enclose_all,
    interval_bounds,
    length_bounds,
    length_pmf,
    solve_chain,
    zero_count_cycle,
)
from tbsg.errors import InvalidArgumentError, show
from tbsg.model.steps import StepFunction
from tbsg.play.system import (
    Bounds,
    diverging,
    exact_total,
    float_total,
    no_bounds,
    probability,
    reaching,
    steps,
)

__all__ = ["LengthBounds", "LengthDistribution", "length_distribution", "moments", "variance_bounds",
           "variance_of_steps"]


@dataclass(frozen=True)
class LengthDistribution:
    """Distribution of the counted length ``L`` of play (:meth:`tbsg.Chain.length_distribution`).

    ``L`` is the number of counted steps until play ends, and ``L = infinity`` on play
    that never ends: trapped play is an outcome of its own, whatever its steps count.
    Every attribute below is a functional of this one law on ``{0, 1, 2, ...}`` and
    ``infinity``.

    Attributes
    ----------
    pmf : tuple of Fraction
        ``pmf[k] = P(L = k)`` for ``k = 0 .. horizon``.
    mean, variance : Fraction or None
        ``E L`` and ``Var L``: finite exactly when play ends with probability 1
        (``trapped == 0``), and then equal to :meth:`tbsg.Chain.expected_steps` and
        :meth:`tbsg.Chain.variance_of_steps` with the same ``count``; ``None`` when
        ``trapped > 0`` (``E L`` is infinite).
    ends : Fraction
        ``P(L < infinity)``: the probability that play ends at all.

    Notes
    -----
    Let ``s_0, s_1, ...`` be the path of play from the start, ``c(s)`` the whole number
    ``count(s, sigma(s))`` that the step from ``s`` counts, and ``T`` the number of moves
    until play ends (``T = infinity`` if play is trapped in a closed class: states it
    never leaves and where it never ends). Then

    .. math::

        L = \\sum_{t < T} c(s_t) \\quad (T < \\infty), \\qquad L = \\infty \\quad (T = \\infty),

    and, with ``n`` the horizon,

    - ``pmf[k] = P(L = k)``, ``cdf[k] = P(L <= k)``: play has ended within ``k`` counted
      steps; ``beyond() = P(L > n) = 1 - cdf[n]``, play that never ends included;
    - ``ends = P(L < infinity) = sum_{k >= 0} P(L = k)`` and
      ``trapped = P(L = infinity) = 1 - ends``;
    - ``mean = E L = sum_k k P(L = k)`` and ``variance = sum_k (k - mean)^2 P(L = k)``
      when ``trapped = 0`` (both finite: a finite chain that ends surely ends
      geometrically fast); otherwise ``E L = infinity`` and both are ``None``.

    :meth:`tbsg.Chain.expected_steps` is the expected *total* count over all of play: on
    play trapped where every step counts 0 that total is finite, so it may be finite
    while ``E L`` is not; the two agree whenever ``mean`` is not ``None``. The
    distribution of the length of play that ends, conditioned on ending, is
    ``pmf[k] / ends``.
    """

    pmf: tuple[Fraction, ...]
    mean: Fraction | None
    variance: Fraction | None
    ends: Fraction

    @property
    def horizon(self) -> int:
        """The largest ``k`` covered."""
        return len(self.pmf) - 1

    @property
    def trapped(self) -> Fraction:
        """``P(L = infinity) = 1 - ends``: the probability that play never ends."""
        return 1 - self.ends

    @property
    def cdf(self) -> tuple[Fraction, ...]:
        """``cdf[k] = P(L <= k)``: the probability that play has ended within ``k`` counted steps."""
        out: list[Fraction] = []
        total = Fraction(0)
        for p in self.pmf:
            total += p
            out.append(total)
        return tuple(out)

    def beyond(self) -> Fraction:
        """``P(L > horizon)``, including play that never ends (``L = infinity``)."""
        return 1 - sum(self.pmf, Fraction(0))


@dataclass(frozen=True)
class LengthBounds:
    """Proven float bounds of the length distribution (``length_distribution(exact=False)``).

    The same random variable ``L`` as :class:`LengthDistribution` (``infinity`` on play
    that never ends), enclosed.

    Attributes
    ----------
    pmf : tuple of (float, float)
        ``pmf[k]`` encloses ``P(L = k)`` for ``k = 0 .. horizon``.
    mean, variance : (float, float) or None
        Bounds of ``E L`` and ``Var L``; ``None`` when play may never end (a closed class
        is reachable from the start, so ``P(L = infinity) > 0`` and ``E L`` is infinite).
    ends : (float, float)
        Bounds of ``P(L < infinity)``, the probability that play ends at all (exactly
        ``(1.0, 1.0)`` when no closed class is reachable).
    """

    pmf: tuple[Bounds, ...]
    mean: Bounds | None
    variance: Bounds | None
    ends: Bounds

    @property
    def horizon(self) -> int:
        """The largest ``k`` covered."""
        return len(self.pmf) - 1

    @property
    def trapped(self) -> Bounds:
        """Bounds of ``P(L = infinity) = 1 - P(L < infinity)`` (rounded outwards)."""
        lo, hi = self.ends
        return (max(math.nextafter(1.0 - hi, -math.inf), 0.0) if hi < 1.0 else 0.0,
                min(math.nextafter(1.0 - lo, math.inf), 1.0) if lo < 1.0 else 0.0)

    @property
    def cdf(self) -> tuple[Bounds, ...]:
        """``cdf[k]`` encloses ``P(L <= k)`` (sums rounded outwards)."""
        out: list[Bounds] = []
        lo = hi = 0.0
        for a, b in self.pmf:
            lo = max(math.nextafter(lo + a, -math.inf), 0.0) if a else lo
            hi = min(math.nextafter(hi + b, math.inf), 1.0) if b else hi
            out.append((lo, hi))
        return tuple(out)



def length_distribution(graph: CompiledGame[Any, Any], st: ChainStructure, n: int,
                        count: StepFunction | None, start: int,
                        exact: bool) -> LengthDistribution | LengthBounds:
    """The law of ``L`` from ``start`` up to ``n`` counted steps (see
    :meth:`tbsg.Chain.length_distribution`)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise InvalidArgumentError(f"n must be an int >= 0 (the longest length covered), got {show(n)}")
    c = steps(graph, count, "count", nonnegative=True, integer=True)
    ints = [int(x) for x in c]
    bad = zero_count_cycle(graph, ints, st.trapped)
    if bad is not None:
        raise InvalidArgumentError(
            f"steps that count 0 form a cycle through state {show(graph.states[bad])}: play "
            "could go round it forever without counting, so a length distribution is not defined "
            "count by count; make every cycle count")
    if not exact:
        return _length_bounds(graph, st, ints, c, n, start)
    pmf = length_pmf(graph, ints, n, start, st.trapped.tolist())
    mean: Fraction | None = None
    var: Fraction | None = None
    trapped = np.flatnonzero(st.trapped).tolist()
    ends = exact_total(graph, st, list(graph.act_stop), trapped, start)  # one action per state
    if ends == 1:  # else L = infinity with positive probability: E L is infinite
        mean, var = moments(graph, st, c, diverging(graph, st, c, "count", start), start)
    return LengthDistribution(pmf=tuple(bk.to_fraction(x) for x in pmf), mean=mean,
                              variance=var, ends=ends)


def _length_bounds(graph: CompiledGame[Any, Any], st: ChainStructure, ints: list[int], c: list[Fraction],
                   n: int, start: int) -> LengthBounds:
    lo, hi = length_bounds(graph, ints, n, start, st.trapped)
    mean: Bounds | None = None
    var: Bounds | None = None
    trapped = np.flatnonzero(st.trapped).tolist()
    if trapped and reaching(graph, trapped)[start]:
        # a closed class is reachable (every probability is positive): P(L = infinity) > 0
        stop = graph.act_stop  # one action per state: action i is state i's
        ends = probability(*float_total(graph, list(stop), dict.fromkeys(trapped, Fraction(0)), start, st))
    else:
        ends = (1.0, 1.0)
        given = diverging(graph, st, c, "count", start)
        low, high = float_total(graph, c, dict.fromkeys(given, Fraction(0)), start, st)
        mean = (max(low, 0.0), high)
        var = variance_bounds(graph, c, given, start, st.comps.members)
    return LengthBounds(pmf=tuple(zip(lo.tolist(), hi.tolist(), strict=True)), mean=mean,
                        variance=var, ends=ends)


def variance_of_steps(graph: CompiledGame[Any, Any], st: ChainStructure, count: StepFunction | None,
                      start: int, exact: bool) -> Fraction | Bounds:
    """``Var L`` from ``start`` (see :meth:`tbsg.Chain.variance_of_steps`)."""
    c = steps(graph, count, "count", nonnegative=True)
    given = diverging(graph, st, c, "count", start)
    if not exact:
        return variance_bounds(graph, c, given, start, st.comps.members)
    return moments(graph, st, c, given, start)[1]


def moments(graph: CompiledGame[Any, Any], st: ChainStructure, c: list[Fraction], given: list[int],
            start: int) -> tuple[Fraction, Fraction]:
    """Mean and variance of the counted length from ``start``, finite (``given``: the states
    :func:`~tbsg.play.system.diverging` returned for ``c``)."""
    zero = dict.fromkeys(given, bk.ZERO)
    cq = [bk.from_fraction(v) for v in c]
    t = solve_chain(graph, st.comps, cq, zero)
    two = bk.Q(2)
    m = solve_chain(graph, st.comps, [two * ci * ti - ci * ci for ci, ti in zip(cq, t, strict=True)], zero)
    mean = bk.to_fraction(t[start])
    return mean, bk.to_fraction(m[start]) - mean * mean


def variance_bounds(graph: CompiledGame[Any, Any], c: list[Fraction], given: list[int], start: int,
                    order: npt.NDArray[np.int64] | None = None) -> Bounds:
    """``Var L`` from bounds of ``T`` and of ``M`` (``M`` solved for the extreme right-hand
    sides ``2 c T - c^2``: ``(I - P)^-1 >= 0`` keeps them ordered; ``order``: the solving
    order, as for :func:`~tbsg.engine.markov.interval_bounds`)."""
    with np.errstate(all="ignore"):  # overflow beyond the float range: no bounds
        return _variance_interval(graph, c, given, start, order)


def _variance_interval(graph: CompiledGame[Any, Any], c: list[Fraction], given: list[int],
                       start: int, order: npt.NDArray[np.int64] | None) -> Bounds:
    fixed = np.array(given, dtype=np.int64)
    zeros = np.zeros(len(fixed))
    c_lo, c_hi = enclose_all(c)
    t = interval_bounds(graph, c_lo, c_hi, fixed, zeros, zeros, order)
    if t is None:
        raise no_bounds()
    t_lo, t_hi = np.maximum(t[0], 0.0), t[1]
    r_lo = 2.0 * c_lo * t_lo - c_hi * c_hi
    r_hi = 2.0 * c_hi * t_hi - c_lo * c_lo
    slack = 8.0 * U * (2.0 * c_hi * t_hi + c_hi * c_hi) + 8.0 * ETA
    m = interval_bounds(graph, np.nextafter(r_lo - slack, -np.inf), np.nextafter(r_hi + slack, np.inf),
                        fixed, zeros, zeros, order)
    if m is None:
        raise no_bounds()
    m_lo, m_hi = float(m[0][start]), float(m[1][start])
    tl, th = float(t_lo[start]), float(t_hi[start])
    lo = m_lo - th * th
    hi = m_hi - tl * tl
    lo = math.nextafter(lo - 4.0 * U * (abs(m_lo) + th * th), -math.inf)
    hi = math.nextafter(hi + 4.0 * U * (abs(m_hi) + tl * tl), math.inf)
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise no_bounds()
    return max(lo, 0.0), hi
