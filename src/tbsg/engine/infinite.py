"""Infinite play: exact solutions of non-stopping games with a payoff for never-ending play.

The problem
-----------
A game is *stopping* when every strategy profile ends play with probability 1
(:mod:`tbsg.engine.graph`). Otherwise some set of states is an *end component* (de Alfaro 1997):
the players can together keep play there forever, the Bellman equations have many fixed
points, and the game has no value until a never-ending play gets a payoff. The rule
``infinite_play = c`` (any exact rational) gives player 0 the payoff

.. math::

    \\Phi = r(t) \\text{ if play ends in the terminal } t, \\qquad
    \\Phi = c \\text{ if play never ends},

plus, in a game with rewards (:mod:`tbsg.model.protocol`), the rewards collected along
play, and player 0 maximises, player 1 minimises, the expectation of ``Φ``. Rewards are
allowed only outside end components (every reward of an internal action, see below, is
0; :func:`tbsg.engine.graph.paying_end_action`, checked before solving and by
:func:`tbsg.verify`): one collected inside could be collected at every step of a play
that never ends, and the total would be infinite or undefined. For ``c = 0`` (and
payoffs in [0, 1]) this is a quantitative *reachability* objective: the value is the
**least** fixed point of the Bellman operator ``T``, not just any fixed point (Condon
1992); for ``c = 1`` it is the greatest; for ``0 < c < 1`` it is in general neither.
``Φ`` is also the limit-average payoff of the game in which every step in a non-terminal
state pays ``c`` and a terminal ``t`` is absorbing and pays ``r(t)`` per step; so the game
is a perfect-information mean-payoff game, and both players have optimal *positional*
(pure, stationary) strategies (Liggett and Lippman 1969).

Notation: ``Q_v(k) = c_k + Σ_j p_kj v(j)`` is the value of the flat action ``k`` against
state values ``v`` (``c_k`` its reward plus its terminal payoff mass, see
:mod:`tbsg.engine.compiled`);
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

*Proof.* Fix ``τ`` and any strategy ``π`` of player 0, and let ``Y_n = v(X_n)`` while
play runs (``X_n`` the state after ``n`` steps) and ``Y_n = r(t)`` once play has ended
in ``t``. By (b) at player-0 states and (a) at player-1 states, ``E[Y_{n+1} | past] <=
Y_n``: ``(Y_n)`` is a bounded supermartingale (without rewards; see below otherwise), so
it converges almost surely to some ``Y_∞`` with ``E[Y_∞] <= v(s_0)``. If play ends,
``Y_∞ = Φ``. If it never ends then, almost surely, the state–action pairs taken
infinitely often form an end component of ``G[τ]`` (the fundamental property of end
components: de Alfaro 1997; Baier and Katoen 2008, chapter 10; an action with terminal
mass taken infinitely often ends play), so from some time on ``X_n`` stays in
``EC(G[τ])`` and ``Y_∞ >= c = Φ`` by (c). Hence ``E^{π,τ}[Φ] <= v(s_0)``. Symmetrically
``E^{σ,π'}[Φ] >= v(s_0)`` for every strategy ``π'`` of player 1, and both bounds
together give ``E^{σ,τ}[Φ] = v(s_0)``. ∎

*With rewards.* Let ``W_n`` be the rewards collected in the first ``n`` steps and
``Y_n = W_n + v(X_n)`` (``W_n + r(t)`` once play has ended); (a) and (b) make it a
supermartingale as before, ``Q_v`` now including the reward. It is no longer bounded,
but it is dominated: ``|Y_n| <= max |v| + max |r| + R N``, with ``R`` the largest reward
and ``N`` the number of steps that take an action outside every end component (only
those pay). ``E N`` is finite uniformly over strategies: such a pair ``(s, a)``, once
taken, is taken again with probability at most ``q < 1`` whatever the players do (the
largest probability of returning to it is attained by a positional strategy, and a
positional strategy that returned with probability 1 would take it infinitely often,
making it part of an end component), so it is taken at most ``1 / (1 - q)`` times in
expectation. By dominated convergence the argument above goes through, and the limit
adds the (finite) collected rewards to ``r(t)`` or ``c``, which is ``Φ``.

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
(:func:`tbsg.engine.optimality.switch_safe_actions`; only the MEC containing ``s`` needs
searching). The self-loop
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
from typing import Any, cast

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from tbsg.engine import _backend as bk
from tbsg.engine._backend import Rational
from tbsg.engine.bellman import Segments, action_signs
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.exact import solve_exact
from tbsg.engine.graph import EndComponents, decompose, end_components
from tbsg.engine.optimality import (
    Failure,
    SignArray,
    directions,
    end_component_failure,
    first_failure,
    optimal_mask,
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
    r = solve_exact(g, decompose(g), allowed, progress)  # (every value kept: a list)
    return cast("list[Rational]", r.values), r.choice, r.improvements, r.exact_solves


# --- exact evaluation and certification ----------------------------------------------------

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


def _action_signs(g: CompiledGame[Any, Any], values: list[Rational], c: Fraction,
                  acts: IntArray | None = None) -> SignArray:
    """``sign(Q_v(k) - v(s))`` for every flat action ``k`` of state ``s`` (or those in
    ``acts``), decided exactly through the kernel's float filter (whose bound scales with
    the values unless they lie in [0, 1]: a win-probability game with ``0 <= c <= 1``)."""
    vf = np.array([bk.to_float(x) for x in values], dtype=np.float64)
    return action_signs(g, values, vf, acts, unit=g.win_probability and 0 <= c <= 1)


def certify_profile(g: CompiledGame[Any, Any], values: list[Rational], choice: IntArray,
                    c: Fraction) -> tuple[str | None, SignArray]:
    """Check conditions (a), (b), (c) of the module docstring's theorem, exactly
    (:mod:`tbsg.engine.optimality`).

    Returns
    -------
    failure : str or None
        ``None`` if the certificate holds, else which condition fails where.
    sign : ndarray of int8
        ``sign(Q_v(k) - v(s))`` of every flat action (0: value-preserving).
    """
    sign = _action_signs(g, values, c)
    failure = first_failure(g, sign, choice, directions(g)) or end_component_failure(g, values, choice, c)
    return (None if failure is None else _describe(g, failure)), sign


def _describe(g: CompiledGame[Any, Any], failure: Failure) -> str:
    """Which condition fails where, in words."""
    s = g.states[failure.state]
    if failure.condition == "a":
        return f"(a) fails at state {s!r}"
    if failure.condition == "b":
        return f"(b) fails at state {s!r}, action {g.act_labels[failure.action]!r}"
    return (f"(c) fails at state {s!r}: player {failure.player} can keep play going forever "
            "there against the other player's strategy")


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
        The optimal actions: the value-preserving ones whose permanent use keeps
        condition (c) for the mover (:func:`tbsg.engine.optimality.optimal_mask`; the
        module docstring says why a value-preserving action may not be optimal).
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
        Payoff of infinite play, an exact rational (validated by
        :func:`tbsg.model.protocol.infinite_play_payoff`).
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
        failure, sign = certify_profile(g, values, choice, c)
        if failure is not None:
            return None
        return values, optimal_mask(g, values, choice, sign=sign, infinite_play=c, mecs=mecs)

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
        values, choice, improved, solved = _solve_stopping(g, allowed)
    else:
        quotient = _MecQuotient(g, allowed, player, c, mec)
        q_values, q_choice, improved, solved = _solve_stopping(quotient.game())
        values, choice = quotient.lift(q_values, q_choice)
    optimal = optimal_mask(g, values, choice, optimizing=(player,), allowed=allowed,
                           sign=lambda acts: _action_signs(g, values, c, acts), infinite_play=c,
                           mecs=mec)
    return InfinitePlayResult(values=values, choice=choice, optimal=optimal,
                              epsilon=None, attempts=0, improvements=improved,
                              exact_solves=solved, seconds=time.perf_counter() - t0)


class _MecQuotient:
    """The MDP ``g`` (restricted to ``allowed``) with each MEC collapsed into one node.

    A node of a MEC belongs to ``player``; its actions are the MEC's allowed actions that
    are not internal (they stop or leave it), with their outcomes merged by node, and
    "stay forever", a terminal paying ``c``. A state in no MEC is a node of its own.
    Quotient action ``q`` stands for the flat action ``labels[q]`` of ``g`` (-1: stay).
    """

    def __init__(self, g: CompiledGame[Any, Any], allowed: BoolArray, player: int, c: Fraction,
                 mec: EndComponents) -> None:
        self.g, self.mec, self.player, self.c = g, mec, player, c
        outside = np.flatnonzero(mec.label < 0)
        node = mec.label.copy()
        node[outside] = mec.count + np.arange(len(outside), dtype=np.int64)
        self.n_nodes = mec.count + len(outside)
        self.members: list[list[int]] = [[] for _ in range(self.n_nodes)]
        for i, j in enumerate(node.tolist()):
            self.members[j].append(i)
        self.node: list[int] = node.tolist()
        self.allowed: list[bool] = allowed.tolist()
        self.internal: list[bool] = mec.internal.tolist()
        self.g_act_ptr: list[int] = g.act_ptr.tolist()
        self.g_out_ptr: list[int] = g.out_ptr.tolist()
        self.g_target: list[int] = g.out_target.tolist()
        self.players: list[int] = []
        self.act_ptr: list[int] = [0]
        self.labels: list[int] = []
        self.const: list[Fraction] = []
        self.stop: list[Fraction] = []
        self.out_ptr: list[int] = [0]
        self.target: list[int] = []
        self.prob: list[Fraction] = []
        for j in range(self.n_nodes):
            self._add_node(j)

    def _add_node(self, j: int) -> None:
        g, act_ptr = self.g, self.g_act_ptr
        is_mec = j < self.mec.count
        self.players.append(self.player if is_mec else int(g.player[self.members[j][0]]))
        for i in self.members[j]:
            ks = range(act_ptr[i], act_ptr[i + 1])
            exits = [k for k in ks if self.allowed[k] and not self.internal[k]]
            if is_mec and exits and int(g.player[i]) != self.player \
                    and sum(self.allowed[k] for k in ks) > 1:
                raise RuntimeError("internal error: best_response_mdp: the other player's actions "
                                   "are not fixed")
            for k in exits:
                self._add_action(k)
        if is_mec:  # stay in the MEC forever
            self.labels.append(-1)
            self.const.append(self.c)
            self.stop.append(Fraction(1))
            self.out_ptr.append(len(self.target))
        self.act_ptr.append(len(self.labels))

    def _add_action(self, k: int) -> None:
        g, node, target = self.g, self.node, self.g_target
        merged: dict[int, Fraction] = {}
        for o in range(self.g_out_ptr[k], self.g_out_ptr[k + 1]):
            t = node[target[o]]
            merged[t] = merged.get(t, Fraction(0)) + g.out_prob[o]
        self.labels.append(k)
        self.const.append(g.act_const[k])
        self.stop.append(g.act_stop[k])
        self.target.extend(merged)
        self.prob.extend(merged.values())
        self.out_ptr.append(len(self.target))

    def game(self) -> CompiledGame[int, int]:
        """The quotient as a compiled game (it stops: see the module docstring)."""
        n = self.n_nodes
        return CompiledGame.from_values(
            list(range(n)), {j: j for j in range(n)}, np.array(self.players, dtype=np.int8),
            np.array(self.act_ptr, dtype=np.int64), self.labels, np.array(self.out_ptr, dtype=np.int64),
            np.array(self.target, dtype=np.int64), self.const, self.stop, self.prob)

    def lift(self, q_values: list[Rational], q_choice: IntArray) -> tuple[list[Rational], IntArray]:
        """Values and a positional strategy of ``g`` from the quotient's solution."""
        values = [q_values[j] for j in self.node]
        choice = np.empty(self.g.n_states, dtype=np.int64)
        picked = [self.labels[int(k)] for k in q_choice.tolist()]
        for j in range(self.mec.count, self.n_nodes):
            choice[self.members[j][0]] = picked[j]
        for j in range(self.mec.count):
            _lift_mec(self.g, self.members[j], self.internal, self.allowed, picked[j], choice)
        return values, choice


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
