"""The linear systems of a chain: ``x = b + P x`` over its states, and where they diverge.

Under a fixed profile the game is a Markov chain with transient part ``P`` (the
probabilities between non-terminal states; the rest of each row ends play). For a
quantity ``b(s)`` collected at each step, the expected total from each state solves
``x = b + P x`` (the fundamental matrix of Kemeny and Snell, 1960): expected steps,
rewards and visits (:mod:`tbsg.play.totals`), the value and the probability of reaching a
set (:mod:`tbsg.play.outcomes`), and the moments of the length of play
(:mod:`tbsg.play.lengths`) are all of this form, with some states *given* (their ``x``
fixed).

Play may reach a *closed class*: states it never leaves and where it never ends (a
trap). There the system is singular, so the trap's states are given: 0 when ``b``
vanishes on the class (nothing is collected there), and otherwise the total diverges
from every state that reaches the class, which :func:`diverging` reports as
:class:`~tbsg.errors.InfiniteExpectationError` when the start is among them.
:mod:`tbsg.engine.markov` solves the systems exactly, component by component, or with
proven float bounds.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any, TypeVar

import numpy as np

from tbsg.engine import _backend as bk
from tbsg.engine._backend import Rational
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.markov import ChainStructure, chain_bounds, float_order, solve_chain
from tbsg.errors import InfiniteExpectationError, InvalidArgumentError, UnsupportedError, show
from tbsg.model.steps import StepFunction, step_values

__all__ = [
    "Bounds",
    "diverging",
    "exact_total",
    "flag",
    "float_total",
    "no_bounds",
    "probability",
    "reach_probability",
    "reaching",
    "steps",
    "target_values",
]

S = TypeVar("S", bound=Hashable)

Bounds = tuple[float, float]
"""Proven float bounds ``(lower, upper)``."""


def steps(graph: CompiledGame[Any, Any], fn: StepFunction | None, what: str, *,
          nonnegative: bool = False, integer: bool = False) -> list[Fraction]:
    """``fn(state, action)`` at every state of the chain, with its one action (checked;
    ``None``: 1 per move)."""
    # one action per state: state i's action is the i-th label
    return step_values(fn, what, graph.states, graph.act_labels, None, nonnegative=nonnegative,
                       integer=integer)


def exact_total(graph: CompiledGame[Any, Any], st: ChainStructure, b: Sequence[Fraction],
                given: Sequence[int], start: int) -> Fraction:
    """``x[start]`` of ``x = b + P x`` with the states ``given`` held at 0, exactly."""
    x = solve_chain(graph, st.comps, [bk.from_fraction(v) for v in b], {i: bk.ZERO for i in given})
    return bk.to_fraction(x[start])


def float_total(graph: CompiledGame[Any, Any], b: list[Fraction], given: dict[int, Fraction],
                start: int, st: ChainStructure | None = None) -> Bounds:
    """Proven bounds of ``x[start]`` of ``x = b + P x`` with the states ``given`` fixed
    (with ``st``, the chain's structure, the system is factorised in
    :func:`~tbsg.engine.markov.float_order`)."""
    r = chain_bounds(graph, b, given, None if st is None else float_order(graph))
    if r is None:
        raise no_bounds()
    lo, hi = r
    return float(lo[start]), float(hi[start])


def diverging(graph: CompiledGame[Any, Any], st: ChainStructure, b: list[Fraction], what: str,
              start: int) -> list[int]:
    """The states to give 0: closed classes where ``b`` vanishes, and every state from which
    a closed class where it does not is reachable (their totals diverge; none may be
    reachable from ``start``)."""
    if st.n_traps == 0:
        return []
    trap = st.trap.tolist()
    bad_class = {trap[i] for i, v in enumerate(b) if v and trap[i] >= 0}
    given = [i for i, t in enumerate(trap) if t >= 0]
    if not bad_class:
        return given
    seeds = [i for i, t in enumerate(trap) if t in bad_class]
    bad = reaching(graph, seeds)
    if bad[start]:
        p = reach_probability(graph, st, seeds, start)
        sample = tuple(graph.states[i] for i in seeds[:4])
        raise InfiniteExpectationError(
            f"the expected {what} is infinite or undefined: with probability {show(p)} play "
            f"reaches states it never leaves (no terminal), e.g. {show(sample[0])}, and keeps "
            f"adding to the {what} there at infinitely many steps",
            probability=p, states=sample)
    return sorted(set(given) | {i for i, x in enumerate(bad) if x})


def reaching(graph: CompiledGame[Any, Any], seeds: list[int]) -> list[bool]:
    """Mask of the states from which some state in ``seeds`` is reachable."""
    src = graph.out_source().astype(np.int64)
    order = np.argsort(graph.out_target, kind="stable")
    pred = src[order].tolist()
    ptr = np.searchsorted(graph.out_target[order], np.arange(graph.n_states + 1)).tolist()
    mark = [False] * graph.n_states
    stack = list(seeds)
    for i in seeds:
        mark[i] = True
    while stack:
        j = stack.pop()
        for i in pred[ptr[j] : ptr[j + 1]]:
            if not mark[i]:
                mark[i] = True
                stack.append(i)
    return mark


def target_values(st: ChainStructure, targets: list[int], one: Any, zero: Any) -> dict[int, Any]:
    """The given states of a reachability system: ``one`` at the targets and on closed
    classes holding one, ``zero`` on the other closed classes (never left, never hit)."""
    given: dict[int, Any] = dict.fromkeys(targets, one)
    trap = st.trap.tolist()
    hit = {trap[i] for i in targets if trap[i] >= 0}
    for i, t in enumerate(trap):
        if t >= 0 and i not in given:
            given[i] = one if t in hit else zero
    return given


def reach_probability(graph: CompiledGame[Any, Any], st: ChainStructure, targets: list[int],
                      start: int) -> Fraction:
    """The probability that play from ``start`` ever reaches a state in ``targets``, exactly."""
    given: dict[int, Rational] = target_values(st, targets, bk.ONE, bk.ZERO)
    x = solve_chain(graph, st.comps, [bk.ZERO] * graph.n_states, given)
    return bk.to_fraction(x[start])


def no_bounds() -> UnsupportedError:
    """The error of a chain whose float bounds cannot be proven."""
    return UnsupportedError(
        "no float bounds could be proven for this chain: its linear system is too "
        "ill-conditioned for floating point (play that ends with tiny probability), or its "
        "values exceed the float range; use exact=True")


def probability(lo: float, hi: float) -> Bounds:
    """Bounds of a probability, clipped to [0, 1] (where it lies anyway)."""
    return max(lo, 0.0), min(hi, 1.0)


def flag(x: object) -> bool:
    """The ``exact`` argument: True or False, else an error."""
    if not isinstance(x, bool):
        raise InvalidArgumentError(f"exact must be True or False, got {show(x)}")
    return x
