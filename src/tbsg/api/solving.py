"""Front doors: :func:`solve`, :func:`evaluate` and :func:`best_response`.

All three run one pipeline, in one direction:

1. :func:`tbsg.engine.compile.compile_game`: enumerate and validate the game;
2. :mod:`tbsg.engine.graph`: strongly connected components in solving order and the
   maximal end components of the actions in play, computed once;
3. one solver: exact strategy iteration per component (:mod:`tbsg.engine.exact`), or
   float bounds level by level (:mod:`tbsg.engine.floating`), for stopping games; the
   infinite-play solver (:mod:`tbsg.engine.infinite`) when end components exist and
   ``infinite_play`` gives never-ending play a payoff; otherwise
   :class:`~tbsg.errors.NonStoppingGameError` naming the end components;
4. a :class:`~tbsg.results.Solution` or :class:`~tbsg.results.FloatSolution`.

``evaluate`` and ``best_response`` fix a stationary strategy *before* step 1
(:class:`tbsg.model.fixed.FixedStrategyGame`): fixing player 1's strategy turns the game into a
Markov decision process for player 0, fixing both into a Markov chain, and only the
states reachable under the fixed choices are enumerated. A stopping game costs the same
with or without ``infinite_play``: the end components are computed once either way, and
are empty.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any, Literal, TypeVar, cast, overload

import numpy as np
import numpy.typing as npt

from tbsg._util.gc import paused
from tbsg._util.progress import make_progress
from tbsg.engine.compile import DEFAULT_MAX_STATES, compile_game
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.exact import AUTO_KEEP_BYTES, solve_exact
from tbsg.engine.floating import solve_float
from tbsg.engine.graph import (
    Components,
    EndComponents,
    decompose,
    end_components,
    paying_end_action,
    raise_non_stopping,
    raise_paying_end_component,
)
from tbsg.engine.infinite import best_response_mdp, profile_values, solve_infinite_play
from tbsg.engine.tiebreak import first_choice
from tbsg.errors import InvalidArgumentError, ToleranceError, UnsupportedError, show
from tbsg.model.fixed import FixedStrategyGame, StrategyLike
from tbsg.model.protocol import Game, infinite_play_payoff
from tbsg.results import FloatSolution, Solution
from tbsg.results.floating import rule_choice

__all__ = ["best_response", "evaluate", "solve"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

ProfileLike = StrategyLike[S, A] | Solution[S, A] | FloatSolution[S, A]
"""A stationary strategy, or a solution standing for its own strategy (as for :func:`tbsg.chain`)."""

InfinitePlay = Fraction | int | None
"""Payoff to player 0 of play that never ends: an exact rational, or ``None``."""

_EXACT_METHOD = "exact strategy iteration (Hoffman-Karp) per SCC"
_FLOAT_METHOD = "certified policy-iteration bounds per SCC level (interval-iteration fallback)"
_INFINITE_METHOD = "exact: candidates from ε-perturbed games, end-component certificate"
_MIN_TOL = 1e-300


DEFAULT_TOL = 1e-12
"""The proven gap a float solve aims at when ``tol`` is not given."""


def _check_tol(tol: object, exact: bool) -> float:
    """Validate ``tol``: ``None`` (:data:`DEFAULT_TOL`), or (float path only) a positive,
    finite real number.

    An exact solve has no gap to bound, so a ``tol`` given with ``exact=True`` would be
    ignored: it is refused instead, as the command line refuses ``--tol`` without
    ``--float``.
    """
    if tol is None:
        return DEFAULT_TOL
    if exact:
        raise InvalidArgumentError(
            f"tol= applies to exact=False only (the largest proven gap of float bounds); an exact "
            f"solve has no gap: drop tol={show(tol, 40)}, or pass exact=False")
    if isinstance(tol, bool) or not isinstance(tol, (int, float)) or not math.isfinite(tol) \
            or not tol >= _MIN_TOL:
        raise InvalidArgumentError(
            f"tol must be a positive finite number (the largest proven gap upper - lower "
            f"wanted), got {show(tol)}")
    return float(tol)


def suggested_tol(gap: float) -> float:
    """A tolerance a float solve that proved ``gap`` at best can reach: twice ``gap``,
    rounded up to one significant digit.

    Each level of the float solver stops once its gap is below ``tol``, so a larger ``tol``
    leaves looser bounds below that widen the gap above: twice the gap reached leaves room
    for that.

    >>> suggested_tol(4.55e-15), suggested_tol(3e-13)
    (1e-14, 6e-13)
    """
    mantissa, exponent = f"{2 * gap:.0e}".split("e")
    suggest = float(f"{mantissa}e{exponent}")
    if suggest < 2 * gap:
        suggest = float(f"{int(mantissa) + 1}e{exponent}")
    return suggest


KeepValues = Literal["auto", "all", "boundary"]
"""Which exact values a solution stores (:func:`solve`'s ``keep_values``)."""

_KEEP_BUDGET: dict[object, int | None] = {"all": None, "boundary": 0, "auto": AUTO_KEEP_BYTES}


def _check_keep(keep: object, exact: bool) -> int | None:
    """The interior-value budget of ``keep_values`` (:func:`tbsg.engine.exact.solve_exact`'s ``keep``)."""
    if not isinstance(keep, str) or keep not in _KEEP_BUDGET:
        raise InvalidArgumentError(f"keep_values must be 'auto', 'all' or 'boundary', got {show(keep)}")
    if not exact and keep != "auto":
        raise InvalidArgumentError(f"keep_values={keep!r} applies to exact values: "
                                   "a float solution stores every bound")
    return _KEEP_BUDGET[keep]


def _check_exact(exact: object) -> bool:
    if not isinstance(exact, bool):
        raise InvalidArgumentError(f"exact must be True or False, got {show(exact)}")
    return exact


def _check_progress(progress: object) -> bool | None:
    if progress is not None and not isinstance(progress, bool):
        raise InvalidArgumentError(f"progress must be True, False or None, got {show(progress)}")
    return progress


@overload
def solve(game: Game[S, A], *, exact: Literal[True] = ..., tol: None = ...,
          max_states: int = ..., progress: bool | None = ...,
          infinite_play: InfinitePlay = ..., keep_values: KeepValues = ...) -> Solution[S, A]: ...
@overload
def solve(game: Game[S, A], *, exact: Literal[False], tol: float | None = ...,
          max_states: int = ..., progress: bool | None = ...,
          infinite_play: InfinitePlay = ..., keep_values: KeepValues = ...) -> FloatSolution[S, A]: ...
@overload
def solve(game: Game[S, A], *, exact: bool, tol: float | None = ...,
          max_states: int = ..., progress: bool | None = ...,
          infinite_play: InfinitePlay = ...,
          keep_values: KeepValues = ...) -> Solution[S, A] | FloatSolution[S, A]: ...
def solve(game: Game[S, A], *, exact: bool = True, tol: float | None = None,
          max_states: int = DEFAULT_MAX_STATES,
          progress: bool | None = None,
          infinite_play: InfinitePlay = None,
          keep_values: KeepValues = "auto") -> Solution[S, A] | FloatSolution[S, A]:
    """Solve ``game``: exact values and optimal strategies for both players.

    Parameters
    ----------
    game : Game
        Any object implementing the :class:`tbsg.Game` protocol.
    exact : bool
        ``True`` (default): exact rational values, every optimal action, certificate.
        ``False``: float values with proven bounds.
    tol : float or None
        Float path only: stop when ``upper - lower <= tol * max(1, |value|)`` in every
        state (``None``, the default: ``1e-12``): the plain gap for win probabilities, a
        relative precision for large scores and totals, whose proven gap grows with their
        size. Refused with ``exact=True`` (:class:`tbsg.InvalidArgumentError`):
        an exact solve has no gap, and a ``tol`` it ignored would look like a setting that
        took effect.
    max_states : int
        Stop with :class:`tbsg.StateLimitError` past this many states.
    progress : bool or None
        Progress of the enumeration and the solve on standard error
        (:mod:`tbsg._util.progress`): a bar in an interactive terminal or notebook (with
        tqdm, the ``notebook`` extra), else a plain line every few seconds, with an early
        estimate of when an enumeration reaches ``max_states``. ``None`` (default): only
        once a phase has taken 2 seconds; ``True``: from the start; ``False``: never.
    infinite_play : Fraction, int or None
        Payoff to player 0 of a play that never ends (an exact rational, e.g. ``0`` or
        ``Fraction(1, 2)``; in a reward game no reward may be paid inside an end component,
        else :class:`tbsg.NonStoppingGameError` names it). ``None`` (default): a game in
        which the players can keep play going forever is refused with
        :class:`tbsg.NonStoppingGameError`. With a payoff, such a game is solved exactly and
        certified (:mod:`tbsg.engine.infinite`; ``c = 0`` gives the least fixed point of the
        Bellman equations, i.e. play must end to count). Stopping games are solved as
        without it, at the same cost. Exact path only: with ``exact=False`` a non-stopping
        game raises :class:`tbsg.UnsupportedError`.
        In a non-stopping game ``optimal_actions(s)`` lists the actions that keep the
        solution's strategy optimal when played at ``s`` instead of its own choice
        (value-preserving loops that would let play go on for ever at a cost to the mover
        are left out); actions listed at different states need not be safe together
        (see :mod:`tbsg.engine.infinite`). The solution's own strategy is optimal.
    keep_values : {"auto", "all", "boundary"}
        Exact path: which exact values the solution stores. ``"all"``: every state's.
        ``"boundary"``: those of the states another strongly connected component reads
        (and the initial state's); any other value is recomputed when asked for, by one
        exact solve of its component with the solution's strategy, and the answer is the
        same rational (:mod:`tbsg.engine.boundary`). A table or a verification
        recomputes every such component once; a saved file keeps the stored values only.
        ``"auto"`` (default): every value, unless the values of the other states pass
        128 MB during the solve (as in Pig to 100, whose boundary holds 2% of its
        states); then ``"boundary"``.
        :attr:`Solution.values_stored` says how many are stored. A game with never-ending
        play stores every value. With ``exact=False``, ``"auto"`` only
        (:class:`tbsg.InvalidArgumentError` otherwise).

    Returns
    -------
    Solution or FloatSolution

    Raises
    ------
    InvalidGameError, ExactnessError, NonStoppingGameError, StateLimitError,
    InvalidArgumentError

    Examples
    --------
    >>> from tbsg.games import risk_or_safety
    >>> sol = solve(risk_or_safety(3))
    >>> sol.value(), sol.kind
    (Fraction(6, 11), <SolutionKind.SOLVE: 'solve'>)
    >>> lo, hi = solve(risk_or_safety(3), exact=False).bounds()
    >>> lo <= 6 / 11 <= hi and hi - lo <= 1e-12
    True
    """
    t0 = time.perf_counter()
    opts = _Options(exact, tol, progress, infinite_play, keep_values)
    g = _enumerate(game, max_states, opts)
    return _run(game, g, None, (0, 1), opts, t0)


def _enumerate(game: Game[S, A], max_states: int, opts: _Options) -> CompiledGame[S, A]:
    """Step 1, with a progress bar of the states found against ``max_states``."""
    callback, close = make_progress(opts.progress, "enumerating", limit=True)
    try:
        return compile_game(game, max_states=max_states, progress=callback)
    finally:
        close()


class _Options:
    """The validated options of one call."""

    def __init__(self, exact: object, tol: object, progress: object, infinite_play: object,
                 keep_values: object = "auto") -> None:
        self.exact = _check_exact(exact)
        self.tol = _check_tol(tol, self.exact)
        self.progress = _check_progress(progress)
        self.c = infinite_play_payoff(infinite_play)
        self.keep = _check_keep(keep_values, self.exact)


def _run(game: object, g: CompiledGame[S, A], allowed: npt.NDArray[np.bool_] | None,
         optimizing: tuple[int, ...], opts: _Options, t0: float
         ) -> Solution[S, A] | FloatSolution[S, A]:
    """Steps 2 to 4 of the pipeline (module docstring)."""
    comps = decompose(g)
    ec = end_components(g, allowed, scc=comps.label)
    common: dict[str, Any] = {"graph": g, "n_components": comps.count,
                              "largest_component": comps.largest, "game": game,
                              "infinite_play": opts.c, "optimizing": optimizing}
    who = _WHO[optimizing]
    callback, close = make_progress(opts.progress, "exact solve" if opts.exact else "float solve")
    try:
        if ec.count:
            c = _infinite_play_rule(g, ec, opts)
            return _infinite(g, allowed, optimizing, c, ec, common, who, t0, callback)
        if not opts.exact:
            return _float(g, comps, allowed, opts, common, who, t0, callback)
        r = solve_exact(g, comps, allowed, callback, keep=opts.keep)
        how = _EXACT_METHOD if optimizing else "state elimination per SCC"
        # Solution stores the backend values and reads them as Fractions (results._ExactValues)
        return Solution(method=who + how, seconds=time.perf_counter() - t0,
                        values_exact=cast("list[Fraction]", r.values),
                        choice=first_choice(g, r.optimal, r.choice), optimal=r.optimal,
                        improvements=r.improvements, exact_solves=r.exact_solves, **common)
    finally:
        close()


_WHO = {(0, 1): "", (): "exact evaluation of a fixed strategy profile; ",
        (0,): "best response of player 0 to a fixed opponent; ",
        (1,): "best response of player 1 to a fixed opponent; "}
"""The start of a solution's ``method``: what was optimised (nothing said for a solve)."""


def _infinite_play_rule(g: CompiledGame[S, A], ec: EndComponents, opts: _Options) -> Fraction:
    """The payoff of never-ending play for a game with end components ``ec``: refused
    without one (naming the end components), and on the float path."""
    if opts.c is None:
        raise_non_stopping(g, ec)
    paying = paying_end_action(g, ec)
    if paying is not None:  # a reward collected for ever: no finite total to optimise
        raise_paying_end_component(g, ec, paying)
    if not opts.exact:
        raise UnsupportedError(
            f"infinite_play with exact=False: the game is not stopping ({ec.count} maximal "
            "end component(s)) and the float solver handles stopping games only; use "
            "exact=True")
    return opts.c


def _float(g: CompiledGame[S, A], comps: Components, allowed: npt.NDArray[np.bool_] | None,
           opts: _Options, common: dict[str, Any], who: str, t0: float,
           callback: Callable[[int, int], None] | None) -> FloatSolution[S, A]:
    """Float bounds of a stopping game, or :class:`~tbsg.errors.ToleranceError` carrying
    them when the gap ``tol`` is not reached."""
    with paused():
        fr = solve_float(g, comps, tol=opts.tol, allowed=allowed, progress=callback)
    fs: FloatSolution[S, A] = FloatSolution(
        method=who + _FLOAT_METHOD, seconds=time.perf_counter() - t0, lower=fr.lower,
        choice=rule_choice(g, fr.lower, fr.upper, fr.choice, common["optimizing"]),
        upper=fr.upper, tol=opts.tol, sweeps=fr.sweeps,
        converged=fr.converged, **common)
    if not fr.converged:
        raise _unreached(fs, opts.tol)
    return fs


def _unreached(fs: FloatSolution[Any, Any], tol: float) -> ToleranceError:
    """The error for a float solve whose proven gap stayed above ``tol`` somewhere."""
    gap = fs.max_relative_gap
    suggest = suggested_tol(gap)
    return ToleranceError(
        f"tol={tol:g} cannot be reached: the smallest gap proven is {gap:.3g} (the float "
        f"solver stalls where the rounding it accounts for in the bounds is as large as its "
        f"progress: long expected play, or play that stops with tiny probability); try tol="
        f"{suggest:g}, or exact=True; the bounds found (they hold) are in this error's .solution",
        solution=fs, reachable=gap)


def _infinite(g: CompiledGame[S, A], allowed: npt.NDArray[np.bool_] | None,
              optimizing: tuple[int, ...], c: Fraction, ec: EndComponents,
              common: dict[str, Any], who: str, t0: float,
              callback: Callable[[int, int], None] | None) -> Solution[S, A]:
    """A non-stopping game (or a game with fixed strategies) with never-ending play worth ``c``.

    The players not ``optimizing`` play one action per state: the only one in ``g`` (a
    :class:`~tbsg.model.fixed.FixedStrategyGame`), or the one ``allowed`` keeps.
    """
    method = f"{who}{_INFINITE_METHOD} (infinite play worth {c}"
    fixed = np.ones(g.n_actions, dtype=bool) if allowed is None else allowed
    if optimizing == (0, 1):
        r = solve_infinite_play(g, c, mecs=ec, progress=callback)
        if r.epsilon is not None:
            how = "float candidate" if r.float_candidate else "exact candidate"
            method += f"; {how}, ε = 2^-{r.epsilon.denominator.bit_length() - 1}"
        values, choice, optimal = r.values, r.choice, r.optimal
        improvements, solves = r.improvements, r.exact_solves
    elif optimizing == ():
        choice = np.empty(g.n_states, dtype=np.int64)
        ks = np.flatnonzero(fixed)
        choice[g.act_state[ks]] = ks
        values, solves = profile_values(g, choice, c, ec)
        optimal, improvements = fixed.copy(), 0
    else:
        b = best_response_mdp(g, fixed, optimizing[0], c)
        values, choice, optimal = b.values, b.choice, b.optimal
        improvements, solves = b.improvements, b.exact_solves
        method = f"{who}exact, end-component quotient (infinite play worth {c}"
    # Solution stores the backend values and reads them as Fractions (results._ExactValues)
    return Solution(method=method + ")", seconds=time.perf_counter() - t0,
                    values_exact=cast("list[Fraction]", values),
                    choice=choice, optimal=optimal, improvements=improvements,
                    exact_solves=solves, **common)


@overload
def evaluate(game: Game[S, A], strategy: ProfileLike[S, A], *, exact: Literal[True] = ...,
             tol: None = ..., max_states: int = ..., progress: bool | None = ...,
             infinite_play: InfinitePlay = ..., reach: str = ...) -> Solution[S, A]: ...
@overload
def evaluate(game: Game[S, A], strategy: ProfileLike[S, A], *, exact: Literal[False],
             tol: float | None = ..., max_states: int = ..., progress: bool | None = ...,
             infinite_play: InfinitePlay = ..., reach: str = ...) -> FloatSolution[S, A]: ...
@overload
def evaluate(game: Game[S, A], strategy: ProfileLike[S, A], *, exact: bool,
             tol: float | None = ..., max_states: int = ..., progress: bool | None = ...,
             infinite_play: InfinitePlay = ..., reach: str = ...) -> Solution[S, A] | FloatSolution[S, A]: ...
def evaluate(game: Game[S, A], strategy: ProfileLike[S, A], *, exact: bool = True,
             tol: float | None = None, max_states: int = DEFAULT_MAX_STATES,
             progress: bool | None = None, infinite_play: InfinitePlay = None,
             reach: str = "profile") -> Solution[S, A] | FloatSolution[S, A]:
    """Exact values when both players follow ``strategy`` (a full stationary profile).

    Parameters
    ----------
    game : Game
    strategy : Mapping, callable, Solution or FloatSolution
        Action of the player to move, for every state (states with one action may be
        omitted from a mapping), or a solution, whose own strategy is used (as in
        :func:`tbsg.chain`): ``evaluate(game, solve(game))`` is the value of the game.
        A function must be stationary: asked twice about a state, it gives the same
        action (:class:`tbsg.InvalidStrategyError` otherwise).
    exact, tol : bool, float or None
        Exact values (default), or float bounds with proven gap ``tol`` (as in :func:`solve`;
        ``tol`` with ``exact=False`` only). Exact values are stored as by :func:`solve`'s
        default, ``keep_values="auto"``.
    infinite_play : Fraction, int or None
        Payoff to player 0 of play that never ends; ``None`` (default) refuses a profile
        that can go on forever (:class:`tbsg.NonStoppingGameError`).

    Returns
    -------
    Solution
        Values of the profile (``kind`` is ``"evaluate"``); ``optimal_actions`` are the
        profile's own actions.

    Examples
    --------
    Risk or Safety to 2 points, both players always continue at one open point (seed 000,
    section 3.1: 4/7):

    >>> from tbsg.games import risk_or_safety
    >>> game = risk_or_safety(2)
    >>> evaluate(game, lambda s: "toss").value()
    Fraction(4, 7)
    """
    t0 = time.perf_counter()
    opts = _Options(exact, tol, progress, infinite_play)
    g, allowed = _fixed(game, _fixing(game, strategy, (0, 1), "strategy"), reach, max_states, opts)
    return _run(game, g, allowed, (), opts, t0)


@overload
def best_response(game: Game[S, A], player: int, opponent: ProfileLike[S, A], *,
                  exact: Literal[True] = ..., tol: None = ..., max_states: int = ...,
                  progress: bool | None = ..., infinite_play: InfinitePlay = ...,
                  reach: str = ...) -> Solution[S, A]: ...
@overload
def best_response(game: Game[S, A], player: int, opponent: ProfileLike[S, A], *,
                  exact: Literal[False], tol: float | None = ..., max_states: int = ...,
                  progress: bool | None = ..., infinite_play: InfinitePlay = ...,
                  reach: str = ...) -> FloatSolution[S, A]: ...
@overload
def best_response(game: Game[S, A], player: int, opponent: ProfileLike[S, A], *,
                  exact: bool, tol: float | None = ..., max_states: int = ...,
                  progress: bool | None = ..., infinite_play: InfinitePlay = ...,
                  reach: str = ...) -> Solution[S, A] | FloatSolution[S, A]: ...
def best_response(game: Game[S, A], player: int, opponent: ProfileLike[S, A], *,
                  exact: bool = True, tol: float | None = None,
                  max_states: int = DEFAULT_MAX_STATES,
                  progress: bool | None = None, infinite_play: InfinitePlay = None,
                  reach: str = "profile") -> Solution[S, A] | FloatSolution[S, A]:
    """Optimise ``player``'s strategy against the other player's fixed ``opponent``.

    Parameters
    ----------
    game : Game
    player : 0 or 1
        The player who optimises.
    opponent : Mapping, callable, Solution or FloatSolution
        The other player's stationary strategy (state -> action), or a solution, whose
        own strategy is used.
    exact, tol : bool, float or None
        Exact (default), or float bounds with proven gap ``tol`` (as in :func:`solve`; ``tol``
        with ``exact=False`` only). Exact values are stored as by :func:`solve`'s default,
        ``keep_values="auto"``.
    infinite_play : Fraction, int or None
        Payoff to player 0 of play that never ends; ``None`` (default) refuses a game in
        which ``player`` could keep play going forever. With a payoff the decision process
        is solved exactly on its maximal-end-component quotient (:mod:`tbsg.engine.infinite`);
        exact path only.

    Returns
    -------
    Solution or FloatSolution
        ``value()`` is to player 0 as always; ``kind`` is ``"best_response"`` and
        ``optimizing`` is ``(player,)``.
    """
    if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or int(player) not in (0, 1):
        raise InvalidArgumentError(f"player must be 0 or 1, got {show(player)}")
    player = int(player)
    t0 = time.perf_counter()
    opts = _Options(exact, tol, progress, infinite_play)
    fixed = _fixing(game, opponent, (1 - player,), "opponent strategy")
    g, allowed = _fixed(game, fixed, reach, max_states, opts)
    return _run(game, g, allowed, (player,), opts, t0)


def _fixing(game: Game[S, A], strategy: ProfileLike[S, A], fixed: tuple[int, ...],
            name: str) -> FixedStrategyGame[S, A]:
    """``game`` with the players ``fixed`` playing ``strategy``; a solution plays its own
    strategy (:attr:`tbsg.Solution.strategy`, over the states it covers), as in :func:`tbsg.chain`."""
    if isinstance(strategy, (Solution, FloatSolution)):
        return FixedStrategyGame(game, strategy.strategy, fixed, f"{name} (a solution's strategy)")
    return FixedStrategyGame(game, strategy, fixed, name)


def _fixed(game: Game[S, A], fixed: FixedStrategyGame[S, A], reach: object, max_states: int,
           opts: _Options) -> tuple[CompiledGame[S, A], npt.NDArray[np.bool_] | None]:
    """The graph a fixed-strategy call solves, and the actions it may use (None: all).

    ``reach="profile"``: the states the fixed choices reach (their only action is the
    strategy's); ``reach="game"``: every state of the game, the fixed players' other
    actions masked out.
    """
    if reach == "profile":
        return _enumerate(fixed, max_states, opts), None
    if reach != "game":
        raise InvalidArgumentError(
            f"reach must be 'profile' (the states the fixed strategy reaches) or 'game' (every "
            f"state of the game), got {show(reach)}")
    g = _enumerate(game, max_states, opts)
    allowed = np.ones(g.n_actions, dtype=bool)
    for i, s in enumerate(g.states):
        if int(g.player[i]) not in fixed.fixed:
            continue
        (a, *more) = fixed.actions(s)
        if more:  # a forced move left out of a mapping comes back as the state's actions
            continue
        k = g.action_index(i, a)
        ks = g.actions_of(i)
        allowed[ks.start : ks.stop] = False
        allowed[k] = True
    return g, allowed
