"""Games with some players' strategies fixed: only what the fixed choices reach.

Fixing player ``i``'s stationary strategy ``sigma`` turns a game ``G`` into the game
``G|sigma`` whose states of player ``i`` offer the single action ``sigma(s)``; the states
of the other player keep all their actions. The values of ``G|sigma`` are the values of
``G`` under ``sigma`` (the Bellman operator of ``G|sigma`` is that of ``G`` with the
optimum over player ``i``'s actions replaced by ``sigma``'s action), and a state of ``G``
that no play of ``G|sigma`` reaches from the initial state does not affect them. So
:func:`tbsg.evaluate` (both players fixed: a Markov chain) and :func:`tbsg.best_response`
(one player fixed: a Markov decision process) enumerate ``G|sigma`` only: "hold at 20" in
Pig to 100 reaches a small fraction of the 961,000 states of the game.

:class:`FixedStrategyGame` is that restriction, written against the game protocol (it is
itself a :class:`tbsg.Game`): the solvers and the certificate see nothing else.
:func:`tbsg.verify` rebuilds it from the solution's own recorded strategy, so a solution
of ``evaluate`` or ``best_response`` certifies the values of the profile it records.

A game with an array form (:mod:`tbsg.model.arrays`) is enumerated a batch of states at a
time, and its fixed restriction too (:meth:`FixedStrategyGame.array_transitions`); then
the strategy, a Python function asked once per state, is most of the cost of a chain. An
:class:`ArrayStrategy` adds to the function (still the definition, and all that
certifying code sees) an array form that chooses for a whole batch at once; its choices
are checked as an array form of a game is: each must be legal, and on the states the
compiler compares with the plain protocol, the function's.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from itertools import repeat
from typing import Any, Generic, TypeVar, cast

import numpy as np
import numpy.typing as npt

from tbsg.errors import InvalidGameError, InvalidStrategyError, TbsgError, shorten, show
from tbsg.model.arrays import ArrayAction, ArrayTransitions, untrusted_reason
from tbsg.model.protocol import Game, Probability, Terminal, player_function, reward_function

__all__ = ["ArrayStrategy", "FixedStrategyGame", "StrategyLike"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

StrategyLike = Mapping[S, A] | Callable[[S], A]
"""A stationary strategy: a mapping or a function from state to action (an
:class:`ArrayStrategy` is such a function, with an array form)."""


ArrayChoice = Callable[[npt.NDArray[np.int64]], npt.ArrayLike]
"""``array_function(states) -> codes`` of an :class:`ArrayStrategy`."""


class ArrayStrategy(Generic[S, A]):
    """A stationary strategy with an array form: ``function(state)`` is the definition,
    ``array_function(states)`` the same choices for many states at once.

    A strategy is asked once per state its player moves at; for a game with an array form
    (:mod:`tbsg.model.arrays`) that, with its checks, is the one remaining Python work per
    state of the enumeration. Where the game's array form is used, ``array_function``
    receives the ``(n, d)`` int64 array of states (row ``r`` is ``tuple(s)``) and returns
    ``n`` ints, positions in ``actions`` (the action chosen at each row), which lets the
    states be enumerated in boxes (:mod:`tbsg.engine.compile.arrays`). Everywhere else
    (the plain protocol) the strategy is ``function``.

    Trust: as an array form is checked against the plain protocol, the choices of
    ``array_function`` are checked: every one must be a legal action of its state (else
    ``function`` is asked there, and its own choice decides the message), and once the
    game is compiled ``function`` is asked at every fixed player's state, in one pass, and
    must choose what ``array_function`` chose
    (:meth:`FixedStrategyGame.check_array_choices`): a result records the strategy it was
    computed with, so a sample would let a value for another strategy be reported and
    certified. A difference is an :class:`~tbsg.errors.InvalidStrategyError` naming the
    state.

    Parameters
    ----------
    function : callable
        ``function(state) -> action``: the strategy.
    array_function : callable
        ``array_function(states) -> codes``: an int array of shape ``(n,)``, ``codes[r]``
        the position in ``actions`` of the action chosen at row ``r``.
    actions : sequence
        The actions ``array_function`` chooses among (distinct, hashable; at least one).

    Examples
    --------
    Risk or Safety: toss until the first head, then stop (``s.open`` is column 1).

    >>> import tbsg
    >>> from tbsg.games import risk_or_safety
    >>> bank = ArrayStrategy(lambda s: "stop" if s.open >= 1 else "toss",
    ...                      lambda rows: rows[:, 1] >= 1, ("toss", "stop"))
    >>> bank(risk_or_safety(3).initial)
    'toss'
    >>> tbsg.chain(risk_or_safety(3), bank).value() == tbsg.chain(risk_or_safety(3), bank.function).value()
    True
    """

    def __init__(self, function: Callable[[S], A], array_function: ArrayChoice,
                 actions: Sequence[A]) -> None:
        if not callable(function) or not callable(array_function):
            raise InvalidStrategyError(
                "ArrayStrategy needs a function state -> action and an array function states -> "
                f"codes, got {type(function).__name__} and {type(array_function).__name__}")
        acts = tuple(actions) if isinstance(actions, Sequence) and not isinstance(actions, str) else None
        try:
            distinct = acts is not None and len(set(acts)) == len(acts) > 0
        except TypeError:
            distinct = False
        if not distinct:
            raise InvalidStrategyError(
                f"ArrayStrategy's actions must be a non-empty sequence of distinct hashable "
                f"actions (what the codes of array_function stand for), got {show(actions)}")
        self.function = function
        self.array_function = array_function
        self.actions: tuple[A, ...] = cast("tuple[A, ...]", acts)

    def __call__(self, state: S) -> A:
        return self.function(state)

    def codes(self, rows: npt.NDArray[np.int64], name: str = "strategy") -> npt.NDArray[np.int64]:
        """``array_function(rows)``, checked: ints of shape ``(len(rows),)`` within
        ``range(len(actions))`` (bools are read as 0 and 1)."""
        try:
            raw = np.asarray(self.array_function(rows))
        except TbsgError:
            raise
        except Exception as exc:
            raise InvalidStrategyError(
                f"the array function of {name} raised {type(exc).__name__}: {shorten(str(exc))} "
                f"(on {len(rows)} states from {show(tuple(rows[0].tolist()))})") from exc
        if raw.dtype.kind not in "iub" or raw.shape != (len(rows),):
            raise InvalidStrategyError(
                f"the array function of {name} must return an int array of shape ({len(rows)},) "
                f"(positions in its actions), got {raw.dtype} {raw.shape}")
        codes = raw.astype(np.int64, copy=False)
        bad = np.flatnonzero((codes < 0) | (codes >= len(self.actions)))
        if bad.size:
            r = int(bad[0])
            raise InvalidStrategyError(
                f"the array function of {name} returned code {int(codes[r])} at state "
                f"{show(tuple(rows[r].tolist()))}; codes are positions in its actions "
                f"{show(self.actions)}")
        return codes

    def __repr__(self) -> str:
        return f"ArrayStrategy({show(self.function, 40)}, actions={show(self.actions, 40)})"


class FixedStrategyGame(Generic[S, A]):
    """``game`` with the players ``fixed`` (0, 1 or both) playing ``strategy``.

    Parameters
    ----------
    game : Game
    strategy : Mapping or callable
        The action of a fixed player at each of her states; a state with a single action
        may be left out of a mapping. The strategy must be stationary: asked twice about
        one state, it must give the same action (the enumeration may ask twice, e.g. to
        check an array form against the plain protocol); a strategy that does not is
        refused, naming the state.
    fixed : tuple of int
        The players whose moves ``strategy`` gives.
    name : str
        What to call ``strategy`` in error messages.

    Examples
    --------
    >>> import tbsg
    >>> from tbsg.games import risk_or_safety
    >>> game = risk_or_safety(2)
    >>> chain = FixedStrategyGame(game, lambda s: "toss", (0, 1))
    >>> tbsg.solve(chain).value()
    Fraction(4, 7)
    """

    def __init__(self, game: Game[S, A], strategy: StrategyLike[S, A], fixed: tuple[int, ...],
                 name: str = "strategy") -> None:
        if isinstance(strategy, Mapping):
            self._lookup: Callable[[S], A] = _from_mapping(strategy, name)
        elif callable(strategy):
            self._lookup = strategy
        else:
            raise InvalidStrategyError(
                f"{name} must be a mapping or a callable state -> action, got {type(strategy).__name__}")
        self.game = game
        self.fixed = fixed
        self.name = name
        self.initial: S = game.initial
        self.player: Callable[[S], int] = player_function(game)
        reward = reward_function(game)
        if reward is not None:  # a reward game stays one: the compiler looks for the method
            self.reward: Callable[[S, A], object] = reward
        self.outcomes: Callable[[S, A], Iterable[tuple[Probability, S | Terminal]]] = game.outcomes
        # looked up once: actions() runs once per state of the enumeration
        self._actions: Callable[[S], Sequence[A]] = game.actions
        self._all_fixed = 0 in fixed and 1 in fixed
        self._singles: dict[int, tuple[A]] = {}  # id(action) -> (action,), a few reused tuples
        # the strategy's first answer at each state asked: a second, different answer is the
        # strategy's fault, not the game's (the enumeration asks some states twice)
        self._answers: dict[S, A] = {}
        # an array form of the strategy, and whether it has chosen (then the states asked
        # one by one, the compiler's sample among them, compare it with the function)
        self._array: ArrayStrategy[S, A] | None = strategy if isinstance(strategy, ArrayStrategy) else None
        self._array_used = False
        self._luts: dict[tuple[object, ...], npt.NDArray[np.int64]] = {}

    def actions(self, state: S) -> Sequence[A]:
        """The strategy's action at a fixed player's state (as the game's own object),
        else the game's actions."""
        acts = self._actions(state)
        if not self._all_fixed and self.player(state) not in self.fixed:
            return acts
        try:
            chosen = self._lookup(state)
        except _Missing:
            if len(acts) == 1:  # a forced move needs no entry
                return acts
            raise InvalidStrategyError(
                f"{self.name} has no action for state {show(state)} (player "
                f"{show(self.player(state))} moves there; legal actions: "
                f"{show(tuple(acts))})") from None
        except TbsgError:
            raise
        except Exception as exc:
            raise InvalidStrategyError(
                f"{self.name} raised {type(exc).__name__}: {shorten(str(exc))} at state "
                f"{show(state)}") from exc
        for a in acts:  # the same object: no call of the game's __eq__
            if a is chosen:
                return self._single(self._agreed(state, self._first(state, a)))
        for a in acts:
            try:
                same = bool(a == chosen)
            except Exception:
                same = False
            if same:
                return self._single(self._agreed(state, self._first(state, a)))
        raise InvalidStrategyError(
            f"{self.name} chooses {show(chosen)} at state {show(state)}, which is not a legal "
            f"action there; legal actions: {show(tuple(acts))}")

    @property
    def array_shape(self) -> tuple[int, ...] | None:
        """The game's ``array_shape`` when it offers the array form (:mod:`tbsg.model.arrays`),
        else None: the fixed game then offers it too (:meth:`array_transitions`)."""
        if not callable(getattr(self.game, "array_transitions", None)) or untrusted_reason(self.game):
            return None
        shape: tuple[int, ...] | None = getattr(self.game, "array_shape", None)
        return shape

    @property
    def array_speculation(self) -> bool:
        """Whether the compiler may ask :meth:`array_transitions` about boxes of cells
        (:mod:`tbsg.engine.compile.arrays`): where the game's array form accepts any row
        (its ``array_any_row`` is True), and only with an :class:`ArrayStrategy` (a
        function would be asked once per cell). A fixed strategy makes the states few and
        the breadth-first levels many and narrow, which boxes enumerate at a fraction of
        the waves' cost; the game itself, whose levels are wide, keeps the waves."""
        return self._array is not None and getattr(self.game, "array_any_row", False) is True

    def array_transitions(self, states: Any) -> ArrayTransitions:
        """The game's array form with the fixed players' rows keeping only their
        strategy's action.

        A strategy that is a Python function (or mapping) of a state is asked row by row,
        with the checks of :meth:`actions` (:meth:`_choices`); an :class:`ArrayStrategy`
        chooses for all rows at once (:meth:`_array_choices`). Everything else, the free
        player's rows and every outcome, stays at numpy speed.
        """
        t: ArrayTransitions = self.game.array_transitions(states)  # type: ignore[attr-defined]
        player = np.asarray(t.player)
        mine = player == self.fixed[0]
        for f in self.fixed[1:]:
            mine |= player == f
        every = bool(mine.all())
        rows = None if every else np.flatnonzero(mine)
        if rows is not None and not rows.size:
            return t
        labels = tuple(act.label for act in t.actions)
        sub = np.asarray(states) if rows is None else np.asarray(states)[rows]
        if self._array is not None:
            picks: Any = self._array_choices(sub, t, labels, rows)
        else:
            by_label: dict[object, int] = {}
            for j, label in enumerate(labels):
                by_label.setdefault(label, j)
            picks = self._choices(sub.tolist(), list(labels), by_label)
        if rows is None:  # every row a fixed player's: no free rows to keep
            chosen = np.asarray(picks, dtype=np.int64)
            keep = [chosen == j for j in range(len(labels))]
        else:
            chosen = np.full(len(player), -1, dtype=np.int64)  # -1: a free player's row
            chosen[rows] = picks
            free = chosen < 0
            keep = [free | (chosen == j) for j in range(len(labels))]
        acts = tuple(ArrayAction(act.label, act.outcomes, k if act.allowed is None
                                 else np.asarray(act.allowed, dtype=bool) & k)
                     for act, k in zip(t.actions, keep, strict=True))
        return ArrayTransitions(player=t.player, actions=acts, terminals=t.terminals)

    def _array_choices(self, sub: npt.NDArray[np.int64], t: ArrayTransitions, labels: tuple[object, ...],
                       rows: npt.NDArray[np.intp] | None) -> npt.NDArray[np.int64]:
        """The position in ``labels`` of the :class:`ArrayStrategy`'s action at each of the
        fixed players' rows ``sub`` (``rows`` of the batch; None: all of them).

        A row whose code names no action of the array form, or an action not allowed
        there, is asked through :meth:`actions`, whose checks and messages decide (the
        function's choice is illegal too, or differs from the array form's).
        """
        strategy = cast("ArrayStrategy[S, A]", self._array)
        self._array_used = True
        lut = self._luts.get(labels)
        if lut is None:
            where: dict[object, int] = {}
            for j, label in enumerate(labels):
                where.setdefault(label, j)
            lut = self._luts[labels] = np.array([where.get(a, -1) for a in strategy.actions],
                                                 dtype=np.int64)
        picks = lut[strategy.codes(sub, self.name)]
        legal = picks >= 0
        for j, act in enumerate(t.actions):
            if act.allowed is not None:
                allowed = np.asarray(act.allowed, dtype=bool)
                legal &= (picks != j) | (allowed if rows is None else allowed[rows])
        if not legal.all():
            kind = type(self.initial)
            for r in np.flatnonzero(~legal).tolist():
                row = sub[r].tolist()
                state = cast("S", tuple(row) if kind is tuple else _new_tuple(kind, row))
                self.actions(state)  # raises: illegal, or not the array form's choice
                raise InvalidGameError(
                    f"the array form of {type(self.game).__name__} does not allow "
                    f"{show(strategy.actions[int(strategy.codes(sub[r : r + 1], self.name)[0])])} "
                    f"at state {show(state)} (its actions: {show(labels)}), which actions() "
                    "lists there")
        return picks

    def check_array_choices(self, states: Sequence[S], player: npt.NDArray[np.int8],
                            act_ptr: npt.NDArray[np.int64], act_labels: Sequence[object]) -> None:
        """After a compilation in which the :class:`ArrayStrategy` chose in bulk, ask its
        function (the definition) at every fixed player's state and compare each answer
        with the one action the state kept (the array function's choice).

        A sample cannot see the other states, and a solution records the strategy it was
        computed with, not the function: an array function that differs from the function
        anywhere would otherwise give a best response to another strategy than the one
        the user wrote, certified as such. One call of the function per state, in one
        pass; the first difference is asked through :meth:`actions`, whose checks and
        messages decide (:class:`~tbsg.errors.InvalidStrategyError` naming the state).
        """
        if self._array is None or not self._array_used:
            return
        at = np.flatnonzero(np.isin(player, self.fixed))  # each keeps one action, its first
        picked = [states[i] for i in at.tolist()]
        chosen = [act_labels[k] for k in act_ptr[at].tolist()]
        try:
            answers = list(map(self._array.function, picked))
            if answers == chosen:  # (identity, then ==, element by element)
                return
        except Exception:  # the state-by-state pass below names the state
            pass
        for state, a in zip(picked, chosen, strict=True):
            self.actions(state)  # raises where the function fails or differs
            try:
                same = self._array.function(state) == a
            except Exception:
                same = False
            if not same:
                raise InvalidStrategyError(
                    f"{self.name} is an ArrayStrategy whose function and array function "
                    f"disagree at state {show(state)}: the array function chooses {show(a)}")

    def _agreed(self, state: S, a: A) -> A:
        """``a``, the strategy's function's choice at ``state``, after checking that the
        strategy's array form (once it has been used) makes the same choice there."""
        strategy = self._array
        if strategy is None or not self._array_used:
            return a
        try:
            row = np.array([state], dtype=np.int64).reshape(1, -1)
        except (TypeError, ValueError, OverflowError):
            return a  # not a state of the array form: the function alone decides
        mine = strategy.actions[int(strategy.codes(row, self.name)[0])]
        try:
            same = mine is a or bool(mine == a)
        except Exception:
            same = False
        if not same:
            raise InvalidStrategyError(
                f"{self.name} is an ArrayStrategy whose function and array function disagree at "
                f"state {show(state)}: the function chooses {show(a)}, the array function "
                f"{show(mine)}; both must describe the same strategy")
        return a

    def _choices(self, rows: list[list[int]], labels: list[object], by_label: dict[object, int]) -> list[int]:
        """The position in ``labels`` of the strategy's action at each of the fixed
        players' ``rows``.

        In bulk: the states built at C speed, ``game.actions`` and the strategy asked
        once per state (through ``map``), the choice found among the legal actions by
        ``in`` and recorded as the state's first answer. A row where any of that fails or
        needs a closer look (an exception, an illegal or unknown action, an answer that
        differs from an earlier one) is asked again through :meth:`actions`, whose
        checks and messages decide.
        """
        kind = type(self.initial)
        new = cast("Callable[[type, list[int]], S]", tuple.__new__)
        states = cast("list[S]", list(map(tuple, rows))) if kind is tuple \
            else list(map(new, repeat(kind), rows))
        try:
            legal = list(map(self._actions, states))
            wanted = list(map(self._lookup, states))
            ok = list(map(operator.contains, legal, wanted))
            picks = list(map(by_label.get, wanted))
            firsts = list(map(self._answers.setdefault, states, wanted))
        except Exception:
            return [self._choice(s, labels, by_label) for s in states]
        if all(ok) and None not in picks and all(map(operator.is_, firsts, wanted)):
            return cast("list[int]", picks)
        return [p if k and p is not None and f is w else self._choice(s, labels, by_label)
                for p, k, f, w, s in zip(picks, ok, firsts, wanted, states, strict=True)]

    def _choice(self, state: S, labels: list[object], by_label: dict[object, int]) -> int:
        """The position in ``labels`` of the strategy's action at ``state``, asked through
        :meth:`actions` (its checks and messages)."""
        action = self.actions(state)[0]
        pick = by_label.get(action)
        if pick is None:
            raise InvalidGameError(
                f"the array form of {type(self.game).__name__} has no action {show(action)} "
                f"(its actions: {show(tuple(labels))}), which actions() lists at state "
                f"{show(state)}")
        return pick

    def _first(self, state: S, a: A) -> A:
        """``a``, the legal action the strategy names at ``state``, after checking that it
        is the action the strategy named the first time it was asked about ``state``.

        The game's own action objects are compared (the compiler checked that they
        compare), so a strategy returning equal but distinct objects is stationary.
        """
        try:
            first = self._answers.setdefault(state, a)
        except Exception:  # an unhashable state: the compiler names it (it is no state)
            return a
        try:
            same = first is a or bool(first == a)
        except Exception:  # actions that do not compare: the compiler names them
            same = True
        if not same:
            raise InvalidStrategyError(
                f"{self.name} chose {show(first)} at state {show(state)} and, asked again, "
                f"{show(a)}: a stationary strategy gives the same action every time a state "
                "is asked (a random or stateful function is not one: fix its choices first, "
                "e.g. in a dict from state to action)")
        return a

    def _single(self, a: A) -> tuple[A]:
        """``(a,)``, the same tuple object each time for the first few actions met (the
        compiler recognises a tuple it has checked already by identity)."""
        single = self._singles.get(id(a))
        if single is None:
            single = (a,)
            if len(self._singles) < _SINGLES:  # (the tuple keeps ``a`` alive: its id stays valid)
                self._singles[id(a)] = single
        return single


_new_tuple = cast("Callable[[type, list[int]], tuple[int, ...]]", tuple.__new__)

_SINGLES = 64  # actions whose one-action tuples FixedStrategyGame reuses


class _Missing(KeyError):
    """A mapping strategy has no entry for a state."""


def _from_mapping(mapping: Mapping[S, A], name: str) -> Callable[[S], A]:
    def lookup(state: S) -> A:
        try:
            return mapping[state]
        except KeyError:
            raise _Missing(state) from None
        except TypeError as exc:
            raise InvalidStrategyError(f"looking up state {show(state)} in {name} raised "
                                       f"TypeError: {shorten(str(exc))}") from exc

    return lookup
