"""Independent re-check of an exact solution: :func:`verify`.

The certificate of a solution is its values ``v`` and strategy profile ``sigma``.
:func:`verify` recompiles the game from the user's object and checks, in exact integer
arithmetic only, that the solution is what its
:attr:`~tbsg.Solution.kind` claims (what it shares with the solvers, and why that keeps
it independent of them, is said below). Let ``F`` be the players who optimise (both for
:func:`tbsg.solve`, one for :func:`tbsg.best_response`, none for :func:`tbsg.evaluate`);
the other players' states allow only the action the solution plays there. With
``Q(s, a) = w(s, a) + sum_t p(t|s,a) r(t) + sum_s' p(s'|s,a) v(s')`` (``w`` the reward,
read from the game's own ``reward`` method by the fresh compile, 0 when it has none):

(a) *strategy equations*: ``v(s) = Q(s, sigma(s))`` for every state;
(b) *no profitable deviation*: ``Q(s, a) <= v(s)`` for every action where player 0 (in
    ``F``) moves and ``Q(s, a) >= v(s)`` where player 1 (in ``F``) moves;
(c) *stopping*: the game, restricted as above, has no end component.

(a) and (b) say ``v = T v`` for the Bellman operator ``T`` of the restricted game and that
``sigma`` attains the optimum; (c) makes the fixed point of ``T`` unique (Condon 1992,
lemma on stopping games), so ``v`` is the value and ``sigma`` optimal for the players in
``F`` (for :func:`tbsg.evaluate`: ``v`` is the profile's value).

*Infinite play.* A solution computed with ``infinite_play=c`` (never-ending play worth
``c`` to player 0; the solution records ``c``, or pass ``infinite_play=``) is checked
with (a), (b) and, instead of (c),

(c') *end-component bounds*: ``v(s) >= c`` at every state of an end component of the
     restricted game with player 1 fixed to its strategy (there player 0 can keep play
     going forever), and ``v(s) <= c`` at every state of an end component with player 0
     fixed (there player 1 can).

By the theorem in :mod:`tbsg.engine.infinite` (where (c') is condition (c); the proof is a
supermartingale argument with de Alfaro's end-component theorem), (a), (b), (c') make
``v`` the value with that rule and ``sigma`` optimal, and they hold for every optimal
profile with its values; for a stopping game (c') is empty.

*Every field a user reads is checked*: the values (``Fraction`` with ``int`` parts, in
[0, 1] for a win-probability game; a number built from numpy integers is rejected, not
converted), the strategy, the players, ``optimal_actions`` at every state (recomputed:
the actions of ``F``'s states with ``Q(s, a) = v(s)``, and in a non-stopping game only
those whose permanent use keeps (c') for the mover; the played action alone at the other
states), the component counts and the kind. The solution's compiled graph, which its
query methods read, must be the game's number for number (its rewards and
``win_probability`` too), and so must every cache it holds (the decoded numbers of each
action that ``action_values`` reads, the float arrays, the graph hash that
``provenance`` prints), each recomputed from the checked fields; an attribute of the
solution or its graph that is neither a field nor such a cache (it would hide a method)
and a subclass of :class:`~tbsg.Solution` or of the compiled graph are refused. The
:class:`Verification` records a digest of the solution it checked, so that
:meth:`tbsg.Solution.provenance` reports it for that solution only.

What it shares with the solvers, and why it stays independent
-------------------------------------------------------------
The certificate compiles the game itself, from its plain protocol, and computes in exact
arithmetic on Python integers (numpy ``int64`` where the numbers provably fit). It shares
four pieces of the engine with the solvers, each the evaluation of a definition, none a
solving algorithm:

* *the compiled graph* (:func:`tbsg.engine.compile.compile_game`): the game's reachable
  states, actions and outcomes as arrays, compiled afresh here with every state of an
  array form compared with the plain protocol (``check_arrays="all"``);
* *the graph analysis* (:mod:`tbsg.engine.graph`): strongly connected components (the
  counts) and maximal end components ((c), (c') and the optimal actions of a
  non-stopping game): combinatorics on the state graph, no numbers;
* *the Bellman kernel's exact action values* (:mod:`tbsg.engine.integer_q`): ``Q(s, a)``
  above and its sign against ``v(s)``, in integers: the terms over one denominator added
  as integers, the strict signs proven by a fixed-point bound in integers, the others
  (every tie) decided by cross-multiplication in the backend's exact integer type
  (:mod:`tbsg.engine._backend`: GMP's when installed, Python's otherwise; both exact);
* *the optimality conditions and the optimal-action mask* (:mod:`tbsg.engine.optimality`):
  (a), (b), (c') and the optimal actions, evaluated on the claimed ``v`` and ``sigma``,
  with those exact signs (:func:`~tbsg.engine.optimality.exact_signs`).

None of them searches for anything: no strategy iteration, no elimination (no linear
system is solved: ``v`` is given and only checked against its definition), no float
arithmetic and not the solvers' float filter (the integer filter of the signs has its
own two-line error bound), no backend rational (the solution's stored values, which
may be the backend's rationals, are read as the Python integers of a ``Fraction`` in
lowest terms; only the cross-multiplication
of ties uses the backend's integers, exact either way; the float arrays its graph may
cache are recomputed only to be compared with that cache); ``tests/certify`` traces a
verification and fails if it calls anything else of the engine. A value, strategy or
optimal-action list that a solver got wrong is therefore caught unless one of these
shared definitions is itself wrong; they are short, direct transcriptions of the
definitions, each tested on small hand-built games against answers derived by hand
(``tests/engine``; the integer action values and signs also against the definition
summed term by term in ``Fraction`` arithmetic, on random games). Sharing the mask is
also what makes a solution, its certificate and its saved copy agree on what "optimal
action" means.

A solution that stores only its boundary values (``keep_values="boundary"``,
:mod:`tbsg.engine.boundary`) has the others recomputed, by the solver's evaluation of one
component, when the certificate reads its values: that is reading the claim, not checking
it. The check then runs on every value as above, so a wrong recomputation (or a wrong
stored value, from which the others would follow) fails it as any wrong value does.
"""

from __future__ import annotations

import dataclasses
import math
import operator
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from tbsg._util.gc import paused
from tbsg._util.progress import make_progress
from tbsg.engine import _backend as bk
from tbsg.engine.bellman import exact_action_values
from tbsg.engine.boundary import BoundaryValues, as_list
from tbsg.engine.compile import DEFAULT_MAX_STATES, check_max_states, compile_game
from tbsg.engine.compiled import CompiledGame, _Decoded
from tbsg.engine.graph import (
    ComponentLabels,
    end_components,
    paying_end_action,
    raise_non_stopping,
    raise_paying_end_component,
    strong_components,
)
from tbsg.engine.integer_q import ReadValues, distinct_objects, value_parts
from tbsg.engine.optimality import (
    Failure,
    directions,
    end_component_failure,
    exact_signs,
    first_failure,
    optimal_mask,
    usable_actions,
)
from tbsg.errors import (
    InvalidArgumentError,
    InvalidStrategyError,
    NonStoppingGameError,
    StateLimitError,
    TamperedSolutionError,
    TbsgError,
    shorten,
    show,
)
from tbsg.model.fixed import FixedStrategyGame
from tbsg.model.protocol import Game, infinite_play_payoff
from tbsg.results import Solution, SolutionKind, solution_digest

__all__ = ["Verification", "check_certificate", "read_values", "verify"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Verification:
    """What :func:`verify` checked (it raises instead of returning on failure)."""

    states: int
    actions: int
    seconds: float
    infinite_play: Fraction | None = None
    """The payoff of never-ending play the solution was checked with (``None``: stopping)."""
    kind: SolutionKind = SolutionKind.SOLVE
    """The kind of solution whose certificate was checked."""
    solution_sha256: str = ""
    """SHA-256 of the solution checked (values, actions, optimal actions, kind, state
    graph: :func:`tbsg.results.solution_digest`). :meth:`tbsg.Solution.provenance` reports
    the certificate only for that solution, not for another one of the same size."""

    def __str__(self) -> str:
        last = ("stopping" if self.infinite_play is None else
                f"end-component bounds for infinite play worth {self.infinite_play}")
        what = "" if self.kind is SolutionKind.SOLVE else f" ({self.kind.value})"
        return (f"verified{what}: {self.states} states, {self.actions} actions: strategy "
                f"equations, no profitable deviation, optimal actions, {last} "
                f"({self.seconds:.3g} s)")


def _show(x: object) -> str:
    return show(x, 120)


def verify(game: Game[S, A], solution: Solution[S, A], *,
           max_states: int = DEFAULT_MAX_STATES,
           infinite_play: Fraction | int | None = None,
           progress: bool | None = None) -> Verification:
    """Re-check ``solution`` against ``game`` from scratch, exactly.

    The game is rebuilt through its plain protocol (``initial``, ``player``, ``actions``,
    ``outcomes``), which defines it. A game that also offers the array form
    (:mod:`tbsg.model.arrays`), which :func:`tbsg.solve` uses for speed while comparing only a
    sample of states with the plain protocol, has every state's array row compared with
    it here: an array form that differs anywhere is an
    :class:`~tbsg.errors.InvalidGameError` naming a state where the two descriptions
    differ, so a value computed through an array form is certified only if the array
    form describes the game. This is what makes an array form trustworthy; it costs a
    plain compilation of the game.

    Parameters
    ----------
    game : Game
    solution : Solution
        An exact solution of :func:`tbsg.solve`, :func:`tbsg.evaluate` or
        :func:`tbsg.best_response` (its ``kind`` says which certificate applies).
    max_states : int
    infinite_play : Fraction, int or None
        Payoff to player 0 of never-ending play to check the solution with. ``None``
        (default): the rule the solution records (``solve(..., infinite_play=c)``), if any;
        without one the game must be stopping, (c).
    progress : bool or None
        Report the enumeration's states, then the actions whose signs are checked, on
        standard error during a long check (a bar on a terminal, a line every few seconds
        elsewhere): ``None`` (default) after a few
        seconds, ``True`` from the start, ``False`` never.

    Raises
    ------
    TamperedSolutionError
        If a value, an action, an optimal-action list or a count fails (a), (b), (c'), or
        the states do not match the game.
    NonStoppingGameError
        If (c) fails (no rule for infinite play).
    InvalidGameError
        If the game is invalid, or its array form and its plain protocol disagree.
    InvalidArgumentError
        If ``solution`` is not an exact :class:`tbsg.Solution` (a float solution's bounds
        are proven by construction; they carry no certificate to re-check).

    Examples
    --------
    >>> import tbsg
    >>> from tbsg.games import risk_or_safety
    >>> game = risk_or_safety(3)
    >>> print(tbsg.verify(game, tbsg.solve(game)))  # doctest: +ELLIPSIS
    verified: 36 states, 54 actions: strategy equations, no profitable deviation, optimal actions, ...
    """
    t0 = time.perf_counter()
    _check_type(solution)
    check_max_states(max_states)
    c, optimizing, claimed = _claims(solution, infinite_play)
    if progress is not None and not isinstance(progress, bool):
        raise InvalidArgumentError(f"progress must be True, False or None, got {show(progress)}")
    # the values, the graph and the integers of the check all live until the end: passes
    # of the cyclic collector over them would find nothing to free
    with paused():
        g = _fresh_compile(game, solution, optimizing, claimed, (max_states, progress))
        v, choice = _read_checked(g, solution)
        comps = strong_components(g)  # the counts, and the end components' first round
        expected = check_certificate(g, v, choice, optimizing, c, scc=comps.label,
                                     progress=progress)
        _check_optimal_actions(g, solution, expected)
        _check_counts(comps, solution)
        digest = solution_digest(solution, values=v)
    return Verification(states=g.n_states, actions=g.n_actions, seconds=time.perf_counter() - t0,
                        infinite_play=c, kind=SolutionKind.of(optimizing), solution_sha256=digest)


def check_certificate(g: CompiledGame[S, A], v: Sequence[Fraction], choice: IntArray,
                      optimizing: tuple[int, ...], c: Fraction | None, *,
                      scc: IntArray | None = None, progress: bool | None = False) -> BoolArray:
    """Check (a), (b) and (c) or (c') on ``g``, a fresh compile of the game; return the
    optimal actions they imply (a mask over flat actions).

    ``v`` are the claimed values (``Fraction`` of Python ints, in lowest terms), ``choice``
    the claimed strategy (one flat action of each state) and ``optimizing`` the players
    who optimise; ``c`` is the payoff of never-ending play (``None``: the game, restricted
    to the actions in play, must be stopping). ``scc``: the strongly connected components
    of ``g`` (``strong_components(g).label``) when the caller has them, which spares the end
    components' first round (every end component lies inside one of them), as in the
    solver. ``progress``: report the actions whose signs are decided (as :func:`verify`'s
    ``progress``; ``False``, the default here, never).

    Raises
    ------
    TamperedSolutionError
        If a value of a win-probability game is outside [0, 1], or (a), (b) or (c') fails.
    NonStoppingGameError
        If (c) fails.
    """
    with paused():  # (see verify; load calls this directly)
        return _check_certificate(g, v, choice, optimizing, c, scc, progress)


def _check_certificate(g: CompiledGame[S, A], v: Sequence[Fraction], choice: IntArray,
                       optimizing: tuple[int, ...], c: Fraction | None, scc: IntArray | None,
                       progress: bool | None) -> BoolArray:
    """:func:`check_certificate` (the collector paused)."""
    _check_range(g, v, c)
    usable = usable_actions(g, choice, optimizing)
    traps = end_components(g, usable, scc=scc)
    paying = None if c is None else paying_end_action(g, traps)
    if paying is not None:  # no total to certify: the theorem of (c') needs no such reward
        raise_paying_end_component(g, traps, paying)
    report, close = make_progress(progress, "verifying: certificate", unit="action")
    try:
        sign = exact_signs(g, v, progress=report)
    finally:
        close()
    failure = first_failure(g, sign, choice, directions(g, optimizing))
    if failure is not None:
        raise TamperedSolutionError(_bellman_failure(g, v, failure))
    if c is None and traps.count:
        try:
            raise_non_stopping(g, traps)
        except NonStoppingGameError as exc:
            raise NonStoppingGameError(f"(c) fails: {exc}", exc.trap_states) from None
    if c is not None:
        failure = end_component_failure(g, v, choice, c, usable)
        if failure is not None:
            raise TamperedSolutionError(
                f"(c') fails at state {_show(g.states[failure.state])}: against player "
                f"{1 - failure.player}'s strategy, player {failure.player} can keep play going "
                f"forever from there, which is worth {c} to player 0 (infinite_play), but the "
                f"value is {_show(v[failure.state])}")
    return optimal_mask(g, v, choice, optimizing=optimizing, sign=sign, infinite_play=c, mecs=traps)


def _check_type(solution: object) -> None:
    """An exact :class:`~tbsg.Solution`, not a subclass (whose methods could answer otherwise)."""
    if not isinstance(solution, Solution):
        raise InvalidArgumentError(
            f"verify() checks exact solutions (tbsg.Solution), got {type(solution).__name__}; "
            "a FloatSolution's bounds are proven as they are computed: solve with exact=True "
            "for a certificate to re-check")
    if type(solution) is not Solution:
        raise TamperedSolutionError(
            f"the solution is a {type(solution).__name__}, a subclass of tbsg.Solution: its methods "
            "may answer otherwise than the numbers checked here (verify a tbsg.Solution)")


def _claims(solution: Solution[S, A], infinite_play: Fraction | int | None
            ) -> tuple[Fraction | None, tuple[int, ...], tuple[int, int, int]]:
    """The rule for infinite play to check with (the caller's, else the solution's), the
    players who optimise, and the sizes the solution claims (states, actions, outcomes)."""
    c = infinite_play_payoff(infinite_play)  # the caller's rule, if given
    try:
        if c is None:
            c = infinite_play_payoff(solution.infinite_play)  # the rule the solution records
        optimizing = solution.optimizing
        SolutionKind.of(optimizing)
        claimed = (solution.graph.n_states, solution.graph.n_actions, len(solution.graph.out_target))
    except (TbsgError, AttributeError, TypeError) as exc:
        raise TamperedSolutionError(f"the solution is malformed: {shorten(str(exc))}") from exc
    return c, optimizing, claimed


def _fresh_compile(game: Game[S, A], solution: Solution[S, A], optimizing: tuple[int, ...],
                   claimed: tuple[int, int, int], limits: tuple[int, bool | None]) -> CompiledGame[S, A]:
    """The game, compiled afresh from its plain protocol (``limits``: ``max_states``, ``progress``).

    An evaluation or best response whose graph offers the fixed players one action per
    state covers the game under the strategy it records, reachable states only
    (``reach="profile"``): that game is compiled; otherwise the whole game.
    """
    fixed = tuple(p for p in (0, 1) if p not in optimizing)
    try:
        target: Game[S, A] = FixedStrategyGame(
            game, _recorded_strategy(solution), fixed, "the solution's recorded strategy") \
            if fixed and _single_actions(solution, fixed) else game
        return _compile(target, claimed, *limits)
    except InvalidStrategyError as exc:
        raise TamperedSolutionError(f"the solution's recorded strategy does not fit the game: {exc}") from exc


def _read_checked(g: CompiledGame[S, A], solution: Solution[S, A]) -> tuple[ReadValues, IntArray]:
    """The solution's values and strategy, after checking that its graph is ``g`` and its
    arrays and attributes are well formed (anything unreadable is a malformed solution)."""
    try:
        _check_graph(g, solution.graph)
        _check_arrays(g, solution)
        _check_own_attributes(solution, _SOLUTION_FIELDS, "the solution")
        return _read(g, solution), np.asarray(solution.choice, dtype=np.int64)
    except TamperedSolutionError:
        raise
    except (AttributeError, IndexError, KeyError, TypeError, ValueError, ZeroDivisionError) as exc:
        raise TamperedSolutionError(
            f"the solution is malformed: {type(exc).__name__}: {shorten(str(exc))}") from exc


def _bellman_failure(g: CompiledGame[S, A], v: Sequence[Fraction], failure: Failure) -> str:
    """The message of a failure of (a) or (b), with the action's value."""
    i, k = failure.state, failure.action
    q = exact_action_values(g, v, [k])[0]
    if failure.condition == "a":
        return (f"(a) fails at state {_show(g.states[i])}: value {_show(v[i])} but action "
                f"{_show(g.act_labels[k])} yields {_show(q)}")
    return (f"(b) fails at state {_show(g.states[i])}: action {_show(g.act_labels[k])} yields "
            f"{_show(q)}, strictly {'better' if failure.player == 0 else 'lower'} than the "
            f"value {_show(v[i])} for player {failure.player}")


def _single_actions(solution: Solution[S, A], fixed: tuple[int, ...]) -> bool:
    """Does the solution's graph offer the ``fixed`` players one action at each state?"""
    graph = solution.graph
    try:
        counts = np.diff(graph.act_ptr)
        return bool(np.all(counts[np.isin(graph.player, fixed)] == 1))
    except (AttributeError, TypeError, ValueError) as exc:
        raise TamperedSolutionError(f"the solution's graph is malformed: {shorten(str(exc))}") from exc


def _recorded_strategy(solution: Solution[S, A]) -> dict[S, A]:
    """The action the solution records at each of its states (read from its raw arrays)."""
    graph = solution.graph
    try:
        labels = [graph.act_labels[k] for k in solution.choice.tolist()]
        if len(labels) != len(graph.states):
            raise ValueError(f"{len(labels)} chosen actions for {len(graph.states)} states")
        return dict(zip(graph.states, labels, strict=True))
    except (AttributeError, IndexError, TypeError, ValueError) as exc:
        raise TamperedSolutionError(f"the solution's strategy is malformed: {shorten(str(exc))}") from exc


def _compile(game: Game[S, A], claimed: tuple[int, int, int], max_states: int,
             progress: bool | None) -> CompiledGame[S, A]:
    """The game, enumerated no further than the states (actions, outcomes) the solution covers."""
    states, actions, outcomes = claimed
    limit = min(max_states, max(states, 1))
    report, close = make_progress(progress, "verifying: enumerating")  # of the states claimed
    try:
        # every state of an array form compared with the plain protocol: only that certifies
        return compile_game(game, max_states=limit, max_actions=max(actions, 1), max_outcomes=outcomes,
                            check_arrays="all", progress=report)
    except StateLimitError:
        if limit < max_states:
            raise TamperedSolutionError(
                f"the solution covers {states} states ({actions} actions, {outcomes} outcomes) but "
                "the game has more (enumeration stopped there)") from None
        raise
    finally:
        close()


def _check_graph(g: CompiledGame[S, A], h: CompiledGame[Any, Any]) -> None:
    """The solution's own compiled game must be the game's, number for number: its query
    methods (values, actions, action values, optimal actions) read it."""
    if type(h) is not CompiledGame:  # a subclass could answer lookups its own way
        raise TamperedSolutionError(f"the solution's graph is a {type(h).__name__}, not a CompiledGame")
    for name, want in _GRAPH_TYPES.items():
        if type(getattr(h, name)) is not want:
            raise TamperedSolutionError(f"the solution's graph has a {type(getattr(h, name)).__name__} "
                                        f"as its {name}, not a {want.__name__}")
    if (h.n_states, h.n_actions) != (g.n_states, g.n_actions):
        raise TamperedSolutionError(f"the solution covers {h.n_states} states ({h.n_actions} actions) "
                                    f"but the game has {g.n_states} ({g.n_actions} actions)")
    arrays = ("player", "act_ptr", "act_state", "out_ptr", "out_target")
    if not all(
            np.array_equal(getattr(h, f), getattr(g, f)) for f in arrays):
        raise TamperedSolutionError("the solution's state graph is not the game's (states, players, "
                                    "actions or successors differ)")
    # g.index numbers g.states[i] i, so the two dicts are equal exactly when the
    # solution's index numbers every state as the game does (the stored hashes compared)
    if h.states != g.states or len(h.index) != g.n_states or h.index != g.index:
        raise TamperedSolutionError("the solution's states are not the game's, or not in its order")
    if h.act_labels != g.act_labels:
        raise TamperedSolutionError("the solution's actions are not the game's")
    if not all(type(x) is Fraction and type(x.numerator) is int and type(x.denominator) is int
               for x in h.rationals):
        raise TamperedSolutionError("the solution's probabilities or terminal payoffs are not all "
                                    "Fractions of Python ints")
    table = {(x.numerator, x.denominator): code for code, x in enumerate(g.rationals)}
    mapped = np.array([table.get((x.numerator, x.denominator), -1) if type(x) is Fraction else -1
                       for x in h.rationals], dtype=np.int64)
    for name in ("act_code", "stop_code", "out_code"):
        if not np.array_equal(mapped[getattr(h, name)], getattr(g, name)):
            raise TamperedSolutionError(
                "the solution's probabilities or terminal payoffs are not the game's "
                f"({name.split('_')[0]} numbers differ)")
    _check_rewards(g, h, mapped)
    _check_own_attributes(h, _GRAPH_FIELDS, "the solution's graph")


def _check_rewards(g: CompiledGame[S, A], h: CompiledGame[Any, Any], mapped: IntArray) -> None:
    """The solution's graph must carry the game's rewards (re-derived from its ``reward``
    method by the fresh compile) and say whether it is a win-probability game as the game
    does: both decide what its values and player 1's view mean."""
    if type(h.win_probability) is not bool or h.win_probability != g.win_probability:
        raise TamperedSolutionError(
            f"the solution's graph says win_probability={_show(h.win_probability)}, but the game "
            f"{'is' if g.win_probability else 'is not'} a win-probability game")
    mine, theirs = g.reward_code, h.reward_code
    if mine is None and theirs is None:
        return
    if mine is None or type(theirs) is not np.ndarray or len(theirs) != g.n_actions \
            or not np.array_equal(mapped[theirs], mine):
        k = _first_reward_difference(g, h)
        raise TamperedSolutionError(
            f"the solution's rewards are not the game's (at state "
            f"{_show(g.states[int(g.act_state[k])])}, action {_show(g.act_labels[k])} the game "
            f"pays {_show(g.act_reward[k])})")


def _first_reward_difference(g: CompiledGame[S, A], h: CompiledGame[Any, Any]) -> int:
    """The first action whose reward differs between ``g`` and ``h`` (0 if none can be read)."""
    try:
        theirs = list(h.act_reward)
    except Exception:
        return 0
    return next((k for k, w in enumerate(g.act_reward) if k >= len(theirs) or theirs[k] != w), 0)


_GRAPH_TYPES: dict[str, type] = {
    "states": list, "index": dict, "act_labels": list, "rationals": list,
    **dict.fromkeys(("player", "act_ptr", "act_state", "out_ptr", "out_target", "act_code",
                     "stop_code", "out_code"), np.ndarray)}
"""The type of each field of a CompiledGame, exactly (a subclass could answer differently)."""

_GRAPH_FIELDS = frozenset(f.name for f in dataclasses.fields(CompiledGame))
_SOLUTION_FIELDS = frozenset({f.name for f in dataclasses.fields(Solution)} - {"values_exact"}
                             | {"_values_exact"})  # values_exact is stored under its slot name


def _check_own_attributes(obj: object, fields: frozenset[str], what: str) -> None:
    """Every attribute ``obj`` holds is one of its ``fields`` (checked by the caller) or the
    cache of one of its class's cached properties holding what that property computes.

    The query methods read the caches (the exact numbers of each action, the float
    arrays, the graph hash), so a cache edited after it was filled would change what a
    user reads without touching a checked field; any other attribute of the instance
    would hide a method or property of its class.
    """
    for name, cached in list(vars(obj).items()):
        if name in fields:
            continue
        prop = _cached_property(type(obj), name)
        if prop is None:
            raise TamperedSolutionError(
                f"{what} has an attribute {name!r} of its own that is neither one of its fields "
                "nor a cache: it would hide what its class defines under that name")
        fresh = prop.func(obj)
        if not _same(cached, fresh):
            raise TamperedSolutionError(
                f"{what} holds a cached {name} that is not what its (checked) fields give"
                f"{_first_difference(obj, name, cached, fresh)}: the cache was edited")


def _first_difference(obj: object, name: str, cached: object, fresh: Sequence[object]) -> str:
    """Where a cached sequence of a graph's numbers first differs from the fresh one, as
    ``" (at state s, action a: x instead of y)"``; ``""`` when that cannot be said."""
    if not (isinstance(obj, CompiledGame) and isinstance(cached, Sequence) and name in _PER_ACTION):
        return ""
    try:
        i = next(i for i, (x, y) in enumerate(zip(cached, fresh, strict=False)) if x is not y)
        k = int(obj.out_action()[i]) if name == "out_prob" else i
        at = f"state {_show(obj.states[int(obj.act_state[k])])}, action {_show(obj.act_labels[k])}"
        return f" (at {at}: {_show(cached[i])} instead of {_show(fresh[i])})"
    except Exception:  # lengths differ, or an entry cannot be read: the name says enough
        return ""


_PER_ACTION = ("act_const", "act_stop", "out_prob")  # the decoded numbers: one per action or outcome


def _cached_property(cls: type, name: str) -> cached_property[Any] | None:
    for klass in cls.__mro__:
        attr = vars(klass).get(name)
        if attr is not None:
            return attr if isinstance(attr, cached_property) else None
    return None


def _same(cached: object, fresh: object) -> bool:
    """Is ``cached`` what the cached property computes, ``fresh``: the same type, and equal
    arrays (with their dtype), strings, or sequences of the very same number objects?"""
    if type(cached) is not type(fresh):
        return False
    if isinstance(cached, np.ndarray) and isinstance(fresh, np.ndarray):
        return (cached.dtype == fresh.dtype and cached.shape == fresh.shape
                and bool(np.array_equal(cached, fresh)))
    if isinstance(cached, tuple) and isinstance(fresh, tuple):
        return len(cached) == len(fresh) and all(map(_same, cached, fresh))
    if isinstance(cached, str):
        return cached == fresh
    if isinstance(cached, _Decoded) and isinstance(fresh, _Decoded):  # the same table, the same codes
        mine, theirs = cached._codes, fresh._codes
        same = mine == theirs if type(mine) is list and type(theirs) is list \
            else bool(np.array_equal(mine, theirs))  # (lists compared without converting them)
        return cached._values is fresh._values and same
    if isinstance(cached, Sequence) and isinstance(fresh, Sequence):  # decoded numbers
        return len(cached) == len(fresh) and all(map(operator.is_, cached, fresh))
    return False


def _check_arrays(g: CompiledGame[S, A], solution: Solution[S, A]) -> None:
    """The solution's arrays have the game's shapes: one value and one chosen action (of
    its own state) per state, one optimal flag per action."""
    choice, optimal = solution.choice, solution.optimal
    # another sequence could answer anything; the solver's boundary values recompute the
    # others from the stored ones, and the check reads them all once (:func:`_read`)
    if type(solution._raw_values) not in (list, tuple, BoundaryValues):
        raise TamperedSolutionError(f"the solution's values are a {type(solution._raw_values).__name__}, "
                                    "not a list")
    if len(solution._raw_values) != g.n_states:
        raise TamperedSolutionError(f"the solution has {len(solution._raw_values)} values for "
                                    f"{g.n_states} states")
    if not (type(choice) is np.ndarray and choice.shape == (g.n_states,)
            and np.issubdtype(choice.dtype, np.integer)
            and np.all((choice >= g.act_ptr[:-1]) & (choice < g.act_ptr[1:]))):
        raise TamperedSolutionError("the solution's chosen actions are not one action of each state")
    if not (type(optimal) is np.ndarray and optimal.shape == (g.n_actions,) and optimal.dtype == bool):
        raise TamperedSolutionError("the solution's optimal-action flags are not one bool per action")


def _read(g: CompiledGame[S, A], solution: Solution[S, A]) -> ReadValues:
    """The solution's values, each a ``Fraction`` of Python ints in lowest terms, read as
    their integer parts (:class:`~tbsg.engine.integer_q.ReadValues`).

    Run after :func:`_check_graph` and :func:`_check_arrays`: the solution's graph is the
    game's, so its arrays are read in the game's numbering (as its query methods read them).
    """
    return read_values(g, as_list(solution._raw_values))


def read_values(g: CompiledGame[S, A], values: Sequence[Any]) -> ReadValues:
    """Backend values (one per state of ``g``), each checked to be a ``Fraction`` of Python
    ints in lowest terms (or a value of the fast backend's own type, which is), read as
    their integer parts: what :func:`check_certificate` reads.

    A value object shared by many states (as a solver's are) is read and checked once
    (:func:`~tbsg.engine.integer_q.distinct_objects`).
    """
    raws, inverse = distinct_objects(values)
    # all of the fast backend's own type (one type, that of the first): GMP values, kept
    # in lowest terms by GMP, whose parts converted to Python ints are a Fraction's. An mpq
    # made from a Fraction built without normalisation keeps its parts as they are: a
    # negative denominator would flip the signs the certificate computes over common
    # denominators, so every denominator's sign is checked (at C speed); the gcd of each
    # value's parts is not recomputed (about as costly as the exact solve's lowest terms
    # on long games), and the checks hold for any positive denominator
    if len(set(map(type, raws))) <= 1 and all(map(bk.is_canonical, raws[:1])):
        # (converted one at a time: a list of GMP parts would copy every digit once more)
        nums, dens = list(map(int, map(_NUMERATOR, raws))), list(map(int, map(_DENOMINATOR, raws)))
        if min(dens, default=1) > 0:
            return ReadValues(nums, dens, inverse)
    return ReadValues(*_checked_parts(g, raws, inverse), inverse)


def _checked_parts(g: CompiledGame[S, A], raws: list[Any], inverse: IntArray | None
                   ) -> tuple[list[int], list[int]]:
    """The numerator and denominator of each of ``raws`` (the distinct value objects,
    state ``i`` holding ``raws[inverse[i]]``), each of which must be a Fraction of Python
    ints in lowest terms; the first state whose value is not one is named."""
    nums: list[int] = []
    dens: list[int] = []
    to_fraction = bk.to_fraction
    for u, raw in enumerate(raws):
        x = to_fraction(raw)
        n, d = x.numerator, x.denominator
        if type(x) is not Fraction or type(n) is not int or type(d) is not int:
            parts = f" with parts {type(n).__name__}/{type(d).__name__}" if isinstance(x, Fraction) else ""
            raise TamperedSolutionError(
                f"value at state {_first_holder(g, u, inverse)} is a {type(x).__name__}{parts}, not a "
                "Fraction of Python ints")
        if d <= 0 or math.gcd(n, d) != 1:
            raise TamperedSolutionError(
                f"value at state {_first_holder(g, u, inverse)} is {_show(n)}/{_show(d)}, not in lowest "
                "terms (a Fraction built without normalisation)")
        nums.append(n)
        dens.append(d)
    return nums, dens


def _first_holder(g: CompiledGame[S, A], u: int, inverse: IntArray | None) -> str:
    """The first state holding value object ``u`` (objects are numbered in order of first
    appearance, so the first state holding a bad object is the first state with a bad value)."""
    return _show(g.states[u if inverse is None else int(np.argmax(inverse == u))])


_NUMERATOR, _DENOMINATOR = operator.attrgetter("numerator"), operator.attrgetter("denominator")


def _check_range(g: CompiledGame[S, A], v: Sequence[Fraction], c: Fraction | None) -> None:
    """In a win-probability game every value is a probability, in [0, 1]. (A reward game's
    values have no range to check beyond (a), (b) and (c).) A value object shared by many
    states is checked once."""
    if not g.win_probability or (c is not None and not 0 <= c <= 1):
        return
    nums, dens, _ = value_parts(v)  # at C speed: 0 <= n <= d
    if not nums or (min(nums) >= 0 and all(map(operator.le, nums, dens))):
        return
    for i, x in enumerate(v):  # (the first value out of range, named)
        if not 0 <= x.numerator <= x.denominator:
            raise TamperedSolutionError(f"value at state {_show(g.states[i])} is {_show(x)}, outside [0, 1]")


def _check_optimal_actions(g: CompiledGame[S, A], solution: Solution[S, A], expected: BoolArray) -> None:
    """``solution.optimal_actions(s)`` must list exactly the expected actions (its flags,
    read through the game's own graph, must be the expected ones)."""
    wrong = np.flatnonzero(solution.optimal != expected)
    if len(wrong):
        i = int(g.act_state[wrong[0]])
        want = tuple(g.act_labels[k] for k in g.actions_of(i) if expected[k])
        raise TamperedSolutionError(
            f"optimal actions at state {_show(g.states[i])} are listed as "
            f"{_show(solution.optimal_actions(g.states[i]))}, but exactly {_show(want)} are optimal there")


def _check_counts(comps: ComponentLabels, solution: Solution[Any, Any]) -> None:
    """The solution's component counts are those of the game (``comps``: its components)."""
    if (solution.n_components, solution.largest_component) != (comps.count, comps.largest):
        raise TamperedSolutionError(
            f"the solution reports {solution.n_components} components (largest "
            f"{solution.largest_component}); the game has {comps.count} (largest {comps.largest})")
