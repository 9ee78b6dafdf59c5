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
game is *stopping* iff no end component exists. The maximal end components (MECs) are
found by the classical refinement (Courcoubetis and Yannakakis 1995; Chatterjee and
Henzinger 2011): repeatedly remove actions that stop or can leave their SCC and states
left without actions, recomputing SCCs, until nothing changes. :func:`end_components`
is the one implementation, used by the stopping check, the infinite-play solver and the
certificate, on the whole game or on the actions a strategy allows.

Cost. Removals are propagated backwards with a worklist (a state without actions dies;
every action that can reach a dead state dies: the attractor computation of Chatterjee
and Henzinger), and SCCs are recomputed only when they can split further, so a chain of
``n`` states costs one round, not ``n``: near-linear in practice (each round is linear
and rounds are bounded by the nesting depth of components that split).

*The stopping check* (:func:`raise_non_stopping`, when end components exist) raises
:class:`~tbsg.errors.NonStoppingGameError` naming the maximal end components, computed
once per game from the components of :func:`decompose`.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, NoReturn, TypeVar

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from tbsg.engine.compiled import CompiledGame, IndexArray
from tbsg.errors import NonStoppingGameError, show

__all__ = ["ComponentLabels", "Components", "EndComponents", "Subgraph", "decompose", "decompose_edges",
           "end_components", "end_components_of", "paying_end_action", "raise_non_stopping",
           "raise_paying_end_component", "strong_components", "subgraph"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)
IntArray = IndexArray  # int32 or int64 (the compiled game's index arrays)
BoolArray = npt.NDArray[np.bool_]


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
    row order: the CSR arrays are built directly, without sorting. Repeated edges (one
    per action reaching the same successor) are then merged: scipy's component algorithm
    sorts and checks its input at some cost, and on the sorted, merged graph it is
    faster by more than the merge costs (Hog to 100: 3.4 million outcomes, 0.8 million
    distinct edges, components 0.25 -> 0.05 s with the merge; Pig to 100, no repeats:
    0.40 -> 0.28 s). Indices are int32 when they fit (the component algorithms work in
    int32), always a copy of ``dst``; the weights are int8 ones (float weights once
    made scipy's components hang), reset after the merge, which adds them up.
    """
    kind = _index_kind(n, len(dst))
    indptr = np.zeros(n + 1, dtype=kind)
    # where each state's edges end (src is sorted; bincount would copy src to int64)
    indptr[1:] = np.searchsorted(src, np.arange(n, dtype=src.dtype), side="right")
    # a copy of dst: the merge works in place, and dst may be the compiled game's own array
    adj = sp.csr_matrix((np.ones(len(dst), dtype=np.int8), dst.astype(kind, copy=True), indptr),
                        shape=(n, n))
    adj.sum_duplicates()
    adj.data[:] = 1  # (the merge summed the int8 weights: they might have wrapped to 0)
    return adj


def _index_kind(*sizes: int) -> type[np.signedinteger[Any]]:
    """int32 if every number below ``max(sizes) + 1`` fits, else int64."""
    return np.int32 if max(sizes, default=0) < 2**31 - 1 else np.int64


def _group_by(keys: IntArray, values: IntArray, n_keys: int) -> tuple[IntArray, IntArray]:
    """``values`` grouped by ``keys`` in ``0 .. n_keys-1``, stably: ``(ptr, grouped)`` with
    the values of key ``k`` at ``grouped[ptr[k]:ptr[k+1]]`` in their original order.

    A counting sort in C, done as the CSR-to-CSC conversion of the matrix with one entry
    per value (row = position, column = key, data = value + 1, so no entry is zero), in
    int32 when the numbers fit (half the memory of int64 on the largest arrays).
    """
    m = len(keys)
    kind = _index_kind(m, n_keys, int(values.max(initial=0)) + 1)
    data = values.astype(kind)
    data += 1
    by_pos = sp.csr_matrix((data, keys.astype(kind, copy=False),
                            np.arange(m + 1, dtype=kind)), shape=(m, n_keys))
    by_key = by_pos.tocsc()
    del by_pos
    grouped: IntArray = by_key.data
    grouped -= 1
    return by_key.indptr, grouped


def _distinct(x: IntArray, below: int | None = None) -> IntArray:
    """Sorted distinct values of ``x`` (sort-based: faster than hashing here; with
    ``below``, a bound on the values, marked in a table instead when ``x`` is a sizeable
    part of it: no sort)."""
    if below is not None and 8 * len(x) >= below:
        seen = np.zeros(below, dtype=bool)
        seen[x] = True
        marked: IntArray = np.flatnonzero(seen).astype(x.dtype, copy=False)
        return marked
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
    return decompose_edges(g.n_states, g.out_source(), g.out_target)


def decompose_edges(n: int, src: IntArray, dst: IntArray) -> Components:
    """:func:`decompose` of the graph on states ``0 .. n-1`` with an edge ``src[e] -> dst[e]``
    per entry (``src`` non-decreasing; repeated edges allowed): for graphs that are not a
    whole compiled game, such as one strategy profile's."""
    adj = _adjacency(n, src, dst)
    ncomp, raw = connected_components(adj, directed=True, connection="strong")
    # Condensation edges from the graph's distinct edges, still with repeats (two states
    # of one component reaching one other component): counted consistently, they need
    # no deduplication.
    src = np.repeat(np.arange(n, dtype=adj.indices.dtype), np.diff(adj.indptr))
    dst = adj.indices
    del adj
    rs, rd = raw[src], raw[dst]
    del src, dst
    cross = rs != rd
    cs, cd = rs[cross], rd[cross]
    del rs, rd, cross
    remaining = np.bincount(cs, minlength=ncomp)  # edges to components without a level yet
    pred_ptr, pred = _group_by(cd, cs, ncomp)  # predecessors of each component
    level = np.full(ncomp, -1, dtype=np.int64)
    frontier = np.flatnonzero(remaining == 0)
    parts: list[IntArray] = []
    lev = 0
    scalar: tuple[list[int], list[int]] | None = None  # pred_ptr, pred as lists
    while len(frontier):
        if len(frontier) <= _SMALL_FRONTIER:
            # a deep, narrow condensation (a long chain): its levels cost a few list
            # operations each, not a round of array calls
            if scalar is None:
                scalar = (pred_ptr.tolist(), pred.tolist())
            done, sizes, frontier = _narrow_levels(frontier.tolist(), scalar[0], scalar[1],
                                                   remaining)
            level[done] = np.repeat(np.arange(lev, lev + len(sizes)), sizes)
            parts.append(done)
            lev += len(sizes)
            continue
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
    new_id = np.empty(ncomp, dtype=_index_kind(ncomp))
    new_id[order_arr] = np.arange(ncomp, dtype=new_id.dtype)
    label = new_id[raw]
    ptr, members = _group_by(label, np.arange(n, dtype=np.int64), ncomp)
    return Components(label=label, ptr=ptr, members=members, level=level[order_arr])


def trivial_states(g: CompiledGame[Any, Any], comps: Components,
                   allowed: BoolArray | None = None) -> BoolArray:
    """Mask of the states alone in their component with no (allowed) self-loop.

    The value of such a state is one Bellman step from values of lower levels: solvers
    settle them without linear systems, iteration or certificates.
    """
    used = None if allowed is None else allowed[g.out_action()]
    return _alone(comps.label, g.out_source(), g.out_target, used)


def _alone(label: IntArray, src: IntArray, target: IntArray, used: BoolArray | None) -> BoolArray:
    """States alone in their component (``label``) with no self-loop among the outcomes
    ``src -> target`` (only the ``used`` ones, if given)."""
    alone: BoolArray = np.bincount(label, minlength=int(label.max(initial=-1)) + 1)[label] == 1
    loop = target == src
    if used is not None:
        loop &= used
    alone[src[loop]] = False
    return alone


_SMALL_FRONTIER = 32  # levels (and worklist rounds) this narrow are processed with lists


def _narrow_levels(frontier: list[int], pred_ptr: list[int], pred: list[int],
                   remaining: IntArray) -> tuple[IntArray, list[int], IntArray]:
    """Kahn's steps while the frontier stays small, in lists: the components of the levels
    done (from ``frontier`` on, level by level), the size of each of those levels, and the
    first frontier that is large (or empty). ``remaining`` (pending successors per
    component) is updated; only the entries touched are read and written."""
    left: dict[int, int] = {}
    done: list[int] = []
    sizes: list[int] = []
    while frontier and len(frontier) <= _SMALL_FRONTIER:
        done.extend(frontier)
        sizes.append(len(frontier))
        nxt: list[int] = []
        for c in frontier:
            for q in pred[pred_ptr[c] : pred_ptr[c + 1]]:
                k = left.get(q)
                k = (remaining.item(q) if k is None else k) - 1
                left[q] = k
                if k == 0:
                    nxt.append(q)
        nxt.sort()
        frontier = nxt
    if left:
        remaining[np.fromiter(left.keys(), dtype=np.int64, count=len(left))] = \
            np.fromiter(left.values(), dtype=np.int64, count=len(left))
    return np.array(done, dtype=np.int64), sizes, np.array(frontier, dtype=np.int64)


@dataclass(frozen=True, eq=False)
class EndComponents:
    """Maximal end components of a graph (restricted to some actions).

    Attributes
    ----------
    label : ndarray of int64
        MEC number (``0 .. count - 1``) of each state, ``-1`` for states in no end component.
    internal : ndarray of bool
        Actions that belong to their state's MEC: allowed, no terminal mass, every
        outcome in the same MEC. Every end component uses only such actions.
    count : int
        Number of MECs.
    """

    label: IntArray
    internal: BoolArray
    count: int

    @property
    def trapped(self) -> BoolArray:
        """Mask of states in some end component (all False iff stopping)."""
        mask: BoolArray = self.label >= 0
        return mask

    def members(self) -> list[list[int]]:
        """States of each MEC, in increasing order."""
        out: list[list[int]] = [[] for _ in range(self.count)]
        for i, m in enumerate(self.label.tolist()):
            if m >= 0:
                out[m].append(i)
        return out


def end_components(g: CompiledGame[Any, Any], allowed: BoolArray | None = None, *,
                   scc: IntArray | None = None) -> EndComponents:
    """Maximal end components of ``g`` using only the ``allowed`` actions (default: all).

    ``scc`` may give the strongly connected components of the whole state graph
    (``decompose(g).label``), which saves the first round's component computation: every
    end component lies inside one of them.

    Examples
    --------
    >>> from tbsg import DRAW
    >>> from tbsg.engine.compile import compile_game
    >>> class Lobby:
    ...     initial = 0
    ...     def player(self, s): return 0
    ...     def actions(self, s): return ("wait", "leave")
    ...     def outcomes(self, s, a): return [(1, 0)] if a == "wait" else [(1, DRAW)]
    >>> ec = end_components(compile_game(Lobby()))
    >>> ec.count, ec.members(), ec.internal.tolist()
    (1, [[0]], [True, False])
    """
    alive = ~g.stop_mask() if allowed is None else (~g.stop_mask() & allowed)
    return end_components_of(g.n_states, g.act_state, g.out_action(), g.out_target, alive, scc=scc,
                             src=g.out_source())


def end_components_of(n: int, act_state: IntArray, out_action: IntArray, out_target: IntArray,
                      alive: BoolArray, *, scc: IntArray | None = None,
                      src: IntArray | None = None) -> EndComponents:
    """:func:`end_components` of a graph given by arrays (``alive``: actions without
    terminal mass that may be used; ``act_state`` non-decreasing; ``src``, if given, the
    state of each outcome, ``act_state[out_action]``)."""
    alive_act = alive.copy()
    alive_state = np.ones(n, dtype=bool)
    if src is None:
        src = act_state[out_action]
    # reverse adjacency: the action of each outcome entering each state, grouped by target
    # (the CSC form of the outcome-by-target matrix: a counting sort in C)
    in_ptr, in_act = _group_by(out_target, out_action, n)
    if scc is not None:
        # a state alone in its strongly connected component, without a self-loop, is in
        # no end component: all of them die at once (an acyclic game is settled here)
        alive_act &= ~_alone(scc, src, out_target, alive_act[out_action])[act_state]
    n_alive = np.bincount(act_state[alive_act], minlength=n)  # surviving actions per state
    frontier = np.flatnonzero(n_alive == 0)
    while True:
        while len(frontier):  # backward propagation of deaths (worklist, level by level)
            alive_state[frontier] = False
            starts, ends = in_ptr[frontier], in_ptr[frontier + 1]
            cnt = ends - starts
            idx = np.repeat(starts - np.cumsum(cnt) + cnt, cnt) + np.arange(int(cnt.sum()))
            cand = in_act[idx]
            frontier = _kill(act_state, _distinct(cand[alive_act[cand]], len(alive_act)), alive_act,
                             alive_state, n_alive)
        keep = alive_act[out_action]
        if not keep.any():
            return EndComponents(label=np.full(n, -1, dtype=np.int64), internal=alive_act, count=0)
        coarse = scc is not None
        if scc is not None:  # first round: the components of the whole graph
            label, scc = scc, None
        else:
            _, raw = connected_components(_adjacency(n, src[keep], out_target[keep]), directed=True,
                                          connection="strong")
            label = raw
        leave = keep & (label[out_target] != label[src])
        if not leave.any():
            if coarse:  # coarser than the surviving graph's components: refine them
                frontier = np.zeros(0, dtype=np.int64)
                continue
            out = np.full(n, -1, dtype=np.int64)
            _, dense = np.unique(label[alive_state], return_inverse=True)
            out[alive_state] = dense.astype(np.int64).reshape(-1)
            count = int(out.max()) + 1 if alive_state.any() else 0
            return EndComponents(label=out, internal=alive_act, count=count)
        frontier = _kill(act_state, _distinct(out_action[leave], len(alive_act)), alive_act, alive_state,
                         n_alive)


def _kill(act_state: IntArray, acts: IntArray, alive_act: BoolArray,
          alive_state: BoolArray, n_alive: IntArray) -> IntArray:
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


@dataclass(frozen=True, eq=False)
class Subgraph:
    """Some actions of some states, renumbered ``0 .. len - 1`` (e.g. one end component's
    internal actions), in the array form :func:`end_components_of` takes."""

    states: IntArray  # global state numbers
    owner: IntArray  # player of each local state
    acts: IntArray  # global action number of each local action
    act_state: IntArray  # local state of each local action (non-decreasing)
    out_action: IntArray  # local action of each outcome
    out_target: IntArray  # local target state of each outcome (every target in ``states``)


def subgraph(g: CompiledGame[Any, Any], states: list[int], acts: BoolArray) -> Subgraph:
    """The actions ``acts`` (a mask over flat actions) of the sorted ``states``, renumbered.

    Every outcome of a selected action must lead into ``states`` (true of an end
    component's internal actions).
    """
    st = np.array(states, dtype=np.int64)
    pos = np.full(g.n_states, -1, dtype=np.int64)
    pos[st] = np.arange(len(st), dtype=np.int64)
    starts = g.act_ptr[st]
    counts = g.act_ptr[st + 1] - starts
    cand = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))
    chosen = cand[acts[cand]]
    o_start = g.out_ptr[chosen]
    deg = g.out_ptr[chosen + 1] - o_start
    outs = np.repeat(o_start - np.cumsum(deg) + deg, deg) + np.arange(int(deg.sum()))
    target = pos[g.out_target[outs]]
    if np.any(target < 0):  # pragma: no cover - callers pass closed sets
        raise RuntimeError("internal error: subgraph: an outcome leaves the given states")
    return Subgraph(states=st, owner=g.player[st].astype(np.int64), acts=chosen,
                    act_state=pos[g.act_state[chosen]],
                    out_action=np.repeat(np.arange(len(chosen), dtype=np.int64), deg),
                    out_target=target)


def paying_end_action(g: CompiledGame[Any, Any], ec: EndComponents) -> int | None:
    """The first action inside an end component of ``ec`` (an internal action) that pays a
    nonzero reward, or None.

    A reward inside an end component can be collected at every step of a play that never
    ends, so the expected total is infinite or undefined whatever ``infinite_play`` says;
    rewards on the other actions are collected finitely often (the actions taken
    infinitely often form an end component: de Alfaro 1997), and only they are allowed
    in a game that is not stopping.
    """
    if g.reward_code is None or not ec.count:
        return None
    paying = np.flatnonzero(ec.internal & (g.reward_code != 0))  # code 0 is the value 0
    return int(paying[0]) if len(paying) else None


def raise_paying_end_component(g: CompiledGame[S, A], ec: EndComponents, k: int) -> NoReturn:
    """Raise :class:`NonStoppingGameError` for a game with ``infinite_play`` whose action
    ``k`` pays a reward inside an end component (:func:`paying_end_action`)."""
    i = int(g.act_state[k])
    members = ec.members()[int(ec.label[i])]
    names = ", ".join(show(g.states[j], 80) for j in members[:4])
    more = f", ... ({len(members)} states)" if len(members) > 4 else ""
    raise NonStoppingGameError(
        f"the expected total payoff is not defined: the game is not stopping, and action "
        f"{show(g.act_labels[k])} at state {show(g.states[i])} pays a reward of "
        f"{show(g.act_reward[k])} inside the end component {{{names}{more}}}, where the players "
        "can keep play going forever collecting it; infinite_play gives never-ending play a "
        "payoff only when every reward inside every end component is 0 (make the game "
        "stopping, or move the reward off the actions that can repeat forever)",
        tuple(g.states[j] for j in members[:8]))


def raise_non_stopping(g: CompiledGame[S, A], ec: EndComponents) -> NoReturn:
    """Raise :class:`NonStoppingGameError` naming the (non-empty) end components ``ec``.

    The message names up to three maximal end components (a few states of each) and says
    how to give never-ending play a payoff (``infinite_play=``).
    """
    members = ec.members()
    shown = []
    for states in members[:3]:
        names = ", ".join(show(g.states[i], 80) for i in states[:4])
        more = f", ... ({len(states)} states)" if len(states) > 4 else ""
        shown.append("{" + names + more + "}")
    others = f" and {len(members) - 3} more" if len(members) > 3 else ""
    trapped = np.flatnonzero(ec.trapped)
    sample = tuple(g.states[int(i)] for i in trapped[:8])
    raise NonStoppingGameError(
        f"the game is not stopping: from {len(trapped)} state(s) the players can choose "
        "actions that keep play among non-terminal states forever, so no value is defined "
        f"without a rule for infinite play; maximal end component(s): {'; '.join(shown)}"
        f"{others}. Give never-ending play a payoff to player 0 with infinite_play= (e.g. 0, "
        "or Fraction(1, 2)) to solve it", sample)


@dataclass(frozen=True)
class ComponentLabels:
    """Strongly connected components without their solving order (:func:`strong_components`).

    Attributes
    ----------
    label : ndarray
        Component number of each state, ``0 .. count - 1`` in the order SciPy's search
        finds them (not solving order).
    count : int
        Number of components.
    largest : int
        Size of the largest component (0 for no state).
    """

    label: IntArray
    count: int
    largest: int


def strong_components(g: CompiledGame[Any, Any]) -> ComponentLabels:
    """The strongly connected components of ``g``, as :func:`decompose` finds them, but
    without the levels of their condensation (most of :func:`decompose`'s work): for a
    caller that needs only the partition and its counts, such as the certificate (its
    component counts, and the end components' first round)."""
    count, label = connected_components(_adjacency(g.n_states, g.out_source(), g.out_target),
                                        directed=True, connection="strong")
    largest = int(np.bincount(label, minlength=count).max(initial=0))
    return ComponentLabels(label=label, count=int(count), largest=largest)
