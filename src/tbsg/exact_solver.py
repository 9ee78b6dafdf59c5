"""Exact solution of stopping games: strategy iteration over strongly connected components.

Mathematics
-----------
For a *stopping* game (no end component, see :mod:`tbsg.graph`) the Bellman operator

.. math:: (Tv)(s) = \\operatorname{opt}_{k \\in A(s)} \\Big(c_k + \\sum_j p_{kj}\\, v(j)\\Big)

has a unique fixed point, the value of the game (Shapley 1953; Condon 1992). Components
of the state graph are solved in reverse topological order (:func:`tbsg.graph.decompose`),
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
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from tbsg import _backend as bk
from tbsg._backend import Rational
from tbsg.compile import CompiledGame
from tbsg.errors import NonStoppingGameError
from tbsg.graph import Components, decompose, end_component_states, out_action

__all__ = ["ExactResult", "solve_exact"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

_FILTER_ULP = 2.0**-52  # twice the unit roundoff


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


def check_stopping(g: CompiledGame[S, A], allowed: npt.NDArray[np.bool_] | None) -> None:
    """Raise :class:`NonStoppingGameError` if play can be kept in some set of states forever."""
    trap = end_component_states(g, allowed)
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
        self.const_q = [bk.from_fraction(c) for c in g.act_const]
        self.prob_q = [bk.from_fraction(p) for p in g.out_prob]
        self.const_f = [float(c) for c in g.act_const]
        self.prob_f = [float(p) for p in g.out_prob]
        self.values: list[Rational] = [None] * n
        self.vf: list[float] = [0.0] * n
        allowed_l = allowed.tolist() if allowed is not None else None
        self.allowed: list[list[int]] = []
        for i in range(n):
            ks = range(self.act_ptr[i], self.act_ptr[i + 1])
            self.allowed.append([k for k in ks if allowed_l is None or allowed_l[k]])
        self.choice = [self.allowed[i][0] for i in range(n)]
        self.improvements = 0
        self.exact_solves = 0

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
        return total

    def qx(self, k: int) -> Rational:
        """Exact value of action ``k`` from the exact values of its successors."""
        total = self.const_q[k]
        values, target, prob = self.values, self.target, self.prob_q
        for o in range(self.out_ptr[k], self.out_ptr[k + 1]):
            total += prob[o] * values[target[o]]
        return total

    def tol(self, k: int) -> float:
        return (self.out_ptr[k + 1] - self.out_ptr[k] + 4) * _FILTER_ULP

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
        self.vf[i] = bk.to_float(v)

    # -- components ----------------------------------------------------------------------
    def solve_singleton(self, i: int) -> None:
        """A component of one state without self-loop: opt over actions, exactly."""
        acts = self.allowed[i]
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
        cands = [k for k, q in zip(acts, qfs) if abs(q - best_f) <= self.tol(k) + max_tol]
        best_k = cands[0]
        best_q = self.qx(best_k)
        for k in cands[1:]:
            q = self.qx(k)
            if (q > best_q) if maximise else (q < best_q):
                best_k, best_q = k, q
        self.choice[i] = best_k
        self._set(i, best_q)

    def has_self_loop(self, i: int) -> bool:
        for k in self.allowed[i]:
            for o in range(self.out_ptr[k], self.out_ptr[k + 1]):
                if self.target[o] == i:
                    return True
        return False

    def solve_component(self, states: list[int]) -> None:
        if len(states) == 1 and not self.has_self_loop(states[0]):
            self.solve_singleton(states[0])
            return
        local = {s: idx for idx, s in enumerate(states)}
        self._float_warm_start(states, local)
        while True:  # Hoffman-Karp outer loop (player 0 improves)
            while True:  # player 1's best response by policy iteration
                self._evaluate(states, local)
                if not self._improve(states, owner=1):
                    break
            if not self._improve(states, owner=0):
                break

    def _improve(self, states: list[int], owner: int) -> bool:
        switched = False
        for i in states:
            if self.player[i] != owner or len(self.allowed[i]) == 1:
                continue
            cur = self.choice[i]
            ref_f, ref_q = self.vf[i], self.values[i]
            best: int | None = None
            best_f = 0.0
            for k in self.allowed[i]:
                if k != cur and self.better(i, k, ref_f, ref_q):
                    f = self.qf(k)
                    if best is None or (f > best_f if owner == 0 else f < best_f):
                        best, best_f = k, f
            if best is not None:
                self.choice[i] = best
                self.improvements += 1
                switched = True
        return switched

    def _float_warm_start(self, states: list[int], local: dict[int, int]) -> None:
        """Float policy iteration (bounded number of rounds) to pick a starting profile."""
        m = len(states)
        x = [0.5] * m
        for i in states:  # greedy start against 1/2 inside the component
            acts = self.allowed[i]
            if len(acts) > 1:
                qs = [self.qf(k, local, x) for k in acts]
                pick = max if self.player[i] == 0 else min
                self.choice[i] = acts[qs.index(pick(qs))]
        for _ in range(30):
            x = self._float_evaluate(states, local)
            changed = False
            for i in states:
                acts = self.allowed[i]
                if len(acts) == 1:
                    continue
                cur = self.qf(self.choice[i], local, x)
                sign = 1.0 if self.player[i] == 0 else -1.0
                best_k, best_gain = self.choice[i], 1e-13
                for k in acts:
                    gain = sign * (self.qf(k, local, x) - cur)
                    if gain > best_gain:
                        best_k, best_gain = k, gain
                if best_k != self.choice[i]:
                    self.choice[i] = best_k
                    changed = True
            if not changed:
                return

    def _float_evaluate(self, states: list[int], local: dict[int, int]) -> list[float]:
        m = len(states)
        rows: list[int] = []
        cols: list[int] = []
        data: list[float] = []
        rhs = np.zeros(m)
        for r, i in enumerate(states):
            k = self.choice[i]
            b = self.const_f[k]
            rows.append(r)
            cols.append(r)
            data.append(1.0)
            for o in range(self.out_ptr[k], self.out_ptr[k + 1]):
                j = self.target[o]
                c = local.get(j)
                if c is None:
                    b += self.prob_f[o] * self.vf[j]
                else:
                    rows.append(r)
                    cols.append(c)
                    data.append(-self.prob_f[o])
            rhs[r] = b
        mat = sp.csc_matrix((data, (rows, cols)), shape=(m, m))
        sol = spla.spsolve(mat, rhs)
        return [float(v) for v in np.atleast_1d(sol)]

    def _evaluate(self, states: list[int], local: dict[int, int]) -> None:
        """Exact values of the current profile on one component, by state elimination."""
        self.exact_solves += 1
        m = len(states)
        rows: list[dict[int, Rational]] = []
        rhs: list[Rational] = []
        users: list[set[int]] = [set() for _ in range(m)]
        for r, i in enumerate(states):
            k = self.choice[i]
            b = self.const_q[k]
            row: dict[int, Rational] = {}
            for o in range(self.out_ptr[k], self.out_ptr[k + 1]):
                j = self.target[o]
                c = local.get(j)
                if c is None:
                    b = b + self.prob_q[o] * self.values[j]
                else:
                    row[c] = self.prob_q[o]
                    if c != r:
                        users[c].add(r)
            rows.append(row)
            rhs.append(b)
        values = _eliminate(rows, rhs, users)
        for r, i in enumerate(states):
            self._set(i, values[r])


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
        for r in users[s]:
            row_r = rows[r]
            coef = row_r.pop(s)
            rhs[r] = rhs[r] + coef * rhs[s]
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
            v = v + c * values[j]
        values[s] = v
    return values


def optimal_mask(g: CompiledGame[S, A], values: list[Rational],
                 allowed: npt.NDArray[np.bool_] | None) -> npt.NDArray[np.bool_]:
    """Mask of flat actions whose exact value equals their state's value (ties included)."""
    vf = np.array([bk.to_float(v) for v in values], dtype=np.float64)
    const_f, prob_f = g.float_arrays()
    oa = out_action(g)
    qf = const_f + np.bincount(oa, weights=prob_f * vf[g.out_target], minlength=g.n_actions)
    deg = np.diff(g.out_ptr)
    tol = (deg + 6) * _FILTER_ULP
    near = np.abs(qf - vf[g.act_state]) <= tol
    if allowed is not None:
        near &= allowed
    mask = np.zeros(g.n_actions, dtype=bool)
    consts = [bk.from_fraction(c) for c in g.act_const]
    out_ptr = g.out_ptr
    for k in np.flatnonzero(near).tolist():
        q = consts[k]
        for o in range(int(out_ptr[k]), int(out_ptr[k + 1])):
            q = q + bk.from_fraction(g.out_prob[o]) * values[int(g.out_target[o])]
        mask[k] = q == values[int(g.act_state[k])]
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
    check_stopping(g, allowed)
    comps = decompose(g)
    eng = _Engine(g, allowed)
    ptr = comps.ptr.tolist()
    members = comps.members.tolist()
    for c in range(comps.count):
        eng.solve_component(members[ptr[c] : ptr[c + 1]])
        if progress is not None:
            progress(ptr[c + 1], g.n_states)
    opt = optimal_mask(g, eng.values, allowed)
    return ExactResult(
        values=eng.values,
        choice=np.array(eng.choice, dtype=np.int64),
        optimal=opt,
        components=comps,
        improvements=eng.improvements,
        exact_solves=eng.exact_solves,
        seconds=time.perf_counter() - t0,
    )
