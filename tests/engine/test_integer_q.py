"""Exact action values and signs in integer arithmetic: the same numbers and signs as the
definition summed term by term in ``Fraction`` arithmetic, on hand-built and random games
(rewards, scores, ties, near ties, tiny probabilities), at the solution's values (every
played action a tie) and at values moved off them by amounts down to far below the
fixed-point filter's resolution; and the filter never decides a sign the exact path
would not."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any
from unittest.mock import patch

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tbsg
from tbsg.engine import _backend as bk
from tbsg.engine import integer_q
from tbsg.engine.compile import compile_game
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.integer_q import _filtered_signs, _scale_of, _Values, exact_action_signs, exact_action_values
from tbsg.testing import TableGame, games

F = Fraction
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# amounts a value is moved by: none, far above and far below the filter's 2**-50 or so, huge
SHIFTS = [F(0), F(1, 3), F(-1, 7), F(1, 2**40), F(-1, 2**62), F(1, 3 * 2**70), F(-5, 2**200),
          F(10**30), F(-(10**25), 3)]


def _definition(g: CompiledGame[Any, Any], v: Sequence[Fraction], k: int) -> Fraction:
    """``Q_v(k) = c_k + sum_o p_o v(t_o)``, term by term in Fraction arithmetic."""
    q = g.act_const[k]
    for o in range(int(g.out_ptr[k]), int(g.out_ptr[k + 1])):
        q += g.out_prob[o] * v[int(g.out_target[o])]
    return q


def _filter(g: CompiledGame[Any, Any], v: list[Fraction]) -> npt.NDArray[np.int8]:
    """The fixed-point filter's signs alone (2: left to the exact path)."""
    vals = _Values(v, None)
    assert vals.full is not None
    return _filtered_signs(g, _scale_of(g), vals.full, vals.dens)


def _sign(x: Fraction) -> int:
    return (x > 0) - (x < 0)


def _check(g: CompiledGame[Any, Any], v: list[Fraction]) -> None:
    want_q = [_definition(g, v, k) for k in range(g.n_actions)]
    want_sign = [_sign(q - v[int(g.act_state[k])]) for k, q in enumerate(want_q)]
    # over the common denominator where it is short (these values' usually is), else as below
    assert exact_action_signs(g, v).tolist() == want_sign
    assert exact_action_values(g, v) == want_q
    with patch.object(integer_q, "_MAX_DIGITS", 0):  # no common denominator: filter, exact path
        _check_exact_path(g, v, want_q, want_sign)


def _check_exact_path(g: CompiledGame[Any, Any], v: list[Fraction], want_q: list[Fraction],
                      want_sign: list[int]) -> None:
    for chunk in (1, 3, integer_q._CHUNK):  # the vectorised exact path, a few actions at a time
        with patch.object(integer_q, "_CHUNK", chunk):
            assert exact_action_values(g, v) == want_q
            assert exact_action_signs(g, v).tolist() == want_sign
    with patch.object(integer_q, "_CROSS_BITS", 0):  # every mixed row clustered (long denominators)
        assert exact_action_signs(g, v).tolist() == want_sign
    filtered = _filter(g, v)
    decided = filtered != 2
    assert (filtered[decided] == np.array(want_sign, dtype=np.int8)[decided]).all()
    for few in (0, integer_q._FEW):  # one action at a time; vectorised over every state
        with patch.object(integer_q, "_FEW", few):
            for acts in ([0], [g.n_actions - 1, 0], list(range(g.n_actions))[::-1]):
                ks = np.array(acts, dtype=np.int64)
                assert exact_action_values(g, v, acts) == [want_q[k] for k in acts]
                assert exact_action_signs(g, v, ks).tolist() == [want_sign[k] for k in acts]


@st.composite
def _game_and_values(draw: st.DrawFn, /, **shape: Any) -> tuple[CompiledGame[Any, Any], list[Fraction]]:
    game: TableGame = draw(games(states=(1, 6), actions=(1, 3), outcomes=(1, 3), **shape))
    g = compile_game(game)
    values = list(tbsg.solve(game).values_exact)
    shifts = draw(st.lists(st.sampled_from(SHIFTS), min_size=g.n_states, max_size=g.n_states))
    return g, [x + d for x, d in zip(values, shifts, strict=True)]


@SETTINGS
@given(_game_and_values(ties=True, near_ties=True))
def test_random_win_probability_games_with_ties_and_near_ties(case: tuple[Any, list[Fraction]]) -> None:
    _check(*case)


@SETTINGS
@given(_game_and_values(payoffs="score", rewards=True, ties=True))
def test_random_reward_and_score_games(case: tuple[Any, list[Fraction]]) -> None:
    _check(*case)


@SETTINGS
@given(_game_and_values(tiny=True, payoffs="draws"))
def test_random_games_with_tiny_probabilities(case: tuple[Any, list[Fraction]]) -> None:
    _check(*case)


def test_the_solution_values_make_every_played_action_a_tie() -> None:
    # Pig to 12: over a hundred distinct denominators, often several among one action's values
    game = tbsg.games.pig(12)
    sol = tbsg.solve(game)
    g, v = sol.graph, list(sol.values_exact)
    sign = exact_action_signs(g, v)
    assert not sign[sol.choice].any()
    ks = np.flatnonzero(sign != 0)[:50]
    assert [_sign(_definition(g, v, int(k)) - v[int(g.act_state[k])]) for k in ks] == sign[ks].tolist()
    # the smallest move of one value that a fraction of its size can make breaks the ties there
    i = int(g.act_state[ks[0]])
    for d in (1, -1):
        moved = [*v]
        moved[i] = v[i] + F(d, v[i].denominator * 2**400)
        assert exact_action_signs(g, moved, sol.choice[[i]]).tolist() == [-d]


def test_values_too_large_for_the_filter_take_the_exact_path() -> None:
    # values near 2**70: no fixed-point bits are left, every sign is decided exactly
    g = compile_game(tbsg.games.risk_or_safety(2))
    v = [F(2**70 + s, 3) for s in range(g.n_states)]
    assert (_filter(g, v) == 2).all()
    want = [_sign(_definition(g, v, k) - v[int(g.act_state[k])]) for k in range(g.n_actions)]
    assert exact_action_signs(g, v).tolist() == want


class Hand:
    """State 0 (player 0) has ``stop`` (ends with payoff ``pay``) and ``go`` (1/6 to a
    win, 5/6 to state 1); state 1 has ``back`` (1/2 to state 0, 1/2 to a loss)."""

    initial = 0

    def __init__(self, pay: Fraction) -> None:
        self.pay = pay

    def player(self, s: int) -> int:
        return s

    def actions(self, s: int) -> tuple[str, ...]:
        return ("stop", "go") if s == 0 else ("back",)

    def outcomes(self, s: int, a: str) -> list[tuple[Fraction, Any]]:
        if a == "stop":
            return [(F(1), tbsg.Terminal(self.pay))]
        if a == "go":
            return [(F(1, 6), tbsg.win(0)), (F(5, 6), 1)]
        return [(F(1, 2), 0), (F(1, 2), tbsg.win(1))]


@pytest.mark.parametrize("acts", [None, [1], [2, 0]])
def test_a_hand_built_game(acts: list[int] | None) -> None:
    """Hand derivation (:class:`Hand` paying 1/3), at v = (1/3, 1/6): Q(stop) = 1/3,
    Q(go) = 1/6 + 5/6 * 1/6 = 11/36, Q(back) = 1/2 * 1/3 = 1/6."""
    g = compile_game(Hand(F(1, 3)))
    v = [F(1, 3), F(1, 6)]
    q = [F(1, 3), F(11, 36), F(1, 6)]
    want = q if acts is None else [q[k] for k in acts]
    assert exact_action_values(g, v, acts) == want
    assert exact_action_signs(g, v, None if acts is None else np.array(acts)).tolist() == \
        [_sign(x - v[int(g.act_state[k])]) for k, x in zip(range(3) if acts is None else acts, want,
                                                             strict=True)]


def test_a_negative_payoff_keeps_the_filter() -> None:
    """:class:`Hand` paying -2 (a score): at v = (1/3, 1/6), Q(stop) = -2 is clearly below
    v(0), Q(go) = 11/36 below 1/3 by 1/36, Q(back) = 1/6 a tie (hand derivation as above).
    The filter decides the two strict signs; the tie is left to the exact path."""
    g = compile_game(Hand(F(-2)))
    v = [F(1, 3), F(1, 6)]
    assert _filter(g, v).tolist() == [-1, -1, 2]
    assert exact_action_signs(g, v).tolist() == [-1, -1, 0]
    assert exact_action_values(g, v) == [F(-2), F(11, 36), F(1, 6)]


INTEGER_TYPES = [int] + ([] if bk.BACKEND != "gmpy2" else [bk.INTEGER])


@pytest.mark.parametrize("integer", INTEGER_TYPES, ids=lambda t: t.__name__)
def test_both_integer_types_give_the_same_signs(integer: type) -> None:
    # the cross-multiplications run in the backend's integers (gmpy2's mpz when installed):
    # Python ints and mpz must decide every sign alike, at the solution's values of Pig to
    # 12 (long denominators, clustered) and at those values moved off by tiny amounts
    game = tbsg.games.pig(12)
    sol = tbsg.solve(game)
    g, v = sol.graph, list(sol.values_exact)
    moved = [x + F((-1) ** i, x.denominator * 2**300) for i, x in enumerate(v)]
    want = [[_sign(_definition(g, w, k) - w[int(g.act_state[k])]) for k in range(g.n_actions)]
            for w in (v, moved)]
    with patch.object(integer_q, "_INT", integer), patch.object(integer_q, "_MAX_DIGITS", 0):
        # rows cross-multiplied whole (short enough), then clustered first
        assert [exact_action_signs(g, w).tolist() for w in (v, moved)] == want
    with patch.object(integer_q, "_INT", integer), patch.object(integer_q, "_CROSS_BITS", 0):
        assert [exact_action_signs(g, w).tolist() for w in (v, moved)] == want
        with patch.object(integer_q, "_FEW", 0):  # one action at a time
            assert exact_action_signs(g, moved, np.arange(40)).tolist() == want[1][:40]


@pytest.mark.parametrize("integer", INTEGER_TYPES, ids=lambda t: t.__name__)
def test_clustered_signs_against_fractions(integer: type) -> None:
    """Hand-built groups ``M_j / D_j``: denominators in a small ratio (``6 a`` and
    ``4 a``: 3/2), one dividing another (``a`` and ``a b``), and unrelated ones (``a``
    and ``c``, coprime primes' products); the sign is that of the Fraction sum."""
    a, b, c = 2**127 - 1, 2**89 - 1, 2**107 - 1  # Mersenne primes
    cases = [
        [(5, 6 * a), (-7, 4 * a)],  # 5/(6a) - 7/(4a) = (10 - 21)/(12a) < 0
        [(3, 6 * a), (-2, 4 * a)],  # 1/(2a) - 1/(2a) = 0
        [(b, a * b), (-1, a)],  # 1/a - 1/a = 0
        [(b + 1, a * b), (-1, a)],  # 1/(a b) > 0
        [(c, a), (-a, c), (1, a * c)],  # c/a - a/c + 1/(ac): c < a, so negative
        [(1, a), (-1, c)],  # 1/a < 1/c: negative
    ]
    with patch.object(integer_q, "_INT", integer):
        for groups in cases:
            want = _sign(sum((F(m, d) for m, d in groups), F(0)))
            assert integer_q._sign(groups) == want, groups


def test_small_ratios_are_found_and_checked() -> None:
    """``a / b = p / q`` with ``p, q < 2**20`` is found (and is exact); a ratio with a
    larger numerator or denominator, or of unrelated numbers, is not."""
    a = 3**5000 + 2
    assert integer_q._small_ratio(6 * a, 4 * a) == (3, 2)
    assert integer_q._small_ratio(999_983 * a, 999_979 * a) == (999_983, 999_979)
    assert integer_q._small_ratio(a, a) == (1, 1)
    assert integer_q._small_ratio(2**21 * a, a) is None
    assert integer_q._small_ratio(a, 7**1780 + 1) is None
    assert integer_q._ratio(a, a * (5**300 + 1)) == (1, 5**300 + 1)  # a divides b: b / a
    assert integer_q._ratio(a * (5**300 + 1), a) is None  # only a divisor of the second is kept


def test_progress_reports_the_actions_decided() -> None:
    game = tbsg.games.pig(12)
    sol = tbsg.solve(game)
    g, v = sol.graph, list(sol.values_exact)
    calls: list[tuple[int, int]] = []
    with patch.object(integer_q, "_CHUNK", 50):
        sign = exact_action_signs(g, v, progress=lambda done, total: calls.append((done, total)))
    assert sign.tolist() == exact_action_signs(g, v).tolist()
    assert len(calls) > 2 and calls[-1] == (g.n_actions, g.n_actions)
    assert all(x[0] <= y[0] for x, y in itertools.pairwise(calls))


def _only_common(g: CompiledGame[Any, Any], v: list[Fraction]) -> list[int]:
    """The signs with the filter and the exact path made to fail: the common-denominator
    path alone decides them."""
    with patch.object(integer_q, "_filtered_signs", side_effect=AssertionError("filter")), \
            patch.object(integer_q, "_vector_signs", side_effect=AssertionError("exact path")):
        out: list[int] = exact_action_signs(g, v).tolist()
    return out


def test_dyadic_values_are_decided_over_their_common_denominator() -> None:
    """Risk or Safety 4 (probabilities halves) at its solution's values, every played
    action a tie, and at values moved by ``±2**-200`` (a common denominator of about 200
    bits: several digits, with carries between them) and by ``-2**40 ± 2**-150`` (negative
    values, so signed top digits): the common-denominator path alone decides every sign,
    and each is the sign of the definition summed in Fraction arithmetic."""
    game = tbsg.games.risk_or_safety(4)
    sol = tbsg.solve(game)
    g, v = sol.graph, list(sol.values_exact)
    moves = [[F(0)] * g.n_states,
             [F((-1) ** i, 2**200) for i in range(g.n_states)],
             [-F(2**40) + F((-1) ** (i // 2), 2**150) for i in range(g.n_states)]]
    for move in moves:
        w = [x + d for x, d in zip(v, move, strict=True)]
        want = [_sign(_definition(g, w, k) - w[int(g.act_state[k])]) for k in range(g.n_actions)]
        assert _only_common(g, w) == want
        # digits of 21 bits: a dozen of them, the carries crossing every one
        with patch.object(integer_q, "_SUM_BITS", 24), patch.object(integer_q, "_MAX_DIGITS", 40):
            assert _only_common(g, w) == want
    assert not np.array(_only_common(g, v))[sol.choice].any()


def test_a_long_common_denominator_is_left_to_the_filter() -> None:
    """Denominators whose common multiple is too long (``2**300``), or weights that leave
    too short digits for ``int64`` sums: the filter and the exact path decide, as before."""
    g = compile_game(Hand(F(1, 3)))
    assert integer_q._common_signs(g, _scale_of(g), *_parts([F(1, 2**300), F(1, 6)])) is None
    assert integer_q._common_signs(g, _scale_of(g), *_parts([F(1, 3), F(1, 6)])) is not None
    with patch.object(integer_q, "_MIN_DIGIT_BITS", 58):  # 1 + B + W_k = 12 (go) here: digits of 57 bits
        assert integer_q._common_signs(g, _scale_of(g), *_parts([F(1, 3), F(1, 6)])) is None
    # at v = (2**-300, 1/6): Q(stop) = 1/3 and Q(go) = 11/36 exceed v(0), Q(back) = 2**-301 < 1/6
    assert exact_action_signs(g, [F(1, 2**300), F(1, 6)]).tolist() == [1, 1, -1]


def _parts(v: list[Fraction]) -> tuple[Any, list[int]]:
    vals = _Values(v, None)
    assert vals.full is not None
    return vals.full, vals.dens


def test_shared_value_objects_are_read_once() -> None:
    """A value object shared by many states is one entry of the parts, spread back by the
    inverse; equal but distinct objects stay apart (identity decides, not equality); a
    view that converts on access is copied first, so no identity is reused."""
    a, b = F(1, 3), F(2, 7)
    v = [a, b, a, a, F(1, 3), b, a, a]
    parts, dens = _parts(v)
    assert parts.inverse is not None and parts.inverse.tolist() == [0, 1, 0, 0, 2, 1, 0, 0]
    assert parts.num == [1, 2, 1] and [dens[j] for j in parts.den_id] == [3, 7, 3]
    assert _parts([a, b, F(1, 3)])[0].inverse is None  # nothing shared: one entry per state
    objs, inverse = integer_q.distinct_objects(_Fresh([a, b, a, a]))
    assert inverse is None and objs == [a, b, a, a]


class _Fresh(Sequence[Fraction]):
    """A view that builds a new Fraction at every access (as a view of GMP values does)."""

    def __init__(self, values: list[Fraction]) -> None:
        self.values = values

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, i: Any) -> Any:
        x = self.values[i]
        return F(x.numerator, x.denominator)


def test_actions_of_the_same_expression_are_decided_once() -> None:
    """Risk or Safety 12's values are shared objects; with values moved by ``±2**-300``
    per object (past the common-denominator path), the exact path decides one action of
    each expression (same constant, same own value object, same probabilities times the
    same objects) and every action gets the sign of the definition."""
    sol = tbsg.solve(tbsg.games.risk_or_safety(12))
    g = sol.graph
    moved: dict[int, Fraction] = {}
    for raw in sol._raw_values:  # one moved Fraction per stored object, shared
        if id(raw) not in moved:
            x = bk.to_fraction(raw)
            moved[id(raw)] = x + F((-1) ** len(moved), x.denominator * 2**300)
    w = [moved[id(raw)] for raw in sol._raw_values]
    want = [_sign(_definition(g, w, k) - w[int(g.act_state[k])]) for k in range(g.n_actions)]
    seen: list[int] = []
    real = integer_q._vector_signs

    def counting(g: Any, arr: Any, acts: Any, progress: Any = None) -> Any:
        seen.append(len(acts))
        return real(g, arr, acts, progress)

    with patch.object(integer_q, "_vector_signs", counting):
        assert exact_action_signs(g, w).tolist() == want
    undecided = int((_filter(g, w) == 2).sum())
    assert 0 < sum(seen) < undecided  # fewer expressions than undecided actions
    with patch.object(integer_q, "_same_rows", lambda g, parts, acts: (acts, None)):
        assert exact_action_signs(g, w).tolist() == want
