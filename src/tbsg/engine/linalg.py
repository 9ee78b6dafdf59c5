"""Exact sparse elimination over any field: the linear algebra of every exact solver.

Mathematics
-----------
*The system.* Fixing one action per state turns a component of a stopping game (or a
block of transient states of a Markov chain) into the linear system

.. math:: v = b + R\\, v, \\qquad R \\in F^{m \\times m},\\ b \\in F^m,

over a field ``F``: ``R_sj`` is the probability of moving from state ``s`` to state
``j`` of the block, ``b_s`` the expected payoff of the step plus the probability-weighted
values already known outside the block. ``F`` is the rationals (:class:`fractions.Fraction`
or ``gmpy2.mpq``, :mod:`tbsg.engine.exact` and :mod:`tbsg.engine.markov`) or the
rational functions of a parameter (:class:`tbsg.parametric.rational.RationalFunction`,
:mod:`tbsg.parametric.linear`, where each entry is a probability for every parameter
value of an interval). Stopping means ``R^k -> 0`` for every value of the parameter, so
``I - R`` is non-singular over ``F``.

*State elimination* (Gaussian elimination written as ``v = b + R v``; Daws 2004,
"Symbolic and parametric model checking of discrete-time Markov chains"). Eliminating a
state ``s`` with self-loop ``r = R_ss`` solves its row for ``v_s``:

.. math:: v_s = f\\,\\Big(b_s + \\sum_{j \\ne s} R_{sj} v_j\\Big), \\qquad f = \\frac{1}{1 - r},

and substitutes it into every row ``t`` that reads ``s`` (``R_ts != 0``):
``R_tj += R_ts R_sj`` for ``j != s`` and ``b_t += R_ts b_s``. After all ``m`` states are
eliminated, back substitution in the reverse order gives each ``v_s`` from values
already known. Only ``+``, ``-``, ``*`` and ``/`` of the field are used, and the integer
``1`` as its unit (``1 - r``, ``1 / x``), so one implementation serves every field.

*Why exact, and why no pivot search.* Eliminating ``s`` from a substochastic chain
leaves the chain watched on the other states (the censored chain): its entries are the
probabilities of reaching ``j`` from ``t`` without visiting another remaining state, so
they stay non-negative, rows keep their stopping mass, and each pivot ``1 - r`` is the
probability of moving on from ``s`` (to another remaining state, or to the end of play)
before returning to it, positive because the system stops (for every parameter value:
a non-zero rational function). So every order is feasible and no
entry grows beyond a probability: exact arithmetic has no rounding, and the pivots
need no search for size, only for sparsity.

*Acyclic part first.* Most systems of games built from turns are nearly triangular (a
turn total that only grows, a score that only rises, with a few states closing the cycles).
A depth-first search finds a feedback set (the targets of its back edges: every cycle has
one); the other states, successors first, are substituted into their readers as rows over
the feedback states only, the feedback states' (small) system is eliminated, and the rest
follow by back substitution. The operations are those of elimination in that order, found
without a heap.

*Pivot order.* The state with the smallest Markowitz product ``|column| x |row|``
(rows that read it times the entries of its row, self-loop included) is eliminated
first (Markowitz 1957): it bounds the fill-in and the work of the step. A lazy heap keeps
the products current: a popped entry whose product has changed is pushed back.

*Plans.* The operations applied to ``b`` depend on ``R`` only: ``b_t += R_ts b_s`` in
elimination order, ``b_s *= f`` for self-loops, then the back substitution. :func:`plan`
records them as a :class:`Plan`, which :meth:`Plan.run` replays on any right-hand side.
Systems with the same ``R`` (the exact solver's components of one shape, common in games
built from repeated rules) share one plan and redo only the right-hand side.

*Integer replay.* Over the rationals, a plan can run on integer numerators instead
(:class:`IntegerPlan`): with ``b = n / D``, every entry stays an integer over ``D`` times a
small integer fixed by the plan, so the replay multiplies big integers by small ones and
adds them, and never needs the gcd that every rational addition of big numbers costs.

*Cost.* Eliminating ``s`` costs ``|column(s)| x |row(s)|`` multiply-adds on ``R`` and
``|column(s)|`` on ``b``: linear in ``m`` for chains and trees of states, ``O(m^3)`` at
worst (a dense block). The number sizes grow with the elimination (denominators of
thousands of digits, or polynomial degrees), so operations whose result is known are
skipped: a zero of ``b`` or of ``v`` adds nothing. The zero test is truthiness
(``bool(x)`` is false for a zero ``Fraction`` or ``mpq``); a field whose elements are
always truthy (``RationalFunction``) only loses the skip.

:func:`solve_block` builds the system of one block of a fixed profile from a compiled
game's arrays (outcome lists per action) and solves it; :func:`eliminate` solves given
rows; :func:`plan` and :meth:`Plan.run` separate the two halves.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, Self, TypeVar

__all__ = ["Field", "IntegerPlan", "Plan", "Ratio", "eliminate", "feedback_states", "integer_plan", "plan",
           "solve_block", "users_of"]


class Field(Protocol):
    """An element of a field: what the elimination computes with.

    ``+``, ``-``, ``*``, ``/`` between elements, and the integer 1 as the unit (``1 - x``,
    ``1 / x``). :class:`fractions.Fraction`, ``gmpy2.mpq`` and
    :class:`~tbsg.parametric.rational.RationalFunction` are fields in this sense.
    """

    def __add__(self, other: Self, /) -> Self: ...

    def __sub__(self, other: Self, /) -> Self: ...

    def __mul__(self, other: Self, /) -> Self: ...

    def __truediv__(self, other: Self, /) -> Self: ...

    def __rsub__(self, other: int, /) -> Self: ...

    def __rtruediv__(self, other: int, /) -> Self: ...


F = TypeVar("F", bound=Field)

SparseRows = list[dict[int, F]]
"""Sparse rows of ``R``: ``rows[s][j] = R_sj`` (entries absent are zero)."""


@dataclass(frozen=True, eq=False)
class Plan(Generic[F]):
    """The operations state elimination applies to the right-hand side of one system.

    ``steps``: ``(t, s, c)`` is ``b[t] += c * b[s]``, or ``b[t] *= c`` when ``s`` is -1
    (a self-loop); then ``back`` computes the values in reverse elimination order:
    ``v[s] = b[s] + sum(c * v[j] for j, c in terms)`` for ``(s, terms)``. They depend on
    ``R`` only, so systems with the same ``R`` share one plan.
    """

    m: int
    steps: list[tuple[int, int, F]]
    back: list[tuple[int, list[tuple[int, F]]]]

    def run(self, rhs: list[F]) -> list[F]:
        """The solution ``v`` of ``v = rhs + R v``: ``rhs`` itself, overwritten.

        Back substitution writes ``v[s]`` over ``rhs[s]``: a state's terms read only
        states eliminated after it, whose values are already there.
        """
        for t, s, c in self.steps:
            if s < 0:
                rhs[t] = rhs[t] * c
                continue
            x = rhs[s]
            if x:  # skip exact zeros: big-number additions dominate the cost
                y = rhs[t]
                rhs[t] = y + c * x if y else c * x
        for s, terms in self.back:
            v = rhs[s]
            for j, c in terms:
                x = rhs[j]
                if x:
                    v = v + c * x if v else c * x
            rhs[s] = v
        return rhs


class Ratio(Field, Protocol):
    """A field element that is a rational number: its lowest-terms ``numerator`` and
    ``denominator`` (``Fraction`` and ``gmpy2.mpq``)."""

    @property
    def numerator(self) -> int: ...

    @property
    def denominator(self) -> int: ...


R = TypeVar("R", bound=Ratio)


@dataclass(frozen=True, eq=False)
class IntegerPlan:
    """A :class:`Plan` over the rationals, replayed on integer numerators.

    The right-hand side is given as integers ``n`` over one common denominator ``D``
    (``b = n / D``). Each entry is kept as an integer over ``D`` times a small integer
    ``d_t`` that depends on the plan only (the common denominator of the coefficients
    that combine into it), so every step is ``n_t = alpha n_t + beta n_s`` with small
    integers ``alpha = d / d_t`` and ``beta = p d / (q d_s)`` for a coefficient ``p / q``
    and the new ``d = lcm(d_t, q d_s)``: big integers are only multiplied by small ones
    and added, with no gcd of big numbers (the cost of a rational addition). After the
    run, ``v_s = n_s / (den[s] D)``.

    ``steps``: ``(t, s, alpha, beta)`` is ``n_t = alpha n_t + beta n_s`` (``s = -1``: only
    the factor); ``back``: ``(s, alpha, terms)`` is ``n_s = alpha n_s + sum(beta n_j for
    j, beta in terms)``, in reverse elimination order.
    """

    steps: list[tuple[int, int, int, int]]
    back: list[tuple[int, int, list[tuple[int, int]]]]
    den: list[int]

    def run(self, nums: list[int]) -> list[int]:
        """The numerators of the solution over ``den[s] * D``: ``nums`` itself, overwritten."""
        for t, s, a, b in self.steps:
            y = nums[t]
            if a != 1 and y:
                y = y * a
            if s >= 0:
                x = nums[s]
                if x:  # zeros add nothing
                    y = y + b * x if y else b * x
            nums[t] = y
        for s, a, terms in self.back:
            v = nums[s]
            if a != 1 and v:
                v = v * a
            for j, b in terms:
                x = nums[j]
                if x:
                    v = v + b * x if v else b * x
            nums[s] = v
        return nums


def integer_plan(p: Plan[R]) -> IntegerPlan:
    """The :class:`IntegerPlan` of a plan with rational coefficients.

    The denominators ``d`` start at 1 (integer right-hand sides) and follow the steps
    exactly as the class docstring says; they depend on the coefficients only.
    """
    den = [1] * p.m
    ratio = _Ratios()  # coefficients repeat: each value split into integers once
    gcd = math.gcd
    steps: list[tuple[int, int, int, int]] = []
    for t, s, c in p.steps:
        cp, cq = ratio.get(c) or ratio.split(c)
        if s < 0:
            steps.append((t, -1, cp, 0))
            den[t] *= cq
            continue
        d_t, dq = den[t], cq * den[s]
        g = gcd(d_t, dq)
        steps.append((t, s, dq // g, cp * (d_t // g)))
        den[t] = d_t * (dq // g)
    back: list[tuple[int, int, list[tuple[int, int]]]] = []
    for s, terms in p.back:
        d_s = d = den[s]
        parts = []
        for j, c in terms:
            cp, cq = ratio.get(c) or ratio.split(c)
            dq = cq * den[j]
            d = d * (dq // gcd(d, dq))
            parts.append((j, cp, dq))
        back.append((s, d // d_s, [(j, cp * (d // dq)) for j, cp, dq in parts]))
        den[s] = d
    return IntegerPlan(steps, back, den)


class _Ratios(dict[Ratio, tuple[int, int]]):
    """Numerator and denominator of rationals, as Python integers, by value."""

    def split(self, c: Ratio) -> tuple[int, int]:
        r = self[c] = (int(c.numerator), int(c.denominator))
        return r


def users_of(rows: SparseRows[F]) -> list[set[int]]:
    """Column structure of ``R``: ``users[j]`` is the set of rows ``t != j`` that read ``j``."""
    users: list[set[int]] = [set() for _ in rows]
    for t, row in enumerate(rows):
        for j in row:
            if j != t:
                users[j].add(t)
    return users


def plan(rows: SparseRows[F], users: list[set[int]] | None = None) -> Plan[F]:
    """State elimination on ``R`` (``rows``; ``users`` from :func:`users_of`, both
    consumed), recorded as a :class:`Plan`.

    The acyclic part first (:func:`feedback_states`): the states outside the feedback
    set, successors first, each substituted into its row's readers as a row over the
    feedback states only; then the feedback states' system by the Markowitz order
    (:func:`_markowitz`); then the acyclic states' values from the feedback states'.
    """
    order, core = feedback_states(rows)
    if not order:
        return _markowitz(rows, users)
    return _peeled(rows, order, core)


def feedback_states(rows: SparseRows[F]) -> tuple[list[int], list[int]]:
    """``(order, core)``: a feedback set ``core`` of the graph of ``R`` and the other
    states in an order where every state comes after the states its row reads.

    One depth-first search: every cycle contains an edge to a state on the search
    stack (a back edge), so removing the targets of the back edges (self-loops
    included) leaves an acyclic graph, and the search's post-order lists its states
    successors first (tree, forward and cross edges lead to states finished earlier).
    """
    m = len(rows)
    state = [0] * m  # 0 unseen, 1 on the stack, 2 finished
    core = [False] * m
    post: list[int] = []
    for root in range(m):
        if state[root]:
            continue
        state[root] = 1
        stack = [(root, iter(rows[root]))]
        while stack:
            s, it = stack[-1]
            for j in it:
                if state[j] == 0:
                    state[j] = 1
                    stack.append((j, iter(rows[j])))
                    break
                if state[j] == 1:
                    core[j] = True
            else:
                stack.pop()
                state[s] = 2
                post.append(s)
    return [s for s in post if not core[s]], [s for s in range(m) if core[s]]


def _peeled(rows: SparseRows[F], order: list[int], core: list[int]) -> Plan[F]:
    """:func:`plan` with the acyclic states ``order`` (successors first) and the feedback
    states ``core`` of :func:`feedback_states`."""
    at = {f: c for c, f in enumerate(core)}
    steps: list[tuple[int, int, F]] = []
    reduced: dict[int, dict[int, F]] = {}  # acyclic state: its row over the feedback states

    def substitute(s: int) -> dict[int, F]:
        out: dict[int, F] = {}
        for t, c in rows[s].items():
            sub = reduced.get(t)
            if sub is None:  # a feedback state
                prev = out.get(at[t])
                out[at[t]] = c if prev is None else prev + c
                continue
            steps.append((s, t, c))
            for f, x in sub.items():
                prev = out.get(f)
                out[f] = c * x if prev is None else prev + c * x
        return out

    for s in order:
        reduced[s] = substitute(s)
    inner = _markowitz([substitute(f) for f in core], None)
    steps.extend((core[t], -1 if u < 0 else core[u], c) for t, u, c in inner.steps)
    back = [(core[s], [(core[j], c) for j, c in terms]) for s, terms in inner.back]
    back.extend((s, [(core[f], c) for f, c in reduced[s].items()]) for s in reversed(order))
    return Plan(len(rows), steps, back)


def _markowitz(rows: SparseRows[F], users: list[set[int]] | None) -> Plan[F]:
    """State elimination with the smallest Markowitz product ``|users| x |row|`` first
    (lazy heap)."""
    if users is None:
        users = users_of(rows)
    m = len(rows)
    done = [False] * m
    order: list[int] = []
    steps: list[tuple[int, int, F]] = []
    heap = [(len(users[r]) * len(rows[r]), r) for r in range(m)]
    heapq.heapify(heap)
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
            f = 1 / (1 - self_p)
            steps.append((s, -1, f))
            for j in row_s:
                row_s[j] = row_s[j] * f
        for t in users[s]:
            row_t = rows[t]
            coef = row_t.pop(s)
            steps.append((t, s, coef))
            for j, c in row_s.items():
                prev = row_t.get(j)
                row_t[j] = coef * c if prev is None else prev + coef * c
                if j != t:
                    users[j].add(t)
            heapq.heappush(heap, (len(users[t]) * len(row_t), t))
        for j in row_s:
            users[j].discard(s)
        users[s] = set()
    back = [(s, list(rows[s].items())) for s in reversed(order)]
    return Plan(m, steps, back)


def eliminate(rows: SparseRows[F], rhs: list[F], users: list[set[int]] | None = None) -> list[F]:
    """Exact solution of ``v = rhs + R v`` (``R`` given by sparse ``rows``): the plan of
    ``R`` (:func:`plan`) run on ``rhs``. ``rows``, ``users`` and ``rhs`` are consumed."""
    return plan(rows, users).run(rhs)


def solve_block(states: Sequence[int], choice: Sequence[int], const: Sequence[F], x: list[F],
                out_ptr: Sequence[int], target: Sequence[int], prob: Sequence[F]) -> None:
    """Exact ``x_i = const[k] + sum_o prob[o] x(target[o])``, ``k = choice[i]``, on the block ``states``.

    State ``i`` plays action ``choice[i]``, whose outcomes are ``o`` in
    ``out_ptr[k]:out_ptr[k+1]`` (a compiled game's arrays); ``const`` is indexed by action.
    The values of states outside the block are read from ``x`` (they must be final: blocks
    are solved in the order of :func:`tbsg.engine.graph.decompose`); the block's values
    are written into ``x``. A block of one state is one substitution (a division when it
    has a self-loop). Outcomes repeating a target are added up.
    """
    if len(states) == 1:
        i = states[0]
        k = choice[i]
        _solve_one(i, const[k], x, range(out_ptr[k], out_ptr[k + 1]), target, prob)
        return
    local = {s: r for r, s in enumerate(states)}
    rows: SparseRows[F] = []
    rhs: list[F] = []
    users: list[set[int]] = [set() for _ in states]
    for r, i in enumerate(states):
        k = choice[i]
        b = const[k]
        row: dict[int, F] = {}
        for o in range(out_ptr[k], out_ptr[k + 1]):
            j = target[o]
            q = local.get(j)
            if q is None:
                xj = x[j]
                if xj:
                    b = b + prob[o] * xj
            else:
                prev = row.get(q)
                row[q] = prob[o] if prev is None else prev + prob[o]
                if q != r:
                    users[q].add(r)
        rows.append(row)
        rhs.append(b)
    for r, v in enumerate(eliminate(rows, rhs, users)):
        x[states[r]] = v


def _solve_one(i: int, b: F, x: list[F], outs: range, target: Sequence[int], prob: Sequence[F]) -> None:
    """:func:`solve_block` for the block ``[i]`` (outcomes ``outs``, constant ``b``)."""
    loop: F | None = None
    for o in outs:
        j = target[o]
        if j == i:
            loop = prob[o] if loop is None else loop + prob[o]
        else:
            xj = x[j]
            if xj:
                b = b + prob[o] * xj
    x[i] = b if loop is None else b / (1 - loop)
