"""Independent oracles shared by the property tests: plain-Fraction linear algebra and
enumeration of pure stationary profiles, written without any tbsg code, plus small
hand-built games used in more than one test file."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import tbsg
from strategies import TableGame

Profile = dict[int, Hashable]


def gauss_jordan(mat: list[list[Fraction]]) -> list[Fraction]:
    """Solve the square system given as an augmented matrix (rows ``[A | b]``), exactly.

    The matrix is modified in place; the system must be non-singular.
    """
    m = len(mat)
    for c in range(m):
        piv = next(r for r in range(c, m) if mat[r][c] != 0)
        mat[c], mat[piv] = mat[piv], mat[c]
        inv = 1 / mat[c][c]
        mat[c] = [e * inv for e in mat[c]]
        for r in range(m):
            f = mat[r][c]
            if r != c and f != 0:
                mat[r] = [e - f * ec for e, ec in zip(mat[r], mat[c], strict=True)]
    return [row[m] for row in mat]


def all_profiles(game: TableGame, states: Sequence[int]) -> list[Profile]:
    """Every pure stationary profile over ``states``."""
    return [dict(zip(states, choice, strict=True))
            for choice in itertools.product(*(game.actions(s) for s in states))]


def max_min(game: TableGame, values_of: Callable[[Profile], dict[int, Fraction]],
            fixed: Profile | None = None) -> dict[int, Fraction]:
    """max over player 0 of min over player 1, state by state, over pure stationary profiles.

    ``values_of(profile)`` gives the exact values of a full profile (the caller's oracle);
    ``fixed`` pins some states' actions (used for best responses).
    """
    states = game.reachable()
    fixed = fixed or {}
    own = [[s for s in states if game.player(s) == who and s not in fixed] for who in (0, 1)]
    best: dict[int, Fraction] | None = None
    for c0 in all_profiles(game, own[0]):
        worst: dict[int, Fraction] | None = None
        for c1 in all_profiles(game, own[1]):
            v = values_of({**fixed, **c0, **c1})
            worst = v if worst is None else {s: min(worst[s], v[s]) for s in states}
        assert worst is not None
        best = worst if best is None else {s: max(best[s], worst[s]) for s in states}
    assert best is not None
    return best


@dataclass(frozen=True)
class Wait:
    """A game that need not end: "start" (chance) leads with probability 1/2 to "lobby",
    else player 1 wins; at "lobby" player 0 may "wait" there for ever or "leave" (a draw)."""

    initial: str = "start"

    def player(self, s: str) -> int:
        return 0

    def actions(self, s: str) -> tuple[str, ...]:
        return ("go",) if s == "start" else ("wait", "leave")

    def outcomes(self, s: str, a: str) -> list[tuple[Fraction, object]]:
        half = Fraction(1, 2)
        if s == "start":
            return [(half, "lobby"), (half, tbsg.win(1))]
        return [(Fraction(1), "lobby")] if a == "wait" else [(Fraction(1), tbsg.DRAW)]


@dataclass(frozen=True)
class PingPong:
    """Two states passing play to each other for ever with probability 1: no terminal."""

    initial: str = "ping"

    def player(self, s: str) -> int:
        return 0 if s == "ping" else 1

    def actions(self, s: str) -> tuple[str, ...]:
        return ("hit",)

    def outcomes(self, s: str, a: str) -> list[tuple[int, str]]:
        return [(1, "pong" if s == "ping" else "ping")]
