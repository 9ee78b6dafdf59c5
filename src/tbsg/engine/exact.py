"""Exact solution of stopping games: strategy iteration over strongly connected components.

Mathematics
-----------
For a *stopping* game (no end component, see :mod:`tbsg.engine.graph`) the Bellman operator

.. math:: (Tv)(s) = \\operatorname{opt}_{k \\in A(s)} \\Big(c_k + \\sum_j p_{kj}\\, v(j)\\Big)

has a unique fixed point, the value of the game (Shapley 1953; Condon 1992). Components
of the state graph are solved in reverse topological order (:func:`tbsg.engine.graph.decompose`),
so inside component ``C`` every successor outside ``C`` already has its exact value and

.. math:: v_C = b^{\\sigma} + P^{\\sigma}_{CC}\\, v_C, \\qquad
          b^{\\sigma}_s = c_{\\sigma(s)} + \\sum_{j \\notin C} p_{\\sigma(s) j}\\, v(j)

for a fixed strategy profile ``sigma``. Because the game is stopping, ``I - P_CC`` is
non-singular for every profile. The system is solved exactly by *state elimination*
(Gaussian elimination in the form ``v = b + P v``, eliminating the state with the
smallest Markowitz product first; Daws 2004), in exact rationals.

Inside a component the profile is improved by the Hoffman–Karp scheme (Hoffman and Karp
1966, "On nonterminating stochastic games"): for the current strategy of player 0,
player 1's exact best response is found by policy iteration (switching only to strictly
better actions); then player 0 switches wherever an action is strictly better against
the resulting values. Each outer step strictly increases player 0's guaranteed values,
so the scheme terminates; it stops when no action of either player is strictly better,
which is exactly the Bellman equation. The starting profile comes from a float
policy-iteration pass, so in practice one exact solve per component suffices.

Exact comparisons are decided by a *floating-point filter* (as in exact geometric
predicates, Shewchuk 1997): with values in [0, 1] and probabilities summing to at most
one, the float evaluation of ``c_k + sum p v`` from correctly rounded inputs is within
``(d + 3) u`` of the exact one (``d`` outcomes, ``u = 2**-53``; Higham 2002, section 3.1).
A comparison whose float margin exceeds twice that bound is decided in floats; only the
others are evaluated exactly. The filter only skips work: every decision it makes is
the exact one.

Cost notes: with thousands of bits per value, one big-rational addition (two gcds) costs
tens of microseconds, so the evaluation skips the operations that exact zeros and ones
make trivial (``0 + x``, ``1 * x``: states whose chosen action leaves the component with
probability one copy a value instead of computing it).
"""

from __future__ import annotations

import heapq
import time
import warnings
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from tbsg.engine import _backend as bk
from tbsg.engine._backend import Rational
from tbsg.engine.compile import CompiledGame
from tbsg.engine.graph import Components, decompose, end_component_states
from tbsg.errors import NonStoppingGameError

__all__ = ["ExactResult", "solve_exact"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

_FILTER_ULP = 2.0**-52  # twice the unit roundoff
_DENSE_MAX = 256  # components up to this size use dense float linear algebra


@dataclass(frozen=True, eq=False)
class ExactResult:
    """Raw output of :func:`solve_exact` (wrapped by :class:`tbsg.Solution`)."""

    values: list[Rational]
    choice: npt.NDArray[np.int64]
    optimal: npt.NDArray[np.bool_]
    components: Components
    improvements: int
    exact_solves: int
    seconds: float


def check_stopping(g: CompiledGame[S, A], allowed: npt.NDArray[np.bool_] | None,
                   comps: Components | None = None) -> None:
    """Raise :class:`NonStoppingGameError` if play can be kept in some set of states forever.

    ``comps`` (the game's :func:`~tbsg.engine.graph.decompose`) saves a component computation.
    """
    trap = end_component_states(g, allowed, scc=None if comps is None else comps.label)
    if trap.any():
        idx = np.flatnonzero(trap)
        sample = tuple(g.states[int(i)] for i in idx[:8])
        more = f" and {len(idx) - 8} more" if len(idx) > 8 else ""
        raise NonStoppingGameError(
            f"the game is not stopping: from {len(idx)} state(s), e.g. "
            f"{', '.join(repr(s) for s in sample)}{more}, the players can choose actions that "
            "keep play among non-terminal states forever, so no value is defined without a "
            "rule for infinite play",
            sample,
        )


class _Engine:
    """Per-solve working data: the graph as Python lists, exact and float values."""

    def __init__(self, g: CompiledGame[S, A], allowed: npt.NDArray[np.bool_] | None) -> None:
        self.g = g
        n = g.n_states
        self.act_ptr = g.act_ptr.tolist()
        self.out_ptr = g.out_ptr.tolist()
        self.target = g.out_target.tolist()
        self.player = g.player.tolist()
        if g.rationals is not None and g.act_code is not None and g.out_code is not None:
            table = [bk.from_fraction(x) for x in g.rationals]  # one conversion per value
            self.const_q = [table[c] for c in g.act_code.tolist()]
            self.prob_q = [table[c] for c in g.out_code.tolist()]
        else:
            memo: dict[int, Rational] = {}  # compile() interns equal probabilities

            def conv(x: Fraction) -> Rational:
                y = memo.get(id(x))
                if y is None:
                    y = memo[id(x)] = bk.from_fraction(x)
                return y

            self.const_q = [conv(c) for c in g.act_const]
            self.prob_q = [conv(p) for p in g.out_prob]
        # exact 0 and 1 are common (no terminal payoff; a sure successor): the hot loops
        # skip the big-rational operations they would cost
        self.const_zero = [not c for c in self.const_q]
        self.prob_one = [p == 1 for p in self.prob_q]
        const_f, prob_f = g.float_arrays()
        self.const_f = const_f.tolist()
        self.prob_f = prob_f.tolist()
        self.const_np, self.prob_np = const_f, prob_f
        self.vf_np = np.zeros(n)
        self.loc_np = np.full(n, -1, dtype=np.int64)
        self.values: list[Rational] = [None] * n
        self.vf: list[float] = [0.0] * n
        self.allowed_np = allowed
        self.allowed_l = allowed.tolist() if allowed is not None else None
        if allowed is None:
            first = g.act_ptr[:-1]
        else:
            idx = np.flatnonzero(allowed)
            first = idx[np.searchsorted(g.act_state[idx], np.arange(n))]
        self.choice: list[int] = first.tolist()
        self.improvements = 0
        self.exact_solves = 0

    def acts_of(self, i: int) -> list[int]:
        """Allowed flat actions of state ``i``."""
        ks = range(self.act_ptr[i], self.act_ptr[i + 1])
        al = self.allowed_l
        return list(ks) if al is None else [k for k in ks if al[k]]

    # -- single action values ------------------------------------------------------------
    def qf(self, k: int, local: dict[int, int] | None = None, x: list[float] | None = None) -> float:
        """Float value of action ``k`` (in-component successors read from ``x``)."""
        total = self.const_f[k]
        vf, target, prob = self.vf, self.target, self.prob_f
        for o in range(self.out_ptr[k], self.out_ptr[k + 1]):
            j = target[o]
            if local is not None and x is not None and j in local:
                total += prob[o] * x[local[j]]
            else:
                total += prob[o] * vf[j]
        return float(total)

    def qx(self, k: int) -> Rational:
        """Exact value of action ``k`` from the exact values of its successors."""
        total = self.const_q[k]
        values, target, prob = self.values, self.target, self.prob_q
        for o in range(self.out_ptr[k], self.out_ptr[k + 1]):
            total += prob[o] * values[target[o]]
        return total

    def tol(self, k: int) -> float:
        return float(self.out_ptr[k + 1] - self.out_ptr[k] + 4) * _FILTER_ULP

    def better(self, i: int, k: int, ref_f: float, ref_q: Rational) -> bool:
        """Is action ``k`` strictly better than value ``ref`` for the owner of state ``i``?"""
        d = self.qf(k) - ref_f
        t = self.tol(k) + _FILTER_ULP
        sign = 1 if self.player[i] == 0 else -1
        if sign * d > t:
            return True
        if sign * d < -t:
            return False
        q = self.qx(k)
        return bool(q > ref_q) if sign == 1 else bool(q < ref_q)

    def _set(self, i: int, v: Rational) -> None:
        self.values[i] = v
        self.vf[i] = f = bk.to_float(v)
        self.vf_np[i] = f

    # -- components ----------------------------------------------------------------------
    def solve_singleton(self, i: int) -> None:
        """A component of one state without self-loop: opt over actions, exactly."""
        acts = self.acts_of(i)
        if len(acts) == 1:
            k = acts[0]
            self.choice[i] = k
            self._set(i, self.qx(k))
            return
        maximise = self.player[i] == 0
        qfs = [self.qf(k) for k in acts]
        best_f = max(qfs) if maximise else min(qfs)
        # candidates: actions not provably worse than the float best
        max_tol = max(self.tol(k) for k in acts)
        cands = [k for k, q in zip(acts, qfs, strict=True) if abs(q - best_f) <= self.tol(k) + max_tol]
        best_k = cands[0]
        best_q = self.qx(best_k)
        for k in cands[1:]:
            q = self.qx(k)
            if (q > best_q) if maximise else (q < best_q):
                best_k, best_q = k, q
        self.choice[i] = best_k
        self._set(i, best_q)

    def has_self_loop(self, i: int) -> bool:
        for k in self.acts_of(i):
            for o in range(self.out_ptr[k], self.out_ptr[k + 1]):
                if self.target[o] == i:
                    return True
        return False

    def is_singleton(self, states: list[int]) -> bool:
        """A component of one state without self-loop (solved by :meth:`solve_singleton`)."""
        return len(states) == 1 and not self.has_self_loop(states[0])

    def solve_component(self, states: list[int], warm: bool = True) -> None:
        """Hoffman-Karp on one component, from a float warm start or the current profile."""
        if self.is_singleton(states):
            self.solve_singleton(states[0])
            return
        comp = _Component(self, states)
        if warm:
            self._float_warm_start(comp)
        while True:  # Hoffman-Karp outer loop (player 0 improves)
            while True:  # player 1's best response by policy iteration
                self._evaluate(states, comp.local)
                if not self._improve(comp, owner=1):
                    break
            if not self._improve(comp, owner=0):
                break

    def improvable(self, states: npt.NDArray[np.int64]) -> set[int]:
        """States among ``states`` with an action *strictly* better than the current one.

        Every state's value must be exact and current. Float filter first (vectorised):
        only actions within the rounding bound of the current value are compared exactly.
        """
        g = self.g
        starts = g.act_ptr[states]
        counts = g.act_ptr[states + 1] - starts
        acts = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))
        owner_state = np.repeat(states, counts)
        choice = self.choice
        chosen = np.repeat(np.array([choice[i] for i in states.tolist()], dtype=np.int64), counts)
        keep = acts != chosen
        if self.allowed_np is not None:
            keep &= self.allowed_np[acts]
        acts, owner_state = acts[keep], owner_state[keep]
        if not len(acts):
            return set()
        o_start = g.out_ptr[acts]
        deg = g.out_ptr[acts + 1] - o_start
        outs = np.repeat(o_start - np.cumsum(deg) + deg, deg) + np.arange(int(deg.sum()))
        rows = np.repeat(np.arange(len(acts)), deg)
        qf = self.const_np[acts] + np.bincount(
            rows, weights=self.prob_np[outs] * self.vf_np[g.out_target[outs]], minlength=len(acts))
        sign = np.where(g.player[owner_state] == 0, 1.0, -1.0)
        tol = (deg + 5) * _FILTER_ULP
        maybe = np.flatnonzero(sign * (qf - self.vf_np[owner_state]) >= -tol)
        found: set[int] = set()
        for r in maybe.tolist():
            i, k = int(owner_state[r]), int(acts[r])
            if i in found:
                continue
            q, ref = self.qx(k), self.values[i]
            if (q > ref) if self.player[i] == 0 else (q < ref):
                found.add(i)
        return found

    def _improve(self, comp: _Component, owner: int) -> bool:
        """Switch ``owner``'s states to a strictly better action; True if any switched."""
        vf = np.array([self.vf[i] for i in comp.states])
        q = comp.q_float(vf)
        cur_v = vf[comp.act_row]
        sign = np.where(comp.act_owner == 0, 1.0, -1.0)
        gain = sign * (q - cur_v)
        maybe = (gain > -comp.tol) & (comp.act_owner == owner) & comp.multi
        switched = False
        for r in np.unique(comp.act_row[maybe]).tolist():
            i = comp.states[r]
            cur = self.choice[i]
            ref_f, ref_q = self.vf[i], self.values[i]
            best: int | None = None
            best_f = 0.0
            for k in self.acts_of(i):
                if k != cur and self.better(i, k, ref_f, ref_q):
                    f = self.qf(k)
                    if best is None or (f > best_f if owner == 0 else f < best_f):
                        best, best_f = k, f
            if best is not None:
                self.choice[i] = best
                self.improvements += 1
                switched = True
        return switched

    def _float_warm_start(self, comp: _Component) -> None:
        """Float policy iteration (bounded number of rounds) to pick a starting profile."""
        m = len(comp.states)
        pick = comp.greedy(comp.q_float(np.full(m, 0.5)))
        for _ in range(30):
            for r, i in enumerate(comp.states):
                self.choice[i] = comp.acts_l[pick[r]]
            x = comp.solve_float(pick)
            if x is None:  # singular in floats: keep this profile, exact work decides
                return
            q = comp.q_float(x)
            best = comp.greedy(q)
            sign = np.where(comp.state_owner == 0, 1.0, -1.0)
            switch = sign * (q[best] - q[pick]) > 1e-13
            if not switch.any():
                return
            pick = np.where(switch, best, pick)
        for r, i in enumerate(comp.states):
            self.choice[i] = comp.acts_l[pick[r]]

    def _evaluate(self, states: list[int], local: dict[int, int]) -> None:
        """Exact values of the current profile on one component, by state elimination."""
        self.exact_solves += 1
        m = len(states)
        rows: list[dict[int, Rational]] = []
        rhs: list[Rational] = []
        users: list[set[int]] = [set() for _ in range(m)]
        choice, const_q, const_zero = self.choice, self.const_q, self.const_zero
        out_ptr, target, prob_q, prob_one = self.out_ptr, self.target, self.prob_q, self.prob_one
        values_all = self.values
        for r, i in enumerate(states):
            k = choice[i]
            b = const_q[k]
            b_zero = const_zero[k]
            row: dict[int, Rational] = {}
            for o in range(out_ptr[k], out_ptr[k + 1]):
                j = target[o]
                c = local.get(j)
                if c is None:
                    t = values_all[j] if prob_one[o] else prob_q[o] * values_all[j]
                    if b_zero:
                        b, b_zero = t, False
                    else:
                        b = b + t
                else:
                    row[c] = prob_q[o]
                    if c != r:
                        users[c].add(r)
            rows.append(row)
            rhs.append(b)
        values = _eliminate(rows, rhs, users)
        vf, vf_np = self.vf, self.vf_np
        to_float = bk.to_float
        for r, i in enumerate(states):
            v = values[r]
            values_all[i] = v
            vf[i] = vf_np[i] = to_float(v)


class _Component:
    """Vectorised float view of one component: its actions and local transition matrix."""

    def __init__(self, eng: _Engine, states: list[int]) -> None:
        g = eng.g
        self.states = states
        self.local = {s: r for r, s in enumerate(states)}
        m = len(states)
        acts: list[int] = []
        seg: list[int] = []
        rows: list[int] = []
        for r, i in enumerate(states):
            seg.append(len(acts))
            ks = eng.acts_of(i)
            acts.extend(ks)
            rows.extend([r] * len(ks))
        self.acts_l = acts
        act = np.array(acts, dtype=np.int64)
        self.seg = np.array(seg, dtype=np.int64)
        self.act_row = np.array(rows, dtype=np.int64)
        self.state_owner = g.player[np.array(states, dtype=np.int64)].astype(np.int64)
        self.act_owner = self.state_owner[self.act_row]
        counts = np.diff(np.append(self.seg, len(acts)))
        self.multi = (counts > 1)[self.act_row]
        o_start, o_end = g.out_ptr[act], g.out_ptr[act + 1]
        deg = o_end - o_start
        self.tol = (deg + 6) * _FILTER_ULP
        outs = np.repeat(o_start - np.cumsum(deg) + deg, deg) + np.arange(int(deg.sum()))
        out_row = np.repeat(np.arange(len(acts)), deg)
        tgt = g.out_target[outs]
        loc = eng.loc_np
        st = np.array(states, dtype=np.int64)
        loc[st] = np.arange(m)
        ltgt = loc[tgt]
        loc[st] = -1
        inside = ltgt >= 0
        p = eng.prob_np[outs]
        self.b = eng.const_np[act] + np.bincount(
            out_row[~inside], weights=p[~inside] * eng.vf_np[tgt[~inside]], minlength=len(acts))
        self.dense = m <= _DENSE_MAX
        if self.dense:
            dense = np.zeros((len(acts), m))
            np.add.at(dense, (out_row[inside], ltgt[inside]), p[inside])
            self.pmat: npt.NDArray[np.float64] | sp.csr_matrix = dense
        else:
            self.pmat = sp.csr_matrix((p[inside], (out_row[inside], ltgt[inside])),
                                      shape=(len(acts), m))


    def q_float(self, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """Float action values with in-component values ``x`` (outside values fixed)."""
        return self.b + self.pmat @ x

    def greedy(self, q: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
        """Index (into the component's actions) of the best action of each state."""
        owner = self.state_owner
        hi = np.maximum.reduceat(q, self.seg)
        lo = np.minimum.reduceat(q, self.seg)
        target = np.where(owner == 0, hi, lo)
        hit = q == target[self.act_row]
        idx = np.flatnonzero(hit)
        first = np.full(len(self.seg), -1, dtype=np.int64)
        # first hit per row: scan reversed so earlier indices overwrite later ones
        first[self.act_row[idx[::-1]]] = idx[::-1]
        return first

    def solve_float(self, pick: npt.NDArray[np.int64]) -> npt.NDArray[np.float64] | None:
        """Float values of the profile ``pick`` (one action index per state).

        ``None`` when the system is singular in floating point (a cycle that stops with
        probability below float resolution): the float pass is only a warm start, so the
        caller keeps its current profile and leaves the decision to exact arithmetic.
        """
        m = len(self.states)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                if isinstance(self.pmat, np.ndarray):
                    x = np.asarray(np.linalg.solve(np.eye(m) - self.pmat[pick], self.b[pick]),
                                   dtype=np.float64)
                else:
                    a = sp.identity(m, format="csc") - self.pmat[pick].tocsc()
                    x = np.atleast_1d(spla.spsolve(a, self.b[pick]))
            except (np.linalg.LinAlgError, RuntimeError, ValueError):
                return None
        if not np.all(np.isfinite(x)):
            return None
        return x


def _eliminate(rows: list[dict[int, Rational]], rhs: list[Rational],
               users: list[set[int]]) -> list[Rational]:
    """Solve ``v = rhs + R v`` (R given by sparse rows) exactly by state elimination.

    Pivot order: smallest Markowitz product ``|users| * |row|`` first (lazy heap).
    """
    m = len(rows)
    done = [False] * m
    order: list[int] = []
    heap = [(len(users[r]) * len(rows[r]), r) for r in range(m)]
    heapq.heapify(heap)
    one = bk.ONE
    while heap:
        cost, s = heapq.heappop(heap)
        if done[s]:
            continue
        now = len(users[s]) * len(rows[s])
        if now != cost:
            heapq.heappush(heap, (now, s))
            continue
        done[s] = True
        order.append(s)
        row_s = rows[s]
        self_p = row_s.pop(s, None)
        if self_p is not None:
            f = one / (one - self_p)
            rhs[s] = rhs[s] * f
            for j in row_s:
                row_s[j] = row_s[j] * f
        rhs_s = rhs[s]
        for r in users[s]:
            row_r = rows[r]
            coef = row_r.pop(s)
            if rhs_s:  # skip exact zeros: big-rational additions dominate the cost
                rr = rhs[r]
                rhs[r] = rr + coef * rhs_s if rr else coef * rhs_s
            for j, c in row_s.items():
                prev = row_r.get(j)
                row_r[j] = coef * c if prev is None else prev + coef * c
                if j != r:
                    users[j].add(r)
            heapq.heappush(heap, (len(users[r]) * len(row_r), r))
        for j in row_s:
            users[j].discard(s)
        users[s] = set()
    values: list[Rational] = [None] * m
    for s in reversed(order):
        v = rhs[s]
        for j, c in rows[s].items():
            x = values[j]
            if x:
                v = v + c * x if v else c * x
        values[s] = v
    return values


def optimal_mask(g: CompiledGame[S, A], values: list[Rational],
                 allowed: npt.NDArray[np.bool_] | None,
                 choice: npt.NDArray[np.int64] | None = None,
                 exact_q: Callable[[int], Rational] | None = None,
                 vf: npt.NDArray[np.float64] | None = None) -> npt.NDArray[np.bool_]:
    """Mask of flat actions whose exact value equals their state's value (ties included).

    ``choice`` (optional): actions known to attain their state's value exactly (the
    profile ``values`` solve), marked without recomputation. ``exact_q(k)`` (optional)
    computes action ``k``'s exact value from ``values``; ``vf`` (optional) holds the
    correctly rounded floats of ``values``.
    """
    if vf is None:
        vf = np.array([bk.to_float(v) for v in values], dtype=np.float64)
    const_f, prob_f = g.float_arrays()
    oa = g.out_action()
    qf = const_f + np.bincount(oa, weights=prob_f * vf[g.out_target], minlength=g.n_actions)
    deg = np.diff(g.out_ptr)
    tol = (deg + 6) * _FILTER_ULP
    near = np.abs(qf - vf[g.act_state]) <= tol
    if allowed is not None:
        near &= allowed
    mask = np.zeros(g.n_actions, dtype=bool)
    if choice is not None:
        mask[choice] = True
        near[choice] = False
    if exact_q is None:
        consts = [bk.from_fraction(c) for c in g.act_const]
        out_ptr = g.out_ptr

        def exact_q(k: int) -> Rational:
            q = consts[k]
            for o in range(int(out_ptr[k]), int(out_ptr[k + 1])):
                q = q + bk.from_fraction(g.out_prob[o]) * values[int(g.out_target[o])]
            return q

    act_state = g.act_state
    for k in np.flatnonzero(near).tolist():
        mask[k] = exact_q(k) == values[int(act_state[k])]
    return mask


def solve_exact(
    g: CompiledGame[S, A],
    allowed: npt.NDArray[np.bool_] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ExactResult:
    """Solve a compiled game exactly.

    Parameters
    ----------
    g : CompiledGame
    allowed : bool array over flat actions, optional
        Restrict each state's actions (used to fix one or both players' strategies).
    progress : callable, optional
        Called as ``progress(done_states, total_states)`` between components.

    Raises
    ------
    NonStoppingGameError
        If the game (restricted to ``allowed``) has an end component.
    """
    t0 = time.perf_counter()
    comps = decompose(g)
    check_stopping(g, allowed, comps)
    eng = _Engine(g, allowed)
    from tbsg.engine.floating import float_profile  # import here: float_solver imports this module

    eng.choice = float_profile(g, allowed, comps).tolist()
    ptr = comps.ptr.tolist()
    members = comps.members.tolist()
    levels = comps.level.tolist()
    c = 0
    while c < comps.count:
        c_end = c
        while c_end < comps.count and levels[c_end] == levels[c]:
            c_end += 1
        # exact evaluation of the float profile, component by component
        multi: list[int] = []
        for d in range(c, c_end):
            states = members[ptr[d] : ptr[d + 1]]
            if eng.is_singleton(states):
                eng.solve_singleton(states[0])
            else:
                eng._evaluate(states, {s: r for r, s in enumerate(states)})
                multi.extend(states)
        # exact optimality check of the whole level; Hoffman-Karp where it fails
        if multi:
            bad = eng.improvable(np.array(multi, dtype=np.int64))
            for d in sorted({int(comps.label[i]) for i in bad}):
                eng.solve_component(members[ptr[d] : ptr[d + 1]], warm=False)
        if progress is not None:
            progress(ptr[c_end], g.n_states)
        c = c_end
    opt = optimal_mask(g, eng.values, allowed, np.array(eng.choice, dtype=np.int64), eng.qx,
                       eng.vf_np)
    return ExactResult(
        values=eng.values,
        choice=np.array(eng.choice, dtype=np.int64),
        optimal=opt,
        components=comps,
        improvements=eng.improvements,
        exact_solves=eng.exact_solves,
        seconds=time.perf_counter() - t0,
    )
