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
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from itertools import repeat
from typing import Any, Generic, TypeVar, cast

import numpy as np

from tbsg.errors import InvalidGameError, InvalidStrategyError, TbsgError, shorten, show
from tbsg.model.arrays import ArrayAction, ArrayTransitions, untrusted_reason
from tbsg.model.protocol import Game, Probability, Terminal, player_function, reward_function

__all__ = ["FixedStrategyGame", "StrategyLike"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

StrategyLike = Mapping[S, A] | Callable[[S], A]
"""A stationary strategy: a mapping or a function from state to action."""


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
                return self._single(self._first(state, a))
        for a in acts:
            try:
                same = bool(a == chosen)
            except Exception:
                same = False
            if same:
                return self._single(self._first(state, a))
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

    def array_transitions(self, states: Any) -> ArrayTransitions:
        """The game's array form with the fixed players' rows keeping only their
        strategy's action.

        The strategy is a Python function (or mapping) of a state, so it is asked row by
        row, with the checks of :meth:`actions` (:meth:`_choices`); everything else, the
        free player's rows and every outcome, stays at numpy speed.
        """
        t: ArrayTransitions = self.game.array_transitions(states)  # type: ignore[attr-defined]
        player = np.asarray(t.player)
        mine = player == self.fixed[0]
        for f in self.fixed[1:]:
            mine |= player == f
        rows = np.flatnonzero(mine)
        if not rows.size:
            return t
        labels = [act.label for act in t.actions]
        by_label: dict[object, int] = {}
        for j, label in enumerate(labels):
            by_label.setdefault(label, j)
        if len(rows) == len(player):  # every row a fixed player's: no free rows to keep
            chosen = np.array(self._choices(np.asarray(states).tolist(), labels, by_label), dtype=np.int64)
            keep = [chosen == j for j in range(len(labels))]
        else:
            chosen = np.full(len(player), -1, dtype=np.int64)  # -1: a free player's row
            chosen[rows] = self._choices(np.asarray(states)[rows].tolist(), labels, by_label)
            free = chosen < 0
            keep = [free | (chosen == j) for j in range(len(labels))]
        acts = tuple(ArrayAction(act.label, act.outcomes, k if act.allowed is None
                                 else np.asarray(act.allowed, dtype=bool) & k)
                     for act, k in zip(t.actions, keep, strict=True))
        return ArrayTransitions(player=t.player, actions=acts, terminals=t.terminals)

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
