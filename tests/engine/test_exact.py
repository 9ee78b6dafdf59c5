"""The exact solver's fast paths agree exactly with its general paths.

Two paths of :mod:`tbsg.engine.exact` exist only for speed, and each is checked here
against the general code it replaces, on random games with exact ties and near ties
below float resolution (values, chosen actions and every optimal action compared with
``==``), and against the brute-force oracle of :mod:`tbsg.testing`:

* acyclic levels valued with integers over a power of one base (:mod:`tbsg.engine.adic`)
  instead of backend rationals action by action;
* components solved on integer numerators over one denominator
  (:class:`tbsg.engine.linalg.IntegerPlan`, :func:`tbsg.engine._backend.lowest_terms`)
  instead of in backend rationals: the replay against the rational plan it comes from, the
  lowest terms against ``Fraction``, and whole solves against the brute-force oracle;
* the acyclic part of a system eliminated first (:func:`tbsg.engine.linalg.feedback_states`).

The size thresholds that choose the paths are lowered so that small random games take
them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tbsg
from strategies import TableGame
from tbsg.engine import _backend as bk
from tbsg.engine import adic, exact, linalg
from tbsg.engine.adic import AdicValues
from tbsg.engine.compile import compile_game
from tbsg.engine.linalg import Plan
from tbsg.testing import brute_force, games

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@contextmanager
def general_path() -> Iterator[None]:
    """Every acyclic level valued the general way (the integer path declines)."""
    with patch.object(AdicValues, "action_numerators", lambda self, ks: None):
        yield


@contextmanager
def thresholds(vector_min: int = 1, narrow: int = exact._NARROW_ADIC,
               integer_bits: int = exact._INTEGER_BITS) -> Iterator[None]:
    # integer_bits=0: every component replayed on integers, so that small random games take
    # the integer path
    with patch.object(exact, "_VECTOR_MIN", vector_min), patch.object(exact, "_NARROW_ADIC", narrow), \
            patch.object(exact, "_INTEGER_BITS", integer_bits):
        yield


def snapshot(sol: Any) -> tuple[list[Fraction], list[int], list[bool]]:
    return list(sol.values_exact), sol.choice.tolist(), sol.optimal.tolist()


def acyclic_games(max_states: int = 12) -> st.SearchStrategy[TableGame]:
    return games(states=(1, max_states), actions=(1, 3), outcomes=(1, 4), cycles=False,
                 payoffs="rational", ties=True, near_ties=True, tiny=True)


def mixed_games() -> st.SearchStrategy[TableGame]:
    return games(states=(1, 9), actions=(1, 3), outcomes=(1, 4), cycles=True,
                 payoffs="rational", ties=True, near_ties=True, tiny=True, max_profiles=200)


# --- the integer path of acyclic levels -------------------------------------------------

@SETTINGS
@given(acyclic_games(), st.sampled_from([1, 2, 3]))
def test_integer_levels_agree_with_the_general_path(game: TableGame, vector_min: int) -> None:
    with thresholds(vector_min=vector_min):
        fast = snapshot(tbsg.solve(game))
        with general_path():
            slow = snapshot(tbsg.solve(game))
    assert fast == slow


@SETTINGS
@given(mixed_games(), st.sampled_from([1, 2]), st.sampled_from([0, 1, 256]))
def test_integer_levels_beside_cycles_agree_with_brute_force(game: TableGame, vector_min: int,
                                                             narrow: int) -> None:
    """Levels above solved cycles: their values are not B-adic, the level falls back."""
    with thresholds(vector_min=vector_min, narrow=narrow):
        sol = tbsg.solve(game)
        with general_path():
            slow = snapshot(tbsg.solve(game))
    assert snapshot(sol) == slow
    assert sol.values == brute_force(game).values


@SETTINGS
@given(acyclic_games(), st.data())
def test_integer_levels_in_evaluate_and_best_response(game: TableGame, data: st.DataObject) -> None:
    profile = {s: data.draw(st.sampled_from(game.actions(s)), label=f"action at {s}")
               for s in game.reachable()}
    player = data.draw(st.integers(0, 1), label="optimising player")
    def both() -> list[Any]:
        return [snapshot(tbsg.evaluate(game, profile)), snapshot(tbsg.best_response(game, player, profile))]

    with thresholds():
        fast = both()
        with general_path():
            slow = both()
    assert fast == slow


def test_integer_path_is_taken_on_a_coin_game() -> None:
    """Coinball (dyadic, acyclic): every wide level goes the integer way, and agrees."""
    from tbsg.games import coinball

    calls: list[bool] = []
    original = AdicValues.action_numerators

    def spy(self: AdicValues, ks: Any) -> Any:
        out = original(self, ks)
        calls.append(out is not None)
        return out

    with thresholds(vector_min=8), patch.object(AdicValues, "action_numerators", spy):
        fast = snapshot(tbsg.solve(coinball(12)))
    assert calls and all(calls)
    with general_path():
        assert snapshot(tbsg.solve(coinball(12))) == fast


def test_large_prime_denominators() -> None:
    """Probabilities 1/1031 and 1/1033 (primes beyond the trial division): the cofactor
    becomes part of the base, and 1/1031 alone is found through the direct search."""
    p, q = Fraction(1, 1031), Fraction(1, 1033)

    class Chain:
        initial = 0

        def player(self, s: int) -> int:
            return s % 2

        def actions(self, s: int) -> tuple[str, ...]:
            return ("a", "b")

        def outcomes(self, s: int, a: str) -> list[tuple[Fraction, Any]]:
            nxt: Any = s + 1 if s < 40 else tbsg.win(0)
            if a == "a":
                return [(p, tbsg.win(1)), (1 - p, nxt)]
            return [(q, tbsg.win(1)), (q, tbsg.DRAW), (1 - 2 * q, nxt)]

    with thresholds():
        fast = tbsg.solve(Chain())
        with general_path():
            slow = tbsg.solve(Chain())
    assert snapshot(fast) == snapshot(slow)
    values = AdicValues(compile_game(Chain()), [])
    assert values.base == 2 * 1031 * 1033  # (a draw pays 1/2)
    assert values.f_tab.tolist() == [values._table_exponent(x.denominator) for x in values.g.rationals]


def test_base_and_exponents() -> None:
    base, factors = adic._base([4, 6, 35, 1])
    assert (base, factors) == (210, [2, 3, 5, 7])
    values = AdicValues.__new__(AdicValues)
    values.base, values.factors = base, factors
    assert values.exponent(bk.Q(2**5 * 3**2 * 7).numerator) == 5
    assert values.exponent(bk.Q(11).numerator) == adic._NOT
    assert values.exponent(bk.Q(1).numerator) == 0
    assert values._table_exponent(4) == 2
    assert adic._base([1]) == (1, [])


@pytest.mark.parametrize("x, p", [(1, 2), (2**70 * 3, 2), (3**41 * 5, 3), (7, 7), (10**30, 10),
                                  (6**9 * 11, 6), (5, 3), (2**64, 2), (3**80, 3)])
def test_remove(x: int, p: int) -> None:
    y, m = bk.remove(x, p)
    assert y * p**m == x and y % p != 0
    assert bk._remove_int(x, p) == (int(y), m)


# --- components on integers over one denominator -----------------------------------------

@SETTINGS
@given(mixed_games())
def test_integer_components_agree_with_rational_ones(game: TableGame) -> None:
    with thresholds(vector_min=64, integer_bits=0):
        whole = tbsg.solve(game)
    with thresholds(vector_min=64, integer_bits=1 << 30):
        rational = snapshot(tbsg.solve(game))
    assert snapshot(whole) == rational
    assert whole.values == brute_force(game).values


@st.composite
def systems(draw: st.DrawFn, max_m: int = 8) -> tuple[list[dict[int, Fraction]], list[int]]:
    """Sparse substochastic rows (mass at most 1/2 each: the system stops) with cycles,
    self-loops and chains, and an integer right-hand side (zeros included)."""
    m = draw(st.integers(1, max_m))
    frac = st.fractions(min_value=0, max_value=1, max_denominator=12)
    rows: list[dict[int, Fraction]] = []
    for _ in range(m):
        weights = {c: draw(frac) for c in draw(st.sets(st.integers(0, m - 1), max_size=3))}
        total = sum(weights.values(), Fraction(0))
        if total > Fraction(1, 2):
            weights = {c: w / (2 * total) for c, w in weights.items()}
        rows.append({c: w for c, w in weights.items() if w})
    rhs = [draw(st.one_of(st.just(0), st.integers(-10**30, 10**30))) for _ in range(m)]
    return rows, rhs


@SETTINGS
@given(systems(), st.integers(1, 10**40))
def test_integer_plan_replays_the_rational_plan(system: tuple[list[dict[int, Fraction]], list[int]],
                                                scale: int) -> None:
    """``v = n / (den * D)`` from the integer replay equals the rational plan on ``n / D``."""
    rows, nums = system
    rational = linalg.plan([dict(r) for r in rows]).run([Fraction(n, scale) for n in nums])
    ip = linalg.integer_plan(linalg.plan([{j: bk.from_fraction(c) for j, c in r.items()} for r in rows]))
    out = ip.run(list(nums))
    assert [Fraction(int(n), d * scale) for n, d in zip(out, ip.den, strict=True)] == rational
    assert bk.lowest_terms(list(nums), [1] * len(nums), scale) == [Fraction(n, scale) for n in nums]


def test_integer_plan_of_a_chain_reading_one_feedback_state() -> None:
    """A hand-solved chain: ``v2 = 1/2 + v0/3``, ``v1 = v2/2``, ``v0 = 1 + v1/2`` (state 0
    closes the cycle). Substituting: ``v0 = 1 + (1/2 + v0/3)/4 = 9/8 + v0/12``, so
    ``v0 = 27/22``, ``v2 = 1/2 + 9/22 = 10/11``, ``v1 = 5/11``."""
    rows = [{1: Fraction(1, 2)}, {2: Fraction(1, 2)}, {0: Fraction(1, 3)}]
    assert linalg.feedback_states([dict(r) for r in rows]) == ([2, 1], [0])
    ip = linalg.integer_plan(linalg.plan([{j: bk.from_fraction(c) for j, c in r.items()} for r in rows]))
    out = ip.run([2, 0, 1])  # b = (1, 0, 1/2) over D = 2
    assert [Fraction(int(n), d * 2) for n, d in zip(out, ip.den, strict=True)] == \
        [Fraction(27, 22), Fraction(5, 11), Fraction(10, 11)]


@SETTINGS
@given(st.lists(st.tuples(st.integers(-10**60, 10**60), st.integers(1, 10**6)), min_size=1, max_size=8),
       st.integers(1, 10**50), st.sampled_from([0, 1, 2]))
def test_lowest_terms(pairs: list[tuple[int, int]], big: int, shared: int) -> None:
    """Against ``Fraction``; ``shared`` makes numerators share ``big`` (1) or some of its
    factors (2), so that the batch gcd is not 1."""
    factor = [1, big, math.gcd(big, 2**40 * 3**20 * 10007)][shared]
    nums = [n * factor for n, _ in pairs]
    small = [s for _, s in pairs]
    out = bk.lowest_terms(list(nums), small, big)
    assert out == [Fraction(n, s * big) for n, s in zip(nums, small, strict=True)]
    assert all(bk.to_fraction(x) == Fraction(n, s * big) for x, n, s in zip(out, nums, small, strict=True))
    assert all(bk.is_canonical(x) or type(x) is Fraction for x in out)


@SETTINGS
@given(systems())
def test_feedback_states_leave_an_acyclic_order(system: tuple[list[dict[int, Fraction]], list[int]]) -> None:
    rows, _ = system
    order, core = linalg.feedback_states(rows)
    assert sorted(order + core) == list(range(len(rows)))
    done: set[int] = set(core)
    for s in order:  # successors first: every state read is a feedback state or done
        assert set(rows[s]) <= done
        done.add(s)


# --- elimination plans shared by components of one shape -------------------------------------

class Ladder:
    """Rungs ``0..n-1`` of two states each, ``(r, 0)`` (player 0) and ``(r, 1)`` (player 1),
    a cycle between them: every rung is a component of the same shape, with other values
    below it (``(r + 1, 0)``) and its own payoffs (``1/(r + 2)``)."""

    initial = (0, 0)

    def __init__(self, n: int) -> None:
        self.n = n

    def player(self, s: tuple[int, int]) -> int:
        return s[1]

    def actions(self, s: tuple[int, int]) -> tuple[str, ...]:
        return ("safe", "bold")

    def outcomes(self, s: tuple[int, int], a: str) -> list[tuple[Fraction, Any]]:
        r, who = s
        down: Any = (r + 1, 0) if r + 1 < self.n else tbsg.DRAW
        pay = tbsg.Terminal(Fraction(1, r + 2))
        if a == "safe":
            return [(Fraction(1, 3), (r, 1 - who)), (Fraction(1, 3), down), (Fraction(1, 3), pay)]
        winner = tbsg.win(0) if who == 0 else tbsg.win(1)
        return [(Fraction(1, 2), (r, 1 - who)), (Fraction(1, 4), winner), (Fraction(1, 4), down)]


@pytest.mark.parametrize("integer_bits", [0, 1 << 30])
def test_components_of_one_shape_share_a_plan_and_agree(integer_bits: int) -> None:
    game = Ladder(30)
    made: list[int] = []
    original = linalg.plan

    def counting(rows: Any) -> Plan[Any]:
        made.append(len(rows))
        return original(rows)

    with patch.object(exact, "plan", counting), thresholds(vector_min=64, integer_bits=integer_bits):
        shared = tbsg.solve(game)
        assert sum(made) < 2 * 30  # fewer plans than components: shapes repeat
        with patch.object(exact, "_PLANS", 0):
            alone = tbsg.solve(game)
    assert snapshot(shared) == snapshot(alone)
    small = tbsg.solve(Ladder(4))
    assert small.values == brute_force(Ladder(4)).values


def test_negated_rewards_played_by_the_minimiser_negate_every_value() -> None:
    """Issue 24: OneTurn (tests/oracles.py) with every reward negated and its one player
    minimising has, by the Bellman equation (min of -Q is -max of Q), the value -v at every
    state and the same optimal actions: on 65 states of wide acyclic levels, with values up
    to 64, the filtered exact decisions (bound scaled by the values) must agree."""
    from oracles import OneTurn

    class Negated(OneTurn):
        def player(self, s: int) -> int:
            return 1

        def reward(self, s: int, a: str) -> int:
            return -super().reward(s, a)

    mine, theirs = tbsg.solve(OneTurn(60)), tbsg.solve(Negated(60))
    assert all(mine.value(t) == -theirs.value(t) for t in mine.states)
    assert all(mine.optimal_actions(t) == theirs.optimal_actions(t) for t in mine.states)
    assert mine.optimal_actions(20) == ("bank", "roll")


class _BigTie:
    """At "s" player 0 may "take" 10**6 + 1/3 now (a reward) or "draw" a lot: with
    probability 1/3 play reaches "t", worth 3 * 10**6 + 1, else it ends with nothing.
    By hand both are worth exactly 10**6 + 1/3 (an exact tie), but their float values
    differ by about 1e-10: far above the filter's bound for values in [0, 1] (about
    2e-15), within the bound scaled by the values' magnitude (tbsg.engine.bellman)."""

    initial = "s"

    def actions(self, s: str) -> tuple[str, ...]:
        return ("take", "draw") if s == "s" else ("cash",)

    def reward(self, s: str, a: str) -> Fraction:
        return {"take": 10**6 + Fraction(1, 3), "cash": Fraction(3 * 10**6 + 1)}.get(a, Fraction(0))

    def outcomes(self, s: str, a: str) -> list[tuple[Fraction, str | tbsg.Terminal]]:
        if a == "draw":
            return [(Fraction(1, 3), "t"), (Fraction(2, 3), tbsg.Terminal(0))]
        return [(Fraction(1), tbsg.Terminal(0))]


def test_an_exact_tie_of_large_values_is_found() -> None:
    sol = tbsg.solve(_BigTie())
    assert sol.value() == 10**6 + Fraction(1, 3)
    assert sol.optimal_actions() == ("take", "draw")
    tbsg.verify(_BigTie(), sol)
