"""Exact solutions: what :func:`tbsg.solve`, :func:`tbsg.evaluate` and
:func:`tbsg.best_response` return with ``exact=True``.

A :class:`Solution` holds the compiled state graph, every state's exact value, the
strategy the solver chose and the mask of every exactly optimal action, and answers the
queries of :mod:`tbsg.results.query` from them. :class:`_Base` is what it shares with
:class:`~tbsg.results.floating.FloatSolution`: the graph, the kind, the state lookup,
the strategy, the provenance.

Every solution records what it is in :attr:`~Solution.kind` (a
:class:`~tbsg.results.kind.SolutionKind`): the optimal play of both players, a fixed
profile or one player's best response to the other's fixed strategy. The players who
optimise are :attr:`~Solution.optimizing`; the others play the solution's strategy
(their only "optimal" action is that one), and :func:`tbsg.verify` checks the
certificate of that kind. ``method`` is prose for readers; code reads ``kind``.

Values are stored in the exact backend's type (gmpy2's ``mpq`` when installed) and
handed out as ``fractions.Fraction``: users never receive a backend number.

Examples
--------
>>> import tbsg
>>> from tbsg.games import risk_or_safety
>>> sol = tbsg.solve(risk_or_safety(3))
>>> s = (0, 1, 0, 0)                          # one open point, player 0 to move
>>> sol.optimal_actions(s), sol.action_values(s)
(('stop',), {'toss': Fraction(61, 99), 'stop': Fraction(7, 11)})
>>> t = (1, 1, 0, 0)                          # the same position, player 1 to move
>>> sol.action_values(t)                      # player 0's view: player 1 minimises it
{'toss': Fraction(38, 99), 'stop': Fraction(4, 11)}
>>> sol.action_values_to_move(t)              # her view, 1 - the above
{'toss': Fraction(61, 99), 'stop': Fraction(7, 11)}
"""

from __future__ import annotations

import platform
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, TypeVar

import numpy as np
import numpy.typing as npt

from tbsg._util.digits import shown_value
from tbsg._version import __version__
from tbsg.engine import _backend as bk
from tbsg.engine._backend import Rational
from tbsg.engine.bellman import exact_action_values
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.fingerprint import graph_hash
from tbsg.engine.tiebreak import TieBreak, tie_break, tied_states
from tbsg.errors import show
from tbsg.model.steps import StepFunction
from tbsg.results.html import exact_html, exact_markdown
from tbsg.results.kind import SolutionKind
from tbsg.results.provenance import Checked, Provenance, certificate_line, describe_game
from tbsg.results.query import INITIAL, Initial, check_player
from tbsg.results.views import ExactValues, FractionValues, OnGraph, StateMap

__all__ = ["Solution"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)


@dataclass(frozen=True, eq=False)
class _Base(OnGraph[S, A]):
    """What exact and float solutions share: the graph, the kind, the state lookup, the
    strategy and the provenance (the queries of :mod:`tbsg.results.query`)."""

    graph: CompiledGame[S, A]
    method: str
    seconds: float
    n_components: int
    largest_component: int
    game: object = field(default=None, kw_only=True, repr=False)
    """The game object that was solved (``None`` when built without one)."""
    infinite_play: Fraction | None = field(default=None, kw_only=True)
    """Payoff to player 0 of never-ending play the solution was computed with; ``None``:
    the game had to stop (see ``tbsg.solve(..., infinite_play=)``)."""
    optimizing: tuple[int, ...] = field(default=(0, 1), kw_only=True)
    """The players who optimise: ``(0, 1)`` for :func:`tbsg.solve`, ``()`` for
    :func:`tbsg.evaluate`, ``(p,)`` for :func:`tbsg.best_response` of player ``p``."""

    @property
    def win_probability(self) -> bool:
        """Whether the game is a win-probability game: every reward 0 and every terminal
        payoff, and ``infinite_play``, in [0, 1] (:mod:`tbsg.model.protocol`). Values are
        then probabilities of winning (draws counting half) and player 1's view is
        ``1 - v``; otherwise they are expected payoffs and player 1's view is ``-v``."""
        c = self.infinite_play
        return self.graph.win_probability and (c is None or 0 <= c <= 1)

    @property
    def constant_sum(self) -> Fraction:
        """``c`` of player 1's view ``c - v``: 1 for a win-probability game, else 0."""
        return Fraction(1) if self.win_probability else Fraction(0)

    @property
    def kind(self) -> SolutionKind:
        """What the solution is: ``"solve"``, ``"evaluate"`` or ``"best_response"``."""
        return SolutionKind.of(self.optimizing)

    def _unknown(self, state: object) -> str:
        where = "from the initial state"
        if self.optimizing != (0, 1):  # evaluate / best_response build what they reach
            where = ("under the fixed strategy from the initial state (reach=\"game\" covers "
                     "every state of the game)")
        return (f"state {show(state)} is not reachable {where} "
                f"{show(self.graph.states[0])} (the solution covers {self.n_states} states)")

    def _fixed_at(self, i: int) -> bool:
        """Whether the mover at state ``i`` plays the solution's strategy without optimising."""
        return int(self.graph.player[i]) not in self.optimizing

    @cached_property
    def _graph_sha256(self) -> str:
        return graph_hash(self.graph)

    def _provenance(self, value: str, arithmetic: str, certificate: str | None, *,
                    tol: float | None = None, max_gap: float | None = None,
                    converged: bool | None = None) -> Provenance:
        g = self.graph
        game = self.game
        return Provenance(
            tbsg_version=__version__, python_version=platform.python_version(), arithmetic=arithmetic,
            game="" if game is None else describe_game(game),
            game_type="" if game is None else f"{type(game).__module__}.{type(game).__qualname__}",
            kind=self.kind, method=self.method, value=value, states=g.n_states, actions=g.n_actions,
            outcomes=len(g.out_target), components=self.n_components,
            largest_component=self.largest_component, graph_sha256=self._graph_sha256,
            seconds=self.seconds, infinite_play=self.infinite_play, certificate=certificate,
            tol=tol, max_gap=max_gap, converged=converged, win_probability=self.win_probability)


@dataclass(frozen=True, eq=False)
class Solution(_Base[S, A]):
    """Exact solution: values as Fractions, the chosen strategy and every optimal action.

    It answers the queries of :mod:`tbsg.results.query` (values to player 0 unless
    ``player=`` or ``_to_move`` says otherwise) as :class:`~tbsg.results.floating.FloatSolution`
    does, so code written for one runs on the other.

    Attributes
    ----------
    method : str
        How it was computed.
    seconds : float
        Wall time of the solve (compilation included).
    n_components, largest_component : int
        Strongly connected components of the state graph and the size of the largest.
    values_exact : sequence of Fraction
        The value of every state, in the order of :attr:`states` (a read-only view:
        ``list(solution.values_exact)`` copies it).
    improvements : int
        Strategy switches made by exact strategy iteration.
    exact_solves : int
        Exact linear systems solved.

    Examples
    --------
    >>> import tbsg
    >>> from tbsg.games import risk_or_safety
    >>> sol = tbsg.solve(risk_or_safety(3))
    >>> sol.value(), sol.bounds(), sol.optimal_actions_certain()
    (Fraction(6, 11), (Fraction(6, 11), Fraction(6, 11)), True)
    >>> type(sol.values_exact[0]).__name__    # whatever the arithmetic backend
    'Fraction'
    """

    values_exact: Sequence[Fraction]
    if not TYPE_CHECKING:  # stored as given (backend values), read as Fractions
        values_exact = ExactValues()
    choice: npt.NDArray[np.int64]
    optimal: npt.NDArray[np.bool_]
    improvements: int
    exact_solves: int

    exact = True

    @property
    def _raw_values(self) -> Sequence[Rational]:
        """The stored values, in the backend's type (for the library's own fast paths)."""
        raw: Sequence[Rational] = self.__dict__["_values_exact"]
        return raw

    @property
    def values_stored(self) -> int:
        """How many states' exact values the solution stores: every state's, or (with
        ``keep_values="boundary"``, see :func:`tbsg.solve`) those other components read,
        the others being recomputed, exactly, when asked for."""
        n_kept: int = getattr(self._raw_values, "n_kept", len(self._raw_values))
        return n_kept

    def _choice(self) -> npt.NDArray[np.int64]:
        return self.choice

    def _fraction(self, i: int) -> Fraction:
        return bk.to_fraction(self._raw_values[i])

    def value(self, state: S | Initial = INITIAL, *, player: int = 0) -> Fraction:
        """Exact value of ``state`` (initial by default) to ``player`` (0 by default)."""
        v = self._fraction(self._index(state))
        return v if check_player(player) == 0 else self.constant_sum - v

    def value_to_move(self, state: S | Initial = INITIAL) -> Fraction:
        """Value of ``state`` to the player who moves there."""
        i = self._index(state)
        v = self._fraction(i)
        return v if int(self.graph.player[i]) == 0 else self.constant_sum - v

    def bounds(self, state: S | Initial = INITIAL, *, player: int = 0) -> tuple[Fraction, Fraction]:
        """``(v, v)`` for the exact value ``v``: the float solution's bounds, collapsed."""
        v = self.value(state, player=player)
        return v, v

    def action(self, state: S | Initial = INITIAL) -> A:
        """The action the solution's strategy plays at ``state``: the first optimal one in
        the game's order in a stopping game (the tie rule of :mod:`tbsg.results.query`)."""
        return super().action(state)

    def tied_states(self) -> int:
        """How many decision states have more than one exactly optimal action.

        Where it is not 0, play statistics (:func:`tbsg.chain`) depend on which optimal
        action is played: the profile follows the tie rule of :mod:`tbsg.results.query`,
        and :meth:`fastest` and :meth:`slowest` bound the lengths over all optimal profiles.
        """
        return tied_states(self.graph, self.optimal)

    def optimal_actions(self, state: S | Initial = INITIAL) -> tuple[A, ...]:
        """Every action that is exactly optimal at ``state`` (exact ties included), in the
        game's order; the played action alone where the mover does not optimise."""
        return self._optimal_at(self._index(state))

    def _optimal_at(self, i: int) -> tuple[A, ...]:
        labels, optimal = self.graph.act_labels, self.optimal
        return tuple(labels[k] for k in self.graph.actions_of(i) if optimal[k])

    def optimal_actions_certain(self, state: S | Initial = INITIAL) -> bool:
        """Always ``True``: an exact solution knows its optimal actions, ties included."""
        self._index(state)
        return True

    def action_values(self, state: S | Initial = INITIAL, *, player: int = 0) -> dict[A, Fraction]:
        """Exact value to ``player`` (0 by default) of each action at ``state``: play it,
        then both play the solution's strategy (a fresh dict, in the game's order)."""
        i = self._index(state)
        return self._action_values_at(i, check_player(player))

    def action_values_to_move(self, state: S | Initial = INITIAL) -> dict[A, Fraction]:
        """Exact value of each action at ``state`` to the player who moves there (as
        :meth:`action_values`)."""
        i = self._index(state)
        return self._action_values_at(i, int(self.graph.player[i]))

    def _action_values_at(self, i: int, who: int) -> dict[A, Fraction]:
        g = self.graph
        ks = g.actions_of(i)
        q = exact_action_values(g, FractionValues(self._raw_values), ks)
        c = self.constant_sum
        return {g.act_labels[k]: (x if who == 0 else c - x) for k, x in zip(ks, q, strict=True)}

    def action_bounds(self, state: S | Initial = INITIAL, *,
                      player: int = 0) -> dict[A, tuple[Fraction, Fraction]]:
        """``{action: (q, q)}`` for the exact action values ``q`` (as a float solution's)."""
        return {a: (q, q) for a, q in self.action_values(state, player=player).items()}

    @property
    def values(self) -> Mapping[S, Fraction]:
        """Mapping from every non-terminal state to its exact value to player 0."""
        return StateMap(self.graph, self._fraction, "values")

    @property
    def values_bounds(self) -> Mapping[S, tuple[Fraction, Fraction]]:
        """Mapping from every non-terminal state to ``(v, v)`` (as a float solution's bounds)."""
        def both(i: int) -> tuple[Fraction, Fraction]:
            v = self._fraction(i)
            return v, v
        return StateMap(self.graph, both, "value bounds")

    def fastest(self, count: StepFunction | None = None) -> TieBreak[S, A]:
        """Among the optimal profiles, one that ends play soonest in expectation.

        Both players keep to exactly optimal actions (:meth:`optimal_actions`) at every
        state and, as a secondary goal, cooperate to minimise the expected counted length
        of play (:mod:`tbsg.engine.tiebreak`; it needs the exact ties only an exact solution has).

        Parameters
        ----------
        count : callable or None
            ``count(state, action)``: what a step counts (an int or Fraction >= 0), e.g.
            1 per coin toss; ``None`` (default): 1 per move.

        Returns
        -------
        TieBreak
            The profile, its expected length and its (checked) value.

        Examples
        --------
        >>> import tbsg
        >>> from tbsg.games import risk_or_safety
        >>> sol = tbsg.solve(risk_or_safety(2))
        >>> sol.fastest().expected, sol.slowest().expected
        (Fraction(6, 1), Fraction(6, 1))
        """
        return tie_break(self.graph, self.optimal, self._raw_values, count, "fastest", self.optimizing)

    def slowest(self, count: StepFunction | None = None) -> TieBreak[S, A]:
        """Among the optimal profiles, one that makes play last longest in expectation
        (as :meth:`fastest`, maximising)."""
        return tie_break(self.graph, self.optimal, self._raw_values, count, "slowest", self.optimizing)

    def provenance(self, verification: Checked | None = None) -> Provenance:
        """The lines a methods section needs: version, method, sizes, graph hash, certificate.

        Parameters
        ----------
        verification : tbsg.Verification, optional
            The result of ``tbsg.verify(game, solution)`` for this solution, reported as
            the certificate's status. Nothing is verified here: without it the
            certificate is reported as not re-checked.

        Raises
        ------
        InvalidArgumentError
            If ``verification`` is of another solution: other counts, kind or rule for
            infinite play, or other values, actions or state graph (a verification records
            the SHA-256 of the solution it checked, :attr:`tbsg.Verification.solution_sha256`;
            a solution changed after it was verified is another solution).

        Examples
        --------
        >>> import tbsg
        >>> from tbsg.games import risk_or_safety
        >>> game = risk_or_safety(3)
        >>> sol = tbsg.solve(game)
        >>> print(sol.provenance(tbsg.verify(game, sol)))  # doctest: +ELLIPSIS
        tbsg ... (Python ...); arithmetic: exact rationals (...)
        game: RiskOrSafety(target=3) (tbsg.games.risk_or_safety.RiskOrSafety)
        solution: solve; exact strategy iteration (Hoffman-Karp) per SCC
        value to player 0 at the initial state: 6/11 ≈ 0.545454545455
        state graph: 36 states, 54 actions, 72 outcomes; 9 strongly connected components (largest 6)
        graph hash: sha256 ...
        certificate: verified: 36 states, 54 actions: strategy equations, ...
        time: ... s
        """
        certificate = None if verification is None else certificate_line(self, verification)
        library = "gmpy2" if bk.BACKEND == "gmpy2" else "fractions.Fraction"
        return self._provenance(shown_value(self.value()), f"exact rationals ({library})", certificate)

    def __repr__(self) -> str:
        return (f"Solution(value={shown_value(self.value())}, exact, states={self.n_states}, "
                f"components={self.n_components}, largest={self.largest_component}, "
                f"method={self.method!r}, seconds={self.seconds:.3g})")

    def _repr_markdown_(self) -> str:
        return exact_markdown(self, self.value())

    def _repr_html_(self) -> str:
        return exact_html(self, self.value())
