"""Optimality of exact values: the conditions a solution meets, and its optimal actions.

Mathematics
-----------
Take exact state values ``v``, a positional profile ``σ`` (one action per state) and, at
each state ``s``, the *direction* of its mover:

.. math::

    d(s) = +1 \\ \\text{(player 0 optimises: maximum)}, \\quad
    d(s) = -1 \\ \\text{(player 1 optimises: minimum)}, \\quad
    d(s) = 0 \\ \\text{(the mover's strategy is fixed: it plays } σ(s)).

With ``Q_v`` the action values of :mod:`tbsg.engine.bellman` and, for an action ``k`` of
``s``, its *sign* ``δ(k) = sign(Q_v(k) - v(s))``:

(a) *strategy equations*: ``δ(σ(s)) = 0`` at every state;
(b) *no profitable deviation*: ``d(s) δ(k) <= 0`` for every allowed action ``k`` of ``s``;
(c) *end-component bounds* (never-ending play worth ``c``): ``v >= c`` on every end
    component of the allowed actions with player 1 held to ``σ`` (there player 0 can keep
    play going forever), and ``v <= c`` on every end component with player 0 held to ``σ``.

(a) and (b) say ``v = Tv`` for the Bellman operator of the game restricted to the allowed
actions and that ``σ`` attains it. With (c), or with no end component at all, ``v`` is
the value and ``σ`` is optimal for the players who optimise (the proofs are in
:mod:`tbsg.engine.infinite` and :mod:`tbsg.certify.certificate`).

The *optimal actions* of ``s`` are

.. math:: O(s) = \\{σ(s)\\} \\cup \\{k \\text{ allowed} : d(s) \\ne 0,\\ δ(k) = 0\\},

the ties of the Bellman operator: in a stopping game every combination of them is an
optimal strategy. With infinite play a tie may loop (a self-loop preserves the value and
earns ``c`` for ever), so there ``O(s)`` keeps only the ties whose permanent use keeps (c)
for the mover (:func:`switch_safe_actions`; :mod:`tbsg.engine.infinite` gives the example).

Why one module
--------------
Four parts of tbsg derive optimal actions from exact values: the exact solver (the mask of
a :class:`~tbsg.Solution`), the infinite-play solver (it certifies its candidates with
(a) to (c)), the certificate (it checks (a) to (c) and re-derives the mask) and the
solution files (the mask of a loaded solution). They all call :func:`optimal_mask`,
:func:`first_failure` and :func:`end_component_failure`, so a solution, its certificate
and its saved copy cannot disagree on what "optimal" means.

Nothing here searches for a strategy: each function evaluates a definition on given
values. The signs ``δ`` are decided in the way the caller chooses: in exact integer
arithmetic (:func:`exact_signs`, no float: the certificate),
or through the kernel's float filter (:func:`tbsg.engine.bellman.action_signs`: the
solvers, where every decision is still the exact one and only clear signs are read from
floats). The end components are those of :mod:`tbsg.engine.graph`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from tbsg.engine import _backend as bk
from tbsg.engine.compiled import BoolArray, CompiledGame, IntArray
from tbsg.engine.graph import EndComponents, Subgraph, end_components, end_components_of, subgraph
from tbsg.engine.integer_q import exact_action_signs

__all__ = [
    "Failure",
    "SignArray",
    "SignFunction",
    "directions",
    "end_component_failure",
    "exact_signs",
    "first_failure",
    "optimal_mask",
    "switch_safe_actions",
    "usable_actions",
]

SignArray = npt.NDArray[np.int8]

SignFunction = Callable[[IntArray], SignArray]
"""``δ(k)`` of the given flat actions, decided exactly (by whatever arithmetic the caller chose)."""


@dataclass(frozen=True)
class Failure:
    """Where a condition of the module docstring fails.

    Attributes
    ----------
    condition : str
        ``"a"``, ``"b"`` or ``"c"``.
    state : int
        The state concerned.
    action : int
        (a): the profile's action there; (b): the strictly better action; (c): -1.
    player : int
        (a), (b): the mover; (c): the player who can keep play going forever there.
    """

    condition: str
    state: int
    action: int
    player: int


def directions(g: CompiledGame[Any, Any], optimizing: Sequence[int] = (0, 1)) -> SignArray:
    """``d(s)`` per state: +1 (player 0 optimises), -1 (player 1 optimises), 0 (fixed)."""
    d = np.where(g.player == 0, 1, -1).astype(np.int8)
    d[~np.isin(g.player, list(optimizing))] = 0
    return d


def exact_signs(g: CompiledGame[Any, Any], values: Sequence[Fraction],
                acts: IntArray | None = None,
                progress: Callable[[int, int], None] | None = None) -> SignArray:
    """``δ(k)`` for every flat action (or those in ``acts``), in exact integer arithmetic only.

    No float decides anything: :func:`tbsg.engine.integer_q.exact_action_signs` (terms over
    one denominator added as integers, strict signs proven by a fixed-point bound in
    integers, the rest decided by cross-multiplication in the backend's exact integer type).
    ``progress(done, total)``, if given, hears the actions decided.
    """
    return exact_action_signs(g, values, acts, progress)


def usable_actions(g: CompiledGame[Any, Any], choice: IntArray, optimizing: Sequence[int] = (0, 1),
                   allowed: BoolArray | None = None) -> BoolArray:
    """The actions the players may use: every allowed action of a state whose mover
    optimises, and ``choice`` (the fixed strategy) elsewhere."""
    usable: BoolArray = directions(g, optimizing)[g.act_state] != 0
    if allowed is not None:
        usable &= allowed
    usable[choice] = True
    return usable


def first_failure(g: CompiledGame[Any, Any], sign: SignArray, choice: IntArray,
                  direction: SignArray, allowed: BoolArray | None = None) -> Failure | None:
    """The first failure of (a) or (b) (by state; at one state (a) first, then actions in
    order), or ``None``. ``sign`` is ``δ`` of every flat action."""
    bad_a = np.flatnonzero(sign[choice] != 0)
    better = (direction[g.act_state].astype(np.int64) * sign) > 0
    if allowed is not None:
        better &= allowed
    bad_b = np.flatnonzero(better)
    i_a = int(bad_a[0]) if len(bad_a) else g.n_states
    i_b = int(g.act_state[bad_b[0]]) if len(bad_b) else g.n_states
    if i_a == i_b == g.n_states:
        return None
    if i_a <= i_b:
        return Failure("a", i_a, int(choice[i_a]), int(g.player[i_a]))
    return Failure("b", i_b, int(bad_b[0]), int(g.player[i_b]))


def end_component_failure(g: CompiledGame[Any, Any], values: Sequence[Any], choice: IntArray,
                          c: Fraction, allowed: BoolArray | None = None) -> Failure | None:
    """The first failure of (c), player 0's end components first, or ``None``.

    ``allowed`` (default: every action) are the actions the players may use; each player
    is held to ``choice`` in turn while the other may use any allowed action.
    """
    c = _like(values, c)
    chosen = _chosen(g, choice)
    owner = g.player[g.act_state]
    usable = np.ones(g.n_actions, dtype=bool) if allowed is None else allowed
    for free in (0, 1):
        trapped = end_components(g, chosen | (usable & (owner == free))).trapped
        for i in np.flatnonzero(trapped).tolist():
            if (values[i] < c) if free == 0 else (values[i] > c):
                return Failure("c", i, -1, free)
    return None


def optimal_mask(g: CompiledGame[Any, Any], values: Sequence[Any], choice: IntArray, *,
                 optimizing: Sequence[int] = (0, 1), allowed: BoolArray | None = None,
                 sign: SignArray | SignFunction | None = None,
                 known: BoolArray | None = None, settled: BoolArray | None = None,
                 infinite_play: Fraction | None = None,
                 mecs: EndComponents | None = None) -> BoolArray:
    """``O(s)`` of every state as a mask over flat actions (module docstring).

    Parameters
    ----------
    g : CompiledGame
    values : sequence of exact rationals
        ``v``, one per state (``Fraction``, or the exact backend's rationals).
    choice : ndarray of int64
        ``σ``: the flat action played at each state (its own tie, marked without
        recomputation).
    optimizing : sequence of int
        The players who optimise (:func:`directions`); the others' states list ``σ(s)`` only.
    allowed : ndarray of bool, optional
        The actions the players may use (default: all).
    sign : ndarray of int8, callable or None
        How ``δ`` is decided: already decided for every action (an array), by a function
        of the actions to decide (the solvers' filtered signs), or (``None``, default) by
        :func:`exact_signs`, in exact integer arithmetic.
    known, settled : ndarray of bool, optional
        States flagged in ``settled`` have their optimal actions flagged in ``known``
        already (a solver found them while solving): they are not looked at again.
    infinite_play : Fraction, optional
        Never-ending play worth this to player 0: keep only the switch-safe ties.
    mecs : EndComponents, optional
        The maximal end components of the actions the players may use, if computed.
    """
    direction = directions(g, optimizing)
    mask = np.zeros(g.n_actions, dtype=bool) if known is None else known.copy()
    mask[choice] = True
    cand = ~mask & (direction[g.act_state] != 0)
    if allowed is not None:
        cand &= allowed
    if settled is not None:
        cand &= ~settled[g.act_state]
    acts = np.flatnonzero(cand)
    if len(acts):
        if sign is None:
            found = exact_signs(g, values, acts)
        elif callable(sign):
            found = sign(acts)
        else:
            found = sign[acts]
        mask[acts] = found == 0
    if infinite_play is None:
        return mask
    return switch_safe_actions(g, values, choice, infinite_play, mask,
                               usable_actions(g, choice, optimizing, allowed), mecs)


def switch_safe_actions(g: CompiledGame[Any, Any], values: Sequence[Any], choice: IntArray,
                        c: Fraction, value_preserving: BoolArray,
                        allowed: BoolArray | None = None,
                        mecs: EndComponents | None = None) -> BoolArray:
    """Value-preserving actions whose single switch keeps the strategy optimal.

    Action ``a`` of state ``s`` (owned by player ``p``) is kept if the positional strategy
    of ``p`` in ``choice``, with ``a`` played at ``s`` instead, still guarantees ``values``
    from every state. Given ``Q_v(a) = v(s)`` this fails only through condition (c): the
    other player (restricted to ``allowed``) could then keep play going forever, against
    the switched strategy, in an end component where ``v`` is on the wrong side of ``c``
    for ``p`` (``v > c`` for player 0, ``v < c`` for player 1). Such an end component uses
    ``a``, so lies in the maximal end component of the allowed actions that contains ``s``
    (``mecs``, computed if not given); only that one is searched, and only if it has such
    values at all.
    """
    mask = value_preserving.copy()
    mask[choice] = True
    if mecs is None:
        mecs = end_components(g, allowed)
    cand = value_preserving & mecs.internal
    cand[choice] = False
    if not cand.any():
        return mask
    c = _like(values, c)
    label = mecs.label.tolist()
    members = mecs.members()
    wrong = ([any(values[i] > c for i in ms) for ms in members],   # for player 0
             [any(values[i] < c for i in ms) for ms in members])   # for player 1
    local: dict[int, Subgraph] = {}
    for k in np.flatnonzero(cand).tolist():
        i = int(g.act_state[k])
        p = int(g.player[i])
        m = label[i]
        if not wrong[p][m]:
            continue  # no state of this end component is on the wrong side of c for p
        if m not in local:
            local[m] = subgraph(g, members[m], mecs.internal)
        if _loops_badly(local[m], members[m].index(i), k, p, choice, values, c):
            mask[k] = False
    return mask


def _loops_badly(sub: Subgraph, at: int, k: int, p: int, choice: IntArray,
                 values: Sequence[Any], c: Fraction) -> bool:
    """Can the other player keep play forever in ``sub``, against ``p``'s strategy switched
    to ``k`` at the local state ``at``, at a state whose value is on the wrong side of ``c``?"""
    plays = choice[sub.states].copy()
    plays[at] = k
    alive = (sub.owner[sub.act_state] != p) | (plays[sub.act_state] == sub.acts)
    label = end_components_of(len(sub.states), sub.act_state, sub.out_action, sub.out_target,
                              alive).label
    return any((values[w] > c) if p == 0 else (values[w] < c)
               for w in sub.states[label >= 0].tolist())


def _like(values: Sequence[Any], c: Fraction) -> Any:
    """``c`` in the number type of ``values`` (comparisons within one type are the fastest)."""
    return c if not len(values) or isinstance(values[0], Fraction) else bk.from_fraction(c)


def _chosen(g: CompiledGame[Any, Any], choice: IntArray) -> BoolArray:
    chosen = np.zeros(g.n_actions, dtype=bool)
    chosen[choice] = True
    return chosen
