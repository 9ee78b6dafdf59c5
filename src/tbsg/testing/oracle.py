"""A brute-force oracle for small games, independent of tbsg's solvers.

:func:`brute_force` computes the exact value of every reachable state of a small game by
the definition, sharing no code with :func:`tbsg.solve`, :func:`tbsg.evaluate` or
:func:`tbsg.verify` (only the game model: :class:`~tbsg.Terminal` and the check that
numbers are exact):

1. enumerate the reachable states by breadth-first search through the game's own
   ``player``, ``actions`` and ``outcomes``;
2. for every pure stationary profile (one action per state), solve the linear system
   ``v = b + P v`` of that profile exactly, by Gaussian elimination on Python integers
   (:func:`solve_linear_system`);
3. take, state by state, the maximum over player 0's profiles of the minimum over
   player 1's.

Why this is the value: in a stopping game both players have optimal strategies that are
pure and stationary (Shapley 1953; Condon 1992), optimal from every state at once, and
against a fixed pure stationary strategy the other player has a pure stationary best
response (a Markov decision process). So for each state, ``max over player 0's pure
stationary profiles of min over player 1's`` is the value. With ``infinite_play=c``
(never-ending play pays ``c``) the same holds by Liggett and Lippman (1969): play that
never ends is a limit average ``c``, and under a fixed profile a state from which no
terminal can be reached is worth ``c``.

Rewards (a game's optional ``reward(state, action)``) are added to each action's
expected terminal payoff: ``b`` of a profile is then the expected immediate payoff, and
the same argument holds for the expected total (a stopping game has optimal pure
stationary strategies for total rewards too: Filar and Vrieze 1997, chapter 4). A
profile under which play can stay forever among states that pay a reward has no finite
total, and the oracle refuses the game (:class:`tbsg.NonStoppingGameError`), as
:func:`tbsg.solve` does. A game without ``player`` is player 0's everywhere.

Cost: ``P`` linear systems of ``n`` unknowns, ``O(P * n**3)`` exact operations, where
``n`` is the number of reachable states and ``P`` the number of pure stationary profiles,
the product of the action counts over the states (those pinned by ``fixed=`` count 1).
The default limits, ``max_states=32`` and ``max_profiles=1024``, keep a call short
enough for a test suite; above them the oracle raises :class:`tbsg.StateLimitError`
before solving anything (raise them knowingly: the time grows with ``P * n**3``). Use it
on small variants of your game (a small target score, a die with few faces).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, Protocol, TypeVar

from tbsg.errors import (
    InvalidArgumentError,
    InvalidGameError,
    InvalidStrategyError,
    NonStoppingGameError,
    StateLimitError,
    show,
)
from tbsg.model.protocol import Game, Terminal, exact, infinite_play_payoff, player_function, reward_function

__all__ = [
    "MAX_PROFILES",
    "MAX_STATES",
    "BruteForce",
    "brute_force",
    "max_min",
    "profile_values",
    "pure_profiles",
    "solve_linear_system",
]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)
S_contra = TypeVar("S_contra", bound=Hashable, contravariant=True)
A_co = TypeVar("A_co", bound=Hashable, covariant=True)

#: Default limit on the reachable states :func:`brute_force` enumerates.
MAX_STATES = 32
#: Default limit on the pure stationary profiles :func:`brute_force` solves.
MAX_PROFILES = 1024


class _Initial:
    def __repr__(self) -> str:
        return "<initial state>"


_INITIAL: Any = _Initial()


def solve_linear_system(augmented: Sequence[Sequence[Fraction | int]]) -> list[Fraction]:
    """Solve a square linear system exactly, given as an augmented matrix ``[A | b]``.

    Each row is scaled to integers, eliminated without fractions (Bareiss: every division
    is exact, and the entries stay minors of the matrix, so they grow no faster than the
    determinant), and the triangular system is solved by back substitution in
    :class:`~fractions.Fraction`. Plain Python integers throughout: no tbsg code.

    Parameters
    ----------
    augmented : sequence of rows
        ``m`` rows of ``m + 1`` exact numbers (``int`` or ``Fraction``): the coefficients
        and the right-hand side. The input is not modified.

    Returns
    -------
    list of Fraction
        The unique solution ``x`` of ``A x = b``.

    Raises
    ------
    ValueError
        If the rows have the wrong length or the system is singular.

    Examples
    --------
    ``x + y = 3`` and ``x - y = 1/2``:

    >>> solve_linear_system([[1, 1, 3], [1, -1, Fraction(1, 2)]])
    [Fraction(7, 4), Fraction(5, 4)]
    """
    m = len(augmented)
    mat: list[list[int]] = []
    for row in augmented:
        if len(row) != m + 1:
            raise ValueError(f"solve_linear_system needs {m} rows of {m + 1} numbers ([A | b])")
        exact_row = [Fraction(e) for e in row]
        scale = math.lcm(*(e.denominator for e in exact_row))
        mat.append([e.numerator * (scale // e.denominator) for e in exact_row])
    return _solve_integer(mat)


def _solve_integer(mat: list[list[int]]) -> list[Fraction]:
    """Solve ``[A | b]`` given in integers (modified in place): Bareiss elimination, then
    back substitution for ``det(A) x``, an integer vector (``adj(A) b``)."""
    m = len(mat)
    previous = 1
    for k in range(m):
        piv = next((r for r in range(k, m) if mat[r][k] != 0), None)
        if piv is None:
            raise ValueError(f"singular system: no pivot in column {k}")
        mat[k], mat[piv] = mat[piv], mat[k]
        top = mat[k]
        pivot = top[k]
        for i in range(k + 1, m):
            row = mat[i]
            f = row[k]
            if f == 0:
                mat[i] = [x * pivot // previous for x in row]
            else:
                mat[i] = [(x * pivot - f * t) // previous for x, t in zip(row, top, strict=True)]
        previous = pivot
    det = previous if m else 1  # the last pivot is det(A), up to the sign of the row swaps
    y = [0] * m  # y = det * x: integers, and every division below is exact
    for i in range(m - 1, -1, -1):
        row = mat[i]
        rest = sum(row[j] * y[j] for j in range(i + 1, m))
        y[i] = (det * row[m] - rest) // row[i]
    return [Fraction(v, det) for v in y]


class _Moves(Protocol[S_contra, A_co]):
    """What :func:`max_min` needs of a game: who moves, and the actions."""

    def player(self, state: S_contra, /) -> int: ...

    def actions(self, state: S_contra, /) -> Sequence[A_co]: ...


def pure_profiles(game: _Moves[S, A], states: Sequence[S]) -> Iterator[dict[S, A]]:
    """Every pure stationary profile over ``states``: one action per state, as a dict.

    >>> from tbsg.testing import TableGame
    >>> import tbsg
    >>> end = ((1, tbsg.DRAW),)
    >>> g = TableGame((0, 1), ((("a", end), ("b", end)), (("x", end), ("y", end))))
    >>> list(pure_profiles(g, [0, 1]))
    [{0: 'a', 1: 'x'}, {0: 'a', 1: 'y'}, {0: 'b', 1: 'x'}, {0: 'b', 1: 'y'}]
    """
    for choice in itertools.product(*(tuple(game.actions(s)) for s in states)):
        yield dict(zip(states, choice, strict=True))


def max_min(game: _Moves[S, A], states: Sequence[S],
            values_of: Callable[[dict[S, A]], Mapping[S, Fraction]],
            fixed: Mapping[S, A] | None = None) -> dict[S, Fraction]:
    """Max over player 0's pure stationary profiles of min over player 1's, state by state.

    The building block of :func:`brute_force`, for an oracle of your own profile values.

    Parameters
    ----------
    game : object with ``player(state)`` and ``actions(state)``
    states : sequence
        The states the profiles cover (the reachable ones).
    values_of : callable
        ``values_of(profile)`` gives the exact values (to player 0) of a full profile, a
        dict from every state of ``states`` to its action.
    fixed : mapping, optional
        Actions pinned at some states: only the other states' players choose (with one
        player's states all pinned, the result is the other player's best response).
    """
    pinned = dict(fixed or {})
    own = [[s for s in states if game.player(s) == who and s not in pinned] for who in (0, 1)]
    best: dict[S, Fraction] | None = None
    for c0 in pure_profiles(game, own[0]):
        worst: dict[S, Fraction] | None = None
        for c1 in pure_profiles(game, own[1]):
            v = values_of({**pinned, **c0, **c1})
            worst = {s: v[s] for s in states} if worst is None else {
                s: min(worst[s], v[s]) for s in states}
        if worst is None:  # pragma: no cover - pure_profiles always yields at least once
            raise RuntimeError("no profile")
        best = worst if best is None else {s: max(best[s], worst[s]) for s in states}
    if best is None:  # pragma: no cover
        raise RuntimeError("no profile")
    return best


@dataclass(frozen=True)
class _Action:
    """One action, its outcomes merged: the expected terminal payoff ``pay``, the probability
    of each successor state (by index), and the same scaled to integers by ``scale`` (the
    common denominator) for the linear systems."""

    label: Hashable
    pay: Fraction
    to: dict[int, Fraction]
    stops: bool
    scale: int
    pay_int: int
    to_int: dict[int, int]
    reward: Fraction

    @classmethod
    def of(cls, label: Hashable, pay: Fraction, to: dict[int, Fraction], reward: Fraction) -> _Action:
        scale = math.lcm(pay.denominator, *(p.denominator for p in to.values()))
        return cls(label, pay, to, sum(to.values()) < 1, scale, int(pay * scale),
                   {j: int(p * scale) for j, p in to.items()}, reward)


class _Tables(Generic[S, A]):
    """A game's reachable states and actions, read once through its own methods."""

    def __init__(self, game: Game[S, A], max_states: int) -> None:
        initial = game.initial
        _hashable(initial, "the initial state")
        self.states: list[S] = [initial]
        self.index: dict[S, int] = {initial: 0}
        self.owner: list[int] = []
        self.moves: list[list[_Action]] = []
        self.reward = reward_function(game)
        self.win_probability = True  # every reward 0 and every payoff in [0, 1] so far
        player = player_function(game)
        i = 0
        while i < len(self.states):
            s = self.states[i]
            who = player(s)
            if isinstance(who, bool) or who not in (0, 1):
                raise InvalidGameError(f"player({show(s)}) must be 0 or 1, got {show(who)}")
            acts = list(game.actions(s))
            if not acts:
                raise InvalidGameError(f"state {show(s)} has no actions")
            self.owner.append(int(who))
            self.moves.append([self._action(game, s, a, max_states) for a in acts])
            i += 1

    def _action(self, game: Game[S, A], s: S, a: A, max_states: int) -> _Action:
        pay, total = Fraction(0), Fraction(0)
        to: dict[int, Fraction] = {}
        for p_raw, nxt in game.outcomes(s, a):
            p = exact(p_raw, f"probability at state {show(s)}, action {show(a)}")
            if p < 0:
                raise InvalidGameError(f"negative probability {show(p)} at state {show(s)}, "
                                       f"action {show(a)}")
            total += p
            if p == 0:
                continue
            if isinstance(nxt, Terminal):
                pay += p * nxt.payoff
                self.win_probability &= 0 <= nxt.payoff <= 1
                continue
            _hashable(nxt, f"a successor of state {show(s)}, action {show(a)}")
            j = self.index.get(nxt)
            if j is None:
                if len(self.states) >= max_states:
                    raise StateLimitError(
                        f"brute_force: more than max_states={max_states} reachable states; the "
                        f"oracle is for small games (O(profiles x states**3)): test a smaller "
                        f"variant, or raise max_states")
                j = self.index[nxt] = len(self.states)
                self.states.append(nxt)
            to[j] = to.get(j, Fraction(0)) + p
        if total != 1:
            raise InvalidGameError(f"probabilities sum to {show(total)}, not 1, at state {show(s)}, "
                                   f"action {show(a)}")
        w = Fraction(0) if self.reward is None else exact(
            self.reward(s, a), f"reward at state {show(s)}, action {show(a)}")
        self.win_probability &= w == 0
        return _Action.of(a, pay + w, to, w)

    def player(self, s: S) -> int:
        return self.owner[self.index[s]]

    def actions(self, s: S) -> list[A]:
        return [m.label for m in self.moves[self.index[s]]]  # type: ignore[misc]

    def chosen(self, profile: Mapping[S, A] | Callable[[S], A], s: S) -> _Action:
        """The action ``profile`` plays at ``s``, or an :class:`InvalidStrategyError`."""
        try:
            a = profile[s] if isinstance(profile, Mapping) else profile(s)
        except KeyError:
            raise InvalidStrategyError(f"the profile has no action for state {show(s)}") from None
        for m in self.moves[self.index[s]]:
            if m.label == a:
                return m
        raise InvalidStrategyError(f"the profile plays {show(a)} at state {show(s)}, which is not "
                                   f"one of its actions {show(self.actions(s))}")

    def values(self, profile: Mapping[S, A] | Callable[[S], A],
               infinite_play: Fraction | None) -> dict[S, Fraction]:
        """Exact values of a pure stationary profile (see :func:`profile_values`)."""
        acts = [self.chosen(profile, s) for s in self.states]
        n = len(acts)
        # states that reach a terminal under the profile: backwards from those that stop
        back: list[list[int]] = [[] for _ in range(n)]
        for i, act in enumerate(acts):
            for j in act.to:
                back[j].append(i)
        ends = [i for i, act in enumerate(acts) if act.stops]
        live = set(ends)
        while ends:
            j = ends.pop()
            for i in back[j]:
                if i not in live:
                    live.add(i)
                    ends.append(i)
        if len(live) < n and infinite_play is None:
            trapped = tuple(self.states[i] for i in range(n) if i not in live)
            raise NonStoppingGameError(
                f"play never ends from state {show(trapped[0])} under the pure profile "
                f"{show({s: self.chosen(profile, s).label for s in trapped})}: the game is not "
                f"stopping; give the payoff of never-ending play with infinite_play=", trapped)
        paying = [i for i in range(n) if i not in live and acts[i].reward]
        if paying:
            s = self.states[paying[0]]
            raise NonStoppingGameError(
                f"under the pure profile {show({t: self.chosen(profile, t).label for t in self.states})} "
                f"play can stay forever among states that pay rewards, e.g. {show(s)}: no finite "
                "expected total", (s,))
        order = sorted(live)
        pos = {i: r for r, i in enumerate(order)}
        c = infinite_play if infinite_play is not None else Fraction(0)
        size = len(order)
        rows: list[list[int]] = []
        for i in order:  # (I - P) v = b, row i times its common denominator (and c's)
            act = acts[i]
            row = [0] * (size + 1)
            row[pos[i]] = act.scale * c.denominator
            rhs = act.pay_int * c.denominator
            for j, p in act.to_int.items():
                if j in pos:
                    row[pos[j]] -= p * c.denominator
                else:  # a state from which play never ends: worth c
                    rhs += p * c.numerator
            row[size] = rhs
            rows.append(row)
        solved = dict(zip(order, _solve_integer(rows), strict=True))
        return {s: solved.get(i, c) for i, s in enumerate(self.states)}


def _hashable(x: object, what: str) -> None:
    try:
        hash(x)
    except TypeError:
        raise InvalidGameError(f"{what} must be hashable, got {show(x)}") from None


def _limit(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidArgumentError(f"{name} must be a positive int, got {show(value)}")
    return value


def profile_values(game: Game[S, A], profile: Mapping[S, A] | Callable[[S], A], *,
                   infinite_play: Fraction | int | None = None,
                   max_states: int = MAX_STATES) -> dict[S, Fraction]:
    """Exact values of a pure stationary profile: one exact linear system per profile.

    Compare with :func:`tbsg.evaluate`.

    Parameters
    ----------
    game : tbsg.Game
    profile : mapping or callable
        The action at every reachable state.
    infinite_play : Fraction or int, optional
        The payoff of never-ending play; states from which the profile reaches no
        terminal are worth it. Without it such a state is a
        :class:`tbsg.NonStoppingGameError`.
    max_states : int
        Limit on the reachable states.

    Returns
    -------
    dict
        The value to player 0 of every reachable state, in discovery order.

    Examples
    --------
    >>> import tbsg
    >>> from tbsg.testing import TableGame
    >>> half = Fraction(1, 2)
    >>> g = TableGame((0,), ((("stop", ((1, tbsg.DRAW),)), ("go", ((half, tbsg.win(0)), (half, 0)))),))
    >>> profile_values(g, {0: "go"}), profile_values(g, {0: "stop"})
    ({0: Fraction(1, 1)}, {0: Fraction(1, 2)})
    """
    c = infinite_play_payoff(infinite_play)
    tables = _Tables(game, _limit("max_states", max_states))
    return tables.values(profile, c)


@dataclass(frozen=True)
class BruteForce(Generic[S]):
    """The exact values :func:`brute_force` found.

    Attributes
    ----------
    initial : state
        The game's initial state.
    values : dict
        The value to player 0 of every reachable state (in discovery order), comparable
        with ``==`` to :attr:`tbsg.Solution.values`.
    profiles : int
        The number of pure stationary profiles solved.
    """

    initial: S
    values: dict[S, Fraction]
    profiles: int
    win_probability: bool = True
    """Every reward 0 and every payoff (``infinite_play`` too) in [0, 1]: player 1's view
    is then ``1 - v``, else ``-v`` (:mod:`tbsg.model.protocol`)."""

    def value(self, state: S = _INITIAL, *, player: int = 0) -> Fraction:
        """The value of ``state`` (the initial state by default) to ``player`` (0 by default)."""
        if player not in (0, 1) or isinstance(player, bool):
            raise InvalidArgumentError(f"player must be 0 or 1, got {show(player)}")
        key = self.initial if state is _INITIAL else state
        try:
            v = self.values[key]
        except KeyError:
            raise InvalidArgumentError(f"{show(key)} is not a reachable state") from None
        return v if player == 0 else (1 if self.win_probability else 0) - v


def brute_force(game: Game[S, A], *, fixed: Mapping[S, A] | None = None,
                infinite_play: Fraction | int | None = None, max_states: int = MAX_STATES,
                max_profiles: int = MAX_PROFILES) -> BruteForce[S]:
    """The exact value of every reachable state of a small game, by enumerating profiles.

    Independent of tbsg's solvers (see the module docstring for the method and why it
    is right): use it to cross-check :func:`tbsg.solve` on small variants of your game,
    or your own code on random games (:func:`tbsg.testing.games`).

    Parameters
    ----------
    game : tbsg.Game
        Any game; every reachable state is enumerated.
    fixed : mapping, optional
        Actions pinned at some states (the others optimise): with every state of one
        player pinned, the values are those of the other player's best response
        (:func:`tbsg.best_response`); with every state pinned, of :func:`tbsg.evaluate`.
    infinite_play : Fraction or int, optional
        The payoff to player 0 of never-ending play, as in ``tbsg.solve(game,
        infinite_play=c)``. Without it, a profile that can keep play going for ever is a
        :class:`tbsg.NonStoppingGameError` (as in :func:`tbsg.solve`).
    max_states, max_profiles : int
        Size limits (see the module docstring): :class:`tbsg.StateLimitError` above them.

    Returns
    -------
    BruteForce
        ``.value()`` (the initial state's), ``.value(state)``, ``.values``, ``.profiles``.

    Raises
    ------
    tbsg.StateLimitError
        More reachable states or pure stationary profiles than the limits.
    tbsg.NonStoppingGameError
        A profile never ends and ``infinite_play`` is not given.
    tbsg.InvalidGameError, tbsg.ExactnessError, tbsg.InvalidStrategyError
        A malformed game (probabilities, players, no actions) or ``fixed`` entry.

    Examples
    --------
    Risk or Safety to 2 points (Jehn 2026, section 3.1 prints ``P(0,0,0) = 4/7``):

    >>> import tbsg
    >>> from tbsg.games import risk_or_safety
    >>> game = risk_or_safety(2)
    >>> oracle = brute_force(game)
    >>> oracle.value(), oracle.profiles
    (Fraction(4, 7), 16)
    >>> tbsg.solve(game).values == oracle.values
    True

    A game too large for the oracle says so before solving anything:

    >>> brute_force(risk_or_safety(3), max_states=100)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tbsg.errors.StateLimitError: brute_force: 262144 pure stationary profiles ... above max_profiles=1024; ...
    """
    c = infinite_play_payoff(infinite_play)
    limit = _limit("max_profiles", max_profiles)
    tables = _Tables(game, _limit("max_states", max_states))
    pinned: dict[S, A] = {}
    for s, a in (fixed or {}).items():
        if s not in tables.index:
            raise InvalidStrategyError(f"fixed names {show(s)}, which is not a reachable state")
        pinned[s] = tables.chosen({s: a}, s).label  # type: ignore[assignment]
    free = [s for s in tables.states if s not in pinned]
    counts = [len(tables.moves[tables.index[s]]) for s in free]
    profiles = math.prod(counts)
    if profiles > limit:
        choices = sum(k > 1 for k in counts)
        raise StateLimitError(
            f"brute_force: {profiles} pure stationary profiles (the product of the action "
            f"counts of {choices} states with a choice, among {len(tables.states)} reachable), "
            f"above max_profiles={limit}; the cost is profiles x states**3 exact operations: "
            f"test a smaller variant, or raise max_profiles")
    values = max_min(tables, tables.states, lambda prof: tables.values(prof, c), pinned)
    win = tables.win_probability and (c is None or 0 <= c <= 1)
    return BruteForce(tables.states[0], values, profiles, win)
