"""Float fast path: proven lower and upper bounds, level by level.

Mathematics
-----------
The Bellman operator ``(T v)(i) = opt_k (c_k + sum_o p_o v(t_o))`` (see
:mod:`tbsg.model.protocol`; ``c_k`` holds the reward of the move and the expected terminal
payoff, any rationals) is monotone. In a *stopping* game (play ends with probability 1
under every profile) it has a unique fixed point ``v*``, the value, and ``T^k u -> v*``
for *every* start ``u``, whatever the size and sign of the payoffs: every stationary
profile stopping, the largest probability over all strategies that play lasts ``N``
steps (``N`` the number of states) is some ``rho < 1`` (finitely many states and actions:
Condon 1992; Patek and Bertsekas 1999, *stochastic shortest path games*), and ``T^k u``
and ``T^k u'`` are the values of the ``k``-step game with final payoffs ``u`` and ``u'``,
so they differ by at most
``max |u - u'|`` times the probability of lasting ``k`` steps, at most
``rho^{floor(k/N)}``. Expected totals are finite for the same reason. Two consequences
give proven bounds:

* *Interval iteration.* Starting from ``l <= v* <= u`` and iterating both,
  monotonicity keeps ``l_k <= v* <= u_k`` at every step, so the gap ``u_k - l_k`` is a
  guaranteed error bound (Haddad and Monmege 2018, "Interval iteration algorithm for
  MDPs and IMDPs"; for games Kelmendi et al. 2018). Jehn's Pmin/Pmax iteration for Risk
  or Safety (seed 000, section 4) is this scheme on one game. In a win-probability game
  (``CompiledGame.win_probability``) ``l = 0`` and ``u = 1`` hold a priori, in a game
  without rewards the least and largest payoffs (the box, below); elsewhere the start
  comes from the certificate below, or from *a priori bounds*.
* *Certificates from a candidate.* If a vector ``U`` satisfies ``T(U) <= U`` then
  ``T^k(U)`` decreases and converges to ``v*``, so ``v* <= U``; likewise ``T(L) >= L``
  proves ``L <= v*``. Checking one Bellman step therefore proves a bound, however the
  candidate was found (the idea of "optimistic"/"sound" value iteration, Hartmanns and
  Kaminski 2020, here with a linear solve for the candidate). Only monotonicity and
  ``T^k U -> v*`` are used, so this certificate for total rewards needs no bound on the
  values known in advance: it is what makes bounds on expected scores, turns and money
  as sound as on probabilities.
* *A priori bounds* (where the certificate fails in a game without a finite box, below).
  On a level whose outside states have proven bounds, let ``H`` satisfy
  ``H >= 1 + P^in_k H`` for every row ``k`` (``P^in`` the probabilities of staying in the
  level: ``H`` bounds the expected number of steps before play leaves it, under any
  strategies; found by policy iteration on the longest stay and checked with outward
  rounding, :meth:`_Level.stay`), and ``B >= c_k + P^out_k u_out`` for every row
  (outward rounded, ``B >= 0``). Then ``U0 = B H`` satisfies ``T U0 <= B + B P^in H <=
  B + B (H - 1) = U0``, a supersolution; symmetrically ``L0 = -A H`` with ``A >= -(c_k +
  P^out_k l_out)``, ``A >= 0``. Interval iteration starts from them.

Components are processed level by level (:func:`tbsg.engine.graph.decompose`): every successor
of a level's states lies in the level or in lower levels, whose bounds are already
proven. Consecutive small levels with cycles are merged into one *block*
(:func:`_blocks`): a block has the same property, so everything below holds for it as
for a level, and one candidate and one certificate per bound serve all its levels
instead of a few factorisations each (a small game of a hundred levels otherwise spends
its time in that fixed cost). In solving order the block's system is block triangular,
so it is factorised in that order reversed, without reordering: no fill between its
components, and inside a component, whose states are numbered as they were found (a
state before the successors it led to), most successors come before their states, so
the system is nearly triangular and hardly fills in. If a block's
certificates fail or are too loose, its levels are solved one by one as below. For each
level:

1. *Candidate.* Float policy iteration on the midpoint of the outside bounds picks a
   profile ``sigma`` (a few sparse LU solves of ``(I - P_sigma) x = b_sigma``). The
   components of a level never reach one another, so the system is block diagonal by
   component: after the first round only the components whose policy changed are
   factorised again. Policy iteration starts from the greedy profile after ``k``
   value-iteration sweeps ``v <- T v`` from ``v = 1/2`` (modified policy iteration,
   Puterman and Shin 1978, with the sweeps first): a sweep costs one sparse product, a
   round an LU factorisation ten to thirty times more. ``k`` is chosen per level by an
   adaptive rule (:class:`_SweepPlan`): the smallest number of sweeps after which the
   previous level's swept profile agreed with its policy-iteration profile on all but
   ``1/64`` of its states, none (for a while) where even :data:`_SWEEP_CAP` sweeps did
   not get there. Where play leaves a level quickly (Pig: about half of the
   factorisations saved) the sweeps pay; where it lingers and actions are nearly tied
   (Risk or Safety) the rule stops sweeping after a few levels. A merged block starts
   from the greedy profile of the values 1/2 (no sweeps); after a round that changed more
   than a quarter of its profile, a few sweeps from that round's values choose the next
   profile (:meth:`_Level._lookahead`): a round sees one move further than the profile's
   own values, the sweeps several.
2. *Certificate.* With the outside *upper* bounds, ``x_u`` solves the same system; the
   Bellman residual ``r`` of ``x_u`` plus the rounding margin ``m`` (below) gives
   ``w = 2 (r^+ + m)`` and ``delta = (I - P_sigma)^{-1} w > 0``, so
   ``U = x_u + delta`` satisfies ``U - P_sigma U - b_sigma = w - r > 0`` for the
   profile's actions (``delta`` is a scaled expected number of steps before the level is
   left). ``T(U) <= U`` is then *checked* with outward rounding, for every action of the
   maximiser and the minimiser's best action; symmetrically for ``L`` from the lower
   bounds. Near-tied rows of the player whose every row must pass (maximiser for ``U``,
   minimiser for ``L``) may lead to longer stays than ``sigma``'s: where the check fails
   with ``sigma``'s own ``delta``, ``delta`` is made to dominate them by policy iteration
   on ``delta_s = w_s + max_k P_k delta`` (over those rows; most near ties are far
   apart at the scale of ``delta``, and the check passes without it); if the check
   still fails, ``w`` is doubled, a few times.
   The proven gap is about ``2 m`` times the expected number of
   steps to the end of the game, far below what interval iteration reaches
   (its gap stalls where the per-sweep contraction equals the margins).
3. *Fallback.* If no certificate is found or its gap exceeds ``tol``, interval iteration
   continues from the best proven bounds (where a side has no certificate: the edge of
   the box, or the a priori bounds where there is no finite box) until the gap is at most
   ``tol`` or stalls (then ``converged`` is False). A level whose a priori bounds cannot
   be proven either (systems singular in floats) keeps infinite bounds, and so do the
   levels that reach it.

Float rounding is accounted for by the kernel's outward rounding
(:mod:`tbsg.engine.bellman`, where the bound is derived once, underflow included): every
computed action value used for a lower bound is lowered, and every one used for an upper
bound raised, by its rounding allowance. The allowance is relative to the size of the
terms summed, not of the result, and its underflow part grows with the largest value
read (:class:`~tbsg.engine.bellman.Magnitude`, tracked level by level as the bounds are
proven): a sum of large payoffs that cancel is rounded outward as far as its terms need.
Every value lies in the *box* ``[a, b]`` whenever ``a s_k <= c_k <= b s_k`` for every
action (:func:`payoff_box`): ``[0, 1]`` in a win-probability game, the range of the
terminal payoffs in a game without rewards, the whole line in a game whose moves pay
without ending play. Bounds are clipped to the box, and entries of ``U`` equal to ``b``
(of ``L`` equal to ``a``) need no check: ``T(U) <= b`` whenever ``U <= b``. In a
win-probability game the allowance is moreover relative to the result alone. The gap
that can be proven grows with the size of the values (about ``u |v|`` times the expected
number of steps), so ``tol`` bounds the gap *relative* to ``max(1, |v|)``
(:func:`scaled_gap`): the plain gap for values in [0, 1], where every win-probability
game's values lie, and a relative precision for large totals. The reported bounds hold
for the exact value, not just for the float computation. The game must be stopping (the
pipeline checks it first, :func:`tbsg.engine.graph.end_components`).
"""

from __future__ import annotations

import math
import os
import time
import warnings
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from tbsg._util.gc import release_free_memory
from tbsg.engine.bellman import ETA, IntArray32, Magnitude, Rows, U, rounding_counts
from tbsg.engine.compiled import CompiledGame, IndexArray
from tbsg.engine.graph import Components, trivial_states

__all__ = ["FloatResult", "float_profile", "payoff_box", "scaled_gap", "solve_float"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
_PI_ROUNDS = 40  # policy-iteration rounds per level before giving up on a candidate
_PERMC = "MMD_AT_PLUS_A"
_CERT_TRIES = 4  # certificate attempts per bound (each doubles w, adapting delta)
_Solver = Callable[[FloatArray], FloatArray]
_NEAR_TIE = 1e-9  # rows this close to a state's value get their expected stay in delta
_WINDOW = 100  # sweeps over which interval iteration measures its contraction
# a merged block's round that changes more than 1 / _LOOK_FEW of its profile is followed by
# up to _LOOK_CAP value-iteration sweeps before the next profile is chosen
# (:meth:`_Level._lookahead`), stopping where the greedy profile is the same _LOOK_STEP
# sweeps apart
_LOOK_FEW = 4
_LOOK_CAP = 32
_LOOK_STEP = 8
_SWEEP_CAP = 48  # value-iteration sweeps at most before a level's policy iteration
_SWEEP_MIN = 1024  # levels with fewer states get no sweeps: a factorisation costs little there
_CHECKPOINTS = frozenset({2, 4, 8, 16, 24, 32})  # sweeps after which the profile improves
_SETTLED = 64  # the sweeps settled a level if at most 1 / _SETTLED of its states differ
_Trail = list[tuple[int, IntArray]]  # (sweeps done, profile after them)
# SuperLU without supernode relaxation and with one-column panels: the level systems fill
# in hardly at all (factors about as sparse as the matrix), and on them SuperLU's default
# panels and relaxed supernodes only add work (a quarter of the factorisation time on the
# levels of Pig and of Risk or Safety; benchmarks/bench_user_games.py)


@dataclass(frozen=True, eq=False)
class FloatResult:
    """Raw output of :func:`solve_float`."""

    lower: FloatArray
    upper: FloatArray
    choice: npt.NDArray[np.int64]
    components: Components
    sweeps: int
    converged: bool
    seconds: float


def scaled_gap(lower: FloatArray, upper: FloatArray, unit: bool) -> FloatArray:
    """What ``tol`` bounds: ``upper - lower`` relative to ``max(1, |lower|, |upper|)``.

    Values of a win-probability game lie in [0, 1], where this is the plain gap (``unit``:
    no division). Elsewhere an absolute gap would ask a value of a million for the
    precision of a probability, which rounding cannot certify (the proven gap grows with
    the magnitude of the values): the gap is measured relative to the value, and never
    more strictly than the absolute gap below 1. An infinite bound has an infinite gap.
    """
    gap = upper - lower
    if unit:
        return gap
    scale = np.maximum(1.0, np.maximum(np.abs(lower), np.abs(upper)))
    out: FloatArray = np.where(np.isfinite(gap), gap / np.where(np.isfinite(scale), scale, 1.0), np.inf)
    return out


def _inside(full: sp.csr_matrix, s0: int) -> sp.csr_matrix:
    """The columns ``s0:`` of ``full`` numbered from 0, each row's entries in their order:
    what ``full[:, s0:]`` gives, without scipy's general slicing."""
    keep = full.indices >= s0
    ends = np.zeros(len(keep) + 1, dtype=np.int64)
    np.cumsum(keep, out=ends[1:])
    indptr = ends[full.indptr]
    return sp.csr_matrix((full.data[keep], full.indices[keep] - s0, indptr),
                         shape=(full.shape[0], full.shape[1] - s0))


class _Level(Rows):
    """One level's rows in the level-sorted matrix: values, policies, certificates.

    States of the level are ``s0:s1`` in solving order; every state numbered below ``s0``
    belongs to a lower level and has proven bounds already. The rows are the allowed
    actions of the level's states, grouped by state; ``x`` in :meth:`q` is a vector over
    the states ``0:s1`` (lower levels and this one).
    """

    def __init__(self, full: sp.csr_matrix, c: FloatArray, rel: IntArray32, absolute: IntArray32,
                 maxi: BoolArray, seg: IntArray, s0: int, s1: int, comp: IntArray,
                 below: Magnitude | None = None, box: tuple[float, float] = (0.0, 1.0),
                 merged: bool = False) -> None:
        super().__init__(c, full, seg, maxi, rel, absolute)
        self.full = full  # rows x s1: all successors (lower levels and this level)
        # component of each state, numbered from 0 within the level; a merged block is
        # one component for factor(): its components reach one another
        self.comp = np.zeros_like(comp) if merged else comp
        # a merged block is factorised in reversed solving order, without reordering: its
        # system stays block triangular (no fill between components), and inside a
        # component, whose states are numbered in the order they were found (breadth
        # first, a state before the successors it led to), reversal puts most successors
        # before their states: the system is nearly triangular and hardly fills in
        self.permc = "NATURAL" if merged else _PERMC
        self.reversed = merged
        self.s0, self.s1 = s0, s1
        self.inner = _inside(full, s0)  # rows x m: successors inside the level
        # None: values in [0, 1] (a win-probability game, or no proof asked: float_profile);
        # else the magnitude of every bound below s0
        self.below = below
        self.box = box  # every value lies in it: [0, 1] or the whole line

    def mag(self, *level: FloatArray) -> Magnitude | None:
        """Magnitude of values read by the rows: the bounds below ``s0`` and ``level``
        (values on the level); None in a win-probability game."""
        if self.below is None:
            return None
        return self.below.join(Magnitude.of(*level))

    # -- policy evaluation ----------------------------------------------------------------
    @cached_property
    def _system(self) -> tuple[IntArray, npt.NDArray[np.int32], FloatArray]:
        """CSR arrays ``(indptr, indices, data)`` of ``E - P^in``: row ``k`` is the row of
        ``I - P_sigma`` of a profile ``sigma`` that picks ``k`` (a 1 at its state, minus
        its probabilities inside the level; a self-loop is summed into the 1), each row's
        columns ascending. In a merged block the states are numbered backwards (column
        ``j`` is state ``m - 1 - j``) and the rows stored last to first (:meth:`factor`).
        """
        n_rows = len(self.c)
        diag = sp.csr_matrix((np.ones(n_rows), self.row_state.astype(np.int32),
                              np.arange(n_rows + 1, dtype=np.int32)), shape=(n_rows, self.m))
        rows = (diag - self.inner).tocsr()
        rows.sum_duplicates()
        indptr = rows.indptr.astype(np.int64)
        indices = rows.indices.astype(np.int32)
        data = rows.data
        if self.reversed:
            # reversing the arrays reverses the rows and each row's columns, which then
            # ascend again once every column j is renumbered m - 1 - j
            indptr = indptr[-1] - indptr[::-1]
            indices = (self.m - 1) - indices[::-1]
            data = data[::-1]
        return indptr, np.ascontiguousarray(indices), np.ascontiguousarray(data)

    def _transposed_system(self, pick: IntArray, sub: IntArray | None) -> sp.csc_matrix:
        """``(I - P_pick)^T`` on the states ``sub`` (all if None), as CSC: its columns are
        the rows of :attr:`_system` that ``pick`` chooses (in a merged block, numbered
        backwards). The components of a level never reach one another, so the rows of
        ``sub`` (whole components) have no column outside it.
        """
        ip, ind, dat = self._system
        if sub is not None:
            rows = pick[sub]
        elif self.reversed:  # state m - 1 - j's row k is stored at n_rows - 1 - k
            rows = (len(self.c) - 1 - pick)[::-1]
        else:
            rows = pick
        k = len(rows)
        start = ip[rows]
        cnt = ip[rows + 1] - start
        ptr = np.zeros(k + 1, dtype=np.int32)
        np.cumsum(cnt, out=ptr[1:])
        src = np.repeat(start - ptr[:-1], cnt) + np.arange(int(ptr[-1]))
        cols = ind[src]
        if sub is not None:
            local = np.full(self.m, -1, dtype=np.int32)
            local[sub] = np.arange(k, dtype=np.int32)
            cols = local[cols]
        a = sp.csc_matrix((dat[src], cols, ptr), shape=(k, k))
        a.has_canonical_format = True  # (each column's rows ascend, none repeated)
        return a

    def factor(self, pick: IntArray, base: _Solver | None = None,
               changed: BoolArray | None = None) -> _Solver | None:
        """Solver of ``(I - P_pick) x = rhs`` on the level (None if singular in floats).

        With ``base``, the solver of a profile that differs from ``pick`` only at the
        ``changed`` states, only the components containing those states are factorised
        again: components of a level never reach one another, so the system is block
        diagonal by component and ``base`` stays right on the others.
        """
        sub: IntArray | None = None
        if base is not None and changed is not None:
            touched = np.zeros(int(self.comp[-1]) + 1 if self.m else 0, dtype=bool)
            touched[self.comp[changed]] = True
            part = np.flatnonzero(touched[self.comp])
            if 2 * len(part) < self.m:
                sub = part
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                # the transpose's factors: (I - P)^T in CSC has the CSR arrays of I - P
                lu = spla.splu(self._transposed_system(pick, sub), permc_spec=self.permc,
                               relax=1, panel_size=1)
            except (RuntimeError, ValueError):
                return None

        def solve(rhs: FloatArray) -> FloatArray:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return np.asarray(lu.solve(rhs, trans="T"), dtype=np.float64)

        if self.reversed:  # (a merged block is one component: sub is None)
            def backwards(rhs: FloatArray) -> FloatArray:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    x = np.asarray(lu.solve(rhs[::-1], trans="T"), dtype=np.float64)
                return x[::-1].copy()

            return backwards
        if sub is None or base is None:
            return solve
        outer, part_idx = base, sub

        def patched(rhs: FloatArray) -> FloatArray:
            x = outer(rhs)
            x[part_idx] = solve(rhs[part_idx])
            return x

        return patched

    def policy(self, outside: FloatArray, scratch: bool = False, sweeps: int = 0
               ) -> tuple[IntArray, _Solver | None, FloatArray | None, _Trail]:
        """Float policy iteration against fixed outside values, after up to ``sweeps``
        value-iteration sweeps.

        Returns the profile (row per state), the solver of its system, its values and the
        trail of the sweeps (:class:`_SweepPlan`); the solver is None if policy iteration
        did not settle (cycling, or a system singular in floats), and the values too if no
        solve succeeded. With ``scratch`` the level's part of ``outside`` is overwritten
        instead of copying the whole vector.
        """
        ext = outside if scratch else outside.copy()
        ext[self.s0 : self.s1] = 0.0
        b = self.q(ext)  # c + outside part of every row
        q = b + self.inner @ np.full(self.m, 0.5)
        pick = self.greedy(q)
        pick, trail = self._sweep(b, q, pick, sweeps)
        x: FloatArray | None = None
        solve: _Solver | None = None
        switch: BoolArray | None = None
        for _ in range(_PI_ROUNDS):
            solve = self.factor(pick, solve, switch)
            if solve is None:
                return pick, None, x, trail
            y = solve(b[pick])
            if not np.all(np.isfinite(y)):
                return pick, None, x, trail
            x = y
            self.sweeps += 1
            q = b + self.inner @ x
            switch, best = self._improve(q, pick)
            if not switch.any():
                return pick, solve, x, trail
            if self.reversed and int(np.count_nonzero(switch)) * _LOOK_FEW > self.m:
                switch, best = self._improve(self._lookahead(b, q), pick)
            pick = np.where(switch, best, pick)
        return pick, None, x, trail

    def _lookahead(self, b: FloatArray, q: FloatArray) -> FloatArray:
        """Action values after up to :data:`_LOOK_CAP` value-iteration sweeps ``v <- T v``
        from the values whose action values are ``q`` (``b``: each row's constant and
        outside part), stopping at a multiple of :data:`_LOOK_STEP` sweeps where the
        greedy profile is the one of the previous multiple.

        Policy iteration improves a profile against its own values: where the better
        action pays only after several more moves of the same kind (keep tossing while
        the open points grow), one round sees one more move of them, and a block whose
        starting profile is far off needs many rounds, each a factorisation. A sweep
        looks one move further for all states at once, at the cost of a sparse product
        (modified policy iteration, Puterman and Shin 1978, here only after a round that
        changed much of the profile). The sweeps choose the next profile only: its values
        come from its own factorisation, and policy iteration still ends only where no
        state improves against them.
        """
        # in signed form (each row's values times its owner's sign, the states' values
        # times theirs): every state then takes the largest of its rows, and a sweep is a
        # gather, a maximum and a product; signs are exact, so the values are those of
        # the plain form
        inner = self.inner
        signed = sp.csr_matrix((inner.data * np.repeat(self.row_sign, np.diff(inner.indptr))
                                * self.sign[inner.indices], inner.indices, inner.indptr),
                               shape=inner.shape)
        bs, qs = b * self.row_sign, q * self.row_sign
        w = self.segmax(qs)
        greedy = self.segfirst(qs == w[self.row_state])
        for k in range(1, _LOOK_CAP + 1):
            qs = bs + signed @ w
            w = self.segmax(qs)
            self.sweeps += 1
            if k % _LOOK_STEP == 0:
                now = self.segfirst(qs == w[self.row_state])
                if np.array_equal(now, greedy):
                    break
                greedy = now
        q = qs * self.row_sign
        return q

    def _improve(self, q: FloatArray, pick: IntArray) -> tuple[BoolArray, IntArray]:
        """The greedy rows for ``q`` and the states where they beat ``pick`` by more than
        the rounding allowances (switching only there: no cycling on ties)."""
        best = self.greedy(q)
        slack = 4.0 * self.margin(q[best], best)
        switch: BoolArray = self.sign * (q[best] - q[pick]) > slack
        return switch, best

    def _sweep(self, b: FloatArray, q: FloatArray, pick: IntArray, sweeps: int
               ) -> tuple[IntArray, _Trail]:
        """Up to ``sweeps`` value-iteration sweeps from the level values 0.5 (``q`` their
        action values), improving ``pick`` as policy iteration does after the sweeps of
        :data:`_CHECKPOINTS` and after the last one; stops at a checkpoint where nothing
        switched. Returns the improved profile and its copies at those sweeps."""
        trail: _Trail = []
        for k in range(1, sweeps + 1):
            q = b + self.inner @ np.clip(self.opt(q), *self.box)
            self.sweeps += 1
            if k in _CHECKPOINTS or k == sweeps:
                switch, best = self._improve(q, pick)
                pick = np.where(switch, best, pick)
                trail.append((k, pick))
                if not switch.any():
                    break
        return pick, trail

    # -- certificates ---------------------------------------------------------------------
    def certify(self, bound: FloatArray, pick: IntArray,
                solve: _Solver, upper: bool) -> FloatArray | None:
        """A proven bound on the level (upper if ``upper``), or None.

        ``bound`` holds proven bounds of the same kind below ``s0``; its level part is
        overwritten. ``delta`` starts as the profile's own scaled stay; where the check
        fails with it, it is made to dominate the stays of the near-tied rows
        (:meth:`_longest_stays`) before ``w`` is doubled.
        """
        s0, s1 = self.s0, self.s1
        ext = bound
        ext[s0:s1] = 0.0
        b = self.q(ext)  # c + outside part
        x = solve(b[pick])
        if not np.all(np.isfinite(x)):
            return None
        ext[s0:s1] = np.clip(x, *self.box)
        q = self.q(ext)
        raw = self.opt(q) - ext[s0:s1]
        margin = self.margin(q[pick], pick, self.mag(ext[s0:s1]))
        w = 2.0 * (np.maximum(raw if upper else -raw, 0.0) + margin) + 4.0 * U * U
        # the near-tied rows of the states whose rows must all pass (maximiser for U,
        # minimiser for L): their stays may be longer than the profile's
        adv = (self.maxi if upper else ~self.maxi)[self.row_state]
        near = adv & (np.abs(q - ext[s0:s1][self.row_state]) <= _NEAR_TIE)
        dsolve: _Solver = solve
        stays = False  # whether delta has been made to dominate the near-tied rows' stays
        for _ in range(_CERT_TRIES + 1):
            delta = dsolve(w)
            if not np.all(np.isfinite(delta)) or np.any(delta < 0):
                return None
            cand = np.clip(x + delta if upper else x - delta, *self.box)
            ext[s0:s1] = cand
            q = self.q(ext)
            mag = self.mag(cand)
            tight = self.opt(self.up(q, mag) if upper else self.down(q, mag))
            # an entry at the edge of the box needs no check (T maps the box into itself)
            bad = (tight > cand) & (cand < self.box[1]) if upper else \
                (tight < cand) & (cand > self.box[0])
            if not bad.any():
                # one more (proven) Bellman step tightens the bound for free
                return np.minimum(cand, tight) if upper else np.maximum(cand, tight)
            if stays or not near.any():
                w = 2.0 * w
            else:
                stays = True
                longest = self._longest_stays(near, pick, solve, w, delta)
                if longest is None:
                    return None
                dsolve = longest
        return None

    def _longest_stays(self, near: BoolArray, pick: IntArray, solve: _Solver, w: FloatArray,
                       delta: FloatArray) -> _Solver | None:
        """The solver of ``delta_s = w_s + max_k P_k delta`` over the rows ``near`` and the
        profile's own (policy iteration from ``pick``, whose solver ``solve`` gave
        ``delta``): a delta that dominates the expected stay of every near-tied row, which
        can be longer than the profile's. None if a system is singular in floats."""
        dpick, dsolve = pick, solve
        for _ in range(_PI_ROUNDS):
            stay = self.inner @ delta
            pd = np.where(near, stay, -np.inf)
            cur = stay[dpick]
            best = self.greedy_max(pd)
            gain = pd[np.maximum(best, 0)] - cur
            switch = (best >= 0) & (gain > 1e-9 * np.abs(cur) + ETA)
            if not switch.any():
                break
            dpick = np.where(switch, best, dpick)
            f = self.factor(dpick, dsolve, switch)
            if f is None:
                return None
            dsolve = f
            delta = dsolve(w)
        return dsolve

    def iterate(self, lower: FloatArray, upper: FloatArray, tol: float,
                max_sweeps: int) -> bool:
        """Interval iteration on the level from proven bounds; True if the gap <= tol.

        Gives up early (False) when the gap stops shrinking (the rounding floor), or when
        its contraction over the last :data:`_WINDOW` sweeps predicts that ``tol`` would
        not be reached within ``max_sweeps`` (play that stops with tiny probability: a
        contraction of ``1 - 1e-6`` per sweep would need tens of millions of sweeps).
        """
        s0, s1 = self.s0, self.s1
        best_gap, stalled = np.inf, 0
        window_gap = np.inf
        for sweep in range(max_sweeps):
            mag = self.mag(lower[s0:s1], upper[s0:s1])
            lo = self.opt(self.down(self.q(lower[:s1]), mag))
            hi = self.opt(self.up(self.q(upper[:s1]), mag))
            lower[s0:s1] = np.maximum(lower[s0:s1], np.clip(lo, *self.box))
            upper[s0:s1] = np.minimum(upper[s0:s1], np.clip(hi, *self.box))
            gap = upper[s0:s1] - lower[s0:s1]
            max_gap = float(np.max(scaled_gap(lower[s0:s1], upper[s0:s1], self.below is None)))
            if max_gap <= tol:
                return True
            total_gap = float(np.sum(gap))
            if total_gap < best_gap * (1 - 1e-6):
                best_gap, stalled = total_gap, 0
            else:
                stalled += 1
                if stalled >= 25:  # rounding floor: tol is below what floats can certify
                    return False
            if sweep % _WINDOW == 0:
                if 0 < total_gap < window_gap:
                    rate = (total_gap / window_gap) ** (1 / _WINDOW)  # contraction per sweep
                    if rate > 0 and math.log(tol / max_gap) / math.log(rate) > max_sweeps - sweep:
                        return False
                window_gap = total_gap
        return False

    # -- a priori bounds (games whose values are not in [0, 1]) ---------------------------
    def stay(self, pick: IntArray) -> FloatArray | None:
        """A proven ``H >= 1 + P_k H`` (inside the level) for every row ``k``: bounds on the
        expected number of steps before play leaves the level, under any strategies.

        ``h`` maximises the stay by float policy iteration (one player: every state picks
        its longest stay), from ``pick``; then ``H = h (1 + 2**-20)``, doubled a few times
        if need be, is checked with outward rounding (all terms are non-negative, so the
        allowance is relative to the computed sum, scaled by ``max H`` for underflow).
        Scaling helps: ``H - P_k H >= 1 - e`` for the exact maximum turns into ``2 H - P_k
        2 H >= 2 - 2 e``. None if the systems are singular in floats.
        """
        ones = np.ones(self.m)
        solve: _Solver | None = None
        switch: BoolArray | None = None
        h: FloatArray | None = None
        for _ in range(_PI_ROUNDS):
            solve = self.factor(pick, solve, switch)
            if solve is None:
                return None
            h = solve(ones)
            if not np.all(np.isfinite(h)):
                return None
            h = np.maximum(h, 1.0)  # (the exact h is at least 1; the check below decides)
            stay = self.inner @ h
            best = self.greedy_max(stay)
            switch = stay[best] > stay[pick] * (1.0 + 1e-12)
            if not switch.any():
                break
            pick = np.where(switch, best, pick)
        if h is None:
            return None
        cand = h * (1.0 + 2.0**-20)
        for _ in range(_CERT_TRIES):
            t = 1.0 + self.inner @ cand
            m = self.rel * t + self.absolute * float(np.max(cand))
            if np.all(t + m <= cand[self.row_state]):
                return cand
            cand = 2.0 * cand
        return None

    def apriori(self, lower: FloatArray, upper: FloatArray, pick: IntArray
                ) -> tuple[FloatArray, FloatArray] | None:
        """Proven bounds ``(L0, U0)`` on the level from the outside bounds alone (module
        docstring, *a priori bounds*), or None; ``lower``, ``upper`` hold proven bounds
        below ``s0``, their level parts are overwritten with 0."""
        h = self.stay(pick)
        if h is None:
            return None
        s0, s1 = self.s0, self.s1
        mag = self.mag()
        lower[s0:s1] = 0.0
        upper[s0:s1] = 0.0
        with np.errstate(invalid="ignore"):
            a = max(0.0, -float(np.min(self.down(self.q(lower[:s1]), mag))))
            b = max(0.0, float(np.max(self.up(self.q(upper[:s1]), mag))))
        if not (math.isfinite(a) and math.isfinite(b)):
            return None
        return -np.nextafter(a * h, np.inf), np.nextafter(b * h, np.inf)


_UNIT_BOX = (0.0, 1.0)  # every value of a win-probability game lies here
_FREE_BOX = (-np.inf, np.inf)  # no bound known before the solve
_NORMAL = 2.0**-1022  # smallest normal double: below it a conversion has no relative bound


def payoff_box(g: CompiledGame[Any, Any]) -> tuple[float, float]:
    """Floats ``a <= b`` with ``a s_k <= c_k <= b s_k`` for every action, or the whole line.

    Then ``T`` maps ``[a, b]^S`` into itself (``Q <= b s_k + (1 - s_k) b = b``), so every
    value lies in the box, as ``[0, 1]`` in a win-probability game: without rewards
    ``c_k / s_k`` is an average of terminal payoffs, and the box is the range of the
    payoffs. An action that pays without ending play (``s_k = 0 != c_k``: a reward) leaves
    no such box. The exact ratios are enclosed from their floats: with ``c_k``, ``s_k``
    normal numbers, ``fl(fl(c_k) / fl(s_k))`` is within ``3 u`` of ``c_k / s_k``
    relatively, so ``8 u`` more, rounded outward, encloses it.
    """
    table = g.float_table()
    stops = g.stop_code != 0
    if np.any(~stops & (g.act_code != 0)):
        return _FREE_BOX
    cf, sf = table[g.act_code[stops]], table[g.stop_code[stops]]
    if not len(cf) or np.any(sf < _NORMAL) or np.any((cf != 0) & (np.abs(cf) < _NORMAL)):
        return _FREE_BOX
    with np.errstate(over="ignore"):
        r = cf / sf
        slack = 8.0 * U * np.abs(r)
        lo = float(np.nextafter(np.min(r - slack), -np.inf))
        hi = float(np.nextafter(np.max(r + slack), np.inf))
    return lo, hi


class _SweepPlan:
    """How many value-iteration sweeps the next level with cycles gets before policy
    iteration: an adaptive rule, learnt from the levels already solved.

    A sweep costs one product with the level's matrix; a policy-iteration round costs a
    sparse LU factorisation, ten to thirty times more. Sweeps from the start values pay
    where value iteration's greedy profile settles quickly (Pig: a turn ends within a few
    rolls, and 32 sweeps halve the factorisations), not where it drifts for hundreds
    of sweeps (Risk or Safety: a turn can last many tosses, and actions are nearly tied).
    Which case a game is in shows after a level is solved, by comparing the profiles the
    sweeps went through (:meth:`_Level._sweep`) with the one policy iteration settled on.
    The rule: the next level gets the smallest number of sweeps after which at most
    ``1 / _SETTLED`` of this level's states still differed; if none did, and this level
    had the whole :data:`_SWEEP_CAP`, the next levels get none, and the cap is tried again
    after 1, 2, 4, ... levels (a game where sweeps do not pay spends a few levels'
    sweeps in all); if this level had fewer, the next one gets the cap. The first level
    gets the cap. Levels of fewer than :data:`_SWEEP_MIN` states get no sweeps and do not
    count: their factorisations cost little more than the fixed cost of a few sweeps.
    The rule only chooses the starting profile of policy iteration, never a bound: every
    bound is still a checked certificate.
    """

    def __init__(self) -> None:
        self.sweeps = _SWEEP_CAP  # sweeps for the next level
        self.wait = 0  # levels to skip before sweeping again (when sweeps is 0)
        self.backoff = 1  # the next wait after a failed try at the cap

    def next(self, m: int) -> int:
        """Sweeps for the next level with cycles, of ``m`` states (none below
        :data:`_SWEEP_MIN`: the level neither sweeps nor counts)."""
        if m < _SWEEP_MIN:
            return 0
        if self.sweeps:
            return self.sweeps
        if self.wait:
            self.wait -= 1
            return 0
        return _SWEEP_CAP

    def record(self, trail: _Trail, final: IntArray) -> None:
        """Learn from a solved level: ``trail`` of its sweeps, ``final`` its profile."""
        if not trail:  # no sweeps on this level
            return
        m = len(final)
        for k, pick in trail:
            if np.count_nonzero(pick != final) * _SETTLED <= m:
                self.sweeps, self.backoff = k, 1
                return
        if trail[-1][0] < _SWEEP_CAP:  # more sweeps may settle it: the cap next time
            self.sweeps = _SWEEP_CAP
            return
        self.sweeps, self.wait = 0, self.backoff
        self.backoff *= 2

class _Prepared:
    """The game's rows in solving order (levels contiguous), outcomes gathered per level.

    Row ``r`` is the allowed action ``acts[r]``; rows of a state are contiguous, states in
    the order of ``order`` (solving order), so level ``L`` owns states ``s0:s1`` and rows
    ``state_row[s0]:state_row[s1]``, and all its successors are numbered below ``s1``.
    Only per-row and per-state arrays are built for the whole game; a level's outcomes
    (:meth:`outcomes`) are read from the compiled game's arrays when the level is solved,
    so no second copy of the largest arrays (one entry per outcome) is ever held.
    """

    def __init__(self, g: CompiledGame[S, A], allowed: npt.NDArray[np.bool_] | None,
                 comps: Components) -> None:
        n = g.n_states
        self.g = g
        self.order = order = comps.members  # new index -> state
        # position of each state in solving order (int32 when it fits: the column indices)
        pos = np.empty(n, dtype=np.int64)
        pos[order] = np.arange(n, dtype=np.int64)
        self.pos: npt.NDArray[np.signedinteger[Any]] = pos.astype(np.int32) if n < 2**31 else pos
        del pos
        starts = g.act_ptr[order]
        counts = g.act_ptr[order + 1] - starts
        acts = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))
        del starts
        if allowed is not None:
            acts = acts[allowed.astype(bool)[acts]]
            counts = np.bincount(self.pos[g.act_state[acts]], minlength=n)
        # int32 when it fits: one entry per row
        self.acts: IndexArray = acts.astype(np.int32) if g.n_actions < 2**31 else acts
        del acts
        self.state_row = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(counts, out=self.state_row[1:])
        del counts
        # the float value of each distinct rational, read through the codes
        self.table = g.float_table()
        self.c = self.table[g.act_code[self.acts]]
        self.counts = rounding_counts(g)  # per flat action (cached with the game)
        self.unit = g.win_probability  # every value in [0, 1]: no magnitudes to track
        self.box = _UNIT_BOX if self.unit else payoff_box(g)
        self.maxi = g.player[order] == 0
        self.label = comps.label[order]  # component of each state, non-decreasing
        levels = comps.level
        lev_ptr = np.searchsorted(levels, np.arange(int(levels.max(initial=-1)) + 2))
        cuts = comps.ptr[lev_ptr]
        keep = cuts[1:] > cuts[:-1]
        lo, hi = cuts[:-1][keep], cuts[1:][keep]
        self.lo, self.hi = lo, hi  # states lo[k]:hi[k] form the k-th non-empty level
        # a state is *trivial* if it is a component of its own without a self-loop: its
        # value is one Bellman step from values already known; a level of trivial states
        # is acyclic and needs no policy iteration and no certificate
        trivial = trivial_states(g, comps, allowed)[order]
        self.acyclic: BoolArray = (np.minimum.reduceat(trivial, lo) if len(lo)
                                   else np.zeros(0, dtype=bool))

    def outcomes(self, r0: int, r1: int
                 ) -> tuple[IntArray, npt.NDArray[np.signedinteger[Any]], FloatArray]:
        """CSR arrays ``(indptr, indices, data)`` of the rows ``r0:r1``: successors as
        positions in solving order, probabilities as floats (``indptr`` from 0)."""
        g = self.g
        rows = self.acts[r0:r1]
        first = g.out_ptr[rows]
        deg = g.out_ptr[rows + 1] - first
        # int32 like the column indices, so that scipy keeps both without a copy
        indptr = np.zeros(len(rows) + 1, dtype=g.out_ptr.dtype)
        np.cumsum(deg, out=indptr[1:])
        idx = np.repeat(first - indptr[:-1], deg) + np.arange(int(indptr[-1]), dtype=indptr.dtype)
        cols: npt.NDArray[np.signedinteger[Any]] = self.pos[g.out_target[idx]]
        return indptr, cols, self.table[g.out_code[idx]]

    def rounding(self, r0: int, r1: int) -> tuple[IntArray32, IntArray32]:
        """Rounding counts (:func:`~tbsg.engine.bellman.rounding_counts`) of rows ``r0:r1``."""
        rows = self.acts[r0:r1]
        return self.counts[0][rows], self.counts[1][rows]

    def level(self, s0: int, s1: int, below: Magnitude | None = None,
              merged: bool = False) -> _Level:
        """The level owning states ``s0:s1`` (``below``: magnitude of the bounds below
        ``s0``, None in a win-probability game; ``merged``: consecutive levels as one,
        :func:`_blocks`)."""
        r0, r1 = int(self.state_row[s0]), int(self.state_row[s1])
        indptr, indices, data = self.outcomes(r0, r1)
        full = sp.csr_matrix((data, indices, indptr), shape=(r1 - r0, s1))
        comp = self.label[s0:s1] - (self.label[s0] if s1 > s0 else 0)
        rel, absolute = self.rounding(r0, r1)
        return _Level(full, self.c[r0:r1], rel, absolute, self.maxi[s0:s1],
                      self.state_row[s0:s1] - r0, s0, s1, comp, below, self.box, merged)

    def rows_to_actions(self, s0: int, pick: IntArray) -> IndexArray:
        """Flat action numbers of the level rows ``pick`` (local to the level at ``s0``)."""
        chosen: IndexArray = self.acts[int(self.state_row[s0]) + pick]
        return chosen


# The levels allocate and free many mid-sized blocks (SuperLU's work space and factors,
# the level's arrays), which glibc's allocator keeps in its heap once its adaptive mmap
# threshold has grown, so the resident size creeps up level after level. The solver looks
# at its resident size every _TRIM_ROWS rows and gives the free pages back
# (tbsg._util.gc.release_free_memory) when it has grown by _TRIM_GROWTH since the last trim.
_TRIM_ROWS = 50_000  # rows solved between two looks at the resident size
_TRIM_GROWTH = 32 << 20  # growth of the resident size (bytes) that asks for a trim


def _resident() -> int:
    """Resident size of this process in bytes (Linux), else 0."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


_VECTOR_MIN = 64  # acyclic levels with at least this many states are solved with arrays


_CYCLIC, _WIDE, _RUN = 0, 1, 2  # a level with cycles; a wide acyclic level; a run of small ones


def _runs(prep: _Prepared) -> list[tuple[int, int, int]]:
    """The levels as ``(s0, s1, kind)``, consecutive small acyclic levels merged.

    A merged run of small acyclic levels (kind ``_RUN``) is solved by one scalar backward
    pass (:func:`_acyclic_scalar`) in solving order, so a deep game pays no per-level
    overhead; a wide acyclic level (``_WIDE``) by one array step.
    """
    lo, hi = prep.lo, prep.hi
    if not len(lo):
        return []
    kind = np.where(~prep.acyclic, _CYCLIC, np.where(hi - lo >= _VECTOR_MIN, _WIDE, _RUN))
    # a run starts at every level but a small acyclic one following another
    small = kind == _RUN
    start = np.flatnonzero(~(small & np.concatenate(([False], small[:-1]))))
    end = np.append(start[1:], len(kind)) - 1
    return list(zip(lo[start].tolist(), hi[end].tolist(), kind[start].tolist(), strict=True))


_BLOCK = 3  # consecutive small levels with cycles, solved as one (:func:`_blocks`)
_MERGE_LEVEL = 2048  # levels with cycles of fewer states may be merged into a block
# at most this many states in a block: every policy-iteration round of a block factorises
# all of it, for as many rounds as its slowest level needs, so a larger block trades the
# fixed cost per block (a level's matrices, two certificates) for longer factorisations
_MERGE_STATES = 4096


def _blocks(prep: _Prepared) -> list[tuple[int, int, int, list[tuple[int, int]]]]:
    """:func:`_runs` as ``(s0, s1, kind, levels)``, consecutive small levels with cycles
    merged into blocks (kind ``_BLOCK``; ``levels`` lists their ``(s0, s1)``).

    Every successor of a block's states lies in the block or below it, as for a level, so
    the certificates of the module docstring hold on a block as they stand: one policy
    iteration and one certificate per bound serve all its levels, where level by level
    each small level would pay for its own factorisations and checks (a game of a few
    thousand states in a hundred levels spends most of its time in that fixed cost).
    The block's system is block triangular in solving order (its components reach only
    earlier ones), so it is factorised in that order reversed, without fill between
    components (:class:`_Level`).
    """
    out: list[tuple[int, int, int, list[tuple[int, int]]]] = []
    group: list[tuple[int, int]] = []

    def close() -> None:
        if len(group) == 1:
            out.append((group[0][0], group[0][1], _CYCLIC, []))
        elif group:
            out.append((group[0][0], group[-1][1], _BLOCK, group.copy()))
        group.clear()

    for s0, s1, kind in _runs(prep):
        small = kind == _CYCLIC and s1 - s0 < _MERGE_LEVEL
        if not small or (group and s1 - group[0][0] > _MERGE_STATES):
            close()
        if small:
            group.append((s0, s1))
        else:
            out.append((s0, s1, kind, []))
    close()
    return out


def _acyclic(prep: _Prepared, s0: int, s1: int, kind: int, lower: FloatArray, upper: FloatArray,
             mid: FloatArray, below: Magnitude | None = None) -> IntArray:
    """Proven bounds of the trivial states ``s0:s1`` by one outward-rounded Bellman step each.

    Every successor of a trivial state lies in a lower level (for a merged run of small
    levels: earlier in the run), so ``lower = opt(down(Q_lower))`` and ``upper =
    opt(up(Q_upper))`` bound the exact value by monotonicity; no iteration is needed.
    Writes ``lower``, ``upper`` and their midpoint ``mid`` on ``s0:s1`` (the three may be
    one array: a plain float pass) and returns each state's row chosen greedily against
    the midpoints (numbered from the first row of state ``s0``, as :class:`_Level` rows).
    ``below`` is the magnitude of the bounds below ``s0`` (None in a win-probability game).
    """
    if kind == _WIDE:  # one level: no successor inside s0:s1
        lv = prep.level(s0, s1, below)
        lo = np.clip(lv.opt(lv.down(lv.q(lower[:s1]), below)), *prep.box)
        hi = np.clip(lv.opt(lv.up(lv.q(upper[:s1]), below)), *prep.box)
        lower[s0:s1] = lo
        upper[s0:s1] = hi
        mid[s0:s1] = (lo + hi) / 2
        return lv.greedy(lv.q(mid[:s1]))
    return _acyclic_scalar(prep, s0, s1, lower, upper, mid, below)


def _run_outcomes(prep: _Prepared, s0: int, s1: int, lower: FloatArray, upper: FloatArray,
                  mid: FloatArray) -> tuple[list[int], list[int], list[float], list[float],
                                            list[float], list[float]]:
    """The outcomes of the rows of states ``s0:s1`` as lists for :func:`_acyclic_scalar`:
    row pointers, successors numbered from ``s0`` (negative: before the run), probabilities,
    and the final bounds and midpoints of the successors before the run (gathered at once)."""
    indptr, cols_np, data_np = prep.outcomes(int(prep.state_row[s0]), int(prep.state_row[s1]))
    before = cols_np < s0
    safe = np.where(before, cols_np, 0)
    return (indptr.tolist(), (cols_np - s0).tolist(), data_np.tolist(),
            np.where(before, lower[safe], 0.0).tolist(), np.where(before, upper[safe], 0.0).tolist(),
            np.where(before, mid[safe], 0.0).tolist())


def _allowances(prep: _Prepared, r0: int, r1: int, below: Magnitude | None
                 ) -> tuple[list[float], list[float], list[float]]:
    """Per row ``r0:r1``, as lists: the relative and absolute rounding allowances
    (:meth:`~tbsg.engine.bellman.Rows.margin`) and ``2 c^-`` (zeros if ``below`` is None)."""
    rel_n, abs_n = prep.rounding(r0, r1)
    rel = ((rel_n.astype(np.float64) + 2.0) * U).tolist()
    absolute = ((abs_n.astype(np.float64) + 2.0) * ETA).tolist()
    cneg2 = [0.0] * (r1 - r0) if below is None else \
        (2.0 * np.maximum(-prep.c[r0:r1], 0.0)).tolist()
    return rel, absolute, cneg2


def _acyclic_scalar(prep: _Prepared, s0: int, s1: int, lower: FloatArray, upper: FloatArray,
                    mid: FloatArray, below: Magnitude | None) -> IntArray:
    """:func:`_acyclic` state by state in solving order, in Python floats.

    Each action value is summed term by term (``c_k`` first), one of the orders the
    rounding bound of :mod:`tbsg.engine.bellman` covers; the allowances are those of
    :meth:`~tbsg.engine.bellman.Rows.down` and :meth:`~tbsg.engine.bellman.Rows.up`.
    Successors before ``s0`` are read once, as arrays. A hot loop (every outcome of the
    run, three sums each), kept in one piece so that its inputs stay local variables.
    Outside a win-probability game the allowance also counts the negative part of the
    terms and the magnitude of the values (``below``, then each bound of the run as it is
    found: a state's successors come before it).
    """
    r0, r1 = int(prep.state_row[s0]), int(prep.state_row[s1])
    ptr, cols, data, out_lo, out_hi, out_mid = _run_outcomes(prep, s0, s1, lower, upper, mid)
    c = prep.c[r0:r1].tolist()
    rel, absolute, cneg2 = _allowances(prep, r0, r1, below)
    srow = (prep.state_row[s0 : s1 + 1] - r0).tolist()
    maxi = prep.maxi[s0:s1].tolist()
    unit = below is None
    box_lo, box_hi = prep.box
    xneg2, m1 = (0.0, 1.0) if below is None else (2.0 * below.neg, max(1.0, below.big))
    m = s1 - s0
    lo_l = [0.0] * m
    hi_l = [0.0] * m
    mid_l = [0.0] * m
    pick = [0] * m
    for i in range(m):
        best_lo = best_hi = best_mid = 0.0
        best_row = -1
        mx = maxi[i]
        for r in range(srow[i], srow[i + 1]):
            ql = qh = qm = c[r]
            for e in range(ptr[r], ptr[r + 1]):
                j = cols[e]
                w = data[e]
                if j >= 0:
                    ql += w * lo_l[j]
                    qh += w * hi_l[j]
                    qm += w * mid_l[j]
                else:
                    ql += w * out_lo[e]
                    qh += w * out_hi[e]
                    qm += w * out_mid[e]
            if unit:
                ql -= rel[r] * abs(ql) + absolute[r]
                qh += rel[r] * abs(qh) + absolute[r]
            else:
                ql -= rel[r] * (abs(ql) + cneg2[r] + xneg2) + absolute[r] * m1
                qh += rel[r] * (abs(qh) + cneg2[r] + xneg2) + absolute[r] * m1
            if best_row < 0:
                best_lo, best_hi, best_mid, best_row = ql, qh, qm, r
            elif mx:
                best_lo = max(best_lo, ql)
                best_hi = max(best_hi, qh)
                if qm > best_mid:
                    best_mid, best_row = qm, r
            else:
                best_lo = min(best_lo, ql)
                best_hi = min(best_hi, qh)
                if qm < best_mid:
                    best_mid, best_row = qm, r
        lo = min(max(best_lo, box_lo), box_hi)
        hi = min(max(best_hi, box_lo), box_hi)
        lo_l[i], hi_l[i], mid_l[i] = lo, hi, (lo + hi) / 2
        pick[i] = best_row
        if not unit:
            xneg2, m1 = max(xneg2, -2.0 * lo), max(m1, -lo, hi)
    lower[s0:s1] = lo_l
    upper[s0:s1] = hi_l
    mid[s0:s1] = mid_l
    return np.array(pick, dtype=np.int64)


def float_profile(g: CompiledGame[S, A], comps: Components,
                  allowed: npt.NDArray[np.bool_] | None = None) -> npt.NDArray[np.int64]:
    """A near-optimal profile (flat action per state) by float policy iteration per level
    (per block of small levels, :func:`_blocks`).

    Used by the exact solver as its starting profile: no bounds are proven here, each
    level simply uses the float values found for the levels below.
    """
    prep = _Prepared(g, allowed, comps)
    n = g.n_states
    x = np.full(n, 0.5)
    choice = np.empty(n, dtype=np.int64)
    plan = _SweepPlan()
    for s0, s1, kind, _ in _blocks(prep):
        if kind in (_WIDE, _RUN):  # one Bellman step per state (x serves as both bounds)
            pick = _acyclic(prep, s0, s1, kind, x, x, x)
        else:  # a level with cycles, or a block of small ones (no sweeps: see _blocks)
            lv = prep.level(s0, s1, merged=kind == _BLOCK)
            # (scratch: no copy of the prefix)
            sweeps = plan.next(lv.m) if kind == _CYCLIC else 0
            pick, _, vals, trail = lv.policy(x[:s1], scratch=True, sweeps=sweeps)
            if kind == _CYCLIC:
                plan.record(trail, pick)
            x[s0:s1] = 0.5 if vals is None else np.clip(vals, *prep.box)
        choice[prep.order[s0:s1]] = prep.rows_to_actions(s0, pick)
    return choice


def _certified(lv: _Level, sweeps: int, plan: _SweepPlan | None, lower: FloatArray,
               upper: FloatArray, mid: FloatArray
               ) -> tuple[IntArray, FloatArray | None, FloatArray | None]:
    """Step 1 and 2 of the module docstring on a level with cycles: a policy-iteration
    candidate after ``sweeps`` sweeps (``plan`` learns from them), then a certificate for
    each bound, written into ``lower`` and ``upper`` (the edge of the box where none is
    found). Returns the profile and the certified bounds (None where none was found)."""
    s0, s1 = lv.s0, lv.s1
    pick, solve, _, trail = lv.policy(mid[:s1], scratch=True, sweeps=sweeps)
    if plan is not None:
        plan.record(trail, pick)
    box_lo, box_hi = lv.box
    if solve is None:
        return pick, None, None
    # certify works in place on the level's part of the bounds (no copies of the
    # prefix): that part holds the box's bounds, restored on failure
    hi = lv.certify(upper[:s1], pick, solve, upper=True)
    upper[s0:s1] = box_hi if hi is None else hi
    lo = lv.certify(lower[:s1], pick, solve, upper=False)
    lower[s0:s1] = box_lo if lo is None else lo
    return pick, lo, hi


def _reached(lv: _Level, lower: FloatArray, upper: FloatArray, tol: float) -> bool:
    """Whether the gap on the level is at most ``tol`` (:func:`scaled_gap`)."""
    s0, s1 = lv.s0, lv.s1
    return float(np.max(scaled_gap(lower[s0:s1], upper[s0:s1], lv.below is None))) <= tol


def _cyclic(lv: _Level, plan: _SweepPlan, lower: FloatArray, upper: FloatArray, mid: FloatArray,
            tol: float, max_sweeps: int) -> bool:
    """Proven bounds on a level with cycles (written into ``lower``, ``upper``): a
    certificate from a policy-iteration candidate, else interval iteration from the best
    bounds known (module docstring); True if the gap reached ``tol``."""
    s0, s1 = lv.s0, lv.s1
    pick, lo, hi = _certified(lv, plan.next(lv.m), plan, lower, upper, mid)
    if lo is not None and hi is not None and _reached(lv, lower, upper, tol):
        return True
    box_lo, box_hi = lv.box
    if (hi is None or lo is None) and not (math.isfinite(box_lo) and math.isfinite(box_hi)):
        # no box known: interval iteration needs finite bounds to start from
        known_lo, known_hi = lower[s0:s1].copy(), upper[s0:s1].copy()
        start = lv.apriori(lower, upper, pick)
        if start is None:
            lower[s0:s1], upper[s0:s1] = known_lo, known_hi
        else:
            lower[s0:s1] = np.maximum(known_lo, start[0])
            upper[s0:s1] = np.minimum(known_hi, start[1])
    return lv.iterate(lower, upper, tol, max_sweeps)


def _settle(below: Magnitude, lower: FloatArray, upper: FloatArray, mid: FloatArray,
            s0: int, s1: int) -> Magnitude:
    """After a level of a game whose values are not in [0, 1]: a finite midpoint where a
    bound is infinite (no bound proven), and the magnitude of the bounds so far."""
    lo, hi = lower[s0:s1], upper[s0:s1]
    mid_l = mid[s0:s1]
    odd = ~np.isfinite(mid_l)
    if odd.any():
        mid_l[odd] = np.clip(0.0, lo[odd], hi[odd])
    return below.join(Magnitude.of(lo, hi))


def solve_float(
    g: CompiledGame[S, A],
    comps: Components,
    tol: float = 1e-12,
    max_sweeps: int = 1_000_000,
    allowed: npt.NDArray[np.bool_] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> FloatResult:
    """Proven bounds to gap ``tol`` in every state: certificates, then interval iteration.

    Parameters
    ----------
    g : CompiledGame
        A stopping game (restricted to ``allowed``).
    comps : Components
        ``decompose(g)``.
    tol : float
        Target for ``upper - lower`` in every state, relative to ``max(1, |value|)``
        (:func:`scaled_gap`; the plain gap in a win-probability game).
    max_sweeps : int
        Give up interval iteration on a level after this many sweeps (``converged`` is
        then False).
    allowed : bool array over flat actions, optional
        Restrict actions (fixing a player's strategy).
    progress : callable, optional
        Called as ``progress(done_states, total_states)`` after each level.
    """
    t0 = time.perf_counter()
    n = g.n_states
    if g.n_actions >= _TRIM_ROWS:  # what compiling and the graph analysis freed (a small
        release_free_memory()       # game's few megabytes are not worth the trim's time)
    run = _Bounds(_Prepared(g, allowed, comps), tol, max_sweeps)
    for s0, s1, kind, parts in _blocks(run.prep):
        if kind == _BLOCK:
            if not run.block(s0, s1):  # no certificate on the whole block: level by level
                for p0, p1 in parts:
                    run.cyclic(p0, p1)
        elif kind == _CYCLIC:
            run.cyclic(s0, s1)
        else:
            run.acyclic(s0, s1, kind)
        if progress is not None:
            progress(s1, n)
    # back to the game's numbering
    order = run.prep.order
    lo_out = np.empty(n)
    hi_out = np.empty(n)
    lo_out[order] = run.lower
    hi_out[order] = run.upper
    return FloatResult(lower=lo_out, upper=hi_out, choice=run.choice, components=comps,
                       sweeps=max(run.sweeps, 1), converged=run.converged,
                       seconds=time.perf_counter() - t0)


class _Bounds:
    """The state of :func:`solve_float` between levels: the bounds proven so far (in
    solving order), their midpoints and magnitude, the actions chosen, and the
    bookkeeping (sweeps, convergence, the sweep plan, memory trims)."""

    def __init__(self, prep: _Prepared, tol: float, max_sweeps: int) -> None:
        n = len(prep.order)
        self.prep, self.tol, self.max_sweeps = prep, tol, max_sweeps
        self.lower = np.full(n, prep.box[0])
        self.upper = np.full(n, prep.box[1])
        self.mid = np.full(n, 0.5)  # midpoints of the bounds, final below the current level
        self.choice = np.empty(n, dtype=np.int64)
        self.plan = _SweepPlan()
        self.sweeps = 0
        self.converged = True
        # magnitude of the proven bounds solved so far (None: every value is in [0, 1])
        self.below: Magnitude | None = None if prep.unit else Magnitude(0.0, 0.0)
        self.since_look, self.trimmed_at = 0, _resident()  # rows since a look; size after a trim

    def acyclic(self, s0: int, s1: int, kind: int) -> None:
        """A wide acyclic level or a run of small ones: one outward-rounded step per state."""
        prep = self.prep
        best = _acyclic(prep, s0, s1, kind, self.lower, self.upper, self.mid, self.below)
        if self.below is not None:
            self.below = _settle(self.below, self.lower, self.upper, self.mid, s0, s1)
        self.choice[prep.order[s0:s1]] = prep.rows_to_actions(s0, best)
        self.sweeps += 1
        if float(np.max(scaled_gap(self.lower[s0:s1], self.upper[s0:s1], prep.unit))) > self.tol:
            self.converged = False  # the rounding floor of these states is above tol

    def _trim(self, rows: int) -> None:
        """Count ``rows`` solved; now and then give freed memory back
        (:func:`tbsg._util.gc.release_free_memory`, see :data:`_TRIM_ROWS`)."""
        self.since_look += rows
        if self.since_look >= _TRIM_ROWS:
            self.since_look = 0
            if _resident() - self.trimmed_at >= _TRIM_GROWTH:
                release_free_memory()
                self.trimmed_at = _resident()

    def cyclic(self, s0: int, s1: int) -> None:
        """A level with cycles: certificates, else interval iteration (:func:`_cyclic`)."""
        lv = self.prep.level(s0, s1, self.below)
        self._trim(len(lv.c))
        if not _cyclic(lv, self.plan, self.lower, self.upper, self.mid, self.tol, self.max_sweeps):
            self.converged = False
        self._finish(lv)

    def block(self, s0: int, s1: int) -> bool:
        """Consecutive small levels with cycles as one level (:func:`_blocks`): one
        candidate and one certificate per bound for all of them. False, with the block's
        bounds back at the edge of the box, if a certificate is missing or too loose."""
        lv = self.prep.level(s0, s1, self.below, merged=True)
        self._trim(len(lv.c))
        _, lo, hi = _certified(lv, 0, None, self.lower, self.upper, self.mid)
        if lo is None or hi is None or not _reached(lv, self.lower, self.upper, self.tol):
            self.lower[s0:s1], self.upper[s0:s1] = self.prep.box
            self.sweeps += lv.sweeps
            return False
        self._finish(lv)
        return True

    def _finish(self, lv: _Level) -> None:
        """After a level's bounds: its midpoints, magnitude and greedy actions."""
        s0, s1 = lv.s0, lv.s1
        # the level's actions, chosen greedily against the midpoint of its final bounds
        self.mid[s0:s1] = (self.lower[s0:s1] + self.upper[s0:s1]) / 2
        if self.below is not None:
            self.below = _settle(self.below, self.lower, self.upper, self.mid, s0, s1)
        best = lv.greedy(lv.c + lv.full @ self.mid[:s1])
        self.choice[self.prep.order[s0:s1]] = self.prep.rows_to_actions(s0, best)
        self.sweeps += lv.sweeps
