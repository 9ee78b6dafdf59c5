"""Compilation: enumerate a game's reachable states into a compact indexed graph.

Breadth-first search from ``game.initial`` visits every state reachable under *any*
actions and numbers the states 0, 1, ... in visiting order. The result stores the game
in compressed-sparse-row form: the actions of state ``i`` are ``act_ptr[i]:act_ptr[i+1]``,
the outcomes of action ``k`` are ``out_ptr[k]:out_ptr[k+1]``, each outcome being a
probability and a successor *state index*. Outcomes that end play are folded into a
per-action constant ``act_const[k] = sum p(t) r(t)`` (expected terminal payoff) and
``act_stop[k] = sum p(t)`` (probability of ending now), so the Bellman operator reads

.. math:: Q(k) = c_k + \\sum_{j} p_{kj} v(j), \\qquad v(i) = \\operatorname{opt}_k Q(k).

Validation happens here, once: every probability exact (``int``/``Fraction``),
non-negative and summing to exactly 1 per action; players 0 or 1; at least one action;
hashable states; payoffs in [0, 1]. Zero-probability outcomes are dropped (the state
they name is not enumerated through them) and repeated successors of one action are
merged by adding their probabilities. Errors raised inside user code are re-raised as
:class:`~tbsg.errors.InvalidGameError` naming the state and action.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, partial
from typing import Generic, TypeVar

import numpy as np
import numpy.typing as npt

from tbsg.errors import InvalidGameError, StateLimitError, TbsgError, exactness_error
from tbsg.game import Game, Terminal

__all__ = ["DEFAULT_MAX_STATES", "CompiledGame", "compile_game"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)
R = TypeVar("R")

DEFAULT_MAX_STATES = 20_000_000
"""Default bound on the number of reachable states before compilation stops."""

IntArray = npt.NDArray[np.int64]
_ZERO = Fraction(0)
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class CompiledGame(Generic[S, A]):
    """A game as arrays. Solvers work on this, never on the user's object.

    Attributes
    ----------
    states : list
        State objects, indexed by state number; ``states[0]`` is the initial state.
    index : dict
        Inverse of ``states``.
    player : ndarray of int8
        Owner of each state.
    act_ptr : ndarray of int64, length ``n_states + 1``
        Actions of state ``i`` are the flat action numbers ``act_ptr[i]:act_ptr[i+1]``.
    act_labels : list
        The user's action object of each flat action number.
    act_state : ndarray of int64
        State each flat action belongs to.
    act_const, act_stop : list of Fraction
        Expected terminal payoff, and probability of ending play, of each action.
    out_ptr : ndarray of int64, length ``n_actions + 1``
        Outcomes of action ``k`` are ``out_ptr[k]:out_ptr[k+1]``.
    out_target : ndarray of int64
        Successor state of each outcome.
    out_prob : list of Fraction
        Probability of each outcome.
    """

    states: list[S]
    index: dict[S, int]
    player: npt.NDArray[np.int8]
    act_ptr: IntArray
    act_labels: list[A]
    act_state: IntArray
    act_const: list[Fraction]
    act_stop: list[Fraction]
    out_ptr: IntArray
    out_target: IntArray
    out_prob: list[Fraction]

    @property
    def n_states(self) -> int:
        """Number of reachable non-terminal states."""
        return len(self.states)

    @property
    def n_actions(self) -> int:
        """Number of (state, action) pairs."""
        return len(self.act_labels)

    def actions_of(self, i: int) -> range:
        """Flat action numbers of state ``i``."""
        return range(int(self.act_ptr[i]), int(self.act_ptr[i + 1]))

    @cached_property
    def _float_arrays(self) -> tuple[FloatArray, FloatArray]:
        memo: dict[int, float] = {}

        def f(x: Fraction) -> float:
            y = memo.get(id(x))
            if y is None:
                y = memo[id(x)] = float(x)
            return y

        return (
            np.array([f(c) for c in self.act_const], dtype=np.float64),
            np.array([f(p) for p in self.out_prob], dtype=np.float64),
        )

    def float_arrays(self) -> tuple[FloatArray, FloatArray]:
        """``(act_const, out_prob)`` as float64 arrays (correctly rounded; cached)."""
        return self._float_arrays

    def action_index(self, i: int, action: object) -> int | None:
        """Flat action number of ``action`` at state ``i``, or None if it is not legal."""
        for k in self.actions_of(i):
            if self.act_labels[k] == action:
                return k
        return None


def _call(what: str, where: str, fn: Callable[[], R]) -> R:
    """Run user code, re-raising its exceptions with the state that caused them."""
    try:
        return fn()
    except TbsgError as exc:
        # a tbsg error raised while user code ran (e.g. Terminal(2) or Terminal(0.5) built
        # in outcomes()): keep its type (ExactnessError stays a TypeError), add the state
        located: TbsgError | None
        try:
            located = type(exc)(f"{exc} (raised in {what} {where})")
        except TypeError:  # an error class with a different constructor: leave it as is
            located = None
        if located is None:
            raise
        raise located from exc
    except Exception as exc:
        raise InvalidGameError(f"{what} raised {type(exc).__name__}: {exc} {where}") from exc


def compile_game(game: Game[S, A], *, max_states: int = DEFAULT_MAX_STATES) -> CompiledGame[S, A]:
    """Enumerate the states reachable from ``game.initial`` and validate the game.

    Parameters
    ----------
    game : Game
        The game to compile.
    max_states : int
        Stop with :class:`~tbsg.errors.StateLimitError` once more states than this are
        reached.

    Returns
    -------
    CompiledGame
    """
    initial = _call("game.initial", "(reading the initial state)", lambda: game.initial)
    if isinstance(initial, Terminal):
        raise InvalidGameError("game.initial is a Terminal; the game must start in a state")
    _check_hashable(initial, "the initial state")

    states: list[S] = [initial]
    index: dict[S, int] = {initial: 0}
    players: list[int] = []
    act_ptr: list[int] = [0]
    act_labels: list[A] = []
    act_state: list[int] = []
    act_const: list[Fraction] = []
    act_stop: list[Fraction] = []
    out_ptr: list[int] = [0]
    out_target: list[int] = []
    out_prob: list[Fraction] = []

    intern: dict[Fraction | int, Fraction] = {}
    by_id: dict[int, Fraction] = {}
    keep: list[object] = []
    i = 0
    while i < len(states):
        s = states[i]
        where = f"at state {s!r}"
        who = _call("game.player()", where, partial(game.player, s))
        if isinstance(who, bool) or who not in (0, 1) or not isinstance(who, (int, np.integer)):
            raise InvalidGameError(f"game.player() returned {who!r} {where}; expected 0 or 1")
        players.append(int(who))
        acts = _call("game.actions()", where, partial(game.actions, s))
        acts_seq: Sequence[A] = tuple(acts) if not isinstance(acts, Sequence) else acts
        if len(acts_seq) == 0:
            raise InvalidGameError(f"game.actions() returned no actions {where}; "
                                   "every state needs at least one (a chance step has one)")
        seen_actions: set[A] = set()
        for a in acts_seq:
            _check_hashable(a, f"action {a!r} {where}")
            if a in seen_actions:
                raise InvalidGameError(f"action {a!r} is listed twice {where}")
            seen_actions.add(a)
            where_a = f"{where}, action {a!r}"
            outs = _call("game.outcomes()", where_a, partial(_listed, game.outcomes, s, a))
            # Validation in integer arithmetic: total = tot_n / tot_d, no gcd per step.
            tot_n, tot_d = 0, 1
            const: Fraction | int = 0
            stop: Fraction | int = 0
            merged: dict[int, Fraction] = {}
            for item in outs:
                if not (type(item) is tuple and len(item) == 2):
                    raise InvalidGameError(
                        f"game.outcomes() yielded {item!r} {where_a}; "
                        "expected (probability, successor) pairs")
                p, nxt = item
                tp = type(p)
                pn: int
                pd: int
                if tp is Fraction:
                    pn, pd = p.numerator, p.denominator
                elif tp is int:
                    pn, pd = int(p), 1
                elif isinstance(p, (int, Fraction)) and not isinstance(p, bool):
                    pf = Fraction(p)
                    pn, pd = pf.numerator, pf.denominator
                else:
                    raise exactness_error(f"probability of outcome {nxt!r} {where_a}", p)
                if pn < 0:
                    raise InvalidGameError(f"negative probability {p} for outcome {nxt!r} {where_a}")
                if pd == tot_d:
                    tot_n += pn
                else:
                    tot_n, tot_d = tot_n * pd + pn * tot_d, tot_d * pd
                if isinstance(nxt, Terminal):
                    const += p * nxt.payoff
                    stop += p
                    continue
                if pn == 0:
                    continue
                try:
                    j = index.get(nxt)
                except TypeError:
                    _check_hashable(nxt, f"successor {nxt!r} {where_a}")
                    raise
                if j is None:
                    j = len(states)
                    if j >= max_states:
                        raise StateLimitError(
                            f"state limit reached: {j} states enumerated and more remain "
                            f"(max_states={max_states}; raise it or shrink the game)")
                    index[nxt] = j
                    states.append(nxt)
                q = by_id.get(id(p))
                if q is None:  # first time this object is seen: intern by value
                    if len(by_id) > 4096:
                        by_id.clear()
                        keep.clear()
                    q = _intern(intern, Fraction(p))
                    by_id[id(p)] = q
                    keep.append(p)  # keeps id(p) from being reused while cached
                prev = merged.get(j)
                merged[j] = q if prev is None else _intern(intern, prev + q)
            if tot_n != tot_d:
                raise InvalidGameError(
                    f"probabilities sum to {Fraction(tot_n, tot_d)}, not 1, {where_a}")
            act_labels.append(a)
            act_state.append(i)
            if stop == 0:
                act_const.append(_ZERO)
                act_stop.append(_ZERO)
            else:
                act_const.append(_intern(intern, Fraction(const)))
                act_stop.append(_intern(intern, Fraction(stop)))
            for j, p in merged.items():
                out_target.append(j)
                out_prob.append(p)
            out_ptr.append(len(out_target))
        act_ptr.append(len(act_labels))
        i += 1

    return CompiledGame(
        states=states,
        index=index,
        player=np.array(players, dtype=np.int8),
        act_ptr=np.array(act_ptr, dtype=np.int64),
        act_labels=act_labels,
        act_state=np.array(act_state, dtype=np.int64),
        act_const=act_const,
        act_stop=act_stop,
        out_ptr=np.array(out_ptr, dtype=np.int64),
        out_target=np.array(out_target, dtype=np.int64),
        out_prob=out_prob,
    )


def _listed(fn: Callable[[S, A], Iterable[R]], s: S, a: A) -> list[R]:
    return list(fn(s, a))


def _intern(table: dict[Fraction | int, Fraction], x: Fraction) -> Fraction:
    """One shared object per distinct probability (saves memory and conversions)."""
    y = table.get(x)
    if y is None:
        table[x] = y = x
    return y


def _check_hashable(x: object, what: str) -> None:
    try:
        hash(x)
    except TypeError as exc:
        raise InvalidGameError(f"{what} is not hashable ({exc}); use tuples, not lists") from exc
