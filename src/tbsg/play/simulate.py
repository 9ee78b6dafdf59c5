"""Monte Carlo play: ``n`` games under a fixed profile, with confidence intervals.

:func:`tbsg.chain` answers questions of play exactly; :func:`simulate` estimates the same
quantities by playing: a check of a solution that shares no code with the solvers (the
exact value should lie in the simulation's interval about as often as its level says), and
an estimate for games whose chain is too large to enumerate.

What is estimated
-----------------
Each game starts at the initial state and follows the profile; chance is sampled from
the game's probabilities (rounded to float64). A game's *payoff* is the total to player 0:
the sum of the game's ``reward(state, action)`` over the moves played (when the game
defines ``reward``; 0 otherwise) plus the terminal payoff. Its *length* is the number of
moves (chance moves included), or the total of ``count(state, action)`` over the moves
when a count is given, as in :meth:`tbsg.Chain.expected_steps`.

* Mean payoff and mean length: the sample mean ``m`` and the normal (central limit)
  interval ``m +- z s / sqrt(n)``, with ``s`` the sample standard deviation and ``z`` the
  two-sided normal quantile of ``level``. It is asymptotic: it needs no bound on the
  payoffs (rewards make totals unbounded in general), and for the sample sizes of a check
  (thousands of games) its coverage is close to ``level``.
* Outcome frequencies: for each terminal payoff, the share of games that ended with it,
  with the Wilson score interval (Wilson, 1927), which keeps its coverage for frequencies
  near 0 or 1, where the normal interval collapses to a point.

Games still running after ``max_steps`` moves are *unfinished*: they are counted, and
left out of the means and frequencies (which then describe finished play only).

How it runs
-----------
With ``compile`` left to choose, the states the profile reaches are enumerated first
(:func:`tbsg.engine.compile.compile_game` on the fixed game, as :func:`tbsg.chain` does)
when there are at most ``max_states`` of them. Each state then has one action, and its
outcomes (successor states, and the terminal payoffs split out) form one segment of a
flat array of cumulative probabilities; all ``n`` games advance together, one move per
round, each drawing ``u`` uniform in [0, 1) and taking the first outcome of its state's
segment whose cumulative probability exceeds ``u`` (one ``searchsorted`` over the flat
array, keyed by state number plus cumulative probability; the key of state ``i`` rounds
a probability by at most ``i * 2**-52`` more, below ``10**-10`` within the default
``max_states``, far below what ``n`` games can resolve). A round costs numpy work for
the games still running, so ``n = 10**6`` games of a small game take a few numpy passes
per move instead of ``10**6`` Python walks. Past ``max_states`` (or with
``compile=False``), a Python walker plays one game after another through the plain
protocol, asking the game for each state's outcomes once (memoised).

Both are reproducible: the same ``seed`` and method give the same result. They draw
their random numbers in a different order, so the two methods agree in distribution,
not game by game. ``seed=None`` draws a fresh seed and records it in the result.

Examples
--------
Piglet to 2 points, both players tossing until the turn's points win or are lost (exact
value 4/7, 6 moves on average: :func:`tbsg.chain`):

>>> import tbsg
>>> from tbsg.games import piglet
>>> sim = tbsg.simulate(piglet(2), lambda s: "roll", 20000, seed=1)
>>> sim.payoff.low <= 4 / 7 <= sim.payoff.high, sim.length.low <= 6 <= sim.length.high
(True, True)
>>> sim.n, sim.method, sim.unfinished
(20000, 'compiled', 0)
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import Any, Literal, TypeVar

import numpy as np
import numpy.typing as npt

from tbsg.engine.compile import compile_game
from tbsg.engine.compiled import CompiledGame
from tbsg.errors import InvalidArgumentError, InvalidGameError, InvalidStrategyError, StateLimitError, show
from tbsg.model.fixed import FixedStrategyGame, StrategyLike
from tbsg.model.protocol import Game, Terminal, exact
from tbsg.model.steps import StepFunction, step_values
from tbsg.play.outcomes import terminal_split
from tbsg.results.floating import FloatSolution
from tbsg.results.solution import Solution

__all__ = ["DEFAULT_MAX_STEPS", "Estimate", "ProfileLike", "Simulation", "simulate"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

ProfileLike = (StrategyLike[S, A] | Solution[S, A] | FloatSolution[S, A]
               | Sequence[StrategyLike[S, A] | Solution[S, A] | FloatSolution[S, A]])
"""A full profile (a mapping, a function or a solution), or one per player ``(p0, p1)``."""

DEFAULT_MAX_STEPS = 10_000
"""Moves after which a simulated game counts as unfinished."""

DEFAULT_COMPILE_STATES = 200_000
"""Largest chain :func:`simulate` enumerates when ``compile`` is left to choose."""

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Estimate:
    """A simulated mean or frequency and its confidence interval.

    Attributes
    ----------
    mean : float
        The sample mean (or the observed frequency).
    low, high : float
        The interval at the simulation's level (module docstring: normal for means,
        Wilson for frequencies).
    """

    mean: float
    low: float
    high: float

    def __contains__(self, x: object) -> bool:
        """Whether the number ``x`` lies in ``[low, high]``."""
        return isinstance(x, int | float | Fraction) and self.low <= x <= self.high

    def __str__(self) -> str:
        return f"{self.mean:.6g} [{self.low:.6g}, {self.high:.6g}]"


@dataclass(frozen=True)
class Simulation:
    """What :func:`simulate` observed.

    Attributes
    ----------
    n : int
        Games played.
    seed : int
        The seed that reproduces them (drawn when ``simulate`` was given ``None``).
    level : float
        Confidence level of every interval.
    method : str
        ``"compiled"`` (all games at once over the enumerated chain) or ``"walk"`` (one
        game after another through the plain protocol).
    counts : dict
        ``{terminal payoff: number of games that ended with it}``, payoffs decreasing.
    payoff : Estimate
        Mean total payoff to player 0 (rewards plus terminal payoff).
    length : Estimate
        Mean length: moves, or what ``count`` counts (``unit``).
    unit : str
        ``"moves"``, or ``"counted steps"`` when ``simulate`` was given a ``count``.
    unfinished : int
        Games still running after ``max_steps`` moves (left out of the estimates).
    max_steps : int
        The move limit.
    states : int or None
        States of the enumerated chain (``None`` for the walker).
    seconds : float
        Time taken.
    """

    n: int
    seed: int
    level: float
    method: Literal["compiled", "walk"]
    counts: dict[Fraction, int]
    payoff: Estimate
    length: Estimate
    unit: str
    unfinished: int
    max_steps: int
    states: int | None
    seconds: float

    @property
    def finished(self) -> int:
        """Games that ended within ``max_steps`` moves."""
        return self.n - self.unfinished

    @property
    def frequencies(self) -> dict[Fraction, Estimate]:
        """``{terminal payoff: share of finished games}`` with Wilson intervals."""
        return {r: wilson(c, self.finished, self.level) for r, c in self.counts.items()}

    def __str__(self) -> str:
        lines = [f"{self.n:,} games (seed {self.seed}, {self.method}), {self.level:.0%} intervals",
                 f"mean payoff to player 0: {self.payoff}",
                 f"{f'mean length ({self.unit}):':<24} {self.length}"]
        lines += [f"ended with payoff {r}: {e}" for r, e in self.frequencies.items()]
        if self.unfinished:
            lines.append(f"unfinished after {self.max_steps:,} moves: {self.unfinished:,} "
                         "(left out of the estimates)")
        return "\n".join(lines)


def simulate(game: Game[S, A], profile: ProfileLike[S, A], n: int, *, seed: int | None = None,
             level: float = 0.95, count: StepFunction | None = None, max_steps: int = DEFAULT_MAX_STEPS,
             compile: bool | None = None, max_states: int = DEFAULT_COMPILE_STATES) -> Simulation:
    """Play ``n`` games of ``game`` under ``profile`` and estimate payoff, outcomes and length.

    Parameters
    ----------
    game : Game
    profile : Mapping, callable, Solution, FloatSolution, or a pair of them
        The action of the player to move at every state play reaches (a solution plays
        its own strategy, as in :func:`tbsg.chain`); a pair ``(p0, p1)`` gives each
        player's own (player 0's moves from ``p0``, player 1's from ``p1``). A mapping may
        leave out states with one action. Must be stationary.
    n : int
        Number of games, at least 1.
    seed : int or None
        Seed of the numpy random generator; ``None`` draws one (recorded in the result).
    level : float
        Confidence level of the intervals, in (0, 1).
    count : callable or None
        ``count(state, action)``: what a move counts towards the length (an int or
        Fraction >= 0, as in :meth:`tbsg.Chain.expected_steps`); ``None``: 1 per move.
    max_steps : int
        Moves after which a game counts as unfinished.
    compile : bool or None
        ``True``: enumerate the profile's chain and simulate on its arrays
        (:class:`~tbsg.errors.StateLimitError` past ``max_states``); ``False``: walk the
        plain protocol, for games too large to enumerate; ``None`` (default): compile when
        the chain has at most ``max_states`` states, else walk.
    max_states : int
        The enumeration limit (see ``compile``).

    Returns
    -------
    Simulation

    Raises
    ------
    InvalidArgumentError
        A bad ``n``, ``seed``, ``level``, ``max_steps``, ``compile`` or ``max_states``.
    InvalidStrategyError
        The profile has no legal action for a state play reaches.
    """
    t0 = time.perf_counter()
    _check_arguments(n, level, max_steps, compile, max_states)
    seed_ = _seed(seed)
    rng = np.random.default_rng(seed_)
    fixed = FixedStrategyGame(game, _profile(game, profile), (0, 1), _name(profile))
    steps = _Steps(getattr(game, "reward", None), count)
    graph: CompiledGame[S, A] | None = None
    if compile is not False:
        try:
            graph = compile_game(fixed, max_states=max_states)
        except StateLimitError:
            if compile:
                raise
    if graph is not None:
        raw = _simulate_compiled(game, graph, steps, n, rng, max_steps)
    else:
        raw = _Walker(fixed, steps).run(n, rng, max_steps)
    return _summarise(raw, n, seed_, level, max_steps, None if graph is None else graph.n_states,
                      "moves" if count is None else "counted steps", time.perf_counter() - t0)


# -- arguments -------------------------------------------------------------------------------

def _whole(x: object, least: int) -> int | None:
    """``x`` as an int when it is one (not a bool) and at least ``least``, else None."""
    if isinstance(x, bool) or not isinstance(x, int | np.integer) or x < least:
        return None
    return int(x)


def _check_arguments(n: object, level: object, max_steps: object, compile: object,
                     max_states: object) -> None:
    for name, x in (("n", n), ("max_steps", max_steps), ("max_states", max_states)):
        if _whole(x, 1) is None:
            raise InvalidArgumentError(f"{name} must be a positive int, got {show(x)}")
    if isinstance(level, bool) or not isinstance(level, int | float | Fraction) \
            or not 0 < level < 1:
        raise InvalidArgumentError(f"level must be a confidence level strictly between 0 and 1 "
                                   f"(e.g. 0.95), got {show(level)}")
    if compile is not None and not isinstance(compile, bool):
        raise InvalidArgumentError(f"compile must be True, False or None, got {show(compile)}")


def _seed(seed: object) -> int:
    """The seed to use: ``seed`` itself, or a fresh one (so that the result records it)."""
    if seed is None:
        return int(np.random.SeedSequence().entropy) % 2**63  # type: ignore[arg-type]
    whole = _whole(seed, 0)
    if whole is None:
        raise InvalidArgumentError(f"seed must be a non-negative int or None, got {show(seed)}")
    return whole


def _name(profile: object) -> str:
    if isinstance(profile, Solution | FloatSolution):
        return "profile (a solution's strategy)"
    return "profile"


def _single(game: Game[S, A], p: object, who: str) -> StrategyLike[S, A]:
    if isinstance(p, Solution | FloatSolution):
        return p.strategy
    if isinstance(p, Mapping) or callable(p):
        return p
    raise InvalidArgumentError(f"{who} must be a mapping or function state -> action, a solution, "
                               f"or a pair of them (one per player), got {show(p)}")


def _profile(game: Game[S, A], profile: object) -> StrategyLike[S, A]:
    """A full profile from ``profile``: one strategy, or a pair merged by the mover."""
    if isinstance(profile, Sequence) and not isinstance(profile, str):
        if len(profile) != 2:
            raise InvalidArgumentError(f"a profile per player is a pair (player 0's, player 1's), "
                                       f"got {len(profile)} items")
        parts = (_single(game, profile[0], "profile[0]"), _single(game, profile[1], "profile[1]"))
        return _Merged(game, parts)
    return _single(game, profile, "profile")


class _Merged:
    """Player ``i``'s moves from ``parts[i]``: a mapping may leave out one-action states."""

    def __init__(self, game: Game[Any, Any], parts: tuple[StrategyLike[Any, Any], ...]) -> None:
        self.game = game
        self.parts = parts

    def __call__(self, state: Any) -> Any:
        player = getattr(self.game, "player", None)  # a one-player game may leave it out
        who = 0 if player is None else player(state)
        part = self.parts[who]
        if not isinstance(part, Mapping):
            return part(state)
        try:
            return part[state]
        except KeyError:
            acts = self.game.actions(state)
            if len(acts) == 1:
                return acts[0]
            raise InvalidStrategyError(f"profile[{who}] has no action for state {show(state)} (player "
                                       f"{who} moves there; legal actions: {show(tuple(acts))})") from None


class _Steps:
    """What each move adds: the game's reward to the payoff, the count to the length."""

    def __init__(self, reward: object, count: StepFunction | None) -> None:
        if reward is not None and not callable(reward):
            raise InvalidGameError(f"the game's reward must be a method reward(state, action), "
                                   f"got {show(reward)}")
        self.reward: StepFunction | None = reward
        self.count = count
        step_values(count, "count", [], [], [])  # a count that is no function: named now

    def arrays(self, states: Sequence[Any], labels: Sequence[Any],
               pairs: Sequence[tuple[int, int]]) -> tuple[FloatArray | None, FloatArray]:
        """Rewards (``None``: the game has none) and counts of the moves ``pairs``."""
        rewards = None if self.reward is None else np.array(
            [float(x) for x in step_values(self.reward, "reward", states, labels, pairs)])
        counts = np.array([float(x) for x in step_values(self.count, "count", states, labels, pairs,
                                                         nonnegative=True)])
        return rewards, counts


# -- the array form ---------------------------------------------------------------------------

@dataclass(frozen=True)
class _Raw:
    """Per game: total payoff, length, terminal index (-1: unfinished); and the payoffs."""

    payoff: FloatArray
    length: FloatArray
    ending: IntArray
    terminals: list[Fraction]


def _segments(game: Game[Any, Any], graph: CompiledGame[Any, Any]
              ) -> tuple[FloatArray, IntArray, IntArray, list[Fraction]]:
    """Per state, its outcomes as one segment: keys (state number plus cumulative
    probability, the last exactly the state number plus 1), targets (a state, or ``-1 - t``
    for terminal payoff ``t``), and the segment starts; and the terminal payoffs."""
    n = graph.n_states
    k = np.asarray(graph.act_ptr[:-1], dtype=np.int64)  # one action per state
    deg = np.asarray(graph.degrees(), dtype=np.int64)[k]
    split = terminal_split(game, graph)
    terminals = sorted({r for d in split for r in d}, reverse=True)
    code = {r: -1 - t for t, r in enumerate(terminals)}
    n_term = np.array([len(d) for d in split], dtype=np.int64)
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(deg + n_term, out=ptr[1:])
    prob = np.empty(int(ptr[-1]), dtype=np.float64)
    target = np.empty(int(ptr[-1]), dtype=np.int64)
    _, out_prob = graph.float_arrays()
    within = np.arange(int(deg.sum()), dtype=np.int64) - np.repeat(np.cumsum(deg) - deg, deg)
    pos = np.repeat(ptr[:-1], deg) + within
    src = np.repeat(np.asarray(graph.out_ptr, dtype=np.int64)[k], deg) + within
    prob[pos] = out_prob[src]
    target[pos] = np.asarray(graph.out_target, dtype=np.int64)[src]
    for i in np.flatnonzero(n_term).tolist():
        at = int(ptr[i] + deg[i])
        for j, (r, q) in enumerate(split[i].items()):
            prob[at + j], target[at + j] = float(q), code[r]
    owner = np.repeat(np.arange(n, dtype=np.int64), np.diff(ptr))
    keys = _segment_cumsum(prob, ptr) + owner
    keys[ptr[1:] - 1] = np.arange(1, n + 1, dtype=np.float64)
    return keys, target, ptr, terminals


def _segment_cumsum(x: FloatArray, ptr: IntArray) -> FloatArray:
    """Cumulative sums restarting at each segment start (no drift across segments)."""
    total: FloatArray = np.cumsum(x)
    before = np.concatenate(([0.0], total))[ptr[:-1]]
    out: FloatArray = total - np.repeat(before, np.diff(ptr))
    return out


def _simulate_compiled(game: Game[Any, Any], graph: CompiledGame[Any, Any], steps: _Steps, n: int,
                       rng: np.random.Generator, max_steps: int) -> _Raw:
    """All ``n`` games at once over the chain's arrays (module docstring)."""
    keys, target, ptr, terminals = _segments(game, graph)
    pays = np.array([float(r) for r in terminals], dtype=np.float64)
    rewards, counts = steps.arrays(graph.states, graph.act_labels,
                                   [(i, int(k)) for i, k in enumerate(graph.act_ptr[:-1].tolist())])
    payoff = np.zeros(n, dtype=np.float64)
    length = np.zeros(n, dtype=np.float64)
    ending = np.full(n, -1, dtype=np.int64)
    games = np.arange(n, dtype=np.int64)
    at = np.zeros(n, dtype=np.int64)
    for _ in range(max_steps):
        if rewards is not None:
            payoff[games] += rewards[at]
        length[games] += counts[at]
        j = np.searchsorted(keys, at + rng.random(len(games)), side="right")
        nxt = target[np.minimum(j, ptr[at + 1] - 1)]
        done = nxt < 0
        ended = games[done]
        ending[ended] = -1 - nxt[done]
        payoff[ended] += pays[ending[ended]]
        games, at = games[~done], nxt[~done]
        if not len(games):
            break
    return _Raw(payoff, length, ending, terminals)


# -- the plain protocol -----------------------------------------------------------------------

class _Walker:
    """One game after another through the plain protocol, each state's outcomes asked
    once (cumulative float probabilities, successors and terminal payoffs memoised)."""

    def __init__(self, fixed: FixedStrategyGame[Any, Any], steps: _Steps) -> None:
        self.fixed = fixed
        self.steps = steps
        self.terminals: dict[Fraction, int] = {}
        self.memo: dict[Any, tuple[list[float], list[Any], float, float]] = {}

    def _at(self, s: Any) -> tuple[list[float], list[Any], float, float]:
        got = self.memo.get(s)
        if got is None:
            a = self.fixed.actions(s)[0]
            cum, nxt, total = [], [], Fraction(0)
            for p, t in self.fixed.outcomes(s, a):
                total += exact(p, f"probability at state {show(s)}, action {show(a)}")
                cum.append(float(total))
                nxt.append(self._code(t.payoff) if isinstance(t, Terminal) else t)
            if total != 1:
                raise InvalidGameError(f"the probabilities of outcomes({show(s)}, {show(a)}) sum to "
                                       f"{total}, not 1")
            rewards, counts = self.steps.arrays([s], [a], [(0, 0)])
            r = 0.0 if rewards is None else float(rewards[0])
            got = self.memo[s] = (cum, nxt, r, float(counts[0]))
        return got

    def _code(self, payoff: Fraction) -> _Ending:
        return _Ending(self.terminals.setdefault(payoff, len(self.terminals)))

    def run(self, n: int, rng: np.random.Generator, max_steps: int) -> _Raw:
        payoff = np.zeros(n, dtype=np.float64)
        length = np.zeros(n, dtype=np.float64)
        ending = np.full(n, -1, dtype=np.int64)
        start = self.fixed.initial
        for g in range(n):
            s, total, steps = start, 0.0, 0.0
            for _ in range(max_steps):
                cum, nxt, r, c = self._at(s)
                total, steps = total + r, steps + c
                j = min(int(np.searchsorted(cum, rng.random(), side="right")), len(cum) - 1)
                s = nxt[j]
                if isinstance(s, _Ending):
                    ending[g] = s.index
                    break
            payoff[g], length[g] = total, steps
        order = sorted(self.terminals, reverse=True)
        rank = np.array([order.index(r) for r in self.terminals] + [-1], dtype=np.int64)
        ending = rank[ending]  # -1 stays -1 (the appended entry)
        finished = ending >= 0
        payoff[finished] += np.array([float(r) for r in order])[ending[finished]]
        return _Raw(payoff, length, ending, order)


@dataclass(frozen=True)
class _Ending:
    """A terminal outcome met by the walker: the index of its payoff."""

    index: int


# -- estimates --------------------------------------------------------------------------------

def _z(level: float) -> float:
    return NormalDist().inv_cdf((1 + float(level)) / 2)


def normal(x: FloatArray, level: float) -> Estimate:
    """Sample mean of ``x`` and its normal interval ``mean +- z s / sqrt(n)``."""
    if len(x) == 0:
        return Estimate(math.nan, math.nan, math.nan)
    m = float(np.mean(x))
    half = _z(level) * float(np.std(x, ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else math.inf
    return Estimate(m, m - half, m + half)


def wilson(k: int, n: int, level: float) -> Estimate:
    """Frequency ``k / n`` and its Wilson score interval."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan)
    z = _z(level)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low = 0.0 if k == 0 else max(0.0, centre - half)  # exact at the ends: rounding leaves ~1e-17
    high = 1.0 if k == n else min(1.0, centre + half)
    return Estimate(p, low, high)


def _summarise(raw: _Raw, n: int, seed: int, level: float, max_steps: int, states: int | None,
               unit: str, seconds: float) -> Simulation:
    finished = raw.ending >= 0
    counts = np.bincount(raw.ending[finished], minlength=len(raw.terminals))
    return Simulation(
        n=n, seed=seed, level=float(level), method="walk" if states is None else "compiled",
        counts={r: int(c) for r, c in zip(raw.terminals, counts.tolist(), strict=True) if c},
        payoff=normal(raw.payoff[finished], level), length=normal(raw.length[finished], level), unit=unit,
        unfinished=int(n - finished.sum()), max_steps=max_steps, states=states, seconds=seconds)
