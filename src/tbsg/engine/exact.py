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
(:mod:`tbsg.engine.linalg`: Gaussian elimination in the form ``v = b + P v``, the state
with the smallest Markowitz product first), in exact rationals. Components of one
*shape* (the same probabilities, as codes into the compiled game's table of rationals, at the
same places) have the same ``P_CC``: the elimination of the first is kept as a plan and
replayed on the right-hand sides of the others.

Inside a component the profile is improved by the Hoffman–Karp scheme (Hoffman and Karp
1966, "On nonterminating stochastic games"): for the current strategy of player 0,
player 1's exact best response is found by policy iteration (switching only to strictly
better actions); then player 0 switches wherever an action is strictly better against
the resulting values. Each outer step strictly increases player 0's guaranteed values,
so the scheme terminates; it stops when no action of either player is strictly better,
which is exactly the Bellman equation. The starting profile comes from a float
policy-iteration pass, so in practice one exact solve per component suffices.

Exact comparisons go through the kernel's *floating-point filter*
(:mod:`tbsg.engine.bellman`, where its bound is derived): a comparison whose float margin
exceeds the bound is decided in floats, the others exactly (for values outside [0, 1], a
game that is not a win-probability game, the bound is scaled by the magnitudes of the
values compared: :func:`tbsg.engine.bellman.magnitudes`). The filter only skips work:
every decision it makes is the exact one. The game must be stopping (the pipeline checks
it first, :func:`tbsg.engine.graph.end_components`).

Cost notes: with thousands of bits per value, one big-rational addition costs a gcd of
numbers of that size, far more than the multiplications and additions themselves. So the
evaluation skips the operations that exact zeros and ones make trivial (``0 + x``,
``1 * x``: a state whose chosen action leaves the component with probability one copies a
value instead of computing it), values the states whose chosen action reads no state of
the component directly, and solves the rest on integers when the values read are big: with
``L`` the lcm of the denominators read and ``d0`` that of the game's own probabilities,
every right-hand side is an integer over ``d0 L``, the elimination is replayed with small
integer multipliers (:class:`tbsg.engine.linalg.IntegerPlan`), and one gcd per component
puts every value in lowest terms (:func:`tbsg.engine._backend.lowest_terms`). Values are
stored once, as backend rationals, and read as ``Fraction`` at the API boundary.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from tbsg.engine import _backend as bk
from tbsg.engine._backend import Rational
from tbsg.engine.adic import AdicValues
from tbsg.engine.bellman import (
    ExactActions,
    Rows,
    action_signs,
    filter_bound,
    magnitudes,
    q_float,
    rounding_counts,
)
from tbsg.engine.boundary import BoundaryValues, boundary_states
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.floating import float_profile
from tbsg.engine.graph import Components, trivial_states
from tbsg.engine.linalg import IntegerPlan, Plan, integer_plan, plan
from tbsg.engine.optimality import optimal_mask

__all__ = ["AUTO_KEEP_BYTES", "ExactResult", "recomputed_values", "solve_exact"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
AUTO_KEEP_BYTES = 2**27
"""The interior-value budget of ``keep_values="auto"`` (:func:`tbsg.solve`): 128 MB."""
_DENSE_MAX = 256  # components up to this size use dense float linear algebra
_VECTOR_MIN = 64  # levels of this many trivial states choose their candidates with arrays
_NARROW_ADIC = 256  # at most this many narrower acyclic levels go the integer way
_WARM_ROUNDS = 30  # float policy-iteration rounds of a component's warm start
_WARM_GAIN = 1e-13  # a warm start switches only on a float gain above this (a heuristic)


@dataclass(frozen=True, eq=False)
class ExactResult:
    """Raw output of :func:`solve_exact` (wrapped by :class:`tbsg.Solution`)."""

    values: Sequence[Rational]
    choice: IntArray
    optimal: BoolArray
    components: Components
    improvements: int
    exact_solves: int
    seconds: float


class _Engine:
    """Per-solve working data: exact and float values, the chosen actions, the kernel."""

    def __init__(self, g: CompiledGame[S, A], allowed: BoolArray | None) -> None:
        self.g = g
        n = g.n_states
        self.values: list[Rational] = [bk.ZERO] * n  # each state's entry is set when it is solved
        self.vf: list[float] = [0.0] * n
        self.vf_np = np.zeros(n)
        self.const_np, self.prob_np = g.float_arrays()
        self.loc_np = np.full(n, -1, dtype=np.int64)
        self.allowed_np = allowed
        self.allowed_l: list[bool] | None = allowed.tolist() if allowed is not None else None
        if allowed is None:
            first = g.act_ptr[:-1]
        else:
            idx = np.flatnonzero(allowed)
            first = idx[np.searchsorted(g.act_state[idx], np.arange(n))]
        self.choice: list[int] = first.tolist()
        self.improvements = 0
        self.exact_solves = 0
        # states whose optimal actions are known already (flags in ``optimal``)
        self.decided = np.zeros(n, dtype=bool)
        self.optimal = np.zeros(g.n_actions, dtype=bool)
        self.adic: AdicValues | None = None  # built by the first wide acyclic level
        self.adic_ok = False  # did the last acyclic level go the integer way?
        # elimination plans by system shape: components of the same shape (common in games
        # built from repeated rules) redo only the right-hand side
        self.plans: dict[tuple[tuple[tuple[int, int], ...], ...], _SystemPlan] = {}
        self.seen: set[int] = set()  # hashes of the shapes solved once (kept from the second)

    # built on first use: a game settled by integer levels (:meth:`_adic_level`) needs none
    @cached_property
    def kernel(self) -> ExactActions:
        """The scalar exact Bellman step (per-action lists of the whole game)."""
        return ExactActions(self.g, self.values, self.vf)

    @cached_property
    def act_ptr(self) -> list[int]:
        out: list[int] = self.g.act_ptr.tolist()
        return out

    @cached_property
    def player(self) -> list[int]:
        out: list[int] = self.g.player.tolist()
        return out

    @property
    def out_ptr(self) -> Sequence[int]:
        return self.kernel.out_ptr

    @property
    def target(self) -> Sequence[int]:
        return self.kernel.target

    @property
    def out_code(self) -> Sequence[int]:
        """Per outcome: the code of its probability in ``g.rationals``."""
        return self.kernel.out_code

    @property
    def act_code(self) -> Sequence[int]:
        """Per action: the code of its constant in ``g.rationals``."""
        return self.kernel.act_code

    @cached_property
    def table_ratio(self) -> tuple[list[int], list[int]]:
        """Numerators and denominators of ``g.rationals`` (Python integers)."""
        rs = self.g.rationals
        return [x.numerator for x in rs], [x.denominator for x in rs]

    @property
    def table(self) -> list[Rational]:
        """``g.rationals`` in the backend type."""
        return self.kernel.table

    @cached_property
    def rounding(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
        """:func:`tbsg.engine.bellman.rounding_counts` of the game."""
        return rounding_counts(self.g)

    def acts_of(self, i: int) -> list[int]:
        """Allowed flat actions of state ``i``."""
        ks = range(self.act_ptr[i], self.act_ptr[i + 1])
        al = self.allowed_l
        return list(ks) if al is None else [k for k in ks if al[k]]

    def _set(self, i: int, v: Rational) -> None:
        self.values[i] = v
        self.vf[i] = f = bk.to_float(v)
        self.vf_np[i] = f

    # -- components ----------------------------------------------------------------------
    def solve_singleton(self, i: int) -> None:
        """A component of one state without self-loop: opt over actions, exactly."""
        acts = self.acts_of(i)
        kernel = self.kernel
        if len(acts) == 1:
            k = acts[0]
            self.choice[i] = k
            self._set(i, kernel.qx(k))
            return
        maximise = self.player[i] == 0
        qfs = [kernel.qf(k) for k in acts]
        best_f = max(qfs) if maximise else min(qfs)
        # candidates: the actions whose float value may equal the best one's exactly
        # (within the sum of the two filter bounds)
        widest = max(kernel.bound(k) for k in acts)
        cands = [k for k, q in zip(acts, qfs, strict=True) if abs(q - best_f) <= kernel.bound(k) + widest]
        best_k = cands[0]
        best_q = kernel.qx(best_k)
        for k in cands[1:]:
            q = kernel.qx(k)
            if (q > best_q) if maximise else (q < best_q):
                best_k, best_q = k, q
        self.choice[i] = best_k
        self._set(i, best_q)

    def solve_trivial(self, states: IntArray) -> None:
        """Components of one state without self-loop, many at once (one level).

        The float filter picks, with arrays, each state's candidate actions: those whose
        computed value is within the two filter bounds of the best computed value (only
        they can be exactly optimal); the exact values of the candidates are then computed
        and compared, usually one per state.
        """
        g = self.g
        starts = g.act_ptr[states]
        counts = g.act_ptr[states + 1] - starts
        acts = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))
        owner = np.repeat(np.arange(len(states)), counts)
        if self.allowed_np is not None:
            keep = self.allowed_np[acts]
            acts, owner = acts[keep], owner[keep]
        qf = q_float(g, self.vf_np, acts)
        sign = np.where(g.player[states] == 0, 1.0, -1.0)[owner]
        key = qf * sign  # maximise for both players (negation is exact)
        bound = filter_bound(g.out_ptr[acts + 1] - g.out_ptr[acts])
        if not g.win_probability:  # values outside [0, 1]: the bound scales with them
            bound = bound * magnitudes(g, self.vf_np, acts, with_state=False)
        seg = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
        best = np.maximum.reduceat(key, seg)[owner]
        widest = np.maximum.reduceat(bound, seg)[owner]
        cand = key >= best - (bound + widest)
        if self._adic_level(states, acts[cand], owner[cand]):
            return
        ks: list[int] = acts[cand].tolist()
        who: list[int] = owner[cand].tolist()
        maxi: list[bool] = (g.player[states] == 0).tolist()
        kernel = self.kernel
        qs_all = list(map(kernel.qx, ks))  # every candidate's exact value, one call each
        values, vf, choice = self.values, self.vf, self.choice
        states_l: list[int] = states.tolist()
        out_f: list[float] = []
        to_float = bk.to_float
        n_c, c = len(ks), 0
        ties: list[int] = []  # candidates exactly as good as the best: optimal too
        for r, i in enumerate(states_l):
            best_k = ks[c]
            best_q = qs_all[c]
            c += 1
            if c < n_c and who[c] == r:  # near-ties: decided exactly
                c0 = c - 1
                while c < n_c and who[c] == r:
                    q = qs_all[c]
                    if (q > best_q) if maxi[r] else (q < best_q):
                        best_k, best_q = ks[c], q
                    c += 1
                for t in range(c0, c):
                    if qs_all[t] == best_q and ks[t] != best_k:
                        ties.append(ks[t])
            choice[i] = best_k
            values[i] = best_q
            f = to_float(best_q)
            vf[i] = f
            out_f.append(f)
        self.vf_np[states] = out_f
        # every action of these states is decided: the filter proved the non-candidates
        # strictly worse, and the candidates were compared exactly
        self.decided[states] = True
        self.optimal[ties] = True
        self.optimal[np.array([choice[i] for i in states_l], dtype=np.int64)] = True

    def _adic_level(self, states: IntArray, ks: IntArray, who: IntArray) -> bool:
        """:meth:`solve_trivial` with integer arithmetic (:mod:`tbsg.engine.adic`), if it applies.

        ``ks`` are the candidate actions, ``who`` their states' positions in ``states``
        (non-decreasing, every state has one). False (nothing done) when a successor's
        value is not B-adic.
        """
        if self.adic is None:
            self.adic = AdicValues(self.g, self.values)
        found = self.adic.action_numerators(ks)
        self.adic_ok = found is not None
        if found is None:
            return False
        top, qn = found
        seg = np.flatnonzero(np.r_[True, who[1:] != who[:-1]])
        maxi = self.g.player[states] == 0
        best = np.where(maxi, np.maximum.reduceat(qn, seg), np.minimum.reduceat(qn, seg))
        tie = np.asarray(qn == best[who], dtype=bool)  # exact: integers over one denominator
        at = np.flatnonzero(tie)
        first = at[np.r_[True, who[at[1:]] != who[at[:-1]]]]  # first best candidate per state
        chosen = ks[first]
        vals, out_f = self.adic.record(states, qn[first], top)
        values, vf, choice = self.values, self.vf, self.choice
        a, b = int(states[0]), int(states[-1]) + 1
        if b - a == len(states) and (len(states) < 2 or bool((np.diff(states) == 1).all())):
            values[a:b], vf[a:b], choice[a:b] = vals, out_f, chosen.tolist()  # a run of states
        else:
            for i, v, f, k in zip(states.tolist(), vals, out_f, chosen.tolist(), strict=True):
                values[i] = v
                vf[i] = f
                choice[i] = k
        self.vf_np[states] = out_f
        self.decided[states] = True
        self.optimal[ks[tie]] = True
        return True

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

    def signs(self, states: IntArray) -> tuple[IntArray, npt.NDArray[np.int8]]:
        """The allowed actions of ``states`` other than the chosen ones, and the sign of
        ``Q(k) - v(s)`` of each (the kernel's filtered signs: every one the exact one).

        Every state's value must be exact and current.
        """
        g = self.g
        starts = g.act_ptr[states]
        counts = g.act_ptr[states + 1] - starts
        acts = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))
        choice = self.choice
        chosen = np.repeat(np.array([choice[i] for i in states.tolist()], dtype=np.int64), counts)
        keep = acts != chosen
        if self.allowed_np is not None:
            keep &= self.allowed_np[acts]
        acts = acts[keep]
        if not len(acts):
            return acts, np.zeros(0, dtype=np.int8)
        return acts, action_signs(g, self.values, self.vf_np, acts, self.kernel.qx)

    def improvable(self, acts: IntArray, sign: npt.NDArray[np.int8]) -> set[int]:
        """States with an action *strictly* better than the current one, from :meth:`signs`."""
        g = self.g
        owner = g.player[g.act_state[acts]]
        better = ((owner == 0) & (sign > 0)) | ((owner == 1) & (sign < 0))
        return set(g.act_state[acts[better]].tolist())

    def settle(self, states: IntArray, acts: IntArray, sign: npt.NDArray[np.int8]) -> None:
        """Flag the optimal actions of ``states``, whose values are final, from :meth:`signs`:
        the chosen action and its ties (every mover optimises here)."""
        self.optimal[acts[sign == 0]] = True
        self.optimal[np.array([self.choice[i] for i in states.tolist()], dtype=np.int64)] = True
        self.decided[states] = True

    def _improve(self, comp: _Component, owner: int) -> bool:
        """Switch ``owner``'s states to a strictly better action; True if any switched."""
        rows = comp.rows
        vf = np.array([self.vf[i] for i in comp.states])
        q = rows.q(vf)
        gain = rows.row_sign * (q - vf[rows.row_state])
        bound = comp.bound
        if comp.c_abs is not None:  # values outside [0, 1]: the bound scales with them
            a = np.abs(vf)
            bound = bound * np.maximum(1.0, comp.c_abs + float(a.max(initial=0.0)) + a[rows.row_state])
        maybe = (gain > -bound) & (comp.row_owner == owner) & comp.multi
        switched = False
        kernel = self.kernel
        for r in np.unique(rows.row_state[maybe]).tolist():
            i = comp.states[r]
            cur = self.choice[i]
            ref_f, ref_q = self.vf[i], self.values[i]
            best: int | None = None
            best_f = 0.0
            want = 1 if owner == 0 else -1
            for k in self.acts_of(i):
                if k != cur and kernel.sign(k, ref_f, ref_q) == want:
                    f = kernel.qf(k)
                    if best is None or (f > best_f if owner == 0 else f < best_f):
                        best, best_f = k, f
            if best is not None:
                self.choice[i] = best
                self.improvements += 1
                switched = True
        return switched

    def _float_warm_start(self, comp: _Component) -> None:
        """Float policy iteration (bounded number of rounds) to pick a starting profile."""
        rows = comp.rows
        m = len(comp.states)
        pick = rows.greedy(rows.q(np.full(m, 0.5)))
        for _ in range(_WARM_ROUNDS):
            for r, i in enumerate(comp.states):
                self.choice[i] = comp.acts_l[pick[r]]
            x = comp.solve_float(pick)
            if x is None:  # singular in floats: keep this profile, exact work decides
                return
            q = rows.q(x)
            best = rows.greedy(q)
            switch = rows.sign * (q[best] - q[pick]) > _WARM_GAIN
            if not switch.any():
                return
            pick = np.where(switch, best, pick)
        for r, i in enumerate(comp.states):
            self.choice[i] = comp.acts_l[pick[r]]

    def _evaluate(self, states: list[int], local: dict[int, int]) -> None:
        """Exact values of the current profile on one component.

        States whose chosen action reads no state of the component are valued directly
        (:meth:`_settle`); the others, the *unknowns*, form the system ``v = b + R v``,
        solved by state elimination (:func:`tbsg.engine.linalg.plan`). When the values read
        have big denominators the plan is replayed on integers
        (:class:`tbsg.engine.linalg.IntegerPlan`): the right-hand sides are integers over
        ``d0 L`` (:meth:`_numerators`), so no addition needs a gcd of big numbers and one
        batch gcd per component puts the values in lowest terms. With small denominators
        the rational replay is cheaper (a rational addition of small numbers costs less
        than the integer bookkeeping).
        """
        self.exact_solves += 1
        unknown = [i for i in states if not self._settle(i, local)]
        if not unknown:
            return
        shape, reads = self._system(unknown)
        key = tuple(shape)
        pl = self.plans.get(key)
        if pl is None:  # a system of a new shape: eliminate, and keep the plan if it recurs
            pl = _SystemPlan(plan(self._rows(shape)))
            h = hash(key)
            if h not in self.seen:  # seen once: most shapes never recur, and plans take memory
                self.seen.add(h)
            elif len(unknown) <= _PLAN_STATES and len(self.plans) < _PLANS:
                self.plans[key] = pl
        values = self.values
        dens = {j: values[j].denominator for r in reads for _, j in r}
        if max((d.bit_length() for d in dens.values()), default=0) < _INTEGER_BITS:
            out = pl.rational.run([self._rhs(i, r) for i, r in zip(unknown, reads, strict=True)])
        else:
            nums, d0, big = self._numerators(unknown, reads, dens)
            ip = pl.integer
            out = bk.lowest_terms(ip.run(nums), [d * d0 for d in ip.den], big)
        vf, vf_np = self.vf, self.vf_np
        to_float = bk.to_float
        for i, v in zip(unknown, out, strict=True):  # _set inlined: this loop runs once per state
            values[i] = v
            vf[i] = vf_np[i] = to_float(v)

    def _system(self, unknown: list[int]
                ) -> tuple[list[tuple[tuple[int, int], ...]], list[list[tuple[int, int]]]]:
        """Per unknown: its row's ``(unknown, code)`` entries inside (the system's shape) and
        the ``(code, state)`` of the final values it reads."""
        choice, out_ptr, target, code = self.choice, self.out_ptr, self.target, self.out_code
        pos = {i: u for u, i in enumerate(unknown)}
        shape: list[tuple[tuple[int, int], ...]] = []
        reads: list[list[tuple[int, int]]] = []
        for i in unknown:
            k = choice[i]
            inside: list[tuple[int, int]] = []
            outside: list[tuple[int, int]] = []
            for o in range(out_ptr[k], out_ptr[k + 1]):
                j = target[o]
                u = pos.get(j)
                if u is None:
                    outside.append((code[o], j))
                else:
                    inside.append((u, code[o]))
            shape.append(tuple(inside))
            reads.append(outside)
        return shape, reads

    def _rhs(self, i: int, read: list[tuple[int, int]]) -> Rational:
        """``b_i``: the constant of ``i``'s chosen action plus the final values it reads,
        in backend rationals (skipping ``0 + x`` and ``1 * x``)."""
        table, values = self.table, self.values
        b = table[self.act_code[self.choice[i]]]
        for c, j in read:
            p = table[c]
            t = values[j] if p == 1 else p * values[j]
            b = b + t if b else t
        return b

    def _settle(self, i: int, local: dict[int, int]) -> bool:
        """Value state ``i`` directly if its chosen action reads no state of its component.

        Skips what exact zeros and ones make trivial: an action that moves with
        probability one and pays nothing copies its successor's value.
        """
        k = self.choice[i]
        lo, hi = self.out_ptr[k], self.out_ptr[k + 1]
        target = self.target
        if any(target[o] in local for o in range(lo, hi)):
            return False
        values = self.values
        v = values[target[lo]] if self.kernel.copies(k) else self.kernel.qx(k)
        values[i] = v
        self.vf[i] = self.vf_np[i] = bk.to_float(v)
        return True

    def _numerators(self, unknown: list[int], reads: list[list[tuple[int, int]]], seen: dict[int, int]
                    ) -> tuple[list[int], int, int]:
        """Right-hand sides ``b`` of the unknowns as integers ``n`` over one ``D = d0 L``.

        ``L`` is the lcm of the denominators ``seen`` of the final values read, ``d0`` that
        of the denominators of the probabilities and constants involved (small: the game's
        own numbers), so ``b = n / D`` with ``n`` a sum of small integers times big ones.
        Returns ``(n, d0, L)``.
        """
        values, choice, act_code = self.values, self.choice, self.act_code
        qnum, qden = self.table_ratio
        big = bk.lcm(list(seen.values())) if seen else 1
        codes = {c for r in reads for c, _ in r} | {act_code[i] for i in (choice[s] for s in unknown)}
        d0 = math.lcm(*(qden[c] for c in codes))
        weight = {c: qnum[c] * (d0 // qden[c]) for c in codes}  # p = weight / d0
        scaled = {j: values[j].numerator * (big // d) for j, d in seen.items()}
        nums: list[int] = []
        for s, r in zip(unknown, reads, strict=True):
            w = weight[act_code[choice[s]]]
            n = w * big if w else 0
            for c, j in r:
                x = scaled[j]
                if x:
                    w = weight[c]
                    t = x if w == 1 else w * x
                    n = n + t if n else t
            nums.append(n)
        return nums, d0, big

    def _rows(self, shape: list[tuple[tuple[int, int], ...]]) -> list[dict[int, Rational]]:
        """Sparse rows of ``R`` (outcomes to one state added up) from a system's shape."""
        table = self.table
        rows: list[dict[int, Rational]] = []
        for part in shape:
            row: dict[int, Rational] = {}
            for u, c in part:
                prev = row.get(u)
                row[u] = table[c] if prev is None else prev + table[c]
            rows.append(row)
        return rows


@dataclass(eq=False)
class _SystemPlan:
    """The elimination plan of one system shape, and its integer replay (made on first use)."""

    rational: Plan[Rational]

    @cached_property
    def integer(self) -> IntegerPlan:
        return integer_plan(self.rational)


_INTEGER_BITS = 512  # values read with denominators from this size on: the integer replay
_PLAN_STATES = 256  # components up to this size keep their elimination plan for reuse
_PLANS = 4096  # at most this many plans are kept (per solve)


class _Component:
    """Float view of one component: its allowed actions as kernel rows over local values."""

    def __init__(self, eng: _Engine, states: list[int]) -> None:
        g = eng.g
        self.states = states
        self.local = {s: r for r, s in enumerate(states)}
        m = len(states)
        acts: list[int] = []
        seg: list[int] = []
        for i in states:
            seg.append(len(acts))
            acts.extend(eng.acts_of(i))
        self.acts_l = acts
        act = np.array(acts, dtype=np.int64)
        seg_np = np.array(seg, dtype=np.int64)
        owner = g.player[np.array(states, dtype=np.int64)].astype(np.int64)
        counts = np.diff(np.append(seg_np, len(acts)))
        o_start, o_end = g.out_ptr[act], g.out_ptr[act + 1]
        deg = o_end - o_start
        self.bound = filter_bound(deg)
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
        # c + outside part of every row: the outside values are exact and final
        b = eng.const_np[act] + np.bincount(
            out_row[~inside], weights=p[~inside] * eng.vf_np[tgt[~inside]], minlength=len(acts))
        # |c| + outside part in magnitude, for the filter bound of values outside [0, 1]
        self.c_abs = None if g.win_probability else np.abs(eng.const_np[act]) + np.bincount(
            out_row[~inside], weights=p[~inside] * np.abs(eng.vf_np[tgt[~inside]]), minlength=len(acts))
        pmat: npt.NDArray[np.float64] | sp.csr_matrix
        if m <= _DENSE_MAX:
            pmat = np.zeros((len(acts), m))
            np.add.at(pmat, (out_row[inside], ltgt[inside]), p[inside])
        else:
            pmat = sp.csr_matrix((p[inside], (out_row[inside], ltgt[inside])), shape=(len(acts), m))
        self.rows = Rows(b, pmat, seg_np, owner == 0, eng.rounding[0][act], eng.rounding[1][act])
        self.row_owner = owner[self.rows.row_state]
        self.multi = (counts > 1)[self.rows.row_state]

    def solve_float(self, pick: IntArray) -> npt.NDArray[np.float64] | None:
        """Float values of the profile ``pick`` (one row per state).

        ``None`` when the system is singular in floating point (a cycle that stops with
        probability below float resolution): the float pass is only a warm start, so the
        caller keeps its current profile and leaves the decision to exact arithmetic.
        """
        m = len(self.states)
        pmat, b = self.rows.p, self.rows.c
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                if isinstance(pmat, np.ndarray):
                    x = np.asarray(np.linalg.solve(np.eye(m) - pmat[pick], b[pick]), dtype=np.float64)
                else:
                    a = sp.identity(m, format="csc") - pmat[pick].tocsc()
                    x = np.atleast_1d(spla.spsolve(a, b[pick]))
            except (np.linalg.LinAlgError, RuntimeError, ValueError):
                return None
        if not np.all(np.isfinite(x)):
            return None
        return x


class _Store:
    """Which values the solve keeps: every one, until the interior values held (those of
    states no other component reads, :mod:`tbsg.engine.boundary`) pass ``budget`` bytes;
    from then on the boundary values only, the others dropped as their levels end."""

    def __init__(self, eng: _Engine, comps: Components, budget: int) -> None:
        self.eng = eng
        self.comps = comps
        self.interior: BoolArray = ~boundary_states(eng.g, comps)
        self.budget = budget
        self.held = 0
        self.pending: list[IntArray] = []
        self.dropping = budget <= 0

    def add(self, level: IntArray) -> None:
        """Account for (or drop) the interior values of a level just solved and settled."""
        inner = level[self.interior[level]]
        if not len(inner):
            return
        if self.dropping:
            self._drop(inner)
            return
        self.held += _held_bytes(self.eng.values, inner)
        self.pending.append(inner)
        if self.held > self.budget:
            self.dropping = True
            for states in self.pending:
                self._drop(states)
            self.pending = []

    def _drop(self, states: IntArray) -> None:
        values, hole = self.eng.values, bk.ZERO
        for i in states.tolist():
            values[i] = hole

    def result(self) -> Sequence[Rational]:
        """The values to hand out: the engine's list, or the boundary values and a way to
        recompute the others (the engine, kept for its evaluation of one component)."""
        eng = self.eng
        if not self.dropping:
            return eng.values
        if not eng.decided[self.interior].all():  # the end pass would read a dropped value
            raise RuntimeError("internal error: an interior state's optimal actions were not "
                               "settled before its value was dropped")
        return _boundary(eng, ~self.interior, self.comps)


def _boundary(eng: _Engine, kept: BoolArray, comps: Components) -> BoundaryValues[Rational]:
    """The engine's values (``bk.ZERO`` where not ``kept``) as :class:`BoundaryValues` that
    recompute the others with the engine's profile, one component at a time.

    Only the states of a component that are not kept are unknowns: its kept states' values
    are read like those of other components. That system is non-singular whenever the
    profile stops (from each unknown, play leaves the unknowns with probability one), its
    solution is the one of the whole component (which is unique), and it is smaller; the
    kept values are never overwritten, so they stay the ones given.
    """
    eng.adic = None  # (an acyclic level's integer values: not needed to evaluate a component)
    kept_l: list[bool] = kept.tolist()

    def evaluate(states: list[int]) -> None:
        unknown = [s for s in states if not kept_l[s]]
        eng._evaluate(unknown, {s: r for r, s in enumerate(unknown)})

    return BoundaryValues(eng.values, kept, comps, evaluate, bk.ZERO)


def recomputed_values(g: CompiledGame[S, A], comps: Components, choice: IntArray,
                      values: list[Rational], kept: BoolArray) -> BoundaryValues[Rational]:
    """Every value of the profile ``choice``, of which only those of ``kept`` states are given.

    Parameters
    ----------
    g : CompiledGame
        The game.
    comps : Components
        Its strongly connected components (any order: each component's system reads
        only the values of other components' states that it reaches, which are kept).
    choice : int array
        One flat action per state: the profile whose values these are.
    values : list of Rational
        One backend rational per state, ``bk.ZERO`` where not ``kept`` (the list is
        taken over as the result's working list).
    kept : bool array
        The states whose values are given: at least :func:`boundary_states`, which the
        caller has checked, so that every value a component reads outside itself is here.

    Returns
    -------
    BoundaryValues
        The others recomputed on demand, as a solve with ``keep_values="boundary"``
        recomputes them (module :mod:`tbsg.engine.boundary`), from the given values: a
        caller that does not trust those checks every value with a certificate. A profile
        under which play never leaves some of a component's missing states makes their
        system singular: ``ZeroDivisionError`` when they are solved, the caller's to report.
    """
    eng = _Engine(g, None)
    eng.choice = choice.tolist()
    eng.values = values  # before the kernel (built on first use) takes the list
    return _boundary(eng, kept, comps)


def _held_bytes(values: list[Rational], states: IntArray) -> int:
    """Estimated memory of the values of ``states``: digits plus about 100 bytes of objects
    per value, from every eighth state."""
    sample = states[::8].tolist()
    bits: int = sum(values[i].numerator.bit_length() + values[i].denominator.bit_length() for i in sample)
    return (bits // 8 + 100 * len(sample)) * len(states) // len(sample)


def solve_exact(g: CompiledGame[S, A], comps: Components, allowed: BoolArray | None = None,
                progress: Callable[[int, int], None] | None = None,
                keep: int | None = None) -> ExactResult:
    """Solve a stopping compiled game exactly.

    Parameters
    ----------
    g : CompiledGame
        A stopping game (restricted to ``allowed``): the caller has checked.
    comps : Components
        ``decompose(g)``.
    allowed : bool array over flat actions, optional
        Restrict each state's actions (used to fix one or both players' strategies).
    progress : callable, optional
        Called as ``progress(done_states, total_states)`` between levels.
    keep : int, optional
        Memory budget, in bytes, of the values of *interior* states (those no other
        component reads, :mod:`tbsg.engine.boundary`): past it, only the boundary values are
        kept and the result's ``values`` is a :class:`~tbsg.engine.boundary.BoundaryValues`
        that recomputes the others on demand (0: from the start). ``None`` (default):
        every value is kept, in a list.
    """
    t0 = time.perf_counter()
    eng = _Engine(g, allowed)
    store = None if keep is None else _Store(eng, comps, keep)
    trivial = trivial_states(g, comps, allowed)
    # a starting profile for the components with cycles (a chain has only one)
    if not trivial.all() and (allowed is not None or g.n_actions > g.n_states):
        eng.choice = float_profile(g, comps, allowed).tolist()
    ptr: list[int] = comps.ptr.tolist()
    members: list[int] = comps.members.tolist()
    trivial_l: list[bool] = trivial.tolist()
    c = 0
    count = comps.count
    narrow = _NARROW_ADIC
    ends: list[int] = np.append(np.flatnonzero(np.diff(comps.level)) + 1, count).tolist()  # (levels are runs)
    for c_end in ends:
        wide = c_end - c >= _VECTOR_MIN
        # narrow levels too while the integer path works (a few: each costs array overhead,
        # and the scalar path needs per-action lists of the whole game, built once)
        if (wide or (eng.adic_ok and narrow > 0)) and ptr[c_end] - ptr[c] == c_end - c \
                and trivial[comps.members[ptr[c] : ptr[c_end]]].all():
            narrow -= not wide
            # an acyclic level (its states in index order: often a run, see _adic_level)
            eng.solve_trivial(np.sort(comps.members[ptr[c] : ptr[c_end]]))
            if progress is not None:
                progress(ptr[c_end], g.n_states)
            c = c_end
            continue
        # exact evaluation of the float profile, component by component
        multi: list[int] = []
        for d in range(c, c_end):
            states = members[ptr[d] : ptr[d + 1]]
            if len(states) == 1 and trivial_l[states[0]]:
                eng.solve_singleton(states[0])
            else:
                eng._evaluate(states, {s: r for r, s in enumerate(states)})
                multi.extend(states)
        # exact optimality check of the whole level; Hoffman-Karp where it fails
        if multi:
            level = np.array(multi, dtype=np.int64)
            acts, sign = eng.signs(level)
            bad = eng.improvable(acts, sign)
            for d in sorted({int(comps.label[i]) for i in bad}):
                eng.solve_component(members[ptr[d] : ptr[d + 1]], warm=False)
            if bad:
                acts, sign = eng.signs(level)
            eng.settle(level, acts, sign)  # the level's optimal actions, while its values are all here
            if store is not None:
                store.add(level)
        if progress is not None:
            progress(ptr[c_end], g.n_states)
        c = c_end
    choice = np.array(eng.choice, dtype=np.int64)
    values = eng.values if store is None else store.result()  # (checks what the end pass reads)
    opt = optimal_mask(g, eng.values, choice, allowed=allowed, known=eng.optimal, settled=eng.decided,
                       sign=lambda acts: action_signs(g, eng.values, eng.vf_np, acts,
                                                      lambda k: eng.kernel.qx(k)))
    return ExactResult(values=values, choice=choice, optimal=opt, components=comps,
                       improvements=eng.improvements, exact_solves=eng.exact_solves,
                       seconds=time.perf_counter() - t0)
