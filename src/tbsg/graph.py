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

from tbsg.compile import CompiledGame

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


def out_action(g: CompiledGame[Any, Any]) -> IntArray:
    """Flat action number of each outcome."""
    return np.repeat(np.arange(g.n_actions, dtype=np.int64), np.diff(g.out_ptr))


def _adjacency(n: int, src: IntArray, dst: IntArray) -> sp.csr_matrix:
    data = np.ones(len(src), dtype=np.int8)
    return sp.csr_matrix((data, (src, dst)), shape=(n, n))


def decompose(g: CompiledGame[Any, Any]) -> Components:
    """Strongly connected components of ``g`` in solving order (sinks first)."""
    n = g.n_states
    src = g.act_state[out_action(g)]
    dst = g.out_target
    ncomp, raw = connected_components(_adjacency(n, src, dst), directed=True, connection="strong")
    raw = raw.astype(np.int64)
    # Condensation edges, deduplicated; Kahn's algorithm from the sinks.
    cross = raw[src] != raw[dst]
    cs, cd = raw[src][cross], raw[dst][cross]
    if len(cs):
        key = np.unique(cs * ncomp + cd)
        cs, cd = key // ncomp, key % ncomp
    outdeg = np.bincount(cs, minlength=ncomp)
    # predecessors of each component, CSR by cd
    order_by_dst = np.argsort(cd, kind="stable")
    pred = cs[order_by_dst]
    pred_ptr = np.zeros(ncomp + 1, dtype=np.int64)
    np.cumsum(np.bincount(cd, minlength=ncomp), out=pred_ptr[1:])
    level = np.zeros(ncomp, dtype=np.int64)
    remaining = outdeg.copy()
    frontier = list(np.flatnonzero(remaining == 0))
    order: list[int] = []
    pred_l = pred.tolist()
    ptr_l = pred_ptr.tolist()
    rem_l = remaining.tolist()
    lev_l = level.tolist()
    while frontier:
        c = int(frontier.pop())
        order.append(c)
        lc = lev_l[c] + 1
        for k in range(ptr_l[c], ptr_l[c + 1]):
            p = pred_l[k]
            if lev_l[p] < lc:
                lev_l[p] = lc
            rem_l[p] -= 1
            if rem_l[p] == 0:
                frontier.append(p)
    if len(order) != ncomp:  # pragma: no cover - condensation is always acyclic
        raise RuntimeError("internal error: condensation is not acyclic")
    # renumber components by (level, discovery order) so solving order is 0, 1, ...
    order_arr = np.array(order, dtype=np.int64)
    lev_arr = np.array(lev_l, dtype=np.int64)
    order_arr = order_arr[np.argsort(lev_arr[order_arr], kind="stable")]
    new_id = np.empty(ncomp, dtype=np.int64)
    new_id[order_arr] = np.arange(ncomp, dtype=np.int64)
    label = new_id[raw]
    members = np.argsort(label, kind="stable").astype(np.int64)
    ptr = np.zeros(ncomp + 1, dtype=np.int64)
    np.cumsum(np.bincount(label, minlength=ncomp), out=ptr[1:])
    return Components(label=label, ptr=ptr, members=members, level=lev_arr[order_arr])


def end_component_states(
    g: CompiledGame[Any, Any], allowed: npt.NDArray[np.bool_] | None = None
) -> npt.NDArray[np.bool_]:
    """Mask of states in some end component (all False iff the game is stopping).

    ``allowed`` (a mask over flat actions) restricts the actions considered, e.g. to the
    actions of a fixed strategy.

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
    oa = out_action(g)
    src = g.act_state[oa]
    tgt = g.out_target
    alive_act = ~g.stop_mask() if allowed is None else (~g.stop_mask() & allowed)
    alive_state = np.ones(n, dtype=bool)
    # reverse adjacency: outcomes entering each state, grouped by target
    by_tgt = np.argsort(tgt, kind="stable")
    in_ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(tgt, minlength=n), out=in_ptr[1:])
    in_act = oa[by_tgt]
    n_alive = np.bincount(g.act_state[alive_act], minlength=n)  # surviving actions per state
    frontier = np.flatnonzero(n_alive == 0)
    while True:
        while len(frontier):  # backward propagation of deaths (worklist, level by level)
            alive_state[frontier] = False
            starts, ends = in_ptr[frontier], in_ptr[frontier + 1]
            cnt = ends - starts
            idx = np.repeat(starts - np.cumsum(cnt) + cnt, cnt) + np.arange(int(cnt.sum()))
            cand = np.unique(in_act[idx])
            frontier = _kill(g.act_state, cand[alive_act[cand]], alive_act, alive_state, n_alive)
        keep = alive_act[oa]
        if not keep.any():
            return alive_state
        _, label = connected_components(_adjacency(n, src[keep], tgt[keep]), directed=True,
                                        connection="strong")
        leave = keep & (label[tgt] != label[src])
        if not leave.any():
            return alive_state
        frontier = _kill(g.act_state, np.unique(oa[leave]), alive_act, alive_state, n_alive)


def _kill(act_state: IntArray, acts: IntArray, alive_act: npt.NDArray[np.bool_],
          alive_state: npt.NDArray[np.bool_], n_alive: IntArray) -> IntArray:
    """Remove the (alive, distinct) actions ``acts``; return the states left without any."""
    alive_act[acts] = False
    st, cnt = np.unique(act_state[acts], return_counts=True)
    n_alive[st] -= cnt
    dead: IntArray = st[(n_alive[st] == 0) & alive_state[st]]
    return dead
