"""Independent re-check of an exact solution: :func:`verify`.

The certificate of a solution is its values ``v`` and strategy profile ``sigma``.
:func:`verify` recompiles the game from the user's object (sharing nothing with the
solve) and checks in exact rational arithmetic (``fractions.Fraction`` only, no float
filter, no optional backend):

(a) *strategy equations*: ``v(s) = Q(s, sigma(s))`` for every state, where
    ``Q(s, a) = sum_t p(t|s,a) r(t) + sum_s' p(s'|s,a) v(s')``;
(b) *no profitable deviation*: ``Q(s, a) <= v(s)`` for every action where player 0
    moves and ``Q(s, a) >= v(s)`` where player 1 moves;
(c) *stopping*: the game has no end component (:func:`tbsg.graph.end_component_states`).

(a) and (b) say ``v = T v`` for the Bellman operator ``T`` and that ``sigma`` attains the
optimum; (c) makes the fixed point of ``T`` unique (Condon 1992, lemma on stopping
games), so ``v`` is the value of the game and ``sigma`` is optimal for both players.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from tbsg.compile import DEFAULT_MAX_STATES, CompiledGame, compile_game
from tbsg.errors import NonStoppingGameError, TamperedSolutionError
from tbsg.game import Game
from tbsg.graph import end_component_states
from tbsg.solution import Solution

__all__ = ["Verification", "action_values_exact", "verify"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)


@dataclass(frozen=True)
class Verification:
    """What :func:`verify` checked (it raises instead of returning on failure)."""

    states: int
    actions: int
    seconds: float

    def __str__(self) -> str:
        return (f"verified: {self.states} states, {self.actions} actions: strategy equations, "
                f"no profitable deviation, stopping ({self.seconds:.3g} s)")


def action_values_exact(g: CompiledGame[S, A], v: list[Fraction]) -> list[Fraction]:
    """``Q(s, a)`` for every flat action of ``g`` given state values ``v``, in Fraction only."""
    target = g.out_target.tolist()
    out_ptr = g.out_ptr.tolist()
    prob = g.out_prob
    q_all: list[Fraction] = []
    for k in range(g.n_actions):
        q = g.act_const[k]
        for o in range(out_ptr[k], out_ptr[k + 1]):
            q += prob[o] * v[target[o]]
        q_all.append(q)
    return q_all


def verify(game: Game[S, A], solution: Solution[S, A], *,
           max_states: int = DEFAULT_MAX_STATES) -> Verification:
    """Re-check ``solution`` against ``game`` from scratch, exactly.

    Raises
    ------
    TamperedSolutionError
        If a value or an action fails (a), (b), or the states do not match the game.
    NonStoppingGameError
        If (c) fails.

    Examples
    --------
    >>> import tbsg
    >>> from tbsg.games import risk_or_safety
    >>> game = risk_or_safety(3)
    >>> print(tbsg.verify(game, tbsg.solve(game)))  # doctest: +ELLIPSIS
    verified: 36 states, 54 actions: strategy equations, no profitable deviation, stopping ...
    """
    t0 = time.perf_counter()
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
    for i, s in enumerate(g.states):
        chosen = strat[s]
        k_chosen = g.action_index(i, chosen)
        if k_chosen is None:
            raise TamperedSolutionError(f"strategy plays {chosen!r} at state {s!r}, not a legal action")
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
    trap = end_component_states(g)
    if trap.any():
        sample = tuple(g.states[int(j)] for j in trap.nonzero()[0][:8])
        raise NonStoppingGameError(
            f"(c) fails: the game is not stopping; e.g. states {sample!r} can be kept in play "
            "forever", sample)
    return Verification(states=g.n_states, actions=g.n_actions, seconds=time.perf_counter() - t0)
