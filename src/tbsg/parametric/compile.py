"""Compilation of a parametric game: states, actions and outcomes with rational-function probabilities.

A *parametric game* is an ordinary :class:`tbsg.Game` whose outcome probabilities may be
sympy expressions in one symbol ``p`` (e.g. ``p`` for heads and ``1 - p`` for tails);
terminal payoffs stay rational constants. It is solved for every ``p`` in an open
interval ``(lo, hi)`` at once.

Validation (the numeric rules of :mod:`tbsg.engine.compile`, read over Q(p)): every
probability is exact (no floats), a rational function of ``p`` alone; the probabilities
of each action sum to 1 *identically* (as rational functions); and every probability is
*positive on the whole interval* (an outcome whose probability is identically 0 is
dropped, as the numeric compile drops zero probabilities): its numerator and denominator have no real root in
``(lo, hi)`` (exact root isolation, :mod:`tbsg.parametric.algebraic`) and its value at one
rational point inside is positive. Hence for every ``p`` in the interval the game has the
same state graph (a successor reached at one ``p`` is reached at all), so whether the
game is *stopping* is a property of the graph, checked once with
:func:`tbsg.engine.graph.end_components` on the numeric game at one point.

Breadth-first enumeration numbers the states ``0, 1, ...`` (``0`` the initial one) and
the actions of each state consecutively, as :class:`tbsg.engine.compiled.CompiledGame`
does; terminal outcomes are folded into ``c_k(p) = sum p(t) r(t)`` per action.
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from tbsg.engine.compile import DEFAULT_MAX_STATES, check_max_states, compile_game
from tbsg.engine.graph import decompose, end_components
from tbsg.errors import (
    InvalidArgumentError,
    InvalidGameError,
    NonStoppingGameError,
    StateLimitError,
    TbsgError,
    show,
)
from tbsg.model.protocol import Game, Terminal, exact
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
        ``c_k(p)``: expected terminal payoff of each action.
    terminals : list of tuple
        Each action's terminal outcomes ``(probability, payoff)``.
    out_ptr, out_target, out_prob : list
        Outcomes of action ``k`` leading to states: ``out_ptr[k]:out_ptr[k+1]``.
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
        """The numeric game at ``p = x`` (a :class:`tbsg.Game` on state and action numbers)."""
        return NumericGame(self, x)

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


class _Probabilities:
    """Reads and validates probabilities, each distinct expression once."""

    def __init__(self, symbol: sympy.Symbol, interval: tuple[Fraction, Fraction]) -> None:
        self.symbol, self.interval = symbol, interval
        self.by_expr: dict[object, RationalFunction] = {}
        self.checked: set[RationalFunction] = set()
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

    def check_positive(self, rf: RationalFunction, what: str) -> None:
        if rf in self.checked:
            return
        lo, hi = self.interval
        n, d = rf.integer_parts()
        for poly, part in ((n, "numerator"), (d, "denominator")):
            if poly.degree() >= 1:
                roots = real_roots(poly, lo, hi)
                if roots:
                    where = "vanishes" if part == "numerator" else "has a pole"
                    raise InvalidGameError(
                        f"{what} = {rf.to_expr(self.symbol)} {where} at {self.symbol} = "
                        f"{roots[0].decimal(12)}... inside the interval ({lo}, {hi}): every "
                        "probability must be positive on the whole interval (narrow it)")
        if not rf(self.mid) > 0:
            raise InvalidGameError(
                f"{what} = {rf.to_expr(self.symbol)} is negative on the interval ({lo}, {hi}) "
                f"(it is {rf(self.mid)} at {self.symbol} = {self.mid})")
        self.checked.add(rf)


def compile_parametric(game: Game[S, A], symbol: sympy.Symbol, interval: tuple[Fraction, Fraction], *,
                       max_states: int = DEFAULT_MAX_STATES) -> ParametricCompiled[S, A]:
    """Enumerate and validate a parametric game (see the module docstring).

    Raises
    ------
    InvalidGameError
        A probability that does not sum to 1, is not positive on the interval, or
        depends on another symbol; the usual protocol errors.
    ExactnessError
        A float probability or payoff.
    NonStoppingGameError
        The players can keep play going for ever (the same for every ``p``).
    """
    import sympy

    if not isinstance(symbol, sympy.Symbol):
        raise InvalidArgumentError(f"the parameter must be a sympy.Symbol, got {show(symbol)}")
    lo, hi = check_interval(interval)
    check_max_states(max_states)
    probs = _Probabilities(symbol, (lo, hi))
    one = RationalFunction.constant(1)
    states: list[S] = []
    index: dict[S, int] = {}
    player: list[int] = []
    act_ptr: list[int] = [0]
    act_labels: list[A] = []
    act_state: list[int] = []
    const: list[RationalFunction] = []
    terminals: list[tuple[tuple[RationalFunction, Fraction], ...]] = []
    out_ptr: list[int] = [0]
    out_target: list[int] = []
    out_prob: list[RationalFunction] = []

    def number(s: Any, where: str) -> int:
        try:
            i = index.get(s)
        except TypeError as exc:
            raise InvalidGameError(f"state {show(s)} is not hashable ({where})") from exc
        if i is None:
            if len(states) >= max_states:
                raise StateLimitError(
                    f"more than {max_states} reachable states; pass max_states= to go further")
            i = index[s] = len(states)
            states.append(s)
            queue.append(i)
        return i

    queue: deque[int] = deque()
    number(_user("initial", "", lambda: game.initial), "the initial state")
    while queue:
        i = queue.popleft()
        s = states[i]
        at = f"at state {show(s)}"
        who = _user("player()", at, lambda s=s: game.player(s))
        if isinstance(who, bool) or who not in (0, 1):
            raise InvalidGameError(f"player() must return 0 or 1, got {show(who)} {at}")
        player.append(int(who))
        acts = list(_user("actions()", at, lambda s=s: game.actions(s)))
        if not acts:
            raise InvalidGameError(f"state {show(s)} has no actions (every state needs at least one)")
        if len(set(acts)) != len(acts):
            raise InvalidGameError(f"state {show(s)} lists an action twice: {show(acts)}")
        for a in acts:
            where = f"at state {show(s)}, action {show(a)}"
            outs = list(_user("outcomes()", where, lambda s=s, a=a: game.outcomes(s, a)))
            total = RationalFunction.constant(0)
            c = RationalFunction.constant(0)
            merged: dict[int, RationalFunction] = {}
            terms: list[tuple[RationalFunction, Fraction]] = []
            for pair in outs:
                if not isinstance(pair, tuple) or len(pair) != 2:
                    raise InvalidGameError(f"an outcome must be a pair (probability, successor), "
                                           f"got {show(pair)} {where}")
                prob, nxt = pair
                what = f"probability of outcome {show(nxt)} {where}"
                rf = probs.read(prob, what)
                if rf.is_zero():  # as in the numeric compile: an outcome of probability 0 is dropped
                    continue
                probs.check_positive(rf, what)
                total = total + rf
                if isinstance(nxt, Terminal):
                    terms.append((rf, nxt.payoff))
                    c = c + rf * nxt.payoff
                else:
                    j = number(nxt, where)
                    merged[j] = merged[j] + rf if j in merged else rf
            if total != one:
                raise InvalidGameError(
                    f"probabilities sum to {total.to_expr(symbol)}, not identically 1, {where}")
            act_labels.append(a)
            act_state.append(i)
            const.append(c)
            terminals.append(tuple(terms))
            for j, rf in merged.items():
                out_target.append(j)
                out_prob.append(rf)
            out_ptr.append(len(out_target))
        act_ptr.append(len(act_labels))
    pc = ParametricCompiled(symbol=symbol, interval=(lo, hi), states=states, index=index,
                            player=player, act_ptr=act_ptr, act_labels=act_labels,
                            act_state=act_state, const=const, terminals=terminals,
                            out_ptr=out_ptr, out_target=out_target, out_prob=out_prob)
    _check_stopping(pc)
    return pc


def _user(what: str, where: str, fn: Any) -> Any:
    try:
        return fn()
    except TbsgError:
        raise
    except Exception as exc:
        raise InvalidGameError(f"{what} raised {type(exc).__name__}: {exc} {where}") from exc


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

