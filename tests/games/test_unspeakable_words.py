"""Unspeakable Words end game (seed 004): the printed d6 tables recomputed exactly.

Known answers name where the post prints them (seed 004: its tables and remarks). Values
it does not print, pinned from tbsg's own output to catch regressions, are marked
``# regression pin: tbsg's own output, not a source value``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import pytest

import tbsg
from tbsg.errors import InvalidGameError
from tbsg.games.unspeakable_words import (
    UnspeakableWords,
    UWState,
    unspeakable_words,
    unspeakable_words_tables,
)
from tbsg.sources import unspeakable_words as source
from tbsg.sources.check import decimal_match

# seed 004, table "aMove" (rows a = 0..6, columns b = 0..6), as printed (written out
# again here, independently of tbsg.sources.unspeakable_words.A_MOVE)
A_MOVE = [
    [0, 0, 0, 0, 0, 0, 0],
    [1, 1, 1, 1, 1, 1, 1],
    [1, 2, 2, 2, 2, 1, 1],
    [1, 3, 3, 3, 1, 1, 1],
    [1, 4, 4, 1, 1, 1, 1],
    [1, 5, 1, 1, 1, 1, 1],
    [1, 1, 1, 1, 1, 1, 1],
]

# seed 004, table "aValue", as printed
A_VALUE = [
    "1.000 1.000 1.000 1.000 1.000 1.000 1.000",
    "0.000 0.833 0.833 0.833 0.833 0.833 0.833",
    "0.000 0.667 0.667 0.667 0.667 0.694 0.718",
    "0.000 0.500 0.500 0.500 0.556 0.602 0.621",
    "0.000 0.333 0.333 0.417 0.486 0.525 0.557",
    "0.000 0.167 0.278 0.370 0.428 0.476 0.503",
    "0.000 0.139 0.255 0.332 0.396 0.436 0.470",
]


def test_amove_table_d6() -> None:
    # seed 004, "aMove" (optimal bet for a, smallest among ties as the post's code keeps)
    moves, _ = unspeakable_words_tables(6)
    assert [[moves[a, b] for b in range(7)] for a in range(7)] == A_MOVE


def test_avalue_table_d6() -> None:
    # seed 004, "aValue" (a's probability of winning, a to move), all 3 printed decimals
    _, values = unspeakable_words_tables(6)
    for a in range(7):
        for b, printed in enumerate(A_VALUE[a].split()):
            assert decimal_match(printed, values[a, b]), (a, b, printed, values[a, b])


def test_source_rows() -> None:
    # seed 004's two d6 tables, as `tbsg reproduce` shows them
    rows = source.checks()
    assert len(rows) == 2
    assert all(r.match for r in rows), [r for r in rows if not r.match]
    assert source.KNOWN_DISCREPANCIES == ()
    assert source.A_VALUE.splitlines() == A_VALUE
    assert [[int(x) for x in row.split()] for row in source.A_MOVE.splitlines()] == A_MOVE


def test_diagonal_claims_d6() -> None:
    # seed 004: "entries on the diagonal that are less than 1/2" (a = b = 4, 5, 6), and with
    # the less-than bust rule "you do always want to move first" (weakly: (4, 4) is 1/2)
    _, values = unspeakable_words_tables(6)
    assert [a for a in range(1, 7) if values[a, a] < Fraction(1, 2)] == [4, 5, 6]
    assert values[3, 3] == Fraction(1, 2)  # printed 0.500; exactly 1/2 is tbsg's own finding
    _, less = unspeakable_words_tables(6, bust="less_than")
    assert all(less[a, a] >= Fraction(1, 2) for a in range(1, 7))
    # regression pin: tbsg's own output, not a source value (the post says nothing of (4, 4))
    assert [a for a in range(1, 7) if less[a, a] == Fraction(1, 2)] == [4]


def test_exact_values() -> None:
    _, values = unspeakable_words_tables(6)
    assert values[1, 1] == Fraction(5, 6)  # by hand: a bets 1 and busts on a 1 only
    # regression pins: tbsg's own output, not source values (seed 004 prints 0.470 for
    # aValue[6, 6] and 0.694 for aValue[2, 5], checked above)
    assert values[6, 6] == Fraction(43835, 93312)
    sol = tbsg.solve(unspeakable_words(2, 5))
    assert sol.value() == Fraction(25, 36) and sol.optimal_actions() == (1,)


# --- beyond the source: the post's own code, ported, as an independent float check ---


class _PostCode:
    """The post's memoised aVal/bVal (Python 2 code), ported; bets 1..min(points, cap)."""

    def __init__(self, size: int, bust_fn: Callable[[int], float], cap: int | None) -> None:
        nan = float("nan")
        self.bust_fn, self.cap = bust_fn, cap
        self.a_move = [[0] * (size + 1) for _ in range(size + 1)]
        self.a_value = [[nan] * (size + 1) for _ in range(size + 1)]
        self.b_value = [[nan] * (size + 1) for _ in range(size + 1)]

    def bets(self, points: int) -> range:
        return range(1, (points if self.cap is None else min(points, self.cap)) + 1)

    def a_val(self, a: int, b: int) -> float:
        if not math.isnan(self.a_value[a][b]):
            return self.a_value[a][b]
        best_move, best = 0, float("nan")
        if a <= 0:
            best = 1.0
        else:
            for move in self.bets(a):
                value = (1 - self.bust_fn(move)) * self.b_val(a - move, b)
                if math.isnan(best) or value > best:
                    best_move, best = move, value
        self.a_move[a][b], self.a_value[a][b] = best_move, best
        return best

    def b_val(self, a: int, b: int) -> float:
        if not math.isnan(self.b_value[a][b]):
            return self.b_value[a][b]
        best = float("nan")
        if b <= 0:
            best = 0.0
        else:
            for move in self.bets(b):
                p = self.bust_fn(move)
                value = p + (1 - p) * self.a_val(a, b - move)
                if math.isnan(best) or value < best:
                    best = value
        self.b_value[a][b] = best
        return best


def _post_code(n: int, bust_fn: Callable[[int], float], size: int | None = None,
               cap: int | None = None) -> tuple[list[list[int]], list[list[float]]]:
    """The post's ``aMove`` and ``aValue`` tables for ``0 <= a, b <= size`` (default ``n``)."""
    size = n if size is None else size
    code = _PostCode(size, bust_fn, cap)
    for i in range(size + 1):
        for j in range(size + 1):
            code.a_val(i, j)
    return code.a_move, code.a_value


def _at_most(n: int) -> Callable[[int], float]:
    return lambda m: min(1.0, m / float(n))


def _less_than(n: int) -> Callable[[int], float]:
    return lambda m: min(1.0, (m - 1) / float(n))


@pytest.mark.parametrize(("die", "bust"), [(6, "at_most"), (6, "less_than"), (4, "at_most"),
                                           (20, "at_most"), (20, "less_than")])
def test_matches_post_code(die: int, bust: str) -> None:
    # includes the real game's d20 (beyond the post's printed d6 tables)
    fn = _at_most(die) if bust == "at_most" else _less_than(die)
    post_moves, post_values = _post_code(die, fn)
    moves, values = unspeakable_words_tables(die, die, bust)  # type: ignore[arg-type]
    float_tie_breaks = []
    for a in range(die + 1):
        for b in range(die + 1):
            assert float(values[a, b]) == pytest.approx(post_values[a][b], abs=1e-12)
            if moves[a, b] != post_moves[a][b]:
                # the post's float code broke an exact tie by rounding: its bet is optimal too
                sol = tbsg.solve(unspeakable_words(a, b, die, bust))  # type: ignore[arg-type]
                assert post_moves[a][b] in sol.optimal_actions(), (a, b)
                assert moves[a, b] == min(sol.optimal_actions())
                float_tie_breaks.append((a, b))
    assert float_tie_breaks == FLOAT_TIE_BREAKS[die, bust]


# cells where the post's code (floats) keeps a larger bet than the smallest exactly optimal
# regression pin: tbsg's own output, not a source value (the post does not print them)
FLOAT_TIE_BREAKS = {
    (6, "at_most"): [], (4, "at_most"): [], (20, "at_most"): [],  # no exact ties at all
    (6, "less_than"): [(3, 5), (5, 3)],
    (20, "less_than"): [(15, 7), (18, 4), (20, 2)],
}


def test_d20_diagonal() -> None:
    # beyond the source: with the real game's d20, moving first at a = b is a disadvantage
    # from 11 points up and exactly even at 10; under less_than it is never a disadvantage
    # regression pin: tbsg's own output, not a source value
    _, values = unspeakable_words_tables(20, die=20)
    assert values[10, 10] == Fraction(1, 2)
    assert [a for a in range(1, 21) if values[a, a] < Fraction(1, 2)] == list(range(11, 21))
    _, less = unspeakable_words_tables(20, die=20, bust="less_than")
    assert [a for a in range(1, 21) if less[a, a] <= Fraction(1, 2)] == [11]
    assert less[11, 11] == Fraction(1, 2)


def test_bets_above_die_never_help() -> None:
    # the post's code allows bets up to the points (above the die they surely bust); the
    # game here caps bets at the die, as the post's rules say: same values and moves
    post_moves, post_values = _post_code(4, _at_most(4), size=9)
    capped_moves, capped_values = _post_code(4, _at_most(4), size=9, cap=4)
    assert post_moves == capped_moves
    assert post_values == capped_values
    moves, values = unspeakable_words_tables(9, die=4)
    for a in range(10):
        for b in range(10):
            assert float(values[a, b]) == pytest.approx(post_values[a][b], abs=1e-12)
            assert moves[a, b] == post_moves[a][b]


class _OnePlayer:
    """seed 004's one-player game: get rid of ``points`` before busting (d``die``)."""

    def __init__(self, points: int, die: int) -> None:
        self.initial, self.die = points, die

    def player(self, s: int) -> int:
        return 0

    def actions(self, s: int) -> tuple[int, ...]:
        return tuple(range(1, min(s, self.die) + 1))

    def outcomes(self, s: int, bet: int) -> list[tuple[Fraction, int | tbsg.Terminal]]:
        q = Fraction(bet, self.die)
        return [(q, tbsg.win(1)), (1 - q, tbsg.win(0) if bet == s else s - bet)]


def test_one_player_claims() -> None:
    # seed 004: in the one-player game "the optimal bet is always 1 point" (true, and the
    # only optimal bet from 2 points up), but "value(a) = (1-1/n)^(a-1)" is off by one
    # under the post's bust rule: the exact value is (1 - 1/n)^a (value(1) = 5/6 for a d6,
    # since a bet of 1 busts on a roll of 1), consistent with its "value(n) near e^-1".
    for die in (6, 20):
        sol = tbsg.solve(_OnePlayer(3 * die, die))
        for a in range(1, 3 * die + 1):
            assert sol.value(a) == (1 - Fraction(1, die)) ** a
            assert sol.optimal_actions(a) == (1,)


def test_rules() -> None:
    game = unspeakable_words(8, 3, die=6)
    assert game.actions(UWState(0, 8, 3)) == (1, 2, 3, 4, 5, 6)
    assert game.actions(UWState(1, 8, 3)) == (1, 2, 3)
    assert game.bust_probability(6) == 1
    assert UnspeakableWords(1, 1, 6, "less_than").bust_probability(1) == 0
    out = game.outcomes(UWState(1, 8, 3), 3)
    assert out == [(Fraction(1, 2), tbsg.win(0)), (Fraction(1, 2), tbsg.win(1))]
    for args in ((0, 1), (1, 0), (1, 1, 0), (2.0, 1)):
        with pytest.raises(InvalidGameError):
            unspeakable_words(*args)
    with pytest.raises(InvalidGameError):
        unspeakable_words(1, 1, 6, "less")  # type: ignore[arg-type]
