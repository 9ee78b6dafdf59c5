"""Float fast path: interval value iteration with proven lower and upper bounds.

Mathematics
-----------
For a stopping game the Bellman operator ``T`` (see :mod:`tbsg.game`) is monotone and has
a unique fixed point ``v*`` in ``[0, 1]^S``; iterating ``T`` from any start converges to
it (Condon 1992). Starting from ``l = 0 <= v* <= u = 1`` and iterating both,
monotonicity keeps ``l_k <= v* <= u_k`` at every step, so the gap ``u_k - l_k`` is a
guaranteed error bound: *interval iteration* (Haddad and Monmege 2018, "Interval
iteration algorithm for MDPs and IMDPs"; for games Kelmendi et al. 2018). Jehn's
Pmin/Pmax iteration for Risk or Safety (seed 000, section 4) is this scheme on one game.

Components are processed level by level (:func:`tbsg.graph.decompose`): all states of one
level are iterated together, vectorised (one sparse matrix-vector product per bound and
sweep), until every gap in the level is at most ``tol``; the level's bounds are then
frozen and used by the levels above.

Float rounding is accounted for: each computed ``c_k + sum p v`` is within ``(d+3) u`` of
the exact value of the same expression (``u = 2**-53``, all terms non-negative;
Higham 2002, section 3.1), so every new lower bound is lowered, and every upper bound
raised, by ``(d + 4) u`` times the computed value before use. The reported bounds
therefore hold for the exact value, not just for the float computation.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from tbsg.compile import CompiledGame
from tbsg.exact_solver import check_stopping
from tbsg.graph import Components, decompose, out_action

__all__ = ["FloatResult", "solve_float"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

FloatArray = npt.NDArray[np.float64]
_TINY = 2.0**-1060  # covers underflow of the relative margin


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


def _rounding_margins(g: CompiledGame[S, A], const_f: FloatArray,
                      prob_f: FloatArray) -> FloatArray:
    """Number of roundings bounding ``fl(c + sum p v)``, per action (Higham 2002, 3.1).

    A product ``p * v`` is exact when ``p`` is a power of two (dice and coin games are
    full of 1/2); otherwise it costs two roundings (``float(p)`` and the product). Each
    addition costs one, and two more cover applying the margin itself.
    """
    exact_p = {}
    for p in set(g.out_prob):
        f = float(p)
        exact_p[id(p)] = f > 0 and np.frexp(f)[0] == 0.5 and f == p
    cost = np.array([0 if exact_p[id(p)] else 2 for p in g.out_prob], dtype=np.float64)
    oa = out_action(g)
    deg = np.diff(g.out_ptr)
    has_c = np.array([c != 0 for c in g.act_const], dtype=np.float64)
    c_inexact = np.array([c != 0 and float(c) != c for c in g.act_const], dtype=np.float64)
    terms = deg + has_c
    return (np.bincount(oa, weights=cost, minlength=g.n_actions) + c_inexact
            + np.maximum(terms - 1, 0) + 2)


def solve_float(
    g: CompiledGame[S, A],
    tol: float = 1e-12,
    max_sweeps: int = 1_000_000,
    allowed: npt.NDArray[np.bool_] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> FloatResult:
    """Interval iteration, level by level, to gap ``tol`` in every state.

    Parameters
    ----------
    g : CompiledGame
    tol : float
        Target for ``upper - lower`` in every state (at least ``1e-15``).
    max_sweeps : int
        Give up on a level after this many sweeps (``converged`` is then False).
    allowed : bool array over flat actions, optional
        Restrict actions (fixing a player's strategy).
    """
    t0 = time.perf_counter()
    if not tol > 0:
        raise ValueError(f"tol must be positive, got {tol}")
    check_stopping(g, allowed)
    comps = decompose(g)
    n, na = g.n_states, g.n_actions
    const_f, prob_f = g.float_arrays()
    oa = out_action(g)
    pmat = sp.csr_matrix((prob_f, (oa, g.out_target)), shape=(na, n))
    rel = _rounding_margins(g, const_f, prob_f) * 2.0**-53
    ok = np.ones(na, dtype=bool) if allowed is None else allowed.astype(bool)
    lower = np.zeros(n)
    upper = np.ones(n)
    is_max = g.player == 0
    levels = comps.level
    lev_ptr = np.searchsorted(levels, np.arange(int(levels.max(initial=-1)) + 2))
    total_sweeps = 0
    converged = True
    for lev in range(len(lev_ptr) - 1):
        c0, c1 = int(lev_ptr[lev]), int(lev_ptr[lev + 1])
        if c0 == c1:
            continue
        states = comps.members[comps.ptr[c0] : comps.ptr[c1]]
        states = np.sort(states)
        starts = g.act_ptr[states]
        counts = g.act_ptr[states + 1] - starts
        acts = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
        seg = np.concatenate(([0], np.cumsum(counts)[:-1]))
        sub = pmat[acts]
        c = const_f[acts]
        e = rel[acts]
        bad = ~ok[acts]
        mx = is_max[states]
        best_gap, stalled = np.inf, 0
        for _ in range(max_sweeps):
            total_sweeps += 1
            ql = c + sub @ lower
            ql -= e * ql + _TINY
            qu = c + sub @ upper
            qu += e * qu + _TINY
            # disallowed actions never win the opt
            ql_max = np.where(bad, -np.inf, ql)
            qu_max = np.where(bad, -np.inf, qu)
            ql_min = np.where(bad, np.inf, ql)
            qu_min = np.where(bad, np.inf, qu)
            lo = np.where(mx, np.maximum.reduceat(ql_max, seg), np.minimum.reduceat(ql_min, seg))
            hi = np.where(mx, np.maximum.reduceat(qu_max, seg), np.minimum.reduceat(qu_min, seg))
            lower[states] = np.maximum(lower[states], np.clip(lo, 0.0, 1.0))
            upper[states] = np.minimum(upper[states], np.clip(hi, 0.0, 1.0))
            gap = upper[states] - lower[states]
            if float(np.max(gap)) <= tol:
                break
            total_gap = float(np.sum(gap))
            if total_gap < best_gap * (1 - 1e-6):
                best_gap, stalled = total_gap, 0
            else:
                stalled += 1
                if stalled >= 25:  # rounding floor: tol is below what floats can certify
                    converged = False
                    break
        else:
            converged = False
        if progress is not None:
            progress(int(comps.ptr[c1]), n)
    # choose actions greedily against the midpoint
    mid = (lower + upper) / 2
    q = const_f + pmat @ mid
    choice = np.empty(n, dtype=np.int64)
    ap = g.act_ptr.tolist()
    ql = q.tolist()
    okl = ok.tolist()
    for i in range(n):
        ks = [k for k in range(ap[i], ap[i + 1]) if okl[k]]
        vals = [ql[k] for k in ks]
        best = max(vals) if is_max[i] else min(vals)
        choice[i] = ks[vals.index(best)]
    return FloatResult(lower=lower, upper=upper, choice=choice, components=comps,
                       sweeps=total_sweeps, converged=converged,
                       seconds=time.perf_counter() - t0)
