"""Infinite play: exact solutions of non-stopping games with a payoff for never-ending play.

The problem
-----------
A game is *stopping* when every strategy profile ends play with probability 1
(:mod:`tbsg.engine.graph`). Otherwise some set of states is an *end component* (de Alfaro 1997):
the players can together keep play there forever, the Bellman equations have many fixed
points, and the game has no value until a never-ending play gets a payoff. The rule
``infinite_play = c`` (a rational in [0, 1]) gives player 0 the payoff

.. math::

    \\Phi = r(t) \\text{ if play ends in the terminal } t, \\qquad
    \\Phi = c \\text{ if play never ends},

and player 0 maximises, player 1 minimises, the expectation of ``Φ``. For ``c = 0`` (and
payoffs in [0, 1]) this is a quantitative *reachability* objective: the value is the
**least** fixed point of the Bellman operator ``T``, not just any fixed point (Condon
1992); for ``c = 1`` it is the greatest; for ``0 < c < 1`` it is in general neither.
``Φ`` is also the limit-average payoff of the game in which every step in a non-terminal
state pays ``c`` and a terminal ``t`` is absorbing and pays ``r(t)`` per step; so the game
is a perfect-information mean-payoff game, and both players have optimal *positional*
(pure, stationary) strategies (Liggett and Lippman 1969).

Notation: ``Q_v(k) = c_k + Σ_j p_kj v(j)`` is the value of the flat action ``k`` against
state values ``v`` (``c_k`` its terminal payoff mass, see :mod:`tbsg.engine.compile`);
``G[τ]`` is the Markov decision process (MDP) of player 0 when player 1 plays the
positional strategy ``τ`` (``G[σ]`` likewise for player 1), and ``EC(M)`` the set of
states lying in some end component of ``M``.

The certificate
---------------
**Theorem.** Let ``(σ, τ)`` be a positional profile and ``v`` state values with

(a) ``v(s) = Q_v(σ(s))`` where player 0 moves and ``v(s) = Q_v(τ(s))`` where player 1 moves;
(b) ``Q_v(k) <= v(s)`` for every action ``k`` of a player-0 state ``s`` and
    ``Q_v(k) >= v(s)`` for every action of a player-1 state;
(c) ``v(s) >= c`` on ``EC(G[τ])`` and ``v(s) <= c`` on ``EC(G[σ])``.

Then ``v`` is the value of the game and ``σ`` and ``τ`` are optimal, against all
(history-dependent, randomised) strategies.

*Proof.* Fix ``τ`` and any strategy ``π`` of player 0, and let ``Y_n = v(X_n)`` while play
runs (``X_n`` the state after ``n`` steps) and ``Y_n = r(t)`` once play has ended in
``t``. By (b) at player-0 states and (a) at player-1 states, ``E[Y_{n+1} | past] <= Y_n``:
``(Y_n)`` is a bounded supermartingale, so it converges almost surely to some ``Y_∞``
with ``E[Y_∞] <= v(s_0)``. If play ends, ``Y_∞ = Φ``. If it never ends then, almost
surely, the state–action pairs taken infinitely often form an end component of ``G[τ]``
(the fundamental property of end components: de Alfaro 1997; Baier and Katoen 2008,
chapter 10; an action with terminal mass taken infinitely often ends play), so from some time on
``X_n`` stays in ``EC(G[τ])`` and ``Y_∞ >= c = Φ`` by (c). Hence ``E^{π,τ}[Φ] <= v(s_0)``.
Symmetrically ``E^{σ,π'}[Φ] >= v(s_0)`` for every strategy ``π'`` of player 1, and both
bounds together give ``E^{σ,τ}[Φ] = v(s_0)``. ∎

The conditions are also *necessary* for an optimal positional profile and its values:
the value satisfies the Bellman equations (a), (b) (one step, then optimal play), and
from a state of ``EC(G[τ])`` player 0 can keep play in that end component forever
against ``τ``, earning ``c``, so the value is ``>= c`` there (``<= c`` on ``EC(G[σ])``).
Condition (c) also fixes ``v = c`` on the bottom strongly connected components (BSCCs)
without terminal mass of the profile's Markov chain (they are end components of both
``G[σ]`` and ``G[τ]``); with (a) this makes ``v`` the profile's own value vector. For a
stopping game (c) is empty and the certificate is the usual one of
:mod:`tbsg.certificate`, where uniqueness of the fixed point replaces (c).

The algorithm
-------------
1. *Maximal end components* (MECs) by the classical refinement (Courcoubetis and
   Yannakakis 1995; Chatterjee and Henzinger 2011): repeatedly drop actions that stop
   or leave their strongly connected component, and states left without actions.
   :func:`maximal_end_components` also returns the MECs' *internal* actions (no terminal
   mass, every outcome in the same MEC); every end component uses only those.
2. *Candidate profile* from the perturbed game ``G_ε``: every internal action ends play
   with probability ``ε``, paying ``c``, and follows its outcomes with the probabilities
   scaled by ``1 - ε`` (:func:`perturbed_game`). ``G_ε`` has no end component, so
   :func:`tbsg.engine.exact.solve_exact` solves it exactly and returns a positional
   profile ``(σ_ε, τ_ε)`` that is optimal in ``G_ε``.

   Why this works for small ``ε`` (Blackwell 1962; Liggett and Lippman 1969): for a
   positional profile ``π`` and a state ``s`` the value ``u_π(ε)(s)`` in ``G_ε`` is a
   rational function of ``ε`` (the solution of a linear system whose coefficients are
   affine in ``ε``), and ``u_π(ε) → u_π`` (its value in ``G`` under rule ``c``) as
   ``ε → 0+``: coupling the two plays, they differ only if a perturbation fires before
   play ends in ``G``, whose probability tends to 0 (bounded convergence); a play that never
   ends in ``G`` settles in a BSCC without terminal mass, an end component whose actions
   are all perturbed, and so ends in ``G_ε`` paying ``c``. The finitely many non-zero
   differences ``u_π'(ε)(s) - u_π(ε)(s)`` have finitely many zeros; below the smallest,
   ``ε_0``, each keeps its sign. For ``ε < ε_0``, optimality of ``(σ_ε, τ_ε)`` in ``G_ε``
   gives ``u_{σ',τ_ε}(ε) <= u_{σ_ε,τ_ε}(ε)`` for every positional ``σ'``, hence on all of
   ``(0, ε_0)`` and in the limit: ``σ_ε`` is a best response to ``τ_ε`` in ``G`` among
   positional strategies, hence among all (MDPs have positional optimal strategies, see
   *best responses* below); likewise ``τ_ε``. So ``(σ_ε, τ_ε)`` is an optimal profile of
   ``G`` and passes the certificate.
3. *Exact values of the candidate in G* (:func:`profile_values`): the BSCCs without
   terminal mass of its Markov chain become terminals paying ``c``; the rest of the chain
   then stops with probability 1 and is solved exactly.
4. *Certification*: (a), (b), (c) are checked exactly (a float filter only skips clear
   comparisons). If they hold the theorem makes the answer the value; if not, ``ε`` was not
   below ``ε_0``, which is not known in advance (it can be exponentially small in the size
   of the game): ``ε ← ε²`` and back to 2, at most :data:`MAX_ATTEMPTS` times.
   The first ``ε`` is ``2^-(32 + 2B)``, ``B`` the largest bit length of a denominator in
   the game (probabilities, payoff masses, ``c``), since tiny probabilities and close
   payoffs need a smaller ``ε``.

The exact solve of ``G_ε`` is the expensive step: its rationals are far longer than those
of ``G`` (``1 - ε`` enters every perturbed coefficient). So before it, a *float candidate*
is tried: Hoffman–Karp strategy iteration on ``G_ε`` for ``ε = 2^-20``
(:data:`FLOAT_EPSILON`) in float64, then steps 3 and 4 exactly. It usually certifies,
costing one exact evaluation of a Markov chain of ``G``; if it does not, nothing is lost
but that evaluation, and the exact loop above runs (it is the part with a termination
guarantee).

A wrong candidate can cost time, never correctness: only certified answers are returned,
and :func:`tbsg.verify` re-checks (a), (b), (c) independently.

Optimal actions
---------------
In a stopping game every *value-preserving* action (``Q_v(a) = v(s)``) is optimal, and any
combination of them is an optimal strategy. Not so in a non-stopping game: with ``c = 0``,
a player-0 state with a self-loop and an exit to a terminal paying 2/5 is worth 2/5, the
self-loop preserves that value (``Q = v``), yet looping for ever earns 0. So
``Solution.optimal_actions(s)`` lists the actions ``a`` such that the solution's strategy
with ``a`` played at ``s`` instead is **still optimal** for the player moving at ``s``
(from every state): ``a`` preserves the value and the switch passes condition (c), i.e.
the opponent cannot then keep play going forever where that is worse for the mover
(:func:`switch_safe_actions`; only the MEC containing ``s`` needs searching). The self-loop
above is not listed; a value-preserving action played *once* before returning to an
optimal strategy is still optimal, but is not listed unless it is safe as a permanent
choice. Listed actions of *different* states are not always safe together: two player-0
states that can each pass play to the other or exit for 2/5 list both "pass" actions
(each is fine while the other state exits) but passing at both loops for ever. No per-state
list can avoid this, since the set of optimal positional strategies is not a product of
per-state sets. ``Solution.strategy`` is certified optimal for both players, and
``Solution.action_values`` still gives every action's ``Q_v``.

Best responses (MDPs)
---------------------
With one player fixed the game is an MDP ``M`` for the other player; it is solved exactly
by collapsing each MEC of ``M`` into one state whose actions are the MEC's non-internal
actions plus "stay forever" (a terminal paying ``c``) (de Alfaro 1997; Baier and Katoen
2008, chapter 10, for reachability). The quotient has no end component (an end component of
it would lift to an end component of ``M`` larger than a MEC, and the actions left at a
MEC's node stop or leave it), so its value ``u`` is the
unique fixed point of its Bellman operator. Lifted to ``M`` it satisfies the Bellman
inequalities (internal actions preserve it) and is ``>= c`` (for a maximiser) on every MEC
(the stay action), so the supermartingale argument above shows that no strategy beats
it; and the positional strategy that, inside a MEC, walks to the state whose exit the
quotient chose (an attractor strategy on internal actions, which reaches it with
probability 1) and takes that exit, or stays forever on internal actions, attains it.

References
----------
* D. Blackwell, "Discrete dynamic programming", Ann. Math. Statist. 33 (1962).
* T. M. Liggett and S. A. Lippman, "Stochastic games with perfect information and time
  average payoff", SIAM Review 11 (1969).
* A. Condon, "The complexity of stochastic games", Information and Computation 96 (1992).
* C. Courcoubetis and M. Yannakakis, "The complexity of probabilistic verification",
  J. ACM 42 (1995).
* L. de Alfaro, *Formal Verification of Probabilistic Systems*, PhD thesis, Stanford (1997).
* C. Baier and J.-P. Katoen, *Principles of Model Checking*, MIT Press (2008), chapter 10.
* K. Chatterjee and M. Henzinger, "Faster and dynamic algorithms for maximal
  end-component decomposition and related graph problems in probabilistic verification",
  SODA (2011).

Examples
--------
Player 0 waits in a lobby: "wait" keeps play there forever, "leave" ends in a draw.
Worth 1/2 if never-ending play is worth 0 (leave), 1 if it is worth 1 (wait forever):

>>> from fractions import Fraction
>>> import tbsg
>>> class Lobby:
...     initial = "lobby"
...     def player(self, s): return 0
...     def actions(self, s): return ("wait", "leave")
...     def outcomes(self, s, a):
...         return [(1, "lobby")] if a == "wait" else [(1, tbsg.DRAW)]
>>> sol = tbsg.solve(Lobby(), infinite_play=0)
>>> sol.value(), sol.action()
(Fraction(1, 2), 'leave')
>>> sol = tbsg.solve(Lobby(), infinite_play=1)
>>> sol.value(), sol.action()
(Fraction(1, 1), 'wait')
>>> print(tbsg.verify(Lobby(), sol))  # doctest: +ELLIPSIS
verified: 1 states, 2 actions: ... infinite play worth 1 ...
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from scipy.sparse.csgraph import connected_components

from tbsg.engine import _backend as bk
from tbsg.engine._backend import Rational
from tbsg.engine.compile import CompiledGame
from tbsg.engine.exact import solve_exact
from tbsg.errors import InvalidGameError, TbsgError, exactness_error

__all__ = [
    "FLOAT_EPSILON",
    "INFINITE_PLAY_METHOD",
    "MAX_ATTEMPTS",
    "EndComponents",
    "InfinitePlayError",
    "InfinitePlayResult",
    "best_response_mdp",
    "certify_profile",
    "check_infinite_play",
    "initial_epsilon",
    "maximal_end_components",
    "perturbed_game",
    "profile_values",
    "solve_infinite_play",
    "switch_safe_actions",
]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

INFINITE_PLAY_METHOD = "exact: candidates from ε-perturbed games, end-component certificate"
"""Start of ``Solution.method`` for non-stopping games solved with ``infinite_play``."""

MAX_ATTEMPTS = 8
"""Most values of ``ε`` tried (``ε`` is squared after each failed certification)."""

_FILTER = 2.0**-50  # float filter margin per term (generous: the rounding bound is 2**-53)


class InfinitePlayError(TbsgError, RuntimeError):
    """No candidate profile could be certified within :data:`MAX_ATTEMPTS` perturbations."""


def check_infinite_play(c: object) -> Fraction | None:
    """Validate an ``infinite_play`` argument: ``None`` or an exact rational in [0, 1].

    Raises
    ------
    ExactnessError
        For a float (or any other non-``int``, non-``Fraction`` value).
    InvalidGameError
        Outside [0, 1].

    Examples
    --------
    >>> check_infinite_play(Fraction(1, 2)), check_infinite_play(None)
    (Fraction(1, 2), None)
    """
    if c is None:
        return None
    if isinstance(c, bool) or not isinstance(c, (int, Fraction)):
        raise exactness_error("infinite_play", c)
    value = Fraction(c)
    if not 0 <= value <= 1:
        raise InvalidGameError(
            f"infinite_play must lie in [0, 1] (a payoff to player 0 for play that never ends), "
            f"got {value}")
    return value


# --- end components ------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class EndComponents:
    """Maximal end components of a compiled game (restricted to some actions).

    Attributes
    ----------
    label : ndarray of int64
        MEC number (``0 .. count - 1``) of each state, ``-1`` for states in no end component.
    internal : ndarray of bool
        Flat actions that belong to their state's MEC: allowed, no terminal mass, every
        outcome in the same MEC. Every end component uses only such actions.
    count : int
        Number of MECs.
    """

    label: IntArray
    internal: BoolArray
    count: int

    def members(self) -> list[list[int]]:
        """States of each MEC, in increasing order."""
        out: list[list[int]] = [[] for _ in range(self.count)]
        for i, m in enumerate(self.label.tolist()):
            if m >= 0:
                out[m].append(i)
        return out


def maximal_end_components(g: CompiledGame[Any, Any],
                           allowed: BoolArray | None = None) -> EndComponents:
    """Maximal end components of ``g``, using only the ``allowed`` actions (default: all).

    Examples
    --------
    >>> from tbsg import DRAW
    >>> from tbsg.engine.compile import compile_game
    >>> class Lobby:
    ...     initial = 0
    ...     def player(self, s): return 0
    ...     def actions(self, s): return ("wait", "leave")
    ...     def outcomes(self, s, a): return [(1, 0)] if a == "wait" else [(1, DRAW)]
    >>> mec = maximal_end_components(compile_game(Lobby()))
    >>> mec.count, mec.members(), mec.internal.tolist()
    (1, [[0]], [True, False])
    """
    act = np.fromiter((x == 0 for x in g.act_stop), dtype=bool, count=g.n_actions)
    if allowed is not None:
        act &= allowed
    label, internal = _mec_core(g.n_states, g.act_state, g.out_action(), g.out_target, act)
    count = int(label.max()) + 1 if g.n_states else 0
    return EndComponents(label=label, internal=internal, count=count)


def _mec_core(n: int, act_state: IntArray, out_action: IntArray, out_target: IntArray,
              act: BoolArray) -> tuple[IntArray, BoolArray]:
    """MEC refinement on a graph of ``n`` states using the actions ``act`` (no terminal mass).

    Returns the MEC number of each state (``-1``: none, MECs numbered ``0, 1, ...``) and the
    internal actions.
    """
    m = len(act)
    src = act_state[out_action]
    state = np.bincount(act_state[act], minlength=n) > 0
    while True:
        keep = act[out_action]
        adj = sp.csr_matrix((np.ones(int(keep.sum()), dtype=np.int32),
                             (src[keep], out_target[keep])), shape=(n, n))
        _, label = connected_components(adj, directed=True, connection="strong")
        label = np.asarray(label, dtype=np.int64)
        bad = (label[out_target] != label[src]) | ~state[out_target]
        new_act = act & (np.bincount(out_action[bad], minlength=m) == 0) & state[act_state]
        new_state = np.bincount(act_state[new_act], minlength=n) > 0
        if np.array_equal(new_act, act) and np.array_equal(new_state, state):
            break
        act, state = new_act, new_state
    out = np.full(n, -1, dtype=np.int64)
    if state.any():
        _, dense = np.unique(label[state], return_inverse=True)
        out[state] = dense.astype(np.int64).reshape(-1)
    return out, act


# --- derived games -------------------------------------------------------------------------

def _derive(g: CompiledGame[S, A], const: list[Fraction], stop: list[Fraction],
            prob: list[Fraction], keep: BoolArray | None = None) -> CompiledGame[S, A]:
    """``g`` with new per-action terminal masses and outcome probabilities.

    ``keep`` (a mask over outcomes) drops outcomes; ``prob`` is indexed like ``g``'s.
    """
    out_ptr, target, probs = g.out_ptr, g.out_target, prob
    if keep is not None:
        counts = np.bincount(g.out_action()[keep], minlength=g.n_actions)
        out_ptr = np.zeros(g.n_actions + 1, dtype=np.int64)
        np.cumsum(counts, out=out_ptr[1:])
        target = g.out_target[keep]
        probs = [p for p, k in zip(prob, keep.tolist(), strict=True) if k]
    return CompiledGame(states=g.states, index=g.index, player=g.player, act_ptr=g.act_ptr,
                        act_labels=g.act_labels, act_state=g.act_state, act_const=const,
                        act_stop=stop, out_ptr=out_ptr, out_target=target, out_prob=probs)


def perturbed_game(g: CompiledGame[S, A], eps: Fraction, c: Fraction,
                   perturb: BoolArray) -> CompiledGame[S, A]:
    """``G_ε``: each action in ``perturb`` ends play w.p. ``eps`` paying ``c``, else as before.

    An action with terminal mass ``c_k``, stop probability ``s_k`` and outcome probabilities
    ``p`` gets ``(1 - eps) c_k + eps c``, ``(1 - eps) s_k + eps`` and ``(1 - eps) p``.
    """
    rest = 1 - eps
    const, stop, prob = list(g.act_const), list(g.act_stop), list(g.out_prob)
    memo: dict[tuple[Fraction, Fraction], Fraction] = {}

    def scaled(x: Fraction, plus: Fraction) -> Fraction:
        key = (x, plus)
        y = memo.get(key)
        if y is None:
            y = memo[key] = rest * x + plus
        return y

    out_ptr = g.out_ptr.tolist()
    zero = Fraction(0)
    ec = eps * c
    for k in np.flatnonzero(perturb).tolist():
        const[k] = scaled(const[k], ec)
        stop[k] = scaled(stop[k], eps)
        for o in range(out_ptr[k], out_ptr[k + 1]):
            prob[o] = scaled(prob[o], zero)
    return _derive(g, const, stop, prob)


def initial_epsilon(g: CompiledGame[Any, Any], c: Fraction) -> Fraction:
    """First perturbation: ``2^-(32 + 2B)``, ``B`` the largest denominator bit length."""
    bits = c.denominator.bit_length()
    for seq in (g.out_prob, g.act_const, g.act_stop):
        for d in {x.denominator for x in seq}:
            bits = max(bits, d.bit_length())
    return Fraction(1, 2 ** (32 + 2 * bits))


# --- exact evaluation and certification ----------------------------------------------------

def _conv(memo: dict[int, Rational], x: Fraction) -> Rational:
    y = memo.get(id(x))
    if y is None:
        y = memo[id(x)] = bk.from_fraction(x)
    return y


def profile_values(g: CompiledGame[Any, Any], choice: IntArray, c: Fraction,
                   traps: EndComponents | None = None) -> tuple[list[Rational], int]:
    """Exact values in ``g`` of the positional profile ``choice`` with never-ending play worth ``c``.

    Bottom SCCs of the profile's Markov chain without terminal mass (its end components,
    ``traps`` if already known) are worth ``c``; they become terminals paying ``c`` and the
    remaining chain, which stops with probability 1, is solved exactly.

    Returns
    -------
    values : list of backend rationals
    exact_solves : int
    """
    profile = np.zeros(g.n_actions, dtype=bool)
    profile[choice] = True
    if traps is None:
        traps = maximal_end_components(g, profile)
    if traps.count == 0:
        r = solve_exact(g, profile)
        return r.values, r.exact_solves
    trap_act = profile & (traps.label[g.act_state] >= 0)
    const, stop = list(g.act_const), list(g.act_stop)
    one = Fraction(1)
    for k in np.flatnonzero(trap_act).tolist():
        const[k], stop[k] = c, one
    keep = ~trap_act[g.out_action()]
    r = solve_exact(_derive(g, const, stop, list(g.out_prob), keep), profile)
    return r.values, r.exact_solves


def _action_signs(g: CompiledGame[Any, Any], values: list[Rational]) -> npt.NDArray[np.int8]:
    """``sign(Q_v(k) - v(s))`` for every flat action ``k`` of state ``s``, decided exactly.

    Floats decide comparisons whose margin exceeds a bound far above the rounding error
    (values and action values lie in [0, 1]); the others are evaluated exactly.
    """
    vf = np.array([bk.to_float(x) for x in values], dtype=np.float64)
    const_f, prob_f = g.float_arrays()
    oa = g.out_action()
    qf = const_f + np.bincount(oa, weights=prob_f * vf[g.out_target], minlength=g.n_actions)
    diff = qf - vf[g.act_state]
    tol = (np.diff(g.out_ptr) + 8).astype(np.float64) * _FILTER
    sign = np.where(diff > tol, 1, np.where(diff < -tol, -1, 0)).astype(np.int8)
    memo: dict[int, Rational] = {}
    out_ptr = g.out_ptr.tolist()
    target = g.out_target.tolist()
    act_state = g.act_state.tolist()
    for k in np.flatnonzero(np.abs(diff) <= tol).tolist():
        q = _conv(memo, g.act_const[k])
        for o in range(out_ptr[k], out_ptr[k + 1]):
            q = q + _conv(memo, g.out_prob[o]) * values[target[o]]
        v = values[act_state[k]]
        sign[k] = 1 if q > v else (-1 if q < v else 0)
    return sign


def certify_profile(g: CompiledGame[Any, Any], values: list[Rational], choice: IntArray,
                    c: Fraction) -> tuple[str | None, BoolArray]:
    """Check conditions (a), (b), (c) of the module docstring's theorem, exactly.

    Returns
    -------
    failure : str or None
        ``None`` if the certificate holds, else which condition fails where.
    optimal : ndarray of bool
        Value-preserving actions, ``Q_v(k) = v(s)``.
    """
    sign = _action_signs(g, values)
    optimal = sign == 0
    owner = g.player[g.act_state]
    if not optimal[choice].all():
        i = int(np.flatnonzero(~optimal[choice])[0])
        return f"(a) fails at state {g.states[i]!r}", optimal
    bad = np.flatnonzero(((owner == 0) & (sign > 0)) | ((owner == 1) & (sign < 0)))
    if len(bad):
        k = int(bad[0])
        return (f"(b) fails at state {g.states[int(g.act_state[k])]!r}, action "
                f"{g.act_labels[k]!r}"), optimal
    chosen = np.zeros(g.n_actions, dtype=bool)
    chosen[choice] = True
    cq = bk.from_fraction(c)
    for fixed, at_least in ((1, True), (0, False)):
        # player ``fixed`` follows the profile; the other player may keep play going forever
        mask = chosen | (owner != fixed)
        ec = maximal_end_components(g, mask).label >= 0
        for i in np.flatnonzero(ec).tolist():
            if (values[i] < cq) if at_least else (values[i] > cq):
                return (f"(c) fails at state {g.states[i]!r}: player {1 - fixed} can keep play "
                        "going forever there against the other player's strategy"), optimal
    return None, optimal


def switch_safe_actions(g: CompiledGame[Any, Any], values: list[Rational], choice: IntArray,
                        c: Fraction, value_preserving: BoolArray,
                        allowed: BoolArray | None = None) -> BoolArray:
    """Value-preserving actions whose single switch keeps the strategy optimal.

    Action ``a`` of state ``s`` (owned by player ``p``) is kept if the positional strategy
    of ``p`` in ``choice``, with ``a`` played at ``s`` instead, still guarantees ``values``
    from every state. Given ``Q_v(a) = v(s)`` this fails only through condition (c) of the
    module docstring: the other player (restricted to ``allowed``) could then keep play
    going forever, against the switched strategy, in an end component where ``v`` is on the
    wrong side of ``c``. Such an end component uses ``a``, so lies in the MEC of ``g`` that
    contains ``s``; only that MEC is searched (and only if it has such values at all).
    """
    mask = value_preserving.copy()
    mask[choice] = True
    mecs = maximal_end_components(g, allowed)
    cand = value_preserving & mecs.internal
    cand[choice] = False
    if not cand.any():
        return mask
    cq = bk.from_fraction(c)
    owner = g.player.astype(np.int64)
    label = mecs.label.tolist()
    members = mecs.members()
    above = [any(values[i] > cq for i in ms) for ms in members]
    below = [any(values[i] < cq for i in ms) for ms in members]
    local: dict[int, _LocalGraph] = {}
    for k in np.flatnonzero(cand).tolist():
        i = int(g.act_state[k])
        p = int(owner[i])
        m = label[i]
        if not (above[m] if p == 0 else below[m]):
            continue  # no state of this MEC is on the wrong side of c for player p
        if m not in local:
            local[m] = _local_graph(g, members[m], mecs.internal)
        lg = local[m]
        # player p plays its strategy switched to k at i; the other player any internal action
        plays = choice[lg.states].copy()
        plays[members[m].index(i)] = k
        alive = (lg.owner[lg.act_state] != p) | (plays[lg.act_state] == lg.acts)
        lab, _ = _mec_core(len(lg.states), lg.act_state, lg.out_action, lg.out_target, alive)
        for w in lg.states[lab >= 0].tolist():
            if (values[w] > cq) if p == 0 else (values[w] < cq):
                mask[k] = False
                break
    return mask


@dataclass(frozen=True, eq=False)
class _LocalGraph:
    """The internal actions of one MEC, on its states renumbered ``0 .. len - 1``."""

    states: IntArray  # global state numbers
    owner: IntArray  # player of each local state
    acts: IntArray  # global action number of each local action
    act_state: IntArray  # local state of each local action
    out_action: IntArray  # local action of each outcome
    out_target: IntArray  # local target state of each outcome


def _local_graph(g: CompiledGame[Any, Any], states: list[int], internal: BoolArray) -> _LocalGraph:
    pos = {i: r for r, i in enumerate(states)}
    acts: list[int] = []
    a_state: list[int] = []
    o_act: list[int] = []
    o_target: list[int] = []
    act_ptr, out_ptr, target = g.act_ptr.tolist(), g.out_ptr.tolist(), g.out_target.tolist()
    for i in states:
        for k in range(act_ptr[i], act_ptr[i + 1]):
            if internal[k]:
                for o in range(out_ptr[k], out_ptr[k + 1]):
                    o_act.append(len(acts))
                    o_target.append(pos[target[o]])
                acts.append(k)
                a_state.append(pos[i])
    st = np.array(states, dtype=np.int64)

    def arr(x: list[int]) -> IntArray:
        return np.array(x, dtype=np.int64)

    return _LocalGraph(states=st, owner=g.player[st].astype(np.int64), acts=arr(acts),
                       act_state=arr(a_state), out_action=arr(o_act), out_target=arr(o_target))


# --- solving -------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class InfinitePlayResult:
    """Raw output of :func:`solve_infinite_play` and :func:`best_response_mdp`.

    Attributes
    ----------
    values : list
        Exact values (backend rationals) of every state.
    choice : ndarray of int64
        Flat action chosen at each state (a certified optimal profile, or an optimal
        strategy of the optimising player for :func:`best_response_mdp`).
    optimal : ndarray of bool
        Value-preserving actions (see the module docstring on why they may loop).
    epsilon : Fraction or None
        The perturbation whose candidate was certified (``None``: none was needed).
    attempts : int
        Perturbations tried.
    improvements, exact_solves : int
        Summed over all exact solves made.
    seconds : float
    float_candidate : bool
        Whether the certified profile came from the float candidate (else from an exact
        solve of the perturbed game ``G_epsilon``).
    """

    values: list[Rational]
    choice: IntArray
    optimal: BoolArray
    epsilon: Fraction | None
    attempts: int
    improvements: int
    exact_solves: int
    seconds: float
    float_candidate: bool = False


def solve_infinite_play(g: CompiledGame[Any, Any], c: Fraction, *,
                        mecs: EndComponents | None = None,
                        progress: Callable[[int, int], None] | None = None,
                        max_attempts: int = MAX_ATTEMPTS,
                        float_candidate: bool = True) -> InfinitePlayResult:
    """Solve ``g`` exactly with never-ending play worth ``c`` to player 0 (see module docstring).

    Parameters
    ----------
    g : CompiledGame
    c : Fraction
        Payoff of infinite play, in [0, 1] (validated by :func:`check_infinite_play`).
    mecs : EndComponents, optional
        ``maximal_end_components(g)`` if already computed.
    progress : callable, optional
        Passed to :func:`tbsg.engine.exact.solve_exact` for each perturbed game.
    max_attempts : int
        Exact perturbed games solved before giving up.
    float_candidate : bool
        First try the cheap candidate of :func:`float_candidate` (default).

    Raises
    ------
    InfinitePlayError
        If no candidate is certified after ``max_attempts`` perturbations.
    """
    t0 = time.perf_counter()
    if mecs is None:
        mecs = maximal_end_components(g)
    improvements = solves = 0
    failure: str | None = None

    def certified(choice: IntArray) -> tuple[list[Rational], BoolArray] | None:
        nonlocal solves, failure
        values, n = profile_values(g, choice, c)
        solves += n
        failure, preserving = certify_profile(g, values, choice, c)
        if failure is not None:
            return None
        return values, switch_safe_actions(g, values, choice, c, preserving)

    if float_candidate and mecs.count:
        choice = _float_candidate(g, c, mecs.internal, FLOAT_EPSILON)
        done = certified(choice) if choice is not None else None
        if choice is not None and done is not None:
            return InfinitePlayResult(
                values=done[0], choice=choice, optimal=done[1], epsilon=FLOAT_EPSILON,
                attempts=0, improvements=0, exact_solves=solves,
                seconds=time.perf_counter() - t0, float_candidate=True)
    eps = initial_epsilon(g, c)
    for attempt in range(1, max_attempts + 1):
        ge = perturbed_game(g, eps, c, mecs.internal) if mecs.count else g
        r = solve_exact(ge, progress=progress)
        improvements += r.improvements
        solves += r.exact_solves
        done = certified(r.choice)
        if done is not None:
            return InfinitePlayResult(
                values=done[0], choice=r.choice, optimal=done[1],
                epsilon=eps if mecs.count else None, attempts=attempt,
                improvements=improvements, exact_solves=solves,
                seconds=time.perf_counter() - t0)
        eps = eps * eps
    raise InfinitePlayError(
        f"no optimal profile certified after {max_attempts} perturbations (smallest ε = "
        f"2^-{(1 / eps).numerator.bit_length() // 2}); last failure: {failure}. The game "
        "needs an even smaller ε (tiny probabilities or nearly equal payoffs); raise max_attempts")


FLOAT_EPSILON = Fraction(1, 2**20)
"""Perturbation of the float candidate (large enough for float64 to resolve)."""

_FLOAT_ROUNDS = 100
_FLOAT_GAIN = 1e-9  # switch only on a float improvement larger than this


def _float_candidate(g: CompiledGame[Any, Any], c: Fraction, perturb: BoolArray,
                     eps: Fraction) -> IntArray | None:
    """A cheap candidate: Hoffman–Karp strategy iteration on ``G_eps`` in float64.

    Only a guess (``None`` if it does not settle): whatever it returns is certified exactly
    before use, and the exact perturbed solve takes over if it fails. It saves the exact
    solve of ``G_eps``, whose rationals are much longer than those of ``G``.
    """
    n, m = g.n_states, g.n_actions
    const_f, prob_f = g.float_arrays()
    e = float(eps)
    scale = np.where(perturb, 1.0 - e, 1.0)
    b = const_f * scale + np.where(perturb, e * float(c), 0.0)
    oa = g.out_action()
    pmat = sp.csr_matrix((prob_f * scale[oa], (oa, g.out_target)), shape=(m, n))
    owner = g.player[g.act_state].astype(np.int64)
    seg = g.act_ptr[:-1]
    row = g.act_state
    eye = sp.identity(n, format="csc")

    def evaluate(choice: IntArray) -> npt.NDArray[np.float64] | None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                x = np.atleast_1d(spla.spsolve(eye - pmat[choice].tocsc(), b[choice]))
            except (RuntimeError, ValueError, np.linalg.LinAlgError):
                return None
        return x if np.all(np.isfinite(x)) else None

    def improve(choice: IntArray, q: npt.NDArray[np.float64], who: int) -> bool:
        signed = np.where(owner == 0, q, -q)
        best = np.maximum.reduceat(signed, seg)
        gain = best - signed[choice]
        switch = (gain > _FLOAT_GAIN) & (g.player == who)
        if not switch.any():
            return False
        hit = np.flatnonzero(signed == best[row])
        first = np.full(n, -1, dtype=np.int64)
        first[row[hit[::-1]]] = hit[::-1]
        choice[switch] = first[switch]
        return True

    q0 = b + pmat @ np.full(n, float(c))
    choice = np.asarray(g.act_ptr[:-1], dtype=np.int64).copy()
    improve(choice, q0, 0)
    improve(choice, q0, 1)
    for _ in range(_FLOAT_ROUNDS):  # player 0 improves against player 1's best response
        for _ in range(_FLOAT_ROUNDS):
            v = evaluate(choice)
            if v is None:
                return None
            q = b + pmat @ v
            if not improve(choice, q, 1):
                break
        else:
            return None
        if not improve(choice, q, 0):
            return choice
    return None


def best_response_mdp(g: CompiledGame[Any, Any], allowed: BoolArray, player: int,
                      c: Fraction) -> InfinitePlayResult:
    """Exact optimal strategy of ``player`` in the MDP ``g`` restricted to ``allowed``.

    ``allowed`` must leave exactly one action at every state of the other player (its fixed
    strategy). Never-ending play is worth ``c`` to player 0. The MDP is solved on its MEC
    quotient (module docstring, *best responses*).
    """
    t0 = time.perf_counter()
    mec = maximal_end_components(g, allowed)
    if mec.count == 0:
        r = solve_exact(g, allowed)
        sign = _action_signs(g, r.values)
        return InfinitePlayResult(values=r.values, choice=r.choice, optimal=(sign == 0) & allowed,
                                  epsilon=None, attempts=0, improvements=r.improvements,
                                  exact_solves=r.exact_solves, seconds=time.perf_counter() - t0)
    n = g.n_states
    label = mec.label
    node = np.empty(n, dtype=np.int64)
    in_mec = label >= 0
    node[in_mec] = label[in_mec]
    outside = np.flatnonzero(~in_mec)
    node[outside] = mec.count + np.arange(len(outside), dtype=np.int64)
    n_nodes = mec.count + len(outside)
    members: list[list[int]] = [[] for _ in range(n_nodes)]
    for i, j in enumerate(node.tolist()):
        members[j].append(i)
    node_l = node.tolist()
    allowed_l = allowed.tolist()
    internal_l = mec.internal.tolist()
    act_ptr, out_ptr, target = g.act_ptr.tolist(), g.out_ptr.tolist(), g.out_target.tolist()
    q_player: list[int] = []
    q_act_ptr: list[int] = [0]
    q_labels: list[int] = []
    q_state: list[int] = []
    q_const: list[Fraction] = []
    q_stop: list[Fraction] = []
    q_out_ptr: list[int] = [0]
    q_target: list[int] = []
    q_prob: list[Fraction] = []
    one = Fraction(1)
    for j in range(n_nodes):
        is_mec = j < mec.count
        q_player.append(player if is_mec else int(g.player[members[j][0]]))
        for i in members[j]:
            ks = [k for k in range(act_ptr[i], act_ptr[i + 1]) if allowed_l[k] and not internal_l[k]]
            if is_mec and ks and int(g.player[i]) != player and act_ptr[i + 1] - act_ptr[i] > 1:
                raise ValueError("best_response_mdp: the other player's actions are not fixed")
            for k in ks:
                merged: dict[int, Fraction] = {}
                for o in range(out_ptr[k], out_ptr[k + 1]):
                    t = node_l[target[o]]
                    merged[t] = merged.get(t, Fraction(0)) + g.out_prob[o]
                q_labels.append(k)
                q_state.append(j)
                q_const.append(g.act_const[k])
                q_stop.append(g.act_stop[k])
                q_target.extend(merged)
                q_prob.extend(merged.values())
                q_out_ptr.append(len(q_target))
        if is_mec:  # stay in the MEC forever
            q_labels.append(-1)
            q_state.append(j)
            q_const.append(c)
            q_stop.append(one)
            q_out_ptr.append(len(q_target))
        q_act_ptr.append(len(q_labels))
    quotient: CompiledGame[int, int] = CompiledGame(
        states=list(range(n_nodes)), index={j: j for j in range(n_nodes)},
        player=np.array(q_player, dtype=np.int8), act_ptr=np.array(q_act_ptr, dtype=np.int64),
        act_labels=q_labels, act_state=np.array(q_state, dtype=np.int64), act_const=q_const,
        act_stop=q_stop, out_ptr=np.array(q_out_ptr, dtype=np.int64),
        out_target=np.array(q_target, dtype=np.int64), out_prob=q_prob)
    r = solve_exact(quotient)
    values = [r.values[j] for j in node_l]
    choice = np.empty(n, dtype=np.int64)
    picked = [q_labels[int(k)] for k in r.choice.tolist()]
    for j in range(mec.count, n_nodes):
        choice[members[j][0]] = picked[j]
    for j in range(mec.count):
        _lift_mec(g, members[j], internal_l, allowed_l, picked[j], choice)
    sign = _action_signs(g, values)
    optimal = switch_safe_actions(g, values, choice, c, (sign == 0) & allowed, allowed)
    return InfinitePlayResult(values=values, choice=choice, optimal=optimal,
                              epsilon=None, attempts=0, improvements=r.improvements,
                              exact_solves=r.exact_solves, seconds=time.perf_counter() - t0)


def _lift_mec(g: CompiledGame[Any, Any], members: list[int], internal: list[bool],
              allowed: list[bool], exit_action: int, choice: IntArray) -> None:
    """Positional strategy inside one MEC for the quotient's choice ``exit_action``.

    ``-1`` (stay): every state plays an internal action. Otherwise the state owning the
    exit plays it and the others an attractor strategy towards it on internal actions
    (each picks an action with an outcome closer to it, in breadth-first order; play stays
    in the MEC and reaches the exit state with probability 1).
    """
    act_ptr, out_ptr, target = g.act_ptr, g.out_ptr, g.out_target
    inner = {i: [k for k in range(int(act_ptr[i]), int(act_ptr[i + 1])) if internal[k] and allowed[k]]
             for i in members}
    if exit_action < 0:
        for i in members:
            choice[i] = inner[i][0]
        return
    t = int(g.act_state[exit_action])
    choice[t] = exit_action
    pred: dict[int, list[tuple[int, int]]] = {}
    for i in members:
        for k in inner[i]:
            for o in range(int(out_ptr[k]), int(out_ptr[k + 1])):
                pred.setdefault(int(target[o]), []).append((i, k))
    done = {t}
    frontier = [t]
    while frontier:
        nxt: list[int] = []
        for w in frontier:
            for i, k in pred.get(w, []):
                if i not in done:
                    done.add(i)
                    choice[i] = k
                    nxt.append(i)
        frontier = nxt
    if len(done) != len(members):  # pragma: no cover - a MEC is strongly connected
        raise RuntimeError("internal error: attractor does not cover the end component")
