"""The Markov chain of a strategy profile: how long play lasts, how it ends, what it reaches.

:func:`tbsg.solve` answers "who wins, and how to play". Fixing both players' strategies
(any stationary profile: a mapping, a function, or a solution's own strategy) turns the
game into a Markov chain, and :func:`chain` answers what comes next, exactly:

- :meth:`Chain.expected_steps`: expected number of steps until play ends, where a step
  counts what ``count(state, action)`` says (1 per move by default; 1 per coin toss, 1
  per turn, ...); :meth:`Chain.expected_reward` for any rational per-step reward;
- :meth:`Chain.length_distribution`: ``P(play has ended within k counted steps)`` for
  ``k <= n``, with the mean and variance of the length;
- :meth:`Chain.outcome_probabilities`: the distribution of the terminal payoff (win,
  draw, loss);
- :meth:`Chain.reach` and :meth:`Chain.visits`: the probability of ever reaching a
  position, and the expected number of visits to a state.

Each is a linear system ``x = b + P x`` over the chain's transient states (the
fundamental matrix of Kemeny and Snell, 1960); :mod:`tbsg.engine.markov` states the
systems and solves them exactly, component by component, or with proven float bounds
(``exact=False``) where exact numbers grow too large. Only the states the profile reaches
from the initial state are enumerated (:class:`tbsg.model.fixed.FixedStrategyGame`).

A total that diverges (play reaches, with positive probability, states it never leaves,
and what is counted is not 0 at some state among them, which play then visits
infinitely often) raises
:class:`~tbsg.errors.InfiniteExpectationError` naming the probability and the states.

Examples
--------
Piglet to 2 points, both players tossing until the turn's points win or are lost:

>>> import tbsg
>>> from tbsg.games import piglet
>>> c = tbsg.chain(piglet(2), lambda s: "roll")
>>> c.value(), c.expected_steps()
(Fraction(4, 7), Fraction(6, 1))
>>> c.outcome_probabilities()
{Fraction(1, 1): Fraction(4, 7), Fraction(0, 1): Fraction(3, 7)}
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, Literal, TypeVar, overload

import numpy as np

from tbsg._util.progress import make_progress
from tbsg.engine import _backend as bk
from tbsg.engine._backend import Rational
from tbsg.engine.bellman import ETA, U
from tbsg.engine.compile import DEFAULT_MAX_STATES, compile_game
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.markov import (
    ChainStructure,
    chain_bounds,
    enclose_all,
    interval_bounds,
    length_bounds,
    length_pmf,
    solve_chain,
    structure,
    zero_count_cycle,
)
from tbsg.errors import (
    InfiniteExpectationError,
    InvalidArgumentError,
    InvalidGameError,
    NonStoppingGameError,
    UnknownStateError,
    UnsupportedError,
    show,
)
from tbsg.model.fixed import FixedStrategyGame, StrategyLike
from tbsg.model.protocol import Game, Terminal, exact, infinite_play_payoff
from tbsg.model.steps import StepFunction, step_values
from tbsg.results import _INITIAL, FloatSolution, Solution, _Initial

__all__ = ["Chain", "LengthBounds", "LengthDistribution", "chain"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

Bounds = tuple[float, float]
"""Proven float bounds ``(lower, upper)``."""


@dataclass(frozen=True)
class LengthDistribution:
    """Distribution of the counted length ``L`` of play (:meth:`Chain.length_distribution`).

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
        (``trapped == 0``), and then equal to :meth:`Chain.expected_steps` and
        :meth:`Chain.variance_of_steps` with the same ``count``; ``None`` when
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

    :meth:`Chain.expected_steps` is the expected *total* count over all of play: on
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


class Chain(Generic[S, A]):
    """A game under a fixed stationary profile: a Markov chain over the states it reaches.

    Built by :func:`chain`. States are looked up as in :class:`tbsg.Solution`; ``state``
    arguments default to the initial state.

    Attributes
    ----------
    game : Game
        The game the profile plays.
    graph : CompiledGame
        The reachable states, one action each (the profile's).
    seconds : float
        Time to enumerate the chain.
    """

    def __init__(self, game: Game[S, A], graph: CompiledGame[S, A], seconds: float) -> None:
        self.game = game
        self.graph = graph
        self.seconds = seconds
        self._structure: ChainStructure | None = None
        self._split: list[dict[Fraction, Fraction]] | None = None

    # -- the chain ---------------------------------------------------------------------
    @property
    def n_states(self) -> int:
        """Number of states the profile reaches."""
        return self.graph.n_states

    @property
    def initial(self) -> S:
        """The initial state."""
        return self.graph.states[0]

    @property
    def states(self) -> list[S]:
        """The states the profile reaches, the initial one first (a copy)."""
        return list(self.graph.states)

    def action(self, state: S | _Initial = _INITIAL) -> A:
        """The profile's action at ``state``."""
        g = self.graph
        return g.act_labels[int(g.act_ptr[self._index(state)])]

    @property
    def structure(self) -> ChainStructure:
        """Components and closed classes (computed once)."""
        if self._structure is None:
            self._structure = structure(self.graph)
        return self._structure

    def stops(self) -> bool:
        """Whether play ends with probability 1 from every state of the chain."""
        return self.structure.n_traps == 0

    def _index(self, state: S | _Initial) -> int:
        if state is _INITIAL:
            return 0
        try:
            i = self.graph.index.get(state)
        except TypeError as exc:
            raise InvalidArgumentError(f"state {show(state)} is not hashable") from exc
        if i is None:
            raise UnknownStateError(
                f"state {show(state)} is not reached by the profile from the initial state "
                f"{show(self.initial)} (the chain has {self.n_states} states)")
        return i

    def _steps(self, fn: StepFunction | None, what: str, *, nonnegative: bool = False,
               integer: bool = False) -> list[Fraction]:
        g = self.graph
        pairs = list(zip(range(g.n_states), g.act_ptr[:-1].tolist(), strict=True))
        return step_values(fn, what, g.states, g.act_labels, pairs, nonnegative=nonnegative,
                           integer=integer)

    # -- solving x = b + P x ---------------------------------------------------------------
    def _total(self, b: list[Fraction], what: str, start: int, exact_: bool
               ) -> Fraction | Bounds:
        """Expected total of ``b`` from state ``start`` (finite, or an error)."""
        given = self._diverging(b, what, start)
        if exact_:
            x = solve_chain(self.graph, self.structure.comps, [bk.from_fraction(v) for v in b],
                            {i: bk.ZERO for i in given})
            return bk.to_fraction(x[start])
        return self._bounds(b, dict.fromkeys(given, Fraction(0)), start)

    def _bounds(self, b: list[Fraction], given: dict[int, Fraction], start: int) -> Bounds:
        r = chain_bounds(self.graph, b, given)
        if r is None:
            raise _no_bounds()
        lo, hi = r
        return float(lo[start]), float(hi[start])

    def _diverging(self, b: list[Fraction], what: str, start: int) -> list[int]:
        """States given 0: closed classes where ``b`` vanishes, and every state from which
        a closed class where it does not is reachable (their totals diverge; none may be
        reachable from ``start``)."""
        st = self.structure
        if st.n_traps == 0:
            return []
        trap = st.trap.tolist()
        bad_class = {trap[i] for i, v in enumerate(b) if v and trap[i] >= 0}
        given = [i for i, t in enumerate(trap) if t >= 0]
        if not bad_class:
            return given
        seeds = [i for i, t in enumerate(trap) if t in bad_class]
        bad = self._reaching(seeds)
        if bad[start]:
            p = self._reach_set(seeds, start)
            sample = tuple(self.graph.states[i] for i in seeds[:4])
            raise InfiniteExpectationError(
                f"the expected {what} is infinite or undefined: with probability {show(p)} play "
                f"reaches states it never leaves (no terminal), e.g. {show(sample[0])}, and keeps "
                f"adding to the {what} there at infinitely many steps",
                probability=p, states=sample)
        return sorted(set(given) | {i for i, x in enumerate(bad) if x})

    def _reaching(self, seeds: list[int]) -> list[bool]:
        """Mask of the states from which some state in ``seeds`` is reachable."""
        g = self.graph
        src = g.out_source().astype(np.int64)
        order = np.argsort(g.out_target, kind="stable")
        pred = src[order].tolist()
        ptr = np.searchsorted(g.out_target[order], np.arange(g.n_states + 1)).tolist()
        mark = [False] * g.n_states
        stack = list(seeds)
        for i in seeds:
            mark[i] = True
        while stack:
            j = stack.pop()
            for i in pred[ptr[j] : ptr[j + 1]]:
                if not mark[i]:
                    mark[i] = True
                    stack.append(i)
        return mark

    def _reach_set(self, targets: list[int], start: int) -> Fraction:
        given: dict[int, Rational] = dict.fromkeys(targets, bk.ONE)
        trap = self.structure.trap.tolist()
        hit = {trap[i] for i in targets if trap[i] >= 0}
        for i, t in enumerate(trap):
            if t >= 0 and i not in given:
                given[i] = bk.ONE if t in hit else bk.ZERO
        x = solve_chain(self.graph, self.structure.comps, [bk.ZERO] * self.n_states, given)
        return bk.to_fraction(x[start])

    # -- the questions -----------------------------------------------------------------------
    def value(self, state: S | _Initial = _INITIAL, *,
              infinite_play: Fraction | int | None = None) -> Fraction:
        """Expected payoff to player 0 (the profile's value, as :func:`tbsg.evaluate` gives it).

        A chain that may never end needs ``infinite_play``, the payoff of never-ending play.
        """
        c = infinite_play_payoff(infinite_play)
        start = self._index(state)
        st = self.structure
        trapped = [int(i) for i in np.flatnonzero(st.trapped)]
        if trapped and c is None and self._reaching(trapped)[start]:
            sample = tuple(self.graph.states[i] for i in trapped[:8])
            raise NonStoppingGameError(
                f"under this profile play may never end: it can reach {len(trapped)} state(s) it "
                f"never leaves, e.g. {show(sample[0])}; give never-ending play a payoff with "
                "infinite_play=", sample)
        # traps not reachable from the start do not affect its value: any payoff will do
        worth = bk.ZERO if c is None else bk.from_fraction(c)
        given = dict.fromkeys(trapped, worth)
        b = [bk.from_fraction(x) for x in self.graph.act_const]
        return bk.to_fraction(solve_chain(self.graph, st.comps, b, given)[start])

    @overload
    def expected_steps(self, count: StepFunction | None = ..., *, state: S | _Initial = ...,
                       exact: Literal[True] = ...) -> Fraction: ...
    @overload
    def expected_steps(self, count: StepFunction | None = ..., *, state: S | _Initial = ...,
                       exact: Literal[False]) -> Bounds: ...
    def expected_steps(self, count: StepFunction | None = None, *, state: S | _Initial = _INITIAL,
                       exact: bool = True) -> Fraction | Bounds:
        """Expected number of counted steps until play ends.

        Parameters
        ----------
        count : callable or None
            ``count(state, action)``: what the step from ``state`` counts (an int or
            Fraction >= 0). ``None`` (default): 1 per move.
        state : optional
            Where play starts (default: the initial state).
        exact : bool
            ``False``: proven float bounds ``(lower, upper)``.

        Raises
        ------
        InfiniteExpectationError
            Play may never end and keeps counting.
        """
        total = self._total(self._steps(count, "count", nonnegative=True), "count",
                            self._index(state), _flag(exact))
        if isinstance(total, tuple):  # a count is >= 0, and so is its total
            return max(total[0], 0.0), total[1]
        return total

    @overload
    def expected_reward(self, reward: StepFunction, *, state: S | _Initial = ...,
                        exact: Literal[True] = ...) -> Fraction: ...
    @overload
    def expected_reward(self, reward: StepFunction, *, state: S | _Initial = ...,
                        exact: Literal[False]) -> Bounds: ...
    def expected_reward(self, reward: StepFunction, *, state: S | _Initial = _INITIAL,
                        exact: bool = True) -> Fraction | Bounds:
        """Expected total of ``reward(state, action)`` (any rational) over the steps of play.

        Raises
        ------
        InfiniteExpectationError
            Play may reach states it never leaves where the reward is not 0.
        """
        if reward is None:
            raise InvalidArgumentError("reward must be a function of (state, action); for the "
                                       "number of steps use expected_steps()")
        return self._total(self._steps(reward, "reward"), "reward", self._index(state), _flag(exact))

    @overload
    def variance_of_steps(self, count: StepFunction | None = ..., *, state: S | _Initial = ...,
                          exact: Literal[True] = ...) -> Fraction: ...
    @overload
    def variance_of_steps(self, count: StepFunction | None = ..., *, state: S | _Initial = ...,
                          exact: Literal[False]) -> Bounds: ...
    def variance_of_steps(self, count: StepFunction | None = None, *,
                          state: S | _Initial = _INITIAL, exact: bool = True) -> Fraction | Bounds:
        """Variance of the counted length of play (see :meth:`expected_steps`).

        Raises
        ------
        InfiniteExpectationError
            Play may never end and keeps counting.
        """
        c = self._steps(count, "count", nonnegative=True)
        start = self._index(state)
        if not _flag(exact):
            return self._variance_bounds(c, self._diverging(c, "count", start), start)
        return self._moments(c, self._diverging(c, "count", start), start)[1]

    def _variance_bounds(self, c: list[Fraction], given: list[int], start: int) -> Bounds:
        """``Var L`` from bounds of ``T`` and of ``M`` (``M`` solved for the extreme right-hand
        sides ``2 c T - c^2``: ``(I - P)^-1 >= 0`` keeps them ordered)."""
        with np.errstate(all="ignore"):  # overflow beyond the float range: no bounds
            return self._variance_interval(c, given, start)

    def _variance_interval(self, c: list[Fraction], given: list[int], start: int) -> Bounds:
        g = self.graph
        fixed = np.array(given, dtype=np.int64)
        zeros = np.zeros(len(fixed))
        c_lo, c_hi = enclose_all(c)
        t = interval_bounds(g, c_lo, c_hi, fixed, zeros, zeros)
        if t is None:
            raise _no_bounds()
        t_lo, t_hi = np.maximum(t[0], 0.0), t[1]
        r_lo = 2.0 * c_lo * t_lo - c_hi * c_hi
        r_hi = 2.0 * c_hi * t_hi - c_lo * c_lo
        slack = 8.0 * U * (2.0 * c_hi * t_hi + c_hi * c_hi) + 8.0 * ETA
        m = interval_bounds(g, np.nextafter(r_lo - slack, -np.inf), np.nextafter(r_hi + slack, np.inf),
                            fixed, zeros, zeros)
        if m is None:
            raise _no_bounds()
        m_lo, m_hi = float(m[0][start]), float(m[1][start])
        tl, th = float(t_lo[start]), float(t_hi[start])
        lo = m_lo - th * th
        hi = m_hi - tl * tl
        lo = math.nextafter(lo - 4.0 * U * (abs(m_lo) + th * th), -math.inf)
        hi = math.nextafter(hi + 4.0 * U * (abs(m_hi) + tl * tl), math.inf)
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise _no_bounds()
        return max(lo, 0.0), hi

    def _moments(self, c: list[Fraction], given: list[int], start: int) -> tuple[Fraction, Fraction]:
        """Mean and variance of the counted length from ``start``, finite (``given``: the
        states :meth:`_diverging` returned for ``c``)."""
        zero = dict.fromkeys(given, bk.ZERO)
        cq = [bk.from_fraction(v) for v in c]
        g, comps = self.graph, self.structure.comps
        t = solve_chain(g, comps, cq, zero)
        two = bk.Q(2)
        m = solve_chain(g, comps, [two * ci * ti - ci * ci for ci, ti in zip(cq, t, strict=True)], zero)
        mean = bk.to_fraction(t[start])
        return mean, bk.to_fraction(m[start]) - mean * mean

    @overload
    def length_distribution(self, n: int, count: StepFunction | None = ..., *,
                            state: S | _Initial = ...,
                            exact: Literal[True] = ...) -> LengthDistribution: ...
    @overload
    def length_distribution(self, n: int, count: StepFunction | None = ..., *,
                            state: S | _Initial = ...,
                            exact: Literal[False]) -> LengthBounds: ...
    def length_distribution(self, n: int, count: StepFunction | None = None, *,
                            state: S | _Initial = _INITIAL,
                            exact: bool = True) -> LengthDistribution | LengthBounds:
        """Distribution of the counted length of play, up to ``n`` counted steps.

        Parameters
        ----------
        n : int
            Largest length covered (``pmf[0 .. n]``).
        count : callable or None
            As in :meth:`expected_steps`, but whole numbers: ``count(state, action)`` is an
            int >= 0 (default 1 per move). Steps counting 0 must not form a cycle (except
            where play never ends: that play has ``L = infinity`` whatever it counts).
        state : optional
            Where play starts (default: the initial state).
        exact : bool
            ``False``: proven float bounds (:class:`LengthBounds`), for chains whose exact
            probabilities grow too long.

        Returns
        -------
        LengthDistribution or LengthBounds
            The law of ``L``, the counted length of play until it ends (``infinity`` on
            play that never ends; :class:`LengthDistribution` states the definition):
            ``P(L = k)`` for ``k <= n``, the probability that play ends, and ``E L`` and
            ``Var L`` (``None`` when play may never end).
        """
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise InvalidArgumentError(f"n must be an int >= 0 (the longest length covered), got {show(n)}")
        exact_ = _flag(exact)
        start = self._index(state)
        c = self._steps(count, "count", nonnegative=True, integer=True)
        ints = [int(x) for x in c]
        dead = self.structure.trapped
        bad = zero_count_cycle(self.graph, ints, dead)
        if bad is not None:
            raise InvalidArgumentError(
                f"steps that count 0 form a cycle through state {show(self.graph.states[bad])}: play "
                "could go round it forever without counting, so a length distribution is not defined "
                "count by count; make every cycle count")
        if not exact_:
            return self._length_bounds(ints, c, n, start)
        pmf = length_pmf(self.graph, ints, n, start, dead.tolist())
        mean: Fraction | None = None
        var: Fraction | None = None
        ends = sum(self.outcome_probabilities(state=state).values(), Fraction(0))
        if ends == 1:  # else L = infinity with positive probability: E L is infinite
            mean, var = self._moments(c, self._diverging(c, "count", start), start)
        return LengthDistribution(pmf=tuple(bk.to_fraction(x) for x in pmf), mean=mean,
                                  variance=var, ends=ends)

    def _length_bounds(self, ints: list[int], c: list[Fraction], n: int, start: int) -> LengthBounds:
        lo, hi = length_bounds(self.graph, ints, n, start, self.structure.trapped)
        mean: Bounds | None = None
        var: Bounds | None = None
        trapped = [int(i) for i in np.flatnonzero(self.structure.trapped)]
        if trapped and self._reaching(trapped)[start]:
            # a closed class is reachable (every probability is positive): P(L = infinity) > 0
            stop = self.graph.act_stop  # one action per state: action i is state i's
            ends = _probability(*self._bounds(list(stop), dict.fromkeys(trapped, Fraction(0)), start))
        else:
            ends = (1.0, 1.0)
            given = self._diverging(c, "count", start)
            low, high = self._bounds(c, dict.fromkeys(given, Fraction(0)), start)
            mean = (max(low, 0.0), high)
            var = self._variance_bounds(c, given, start)
        return LengthBounds(pmf=tuple(zip(lo.tolist(), hi.tolist(), strict=True)), mean=mean,
                            variance=var, ends=ends)

    def _terminal_split(self) -> list[dict[Fraction, Fraction]]:
        """Per state, the probability of ending now with each terminal payoff.

        The compiled chain keeps only the sum over terminals; the game is asked again for
        the states whose action can end play, and the answer is checked against that sum.
        """
        if self._split is not None:
            return self._split
        g = self.graph
        out: list[dict[Fraction, Fraction]] = [{} for _ in range(g.n_states)]
        stop, const = g.act_stop, g.act_const
        for i in np.flatnonzero(g.stop_mask()[g.act_ptr[:-1]]).tolist():
            k = int(g.act_ptr[i])
            s, a = g.states[i], g.act_labels[k]
            split: dict[Fraction, Fraction] = {}
            for p, nxt in self.game.outcomes(s, a):
                if isinstance(nxt, Terminal):
                    q = exact(p, f"probability at state {show(s)}, action {show(a)}")
                    split[nxt.payoff] = split.get(nxt.payoff, Fraction(0)) + q
            split = {r: q for r, q in split.items() if q}
            if sum(split.values(), Fraction(0)) != stop[k] or \
                    sum((r * q for r, q in split.items()), Fraction(0)) != const[k]:
                raise InvalidGameError(
                    f"outcomes({show(s)}, {show(a)}) returned different terminals than when the "
                    "game was enumerated: outcomes must be a function of the state and action")
            out[i] = split
        self._split = out
        return out

    @overload
    def outcome_probabilities(self, *, state: S | _Initial = ...,
                              exact: Literal[True] = ...) -> dict[Fraction, Fraction]: ...
    @overload
    def outcome_probabilities(self, *, state: S | _Initial = ...,
                              exact: Literal[False]) -> dict[Fraction, Bounds]: ...
    def outcome_probabilities(self, *, state: S | _Initial = _INITIAL, exact: bool = True
                              ) -> dict[Fraction, Fraction] | dict[Fraction, Bounds]:
        """Probability that play ends with each terminal payoff (to player 0).

        Returns
        -------
        dict
            ``{payoff: probability}``, payoffs in decreasing order (``1``: player 0 wins,
            ``1/2``: a draw, ``0``: player 1 wins), only those with positive probability.
            When play may never end the probabilities sum to less than 1.
        """
        exact_ = _flag(exact)
        start = self._index(state)
        split = self._terminal_split()
        payoffs = sorted({r for d in split for r in d}, reverse=True)
        given = [int(i) for i in np.flatnonzero(self.structure.trapped)]
        out_e: dict[Fraction, Fraction] = {}
        out_f: dict[Fraction, Bounds] = {}
        for r in payoffs:
            b = [d.get(r, Fraction(0)) for d in split]
            if exact_:
                x = solve_chain(self.graph, self.structure.comps, [bk.from_fraction(v) for v in b],
                                dict.fromkeys(given, bk.ZERO))
                p = bk.to_fraction(x[start])
                if p:
                    out_e[r] = p
            else:
                lo, hi = self._bounds(b, dict.fromkeys(given, Fraction(0)), start)
                if hi > 0:
                    out_f[r] = _probability(lo, hi)
        return out_e if exact_ else out_f

    @overload
    def reach(self, predicate: Callable[[S], object], *, state: S | _Initial = ...,
              exact: Literal[True] = ...) -> Fraction: ...
    @overload
    def reach(self, predicate: Callable[[S], object], *, state: S | _Initial = ...,
              exact: Literal[False]) -> Bounds: ...
    def reach(self, predicate: Callable[[S], object], *, state: S | _Initial = _INITIAL,
              exact: bool = True) -> Fraction | Bounds:
        """Probability that play ever reaches a state where ``predicate(state)`` is true
        (the start state included)."""
        if not callable(predicate):
            raise InvalidArgumentError(f"predicate must be a function of the state, got {show(predicate)}")
        exact_ = _flag(exact)
        start = self._index(state)
        targets = []
        for i, s in enumerate(self.graph.states):
            try:
                hit = bool(predicate(s))
            except Exception as exc:
                raise InvalidArgumentError(
                    f"predicate raised {type(exc).__name__} at state {show(s)}: {exc}") from exc
            if hit:
                targets.append(i)
        if exact_:
            return self._reach_set(targets, start)
        given: dict[int, Fraction] = dict.fromkeys(targets, Fraction(1))
        trap = self.structure.trap.tolist()
        hit_classes = {trap[i] for i in targets if trap[i] >= 0}
        for i, t in enumerate(trap):
            if t >= 0 and i not in given:
                given[i] = Fraction(1 if t in hit_classes else 0)
        return _probability(*self._bounds([Fraction(0)] * self.n_states, given, start))

    @overload
    def visits(self, target: S, *, state: S | _Initial = ..., exact: Literal[True] = ...) -> Fraction: ...
    @overload
    def visits(self, target: S, *, state: S | _Initial = ..., exact: Literal[False]) -> Bounds: ...
    def visits(self, target: S, *, state: S | _Initial = _INITIAL, exact: bool = True) -> Fraction | Bounds:
        """Expected number of visits to ``target`` (the start counts as a visit).

        ``target`` must be a state of the chain (:class:`~tbsg.errors.UnknownStateError`
        otherwise: a state the profile never reaches is visited 0 times).
        """
        j = self._index(target)
        b = [Fraction(0)] * self.n_states
        b[j] = Fraction(1)
        total = self._total(b, f"number of visits to {show(target)}", self._index(state), _flag(exact))
        if isinstance(total, tuple):  # a number of visits is >= 0
            return max(total[0], 0.0), total[1]
        return total

    def __repr__(self) -> str:
        return (f"<Chain of {show(self.game, 60)}: {self.n_states} states, "
                f"{'stops' if self.stops() else 'may never end'}>")


def _no_bounds() -> UnsupportedError:
    return UnsupportedError(
        "no float bounds could be proven for this chain: its linear system is too "
        "ill-conditioned for floating point (play that ends with tiny probability), or its "
        "values exceed the float range; use exact=True")


def _probability(lo: float, hi: float) -> Bounds:
    """Bounds of a probability, clipped to [0, 1] (where it lies anyway)."""
    return max(lo, 0.0), min(hi, 1.0)


def _flag(x: object) -> bool:
    if not isinstance(x, bool):
        raise InvalidArgumentError(f"exact must be True or False, got {show(x)}")
    return x


def chain(game: Game[S, A], strategy: StrategyLike[S, A] | Solution[S, A] | FloatSolution[S, A], *,
          max_states: int = DEFAULT_MAX_STATES, progress: bool | None = None) -> Chain[S, A]:
    """The Markov chain of ``game`` when both players follow ``strategy``.

    Parameters
    ----------
    game : Game
    strategy : Mapping, callable, Solution or FloatSolution
        A full stationary profile: the action of the player to move at every state the
        profile reaches (states with a single action may be left out of a mapping), or a
        solution, whose own strategy is used.
    max_states : int
        Stop with :class:`tbsg.StateLimitError` past this many states.
    progress : bool or None
        Progress bar while enumerating (as in :func:`tbsg.solve`).

    Returns
    -------
    Chain

    Examples
    --------
    Risk or Safety to 2 points under optimal play: how many coin tosses does a game last?

    >>> import tbsg
    >>> from tbsg.games import risk_or_safety
    >>> game = risk_or_safety(2)
    >>> c = tbsg.chain(game, tbsg.solve(game))
    >>> c.expected_steps(lambda s, a: 1 if a == "toss" else 0)
    Fraction(6, 1)
    """
    t0 = time.perf_counter()
    name = "strategy"
    if isinstance(strategy, (Solution, FloatSolution)):
        profile: StrategyLike[S, A] = strategy.strategy
        name = "the solution's strategy"
    else:
        profile = strategy
    fixed = FixedStrategyGame(game, profile, (0, 1), name)
    callback, close = make_progress(progress, "enumerating the chain (bar: max_states)")
    try:
        g = compile_game(fixed, max_states=max_states, progress=callback)
    finally:
        close()
    return Chain(game, g, time.perf_counter() - t0)

