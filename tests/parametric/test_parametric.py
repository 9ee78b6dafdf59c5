"""Parametric games: values as exact rational functions of a bias, exact breakpoints.

Oracles: the numeric exact solver (tbsg.solve) at rational points, hand derivations in
the comments, and the printed Risk or Safety values (seed 000) through the numeric solver.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import pytest

sympy = pytest.importorskip("sympy")
pytest.importorskip("flint")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import tbsg  # noqa: E402
from strategies import parametric_games, substituted  # noqa: E402
from tbsg import DRAW, win  # noqa: E402
from tbsg.games import biased_pig, biased_risk_or_safety, pig, risk_or_safety  # noqa: E402
from tbsg.outputs.regions import region_latex, region_table  # noqa: E402
from tbsg.parametric import (  # noqa: E402
    RationalFunction,
    RealAlgebraic,
    evaluate_parametric,
    solve_parametric,
    verify_parametric,
)
from tbsg.parametric.algebraic import rational_between  # noqa: E402
from tbsg.plots import plot_parametric  # noqa: E402
from tbsg.sources.risk_or_safety import P000  # noqa: E402

P = sympy.Symbol("p")
HALF = Fraction(1, 2)


# -- agreement with the numeric catalog at the fair coin / die ---------------------------------

def _agrees_at(sol: Any, reference: Any, x: Fraction) -> None:
    """Every state's value and set of optimal actions equal the numeric exact solve's."""
    assert sol.n_states == reference.n_states
    for s in reference.states:
        assert sol.value(s, at=x) == reference.value(s), s
        assert set(sol.optimal_actions(s, at=x)) == set(reference.optimal_actions(s)), s


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_risk_or_safety_at_a_fair_coin_is_the_catalog_game(n: int) -> None:
    sol = solve_parametric(biased_risk_or_safety(n, P), P)
    reference = tbsg.solve(risk_or_safety(n))
    _agrees_at(sol, reference, HALF)
    # and the value formula of the fair coin's region, evaluated there
    assert sol.region_at(HALF).value()(HALF) == reference.value()
    # the printed P(0,0,0) (seed 000, Jehn 2026, sections 2 and 3.3), through the formula
    assert sol.region_at(HALF).value()(HALF) == Fraction(P000[n][1])
    assert verify_parametric(sol).ok


@pytest.mark.parametrize("goal", [3, 4, 5])
def test_pig_at_a_fair_die_is_the_catalog_game(goal: int) -> None:
    sol = solve_parametric(biased_pig(goal, 6, P), P)
    _agrees_at(sol, tbsg.solve(pig(goal)), Fraction(1, 6))


def test_evaluate_at_half_is_the_numeric_evaluation() -> None:
    game = risk_or_safety(3)
    reference = tbsg.solve(game)
    ev = evaluate_parametric(biased_risk_or_safety(3, P), P, reference.strategy)
    assert ev.value(at=HALF) == reference.value()
    for s, v in ev.values.items():
        assert v(HALF) == reference.value(s)


# -- hand-derived --------------------------------------------------------------------------

class OneState:
    """One state; the toss wins with probability p, loses with (1 - p)/2 and repeats with
    (1 - p)/2. Hand derivation: v = p + (1 - p)/2 * v, so v (1 + p)/2 = p and
    v(p) = 2p / (1 + p) (2/3 at p = 1/2, -> 1 as p -> 1)."""

    initial = 0

    def player(self, s: int) -> int:
        return 0

    def actions(self, s: int) -> tuple[str, ...]:
        return ("toss",)

    def outcomes(self, s: int, a: str) -> list[tuple[Any, Any]]:
        return [(P, win(0)), ((1 - P) / 2, win(1)), ((1 - P) / 2, 0)]


def test_one_state_value_is_the_hand_derived_rational_function() -> None:
    sol = solve_parametric(OneState(), P)
    p = RationalFunction.variable()
    assert len(sol.regions) == 1 and sol.breakpoints == ()
    assert sol.regions[0].value() == 2 * p / (1 + p)
    assert sol.value(at=Fraction(1, 3)) == Fraction(1, 2)  # 2/3 / (4/3)
    ev = evaluate_parametric(OneState(), P, lambda s: "toss")
    assert ev.value() == 2 * p / (1 + p)
    assert verify_parametric(sol).ok


class SafeOrRisky:
    """Player 0 chooses "safe" (a draw: 1/2) or "risky" (win with probability p^2, else lose).
    Hand derivation: v = max(1/2, p^2); risky is better iff p^2 > 1/2 iff p > 1/sqrt(2), a
    root of 2p^2 - 1; at p = 1/sqrt(2) both are optimal."""

    initial = 0

    def player(self, s: int) -> int:
        return 0

    def actions(self, s: int) -> tuple[str, ...]:
        return ("safe", "risky")

    def outcomes(self, s: int, a: str) -> list[tuple[Any, Any]]:
        if a == "safe":
            return [(1, DRAW)]
        return [(P**2, win(0)), (1 - P**2, win(1))]


def test_two_actions_with_an_irrational_breakpoint() -> None:
    sol = solve_parametric(SafeOrRisky(), P)
    assert len(sol.regions) == 2
    (bp,) = sol.breakpoints
    assert bp.at.minimal_polynomial == (-1, 0, 2)  # 2p^2 - 1, exactly
    # the isolating interval holds 1/sqrt(2): lo^2 < 1/2 < hi^2, and no other root of 2p^2 - 1
    assert 0 <= bp.at.lo < bp.at.hi and bp.at.lo ** 2 < HALF < bp.at.hi ** 2
    assert bp.at.decimal(30) == "0.707106781186547524400844362104"
    p = RationalFunction.variable()
    assert sol.regions[0].value() == RationalFunction.constant(HALF)
    assert sol.regions[1].value() == p * p
    assert sol.regions[0].action() == "safe" and sol.regions[1].action() == "risky"
    assert bp.changes == ((0, "safe", "risky"),)
    assert set(bp.ties[0]) == {"safe", "risky"}
    assert sol.regions[0].certificate() == ((0, "safe", "profile"), (0, "risky", "below"))
    assert sol.optimal_actions(at=Fraction(7, 10)) == ("safe",)  # 0.49 < 1/2
    assert sol.optimal_actions(at=Fraction(71, 100)) == ("risky",)  # 0.5041 > 1/2
    assert verify_parametric(sol).ok


def test_a_narrower_interval_has_no_breakpoint() -> None:
    sol = solve_parametric(SafeOrRisky(), P, (0, Fraction(7, 10)))
    assert len(sol.regions) == 1 and sol.regions[0].action() == "safe"
    with pytest.raises(tbsg.InvalidArgumentError, match="outside the parameter interval"):
        sol.value(at=Fraction(8, 10))


# -- algebraic numbers -------------------------------------------------------------------

def test_algebraic_numbers_compare_and_print_exactly() -> None:
    r = RealAlgebraic((-2, 0, 1), Fraction(1), Fraction(2))  # sqrt(2)
    s = RealAlgebraic((-2, 0, 1), Fraction(7, 5), Fraction(3, 2))  # the same number
    assert r == s and hash(r) == hash(s)
    assert Fraction(141421, 100000) < r < Fraction(141422, 100000)
    assert r.decimal(0) == "1" and r.decimal(5) == "1.41421"
    assert RealAlgebraic.rational(Fraction(-1, 3)).decimal(3) == "-0.334"  # rounded down
    golden = RealAlgebraic((-1, -1, 1), Fraction(1), Fraction(2))  # (1 + sqrt 5)/2
    assert r < golden and rational_between(r, golden) == Fraction(3, 2)
    with pytest.raises(tbsg.InvalidArgumentError, match="not an isolating interval"):
        RealAlgebraic((-2, 0, 1), Fraction(2), Fraction(3))


# -- bad input ------------------------------------------------------------------------------

class Table:
    """A one-state game whose toss has the given outcomes."""

    initial = 0

    def __init__(self, outcomes: list[tuple[Any, Any]]) -> None:
        self.outs = outcomes

    def player(self, s: int) -> int:
        return 0

    def actions(self, s: int) -> tuple[str, ...]:
        return ("toss",)

    def outcomes(self, s: int, a: str) -> list[tuple[Any, Any]]:
        return self.outs


@pytest.mark.parametrize(("outcomes", "error", "match"), [
    ([(P, win(0)), (P, win(1))], tbsg.InvalidGameError, r"sum to 2\*p, not identically 1"),
    ([(2 * P - 1, win(0)), (2 - 2 * P, win(1))], tbsg.InvalidGameError,
     r"2\*p - 1 vanishes at p = 0.5.* inside the interval \(0, 1\)"),
    ([(P + sympy.Float(0.5), win(0)), (-P + HALF, win(1))], tbsg.ExactnessError, "holds the float"),
    ([(sympy.Symbol("q"), win(0)), (1 - sympy.Symbol("q"), win(1))], tbsg.InvalidGameError,
     r"depend only on the parameter p"),
    ([(sympy.sqrt(P), win(0)), (1 - sympy.sqrt(P), win(1))], tbsg.InvalidGameError,
     "rational function of p"),
    ([(P, 0), (1 - P, 0)], tbsg.NonStoppingGameError, "not stopping"),
])
def test_bad_parametric_games_are_refused(outcomes: list[tuple[Any, Any]], error: type[Exception],
                                          match: str) -> None:
    with pytest.raises(error, match=match):
        solve_parametric(Table(outcomes), P)


def test_an_outcome_of_probability_zero_is_dropped() -> None:
    # as in the numeric compile: the state it names is not reached through it
    sol = solve_parametric(Table([(P, win(0)), (1 - P, win(1)), (0 * P, 7)]), P)
    assert sol.n_states == 1 and sol.regions[0].value() == RationalFunction.variable()


def test_probability_positive_on_a_narrower_interval_is_accepted() -> None:
    game = Table([(2 * P - 1, win(0)), (2 - 2 * P, win(1))])
    sol = solve_parametric(game, P, (HALF, 1))
    assert sol.regions[0].value() == 2 * RationalFunction.variable() - 1


@pytest.mark.parametrize(("interval", "error"), [
    ((1, 0), tbsg.InvalidArgumentError), ((0.25, 1), tbsg.ExactnessError), ((0,), tbsg.InvalidArgumentError),
])
def test_bad_intervals(interval: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        solve_parametric(OneState(), P, interval)


def test_parameter_must_be_a_symbol() -> None:
    with pytest.raises(tbsg.InvalidArgumentError, match=r"sympy\.Symbol"):
        solve_parametric(OneState(), "p")


# -- the certificate catches tampering -------------------------------------------------------

def test_verify_rejects_a_wrong_profile_or_formula() -> None:
    sol = solve_parametric(SafeOrRisky(), P)
    left, right = sol.regions
    swapped = dataclasses.replace(left, _choice=right._choice, _values=right._values)
    bad = dataclasses.replace(sol, regions=(swapped, right))
    check = verify_parametric(bad)
    assert not check.ok and any("better than the profile" in m for m in check.problems)
    wrong_value = dataclasses.replace(left, _values=(RationalFunction.constant(Fraction(1, 3)),))
    check = verify_parametric(dataclasses.replace(sol, regions=(wrong_value, right)))
    assert not check.ok and "does not solve the profile's equations" in check.problems[0]
    gap = dataclasses.replace(right, lo=RealAlgebraic.rational(Fraction(9, 10)))
    assert not verify_parametric(dataclasses.replace(sol, regions=(left, gap))).ok
    no_tie = dataclasses.replace(sol.breakpoints[0], ties={})
    check = verify_parametric(dataclasses.replace(sol, breakpoints=(no_tie,)))
    assert not check.ok and "optimal actions are" in check.problems[0]
    # a region's value is read from its checked formulas: there is no other record to alter
    with pytest.raises(TypeError):
        dataclasses.replace(left, value=RationalFunction.constant(Fraction(1, 7)))  # type: ignore[call-arg]
    # the recorded changes are checked, and the game is compiled afresh (a solution moved
    # onto another game is refused)
    no_change = dataclasses.replace(sol.breakpoints[0], changes=())
    check = verify_parametric(dataclasses.replace(sol, breakpoints=(no_change,)))
    assert not check.ok and "recorded changes" in check.problems[0]
    check = verify_parametric(dataclasses.replace(sol, game=SaferOrRiskier()))
    assert not check.ok and any("does not solve the profile's equations" in m for m in check.problems)
    assert any("constant payoff c_k of action 'risky' of state 0" in m for m in check.problems)


class SaferOrRiskier(SafeOrRisky):
    """The same states and actions, risky winning with probability p^3."""

    def outcomes(self, s: int, a: str) -> list[tuple[Any, Any]]:
        if a == "safe":
            return [(1, DRAW)]
        return [(P**3, win(0)), (1 - P**3, win(1))]


def test_verify_refuses_malformed_breakpoints_without_hanging() -> None:
    # the breakpoint 1/sqrt(2) given a reducible "minimal" polynomial (2p^2 - 1)(p - 5),
    # which region_table would print: refused before any comparison (which could not
    # separate two descriptions of one number)
    sol = solve_parametric(SafeOrRisky(), P)
    left, right = sol.regions
    (b,) = sol.breakpoints
    wrong = RealAlgebraic((5, -1, -10, 2), Fraction(7, 10), Fraction(71, 100))
    bad = dataclasses.replace(sol, regions=(dataclasses.replace(left, hi=wrong),
                                            dataclasses.replace(right, lo=wrong)),
                              breakpoints=(dataclasses.replace(b, at=wrong),))
    check = verify_parametric(bad)
    assert not check.ok and "region 0: its upper end has a reducible minimal polynomial" in check.problems[0]
    # the right polynomial with a cached interval that misses the root
    at = RealAlgebraic(b.at.minimal_polynomial, b.at.lo, b.at.hi)
    object.__setattr__(at, "tight", (Fraction(1, 10), Fraction(2, 10)))
    bad = dataclasses.replace(sol, regions=(dataclasses.replace(left, hi=at),
                                            dataclasses.replace(right, lo=at)),
                              breakpoints=(dataclasses.replace(b, at=at),))
    check = verify_parametric(bad)
    assert not check.ok and check.problems[0] == (
        "region 0: its upper end has no single root of 2*p**2 - 1 in [1/10, 1/5]")


def test_verify_reports_malformed_records_instead_of_raising() -> None:
    sol = solve_parametric(SafeOrRisky(), P)
    left, right = sol.regions
    (b,) = sol.breakpoints
    cases = [
        (dataclasses.replace(sol, regions=(dataclasses.replace(left, _choice=("safe",)), right)),  # type: ignore[arg-type]
         "region 0: the profile plays 'safe' at state 0, not one of that state's actions"),
        (dataclasses.replace(sol, regions=(dataclasses.replace(left, _choice=(-1,)), right)),
         "region 0: the profile plays -1"),
        (dataclasses.replace(sol, regions=(dataclasses.replace(left, _zero=None), right)),  # type: ignore[arg-type]
         "region 0: its record of tied actions is malformed"),
        (dataclasses.replace(sol, regions=(dataclasses.replace(left, sample=0.5), right)),  # type: ignore[arg-type]
         "region 0: its sample point 0.5 is not a rational inside it"),
        (dataclasses.replace(sol, breakpoints=(dataclasses.replace(b, ties=[(0, ("safe",))]),)),  # type: ignore[arg-type]
         "breakpoint 0: its ties are not a mapping"),
        (dataclasses.replace(sol, compiled=None), "sol.compiled) is not a compiled parametric game"),  # type: ignore[arg-type]
        (dataclasses.replace(sol, regions=(dataclasses.replace(left, _pc=dataclasses.replace(
            left._pc, index={})), right)), "region 0's compiled game: its index numbers state 0"),
    ]
    for bad, message in cases:
        check = verify_parametric(bad)
        assert not check.ok and any(message in m for m in check.problems), (message, check.problems)


def test_merged_regions_keep_their_touch_points() -> None:
    # one region cut in two at the point where "odd" touches 0 (as two gaps' regions would
    # be): joined again, that point is inside and recorded, and the certificate holds
    from tbsg.parametric.solve import _merge

    sol = solve_parametric(Touch(), P)
    (region,) = sol.regions
    half = RealAlgebraic.rational(HALF)
    assert region.touch_points == ((half, 0, "odd"),)
    pieces = [dataclasses.replace(region, hi=half, _touch=()),
              dataclasses.replace(region, lo=half, sample=Fraction(3, 4), _touch=())]
    (merged,) = _merge(pieces)
    assert merged.touch_points == region.touch_points and (merged.lo, merged.hi) == (region.lo, region.hi)
    assert verify_parametric(dataclasses.replace(sol, regions=(merged,))).ok


class Touch:
    """Player 0: "even" wins with probability 1/2, "odd" with 1/2 - (p - 1/2)^2, whose
    advantage -(p - 1/2)^2 touches 0 at p = 1/2 only."""

    initial = 0

    def player(self, s: int) -> int:
        return 0

    def actions(self, s: int) -> tuple[str, ...]:
        return ("even", "odd")

    def outcomes(self, s: int, a: str) -> list[tuple[Any, Any]]:
        q = HALF if a == "even" else HALF - (P - HALF) ** 2
        return [(q, win(0)), (1 - q, win(1))]


# -- outputs -------------------------------------------------------------------------------

def test_table_latex_and_plot(tmp_path: Any) -> None:
    sol = solve_parametric(SafeOrRisky(), P)
    table = region_table(sol)
    assert "0.707106" in table and "p^2" in table and "safe -> risky" in table
    tex = region_latex(sol)
    assert "\\begin{cases}" in tex and "p^{2}" in tex and "2 p^{2} - 1" in tex
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    fig = plot_parametric(sol)
    fig.savefig(tmp_path / "p.png")
    assert len(fig.axes) == 2 and (tmp_path / "p.png").stat().st_size > 1000


def test_import_of_the_lazy_front_door() -> None:
    assert tbsg.solve_parametric is solve_parametric
    assert "solve_parametric" in dir(tbsg)


# -- properties ------------------------------------------------------------------------------

@settings(max_examples=30)
@given(game=parametric_games(P), ts=st.lists(st.fractions(0, 1), min_size=1, max_size=3))
def test_regions_agree_with_the_numeric_solver_inside(game: Any, ts: list[Fraction]) -> None:
    sol = solve_parametric(game, P)
    assert verify_parametric(sol).ok
    states = sol.compiled.states
    for r in sol.regions:
        lo = r.lo.tight[1]  # type: ignore[index]  # rationals just inside the region's ends
        hi = r.hi.tight[0]  # type: ignore[index]
        points = [r.sample] + [lo + t * (hi - lo) for t in ts if lo < lo + t * (hi - lo) < hi]
        for x in points:
            numeric = tbsg.solve(substituted(game, P, x))
            for s in states:
                assert r.value(s, at=x) == numeric.value(s)
                assert r.action(s) in numeric.optimal_actions(s)


@settings(max_examples=20)
@given(game=parametric_games(P), t=st.fractions(0, 1))
def test_breakpoint_ties_are_the_numeric_ties_at_rational_breakpoints(game: Any, t: Fraction) -> None:
    # away from breakpoints the optimal actions are those of the region (a rational x
    # chosen uniformly is a breakpoint only if that breakpoint is rational)
    sol = solve_parametric(game, P)
    x = Fraction(1, 1000) + t * Fraction(998, 1000)
    numeric = tbsg.solve(substituted(game, P, x))
    for s in sol.compiled.states:
        assert set(sol.optimal_actions(s, at=x)) == set(numeric.optimal_actions(s))
        assert sol.value(s, at=x) == numeric.value(s)


@pytest.mark.slow
@pytest.mark.parametrize("n", [5, 6])
def test_risk_or_safety_beyond_four_at_a_fair_coin(n: int) -> None:
    sol = solve_parametric(biased_risk_or_safety(n, P), P)
    _agrees_at(sol, tbsg.solve(risk_or_safety(n)), HALF)
    assert sol.value(at=HALF) == Fraction(P000[n][1])  # seed 000, Jehn 2026, section 3.3
    assert verify_parametric(sol).ok



def test_irrational_coefficients_are_refused_by_name() -> None:
    # sqrt(2) p / 2: an irrational coefficient, which sympy reports as CoercionFailed
    import sympy

    from tbsg.parametric.rational import RationalFunction

    with pytest.raises(tbsg.InvalidGameError, match=r"rational coefficients, got sqrt\(2\)\*p/2"):
        RationalFunction.from_expr(sympy.sqrt(2) * P / 2, P, "probability at state 0, action 'a'")


def test_numeric_solvers_point_a_symbolic_game_to_solve_parametric() -> None:
    # a parametric game handed to tbsg.solve names the symbol and the right front door; a
    # sympy number is refused (exactness is a type) with the exact conversion to use
    p = sympy.Symbol("p")
    with pytest.raises(tbsg.ExactnessError, match=r"depends on p: .*tbsg\.solve_parametric\(game, p\)"):
        tbsg.solve(biased_pig(3, 6, p))
    with pytest.raises(tbsg.ExactnessError, match=r"Fraction\(int\(x\.p\), int\(x\.q\)\)"):
        tbsg.solve(biased_pig(3, 6, sympy.Rational(1, 6)))


@pytest.mark.parametrize(("old", "new"), [
    ("region_table", tbsg.region_table), ("region_latex", tbsg.region_latex),
    ("region_rows", tbsg.region_rows), ("plot_parametric", tbsg.plots.plot_parametric)])
def test_moved_output_names_still_work_and_warn(old: str, new: object) -> None:
    import tbsg.parametric as parametric

    with pytest.warns(DeprecationWarning, match=f"tbsg.parametric.{old} is deprecated"):
        assert getattr(parametric, old) is new


# -- the query vocabulary ----------------------------------------------------------------------

def test_parametric_results_speak_the_query_vocabulary() -> None:
    # SafeOrRisky: v = 1/2 on (0, 1/sqrt 2] ("safe"), p^2 beyond ("risky"); one state, player 0's
    sol = solve_parametric(SafeOrRisky(), P)
    p = RationalFunction.variable()
    left, right = sol.regions
    assert (sol.initial, sol.states, sol.n_states, sol.player()) == (0, [0], 1, 0)
    assert right.value() == right.value(0) == p * p and right.value(player=1) == 1 - p * p
    assert right.value(at=Fraction(3, 4)) == Fraction(9, 16) == right.value_to_move(at=Fraction(3, 4))
    assert right.action_values() == {"safe": RationalFunction.constant(HALF), "risky": p * p}
    assert right.action_values(at=Fraction(3, 4), player=1) == {"safe": HALF, "risky": Fraction(7, 16)}
    assert right.action_values_to_move(at=Fraction(3, 4)) == {"safe": HALF, "risky": Fraction(9, 16)}
    assert dict(right.values) == {0: p * p} and right.strategy == {0: "risky"}
    with pytest.raises(tbsg.InvalidArgumentError, match="outside the region"):
        left.value(at=Fraction(3, 4))  # 3/4 > 1/sqrt(2): the right region's
    # the whole solution: a piecewise value; actions need the point
    v = sol.value()
    assert [f for _, _, f in v.pieces] == [RationalFunction.constant(HALF), p * p]
    assert v(Fraction(3, 4)) == sol.value(at=Fraction(3, 4)) == Fraction(9, 16) and v(HALF) == HALF
    assert sol.value(player=1)(Fraction(3, 4)) == Fraction(7, 16) == sol.value(0, player=1, at=Fraction(3, 4))
    assert sol.values[0] == v and v.formula(HALF) == RationalFunction.constant(HALF)
    assert sol.action(at=Fraction(3, 4)) == "risky" and sol.optimal_actions(at=HALF) == ("safe",)
    assert sol.action_values(at=Fraction(3, 4)) == {"safe": HALF, "risky": Fraction(9, 16)}
    assert sol.action_values_to_move(at=HALF) == {"safe": HALF, "risky": Fraction(1, 4)}
    with pytest.raises(tbsg.InvalidArgumentError, match="outside the parameter interval"):
        v(Fraction(3, 2))
    with pytest.raises(tbsg.UnknownStateError, match="not a reachable state"):
        sol.value(7)
    # a fixed profile: the same queries, nobody optimises
    ev = evaluate_parametric(SafeOrRisky(), P, {0: "risky"})
    assert ev.value() == p * p and ev.value(at=HALF) == Fraction(1, 4) and ev.action() == "risky"
    assert ev.optimal_actions() == ("risky",) and ev.action_values() == {"risky": p * p}
    assert ev.action_values_to_move(at=HALF) == {"risky": Fraction(1, 4)} and ev.strategy == {0: "risky"}
    with pytest.raises(tbsg.InvalidArgumentError, match="outside the parameter interval"):
        ev.value(at=2)


def test_old_parametric_names_still_answer_and_warn() -> None:
    sol = solve_parametric(SafeOrRisky(), P)
    ev = evaluate_parametric(SafeOrRisky(), P, {0: "risky"})
    p = RationalFunction.variable()
    x = Fraction(3, 4)
    right = sol.regions[1]
    cases: list[tuple[Any, object, str]] = [
        (lambda: sol.value_at(x), Fraction(9, 16), r"value_at\(x, state\) is deprecated.*\(state, at=x\)"),
        (lambda: sol.value_at(x, 0), Fraction(9, 16), "value_at"),
        (lambda: sol.value_formula(x), p * p, r"use ParametricSolution.region_at\(x\).value\(state\)"),
        (lambda: sol.optimal_actions_at(x, 0), ("risky",), r"optimal_actions\(state, at=x\)"),
        (lambda: ev.value_at(x), Fraction(9, 16), r"ParametricValues.value\(state, at=x\)"),
        (lambda: right.value_of(), p * p, r"Region.value_of\(state\) is deprecated"),
        (lambda: right.value_of(0), p * p, "value_of"),
        # the old attribute: compared, called at a point, used in arithmetic, its methods
        (lambda: right.value == p * p, True, "Region.value as an attribute"),
        (lambda: right.value(x), Fraction(9, 16), "calling Region.value as an attribute"),
        (lambda: right.value - HALF, p * p - HALF, "Region.value as an attribute"),  # type: ignore[operator]  # the deprecated attribute
        (lambda: right.value.degree(), 2, "Region.value as an attribute"),  # type: ignore[attr-defined]  # the deprecated attribute
        (lambda: repr(right.value), repr(p * p), "Region.value as an attribute"),
        # None for the initial state (deprecated)
        (lambda: ev.value(None), p * p, r"state=None for the initial state"),
        (lambda: right.optimal_actions(None), ("risky",), r"state=None"),
    ]
    for old, want, message in cases:
        with pytest.warns(DeprecationWarning, match=message) as caught:
            assert old() == want
        assert caught[0].filename == __file__  # the warning points at the caller's line


def test_none_is_a_state_where_the_game_has_it() -> None:
    class NoneFirst:  # a game whose initial state is None: None is looked up, no warning
        initial = None

        def player(self, s: object) -> int:
            return 0

        def actions(self, s: object) -> tuple[str, ...]:
            return ("go",)

        def outcomes(self, s: object, a: str) -> list[tuple[Any, Any]]:
            return [(P, win(0)), (1 - P, win(1))] if s is None else [(1, DRAW)]

    ev = evaluate_parametric(NoneFirst(), P, lambda s: "go")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ev.value(None) == RationalFunction.variable() == ev.value()
