"""Values of a fixed strategy profile as rational functions: sparse state elimination over Q(p).

With every state's action fixed (``sigma``), the values solve the linear system

.. math:: v(s) = c_{\\sigma(s)}(p) + \\sum_{t} p_{\\sigma(s) t}(p)\\, v(t),

whose entries are rational functions of ``p``. The game is stopping (for every ``p`` of
the interval, the graph being the same), so ``I - P_sigma`` is non-singular over Q(p)
and the values are rational functions without a pole in the interval.

The system is solved component by component of the profile's Markov chain, sinks first
(strongly connected components by :func:`scipy.sparse.csgraph.connected_components`, then a
topological order of the condensation), so each component only needs values already
known. Inside a component, *state elimination* (Gaussian elimination in the form
``v = b + P v``, as :mod:`tbsg.engine.exact` does over Q): eliminating state ``i`` with
self-loop ``P_ii`` gives ``v_i = (b_i + sum_{j != i} P_ij v_j) / (1 - P_ii)``, which is
substituted into every row that mentions ``i``; states are eliminated in increasing order
of (row length) x (column length) (Markowitz's rule) and values recovered by back
substitution. The arithmetic is :class:`~tbsg.parametric.rational.RationalFunction`.
"""

from __future__ import annotations

from collections.abc import Sequence
from graphlib import TopologicalSorter
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from tbsg.parametric.compile import ParametricCompiled
from tbsg.parametric.rational import RationalFunction

__all__ = ["action_values", "profile_values"]


def profile_values(pc: ParametricCompiled[Any, Any], choice: Sequence[int]) -> list[RationalFunction]:
    """Values of every state when each state ``i`` plays flat action ``choice[i]``."""
    n = pc.n_states
    src: list[int] = []
    dst: list[int] = []
    for i in range(n):
        k = choice[i]
        for o in range(pc.out_ptr[k], pc.out_ptr[k + 1]):
            src.append(i)
            dst.append(pc.out_target[o])
    adj = sp.csr_matrix((np.ones(len(src), dtype=np.int8), (src, dst)), shape=(n, n))
    ncomp, label = connected_components(adj, directed=True, connection="strong")
    members: list[list[int]] = [[] for _ in range(ncomp)]
    for i, c in enumerate(label.tolist()):
        members[c].append(i)
    deps: dict[int, set[int]] = {c: set() for c in range(ncomp)}
    for a, b in zip(src, dst, strict=True):
        ca, cb = int(label[a]), int(label[b])
        if ca != cb:
            deps[ca].add(cb)
    values: list[RationalFunction | None] = [None] * n
    for c in TopologicalSorter(deps).static_order():  # successors first
        _solve_component(pc, choice, members[c], values)
    return values  # type: ignore[return-value]


def _solve_component(pc: ParametricCompiled[Any, Any], choice: Sequence[int], states: list[int],
                     values: list[RationalFunction | None]) -> None:
    inside = set(states)
    rows: dict[int, dict[int, RationalFunction]] = {}
    rhs: dict[int, RationalFunction] = {}
    for i in states:
        k = choice[i]
        b = pc.const[k]
        row: dict[int, RationalFunction] = {}
        for o in range(pc.out_ptr[k], pc.out_ptr[k + 1]):
            t, pr = pc.out_target[o], pc.out_prob[o]
            if t in inside:
                row[t] = row[t] + pr if t in row else pr
            else:
                v = values[t]
                if v is None:  # pragma: no cover - components are solved successors first
                    raise RuntimeError("internal error: a successor's value is not known yet")
                b = b + pr * v
        rows[i], rhs[i] = row, b
    if len(states) == 1 and states[0] not in rows[states[0]]:
        values[states[0]] = rhs[states[0]]
        return
    cols: dict[int, set[int]] = {i: set() for i in states}
    for i, row in rows.items():
        for j in row:
            cols[j].add(i)
    order: list[int] = []
    eliminated: dict[int, tuple[dict[int, RationalFunction], RationalFunction]] = {}
    left = set(states)
    while left:
        i = min(left, key=lambda s: (len(rows[s]) * len(cols[s]), s))
        left.discard(i)
        row = rows.pop(i)
        b = rhs.pop(i)
        loop = row.pop(i, None)
        cols[i].discard(i)
        if loop is not None:
            scale = 1 / (1 - loop)
            row = {j: q * scale for j, q in row.items()}
            b = b * scale
        for j in row:
            cols[j].discard(i)
        for r in list(cols[i]):
            rrow = rows[r]
            f = rrow.pop(i)
            rhs[r] = rhs[r] + f * b
            for j, q in row.items():
                if j in rrow:
                    rrow[j] = rrow[j] + f * q
                else:
                    rrow[j] = f * q
                    cols[j].add(r)
        del cols[i]
        eliminated[i] = (row, b)
        order.append(i)
    for i in reversed(order):  # back substitution: later-eliminated states are known
        row, v = eliminated[i]
        for j, q in row.items():
            v = v + q * values[j]
        values[i] = v


def action_values(pc: ParametricCompiled[Any, Any], values: Sequence[RationalFunction],
                  k: int) -> RationalFunction:
    """``Q_k(p) = c_k(p) + sum_o p_o(p) v(t_o)``."""
    q = pc.const[k]
    for o in range(pc.out_ptr[k], pc.out_ptr[k + 1]):
        q = q + pc.out_prob[o] * values[pc.out_target[o]]
    return q
