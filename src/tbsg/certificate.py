"""Independent re-check of an exact solution: :func:`verify`.

The certificate of a solution is its values ``v`` and strategy profile ``sigma``.
:func:`verify` recompiles the game from the user's object (sharing nothing with the
solve) and checks in exact rational arithmetic (``fractions.Fraction`` only, no float
filter, no optional backend):

(a) *strategy equations*: ``v(s) = Q(s, sigma(s))`` for every state, where
    ``Q(s, a) = sum_t p(t|s,a) r(t) + sum_s' p(s'|s,a) v(s')``;
(b) *no profitable deviation*: ``Q(s, a) <= v(s)`` for every action where player 0
    moves and ``Q(s, a) >= v(s)`` where player 1 moves;
(c) *stopping*: the game has no end component (:func:`tbsg.engine.graph.end_component_states`).

(a) and (b) say ``v = T v`` for the Bellman operator ``T`` and that ``sigma`` attains the
optimum; (c) makes the fixed point of ``T`` unique (Condon 1992, lemma on stopping
games), so ``v`` is the value of the game and ``sigma`` is optimal for both players.

*Infinite play.* A solution of ``solve(game, infinite_play=c)`` (never-ending play worth
``c`` to player 0; the solution records ``c``, or pass ``infinite_play=``) is checked
with (a), (b) and, instead of (c),

(c') *end-component bounds*: ``v(s) >= c`` at every state of an end component of the
     decision process ``G[tau]`` (player 1 fixed to its strategy ``tau``; there player 0
     can keep play going forever), and ``v(s) <= c`` at every state of an end component
     of ``G[sigma]`` (player 0 fixed; there player 1 can).

By the theorem in :mod:`tbsg.engine.infinite` (where (c') is condition (c); the proof is a
supermartingale argument with de Alfaro's end-component theorem), (a), (b), (c') make
``v`` the value of the game with that rule and ``sigma`` optimal for both players, and
they hold for every optimal profile with its values; for a stopping game (c') is empty.
The check needs no solve: the end components come from
:func:`tbsg.engine.graph.end_component_states`, the values are compared in ``Fraction``
arithmetic.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

import numpy as np

from tbsg.engine.compile import DEFAULT_MAX_STATES, CompiledGame, compile_game
from tbsg.engine.graph import end_component_states
from tbsg.engine.infinite import check_infinite_play
from tbsg.errors import NonStoppingGameError, TamperedSolutionError
from tbsg.model import Game
from tbsg.results import Solution

__all__ = ["Verification", "action_values_exact", "verify"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)


@dataclass(frozen=True)
class Verification:
    """What :func:`verify` checked (it raises instead of returning on failure)."""

    states: int
    actions: int
    seconds: float
    infinite_play: Fraction | None = None
    """The payoff of never-ending play the solution was checked with (``None``: stopping)."""

    def __str__(self) -> str:
        last = ("stopping" if self.infinite_play is None else
                f"end-component bounds for infinite play worth {self.infinite_play}")
        return (f"verified: {self.states} states, {self.actions} actions: strategy equations, "
                f"no profitable deviation, {last} ({self.seconds:.3g} s)")


def action_values_exact(g: CompiledGame[S, A], v: list[Fraction]) -> list[Fraction]:
    """``Q(s, a)`` for every flat action of ``g`` given state values ``v``, in Fraction only."""
    target = g.out_target.tolist()
    out_ptr = g.out_ptr.tolist()
    prob = list(g.out_prob)
    const = list(g.act_const)
    q_all: list[Fraction] = []
    for k in range(g.n_actions):
        q = const[k]
        for o in range(out_ptr[k], out_ptr[k + 1]):
            q += prob[o] * v[target[o]]
        q_all.append(q)
    return q_all


def verify(game: Game[S, A], solution: Solution[S, A], *,
           max_states: int = DEFAULT_MAX_STATES,
           infinite_play: Fraction | int | None = None) -> Verification:
    """Re-check ``solution`` against ``game`` from scratch, exactly.

    Parameters
    ----------
    game : Game
    solution : Solution
    max_states : int
    infinite_play : Fraction, int or None
        Payoff to player 0 of never-ending play to check the solution with. ``None``
        (default): the rule the solution records (``solve(..., infinite_play=c)``), if any;
        without one the game must be stopping, (c).

    Raises
    ------
    TamperedSolutionError
        If a value or an action fails (a), (b), (c'), or the states do not match the game.
    NonStoppingGameError
        If (c) fails (no rule for infinite play).

    Examples
    --------
    >>> import tbsg
    >>> from tbsg.games import risk_or_safety
    >>> game = risk_or_safety(3)
    >>> print(tbsg.verify(game, tbsg.solve(game)))  # doctest: +ELLIPSIS
    verified: 36 states, 54 actions: strategy equations, no profitable deviation, stopping ...
    """
    t0 = time.perf_counter()
    c = check_infinite_play(infinite_play if infinite_play is not None
                            else solution.infinite_play)
    g = compile_game(game, max_states=max_states)
    if set(solution.values) != set(g.states) or len(solution.values) != g.n_states:
        raise TamperedSolutionError(
            f"the solution covers {len(solution.values)} states but the game has "
            f"{g.n_states} reachable states")
    vals = solution.values
    strat = solution.strategy
    v: list[Fraction] = []
    for s in g.states:
        x = vals[s]
        if not isinstance(x, Fraction):
            raise TamperedSolutionError(f"value at state {s!r} is {type(x).__name__}, not Fraction")
        v.append(x)
    q_all = action_values_exact(g, v)
    chosen_mask = np.zeros(g.n_actions, dtype=bool)
    for i, s in enumerate(g.states):
        chosen = strat[s]
        k_chosen = g.action_index(i, chosen)
        if k_chosen is None:
            raise TamperedSolutionError(f"strategy plays {chosen!r} at state {s!r}, not a legal action")
        chosen_mask[k_chosen] = True
        maximise = int(g.player[i]) == 0
        for k in g.actions_of(i):
            q = q_all[k]
            if k == k_chosen and q != v[i]:
                raise TamperedSolutionError(
                    f"(a) fails at state {s!r}: value {v[i]} but action {chosen!r} yields {q}")
            if (q > v[i]) if maximise else (q < v[i]):
                raise TamperedSolutionError(
                    f"(b) fails at state {s!r}: action {g.act_labels[k]!r} yields {q}, "
                    f"strictly {'better' if maximise else 'lower'} than the value {v[i]} "
                    f"for player {int(g.player[i])}")
    if c is not None:
        _check_end_component_bounds(g, v, chosen_mask, c)
        return Verification(states=g.n_states, actions=g.n_actions,
                            seconds=time.perf_counter() - t0, infinite_play=c)
    trap = end_component_states(g)
    if trap.any():
        sample = tuple(g.states[int(j)] for j in trap.nonzero()[0][:8])
        raise NonStoppingGameError(
            f"(c) fails: the game is not stopping; e.g. states {sample!r} can be kept in play "
            "forever", sample)
    return Verification(states=g.n_states, actions=g.n_actions, seconds=time.perf_counter() - t0)


def _check_end_component_bounds(g: CompiledGame[S, A], v: list[Fraction],
                                chosen: np.ndarray[Any, np.dtype[np.bool_]], c: Fraction) -> None:
    """(c'): ``v >= c`` on the end components of ``G[tau]``, ``v <= c`` on those of ``G[sigma]``."""
    owner = g.player[g.act_state]
    for fixed in (1, 0):
        free = 1 - fixed
        trap = end_component_states(g, chosen | (owner == free))
        for j in np.flatnonzero(trap).tolist():
            if (v[j] < c) if free == 0 else (v[j] > c):
                raise TamperedSolutionError(
                    f"(c') fails at state {g.states[j]!r}: against player {fixed}'s strategy, "
                    f"player {free} can keep play going forever from there, which is worth "
                    f"{c} to player 0 (infinite_play), but the value is {v[j]}")
