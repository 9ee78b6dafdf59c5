"""Games written the way a researcher writes them first: plainly, untuned.

These are the benchmark subjects of issue 13 ("a user's own game as fast as a
hand-written program"): no compact state, fresh ``Fraction`` objects in every call,
terminal payoffs built on the spot. They are *not* catalog games; each docstring says
which catalog game (or peer program) models the same thing.

:func:`protocol_floor` is the honest floor for such a game: the time to merely enumerate
it through its protocol (a dict-and-stack search calling ``player``, ``actions`` and
``outcomes`` once per state and action), with no validation and no solving.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import numpy as np

import tbsg
from tbsg import Terminal


class PlainCoinball:
    """Coinball as the seed's own program states it: ``(t, m, y)``, the caller's view.

    ``t`` tosses done, the caller (player ``t % 2``) has ``m`` points, the opponent
    ``y``; a rush is worth 1 point, a pass 2, to the caller with probability 1/2, else to
    the opponent; after ``tosses`` tosses most points wins, a tie is a draw. The state
    space is the seed program's (500,050 states for 100 tosses; the catalog's
    :func:`tbsg.games.coinball` keeps only the lead, 19,899 states).
    """

    def __init__(self, tosses: int = 100) -> None:
        self.tosses = tosses
        self.initial = (0, 0, 0)

    def player(self, s: tuple[int, int, int]) -> int:
        return s[0] % 2

    def actions(self, s: tuple[int, int, int]) -> tuple[str, ...]:
        return ("rush", "pass")

    def outcomes(self, s: tuple[int, int, int], a: str) -> list[tuple[Fraction, Any]]:
        t, m, y = s
        g = 1 if a == "rush" else 2
        return [(Fraction(1, 2), self._next(t, m + g, y)), (Fraction(1, 2), self._next(t, m, y + g))]

    def _next(self, t: int, m: int, y: int) -> Any:
        """After toss ``t``: the caller had ``m`` and the opponent ``y`` points."""
        if t + 1 == self.tosses:
            caller = t % 2
            if m == y:
                return tbsg.DRAW
            return tbsg.win(caller if m > y else 1 - caller)
        return (t + 1, y, m)


class PlainPig:
    """Pig (d6) as a first attempt: ``(mover, my score, their score, turn total)``.

    Roll: a 1 ends the turn with nothing banked; 2..6 add to the turn total (a win at the
    goal). Hold: bank the turn total and pass the turn. Hold at turn total 0 is allowed
    (as in Neller and Presser's model, which the catalog's :func:`tbsg.games.pig` follows).
    """

    def __init__(self, goal: int = 100) -> None:
        self.goal = goal
        self.initial = (0, 0, 0, 0)

    def player(self, s: tuple[int, int, int, int]) -> int:
        return s[0]

    def actions(self, s: tuple[int, int, int, int]) -> tuple[str, ...]:
        return ("roll", "hold")

    def outcomes(self, s: tuple[int, int, int, int], a: str) -> list[tuple[Fraction, Any]]:
        who, me, them, turn = s
        if a == "hold":
            return [(Fraction(1), (1 - who, them, me + turn, 0))]
        out: list[tuple[Fraction, Any]] = [(Fraction(1, 6), (1 - who, them, me, 0))]
        for face in range(2, 7):
            if me + turn + face >= self.goal:
                out.append((Fraction(1, 6), tbsg.win(who)))
            else:
                out.append((Fraction(1, 6), (who, me, them, turn + face)))
        return out


class PlainHog:
    """Hog (Pig with a choice of 1..``dice`` dice at once, one roll per turn).

    A roll of ``n`` dice scores their sum unless any die shows a 1 (then it scores 1);
    the turn always passes. The outcome distribution of the score is computed exactly
    per number of dice, as a user would, and every score is its own outcome (no merging
    of winning outcomes by hand).
    """

    def __init__(self, goal: int = 100, dice: int = 10) -> None:
        self.goal = goal
        self.dice = dice
        self.initial = (0, 0, 0)
        self._dist = {n: _hog_scores(n) for n in range(1, dice + 1)}

    def player(self, s: tuple[int, int, int]) -> int:
        return s[0]

    def actions(self, s: tuple[int, int, int]) -> tuple[int, ...]:
        return tuple(range(1, self.dice + 1))

    def outcomes(self, s: tuple[int, int, int], a: int) -> list[tuple[Fraction, Any]]:
        who, me, them = s
        out: list[tuple[Fraction, Any]] = []
        for score, p in self._dist[a].items():
            nxt: Any = tbsg.win(who) if me + score >= self.goal else (1 - who, them, me + score)
            out.append((p, nxt))
        return out


class ArrayHog(PlainHog):
    """:class:`PlainHog` with the array form as well (``tbsg.ArrayTransitions``): what a
    researcher adds once the plain game is right, to compile a batch of states at once.

    The state ``(who, me, them)`` lies in ``(2, goal, goal)``; each number of dice is an
    action offered everywhere, each score an outcome with the same probability at every
    state, ending play with ``win(who)`` where ``me + score >= goal``.
    """

    @property
    def array_shape(self) -> tuple[int, int, int]:
        return (2, self.goal, self.goal)

    def array_transitions(self, states: Any) -> tbsg.ArrayTransitions:
        who, me, them = states.T
        acts = []
        for n in range(1, self.dice + 1):
            outs = []
            for score, p in self._dist[n].items():
                nxt = np.stack([1 - who, them, me + score], axis=1)
                outs.append(tbsg.ArrayOutcome(p, nxt, terminal=np.where(me + score >= self.goal, who, -1)))
            acts.append(tbsg.ArrayAction(n, tuple(outs)))
        return tbsg.ArrayTransitions(player=who, actions=tuple(acts),
                                     terminals=(tbsg.win(0), tbsg.win(1)))


class ArrayCoinball(PlainCoinball):
    """:class:`PlainCoinball` with the array form as well: ``(t, m, y)`` in
    ``(tosses, 2 tosses + 1, 2 tosses + 1)``; both actions everywhere, two outcomes each."""

    @property
    def array_shape(self) -> tuple[int, int, int]:
        return (self.tosses, 2 * self.tosses + 1, 2 * self.tosses + 1)

    def array_transitions(self, states: Any) -> tbsg.ArrayTransitions:
        t, m, y = states.T
        caller = t % 2
        last = t + 1 == self.tosses
        half = Fraction(1, 2)

        def after(mine: Any, theirs: Any) -> tbsg.ArrayOutcome:
            # terminals: 0 win(0), 1 win(1), 2 DRAW
            end = np.where(mine == theirs, 2, np.where(mine > theirs, caller, 1 - caller))
            return tbsg.ArrayOutcome(half, np.stack([t + 1, theirs, mine], axis=1),
                                     terminal=np.where(last, end, -1))

        acts = tuple(tbsg.ArrayAction(name, (after(m + g, y), after(m, y + g)))
                     for name, g in (("rush", 1), ("pass", 2)))
        return tbsg.ArrayTransitions(player=caller, actions=acts,
                                     terminals=(tbsg.win(0), tbsg.win(1), tbsg.DRAW))


def _hog_scores(n: int) -> dict[int, Fraction]:
    """Distribution of a roll of ``n`` dice in Hog: 1 if any die shows 1, else the sum."""
    ways: dict[int, int] = {0: 1}
    for _ in range(n):
        nxt: dict[int, int] = {}
        for total, w in ways.items():
            for face in range(2, 7):
                nxt[total + face] = nxt.get(total + face, 0) + w
        ways = nxt
    total_ways = 6**n
    dist = {score: Fraction(w, total_ways) for score, w in ways.items()}
    dist[1] = Fraction(total_ways - 5**n, total_ways)
    return dist


class Line:
    """A deep game: ``length`` states in a row, one player, no choice.

    With ``stop=True`` each step ends play (a win for player 0) with probability 1/2,
    else moves on; without, each step moves on with probability 1 and the last one wins.
    Every state is its own strongly connected component: the worst case for per-level
    overhead.
    """

    def __init__(self, length: int = 8000, *, stop: bool = False) -> None:
        self.length = length
        self.stop = stop
        self.initial = 0

    def player(self, s: int) -> int:
        return s % 2

    def actions(self, s: int) -> tuple[str, ...]:
        return ("go",)

    def outcomes(self, s: int, a: str) -> list[tuple[Fraction, Any]]:
        nxt: Any = tbsg.win(0) if s + 1 == self.length else s + 1
        if self.stop:
            return [(Fraction(1, 2), tbsg.win(1)), (Fraction(1, 2), nxt)]
        return [(Fraction(1), nxt)]


def protocol_floor(game: Any) -> tuple[float, int]:
    """Seconds to enumerate ``game`` through its protocol, and the number of states.

    A dict-and-stack search calling ``player`` once per state and ``actions`` and
    ``outcomes`` once per state and action, storing nothing but the state numbering: no
    validation, no arrays, no solving. What any tool reading the game through this
    protocol must pay at least.
    """
    start = time.perf_counter()
    seen: dict[Hashable, int] = {game.initial: 0}
    stack = [game.initial]
    player, actions, outcomes = game.player, game.actions, game.outcomes
    while stack:
        s = stack.pop()
        player(s)
        for a in actions(s):
            for _p, nxt in outcomes(s, a):
                if not isinstance(nxt, Terminal) and nxt not in seen:
                    seen[nxt] = len(seen)
                    stack.append(nxt)
    return time.perf_counter() - start, len(seen)
