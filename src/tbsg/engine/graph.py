"""Graph analysis of a compiled game: strongly connected components and end components.

*Components.* The state graph has an edge ``i -> j`` when some action of ``i`` reaches
``j`` with positive probability. Its strongly connected components (SCCs), computed by
:func:`scipy.sparse.csgraph.connected_components`, are ordered so that every component
comes after all components it can reach (Kahn's algorithm on the condensation, sinks
first). Solving components in that order means each one only needs values already
known: the decomposition used by Glenn, Fang and Kruskal's retrograde analysis of
Can't Stop (2008) and by Jehn's proof for Risk or Safety (seed 000, section 2).
Each component also gets a *level*: 0 for components that reach no other component,
else one more than the largest level they reach; components of one level are independent
and can be processed together.

*End components.* An end component (de Alfaro 1997) is a set ``E`` of non-terminal states
with, for each state, a non-empty set of actions whose outcomes all stay in ``E`` (no
terminal mass), such that ``E`` is strongly connected under those actions. If one exists,
the two players can cooperate to keep play in ``E`` forever, the Bellman equations have
many fixed points and no value is well defined without a rule for infinite play. The
game is *stopping* iff no end component exists. The maximal end components are found by
the classical refinement (Courcoubetis and Yannakakis 1995; Chatterjee and Henzinger
2011): repeatedly remove actions that can leave their SCC and states left without
actions, recomputing SCCs, until nothing changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from tbsg.engine.compile import CompiledGame

__all__ = ["Components", "decompose", "end_component_states"]

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class Components:
    """SCC decomposition in solving order.

    Attributes
    ----------
    label : ndarray
        Component number of each state; numbers follow solving order (0 is solved first).
    ptr, members : ndarray
        States of component ``c`` are ``members[ptr[c]:ptr[c+1]]``.
    level : ndarray
        Level of each component (see module docstring).
    """

    label: IntArray
    ptr: IntArray
    members: IntArray
    level: IntArray

    @property
    def count(self) -> int:
        """Number of components."""
        return len(self.ptr) - 1

    @property
    def largest(self) -> int:
        """Size of the largest component."""
        return int(np.max(np.diff(self.ptr))) if self.count else 0

    def states_of(self, c: int) -> IntArray:
        """States of component ``c``."""
        return self.members[self.ptr[c] : self.ptr[c + 1]]


def _adjacency(n: int, src: IntArray, dst: IntArray) -> sp.csr_matrix:
    """State graph with an edge ``src[e] -> dst[e]`` per outcome; ``src`` non-decreasing.

    Outcomes are grouped by action and actions by state, so the edge list is already in
    row order: the CSR arrays are built directly, without sorting (repeated edges are
    harmless to the component algorithms).
    """
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=indptr[1:])
    return sp.csr_matrix((np.ones(len(dst), dtype=np.int8), dst, indptr), shape=(n, n))


def _group_by(keys: IntArray, values: IntArray, n_keys: int) -> tuple[IntArray, IntArray]:
    """``values`` grouped by ``keys`` in ``0 .. n_keys-1``, stably: ``(ptr, grouped)`` with
    the values of key ``k`` at ``grouped[ptr[k]:ptr[k+1]]`` in their original order.

    A counting sort in C, done as the CSR-to-CSC conversion of the matrix with one entry
    per value (row = position, column = key, data = value + 1, so no entry is zero).
    """
    m = len(keys)
    by_pos = sp.csr_matrix((values + 1, keys, np.arange(m + 1)), shape=(m, n_keys))
    by_key = by_pos.tocsc()
    return by_key.indptr.astype(np.int64), by_key.data.astype(np.int64) - 1


def _distinct(x: IntArray) -> IntArray:
    """Sorted distinct values of ``x`` (sort-based: faster than hashing here)."""
    y = np.sort(x)
    if len(y) > 1:
        y = y[np.concatenate(([True], y[1:] != y[:-1]))]
    return y


def decompose(g: CompiledGame[Any, Any]) -> Components:
    """Strongly connected components of ``g`` in solving order (sinks first).

    The levels come from Kahn's algorithm on the condensation, run one level at a time
    with array operations: the components whose successors all have levels below ``L``
    form level ``L``.
    """
    n = g.n_states
    src = g.out_source()
    dst = g.out_target
    ncomp, raw = connected_components(_adjacency(n, src, dst), directed=True, connection="strong")
    raw = raw.astype(np.int64)
    # Condensation edges, with repeats: counted consistently, they need no deduplication.
    rs, rd = raw[src], raw[dst]
    cross = rs != rd
    cs, cd = rs[cross], rd[cross]
    remaining = np.bincount(cs, minlength=ncomp)  # edges to components without a level yet
    pred_ptr, pred = _group_by(cd, cs, ncomp)  # predecessors of each component
    level = np.full(ncomp, -1, dtype=np.int64)
    frontier = np.flatnonzero(remaining == 0)
    parts: list[IntArray] = []
    lev = 0
    while len(frontier):
        level[frontier] = lev
        parts.append(frontier)
        starts = pred_ptr[frontier]
        cnt = pred_ptr[frontier + 1] - starts
        idx = np.repeat(starts - np.cumsum(cnt) + cnt, cnt) + np.arange(int(cnt.sum()))
        p = np.sort(pred[idx])
        if len(p) == 0:
            break
        first = np.flatnonzero(np.concatenate(([True], p[1:] != p[:-1])))
        touched = p[first]
        remaining[touched] -= np.diff(np.append(first, len(p)))
        frontier = touched[remaining[touched] == 0]
        lev += 1
    order_arr = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    if len(order_arr) != ncomp:  # pragma: no cover - condensation is always acyclic
        raise RuntimeError("internal error: condensation is not acyclic")
    # renumber components by level (then component number) so solving order is 0, 1, ...
    new_id = np.empty(ncomp, dtype=np.int64)
    new_id[order_arr] = np.arange(ncomp, dtype=np.int64)
    label = new_id[raw]
    ptr, members = _group_by(label, np.arange(n, dtype=np.int64), ncomp)
    return Components(label=label, ptr=ptr, members=members, level=level[order_arr])


def end_component_states(
    g: CompiledGame[Any, Any], allowed: npt.NDArray[np.bool_] | None = None, *,
    scc: IntArray | None = None,
) -> npt.NDArray[np.bool_]:
    """Mask of states in some end component (all False iff the game is stopping).

    ``allowed`` (a mask over flat actions) restricts the actions considered, e.g. to the
    actions of a fixed strategy. ``scc`` may give the strongly connected components of
    the whole state graph (``decompose(g).label``), which saves the first round's
    component computation: every end component lies inside one of them.

    Notes
    -----
    The refinement of the module docstring, organised so that its cost does not grow with
    the length of chains: each round computes the SCCs of the surviving actions once,
    removes the actions that leave their SCC, and then propagates removals backwards with
    a worklist (a state without actions dies; every action that can reach a dead state
    dies), which is the attractor computation of Chatterjee and Henzinger (2011). Rounds
    repeat only while SCCs split further.
    """
    n = g.n_states
    oa = g.out_action()
    src = g.out_source()
    tgt = g.out_target
    alive_act = ~g.stop_mask() if allowed is None else (~g.stop_mask() & allowed)
    alive_state = np.ones(n, dtype=bool)
    # reverse adjacency: the action of each outcome entering each state, grouped by target
    # (the CSC form of the outcome-by-target matrix: a counting sort in C)
    in_ptr, in_act = _group_by(tgt, oa, n)
    n_alive = np.bincount(g.act_state[alive_act], minlength=n)  # surviving actions per state
    frontier = np.flatnonzero(n_alive == 0)
    while True:
        while len(frontier):  # backward propagation of deaths (worklist, level by level)
            alive_state[frontier] = False
            starts, ends = in_ptr[frontier], in_ptr[frontier + 1]
            cnt = ends - starts
            idx = np.repeat(starts - np.cumsum(cnt) + cnt, cnt) + np.arange(int(cnt.sum()))
            cand = in_act[idx]
            frontier = _kill(g.act_state, _distinct(cand[alive_act[cand]]), alive_act, alive_state,
                             n_alive)
        keep = alive_act[oa]
        if not keep.any():
            return alive_state
        coarse = scc is not None
        if scc is not None:  # first round: the components of the whole graph
            label, scc = scc, None
        else:
            _, label = connected_components(_adjacency(n, src[keep], tgt[keep]), directed=True,
                                            connection="strong")
        leave = keep & (label[tgt] != label[src])
        if not leave.any():
            if coarse:  # coarser than the surviving graph's components: refine them
                frontier = np.zeros(0, dtype=np.int64)
                continue
            return alive_state
        frontier = _kill(g.act_state, _distinct(oa[leave]), alive_act, alive_state, n_alive)


def _kill(act_state: IntArray, acts: IntArray, alive_act: npt.NDArray[np.bool_],
          alive_state: npt.NDArray[np.bool_], n_alive: IntArray) -> IntArray:
    """Remove the (alive, distinct) actions ``acts``; return the states left without any."""
    alive_act[acts] = False
    st = act_state[acts]  # non-decreasing: acts is sorted and actions are grouped by state
    first = np.concatenate(([True], st[1:] != st[:-1])) if len(st) else np.zeros(0, dtype=bool)
    starts = np.flatnonzero(first)
    cnt = np.diff(np.append(starts, len(st)))
    st = st[starts]
    n_alive[st] -= cnt
    dead: IntArray = st[(n_alive[st] == 0) & alive_state[st]]
    return dead
