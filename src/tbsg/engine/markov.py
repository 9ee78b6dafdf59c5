"""Markov chains of fixed profiles: exact and certified expectations, and tie-breaking.

A compiled game in which every state has exactly one action (:func:`restrict` keeps one
per state) is an absorbing Markov chain: from state ``i`` its action ends play with
probability ``s_i`` (terminal mass) and moves to state ``j`` with probability ``P_ij``.

Mathematics
-----------
*Classes.* The *trapped* states are those of the closed classes: bottom strongly
connected components without terminal mass, which play never leaves (for a chain these
are exactly its end components, :func:`tbsg.engine.graph.end_components`). Every other
state is *transient*: from it play leaves its component, and ends or is trapped, with
probability 1 (Kemeny and Snell 1960, *Finite Markov Chains*, chapter III).

*Expected totals.* For a quantity ``b_i`` collected at every step from state ``i``, the
expected total until play ends, ``x_i = E_i[sum_{t < T} b(X_t)]``, solves

.. math:: x = b + P x \\quad\\text{on the transient states}, \\qquad x \\text{ given on the others,}

and ``I - P_{TT}`` is non-singular (its inverse is the fundamental matrix ``N``, whose
entry ``N_ij`` is the expected number of visits to ``j`` from ``i``). Given values on
trapped states: ``0`` where ``b`` vanishes on the class; elsewhere the total diverges
(every state of a closed class is visited infinitely often), and ``x`` is infinite or
undefined. The chain's questions are all of this form: expected payoff (``b = c``, the
expected terminal payoff of the step), expected length (``b = count``), probability of
ending with payoff ``r`` (``b_i`` = probability that the step from ``i`` ends with
payoff ``r``), probability of reaching a set ``G`` (``x = 1`` given on ``G``, ``b = 0``),
expected visits to ``j`` (``b = 1_{i = j}``), and the second moment of the length
``L`` (``L_i = c_i + L_{next}``, so ``E L_i^2 = c_i^2 + 2 c_i (T_i - c_i) + (P M)_i``:
``M = 2 c T - c^2 + P M`` with ``T`` the expected length). :func:`solve_chain` solves such
a system exactly, component by component in solving order (sinks first,
:func:`tbsg.engine.graph.decompose`): a state alone in its component by one substitution,
a larger component by state elimination (:func:`tbsg.engine.linalg.solve_block`).

*Length distribution.* :func:`length_pmf` pushes probability mass forward over (state,
steps counted so far); a step that counts 0 keeps its mass on the same count, so those
steps must form no cycle and are processed in topological order. ``P(L <= k)`` is the mass
that has ended by count ``k``.

*Certified floats.* :func:`chain_bounds` proves bounds without exact arithmetic. The
operator ``T x = b + P x`` is monotone (``P >= 0``); if ``T u <= u`` then ``d = u - x``
satisfies ``d >= P d >= P^k d -> 0``, so ``x <= u``, and ``T l >= l`` gives ``x >= l``. A
float solution ``x^`` (sparse LU) and the float expected number of steps ``h`` give
candidates ``x^ +- delta h``, since ``T(x^ + delta h) = x^ + r + delta (h - 1)`` up to the
residual ``r``; the two inequalities are checked with outward rounding that covers the
rounding of every probability and constant (each replaced by an enclosing pair of
floats) and of the sums (Higham 2002, section 3.1: ``|fl(sum) - sum| <= gamma_d sum |terms|``),
doubling ``delta`` until they hold. Values are split by sign (``P u`` is enclosed by
``P_hi u^+ + P_lo u^-`` from above) and the allowance is relative to the sum of the
absolute values of the terms, the underflow part not scaling with the values (the
probabilities are exact floats in their enclosures): the bounds hold for totals of any
sign and size (rewards, scores, lengths), not only for probabilities. The questions of one
chain share its matrix: it is built and factorised once per set of given states
(:class:`ChainSystem`), in solving order, where ``I - P`` is block triangular and needs no
reordering.

*Tie-breaking among optimal strategies.* In a stopping game a profile that plays, at
every state, an action attaining the state's value is a pair of optimal strategies
(each player's choice keeps ``v <= T v`` or ``v >= T v`` against any reply, and play
stops). Among these profiles, :func:`extreme_profile` finds one minimising (or
maximising) an expected total ``x = cost + P x``: with both players pursuing the same
secondary goal this is a Markov decision process over the optimal actions in which
every stationary policy is proper, so policy iteration (Howard 1960) converges to the
optimum; it runs exactly, component by component, with exact comparisons. It needs
the *exact* set of optimal actions: a float solution cannot tell a tie from a near-tie.
"""

from __future__ import annotations

import heapq
import itertools
import math
import weakref
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from functools import cached_property
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from scipy.sparse.csgraph import breadth_first_order, connected_components

from tbsg.engine import _backend as bk
from tbsg.engine._backend import Rational
from tbsg.engine.bellman import ETA, U
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.graph import Components, decompose, end_components
from tbsg.engine.linalg import solve_block

__all__ = [
    "ChainStructure",
    "ChainSystem",
    "chain_bounds",
    "enclose_all",
    "extreme_profile",
    "float_order",
    "interval_bounds",
    "length_bounds",
    "length_pmf",
    "restrict",
    "solve_chain",
    "structure",
    "zero_count_cycle",
]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

_MAX_DOUBLINGS = 80  # candidate widenings tried by chain_bounds before giving up


# --- structure -----------------------------------------------------------------------------

def restrict(g: CompiledGame[S, A], keep: BoolArray) -> CompiledGame[S, A]:
    """``g`` with only the flat actions in ``keep`` (at least one per state), same states.

    The arrays are sliced, not rebuilt: the table of rationals is shared.
    """
    counts = np.bincount(g.act_state[keep], minlength=g.n_states)
    if np.any(counts == 0):  # pragma: no cover - callers keep an action per state
        raise RuntimeError("internal error: restrict leaves a state without actions")
    act_ptr = np.zeros(g.n_states + 1, dtype=np.int64)
    np.cumsum(counts, out=act_ptr[1:])
    acts = np.flatnonzero(keep)
    o_start = g.out_ptr[acts]
    deg = g.out_ptr[acts + 1] - o_start
    outs = np.repeat(o_start - np.cumsum(deg) + deg, deg) + np.arange(int(deg.sum()))
    out_ptr = np.zeros(len(acts) + 1, dtype=np.int64)
    np.cumsum(deg, out=out_ptr[1:])
    labels = g.act_labels
    return CompiledGame(states=g.states, index=g.index, player=g.player, act_ptr=act_ptr,
                        act_labels=[labels[k] for k in acts.tolist()], act_state=g.act_state[acts],
                        out_ptr=out_ptr, out_target=g.out_target[outs], rationals=g.rationals,
                        act_code=g.act_code[acts], stop_code=g.stop_code[acts],
                        out_code=g.out_code[outs],
                        reward_code=None if g.reward_code is None else g.reward_code[acts],
                        win_probability=g.win_probability)


class ChainStructure:
    """A chain's components and closed classes (module docstring), each computed when
    first read.

    Attributes
    ----------
    comps : Components
        Strongly connected components in solving order.
    trap : ndarray of int64
        Closed class of each state (``0 .. n_traps - 1``), ``-1`` for transient states.
    n_traps : int

    A chain in which every state can reach a step that ends play has no closed class:
    that is one breadth-first search backwards from those steps, in C, and the classes
    then need no components (most questions of a chain that stops need none either:
    its float systems are factorised in the reverse of the chain's numbering,
    :func:`float_order`).
    """

    def __init__(self, g: CompiledGame[Any, Any]) -> None:
        self._g = g

    @cached_property
    def comps(self) -> Components:
        return decompose(self._g)

    @cached_property
    def _classes(self) -> tuple[IntArray, int]:
        g = self._g
        if _every_state_ends(g):
            return np.full(g.n_states, -1, dtype=np.int64), 0
        ec = end_components(g, scc=self.comps.label)
        return ec.label, ec.count

    @property
    def trap(self) -> IntArray:
        return self._classes[0]

    @property
    def n_traps(self) -> int:
        return self._classes[1]

    @property
    def trapped(self) -> BoolArray:
        """Mask of the states in closed classes."""
        mask: BoolArray = self.trap >= 0
        return mask


def _every_state_ends(g: CompiledGame[Any, Any]) -> bool:
    """Whether from every state of the chain ``g`` play can end (reach, with positive
    probability, an action with terminal mass): a search backwards along the outcomes
    from a source joined to those actions' states."""
    n = g.n_states
    ends = np.flatnonzero(g.stop_mask()[g.act_ptr[:-1]]).astype(np.int64)  # one action per state
    # reversed edges target -> source, then the source n -> every state that ends play
    src = g.out_target.astype(np.int64)
    dst = g.out_source().astype(np.int64)
    rows = np.concatenate([src, np.full(len(ends), n, dtype=np.int64)])
    cols = np.concatenate([dst, ends])
    graph = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n + 1, n + 1))
    return len(breadth_first_order(graph, n, directed=True, return_predecessors=False)) == n + 1


def float_order(g: CompiledGame[Any, Any]) -> IntArray:
    """The order in which a chain's float systems are factorised: the reverse of its
    numbering. States are numbered breadth first, so a state's successors are mostly
    numbered after it, and in this order the system is nearly block triangular (hardly
    any fill), as in solving order, without computing the components."""
    order: IntArray = np.arange(g.n_states - 1, -1, -1, dtype=np.int64)
    return order


def structure(g: CompiledGame[S, A]) -> ChainStructure:
    """Components and closed classes of a chain (one action per state), computed when
    first read."""
    return ChainStructure(g)


def _probs(g: CompiledGame[S, A]) -> list[Rational]:
    """Every outcome's probability in the backend type (converted once per distinct value)."""
    table = [bk.from_fraction(x) for x in g.rationals]
    return [table[c] for c in g.out_code.tolist()]


# --- exact linear systems --------------------------------------------------------------------

def solve_chain(g: CompiledGame[S, A], comps: Components, rhs: Sequence[Rational],
                given: dict[int, Rational]) -> list[Rational]:
    """Exact ``x = rhs + P x`` on the states not in ``given``, ``x = given`` on the others.

    ``g`` has one action per state; every state of a closed class must be ``given``
    (module docstring). ``rhs`` holds backend rationals, indexed by state (or by action:
    the same). Each component's states not ``given`` form one block of
    :func:`tbsg.engine.linalg.solve_block`.
    """
    x: list[Rational] = [bk.ZERO] * g.n_states
    for i, v in given.items():
        x[i] = v
    choice: list[int] = g.act_ptr[:-1].tolist()
    out_ptr: list[int] = g.out_ptr.tolist()
    target: list[int] = g.out_target.tolist()
    probs = _probs(g)
    ptr: list[int] = comps.ptr.tolist()
    members: list[int] = comps.members.tolist()
    for c in range(comps.count):
        states = members[ptr[c] : ptr[c + 1]]
        if given:
            states = [i for i in states if i not in given]
        if states:
            solve_block(states, choice, rhs, x, out_ptr, target, probs)
    return x


# --- length distribution ---------------------------------------------------------------------

def _zero_count_ranks(g: CompiledGame[S, A], counts: list[int], dead: list[bool]) -> list[int]:
    """Topological ranks of the states along steps that count 0 from states not ``dead``
    (Kahn's algorithm)."""
    n = g.n_states
    act_ptr: list[int] = g.act_ptr.tolist()
    out_ptr: list[int] = g.out_ptr.tolist()
    target: list[int] = g.out_target.tolist()
    indeg = [0] * n
    succ: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        if counts[i] == 0 and not dead[i]:
            k = act_ptr[i]
            for o in range(out_ptr[k], out_ptr[k + 1]):
                j = target[o]
                succ[i].append(j)
                indeg[j] += 1
    rank = [-1] * n
    stack = [i for i in range(n) if indeg[i] == 0]
    r = 0
    while stack:
        i = stack.pop()
        rank[i] = r
        r += 1
        for j in succ[i]:
            indeg[j] -= 1
            if indeg[j] == 0:
                stack.append(j)
    if r < n:  # pragma: no cover - callers check zero_count_cycle first
        raise RuntimeError("internal error: steps counting 0 form a cycle")
    return rank


def length_pmf(g: CompiledGame[S, A], counts: list[int], horizon: int, start: int,
               dead: list[bool]) -> list[Rational]:
    """Exact ``P(L = k)`` for ``k = 0 .. horizon``: ``L`` the total count when play ends.

    ``counts[i]`` (an int >= 0) is what the step from state ``i`` counts; play starts in
    state ``start``. Mass reaching a ``dead`` state (a closed class: play never ends from
    there) is dropped. Steps counting 0 from other states must form no cycle
    (:func:`zero_count_cycle` checks).
    """
    rank = _zero_count_ranks(g, counts, dead)
    act_ptr: list[int] = g.act_ptr.tolist()
    out_ptr: list[int] = g.out_ptr.tolist()
    target: list[int] = g.out_target.tolist()
    probs = _probs(g)
    table = [bk.from_fraction(x) for x in g.rationals]
    stop: list[Rational] = [table[c] for c in g.stop_code.tolist()]
    ended: list[Rational] = [bk.ZERO] * (horizon + 1)
    pending: dict[int, dict[int, Rational]] = {0: {start: bk.ONE}}
    for k in range(horizon + 1):
        cur = pending.pop(k, None)
        if not cur:
            continue
        heap = [(rank[i], i) for i in cur]
        heapq.heapify(heap)
        while heap:
            _, i = heapq.heappop(heap)
            m = cur.pop(i)
            kk = k + counts[i]
            if kk > horizon or dead[i]:
                continue
            a = act_ptr[i]
            s = stop[a]
            if s:
                ended[kk] = ended[kk] + m * s
            into = cur if kk == k else pending.setdefault(kk, {})
            for o in range(out_ptr[a], out_ptr[a + 1]):
                j = target[o]
                add = m * probs[o]
                prev = into.get(j)
                if prev is None:
                    into[j] = add
                    if kk == k:
                        heapq.heappush(heap, (rank[j], j))
                else:
                    into[j] = prev + add
    return ended


# --- certified float bounds ------------------------------------------------------------------

def _down(z: FloatArray, d: float) -> FloatArray:
    """Lower bound of the exact value of a computed non-negative sum of ``d`` products."""
    low = np.nextafter(z * (1.0 - (d + 4.0) * U) - (2.0 * d + 4.0) * ETA, -np.inf)
    out: FloatArray = np.maximum(low, 0.0)
    return out


def _up(z: FloatArray, d: float) -> FloatArray:
    """Upper bound of the same (for sums with at least one structurally positive term)."""
    out: FloatArray = np.nextafter(z * (1.0 + (d + 4.0) * U) + (2.0 * d + 4.0) * ETA, np.inf)
    return out


def _dot_bounds(lo: FloatArray, hi: FloatArray, positive: bool) -> tuple[float, float]:
    """Bounds of ``sum(lo)`` from below and ``sum(hi)`` from above (products already formed;
    each rounded, so 2 relative roundings and one underflow unit per term). ``positive``:
    some term is structurally positive, so the exact sum may be positive even where every
    computed product underflowed to 0."""
    m = len(lo)
    s_lo = math.fsum(lo.tolist())
    s_hi = math.fsum(hi.tolist())
    low = max(math.nextafter(s_lo * (1.0 - 4.0 * U) - m * ETA, -math.inf), 0.0)
    high = math.nextafter(s_hi * (1.0 + 4.0 * U) + m * ETA, math.inf) if positive else 0.0
    return low, high


def zero_count_cycle(g: CompiledGame[S, A], counts: Sequence[int], dead: BoolArray) -> int | None:
    """A state on a cycle of steps counting 0 outside the ``dead`` states, or ``None``.

    Such a cycle would let play go round without counting, so the length distribution is
    not defined count by count: :func:`length_pmf` and :func:`length_bounds` need none.
    (Inside a closed class play never ends, and its mass is dropped: cycles there are fine.)
    """
    cnt = np.asarray(counts, dtype=np.int64)
    src = g.out_source().astype(np.int64)
    keep = (cnt[src] == 0) & ~dead[src]
    s, t = src[keep], g.out_target[keep]
    loop = s[s == t]
    if len(loop):
        return int(loop[0])
    n = g.n_states
    adj = sp.csr_matrix((np.ones(len(s), dtype=np.int8), (s, t)), shape=(n, n))
    _, label = connected_components(adj, directed=True, connection="strong")
    sizes = np.bincount(label)
    big = np.flatnonzero(sizes[label] > 1)
    return int(big[0]) if len(big) else None


class _Spread:
    """Outward-rounded pushes of probability mass along the outcomes of some states."""

    def __init__(self, g: CompiledGame[S, A], dead: BoolArray) -> None:
        self.n = g.n_states
        self.dead = dead
        self.out_ptr = g.out_ptr
        self.act_ptr = g.act_ptr
        self.target = g.out_target
        p_lo_t, p_hi_t = enclose_all(g.rationals)
        self.p_lo, self.p_hi = p_lo_t[g.out_code], p_hi_t[g.out_code]
        # the most terms any target's sum can have: its number of incoming outcomes
        self.d = float(np.bincount(g.out_target, minlength=1).max(initial=1))

    def push(self, states: IntArray, m_lo: FloatArray, m_hi: FloatArray
             ) -> tuple[IntArray, FloatArray, FloatArray]:
        """Targets reached from ``states`` (masses ``m_lo <= m <= m_hi``) and enclosures of
        the mass arriving there (dead targets left out: their mass never ends)."""
        k = self.act_ptr[states]
        o_start = self.out_ptr[k]
        deg = self.out_ptr[k + 1] - o_start
        outs = np.repeat(o_start - np.cumsum(deg) + deg, deg) + np.arange(int(deg.sum()))
        tgt = self.target[outs]
        lo = np.bincount(tgt, weights=np.repeat(m_lo, deg) * self.p_lo[outs],
                         minlength=self.n).astype(np.float64, copy=False)
        hi = np.bincount(tgt, weights=np.repeat(m_hi, deg) * self.p_hi[outs],
                         minlength=self.n).astype(np.float64, copy=False)
        reached = np.bincount(tgt, minlength=self.n) > 0
        touched = np.flatnonzero(reached & ~self.dead)
        return touched, _down(lo[touched], self.d), _up(hi[touched], self.d)


def length_bounds(g: CompiledGame[S, A], counts: list[int], horizon: int, start: int,
                  dead: BoolArray) -> tuple[FloatArray, FloatArray]:
    """Proven float bounds of :func:`length_pmf`'s ``P(L = k)``, ``k = 0 .. horizon``.

    The same forward propagation on vectors: mass enclosed by a lower and an upper vector,
    every probability by two floats, every sum rounded outwards (a sum of ``d`` rounded
    products of non-negative numbers errs by at most ``gamma_{d+2}`` relatively plus ``d``
    underflow units; an upper bound stays positive wherever a term is structurally
    positive); only the states holding mass are touched, and only the counts within the
    horizon are stored. Mass reaching a ``dead`` state is dropped; steps counting 0 from
    other states must form no cycle (:func:`zero_count_cycle` checks).
    """
    cnt = np.array(counts, dtype=np.int64)
    n = g.n_states
    spread = _Spread(g, dead)
    s_lo_t, s_hi_t = enclose_all(g.rationals)
    first = g.act_ptr[:-1]
    stop_lo, stop_hi = s_lo_t[g.stop_code[first]], s_hi_t[g.stop_code[first]]
    pmf_lo = np.zeros(horizon + 1)
    pmf_hi = np.zeros(horizon + 1)
    pending: dict[int, tuple[FloatArray, FloatArray]] = {}
    if not dead[start]:
        lo0, hi0 = np.zeros(n), np.zeros(n)
        lo0[start] = hi0[start] = 1.0
        pending[0] = (lo0, hi0)
    for k in range(horizon + 1):
        level = pending.pop(k, None)
        if level is None:
            continue
        tot_lo, tot_hi = level
        # steps counting 0 move mass within this count: along an acyclic graph, so the
        # wave of newly arrived mass dies out
        active = np.flatnonzero(tot_hi)
        wave = active[cnt[active] == 0]
        w_lo, w_hi = tot_lo[wave], tot_hi[wave]
        while len(wave):
            tgt, a_lo, a_hi = spread.push(wave, w_lo, w_hi)
            tot_lo[tgt] = np.maximum(np.nextafter(tot_lo[tgt] + a_lo, -np.inf), 0.0)
            tot_hi[tgt] = np.nextafter(tot_hi[tgt] + a_hi, np.inf)
            keep = cnt[tgt] == 0
            wave, w_lo, w_hi = tgt[keep], a_lo[keep], a_hi[keep]
        active = np.flatnonzero(tot_hi)
        ends_at = k + cnt[active]
        for kk in np.unique(ends_at).tolist():
            if kk > horizon:
                continue
            group = active[ends_at == kk]
            positive = bool(np.any(stop_hi[group] > 0))
            e_lo, e_hi = _dot_bounds(tot_lo[group] * stop_lo[group], tot_hi[group] * stop_hi[group],
                                     positive)
            pmf_lo[kk] = max(math.nextafter(pmf_lo[kk] + e_lo, -math.inf), 0.0)
            if positive:
                pmf_hi[kk] = math.nextafter(pmf_hi[kk] + e_hi, math.inf)
            if kk == k:
                continue
            moving = group[cnt[group] > 0]
            tgt, a_lo, a_hi = spread.push(moving, tot_lo[moving], tot_hi[moving])
            if kk not in pending:
                pending[kk] = (np.zeros(n), np.zeros(n))
            r_lo, r_hi = pending[kk]
            r_lo[tgt] = np.maximum(np.nextafter(r_lo[tgt] + a_lo, -np.inf), 0.0)
            r_hi[tgt] = np.nextafter(r_hi[tgt] + a_hi, np.inf)
    return np.minimum(pmf_lo, 1.0), np.minimum(pmf_hi, 1.0)


def _enclose(x: Fraction) -> tuple[float, float]:
    """Floats ``lo <= x <= hi``, equal when ``x`` is a float (infinite beyond the float range)."""
    try:
        f = float(x)
    except OverflowError:
        big = math.nextafter(math.inf, 0.0)
        return (big, math.inf) if x > 0 else (-math.inf, -big)
    fx = Fraction(f)
    if fx == x:
        return f, f
    if fx < x:
        return f, math.nextafter(f, math.inf)
    return math.nextafter(f, -math.inf), f


def enclose_all(xs: Sequence[Fraction]) -> tuple[FloatArray, FloatArray]:
    """Floats ``lo <= x <= hi`` for each ``x`` (equal where ``x`` is a float).

    The same Fraction object often recurs (a count of 1 at every state): each distinct
    object is enclosed once, found by identity (no hashing of the rational, and at C
    speed through ``map``), and equal values held by distinct objects once per value.
    """
    first: dict[int, int] = {}  # id -> a position holding that object (ids stay valid: xs holds them)
    pos = np.fromiter(map(first.setdefault, map(id, xs), itertools.count()), dtype=np.int64,
                      count=len(xs))
    lo = np.empty(len(xs))
    hi = np.empty(len(xs))
    memo: dict[tuple[int, int], tuple[float, float]] = {}
    for p in first.values():
        x = xs[p]
        key = (x.numerator, x.denominator)
        pair = memo.get(key)
        if pair is None:
            pair = memo[key] = _enclose(x)
        lo[p], hi[p] = pair
    return lo[pos], hi[pos]


def chain_bounds(g: CompiledGame[S, A], rhs: Sequence[Fraction], given: dict[int, Fraction],
                 order: IntArray | None = None) -> tuple[FloatArray, FloatArray] | None:
    """Proven float bounds ``lo <= x <= hi`` of :func:`solve_chain`'s ``x``, or ``None``.

    ``None`` when no certificate was found (a system too ill-conditioned for floats: play
    that stops with tiny probability). Every state of a closed class must be ``given``.
    ``order``: the states in solving order, as for :func:`interval_bounds`.
    """
    fixed = np.array(sorted(given), dtype=np.int64)
    g_lo, g_hi = enclose_all([given[i] for i in fixed.tolist()])
    b_lo, b_hi = enclose_all(rhs)
    return interval_bounds(g, b_lo, b_hi, fixed, g_lo, g_hi, order)


def interval_bounds(g: CompiledGame[S, A], b_lo: FloatArray, b_hi: FloatArray, fixed: IntArray,
                    g_lo: FloatArray, g_hi: FloatArray, order: IntArray | None = None
                    ) -> tuple[FloatArray, FloatArray] | None:
    """Proven bounds of ``x = b + P x`` (free states) for every ``b`` in ``[b_lo, b_hi]``,
    with ``x`` in ``[g_lo, g_hi]`` given on the states ``fixed``; ``None`` if none found.

    ``P`` is the chain's exact transition matrix (each probability enclosed by two floats).
    Since ``(I - P)^-1 >= 0``, the lower bound solves the system for ``b_lo`` and the upper
    one for ``b_hi``; each is certified by the monotonicity argument of the module docstring.
    ``order``: the states in solving order (:func:`tbsg.engine.graph.decompose`), in which
    the system is block triangular and is factorised without reordering; the system is
    built and factorised once per chain and set of fixed states (:class:`ChainSystem`).
    """
    n = g.n_states
    free = np.ones(n, dtype=bool)
    free[fixed] = False
    b_lo, b_hi = np.where(free, b_lo, 0.0), np.where(free, b_hi, 0.0)
    if not (np.all(np.isfinite(b_lo)) and np.all(np.isfinite(b_hi)) and np.all(np.isfinite(g_lo))
            and np.all(np.isfinite(g_hi))):
        return None  # beyond the float range
    with np.errstate(all="ignore"):
        system = ChainSystem.of(g, fixed, order)
        return None if system is None else system.bounds(b_lo, b_hi, g_lo, g_hi)


_SYSTEMS: weakref.WeakKeyDictionary[CompiledGame[Any, Any], dict[bytes, ChainSystem | None]] = \
    weakref.WeakKeyDictionary()
_SYSTEMS_PER_CHAIN = 4  # factorised systems kept per chain (one per set of fixed states)


class ChainSystem:
    """``I - P`` of a chain on its free states, factorised once, and the float data of the
    certificates of :func:`interval_bounds`: ``P`` as three sparse matrices (the lower and
    upper enclosures of every probability and their correctly rounded floats), the number
    of successors of each row, and the float expected number of steps ``h`` (the direction
    in which a candidate is widened).

    The questions of one chain solve systems with the same matrix and different right-hand
    sides (each payoff's probability, the mean and second moment of the length): the
    factorisation is kept with the chain (:meth:`of`).
    """

    def __init__(self, g: CompiledGame[Any, Any], fixed: IntArray, order: IntArray | None) -> None:
        n = g.n_states
        self.n = n
        self.fixed = fixed
        self.free = free = np.ones(n, dtype=bool)
        free[fixed] = False
        # one action per state: state i's outcomes are those of its action
        row_ptr = g.out_ptr[g.act_ptr].astype(np.int64)
        keep = np.repeat(free, np.diff(row_ptr))  # outcomes of free states
        p_lo_t, p_hi_t = enclose_all(g.rationals)
        p_mid = g.float_arrays()[1]
        tgt = g.out_target
        ptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.where(free, np.diff(row_ptr), 0), out=ptr[1:])
        cols, codes = tgt[keep], g.out_code[keep]
        shape = (n, n)
        self.lo_m = sp.csr_matrix((p_lo_t[codes], cols, ptr), shape=shape)
        self.hi_m = sp.csr_matrix((p_hi_t[codes], cols, ptr), shape=shape)
        self.mid = sp.csr_matrix((p_mid[keep], cols, ptr), shape=shape)
        self.deg = np.diff(ptr).astype(np.float64)
        self.fi = fi = np.flatnonzero(free) if order is None else order[free[order]]
        self.solve = self._factor(fi, order is not None)

    def _factor(self, fi: IntArray, ordered: bool) -> Callable[[FloatArray], FloatArray] | None:
        """Solver of ``(I - P) y = r`` on the free states ``fi`` (in this order), or None if
        singular in floats; ``ordered``: ``fi`` is in solving order (no reordering)."""
        k = len(fi)
        n = self.n
        if not k:
            return lambda rhs: np.zeros(n)
        pos = np.full(n, -1, dtype=np.int64)
        pos[fi] = np.arange(k)
        sub = self.mid[fi]
        local = pos[sub.indices]
        inside = local >= 0  # successors among the free states
        rows = np.repeat(np.arange(k), np.diff(sub.indptr))[inside]
        a = sp.identity(k, format="csr") - \
            sp.csr_matrix((sub.data[inside], (rows, local[inside])), shape=(k, k))
        # the transpose's factors: (I - P)^T in CSC has the CSR arrays of I - P
        t = sp.csc_matrix((a.data, a.indices, a.indptr), shape=(k, k))
        try:
            # (without supernode relaxation and with one-column panels, as the float solver
            # factorises its levels: the system in solving order hardly fills in)
            lu = spla.splu(t, permc_spec="NATURAL" if ordered else "COLAMD", relax=1, panel_size=1)
        except RuntimeError:  # singular in floats
            return None

        def solve(rhs: FloatArray) -> FloatArray:
            out = np.zeros(n)
            out[fi] = lu.solve(rhs[fi], trans="T")
            return out

        return solve

    @classmethod
    def of(cls, g: CompiledGame[Any, Any], fixed: IntArray, order: IntArray | None
           ) -> ChainSystem | None:
        """The system of ``g`` with the states ``fixed`` given, built once per chain."""
        cache = _SYSTEMS.setdefault(g, {})
        key = np.asarray(fixed, dtype=np.int64).tobytes() + (b"o" if order is not None else b"")
        if key not in cache:
            if len(cache) >= _SYSTEMS_PER_CHAIN:
                cache.pop(next(iter(cache)))
            system = cls(g, fixed, order)
            cache[key] = None if system.solve is None else system
        return cache[key]

    @cached_property
    def steps(self) -> FloatArray | None:
        """The float expected number of steps on the free states (at least 1), 0 on the
        fixed ones; None if not finite."""
        if self.solve is None:
            return None
        hf = self.solve(self.free.astype(np.float64))
        if not np.all(np.isfinite(hf)):
            return None
        return np.where(self.free, np.maximum(hf, 1.0), 0.0)

    def bounds(self, b_lo: FloatArray, b_hi: FloatArray, g_lo: FloatArray, g_hi: FloatArray
               ) -> tuple[FloatArray, FloatArray] | None:
        """:func:`interval_bounds` with this system (``b`` 0 on the fixed states)."""
        w = self.steps
        solve = self.solve
        if w is None or solve is None:
            return None
        fixed, free, mid = self.fixed, self.free, self.mid
        # the smallest widening worth trying: below the rounding of one step it cannot pass;
        # doubling from there finds a passing one within a factor of 2 of the least
        spread = U
        out: list[FloatArray] = []
        for b, known, sign in ((b_lo, g_lo, -1.0), (b_hi, g_hi, 1.0)):
            x_hat = np.zeros(self.n)
            x_hat[fixed] = known
            x_hat += solve(b + mid @ x_hat)
            if not np.all(np.isfinite(x_hat)):
                return None
            resid = np.abs((b + mid @ x_hat - x_hat)[free]).max(initial=0.0)
            delta = max(4.0 * resid, spread * float(np.abs(x_hat).max(initial=0.0)), 1e-300)
            for _ in range(_MAX_DOUBLINGS):
                cand = x_hat + sign * delta * w
                cand[fixed] = known
                if (_is_upper if sign > 0 else _is_lower)(cand, b, self.lo_m, self.hi_m,
                                                            self.deg, free):
                    out.append(cand)
                    break
                delta *= 2.0
                if not math.isfinite(delta):
                    return None
            else:
                return None
        return out[0], out[1]


def _margin(total: FloatArray, deg: FloatArray) -> FloatArray:
    """Error bound of a float sum of ``deg + 2`` products whose absolute values sum to ``total``."""
    err: FloatArray = 2.0 * (deg + 4.0) * U * total + 4.0 * (deg + 4.0) * ETA
    return err


def _is_upper(u: FloatArray, b_hi: FloatArray, lo_m: sp.csr_matrix, hi_m: sp.csr_matrix,
              deg: FloatArray, free: BoolArray) -> bool:
    """Whether ``b + P u <= u`` on the free states, for every ``b, P`` in the enclosures."""
    pos, neg = np.maximum(u, 0.0), np.minimum(u, 0.0)
    z = b_hi + hi_m @ pos + lo_m @ neg
    total = np.abs(b_hi) + hi_m @ pos - lo_m @ neg
    up = np.nextafter(z + _margin(total, deg), np.inf)
    return bool(np.all(up[free] <= u[free]))


def _is_lower(low: FloatArray, b_lo: FloatArray, lo_m: sp.csr_matrix, hi_m: sp.csr_matrix,
              deg: FloatArray, free: BoolArray) -> bool:
    """Whether ``b + P l >= l`` on the free states, for every ``b, P`` in the enclosures."""
    pos, neg = np.maximum(low, 0.0), np.minimum(low, 0.0)
    z = b_lo + lo_m @ pos + hi_m @ neg
    total = np.abs(b_lo) + lo_m @ pos - hi_m @ neg
    down = np.nextafter(z - _margin(total, deg), -np.inf)
    return bool(np.all(down[free] >= low[free]))


# --- tie-breaking among optimal actions ---------------------------------------------------------

def extreme_profile(g: CompiledGame[S, A], cost: Sequence[Rational], minimise: bool
                    ) -> tuple[list[Rational], IntArray]:
    """Exact optimum of the expected total ``cost`` over stationary policies of ``g``.

    ``g`` must be stopping under every policy (the caller checks: no end component);
    ``cost`` is indexed by flat action. Returns the optimal expected totals and a choice
    of flat action per state attaining them (policy iteration per component, module
    docstring).
    """
    comps = decompose(g)
    pi = _PolicyIteration(g, cost, minimise)
    ptr: list[int] = comps.ptr.tolist()
    members: list[int] = comps.members.tolist()
    for c in range(comps.count):
        pi.solve(members[ptr[c] : ptr[c + 1]])
    return pi.x, np.array(pi.choice, dtype=np.int64)


class _PolicyIteration:
    """:func:`extreme_profile`'s working data: totals ``x`` and the policy ``choice``."""

    def __init__(self, g: CompiledGame[S, A], cost: Sequence[Rational], minimise: bool) -> None:
        self.cost = cost
        self.minimise = minimise
        self.act_ptr: list[int] = g.act_ptr.tolist()
        self.out_ptr: list[int] = g.out_ptr.tolist()
        self.target: list[int] = g.out_target.tolist()
        self.probs = _probs(g)
        self.x: list[Rational] = [bk.ZERO] * g.n_states
        self.choice = list(self.act_ptr[:-1])

    def q(self, k: int) -> Rational:
        """Expected total of action ``k`` from the current totals."""
        v = self.cost[k]
        x, target, probs = self.x, self.target, self.probs
        for o in range(self.out_ptr[k], self.out_ptr[k + 1]):
            xv = x[target[o]]
            if xv:
                v = v + probs[o] * xv
        return v

    def better(self, a: Rational, b: Rational) -> bool:
        return bool(a < b) if self.minimise else bool(a > b)

    def solve(self, states: list[int]) -> None:
        """Optimal totals and actions of one component (successors' totals final)."""
        act_ptr, out_ptr, target = self.act_ptr, self.out_ptr, self.target
        local = set(states)
        if not any(target[o] in local for i in states
                   for o in range(out_ptr[act_ptr[i]], out_ptr[act_ptr[i + 1]])):
            i = states[0]  # one state, no self-loop: the best action, directly
            self.choice[i], self.x[i] = self.best(i, self.q(self.choice[i]))
            return
        while True:  # policy iteration on the component
            solve_block(states, self.choice, self.cost, self.x, out_ptr, target, self.probs)
            switched = False
            for i in states:
                k = self.best(i, self.x[i])[0]
                if k != self.choice[i]:
                    self.choice[i], switched = k, True
            if not switched:
                return

    def best(self, i: int, cur: Rational) -> tuple[int, Rational]:
        """State ``i``'s best action against the current totals and its total: the chosen
        action (total ``cur``) unless another is strictly better."""
        choice = self.choice[i]
        best_k, best = choice, cur
        for k in range(self.act_ptr[i], self.act_ptr[i + 1]):
            if k != choice:
                v = self.q(k)
                if self.better(v, best):
                    best_k, best = k, v
        return best_k, best
