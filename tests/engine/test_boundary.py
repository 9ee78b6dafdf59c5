"""A solution that stores only its boundary values answers exactly as one that stores all.

:mod:`tbsg.engine.boundary`: with ``keep_values="boundary"`` a solution keeps the values
other components read and recomputes the rest. Every answer (each value, the optimal
actions, tables, saved files, the certificate) is compared with ``==`` against the same
game solved with ``keep_values="all"``, on the catalog's Pig and Risk or Safety and on
random games with ties and near ties below float resolution. Pig's values are checked
against its seed (000's Pig section, via the catalog tests) only through the full solve.
"""

from __future__ import annotations

import pickle
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import tbsg
from tbsg.engine.boundary import BoundaryValues, as_list, boundary_states
from tbsg.engine.compile import compile_game
from tbsg.engine.exact import solve_exact
from tbsg.engine.graph import decompose
from tbsg.games import coinball, pig, risk_or_safety
from tbsg.testing import TableGame, games


def _pair(game: Any) -> tuple[tbsg.Solution[Any, Any], tbsg.Solution[Any, Any]]:
    return tbsg.solve(game, keep_values="all"), tbsg.solve(game, keep_values="boundary")


def _same(full: tbsg.Solution[Any, Any], part: tbsg.Solution[Any, Any]) -> None:
    """Every value, chosen action and optimal flag equal (values with ``==`` on Fraction)."""
    assert list(full.values_exact) == list(part.values_exact)
    assert (full.choice == part.choice).all()
    assert (full.optimal == part.optimal).all()
    for i, s in enumerate(full.states):
        assert part.value(s) == full.value(s)
        assert part.action_values(s) == full.action_values(s)
        assert part.optimal_actions(s) == full.optimal_actions(s)
        if i > 60:
            break


@pytest.mark.parametrize("game", [pig(12), risk_or_safety(5)], ids=repr)
def test_boundary_values_answer_as_all_values(game: Any) -> None:
    full, part = _pair(game)
    assert isinstance(part._raw_values, BoundaryValues)
    assert full.values_stored == full.n_states
    assert 0 < part.values_stored < part.n_states
    _same(full, part)


def test_pig_keeps_the_turn_starts_only() -> None:
    # a component of Pig holds a pair of scores and every turn total: only the turn
    # starts (turn total 0) are reached from another component, and the initial state
    g = compile_game(pig(10))
    kept = boundary_states(g, decompose(g))
    assert all(g.states[i].turn_total == 0 for i in np.flatnonzero(kept).tolist())
    assert kept[0]
    assert kept.sum() < g.n_states // 4


def test_values_in_any_order_and_after_eviction() -> None:
    # single look-ups solve a component each (a few are cached): in a random order, far
    # more components than the cache holds, every value is still the exact one
    full, part = _pair(pig(15))
    order = list(range(full.n_states))
    random.Random(1).shuffle(order)
    raw_full, raw_part = full._raw_values, part._raw_values
    stored = part.values_stored
    assert all(raw_part[i] == raw_full[i] for i in order[:50])
    assert part.values_stored == stored  # a few look-ups keep nothing more
    assert all(raw_part[i] == raw_full[i] for i in order)
    # read one by one in an order hopping between components: past the cost of one pass
    # over them all, the sequence keeps every value (and answers the same)
    assert part.values_stored == part.n_states
    assert all(raw_part[i] == raw_full[i] for i in order)
    assert raw_part[-1] == raw_full[-1]
    assert raw_part[3:40:7] == list(raw_full[3:40:7])
    with pytest.raises(IndexError):
        raw_part[len(raw_full)]


def test_tables_files_and_certificate_are_those_of_all_values(tmp_path: Path) -> None:
    game = pig(10)
    full, part = _pair(game)
    assert tbsg.state_table(part).to_csv() == tbsg.state_table(full).to_csv()
    cols = ["value", "margin", "optimal"]
    assert tbsg.state_table(part).to_csv(columns=cols) == tbsg.state_table(full).to_csv(columns=cols)
    check = tbsg.verify(game, part)
    tbsg.save(part, tmp_path / "part.json")
    tbsg.save(full, tmp_path / "full.json")
    loaded = tbsg.load(tmp_path / "part.json", game=game)
    assert list(loaded.values_exact) == list(full.values_exact)
    # the verification names the solution by a digest of its values: one of the same values
    assert part.provenance(check).as_dict()["certificate"] == full.provenance(check).as_dict()["certificate"]
    assert part.fastest().expected == full.fastest().expected


def test_a_table_of_a_few_states_solves_only_their_components() -> None:
    # where= tabulates part of a game: the values of a boundary solution are then looked
    # up component by component, not all recomputed, and the table is the same
    full, part = _pair(pig(15))

    def first_turns(s: Any) -> bool:
        return bool(s.score == 0 and s.other == 0)

    mine = tbsg.state_table(part, where=first_turns)
    assert mine.to_csv(columns=["value", "margin", "optimal"]) == \
        tbsg.state_table(full, where=first_turns).to_csv(columns=["value", "margin", "optimal"])
    raw = part._raw_values
    assert isinstance(raw, BoundaryValues) and raw._every is None and 0 < len(raw._cache) <= 2


def test_a_pickled_boundary_solution_comes_back_with_every_value() -> None:
    full, part = _pair(pig(8))
    back = pickle.loads(pickle.dumps(part))
    assert type(back._raw_values) is list
    assert list(back.values_exact) == list(full.values_exact)


def test_a_changed_stored_value_is_refused_by_the_certificate() -> None:
    # the recomputed values follow the stored ones: a wrong boundary value makes wrong
    # interior values too, and the certificate refuses the lot
    game = pig(8)
    part = tbsg.solve(game, keep_values="boundary")
    raw = part._raw_values
    assert isinstance(raw, BoundaryValues)
    i = int(np.flatnonzero(raw._kept)[3])
    raw._values[i] = raw._values[i] + Fraction(1, 10**30)
    with pytest.raises(tbsg.TamperedSolutionError, match="fails at state"):
        tbsg.verify(game, part)


def test_auto_switches_once_the_interior_values_pass_the_budget() -> None:
    g = compile_game(pig(20))
    comps = decompose(g)
    every = solve_exact(g, comps)
    assert type(every.values) is list
    small = solve_exact(g, comps, keep=4_000)  # passed after a few levels: the rest dropped
    roomy = solve_exact(g, comps, keep=10**9)
    assert isinstance(small.values, BoundaryValues) and type(roomy.values) is list
    assert as_list(small.values) == every.values == roomy.values
    assert (small.optimal == every.optimal).all() and (small.choice == every.choice).all()
    assert tbsg.solve(pig(20)).values_stored == g.n_states  # the default keeps small games whole


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(states=(3, 12), actions=(1, 3), outcomes=(1, 3), near_ties=True))
def test_random_games_answer_as_with_all_values(game: Any) -> None:
    full, part = _pair(game)
    _same(full, part)
    tbsg.verify(game, part)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(states=(2, 8), actions=(1, 3), outcomes=(1, 3), rewards=True, payoffs="score"))
def test_random_reward_games_answer_as_with_all_values(game: Any) -> None:
    full, part = _pair(game)
    _same(full, part)


def test_fixed_strategies_and_best_responses_keep_values_as_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    # evaluate and best_response follow solve's "auto" rule: small games keep every value;
    # with the budget at 0 they store boundary values only, and answer the same
    from tbsg.api import solving

    game: Any = pig(10)

    def hold(s: Any) -> str:
        return "roll" if s.turn_total < 4 else "hold"

    full_eval = tbsg.evaluate(game, hold)
    full_br = tbsg.best_response(game, 0, hold)
    assert full_eval.values_stored == full_eval.n_states
    assert full_br.values_stored == full_br.n_states
    monkeypatch.setitem(solving._KEEP_BUDGET, "auto", 0)
    for full, part in ((full_eval, tbsg.evaluate(game, hold)), (full_br, tbsg.best_response(game, 0, hold))):
        assert isinstance(part._raw_values, BoundaryValues)
        assert part.values_stored < part.n_states
        _same(full, part)

def test_keep_values_is_checked() -> None:
    with pytest.raises(tbsg.InvalidArgumentError, match="keep_values must be"):
        tbsg.solve(pig(4), keep_values="some")  # type: ignore[call-overload]
    with pytest.raises(tbsg.InvalidArgumentError, match="float solution"):
        tbsg.solve(pig(4), exact=False, keep_values="boundary")
    assert tbsg.solve(pig(4), exact=False, keep_values="auto").n_states > 0


# --- found by an adversarial review: each test names the exact input --------------------
@pytest.mark.parametrize("game", [pig(6), coinball(3)], ids=repr)
def test_out_of_range_negative_index_raises_index_error_as_with_all_values(game: Any) -> None:
    # a list (keep_values="all") raises IndexError below -n; BoundaryValues adds n once
    # and then reads the list (Python wraps it again): pig(6)[-121] raised KeyError(-1),
    # coinball(3)[-15] returned the last value (0), and [-2n] the initial state's value
    full = tbsg.solve(game, keep_values="all")
    part = tbsg.solve(game, keep_values="boundary")
    n = full.n_states
    for i in (-n - 1, -2 * n):
        with pytest.raises(IndexError):
            full.values_exact[i]
        with pytest.raises(IndexError):
            part.values_exact[i]


def _hub_and_cycles(n: int, m: int, j: int) -> TableGame:
    """State 0, a chance hub, enters cycle A (states 1..n) at state 1 only and each of
    ``j`` cycles B of ``m`` states at every state but its last: A's states are interior
    but its entry, each B has one interior state in a component of ``m`` states."""
    half, third = Fraction(1, 2), Fraction(1, 3)
    b0 = 1 + n
    targets = [1] + [b0 + c * m + k for c in range(j) for k in range(m - 1)]
    p = Fraction(1, len(targets))
    moves: list[Any] = [(("go", tuple((p, t) for t in targets)),)]
    succ = [1 + (i + 1) % n for i in range(n)]
    succ += [b0 + c * m + (k + 1) % m for c in range(j) for k in range(m)]
    for nxt in succ:
        moves.append((("a", ((half, nxt), (half, tbsg.win(0)))),
                      ("b", ((third, nxt), (2 * third, tbsg.win(1))))))
    return TableGame(players=(0,) * len(moves), moves=tuple(moves))


def test_look_ups_that_hop_between_components_cost_at_most_two_passes() -> None:
    # boundary.py (810c716): "look-ups that solved components for more states than one
    # pass over all of them would ... keep every value from then on: the cost stays within
    # twice a pass". The cost is counted in interior states, but a look-up solves the
    # whole component: cycling over the one interior state of each of 17 components of
    # 40 states (more than the cache's 16) solved 17,120 states before keeping every
    # value, 15.9 passes (a pass solves 1,080); the bigger cycle A, the worse
    game = _hub_and_cycles(400, 40, 17)
    full = tbsg.solve(game, keep_values="all")
    part = tbsg.solve(game, keep_values="boundary")
    bv = part._raw_values
    assert isinstance(bv, BoundaryValues)
    solved = [0]
    evaluate = bv._evaluate

    def counting(states: list[int]) -> None:
        solved[0] += len(states)
        evaluate(states)

    bv._evaluate = counting
    bv.materialize()
    one_pass, solved[0] = solved[0], 0
    index = {s: i for i, s in enumerate(full.states)}
    lasts = [index[1 + 400 + c * 40 + 39] for c in range(17)]
    for _ in range(40):
        for i in lasts:
            assert bv[i] == full._raw_values[i]
    assert solved[0] <= 2 * one_pass + 40


@pytest.mark.slow
def test_pig_to_100_exact_from_boundary_values_is_the_paper_s_and_verifies() -> None:
    """Neller and Presser 2004 (:mod:`tbsg.sources.pig`), p. 34: the first player wins
    53.06% with optimal play, and "an optimal player with a score of 0 will never hold
    with a turn total less than 21". The exact solve of the default settings stores the
    boundary values only: the value of the initial state is stored, the turn totals
    above 0 are recomputed, and both are checked, exactly, against the paper, against the
    float solver's certified bounds (another method), and by the certificate."""
    from tbsg.games.pig import PigState
    from tbsg.sources.pig import OPTIMAL

    game = pig(100)
    sol = tbsg.solve(game)
    assert sol.values_stored < sol.n_states // 10  # (the default switched)
    printed = Fraction(OPTIMAL)
    v = sol.value()
    assert printed - Fraction(1, 20_000) <= v < printed + Fraction(1, 20_000)
    approx = tbsg.solve(game, exact=False, tol=1e-12)
    lo, hi = approx.bounds()
    assert lo <= v <= hi
    rng = random.Random(7)
    for s in rng.sample(list(sol.states), 300):
        lo, hi = approx.bounds(s)
        assert lo <= sol.value(s) <= hi
    for other in range(100):  # score 0, every opponent score: roll below 21 (an exact tie
        for k in range(2, 21):  # would list both actions)
            s = PigState(mover=0, score=0, other=other, turn_total=k)
            if s in sol.graph.index:
                assert sol.optimal_actions(s) == ("roll",), s
    tbsg.verify(game, sol)
