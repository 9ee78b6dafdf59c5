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
:mod:`tbsg.certify.certificate`, where uniqueness of the fixed point replaces (c).

The algorithm
-------------
1. *Maximal end components* (MECs), :func:`tbsg.engine.graph.end_components`, with the
   MECs' *internal* actions (no terminal mass, every outcome in the same MEC); every end
   component uses only those.
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
4. *Certification*: (a), (b), (c) are checked exactly (the kernel's float filter,
   :mod:`tbsg.engine.bellman`, only skips clear comparisons). If they hold the theorem
   makes the answer the value; if not, ``ε`` was not below ``ε_0``, which is not known in
   advance (it can be exponentially small in the size of the game): ``ε ← ε²`` and back
   to 2, at most :data:`MAX_ATTEMPTS` times. The first ``ε`` is ``2^-(32 + 2B)``, ``B``
   the largest bit length of a denominator in the game (probabilities, payoff masses,
   ``c``), since tiny probabilities and close payoffs need a smaller ``ε``.

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
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from tbsg.engine import _backend as bk
from tbsg.engine._backend import Rational
from tbsg.engine.bellman import Segments, action_signs
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.exact import solve_exact
from tbsg.engine.graph import (
    EndComponents,
    Subgraph,
    decompose,
    end_components,
    end_components_of,
    subgraph,
)
from tbsg.errors import InfinitePlayError

__all__ = [
    "FLOAT_EPSILON",
    "MAX_ATTEMPTS",
    "InfinitePlayResult",
    "best_response_mdp",
    "certify_profile",
    "initial_epsilon",
    "perturbed_game",
    "profile_values",
    "solve_infinite_play",
    "switch_safe_actions",
]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

MAX_ATTEMPTS = 8
"""Most values of ``ε`` tried (``ε`` is squared after each failed certification)."""


# --- derived games -------------------------------------------------------------------------

def perturbed_game(g: CompiledGame[Any, Any], eps: Fraction, c: Fraction,
                   perturb: BoolArray) -> CompiledGame[Any, Any]:
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
    return g.derive(const, stop, prob)


def initial_epsilon(g: CompiledGame[Any, Any], c: Fraction) -> Fraction:
    """First perturbation: ``2^-(32 + 2B)``, ``B`` the largest denominator bit length."""
    bits = c.denominator.bit_length()
    for x in g.rationals:
        bits = max(bits, x.denominator.bit_length())
    return Fraction(1, 2 ** (32 + 2 * bits))


def _solve_stopping(g: CompiledGame[Any, Any], allowed: BoolArray | None = None,
                    progress: Callable[[int, int], None] | None = None) -> tuple[list[Rational], IntArray,
                                                                                  int, int]:
    """Exact values, choice, improvements and exact solves of a game stopping by construction
    (a perturbed game, a quotient, a chain whose traps became terminals)."""
    r = solve_exact(g, decompose(g), allowed, progress)
    return r.values, r.choice, r.improvements, r.exact_solves


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
        traps = end_components(g, profile)
    if traps.count == 0:
        values, _, _, solves = _solve_stopping(g, profile)
        return values, solves
    trap_act = profile & (traps.label[g.act_state] >= 0)
    const, stop = list(g.act_const), list(g.act_stop)
    one = Fraction(1)
    for k in np.flatnonzero(trap_act).tolist():
        const[k], stop[k] = c, one
    keep = ~trap_act[g.out_action()]
    values, _, _, solves = _solve_stopping(g.derive(const, stop, list(g.out_prob), keep), profile)
    return values, solves


def _action_signs(g: CompiledGame[Any, Any], values: list[Rational]) -> npt.NDArray[np.int8]:
    """``sign(Q_v(k) - v(s))`` for every flat action ``k`` of state ``s``, decided exactly."""
    vf = np.array([bk.to_float(x) for x in values], dtype=np.float64)
    return action_signs(g, values, vf)


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
        ec = end_components(g, mask).trapped
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
    mecs = end_components(g, allowed)
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
    local: dict[int, Subgraph] = {}
    for k in np.flatnonzero(cand).tolist():
        i = int(g.act_state[k])
        p = int(owner[i])
        m = label[i]
        if not (above[m] if p == 0 else below[m]):
            continue  # no state of this MEC is on the wrong side of c for player p
        if m not in local:
            local[m] = subgraph(g, members[m], mecs.internal)
        lg = local[m]
        # player p plays its strategy switched to k at i; the other player any internal action
        plays = choice[lg.states].copy()
        plays[members[m].index(i)] = k
        alive = (lg.owner[lg.act_state] != p) | (plays[lg.act_state] == lg.acts)
        lab = end_components_of(len(lg.states), lg.act_state, lg.out_action, lg.out_target,
                                alive).label
        for w in lg.states[lab >= 0].tolist():
            if (values[w] > cq) if p == 0 else (values[w] < cq):
                mask[k] = False
                break
    return mask


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
        Payoff of infinite play, in [0, 1] (validated by :func:`tbsg.model.protocol.infinite_play_payoff`).
    mecs : EndComponents, optional
        ``end_components(g)`` if already computed.
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
        mecs = end_components(g)
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
        _, choice_e, improved, solved = _solve_stopping(ge, progress=progress)
        improvements += improved
        solves += solved
        done = certified(choice_e)
        if done is not None:
            return InfinitePlayResult(
                values=done[0], choice=choice_e, optimal=done[1],
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
    segs = Segments(g.act_ptr[:-1], m, g.player == 0)
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
        best = segs.greedy(q)
        gain = segs.sign * (q[best] - q[choice])
        switch = (gain > _FLOAT_GAIN) & (g.player == who)
        if not switch.any():
            return False
        choice[switch] = best[switch]
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
    mec = end_components(g, allowed)
    if mec.count == 0:
        values, choice0, improved, solved = _solve_stopping(g, allowed)
        sign = _action_signs(g, values)
        return InfinitePlayResult(values=values, choice=choice0, optimal=(sign == 0) & allowed,
                                  epsilon=None, attempts=0, improvements=improved,
                                  exact_solves=solved, seconds=time.perf_counter() - t0)
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
            if is_mec and ks and int(g.player[i]) != player and sum(allowed_l[act_ptr[i]:act_ptr[i + 1]]) > 1:
                raise RuntimeError("internal error: best_response_mdp: the other player's actions "
                                   "are not fixed")
            for k in ks:
                merged: dict[int, Fraction] = {}
                for o in range(out_ptr[k], out_ptr[k + 1]):
                    t = node_l[target[o]]
                    merged[t] = merged.get(t, Fraction(0)) + g.out_prob[o]
                q_labels.append(k)
                q_const.append(g.act_const[k])
                q_stop.append(g.act_stop[k])
                q_target.extend(merged)
                q_prob.extend(merged.values())
                q_out_ptr.append(len(q_target))
        if is_mec:  # stay in the MEC forever
            q_labels.append(-1)
            q_const.append(c)
            q_stop.append(one)
            q_out_ptr.append(len(q_target))
        q_act_ptr.append(len(q_labels))
    quotient: CompiledGame[int, int] = CompiledGame.from_values(
        list(range(n_nodes)), {j: j for j in range(n_nodes)}, np.array(q_player, dtype=np.int8),
        np.array(q_act_ptr, dtype=np.int64), q_labels, np.array(q_out_ptr, dtype=np.int64),
        np.array(q_target, dtype=np.int64), q_const, q_stop, q_prob)
    q_values, q_choice, improved, solved = _solve_stopping(quotient)
    values = [q_values[j] for j in node_l]
    choice = np.empty(n, dtype=np.int64)
    picked = [q_labels[int(k)] for k in q_choice.tolist()]
    for j in range(mec.count, n_nodes):
        choice[members[j][0]] = picked[j]
    for j in range(mec.count):
        _lift_mec(g, members[j], internal_l, allowed_l, picked[j], choice)
    sign = _action_signs(g, values)
    optimal = switch_safe_actions(g, values, choice, c, (sign == 0) & allowed, allowed)
    return InfinitePlayResult(values=values, choice=choice, optimal=optimal,
                              epsilon=None, attempts=0, improvements=improved,
                              exact_solves=solved, seconds=time.perf_counter() - t0)


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
