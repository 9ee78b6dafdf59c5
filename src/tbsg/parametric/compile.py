"""Compilation of a parametric game: states, actions and outcomes with rational-function probabilities.

A *parametric game* is an ordinary :class:`tbsg.Game` whose outcome probabilities may be
sympy expressions in one symbol ``p`` (e.g. ``p`` for heads and ``1 - p`` for tails). A
terminal pays a rational constant (any sign, :class:`tbsg.Terminal`); a move may pay a
reward (the optional ``reward(state, action)`` method of :mod:`tbsg.model.protocol`) that
is a constant or a rational function of ``p`` alike, so a payoff that depends on the
parameter is written as the reward of the move that ends play. It is solved for every
``p`` in an open interval ``(lo, hi)`` at once.

Validation is that of every compiler (:mod:`tbsg.engine.compile.checks`, in the same
words: players, actions, hashable and stable states, no NaN inside, payoffs, limits),
with the numbers read over Q(p): every probability is exact (no floats), a rational
function of ``p`` alone; the probabilities of each action sum to 1 *identically* (as
rational functions); and every probability is *positive on the whole interval* (an
outcome whose probability is identically 0 is dropped, as the numeric compilers drop
zero probabilities): its numerator and denominator have no real root in ``(lo, hi)``
(exact root isolation, :mod:`tbsg.parametric.algebraic`) and its value at one rational
point inside is positive. A reward is read through the same gate (exact, a rational
function of ``p`` alone) and must be finite on the whole interval: its denominator has
no real root there (a reward may be negative or vanish at points: only a pole would make
the values undefined). Hence for every ``p`` in the interval the game has the same
state graph (a successor reached at one ``p`` is reached at all), so whether the game
is *stopping* is a property of the graph, checked once with
:func:`tbsg.engine.graph.end_components` on the numeric game at one point.

Breadth-first enumeration numbers the states ``0, 1, ...`` (``0`` the initial one) and
the actions of each state consecutively, as :class:`tbsg.engine.compiled.CompiledGame`
does; terminal outcomes are folded with the reward ``w_k(p)`` into
``c_k(p) = w_k(p) + sum p(t) r(t)`` per action (the constant every solver reads, as in
:class:`tbsg.engine.compiled.CompiledGame`), and ``w_k`` is kept on its own too. The game
is a *win-probability game* (``win_probability``) when every reward is identically 0 and
every terminal payoff lies in [0, 1]: that decides player 1's view of a value (``1 - v``,
else ``-v``) and the labels of tables and plots.

Rewards need no rule of their own for the totals to be finite: a parametric game must be
stopping (below), so every profile ends play with probability 1 and every expected total
is finite, a rational function without a pole in the interval.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from tbsg.engine.compile import compile_game
from tbsg.engine.compile.checks import (
    DEFAULT_MAX_STATES,
    action_sequence,
    at,
    at_action,
    bad_sum,
    check_actions,
    check_actions_again,
    check_max_states,
    check_protocol,
    check_stable,
    check_terminal,
    initial_state,
    lookup_error,
    not_a_pair,
    player_of,
    probability,
    state_limit,
    user_error,
)
from tbsg.engine.graph import decompose, end_components
from tbsg.errors import InvalidArgumentError, InvalidGameError, NonStoppingGameError, show
from tbsg.model.protocol import Game, Terminal, exact, player_function, reward_function
from tbsg.parametric.algebraic import real_roots
from tbsg.parametric.rational import RationalFunction

if TYPE_CHECKING:
    import sympy

__all__ = ["ParametricCompiled", "check_interval", "compile_parametric"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)


def check_interval(interval: object) -> tuple[Fraction, Fraction]:
    """Validate a parameter interval: a pair ``(lo, hi)`` of exact rationals with ``lo < hi``.

    >>> check_interval((0, Fraction(1, 2)))
    (Fraction(0, 1), Fraction(1, 2))
    >>> check_interval((0.5, 1))
    Traceback (most recent call last):
    ...
    tbsg.errors.ExactnessError: the interval's lower end must be an int or fractions.Fraction, \
got float 0.5; write it exactly, e.g. Fraction(1, 2) or Fraction('0.5')
    """
    if not isinstance(interval, (tuple, list)) or len(interval) != 2:
        raise InvalidArgumentError(
            f"interval must be a pair (lo, hi) of rationals, the open interval of the parameter, "
            f"got {show(interval)}")
    lo = exact(interval[0], "the interval's lower end")
    hi = exact(interval[1], "the interval's upper end")
    if not lo < hi:
        raise InvalidArgumentError(f"interval must have lo < hi, got ({lo}, {hi})")
    return lo, hi


@dataclass(frozen=True, eq=False)
class ParametricCompiled(Generic[S, A]):
    """A parametric game as flat lists (see the module docstring).

    Attributes
    ----------
    symbol : sympy.Symbol
        The parameter.
    interval : (Fraction, Fraction)
        The open interval of the parameter.
    states, index, player
        States in enumeration order, their numbers, their owners.
    act_ptr : list of int
        Actions of state ``i`` are ``act_ptr[i]:act_ptr[i+1]``.
    act_labels, act_state : list
        Each flat action's label and state.
    const : list of RationalFunction
        ``c_k(p) = w_k(p) + sum p(t) r(t)``: the reward and expected terminal payoff of
        each action.
    terminals : list of tuple
        Each action's terminal outcomes ``(probability, payoff)``.
    out_ptr, out_target, out_prob : list
        Outcomes of action ``k`` leading to states: ``out_ptr[k]:out_ptr[k+1]``.
    reward : list of RationalFunction
        ``w_k(p)``: the reward of each action (included in ``const``).
    win_probability : bool
        Every reward is identically 0 and every terminal payoff lies in [0, 1].
    """

    symbol: sympy.Symbol
    interval: tuple[Fraction, Fraction]
    states: list[S]
    index: dict[S, int]
    player: list[int]
    act_ptr: list[int]
    act_labels: list[A]
    act_state: list[int]
    const: list[RationalFunction]
    terminals: list[tuple[tuple[RationalFunction, Fraction], ...]]
    out_ptr: list[int]
    out_target: list[int]
    out_prob: list[RationalFunction]
    reward: list[RationalFunction]
    win_probability: bool

    @cached_property
    def has_rewards(self) -> bool:
        """Some action's reward is not identically 0."""
        return any(not w.is_zero() for w in self.reward)

    @property
    def n_states(self) -> int:
        """Number of reachable states."""
        return len(self.states)

    @property
    def n_actions(self) -> int:
        """Number of (state, action) pairs."""
        return len(self.act_labels)

    def actions_of(self, i: int) -> range:
        """Flat action numbers of state ``i``."""
        return range(self.act_ptr[i], self.act_ptr[i + 1])

    def at(self, x: Fraction) -> NumericGame:
        """The numeric game at ``p = x`` (a :class:`tbsg.Game` on state and action numbers;
        with a ``reward`` method when some reward is not identically 0)."""
        return NumericRewardGame(self, x) if self.has_rewards else NumericGame(self, x)

    def action_index(self, i: int, action: object) -> int | None:
        """Flat number of ``action`` at state ``i``, or None."""
        for k in self.actions_of(i):
            if self.act_labels[k] == action:
                return k
        return None


class NumericGame:
    """A parametric game with the parameter set to a rational: states and actions are numbers."""

    def __init__(self, pc: ParametricCompiled[Any, Any], x: Fraction) -> None:
        self.pc, self.x = pc, x
        self.initial = 0
        self._terminal: dict[Fraction, Terminal] = {}

    def player(self, s: int) -> int:
        return self.pc.player[s]

    def actions(self, s: int) -> range:
        return self.pc.actions_of(s)

    def outcomes(self, s: int, k: int) -> list[tuple[Fraction, int | Terminal]]:
        pc, x = self.pc, self.x
        out: list[tuple[Fraction, int | Terminal]] = [
            (pc.out_prob[o](x), pc.out_target[o]) for o in range(pc.out_ptr[k], pc.out_ptr[k + 1])]
        for prob, payoff in pc.terminals[k]:
            t = self._terminal.get(payoff)
            if t is None:
                t = self._terminal[payoff] = Terminal(payoff)
            out.append((prob(x), t))
        return out


class NumericRewardGame(NumericGame):
    """A parametric game with rewards at ``p = x``: :class:`NumericGame` and each action's
    reward there."""

    def reward(self, s: int, k: int) -> Fraction:
        return self.pc.reward[k](self.x)


class _Probabilities:
    """The number gate of a parametric game (:class:`tbsg.engine.compile.checks.Numbers`):
    a probability is a rational function of the parameter, positive on the whole interval.

    Each distinct expression is read once, each distinct function's sign decided once.
    """

    one = "identically 1"

    def __init__(self, symbol: sympy.Symbol, interval: tuple[Fraction, Fraction]) -> None:
        self.symbol, self.interval = symbol, interval
        self.by_expr: dict[object, RationalFunction] = {}
        self.positive: dict[int, RationalFunction] = {}  # id -> a function checked positive
        self.no_pole: dict[int, RationalFunction] = {}  # id -> a reward checked finite
        self.mid = (interval[0] + interval[1]) / 2

    def read(self, prob: object, what: str) -> RationalFunction:
        key = (type(prob), prob)
        try:
            rf = self.by_expr.get(key)
        except TypeError:
            rf = None
        if rf is None:
            rf = RationalFunction.from_expr(prob, self.symbol, what)
            with contextlib.suppress(TypeError):  # an unhashable expression: read each time
                self.by_expr[key] = rf
        return rf

    def sign(self, rf: RationalFunction, what: Callable[[], str]) -> int:
        """0 for the zero function, else its sign on the interval, where its numerator
        and denominator must have no root (exact root isolation)."""
        if self.positive.get(id(rf)) is rf:  # the read cache hands out one object per value
            return 1
        if rf.is_zero():
            return 0
        lo, hi = self.interval
        n, d = rf.integer_parts()
        for poly, part in ((n, "numerator"), (d, "denominator")):
            if poly.degree() >= 1:
                roots = real_roots(poly, lo, hi)
                if roots:
                    where = "vanishes" if part == "numerator" else "has a pole"
                    raise InvalidGameError(
                        f"{what()} = {self.show(rf)} {where} at {self.symbol} = "
                        f"{roots[0].decimal(12)}... inside the interval ({lo}, {hi}): every "
                        "probability must be positive on the whole interval (narrow it)")
        if not rf(self.mid) > 0:
            return -1
        self.positive[id(rf)] = rf  # (kept alive here, so its id is not reused)
        return 1

    def show(self, rf: RationalFunction) -> str:
        return str(rf.to_expr(self.symbol))

    def finite(self, rf: RationalFunction, what: Callable[[], str]) -> RationalFunction:
        """``rf``, checked to have no pole in the interval (its denominator no real root there)."""
        if id(rf) in self.no_pole:
            return rf
        lo, hi = self.interval
        _, d = rf.integer_parts()
        roots = real_roots(d, lo, hi) if d.degree() >= 1 else []
        if roots:
            raise InvalidGameError(
                f"{what()} = {self.show(rf)} has a pole at {self.symbol} = {roots[0].decimal(12)}... "
                f"inside the interval ({lo}, {hi}): a reward must be finite on the whole "
                "interval (narrow it)")
        self.no_pole[id(rf)] = rf  # (kept alive here, so its id is not reused)
        return rf


def compile_parametric(game: Game[S, A], symbol: sympy.Symbol, interval: tuple[Fraction, Fraction], *,
                       max_states: int = DEFAULT_MAX_STATES) -> ParametricCompiled[S, A]:
    """Enumerate and validate a parametric game (see the module docstring).

    Raises
    ------
    InvalidGameError
        A probability that does not sum to 1, is not positive on the interval, or
        depends on another symbol; a reward with a pole in the interval, or that depends
        on another symbol; the rules every compiler checks
        (:mod:`tbsg.engine.compile.checks`), in the same words.
    ExactnessError
        A float probability, payoff or reward.
    NonStoppingGameError
        The players can keep play going for ever (the same for every ``p``).
    """
    import sympy

    if not isinstance(symbol, sympy.Symbol):
        raise InvalidArgumentError(f"the parameter must be a sympy.Symbol, got {show(symbol)}")
    lo, hi = check_interval(interval)
    check_max_states(max_states)
    check_protocol(game)
    build = _Build(game, _Probabilities(symbol, (lo, hi)), max_states)
    i = 0
    while i < len(build.states):
        build.expand(build.states[i], i)
        i += 1
    # user code may mutate states it returned earlier, unless they are plain values
    check_stable(build.states, build.index.get, build.checked if build.plain else 0, "after enumeration")
    pc = ParametricCompiled(symbol=symbol, interval=(lo, hi), states=build.states, index=build.index,
                            player=build.player, act_ptr=build.act_ptr, act_labels=build.act_labels,
                            act_state=build.act_state, const=build.const, terminals=build.terminals,
                            out_ptr=build.out_ptr, out_target=build.out_target, out_prob=build.out_prob,
                            reward=build.reward, win_probability=build.win_probability())
    _check_stopping(pc)
    return pc


_FIRST_CHECK = 1024  # states numbered before the first stability check (then doubling)


class _Build:
    """A parametric game's enumeration: the breadth-first search of the plain compiler
    (:mod:`tbsg.engine.compile.plain`), over rational functions, with its checks."""

    def __init__(self, game: Game[Any, Any], probs: _Probabilities, max_states: int) -> None:
        self.game, self.probs, self.max_states = game, probs, max_states
        initial = initial_state(game)
        self.states: list[Any] = [initial]
        self.index: dict[Any, int] = {initial: 0}
        self.player: list[int] = []
        self.act_ptr: list[int] = [0]
        self.act_labels: list[Any] = []
        self.act_state: list[int] = []
        self.const: list[RationalFunction] = []
        self.terminals: list[tuple[tuple[RationalFunction, Fraction], ...]] = []
        self.out_ptr: list[int] = [0]
        self.out_target: list[int] = []
        self.out_prob: list[RationalFunction] = []
        self.next_check, self.checked, self.plain = _FIRST_CHECK, 0, True
        self.payoffs: dict[int, tuple[Terminal, Fraction]] = {}  # id of a terminal -> (it, its payoff)
        self.zero, self.one = RationalFunction.constant(0), RationalFunction.constant(1)
        self.player_fn = player_function(game)
        self.reward_fn = reward_function(game)  # None: every reward is 0
        self.reward: list[RationalFunction] = []
        self.unit_payoffs = True  # every terminal payoff met lies in [0, 1]

    def win_probability(self) -> bool:
        """Every reward identically 0 and every terminal payoff met in [0, 1]."""
        return self.unit_payoffs and all(w.is_zero() for w in self.reward)

    def expand(self, s: Any, i: int) -> None:
        """Enumerate the actions and outcomes of state ``s``, number ``i``."""
        game = self.game
        try:  # (the place is written only when user code raises)
            who = self.player_fn(s)
        except Exception as exc:
            user_error("game.player()", at(s), exc)
        self.player.append(who if type(who) is int and who in (0, 1) else player_of(who, s))
        try:
            listed = game.actions(s)
        except Exception as exc:
            user_error("game.actions()", at(s), exc)
        acts = action_sequence(listed, s)
        check_actions(acts, s)
        for a in acts:
            try:
                outs = list(game.outcomes(s, a))
            except Exception as exc:
                user_error("game.outcomes()", at_action(s, a), exc)
            merged, terms = self._outcomes(outs, s, a, acts)
            w = self.zero if self.reward_fn is None else self._reward(self.reward_fn, s, a)
            self.act_labels.append(a)
            self.act_state.append(i)
            self.reward.append(w)
            self.const.append(sum((rf * r for rf, r in terms), w))
            self.terminals.append(tuple(terms))
            self.out_target.extend(merged)
            self.out_prob.extend(merged.values())
            self.out_ptr.append(len(self.out_target))
        self.act_ptr.append(len(self.act_labels))

    def _outcomes(self, outs: Sequence[object], s: Any, a: Any, acts: Sequence[Any]
                  ) -> tuple[dict[int, RationalFunction], list[tuple[RationalFunction, Fraction]]]:
        """The outcomes of action ``a`` at ``s``: the probability of each successor's
        number (repeated successors merged) and the terminal outcomes ``(p, payoff)``."""
        total = self.zero
        merged: dict[int, RationalFunction] = {}
        terms: list[tuple[RationalFunction, Fraction]] = []
        for item in outs:
            if not isinstance(item, tuple) or len(item) != 2:
                raise not_a_pair(item, s, a)
            prob, nxt = item
            rf = probability(prob, nxt, s, a, self.probs)
            if rf is None:  # an outcome of probability 0 is dropped
                continue
            total = total + rf
            if isinstance(nxt, Terminal):
                terms.append((rf, self._payoff(nxt, s, a)))
            else:
                j = self._number(nxt, s, a, acts)
                merged[j] = merged[j] + rf if j in merged else rf
        if total != self.one:
            raise bad_sum(self.probs.show(total), s, a, self.probs.one)
        return merged, terms

    def _reward(self, fn: Callable[[Any, Any], object], s: Any, a: Any) -> RationalFunction:
        """The reward of ``a`` at ``s``: exact (numpy integers read as ints, floats refused
        with :func:`tbsg.model.protocol.exact`'s words), a rational function of the
        parameter alone, finite on the interval."""
        try:
            raw = fn(s, a)
        except Exception as exc:
            user_error("game.reward()", at_action(s, a), exc)
        what = f"reward {at_action(s, a)}"
        if type(raw) is not int and not _symbolic(raw):
            raw = exact(raw, what)
        rf = self.probs.read(raw, what)
        return self.probs.finite(rf, lambda: what)

    def _payoff(self, t: Terminal, s: Any, a: Any) -> Fraction:
        """The payoff of the terminal ``t``, checked once per terminal object."""
        hit = self.payoffs.get(id(t))
        if hit is None or hit[0] is not t:
            if len(self.payoffs) > 4096:  # terminals built afresh in every call: keep it small
                self.payoffs.clear()
            hit = self.payoffs[id(t)] = (t, check_terminal(t, at_action(s, a)))
            self.unit_payoffs = self.unit_payoffs and 0 <= hit[1] <= 1
        return hit[1]

    def _number(self, nxt: Any, s: Any, a: Any, acts: Sequence[Any]) -> int:
        """The number of the successor ``nxt`` of ``a`` at ``s``, numbering it if new, with
        the limit and the stability checks due (each time the table doubles)."""
        states = self.states
        try:
            j = self.index.setdefault(nxt, len(states))
        except Exception as exc:
            lookup_error(nxt, s, a, exc)
        if j < len(states):
            return j
        if j >= self.max_states:
            raise state_limit(self.max_states, nxt)
        states.append(nxt)
        if j >= self.next_check:  # states whose hash drifts would grow the table forever
            self.plain = check_stable(states, self.index.get, self.checked,
                                      f"while enumerating {at_action(s, a)}") and self.plain
            check_actions_again(self.game.actions, s, acts)
            self.checked, self.next_check = j + 1, 2 * self.next_check
        return j


def _symbolic(x: object) -> bool:
    """Whether ``x`` is a sympy expression or a :class:`RationalFunction` (read as such)."""
    if isinstance(x, RationalFunction):
        return True
    sympy = sys.modules.get("sympy")
    return sympy is not None and isinstance(x, sympy.Basic)


def _check_stopping(pc: ParametricCompiled[Any, Any]) -> None:
    """The same graph for every ``p``: check stopping once, at the interval's midpoint."""
    lo, hi = pc.interval
    g = compile_game(pc.at((lo + hi) / 2), max_states=max(pc.n_states, 1))
    ec = end_components(g, scc=decompose(g).label)
    if ec.count:
        trapped = [pc.states[int(g.states[i])] for i in ec.members()[0][:4]]
        names = ", ".join(show(s, 80) for s in trapped)
        raise NonStoppingGameError(
            f"the parametric game is not stopping (for every {pc.symbol} in the interval: the "
            f"graph does not depend on it): the players can keep play among states such as "
            f"{{{names}}} for ever; parametric solving needs a stopping game",
            tuple(trapped))

