"""The Markov chain of a strategy profile: how long play lasts, how it ends, what it reaches.

:func:`tbsg.solve` answers "who wins, and how to play". Fixing both players' strategies
(any stationary profile: a mapping, a function, or a solution's own strategy) turns the
game into a Markov chain, and :func:`chain` answers what comes next, exactly:

- :meth:`Chain.expected_steps`: expected number of steps until play ends, where a step
  counts what ``count(state, action)`` says (1 per move by default; 1 per coin toss, 1
  per turn, ...); :meth:`Chain.expected_reward` for any rational per-step reward, the
  game's own ``reward`` method by default (:mod:`tbsg.play.totals`); :meth:`Chain.value`
  is the whole expected total, the game's rewards plus the terminal payoff, as a
  solution's value is;
- :meth:`Chain.length_distribution`: ``P(play has ended within k counted steps)`` for
  ``k <= n``, with the mean and variance of the length (:mod:`tbsg.play.lengths`);
- :meth:`Chain.outcome_probabilities`: the distribution of the terminal payoff (win,
  draw, loss); :meth:`Chain.reach`: the probability of ever reaching a position
  (:mod:`tbsg.play.outcomes`); :meth:`Chain.visits`: the expected number of visits to a
  state.

Each is a linear system ``x = b + P x`` over the chain's transient states (the
fundamental matrix of Kemeny and Snell, 1960; :mod:`tbsg.play.system`), solved exactly,
component by component, or with proven float bounds (``exact=False``) where exact numbers
grow too large. Only the states the profile reaches from the initial state are enumerated
(:class:`tbsg.model.fixed.FixedStrategyGame`).

A chain is a result like a solution: it answers the queries of :mod:`tbsg.results.query`
(``value``, ``value_to_move``, ``values``, ``action``, ``strategy``, ...), for the one
profile it holds; nobody optimises, so the optimal action of a state is the profile's.

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

import time
from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from functools import cached_property
from typing import Literal, TypeVar, cast, overload

import numpy as np
import numpy.typing as npt

from tbsg._util.progress import make_progress
from tbsg.engine import _backend as bk
from tbsg.engine._backend import Rational
from tbsg.engine.compile import DEFAULT_MAX_STATES, compile_game
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.markov import ChainStructure, structure
from tbsg.errors import InvalidArgumentError, show
from tbsg.model.fixed import FixedStrategyGame, StrategyLike
from tbsg.model.protocol import Game, infinite_play_payoff, reward_function
from tbsg.model.steps import StepFunction
from tbsg.play import lengths, outcomes, totals
from tbsg.play.lengths import LengthBounds, LengthDistribution
from tbsg.play.system import Bounds, diverging, flag, reaching
from tbsg.results.floating import FloatSolution
from tbsg.results.query import INITIAL, Initial, check_player
from tbsg.results.solution import Solution
from tbsg.results.views import OnGraph, StateMap

__all__ = ["Chain", "LengthBounds", "LengthDistribution", "chain"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)


class Chain(OnGraph[S, A]):
    """A game under a fixed stationary profile: a Markov chain over the states it reaches.

    Built by :func:`chain`. It answers the queries of :mod:`tbsg.results.query` as a
    solution does (values to player 0 unless ``player=`` or ``_to_move`` says otherwise;
    ``state`` arguments default to the initial state), and the questions of play below.

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
        self._values: dict[Fraction | None, list[Rational]] = {}

    # -- the queries of every result ---------------------------------------------------
    _unhashable = InvalidArgumentError

    def _choice(self) -> npt.NDArray[np.int64]:
        return self.graph.act_ptr  # one action per state: the first of its actions

    def _unknown(self, state: object) -> str:
        return (f"state {show(state)} is not reached by the profile from the initial state "
                f"{show(self.initial)} (the chain has {self.n_states} states)")

    def optimal_actions(self, state: S | Initial = INITIAL) -> tuple[A, ...]:
        """The profile's action alone: nobody optimises in a chain (as in a solution of
        :func:`tbsg.evaluate`)."""
        return (self.action(state),)

    def value(self, state: S | Initial = INITIAL, *, player: int = 0,
              infinite_play: Fraction | int | None = None) -> Fraction:
        """Expected payoff of ``state`` to ``player`` (0 by default): the profile's value, as
        :func:`tbsg.evaluate` gives it: the expected total of the game's rewards along play
        (its ``reward`` method) plus the terminal payoff, so that ``chain(game,
        solution).value() == solution.value()``. Player 1's view is ``c - v`` (``c = 1``
        in a win-probability game, else 0: :mod:`tbsg.model.protocol`).

        A chain that may never end needs ``infinite_play``, the payoff to player 0 of
        never-ending play (the game's rewards must be 0 where play never ends).
        """
        c = infinite_play_payoff(infinite_play)
        v = self._value_at(self._index(state), c)
        if check_player(player) == 0:
            return v
        return (1 if self.graph.win_probability and (c is None or 0 <= c <= 1) else 0) - v

    def value_to_move(self, state: S | Initial = INITIAL, *,
                      infinite_play: Fraction | int | None = None) -> Fraction:
        """Expected payoff of ``state`` to the player who moves there (as :meth:`value`)."""
        return self.value(state, player=self.player(state), infinite_play=infinite_play)

    @property
    def values(self) -> Mapping[S, Fraction]:
        """Every state's value to player 0 (play that may never end has none: reading it
        raises :class:`~tbsg.errors.NonStoppingGameError`; use :meth:`value` with
        ``infinite_play``)."""
        return StateMap(self.graph, lambda i: self._value_at(i, None), "values")

    def action_values(self, state: S | Initial = INITIAL, *, player: int = 0,
                      infinite_play: Fraction | int | None = None) -> dict[A, Fraction]:
        """``{action: value}`` at ``state`` for the profile's action (the only one a chain
        holds), to ``player`` (0 by default)."""
        return {self.action(state): self.value(state, player=player, infinite_play=infinite_play)}

    def action_values_to_move(self, state: S | Initial = INITIAL, *,
                              infinite_play: Fraction | int | None = None) -> dict[A, Fraction]:
        """``{action: value}`` at ``state`` for the profile's action, to the player who moves."""
        return {self.action(state): self.value_to_move(state, infinite_play=infinite_play)}

    def _value_at(self, i: int, c: Fraction | None) -> Fraction:
        if c is None and self._reaches_a_trap[i]:
            raise outcomes.never_ends(self.graph, self.structure)
        if self.graph.has_rewards and self._reaches_a_trap[i]:  # rewards collected for ever?
            diverging(self.graph, self.structure, list(self.graph.act_reward), "total payoff", i)
        if c not in self._values:
            self._values[c] = outcomes.value_vector(self.graph, self.structure, c)
        return bk.to_fraction(self._values[c][i])

    # -- the chain ---------------------------------------------------------------------
    @cached_property
    def structure(self) -> ChainStructure:
        """Components and closed classes (computed once)."""
        return structure(self.graph)

    @cached_property
    def _reaches_a_trap(self) -> list[bool]:
        trapped = np.flatnonzero(self.structure.trapped).tolist()
        return reaching(self.graph, trapped) if trapped else [False] * self.n_states

    @cached_property
    def _split(self) -> list[dict[Fraction, Fraction]]:
        return outcomes.terminal_split(self.game, self.graph)

    def stops(self) -> bool:
        """Whether play ends with probability 1 from every state of the chain."""
        return self.structure.n_traps == 0

    # -- the questions of play ---------------------------------------------------------
    @overload
    def expected_steps(self, count: StepFunction | None = ..., *, state: S | Initial = ...,
                       exact: Literal[True] = ...) -> Fraction: ...
    @overload
    def expected_steps(self, count: StepFunction | None = ..., *, state: S | Initial = ...,
                       exact: Literal[False]) -> Bounds: ...
    def expected_steps(self, count: StepFunction | None = None, *, state: S | Initial = INITIAL,
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
        exact_ = flag(exact)
        return totals.expected_steps(self.graph, self.structure, count, self._index(state), exact_)

    @overload
    def expected_reward(self, reward: StepFunction | None = ..., *, state: S | Initial = ...,
                        exact: Literal[True] = ...) -> Fraction: ...
    @overload
    def expected_reward(self, reward: StepFunction | None = ..., *, state: S | Initial = ...,
                        exact: Literal[False]) -> Bounds: ...
    def expected_reward(self, reward: StepFunction | None = None, *, state: S | Initial = INITIAL,
                        exact: bool = True) -> Fraction | Bounds:
        """Expected total of ``reward(state, action)`` (any rational) over the steps of play.

        Parameters
        ----------
        reward : callable or None
            ``reward(state, action)``; ``None`` (default): the game's own ``reward``
            method, the rewards the game pays along play (terminal payoffs not included:
            :meth:`value` is the whole total, rewards plus terminal payoff).

        Raises
        ------
        InfiniteExpectationError
            Play may reach states it never leaves where the reward is not 0.
        InvalidArgumentError
            ``reward`` is None and the game has no ``reward`` method.
        """
        exact_ = flag(exact)
        if reward is None:
            own = reward_function(self.game)
            if own is None:
                raise InvalidArgumentError(
                    f"{type(self.game).__name__} pays no rewards (no reward method): pass "
                    "reward(state, action), or use expected_steps() for the number of steps")
            reward = cast("StepFunction", own)
        return totals.expected_reward(self.graph, self.structure, reward, self._index(state), exact_)

    @overload
    def variance_of_steps(self, count: StepFunction | None = ..., *, state: S | Initial = ...,
                          exact: Literal[True] = ...) -> Fraction: ...
    @overload
    def variance_of_steps(self, count: StepFunction | None = ..., *, state: S | Initial = ...,
                          exact: Literal[False]) -> Bounds: ...
    def variance_of_steps(self, count: StepFunction | None = None, *,
                          state: S | Initial = INITIAL, exact: bool = True) -> Fraction | Bounds:
        """Variance of the counted length of play (see :meth:`expected_steps`).

        Raises
        ------
        InfiniteExpectationError
            Play may never end and keeps counting.
        """
        exact_ = flag(exact)
        return lengths.variance_of_steps(self.graph, self.structure, count, self._index(state), exact_)

    @overload
    def length_distribution(self, n: int, count: StepFunction | None = ..., *,
                            state: S | Initial = ...,
                            exact: Literal[True] = ...) -> LengthDistribution: ...
    @overload
    def length_distribution(self, n: int, count: StepFunction | None = ..., *,
                            state: S | Initial = ...,
                            exact: Literal[False]) -> LengthBounds: ...
    def length_distribution(self, n: int, count: StepFunction | None = None, *,
                            state: S | Initial = INITIAL,
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
        exact_ = flag(exact)
        return lengths.length_distribution(self.graph, self.structure, n, count, self._index(state), exact_)

    @overload
    def outcome_probabilities(self, *, state: S | Initial = ...,
                              exact: Literal[True] = ...) -> dict[Fraction, Fraction]: ...
    @overload
    def outcome_probabilities(self, *, state: S | Initial = ...,
                              exact: Literal[False]) -> dict[Fraction, Bounds]: ...
    def outcome_probabilities(self, *, state: S | Initial = INITIAL, exact: bool = True
                              ) -> dict[Fraction, Fraction] | dict[Fraction, Bounds]:
        """Probability that play ends with each terminal payoff (to player 0).

        Returns
        -------
        dict
            ``{payoff: probability}``, payoffs in decreasing order (``1``: player 0 wins,
            ``1/2``: a draw, ``0``: player 1 wins), only those with positive probability.
            When play may never end the probabilities sum to less than 1.
        """
        exact_ = flag(exact)
        start = self._index(state)
        return outcomes.outcome_probabilities(self.graph, self.structure, self._split, start, exact_)

    @overload
    def reach(self, predicate: Callable[[S], object], *, state: S | Initial = ...,
              exact: Literal[True] = ...) -> Fraction: ...
    @overload
    def reach(self, predicate: Callable[[S], object], *, state: S | Initial = ...,
              exact: Literal[False]) -> Bounds: ...
    def reach(self, predicate: Callable[[S], object], *, state: S | Initial = INITIAL,
              exact: bool = True) -> Fraction | Bounds:
        """Probability that play ever reaches a state where ``predicate(state)`` is true
        (the start state included)."""
        if not callable(predicate):
            raise InvalidArgumentError(f"predicate must be a function of the state, got {show(predicate)}")
        exact_ = flag(exact)
        return outcomes.reach(self.graph, self.structure, predicate, self._index(state), exact_)

    @overload
    def visits(self, target: S, *, state: S | Initial = ..., exact: Literal[True] = ...) -> Fraction: ...
    @overload
    def visits(self, target: S, *, state: S | Initial = ..., exact: Literal[False]) -> Bounds: ...
    def visits(self, target: S, *, state: S | Initial = INITIAL, exact: bool = True) -> Fraction | Bounds:
        """Expected number of visits to ``target`` (the start counts as a visit).

        ``target`` must be a state of the chain (:class:`~tbsg.errors.UnknownStateError`
        otherwise: a state the profile never reaches is visited 0 times).
        """
        j = self._index(target)
        start = self._index(state)
        return totals.visits(self.graph, self.structure, j, start, flag(exact), target)

    def __repr__(self) -> str:
        return (f"<Chain of {show(self.game, 60)}: {self.n_states} states, "
                f"{'stops' if self.stops() else 'may never end'}>")


def chain(game: Game[S, A], strategy: StrategyLike[S, A] | Solution[S, A] | FloatSolution[S, A], *,
          max_states: int = DEFAULT_MAX_STATES, progress: bool | None = None,
          exact: None = None) -> Chain[S, A]:
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
        Progress reports while enumerating (as in :func:`tbsg.solve`).
    exact : None
        Not set here: a chain is built exactly, and each query chooses its arithmetic
        (``chain(game, profile).expected_steps(exact=False)``); any other value is an
        :class:`~tbsg.errors.InvalidArgumentError` that says so.

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
    if exact is not None:
        raise InvalidArgumentError(
            f"chain() takes no exact= (got exact={show(exact, 20)}): the chain itself is exact, and "
            "each query chooses exact or proven float bounds, e.g. chain(game, profile)"
            ".expected_steps(exact=False)")
    t0 = time.perf_counter()
    name = "strategy"
    if isinstance(strategy, Solution | FloatSolution):
        profile: StrategyLike[S, A] = strategy.strategy
        name = "the solution's strategy"
    else:
        profile = strategy
    fixed = FixedStrategyGame(game, profile, (0, 1), name)
    callback, close = make_progress(progress, "enumerating the chain", limit=True)
    try:
        g = compile_game(fixed, max_states=max_states, progress=callback)
    finally:
        close()
    return Chain(game, g, time.perf_counter() - t0)

