"""Core engine tests: known answers from seed 000, certificate, float bounds, bad input,
and an exact brute-force comparison on random games."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any, cast

import numpy as np
import pytest

import tbsg
from strategies import TableGame as LabelledGame
from tbsg.engine import _backend as bk
from tbsg.engine.bellman import rounding_counts
from tbsg.engine.compile import compile_game
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.graph import decompose, end_components
from tbsg.games import RoSState, pig, risk_or_safety, risk_or_safety_coin_table
from tbsg.games.risk_or_safety import Action as RoSAction

H = Fraction(1, 2)


# seed 000 (Jehn 2026), abstract and sections 2-3: P(0,0,0) for targets 1..6
@pytest.mark.parametrize(("n", "expected"), [
    (1, Fraction(2, 3)), (2, Fraction(4, 7)), (3, Fraction(6, 11)), (4, Fraction(2236, 4165)),
    (5, Fraction(1026, 1925)), (6, Fraction(275848876, 521145625)),
])
def test_risk_or_safety_published_values(n: int, expected: Fraction) -> None:
    sol = tbsg.solve(risk_or_safety(n))
    assert sol.value() == expected
    assert isinstance(sol.value(), Fraction)


def test_risk_or_safety_section2_intermediate_values() -> None:
    # seed 000, section 2 (n = 3): P(0,2,0) = 8/9, P(0,1,0) = 8/11, and the values used there
    game = risk_or_safety(3)
    sol = tbsg.solve(game)
    p = {pos: sol.value_to_move(game.position(*pos)) for pos in
         [(0, 2, 0), (0, 1, 0), (0, 2, 1), (0, 2, 2), (0, 1, 1), (0, 1, 2), (0, 0, 1), (0, 0, 2)]}
    assert p[0, 2, 0] == Fraction(8, 9)
    assert p[0, 1, 0] == Fraction(8, 11)
    assert p[0, 2, 1] == Fraction(4, 5)
    assert p[0, 2, 2] == Fraction(2, 3)
    assert p[0, 1, 1] == Fraction(4, 7)
    assert p[0, 1, 2] == Fraction(2, 5)
    assert p[0, 0, 1] == Fraction(4, 11)
    assert p[0, 0, 2] == Fraction(2, 9)
    # y2 = 7/9, y1 = 7/11, y0 = 5/11: player 1's chance when player 2 starts = 1 - P(0, b, a)
    assert 1 - p[0, 0, 2] == Fraction(7, 9)
    assert 1 - p[0, 0, 1] == Fraction(7, 11)
    assert 1 - sol.value() == Fraction(5, 11)


def _stop_at(stops: set[tuple[int, int, int]]) -> Callable[[RoSState], RoSAction]:
    def strategy(s: RoSState) -> RoSAction:
        return "stop" if (s.open, s.saved, s.other) in stops else "toss"
    return strategy


def test_risk_or_safety_section31_strategy_comparison() -> None:
    # seed 000, section 3.1 (n = 2): continue at (1,0,0) gives 4/7; stop there and continue
    # at (1,0,1) gives 8/15; at (0,0,1): 2/5 (continue at (1,0,1)) against 2/9 (stop)
    game = risk_or_safety(2)
    assert tbsg.evaluate(game, _stop_at(set())).value() == Fraction(4, 7)
    s2 = tbsg.evaluate(game, _stop_at({(1, 0, 0)}))
    s3 = tbsg.evaluate(game, _stop_at({(1, 0, 0), (1, 0, 1)}))
    assert s2.value() == Fraction(8, 15)
    assert s2.value_to_move(game.position(0, 0, 1)) == Fraction(2, 5)
    assert s3.value_to_move(game.position(0, 0, 1)) == Fraction(2, 9)


def test_risk_or_safety_section33_n4_strategy() -> None:
    # seed 000, section 3.3: for n = 4 stop at (1,2,0), (2,0,0), (2,0,2), else continue
    # (positions reached when both follow the optimal strategy; e.g. (3,0,0) never is)
    game = risk_or_safety(4)
    sol = tbsg.solve(game)
    stops = {(1, 2, 0), (2, 0, 0), (2, 0, 2)}
    reached = _reached_under(game, sol)
    assert len(reached) > 20
    for s in reached:
        if s.mover == 0 and s.open > 0:
            expected = "stop" if (s.open, s.saved, s.other) in stops else "toss"
            assert sol.optimal_actions(s) == (expected,), s


def _reached_under(game: tbsg.Game[RoSState, RoSAction], sol: tbsg.Solution[RoSState, RoSAction]
                   ) -> set[RoSState]:
    reached, todo = {game.initial}, [game.initial]
    while todo:
        s = todo.pop()
        for _, nxt in game.outcomes(s, sol.action(s)):
            if isinstance(nxt, RoSState) and nxt not in reached:
                reached.add(nxt)
                todo.append(nxt)
    return reached


# seed 000, section 5, Table 1: number of coins to toss, both players needing 2..20
TABLE1 = """2 2 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
3 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
2 2 2 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
2 2 2 2 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
2 2 2 2 2 1 1 1 1 1 1 1 1 1 1 1 1 1 1
3 2 2 2 2 2 1 1 1 1 1 1 1 1 1 1 1 1 1
3 2 2 2 2 2 2 1 1 1 1 1 1 1 1 1 1 1 1
3 3 2 2 2 2 2 2 1 1 1 1 1 1 1 1 1 1 1
3 2 2 2 2 2 2 2 2 1 1 1 1 1 1 1 1 1 1
3 3 2 2 2 2 2 2 2 2 1 1 1 1 1 1 1 1 1
3 3 2 2 2 2 2 2 2 2 2 1 1 1 1 1 1 1 1
4 3 3 2 2 2 2 2 2 2 2 2 1 1 1 1 1 1 1
4 3 2 2 2 2 2 2 2 2 2 2 2 1 1 1 1 1 1
4 3 3 2 2 2 2 2 2 2 2 2 2 2 1 1 1 1 1
4 3 3 2 2 2 2 2 2 2 2 2 2 2 2 1 1 1 1
4 3 3 3 2 2 2 2 2 2 2 2 2 2 2 2 1 1 1
4 3 3 3 2 2 2 2 2 2 2 2 2 2 2 2 2 1 1
4 3 3 3 2 2 2 2 2 2 2 2 2 2 2 2 2 2 1
4 3 3 3 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2"""


def test_risk_or_safety_table1() -> None:
    table = risk_or_safety_coin_table(20)
    for i, line in enumerate(TABLE1.splitlines(), start=2):
        for j, cell in enumerate(line.split(), start=2):
            assert table[i, j] == int(cell), (i, j)


def test_certificate_accepts_and_rejects_tampering() -> None:
    game = risk_or_safety(4)
    sol = tbsg.solve(game)
    assert tbsg.verify(game, sol).states == sol.n_states
    bad_values: list[Any] = list(sol.values_exact)  # backend numbers, as the solver stores them
    bad_values[3] = bad_values[3] + bk.from_fraction(Fraction(1, 10**30))
    with pytest.raises(tbsg.TamperedSolutionError, match="fails at state"):
        tbsg.verify(game, dataclasses.replace(sol, values_exact=bad_values))
    # switch one decision to a strictly worse action
    g = sol.graph
    for i, s in enumerate(g.states):
        ks = list(g.actions_of(i))
        worse = [k for k in ks if not sol.optimal[k]]
        if worse:
            choice = sol.choice.copy()
            choice[i] = worse[0]
            with pytest.raises(tbsg.TamperedSolutionError, match=repr(s).replace("(", r"\(")
                               .replace(")", r"\)")):
                tbsg.verify(game, dataclasses.replace(sol, choice=choice))
            break
    else:  # pragma: no cover
        pytest.fail("no suboptimal action to tamper with")


def test_float_bounds_contain_exact_values() -> None:
    for n in range(1, 8):
        game = risk_or_safety(n)
        exact = tbsg.solve(game)
        approx = tbsg.solve(game, exact=False)
        assert approx.converged
        for s in exact.states:
            lo, hi = approx.bounds(s)
            assert lo <= exact.value(s) <= hi
            assert hi - lo <= 1e-12


def test_evaluate_reproduces_solution_values() -> None:
    game = risk_or_safety(5)
    sol = tbsg.solve(game)
    ev = tbsg.evaluate(game, sol.strategy, reach="game")
    assert all(ev.value(s) == sol.value(s) for s in sol.states)


# --- random games against brute force over all pure stationary strategy pairs ------------

@dataclasses.dataclass(frozen=True)
class TableGame:
    players: tuple[int, ...]
    moves: tuple[tuple[tuple[tuple[Fraction, int | tbsg.Terminal], ...], ...], ...]
    initial: int = 0

    def player(self, s: int) -> int:
        return self.players[s]

    def actions(self, s: int) -> tuple[int, ...]:
        return tuple(range(len(self.moves[s])))

    def outcomes(self, s: int, a: int) -> list[tuple[Fraction, int | tbsg.Terminal]]:
        return list(self.moves[s][a])


def random_game(rng: random.Random) -> TableGame:
    n = rng.randint(1, 4)
    terminals = [tbsg.win(0), tbsg.win(1), tbsg.DRAW, tbsg.Terminal(Fraction(1, 3))]
    moves = []
    for _ in range(n):
        acts = []
        for _ in range(rng.randint(1, 3)):
            k = rng.randint(1, 3)
            weights = [rng.randint(1, 4) for _ in range(k + 1)]
            total = sum(weights)
            # the first outcome is always terminal: every action stops with positive probability
            outs: list[tuple[Fraction, int | tbsg.Terminal]] = [(Fraction(weights[0], total),
                                                                 rng.choice(terminals))]
            for w in weights[1:]:
                outs.append((Fraction(w, total), rng.randrange(n)))
            acts.append(tuple(outs))
        moves.append(tuple(acts))
    return TableGame(tuple(rng.randint(0, 1) for _ in range(n)), tuple(moves))


def _exact_profile_values(game: TableGame, profile: tuple[int, ...]) -> list[Fraction]:
    n = len(game.players)
    mat = [[Fraction(int(i == j)) for j in range(n)] + [Fraction(0)] for i in range(n)]
    for i in range(n):
        for p, nxt in game.outcomes(i, profile[i]):
            if isinstance(nxt, tbsg.Terminal):
                mat[i][n] += p * nxt.payoff
            else:
                mat[i][int(nxt)] -= p
    for c in range(n):
        piv = next(r for r in range(c, n) if mat[r][c] != 0)
        mat[c], mat[piv] = mat[piv], mat[c]
        mat[c] = [e / mat[c][c] for e in mat[c]]
        for r in range(n):
            if r != c and mat[r][c] != 0:
                f = mat[r][c]
                mat[r] = [e - f * ec for e, ec in zip(mat[r], mat[c], strict=True)]
    return [mat[i][n] for i in range(n)]


def test_random_games_match_brute_force_maxmin() -> None:
    rng = random.Random(20261123)
    for _ in range(60):
        game = random_game(rng)
        n = len(game.players)
        sol = tbsg.solve(game)
        reach = {sol.graph.index[s] for s in sol.states}
        p0 = [i for i in range(n) if game.players[i] == 0]
        p1 = [i for i in range(n) if game.players[i] == 1]
        best: list[Fraction] | None = None
        for c0 in itertools.product(*(range(len(game.moves[i])) for i in p0)):
            worst: list[Fraction] | None = None
            for c1 in itertools.product(*(range(len(game.moves[i])) for i in p1)):
                prof = [0] * n
                for i, c in zip(p0, c0, strict=True):
                    prof[i] = c
                for i, c in zip(p1, c1, strict=True):
                    prof[i] = c
                v = _exact_profile_values(game, tuple(prof))
                worst = v if worst is None else [min(a, b) for a, b in zip(worst, v, strict=True)]
            assert worst is not None
            best = worst if best is None else [max(a, b) for a, b in zip(best, worst, strict=True)]
        assert best is not None
        for i in reach:
            state = sol.graph.states[i]
            assert sol.value(state) == best[state], (game, state)
        tbsg.verify(game, sol)
        approx = tbsg.solve(game, exact=False)
        for s in sol.states:
            lo, hi = approx.bounds(s)
            assert lo <= sol.value(s) <= hi


# --- bad input ------------------------------------------------------------------------------

def _one(outs: list[tuple[object, object]], player: object = 0, actions: tuple[str, ...] = ("a",)
         ) -> object:
    class G:
        initial = "s"

        def player(self, s: str) -> object:
            return player

        def actions(self, s: str) -> tuple[str, ...]:
            return actions

        def outcomes(self, s: str, a: str) -> list[tuple[object, object]]:
            return outs
    return G()


@pytest.mark.parametrize(("game", "error", "pattern"), [
    (_one([(H, tbsg.win(0))]), tbsg.InvalidGameError, r"sum to 1/2, not 1, at state 's', action 'a'"),
    (_one([(Fraction(3, 2), tbsg.win(0)), (-H, tbsg.win(1))]), tbsg.InvalidGameError,
     r"negative probability -1/2 .* at state 's', action 'a'"),
    (_one([(0.5, tbsg.win(0)), (0.5, tbsg.win(1))]), TypeError, r"float 0.5; write it exactly"),
    (_one([(1, tbsg.win(0))], player=2), ValueError, r"returned 2 at state 's'; expected 0 or 1"),
    (_one([(1, tbsg.win(0))], actions=()), ValueError, r"no actions at state 's'"),
    (_one([(1, ["unhashable"])]), ValueError, r"not hashable"),
    (_one([(H, "s"), (H, "t")]), tbsg.NonStoppingGameError, r"not stopping"),
    (_one([(1, tbsg.win(0))], actions=("a", "a")), ValueError, r"listed twice at state 's'"),
])
def test_bad_input(game: object, error: type[Exception], pattern: str) -> None:
    with pytest.raises(error, match=pattern):
        tbsg.solve(game)  # type: ignore[call-overload]


def test_float_error_is_exactness_error_and_any_payoff() -> None:
    assert issubclass(tbsg.ExactnessError, TypeError)
    assert tbsg.Terminal(2).payoff == 2  # a score: any exact rational
    with pytest.raises(TypeError, match="float"):
        tbsg.Terminal(0.5)  # type: ignore[arg-type]


def test_user_exception_is_wrapped_and_state_limit() -> None:
    class Boom:
        initial = 0

        def player(self, s: int) -> int:
            return 0

        def actions(self, s: int) -> tuple[str, ...]:
            if s == 3:
                raise KeyError("oops")
            return ("next",)

        def outcomes(self, s: int, a: str) -> list[tuple[int, int]]:
            return [(1, s + 1)]
    with pytest.raises(tbsg.InvalidGameError, match=r"raised KeyError: 'oops' at state 3"):
        tbsg.solve(Boom())
    with pytest.raises(tbsg.StateLimitError, match=r"max_states=2"):
        tbsg.solve(Boom(), max_states=2)


def test_non_stopping_names_trap_states() -> None:
    class Wait:
        initial = 0

        def player(self, s: int) -> int:
            return s

        def actions(self, s: int) -> tuple[str, ...]:
            return ("wait", "end")

        def outcomes(self, s: int, a: str) -> list[tuple[int, int | tbsg.Terminal]]:
            return [(1, 1 - s)] if a == "wait" else [(1, tbsg.DRAW)]
    with pytest.raises(tbsg.NonStoppingGameError) as info:
        tbsg.solve(Wait())
    assert set(info.value.trap_states) == {0, 1}
    # a profile that always ends is fine: the fixed strategy removes the trap
    assert tbsg.evaluate(Wait(), lambda s: "end").value() == H
    with pytest.raises(tbsg.InvalidStrategyError, match="not a legal action"):
        tbsg.evaluate(Wait(), lambda s: "fly")
    assert np.all(tbsg.best_response(Wait(), 0, {1: "end"}).choice >= 0)


def test_trap_states_exact_when_one_component_holds_a_smaller_end_component() -> None:
    # found by the property test: 0 -> 1, 1 loops or moves to 2, 2 ends or returns to 0. The
    # whole graph is one strongly connected component, but only {1} (looping) traps play;
    # the stopping check starts from the whole graph's components and must still refine
    game = LabelledGame(players=(0, 0, 0), moves=(
        (("a", ((Fraction(1), 1),)),),
        (("a", ((Fraction(1), 1),)), ("b", ((Fraction(1), 2),))),
        (("a", ((H, tbsg.win(0)), (H, 0))),)))
    g = compile_game(game)
    trap = end_components(g, scc=decompose(g).label).trapped
    assert [g.states[i] for i in np.flatnonzero(trap)] == [1]
    assert np.array_equal(trap, end_components(g).trapped)
    for exact in (True, False):
        with pytest.raises(tbsg.NonStoppingGameError) as info:
            tbsg.solve(game, exact=exact)
        assert set(info.value.trap_states) == {1}


def _direct_rounding_counts(g: CompiledGame[Any, Any]) -> tuple[list[float], list[float]]:
    """The kernel's rounding counts (tbsg.engine.bellman), recounted outcome by outcome from
    the Fraction values: the worst term's conversion and product (0 for a power-of-two
    probability, else 2), one rounding per addition, one for an inexact constant."""
    rel, absolute = [], []
    for k in range(g.n_actions):
        outs = range(int(g.out_ptr[k]), int(g.out_ptr[k + 1]))
        c = g.act_const[k]
        terms = len(outs) + (c != 0)
        worst = 0
        for o in outs:
            p = g.out_prob[o]
            f = float(p)
            exact_pow2 = f == p and f > 0 and math.frexp(f)[0] == 0.5
            worst = max(worst, 0 if exact_pow2 else 2)
        rel.append(float(max(terms - 1, 0) + (c != 0 and float(c) != c) + worst))
        absolute.append(2.0 * len(outs) + 2)
    return rel, absolute


def test_rounding_counts_from_the_rational_table_match_a_direct_count() -> None:
    # the kernel counts roundings per action from the table of distinct rationals; a direct
    # per-outcome count must agree, on powers of two (Risk or Safety), sixths (Pig) and
    # inexact terminal payoffs
    third = Fraction(1, 3)
    thirds = LabelledGame(players=(0, 1), moves=(
        (("a", ((third, 1), (2 * third, tbsg.Terminal(third)))),
         ("b", ((Fraction(1, 4), tbsg.DRAW), (Fraction(3, 4), 1)))),
        (("c", ((third, 0), (third, tbsg.win(1)), (third, tbsg.Terminal(Fraction(1, 7))))),),
    ))
    games: tuple[tbsg.Game[Any, Any], ...] = (risk_or_safety(6), pig(8), thirds)
    for game in games:
        g = compile_game(game)
        rel, absolute = rounding_counts(g)
        want_rel, want_abs = _direct_rounding_counts(g)
        assert rel.tolist() == want_rel
        assert absolute.tolist() == want_abs


# --- acyclic parts: one Bellman step per state, no per-level work (issue 13) ----------------

class _Ladder:
    """``n`` states in a row; at each, player 0 wins with probability 1/2, else play moves
    on; past the last state player 1 wins. Every state is its own level: the value of state
    ``i`` is ``1 - 2**-(n - i)`` (a geometric sum, by hand)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.initial = 0

    def player(self, s: int) -> int:
        return s % 2

    def actions(self, s: int) -> tuple[str, ...]:
        return ("go",)

    def outcomes(self, s: int, a: str) -> list[tuple[Fraction, Any]]:
        nxt = tbsg.win(1) if s + 1 == self.n else s + 1
        return [(Fraction(1, 2), tbsg.win(0)), (Fraction(1, 2), nxt)]


@pytest.mark.parametrize("n", [1, 63, 64, 300])
def test_deep_ladder_exact_and_float(n: int) -> None:
    game = _Ladder(n)
    sol = tbsg.solve(game)
    assert all(sol.value(i) == 1 - Fraction(1, 2 ** (n - i)) for i in range(n))
    approx = tbsg.solve(game, exact=False)
    assert approx.converged and approx.max_gap <= 1e-12
    for i in range(n):
        lo, hi = approx.bounds(i)
        assert Fraction(lo) <= sol.value(i) <= Fraction(hi)


def test_wide_acyclic_levels_and_merged_runs_agree_with_exact() -> None:
    # coinball: levels of up to 2t + 1 states (wide ones solved with arrays, narrow ones
    # merged into scalar runs); every float interval must hold the exact value, and the
    # float strategy must be an exactly optimal action where it is certain
    from tbsg.games import coinball

    game = coinball(40)
    sol = tbsg.solve(game)
    approx = tbsg.solve(game, exact=False)
    assert approx.converged
    for s in sol.states:
        lo, hi = approx.bounds(s)
        assert Fraction(lo) <= sol.value(s) <= Fraction(hi)


def test_fixed_strategies_build_only_what_they_reach() -> None:
    # Pig to 30, both players "hold at 20": the chain is a fraction of the game, and its
    # exact value is inside the float evaluation's bounds and equals the whole-game evaluation
    from tbsg.games import pig_hold_at

    game = pig(30)
    ev = tbsg.evaluate(game, pig_hold_at(20))
    whole = tbsg.evaluate(game, pig_hold_at(20), reach="game")
    assert ev.n_states < whole.n_states
    assert ev.value() == whole.value()
    assert all(ev.value(s) == whole.value(s) for s in ev.states)
    lo, hi = tbsg.evaluate(game, pig_hold_at(20), exact=False).bounds()
    assert Fraction(lo) <= ev.value() <= Fraction(hi)
    assert tbsg.verify(game, ev).states == ev.n_states
    with pytest.raises(tbsg.InvalidArgumentError, match="reach must be"):
        tbsg.evaluate(game, pig_hold_at(20), reach="all")


class _Stubborn:
    """Two states handing play back and forth; each step ends play with probability 1e-6
    (a win for the mover). Interval iteration contracts by about 1 - 1e-6 per sweep."""

    initial = 0

    def player(self, s: int) -> int:
        return s % 2

    def actions(self, s: int) -> tuple[str, ...]:
        return ("go",)

    def outcomes(self, s: int, a: str) -> list[tuple[Fraction, Any]]:
        e = Fraction(1, 10**6)
        return [(e, tbsg.win(s % 2)), (1 - e, 1 - s)]


def test_slow_contraction_reports_an_unreachable_tol_at_once() -> None:
    # found by review: the error took a minute (a million sweeps); the contraction over a
    # window of sweeps now predicts that tol cannot be reached (about 0.01 s), and the
    # suggested tol works
    with pytest.raises(tbsg.ToleranceError) as info:
        tbsg.solve(_Stubborn(), exact=False, tol=1e-12)
    exact = tbsg.solve(_Stubborn()).value()
    lo, hi = cast("tbsg.FloatSolution[int, str]", info.value.solution).bounds()
    assert Fraction(lo) <= exact <= Fraction(hi)
    suggested = float(str(info.value).split("try tol=")[1].split(",")[0])
    lo, hi = tbsg.solve(_Stubborn(), exact=False, tol=suggested).bounds()
    assert Fraction(lo) <= exact <= Fraction(hi) and hi - lo <= suggested


def test_compiled_index_arrays_are_int32_while_the_numbers_fit() -> None:
    # issue 13 (memory): 4 bytes per entry of the largest arrays; derived games may be int64
    from array import array

    from tbsg.engine.compile.plain import _narrow

    g = compile_game(pig(10))
    for name in ("act_ptr", "act_state", "out_ptr", "out_target", "act_code", "stop_code",
                 "out_code"):
        assert getattr(g, name).dtype == np.int32, name
    assert _narrow(array("q", [0, 2**31 - 1])).dtype == np.int32
    wide = _narrow(array("q", [0, 2**31]))
    assert wide.dtype == np.int64 and wide.tolist() == [0, 2**31]


def test_int64_and_int32_compiled_games_solve_alike() -> None:
    # the same game with its index arrays widened to int64 (as derived games may hold them)
    # gives the same components, end components and float bounds
    from tbsg.engine.floating import solve_float

    g = compile_game(pig(12))
    wide = dataclasses.replace(g, **{name: getattr(g, name).astype(np.int64) for name in (
        "act_ptr", "act_state", "out_ptr", "out_target", "act_code", "stop_code", "out_code")})
    c32, c64 = decompose(g), decompose(wide)
    assert np.array_equal(c32.label, c64.label) and np.array_equal(c32.members, c64.members)
    assert end_components(g).count == end_components(wide).count == 0
    r32, r64 = solve_float(g, c32), solve_float(wide, c64)
    assert np.array_equal(r32.lower, r64.lower) and np.array_equal(r32.upper, r64.upper)
    assert np.array_equal(r32.choice, r64.choice)


class _Walk:
    """A walk on 0..n-1 whose step probabilities (k/d, (d-k)/d for k = 1 + s % 3) are
    shared objects, or built afresh in every call (``fresh``), with a last value
    (``late``) first used only at the final states."""

    def __init__(self, n: int, fresh: bool) -> None:
        self.n, self.fresh, self.initial = n, fresh, 0
        self.shared = {k: (Fraction(k, 4), Fraction(4 - k, 4)) for k in (1, 2, 3)}
        self.late = (Fraction(1, 7), Fraction(6, 7))

    def player(self, s: int) -> int:
        return s % 2

    def actions(self, s: int) -> tuple[str, ...]:
        return ("a", "b")

    def outcomes(self, s: int, a: str) -> list[tuple[Fraction, int | tbsg.Terminal]]:
        k = 1 + (s + (a == "b")) % 3
        p, q = (Fraction(k, 4), Fraction(4 - k, 4)) if self.fresh else self.shared[k]
        if s >= self.n - 3:
            p, q = (Fraction(1, 7), Fraction(6, 7)) if self.fresh else self.late
        nxt: int | tbsg.Terminal = tbsg.win(s % 2) if s + 1 == self.n else s + 1
        return [(p, nxt), (q, tbsg.DRAW if s % 5 else tbsg.Terminal(Fraction(1, 3)))]


def test_probabilities_built_afresh_are_coded_like_shared_ones() -> None:
    # 12,000 states: the table of probability objects known by id is emptied (objects built
    # afresh are then found by value only) and a new value appears at the end
    shared, fresh = compile_game(_Walk(12_000, False)), compile_game(_Walk(12_000, True))
    vals_s, vals_f = np.array(shared.rationals, dtype=object), np.array(fresh.rationals, dtype=object)
    for name in ("out_code", "act_code", "stop_code"):
        assert list(vals_s[getattr(shared, name)]) == list(vals_f[getattr(fresh, name)]), name
    assert np.array_equal(shared.out_target, fresh.out_target)
    assert tbsg.solve(_Walk(300, True)).value() == tbsg.solve(_Walk(300, False)).value()


class _Twins:
    """A ring of ``n`` states and a tail of ``n`` states after it; every state has two
    actions reaching the same successors (repeated edges in the state graph)."""

    initial = 0

    def __init__(self, n: int) -> None:
        self.n = n

    def player(self, s: int) -> int:
        return s % 2

    def actions(self, s: int) -> tuple[str, ...]:
        return ("safe", "bold")

    def outcomes(self, s: int, a: str) -> list[tuple[Fraction, Any]]:
        p = Fraction(1, 3) if a == "safe" else Fraction(2, 3)
        n = self.n
        nxt: list[int | tbsg.Terminal]
        if s < n:  # the ring; its last state may also leave to the tail
            nxt = [(s + 1) % n] if s < n - 1 else [0, n]
        else:
            nxt = [s + 1] if s < 2 * n - 1 else [tbsg.win(1)]
        share = (1 - p) / len(nxt)
        return [(p, tbsg.win(s % 2))] + [(share, t) for t in nxt]


def test_decompose_merges_repeated_edges_without_touching_the_game() -> None:
    # issue 13: the state graph's repeated edges are merged in place before the
    # components are computed; the merge must work on a copy of the compiled game's
    # successor array (an earlier draft sorted the game's own array)
    n = 40
    g = compile_game(_Twins(n))
    before = g.out_target.copy()
    comps = decompose(g)
    assert np.array_equal(g.out_target, before)
    sizes = sorted(np.diff(comps.ptr).tolist())
    assert sizes == [1] * n + [n]  # the ring is one component, each tail state its own
    assert comps.level.max() == n  # the tail's n levels, then the ring
    assert np.array_equal(decompose(g).label, comps.label)
    sol = tbsg.solve(_Twins(n))
    approx = tbsg.solve(_Twins(n), exact=False)
    for s in sol.states:
        lo, hi = approx.bounds(s)
        assert Fraction(lo) <= sol.value(s) <= Fraction(hi)
