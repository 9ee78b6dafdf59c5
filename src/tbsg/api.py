"""Front doors: :func:`solve`, :func:`evaluate` and :func:`best_response`.

``solve`` compiles the game (:mod:`tbsg.engine.compile`), checks that it is stopping
(:mod:`tbsg.engine.graph`) and solves it exactly by strategy iteration over strongly connected
components (:mod:`tbsg.engine.exact`) or, with ``exact=False``, by interval value
iteration with proven bounds (:mod:`tbsg.engine.floating`). ``evaluate`` and
``best_response`` run the same machinery with one or both players' actions restricted
to a given stationary strategy: fixing ``player 1``'s strategy turns the game into a
Markov decision process for player 0, and fixing both into a Markov chain.

Non-stopping games (where the players can keep play going forever) raise
:class:`~tbsg.errors.NonStoppingGameError` naming their maximal end components, unless
``infinite_play=c`` gives never-ending play a payoff ``c`` to player 0; they are then
solved exactly by :mod:`tbsg.engine.infinite`.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from fractions import Fraction
from typing import Any, Literal, TypeVar, overload

import numpy as np
import numpy.typing as npt

from tbsg._gc import paused
from tbsg._progress import make_progress
from tbsg.engine.compile import DEFAULT_MAX_STATES, CompiledGame, compile_game
from tbsg.engine.exact import solve_exact
from tbsg.engine.floating import solve_float
from tbsg.engine.graph import decompose
from tbsg.engine.infinite import (
    INFINITE_PLAY_METHOD,
    best_response_mdp,
    check_infinite_play,
    maximal_end_components,
    profile_values,
    solve_infinite_play,
)
from tbsg.errors import InvalidStrategyError, NonStoppingGameError
from tbsg.model import Game
from tbsg.results import FloatSolution, Solution

__all__ = ["EVALUATE_METHOD", "EXACT_METHOD", "best_response", "evaluate", "solve"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

StrategyLike = Mapping[S, A] | Callable[[S], A]
"""A stationary strategy: a mapping or a function from state to action."""

EXACT_METHOD = "exact strategy iteration (Hoffman-Karp) per SCC"
_FLOAT_METHOD = "certified policy-iteration bounds per SCC level (interval-iteration fallback)"
EVALUATE_METHOD = "exact evaluation of a fixed strategy profile"


InfinitePlay = Fraction | int | None
"""Payoff to player 0 of play that never ends: an exact rational in [0, 1], or ``None``."""


@overload
def solve(game: Game[S, A], *, exact: Literal[True] = ..., tol: float = ...,
          max_states: int = ..., progress: bool | None = ...,
          infinite_play: InfinitePlay = ...) -> Solution[S, A]: ...
@overload
def solve(game: Game[S, A], *, exact: Literal[False], tol: float = ...,
          max_states: int = ..., progress: bool | None = ...,
          infinite_play: InfinitePlay = ...) -> FloatSolution[S, A]: ...
@overload
def solve(game: Game[S, A], *, exact: bool, tol: float = ...,
          max_states: int = ..., progress: bool | None = ...,
          infinite_play: InfinitePlay = ...) -> Solution[S, A] | FloatSolution[S, A]: ...
def solve(game: Game[S, A], *, exact: bool = True, tol: float = 1e-12,
          max_states: int = DEFAULT_MAX_STATES,
          progress: bool | None = None,
          infinite_play: InfinitePlay = None) -> Solution[S, A] | FloatSolution[S, A]:
    """Solve ``game``: exact values and optimal strategies for both players.

    Parameters
    ----------
    game : Game
        Any object implementing the :class:`tbsg.Game` protocol.
    exact : bool
        ``True`` (default): exact rational values, every optimal action, certificate.
        ``False``: float bounds by interval iteration.
    tol : float
        Float path only: stop when ``upper - lower <= tol`` in every state.
    max_states : int
        Stop with :class:`tbsg.StateLimitError` past this many states.
    progress : bool or None
        Progress bar (needs tqdm, the ``notebook`` extra). ``None`` (default): shown only
        in an interactive terminal or notebook, once the solve has taken 2 seconds.
    infinite_play : Fraction, int or None
        Payoff to player 0 of a play that never ends (an exact rational in [0, 1], e.g.
        ``0`` or ``Fraction(1, 2)``). ``None`` (default): a game in which the players can
        keep play going forever is refused with :class:`tbsg.NonStoppingGameError`. With a
        payoff, such a game is solved exactly and certified (:mod:`tbsg.engine.infinite`;
        ``c = 0`` gives the least fixed point of the Bellman equations, i.e. play must end
        to count). Stopping games are solved as without it. Exact path only: with
        ``exact=False`` a non-stopping game raises :class:`NotImplementedError`.
        In a non-stopping game ``optimal_actions(s)`` lists the actions that keep the
        solution's strategy optimal when played at ``s`` instead of its own choice
        (value-preserving loops that would let play go on for ever at a cost to the mover
        are left out); actions listed at different states need not be safe together
        (see :mod:`tbsg.engine.infinite`). The solution's own strategy is optimal.

    Returns
    -------
    Solution or FloatSolution

    Raises
    ------
    InvalidGameError, ExactnessError, NonStoppingGameError, StateLimitError

    Examples
    --------
    >>> from tbsg.games import risk_or_safety
    >>> sol = solve(risk_or_safety(3))
    >>> sol.value()
    Fraction(6, 11)
    >>> lo, hi = solve(risk_or_safety(3), exact=False).bounds()
    >>> lo <= 6 / 11 <= hi and hi - lo <= 1e-12
    True
    """
    t0 = time.perf_counter()
    c = check_infinite_play(infinite_play)
    g = compile_game(game, max_states=max_states)
    if c is None:
        with _named_end_components(g, None):
            if exact:
                return _exact(game, g, None, EXACT_METHOD, t0, progress)
            return _float(game, g, None, tol, _FLOAT_METHOD, t0, progress)
    mecs = maximal_end_components(g)
    if mecs.count == 0:  # stopping: the rule for infinite play is never used
        if exact:
            return _record(_exact(game, g, None, EXACT_METHOD, t0, progress), c)
        return _record(_float(game, g, None, tol, _FLOAT_METHOD, t0, progress), c)
    if not exact:
        raise NotImplementedError(
            f"infinite_play with exact=False: the game is not stopping ({mecs.count} maximal end "
            "component(s)) and the float solver handles stopping games only; use exact=True")
    callback, close = make_progress(progress, "exact solve")
    try:
        r = solve_infinite_play(g, c, mecs=mecs, progress=callback)
    finally:
        close()
    comps = decompose(g)
    method = f"{INFINITE_PLAY_METHOD} (infinite play worth {c}"
    if r.epsilon is not None:
        how = "float candidate" if r.float_candidate else "exact candidate"
        method += f"; {how}, ε = 2^-{r.epsilon.denominator.bit_length() - 1}"
    method += ")"
    return _record(Solution(graph=g, method=method, seconds=time.perf_counter() - t0,
                            n_components=comps.count, largest_component=comps.largest,
                            values_exact=r.values, choice=r.choice, optimal=r.optimal,
                            improvements=r.improvements, exact_solves=r.exact_solves, game=game), c)


SolutionT = TypeVar("SolutionT", bound=Solution[Any, Any] | FloatSolution[Any, Any])


def _record(solution: SolutionT, c: Fraction) -> SolutionT:
    """``solution`` with the rule for infinite play recorded (read back by :func:`tbsg.verify`)."""
    return dataclasses.replace(solution, infinite_play=c)


@contextmanager
def _named_end_components(g: CompiledGame[S, A], allowed: npt.NDArray[np.bool_] | None
                          ) -> Iterator[None]:
    """Re-raise :class:`NonStoppingGameError` listing the maximal end components."""
    try:
        yield
    except NonStoppingGameError as exc:
        mecs = maximal_end_components(g, allowed).members()
        shown = []
        for states in mecs[:3]:
            names = ", ".join(repr(g.states[i]) for i in states[:4])
            shown.append("{" + names + (f", ... ({len(states)} states)" if len(states) > 4 else "")
                         + "}")
        more = f" and {len(mecs) - 3} more" if len(mecs) > 3 else ""
        raise NonStoppingGameError(
            f"{exc}; maximal end component(s): {'; '.join(shown)}{more}. Give never-ending "
            "play a payoff to player 0 with infinite_play= (e.g. 0, or Fraction(1, 2)) to "
            "solve it", exc.trap_states) from None


def _exact(game: object, g: CompiledGame[S, A], allowed: npt.NDArray[np.bool_] | None,
           method: str, t0: float, progress: bool | None) -> Solution[S, A]:
    callback, close = make_progress(progress, "exact solve")
    try:
        r = solve_exact(g, allowed, progress=callback)
    finally:
        close()
    return Solution(graph=g, method=method, seconds=time.perf_counter() - t0,
                    n_components=r.components.count, largest_component=r.components.largest,
                    values_exact=r.values, choice=r.choice, optimal=r.optimal,
                    improvements=r.improvements, exact_solves=r.exact_solves, game=game)


def _float(game: object, g: CompiledGame[S, A], allowed: npt.NDArray[np.bool_] | None,
           tol: float, method: str, t0: float, progress: bool | None) -> FloatSolution[S, A]:
    callback, close = make_progress(progress, "float solve")
    try:
        with paused():
            r = solve_float(g, tol=tol, allowed=allowed, progress=callback)
    finally:
        close()
    return FloatSolution(graph=g, method=method, seconds=time.perf_counter() - t0,
                         n_components=r.components.count,
                         largest_component=r.components.largest, lower=r.lower,
                         upper=r.upper, choice=r.choice, tol=tol, sweeps=r.sweeps,
                         converged=r.converged, game=game)


def _restrict(g: CompiledGame[S, A], strategy: StrategyLike[S, A], players: tuple[int, ...],
              name: str) -> npt.NDArray[np.bool_]:
    """Mask over flat actions keeping only ``strategy``'s action at ``players``' states."""
    allowed = np.ones(g.n_actions, dtype=bool)
    lookup: Callable[[S], A]
    if isinstance(strategy, Mapping):
        mapping = strategy

        def lookup(s: S) -> A:
            try:
                return mapping[s]
            except KeyError:
                raise InvalidStrategyError(
                    f"{name} has no action for state {s!r} (player {int(g.player[g.index[s]])} "
                    "moves there)") from None
    elif callable(strategy):
        lookup = strategy
    else:
        raise InvalidStrategyError(
            f"{name} must be a mapping or a callable state -> action, "
            f"got {type(strategy).__name__}")
    for i, s in enumerate(g.states):
        if int(g.player[i]) not in players:
            continue
        ks = g.actions_of(i)
        try:
            a = lookup(s)
        except InvalidStrategyError:
            if len(ks) == 1:  # a forced move needs no entry
                continue
            raise
        except Exception as exc:
            raise InvalidStrategyError(
                f"{name} raised {type(exc).__name__}: {exc} at state {s!r}") from exc
        k = g.action_index(i, a)
        if k is None:
            legal = [g.act_labels[j] for j in ks]
            raise InvalidStrategyError(
                f"{name} chooses {a!r} at state {s!r}, which is not a legal action there; "
                f"legal actions: {legal!r}")
        allowed[ks.start:ks.stop] = False
        allowed[k] = True
    return allowed


def evaluate(game: Game[S, A], strategy: StrategyLike[S, A], *,
             max_states: int = DEFAULT_MAX_STATES, progress: bool | None = None,
             infinite_play: InfinitePlay = None) -> Solution[S, A]:
    """Exact values when both players follow ``strategy`` (a full stationary profile).

    Parameters
    ----------
    game : Game
    strategy : Mapping or callable
        Action of the player to move, for every state (states with one action may be
        omitted from a mapping).
    infinite_play : Fraction, int or None
        Payoff to player 0 of play that never ends; ``None`` (default) refuses a profile
        that can go on forever (:class:`tbsg.NonStoppingGameError`).

    Returns
    -------
    Solution
        Values of the profile; ``optimal_actions`` are the profile's own actions.

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
    c = check_infinite_play(infinite_play)
    g = compile_game(game, max_states=max_states)
    allowed = _restrict(g, strategy, (0, 1), "strategy")
    if c is None:
        with _named_end_components(g, allowed):
            return _exact(game, g, allowed, EVALUATE_METHOD, t0, progress)
    traps = maximal_end_components(g, allowed)
    if traps.count == 0:
        return _record(_exact(game, g, allowed, EVALUATE_METHOD, t0, progress), c)
    choice = np.empty(g.n_states, dtype=np.int64)
    ks = np.flatnonzero(allowed)
    choice[g.act_state[ks]] = ks
    values, solves = profile_values(g, choice, c, traps)
    comps = decompose(g)
    return _record(Solution(
        graph=g, method=f"{EVALUATE_METHOD} (infinite play worth {c})",
        seconds=time.perf_counter() - t0, n_components=comps.count,
        largest_component=comps.largest, values_exact=values, choice=choice,
        optimal=allowed.copy(), improvements=0, exact_solves=solves, game=game), c)


@overload
def best_response(game: Game[S, A], player: int, opponent: StrategyLike[S, A], *,
                  exact: Literal[True] = ..., tol: float = ..., max_states: int = ...,
                  progress: bool | None = ...,
                  infinite_play: InfinitePlay = ...) -> Solution[S, A]: ...
@overload
def best_response(game: Game[S, A], player: int, opponent: StrategyLike[S, A], *,
                  exact: Literal[False], tol: float = ..., max_states: int = ...,
                  progress: bool | None = ...,
                  infinite_play: InfinitePlay = ...) -> FloatSolution[S, A]: ...
@overload
def best_response(game: Game[S, A], player: int, opponent: StrategyLike[S, A], *,
                  exact: bool, tol: float = ..., max_states: int = ...,
                  progress: bool | None = ...,
                  infinite_play: InfinitePlay = ...) -> Solution[S, A] | FloatSolution[S, A]: ...
def best_response(game: Game[S, A], player: int, opponent: StrategyLike[S, A], *,
                  exact: bool = True, tol: float = 1e-12,
                  max_states: int = DEFAULT_MAX_STATES,
                  progress: bool | None = None,
                  infinite_play: InfinitePlay = None) -> Solution[S, A] | FloatSolution[S, A]:
    """Optimise ``player``'s strategy against the other player's fixed ``opponent``.

    Parameters
    ----------
    game : Game
    player : 0 or 1
        The player who optimises.
    opponent : Mapping or callable
        The other player's stationary strategy (state -> action).
    exact : bool
        Exact (default) or float interval iteration.
    infinite_play : Fraction, int or None
        Payoff to player 0 of play that never ends; ``None`` (default) refuses a game in
        which ``player`` could keep play going forever. With a payoff the decision process
        is solved exactly on its maximal-end-component quotient (:mod:`tbsg.engine.infinite`);
        exact path only.

    Returns
    -------
    Solution or FloatSolution
        ``value()`` is to player 0 as always.
    """
    if player not in (0, 1) or isinstance(player, bool):
        raise ValueError(f"player must be 0 or 1, got {player!r}")
    t0 = time.perf_counter()
    c = check_infinite_play(infinite_play)
    g = compile_game(game, max_states=max_states)
    allowed = _restrict(g, opponent, (1 - player,), "opponent strategy")
    method = f"best response of player {player} to a fixed opponent"
    looping = c is not None and maximal_end_components(g, allowed).count > 0
    if looping and not exact:
        raise NotImplementedError(
            "infinite_play with exact=False: the decision process is not stopping and the "
            "float solver handles stopping games only; use exact=True")
    if not looping:  # no rule, or a stopping decision process: the rule is never used
        with _named_end_components(g, allowed):
            if exact:
                sol: Solution[S, A] | FloatSolution[S, A] = _exact(
                    game, g, allowed, method + " (exact strategy iteration)", t0, progress)
            else:
                sol = _float(game, g, allowed, tol, method + " (interval iteration)", t0, progress)
        return sol if c is None else _record(sol, c)
    assert c is not None
    r = best_response_mdp(g, allowed, player, c)
    comps = decompose(g)
    return _record(Solution(
        graph=g, method=method + f" (exact, end-component quotient, infinite play worth {c})",
        seconds=time.perf_counter() - t0, n_components=comps.count,
        largest_component=comps.largest, values_exact=r.values, choice=r.choice,
        optimal=r.optimal, improvements=r.improvements, exact_solves=r.exact_solves,
        game=game), c)
