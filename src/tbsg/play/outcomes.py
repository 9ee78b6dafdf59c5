"""How play ends and what it reaches: the profile's value, the split of the terminal
payoffs, and the probability of reaching a set of states.

* The *value* of a state is the expected total payoff to player 0, the game's rewards
  along play plus the terminal payoff: ``x = c + P x`` with ``c`` the reward of each step
  plus the expected payoff of ending there (``act_const``, :mod:`tbsg.play.system`). Play
  trapped in a closed class never ends; it is worth ``infinite_play`` (given) if the
  game's rewards are 0 throughout the class (else the total diverges:
  :class:`~tbsg.errors.InfiniteExpectationError`), and without ``infinite_play`` a start
  from which a trap is reachable has no value (:class:`~tbsg.errors.NonStoppingGameError`).
* The *outcome probabilities* split that total by payoff: for each terminal payoff
  ``r``, ``x = e_r + P x`` with ``e_r`` the probability of ending now with ``r``. The
  compiled chain keeps only the sums over terminals, so the game is asked again for the
  states whose action can end play (:func:`terminal_split`), and the answer is checked
  against those sums (``act_const`` less the step's reward, ``act_reward``).
* The probability of *reaching* a set ``T`` solves ``x = P x`` with ``x = 1`` on ``T``
  and on the closed classes that meet it, ``x = 0`` on the other closed classes.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any, TypeVar

import numpy as np

from tbsg.engine import _backend as bk
from tbsg.engine._backend import Rational
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.markov import ChainStructure, solve_chain
from tbsg.errors import InvalidArgumentError, InvalidGameError, NonStoppingGameError, show
from tbsg.model.protocol import Game, Terminal, exact
from tbsg.play.system import (
    Bounds,
    exact_total,
    float_total,
    probability,
    reach_probability,
    target_values,
)

__all__ = ["never_ends", "outcome_probabilities", "reach", "terminal_split", "value_vector"]

S = TypeVar("S", bound=Hashable)


def value_vector(graph: CompiledGame[Any, Any], st: ChainStructure, worth: Fraction | None) -> list[Rational]:
    """Every state's value to player 0, in the backend's type; trapped play is worth
    ``worth`` (``None``: 0, for the states that cannot reach a trap)."""
    trapped = np.flatnonzero(st.trapped).tolist()
    given = dict.fromkeys(trapped, bk.ZERO if worth is None else bk.from_fraction(worth))
    b = [bk.from_fraction(x) for x in graph.act_const]
    return solve_chain(graph, st.comps, b, given)


def never_ends(graph: CompiledGame[Any, Any], st: ChainStructure) -> NonStoppingGameError:
    """The error of a value asked where play may never end and it is not given a payoff."""
    trapped = np.flatnonzero(st.trapped).tolist()
    sample = tuple(graph.states[i] for i in trapped[:8])
    return NonStoppingGameError(
        f"under this profile play may never end: it can reach {len(trapped)} state(s) it "
        f"never leaves, e.g. {show(sample[0])}; give never-ending play a payoff with "
        "infinite_play=", sample)


def terminal_split(game: Game[Any, Any], graph: CompiledGame[Any, Any]) -> list[dict[Fraction, Fraction]]:
    """Per state, the probability of ending now with each terminal payoff (module docstring)."""
    out: list[dict[Fraction, Fraction]] = [{} for _ in range(graph.n_states)]
    for i in np.flatnonzero(graph.stop_mask()[graph.act_ptr[:-1]]).tolist():
        out[i] = _split_at(game, graph, i)
    return out


def _split_at(game: Game[Any, Any], graph: CompiledGame[Any, Any], i: int) -> dict[Fraction, Fraction]:
    k = int(graph.act_ptr[i])
    s, a = graph.states[i], graph.act_labels[k]
    split: dict[Fraction, Fraction] = {}
    for p, nxt in game.outcomes(s, a):
        if isinstance(nxt, Terminal):
            q = exact(p, f"probability at state {show(s)}, action {show(a)}")
            split[nxt.payoff] = split.get(nxt.payoff, Fraction(0)) + q
    split = {r: q for r, q in split.items() if q}
    if sum(split.values(), Fraction(0)) != graph.act_stop[k] or \
            sum((r * q for r, q in split.items()), Fraction(0)) != graph.act_const[k] - graph.act_reward[k]:
        raise InvalidGameError(
            f"outcomes({show(s)}, {show(a)}) returned different terminals than when the "
            "game was enumerated: outcomes must be a function of the state and action")
    return split


def outcome_probabilities(graph: CompiledGame[Any, Any], st: ChainStructure,
                          split: list[dict[Fraction, Fraction]], start: int,
                          exact: bool) -> dict[Fraction, Fraction] | dict[Fraction, Bounds]:
    """``{payoff: probability}`` of ending with each terminal payoff from ``start``, payoffs
    in decreasing order, only those with positive probability (module docstring)."""
    zero = Fraction(0)
    # the right-hand side of each payoff, built in one pass over the states that can end
    columns: dict[Fraction, list[Fraction]] = {}
    for i, d in enumerate(split):
        for r, q in d.items():
            if r not in columns:
                columns[r] = [zero] * len(split)
            columns[r][i] = q
    given = np.flatnonzero(st.trapped).tolist()
    out_e: dict[Fraction, Fraction] = {}
    out_f: dict[Fraction, Bounds] = {}
    for r in sorted(columns, reverse=True):
        b = columns[r]
        if exact:
            p = exact_total(graph, st, b, given, start)
            if p:
                out_e[r] = p
        else:
            lo, hi = float_total(graph, b, dict.fromkeys(given, Fraction(0)), start, st)
            if hi > 0:
                out_f[r] = probability(lo, hi)
    return out_e if exact else out_f


def reach(graph: CompiledGame[S, Any], st: ChainStructure, predicate: Callable[[S], object],
          start: int, exact: bool) -> Fraction | Bounds:
    """The probability that play from ``start`` ever reaches a state where ``predicate`` holds."""
    if not callable(predicate):
        raise InvalidArgumentError(f"predicate must be a function of the state, got {show(predicate)}")
    targets = []
    for i, s in enumerate(graph.states):
        try:
            hit = bool(predicate(s))
        except Exception as exc:
            raise InvalidArgumentError(
                f"predicate raised {type(exc).__name__} at state {show(s)}: {exc}") from exc
        if hit:
            targets.append(i)
    if exact:
        return reach_probability(graph, st, targets, start)
    given: dict[int, Fraction] = target_values(st, targets, Fraction(1), Fraction(0))
    return probability(*float_total(graph, [Fraction(0)] * graph.n_states, given, start, st))
