"""The one exact elimination (:mod:`tbsg.engine.linalg`) over every field it serves.

Oracles: systems small enough to solve by hand (the derivation in a comment beside
each), a dense Gauss-Jordan elimination on Fractions written here (no tbsg code), and
the same system solved over each field (``Fraction``, ``gmpy2.mpq``, rational functions
of a parameter evaluated at rational points).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tbsg.engine import linalg
from tbsg.engine.linalg import Field, eliminate, plan, solve_block, users_of

F = Fraction
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def dense_gauss_jordan(rows: Sequence[dict[int, Fraction]], rhs: Sequence[Fraction]) -> list[Fraction]:
    """``v = rhs + R v`` as ``(I - R) v = rhs``, solved densely with a pivot search."""
    m = len(rows)
    a = [[F(int(r == c)) - rows[r].get(c, F(0)) for c in range(m)] + [rhs[r]] for r in range(m)]
    for c in range(m):
        p = next(r for r in range(c, m) if a[r][c] != 0)
        a[c], a[p] = a[p], a[c]
        piv = a[c][c]
        a[c] = [x / piv for x in a[c]]
        for r in range(m):
            if r != c and a[r][c] != 0:
                f = a[r][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c], strict=True)]
    return [a[r][m] for r in range(m)]


def _fields() -> list[tuple[str, Callable[[Fraction], Any]]]:
    """The fields present here, each with the map from Fractions into it."""
    out: list[tuple[str, Callable[[Fraction], Any]]] = [("Fraction", lambda x: x)]
    try:
        from gmpy2 import mpq
    except ImportError:  # pragma: no cover - gmpy2 is optional
        pass
    else:
        out.append(("mpq", lambda x: mpq(x.numerator, x.denominator)))
    try:
        from tbsg.parametric.rational import RationalFunction
    except ImportError:  # pragma: no cover - python-flint is optional
        pass
    else:
        out.append(("RationalFunction", RationalFunction.constant))
    return out


FIELDS = _fields()


def _back(x: Any) -> Fraction:
    """A field element that is a rational constant, as a Fraction."""
    if hasattr(x, "constant_value"):
        assert x.is_constant()
        return Fraction(x.constant_value())
    return Fraction(int(x.numerator), int(x.denominator))


def _solve_in(to: Callable[[Fraction], Any], rows: Sequence[dict[int, Fraction]],
              rhs: Sequence[Fraction]) -> list[Fraction]:
    got = eliminate([{j: to(c) for j, c in row.items()} for row in rows], [to(b) for b in rhs])
    return [_back(x) for x in got]


# --- hand-built systems ------------------------------------------------------------------

# x = 1/2 + 1/2 y and y = 1/4 x: x = 1/2 + 1/8 x, so x = 4/7 and y = 1/7
CYCLE = ([{1: F(1, 2)}, {0: F(1, 4)}], [F(1, 2), F(0)], [F(4, 7), F(1, 7)])
# x = 1/3 + 1/3 x (a self-loop): x = 1/2
LOOP = ([{0: F(1, 3)}], [F(1, 3)], [F(1, 2)])
# x = 1/4 + 1/4 x + 1/4 y, y = 1/2 x + 1/2 z, z = 1/3 y + 1/3: from the last two,
# y = 1/2 x + 1/6 y + 1/6, so y = 3/5 x + 1/5; then x = 1/4 + 1/4 x + 3/20 x + 1/20,
# 3/5 x = 3/10, x = 1/2, y = 1/2, z = 1/2
THREE = ([{0: F(1, 4), 1: F(1, 4)}, {0: F(1, 2), 2: F(1, 2)}, {1: F(1, 3)}],
         [F(1, 4), F(0), F(1, 3)], [F(1, 2), F(1, 2), F(1, 2)])


@pytest.mark.parametrize("system", [CYCLE, LOOP, THREE], ids=["cycle", "self-loop", "three"])
@pytest.mark.parametrize(("name", "to"), FIELDS, ids=[n for n, _ in FIELDS])
def test_hand_built_systems_in_every_field(system: Any, name: str, to: Callable[[Fraction], Any]) -> None:
    rows, rhs, expected = system
    assert _solve_in(to, rows, rhs) == expected


def test_rational_functions_of_a_parameter() -> None:
    """v0 = p + (1 - p) v1, v1 = (1 - p) v0: v0 = p + (1 - p)^2 v0, so v0 = 1 / (2 - p)
    and v1 = (1 - p) / (2 - p); at p = 1/2 the Fraction system gives 2/3 and 1/3."""
    rational = pytest.importorskip("tbsg.parametric.rational")
    p = rational.RationalFunction.variable()
    one = rational.RationalFunction.constant(1)
    v = eliminate([{1: one - p}, {0: one - p}], [p, rational.RationalFunction.constant(0)])
    assert v == [1 / (2 - p), (1 - p) / (2 - p)]
    half = F(1, 2)
    assert [x(half) for x in v] == _solve_in(lambda x: x, [{1: half}, {0: half}], [half, F(0)]) \
        == [F(2, 3), F(1, 3)]


# --- the same system over every field; against dense Gauss-Jordan -------------------------

@st.composite
def stopping_systems(draw: st.DrawFn, max_m: int = 7) -> tuple[list[dict[int, Fraction]], list[Fraction]]:
    """Sparse substochastic rows (each row's mass at most 1/2, so every system stops) and a
    right-hand side, zeros included (the elimination skips them)."""
    m = draw(st.integers(1, max_m))
    frac = st.fractions(min_value=0, max_value=1, max_denominator=9)
    rows: list[dict[int, Fraction]] = []
    for _ in range(m):
        weights = {c: draw(frac) for c in draw(st.sets(st.integers(0, m - 1), max_size=m))}
        total = sum(weights.values(), F(0))
        if total > F(1, 2):
            weights = {c: w / (2 * total) for c, w in weights.items()}
        rows.append({c: w for c, w in weights.items() if w})
    rhs = [draw(st.one_of(st.just(F(0)), frac)) for _ in range(m)]
    return rows, rhs


@SETTINGS
@given(stopping_systems())
def test_elimination_equals_dense_gauss_jordan(system: tuple[list[dict[int, Fraction]], list[Fraction]]
                                               ) -> None:
    rows, rhs = system
    assert _solve_in(lambda x: x, rows, rhs) == dense_gauss_jordan(rows, rhs)


@SETTINGS
@given(stopping_systems(max_m=5))
def test_same_system_same_answer_in_every_field(system: tuple[list[dict[int, Fraction]], list[Fraction]]
                                                ) -> None:
    rows, rhs = system
    answers = {name: _solve_in(to, rows, rhs) for name, to in FIELDS}
    assert len(answers) == len(FIELDS)
    assert all(a == answers["Fraction"] for a in answers.values()), answers


# --- plans ------------------------------------------------------------------------------

@SETTINGS
@given(stopping_systems(), st.data())
def test_a_plan_replays_on_any_right_hand_side(system: tuple[list[dict[int, Fraction]], list[Fraction]],
                                               data: st.DataObject) -> None:
    rows, rhs = system
    pl = plan([dict(r) for r in rows])
    frac = st.fractions(min_value=0, max_value=1, max_denominator=9)
    for b in (rhs, [data.draw(frac) for _ in rows]):
        assert pl.run(list(b)) == dense_gauss_jordan(rows, b)


def test_plan_consumes_rows_and_users_and_run_overwrites_the_right_hand_side() -> None:
    rows, rhs, expected = THREE
    mine = [dict(r) for r in rows]
    users = users_of(mine)
    assert users == [{1}, {0, 2}, {1}]  # (self-loops are not users)
    pl = plan(mine, users)
    assert pl.m == 3
    b = list(rhs)
    assert pl.run(b) is b
    assert b == expected


def test_markowitz_order_eliminates_an_arrow_without_fill_in() -> None:
    """A hub (state 0) that every leaf reads and that reads every leaf. Leaves first (the
    smallest products, 1 x 1) add one term to the hub's row each; the hub first would make
    every leaf read every other (m^2 entries)."""
    m = 40
    w = F(1, 2 * m)
    rows: list[dict[int, Fraction]] = [{j: w for j in range(1, m)}] + [{0: F(1, 2)} for _ in range(1, m)]
    pl = plan([dict(r) for r in rows])
    assert pl.back[-1][0] != 0 and pl.back[0][0] == 0  # the hub is eliminated last
    # one step per leaf (into the hub's right-hand side), and the hub's self-loop scaling
    assert len(pl.steps) == m
    assert sum(len(t) for _, t in pl.back) == m - 1
    rhs = [F(1, 3)] + [F(0)] * (m - 1)
    assert pl.run(list(rhs)) == dense_gauss_jordan(rows, rhs)


# --- blocks of a compiled profile ---------------------------------------------------------

def test_solve_block_reads_outside_values_and_adds_repeated_targets() -> None:
    """Actions as a compiled game's arrays: action 0 (state 0) reaches 1 twice (1/4 each)
    and the outside state 3 (1/2, value 2/3); action 1 (state 1) reaches 0 (1/2) and loops
    (1/4); action 2 (state 2, alone) loops (1/2). Block [0, 1]: x0 = 1/2 x1 + 1/3,
    x1 = 1/2 x0 + 1/4 x1 + 1/8, so x1 = 2/3 x0 + 1/6, x0 = 1/3 x0 + 1/12 + 1/3, x0 = 5/8,
    x1 = 7/12. Block [2]: x2 = 1/5 + 1/2 x2 = 2/5."""
    out_ptr = [0, 3, 5, 6]
    target = [1, 1, 3, 0, 1, 2]
    prob = [F(1, 4), F(1, 4), F(1, 2), F(1, 2), F(1, 4), F(1, 2)]
    x = [F(0), F(0), F(0), F(2, 3)]
    choice, const = [0, 1, 2], [F(0), F(1, 8), F(1, 5)]
    solve_block([0, 1], choice, const, x, out_ptr, target, prob)
    assert x[:2] == [F(5, 8), F(7, 12)]
    solve_block([2], choice, const, x, out_ptr, target, prob)
    assert x == [F(5, 8), F(7, 12), F(2, 5), F(2, 3)]


def test_field_protocol_is_met_by_each_number_type() -> None:
    """Static (mypy checks the assignments) and dynamic: each type has the operations."""
    values: list[Field] = [F(1, 3)]
    values.extend(to(F(1, 3)) for _, to in FIELDS)
    for x in values:
        assert all(hasattr(x, op) for op in ("__add__", "__sub__", "__mul__", "__truediv__",
                                             "__rsub__", "__rtruediv__"))
        assert (1 - x) * (1 / (1 - x)) == x / x
    assert linalg.__all__ == sorted(linalg.__all__)


@SETTINGS
@given(st.integers(2, 8), st.data())
def test_blocks_in_decompose_order_solve_the_whole_profile(n: int, data: st.DataObject) -> None:
    """A random profile (each state plays one of its two actions) solved block by block in
    the order of :func:`tbsg.engine.graph.decompose_edges` (the path of
    :mod:`tbsg.parametric.linear`, here over Fractions) equals the whole system solved at once."""
    pytest.importorskip("flint")
    from tbsg.parametric.linear import _profile_values

    frac = st.fractions(min_value=0, max_value=1, max_denominator=6)
    out_ptr, target, prob, const = [0], [], [], []
    for _ in range(2 * n):  # actions 2i and 2i + 1 belong to state i
        succ = data.draw(st.lists(st.integers(0, n - 1), max_size=3))
        weights = [data.draw(frac) for _ in succ]
        total = sum(weights, F(0))
        if total > F(1, 2):
            weights = [w / (2 * total) for w in weights]
        for j, w in zip(succ, weights, strict=True):
            if w:
                target.append(j)
                prob.append(w)
        out_ptr.append(len(target))
        const.append(data.draw(frac))
    choice = [2 * i + data.draw(st.integers(0, 1)) for i in range(n)]
    rows: list[dict[int, Fraction]] = []
    for i in range(n):
        row: dict[int, Fraction] = {}
        for o in range(out_ptr[choice[i]], out_ptr[choice[i] + 1]):
            row[target[o]] = row.get(target[o], F(0)) + prob[o]
        rows.append(row)
    expected = dense_gauss_jordan(rows, [const[k] for k in choice])
    assert _profile_values(n, choice, const, out_ptr, target, prob) == expected
