"""Values of a fixed strategy profile as rational functions: sparse state elimination over Q(p).

With every state's action fixed (``sigma``), the values solve the linear system

.. math:: v(s) = c_{\\sigma(s)}(p) + \\sum_{t} p_{\\sigma(s) t}(p)\\, v(t),

whose entries are rational functions of ``p``. The game is stopping (for every ``p`` of
the interval, the graph being the same), so ``I - P_sigma`` is non-singular over Q(p)
and the values are rational functions without a pole in the interval.

The system is solved component by component of the profile's Markov chain, sinks first
(:func:`tbsg.engine.graph.decompose_edges` on the profile's edges), so each component only
needs values already known; inside a component by the engine's exact state elimination
(:func:`tbsg.engine.linalg.solve_block`: the same elimination as over Q, here over the
field of :class:`~tbsg.parametric.rational.RationalFunction`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tbsg.engine.graph import decompose_edges
from tbsg.engine.linalg import F, solve_block
from tbsg.parametric.compile import ParametricCompiled
from tbsg.parametric.rational import RationalFunction, sum_of_products

__all__ = ["action_gain", "action_values", "profile_values"]


def profile_values(pc: ParametricCompiled[Any, Any], choice: Sequence[int]) -> list[RationalFunction]:
    """Values of every state when each state ``i`` plays flat action ``choice[i]``."""
    return _profile_values(pc.n_states, choice, pc.const, pc.out_ptr, pc.out_target, pc.out_prob)


def _profile_values(n: int, choice: Sequence[int], const: Sequence[F], out_ptr: Sequence[int],
                    target: Sequence[int], prob: Sequence[F]) -> list[F]:
    """:func:`profile_values` over any field (the benchmarks run it on sympy's ``QQ(p)``)."""
    deg = [out_ptr[choice[i] + 1] - out_ptr[choice[i]] for i in range(n)]
    dst = [target[o] for i in range(n) for o in range(out_ptr[choice[i]], out_ptr[choice[i] + 1])]
    src = np.repeat(np.arange(n, dtype=np.int64), deg)
    comps = decompose_edges(n, src, np.array(dst, dtype=np.int64))
    values = [const[k] for k in choice]  # each state's entry is set when its component is solved
    ptr: list[int] = comps.ptr.tolist()
    members: list[int] = comps.members.tolist()
    for c in range(comps.count):
        solve_block(members[ptr[c] : ptr[c + 1]], choice, const, values, out_ptr, target, prob)
    return values


def action_values(pc: ParametricCompiled[Any, Any], values: Sequence[RationalFunction],
                  k: int) -> RationalFunction:
    """``Q_k(p) = c_k(p) + sum_o p_o(p) v(t_o)`` (reduced once: :func:`sum_of_products`)."""
    return sum_of_products(pc.const[k], _terms(pc, values, k))


def action_gain(pc: ParametricCompiled[Any, Any], values: Sequence[RationalFunction],
                k: int) -> RationalFunction:
    """``Q_k(p) - v(s)`` at the state ``s`` of action ``k`` (reduced once)."""
    terms = _terms(pc, values, k)
    terms.append((_MINUS_ONE, values[pc.act_state[k]]))
    return sum_of_products(pc.const[k], terms)


def _terms(pc: ParametricCompiled[Any, Any], values: Sequence[RationalFunction],
           k: int) -> list[tuple[RationalFunction, RationalFunction]]:
    return [(pc.out_prob[o], values[pc.out_target[o]]) for o in range(pc.out_ptr[k], pc.out_ptr[k + 1])]


_MINUS_ONE = RationalFunction.constant(-1)
