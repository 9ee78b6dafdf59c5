"""Independent oracles shared by the property tests: plain-Fraction linear algebra and
enumeration of pure stationary profiles, written without any tbsg code, plus small
hand-built games used in more than one test file."""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction

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
