"""Regressions of the second adversarial review (issue 22), items 4 and 5.

Item 4: a parametric certificate must check every field a user reads from a
``ParametricSolution`` against a fresh compile of the game. Each test tampers with one
field of a genuine solution (frozen objects edited with ``dataclasses.replace``), shows
what a user would now read, and asks ``verify_parametric`` to refuse it, naming the
region (or breakpoint) and the state.

Item 5: ``LengthDistribution`` describes one random variable, the counted length ``L`` of
play (``infinity`` on play that never ends); its mean and variance are those of the law
its ``pmf`` gives.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tbsg
from tbsg import Terminal, win
from tbsg.testing.strategies import TableGame

sympy = pytest.importorskip("sympy")
pytest.importorskip("flint")

from tbsg.games import biased_risk_or_safety  # noqa: E402
from tbsg.parametric import RationalFunction, solve_parametric, verify_parametric  # noqa: E402

P = sympy.Symbol("p")
H = Fraction(1, 2)


# --- 4. parametric certificates check every field against a fresh compile ---------------------

@pytest.fixture(scope="module")
def ros2() -> Any:
    """Risk or Safety to 2 with P(heads) = p: 3 regions (stop, stop then toss, toss)."""
    sol = solve_parametric(biased_risk_or_safety(2, P), P)
    assert verify_parametric(sol).ok and len(sol.regions) == 3
    return sol


def _with_region(sol: Any, n: int, region: Any) -> Any:
    regions = list(sol.regions)
    regions[n] = region
    return dataclasses.replace(sol, regions=tuple(regions))


def _first_choice_state(sol: Any) -> Any:
    """The first state with two actions (0-0, one point open: toss on or stop)."""
    pc = sol.compiled
    return next(s for i, s in enumerate(pc.states) if len(pc.actions_of(i)) == 2)


def _refused(sol: Any, *words: str) -> list[str]:
    check = verify_parametric(sol)
    assert not check.ok
    hits = [m for m in check.problems if all(w in m for w in words)]
    assert hits, check.problems
    return hits


def test_a_worse_action_through_a_regions_state_order(ros2: Any) -> None:
    # two states with the same actions swap places in region 1's compiled game: the region
    # now reports, at 0-0 with one point open, the action optimal at the other state
    pc = ros2.compiled
    s = _first_choice_state(ros2)
    i = pc.index[s]
    region = ros2.regions[1]
    def labels(j: int) -> list[Any]:
        return [pc.act_labels[k] for k in pc.actions_of(j)]

    j = next(j for j in range(pc.n_states) if labels(j) == labels(i)
             and pc.act_labels[region._choice[j]] != pc.act_labels[region._choice[i]])
    states = list(pc.states)
    states[i], states[j] = states[j], states[i]
    bad_pc = dataclasses.replace(pc, states=states, index={t: n for n, t in enumerate(states)})
    bad = _with_region(ros2, 1, dataclasses.replace(region, _pc=bad_pc))
    assert bad.regions[1].action(s) != region.action(s)  # what a user reads
    _refused(bad, "region 1", repr(s))


def test_a_worse_action_through_a_changed_label(ros2: Any) -> None:
    # region 2 (toss whatever the score) relabels "toss" as "stop" at one state
    pc = ros2.compiled
    s = _first_choice_state(ros2)
    k, m = pc.actions_of(pc.index[s])
    labels = list(pc.act_labels)
    labels[k], labels[m] = labels[m], labels[k]
    region = ros2.regions[2]
    bad = _with_region(ros2, 2, dataclasses.replace(region, _pc=dataclasses.replace(pc, act_labels=labels)))
    assert (bad.regions[2].action(s), region.action(s)) == ("stop", "toss")
    assert bad.regions[2].strategy[s] == "stop"
    _refused(bad, "region 2", repr(s), "'stop'")


def test_an_extra_tie_in_a_region(ros2: Any) -> None:
    pc = ros2.compiled
    s = _first_choice_state(ros2)
    region = ros2.regions[2]
    stop = pc.action_index(pc.index[s], "stop")
    bad = _with_region(ros2, 2, dataclasses.replace(region, _zero=(stop,)))
    assert (bad.regions[2].optimal_actions(s), region.optimal_actions(s)) == (("toss", "stop"), ("toss",))
    _refused(bad, "region 2", repr(s), "'stop'", "not identically 0")


def test_a_changed_constant_payoff(ros2: Any) -> None:
    # c_k of "stop" at 0-0 (one point open) moved by minus its advantage: optimal_actions(at=)
    # now reports a tie the game does not have
    pc = ros2.compiled
    s = _first_choice_state(ros2)
    i = pc.index[s]
    stop = pc.action_index(i, "stop")
    region = ros2.region_at(H)
    values = region._values
    q = pc.const[stop] + sum((pc.out_prob[o] * values[pc.out_target[o]]
                              for o in range(pc.out_ptr[stop], pc.out_ptr[stop + 1])),
                             RationalFunction.constant(0))
    const = list(pc.const)
    const[stop] = pc.const[stop] - (q - values[i])
    bad_pc = dataclasses.replace(pc, const=const)
    bad = dataclasses.replace(ros2, compiled=bad_pc)
    assert bad.optimal_actions(s, at=H) == ("toss", "stop") and ros2.optimal_actions(s, at=H) == ("toss",)
    _refused(bad, "sol.compiled", "constant payoff", repr(s), "'stop'")
    # the same edit in the region's own compiled game
    n = ros2.regions.index(region)
    bad = _with_region(ros2, n, dataclasses.replace(region, _pc=bad_pc))
    _refused(bad, f"region {n}", "constant payoff", repr(s), "'stop'")


def test_an_extra_or_repeated_tie_at_a_breakpoint(ros2: Any) -> None:
    b = ros2.breakpoints[0]
    start = ros2.compiled.states[0]  # one action: no ties to record
    bad = dataclasses.replace(ros2, breakpoints=(dataclasses.replace(
        b, ties={**b.ties, start: ("toss", "toss")}), ros2.breakpoints[1]))
    _refused(bad, "breakpoint 0", repr(start))
    # a tie recorded twice (a set comparison would not see it)
    s, acts = next(iter(b.ties.items()))
    bad = dataclasses.replace(ros2, breakpoints=(dataclasses.replace(
        b, ties={**b.ties, s: (*acts, acts[0])}), ros2.breakpoints[1]))
    _refused(bad, "breakpoint 0", repr(s))


def test_repeated_changes_at_a_breakpoint(ros2: Any) -> None:
    b = ros2.breakpoints[0]
    bad = dataclasses.replace(ros2, breakpoints=(dataclasses.replace(
        b, changes=(*b.changes, b.changes[0])), ros2.breakpoints[1]))
    _refused(bad, "breakpoint 0", "recorded changes", f"the change at state {b.changes[0][0]!r} is repeated")
    bad = dataclasses.replace(ros2, breakpoints=(dataclasses.replace(b, changes=b.changes[1:]),
                                                 ros2.breakpoints[1]))
    _refused(bad, "breakpoint 0", f"state {b.changes[0][0]!r} changes from 'stop' to 'toss', not recorded")


class Touch:
    """Player 0: "even" wins with probability 1/2, "odd" with 1/2 - (p - 1/2)^2. "odd"'s
    advantage -(p - 1/2)^2 is < 0 on (0, 1) except at p = 1/2, where it touches 0."""

    initial = 0

    def player(self, s: int) -> int:
        return 0

    def actions(self, s: int) -> tuple[str, ...]:
        return ("even", "odd")

    def outcomes(self, s: int, a: str) -> list[tuple[Any, Any]]:
        q = H if a == "even" else H - (P - H) ** 2
        return [(q, win(0)), (1 - q, win(1))]


def test_a_touch_point_left_out_or_made_up() -> None:
    sol = solve_parametric(Touch(), P)
    (region,) = sol.regions
    assert verify_parametric(sol).ok
    assert region.certificate() == ((0, "even", "profile"), (0, "odd", "touches 0 at 0.500000000"))
    bad = dataclasses.replace(sol, regions=(dataclasses.replace(region, _touch=()),))
    assert bad.regions[0].certificate()[1] == (0, "odd", "below")
    _refused(bad, "region 0", "'odd' at state 0", "touches 0 at 1/2", "not recorded")
    made_up = ((region._touch[0][0], 0),)  # "even", the profile's own action
    bad = dataclasses.replace(sol, regions=(dataclasses.replace(region, _touch=made_up),))
    _refused(bad, "region 0", "'even' at state 0", "not a root")


class Twins:
    """Player 0: "a" and "b" both win with probability p (tied throughout); "c" loses."""

    initial = 0

    def player(self, s: int) -> int:
        return 0

    def actions(self, s: int) -> tuple[str, ...]:
        return ("a", "b", "c")

    def outcomes(self, s: int, a: str) -> list[tuple[Any, Any]]:
        return [(1, win(1))] if a == "c" else [(P, win(0)), (1 - P, win(1))]


def test_a_tie_left_out() -> None:
    sol = solve_parametric(Twins(), P)
    (region,) = sol.regions
    assert verify_parametric(sol).ok and region.optimal_actions() == ("a", "b")
    bad = dataclasses.replace(sol, regions=(dataclasses.replace(region, _zero=()),))
    assert bad.regions[0].optimal_actions() == ("a",)
    _refused(bad, "region 0", "action 'b'", "state 0", "not recorded as optimal")


# --- 5. one law for the length of play ---------------------------------------------------------

def closed_zero_loop() -> TableGame:
    """0 -> 1 or 2 (1/2 each); 1 ends (player 0 wins) w.p. 1/2, else back to 1; 2 waits
    forever."""
    return TableGame(players=(0, 0, 0), moves=(
        (("go", ((H, 1), (H, 2))),),
        (("go", ((H, win(0)), (H, 1))),),
        (("wait", ((Fraction(1), 2),)),),
    ))


def test_trapped_play_is_its_own_outcome_not_a_length() -> None:
    # counting 0 in the trap: play through state 2 never ends, so L = infinity there with
    # probability 1/2 and E L is infinite. The review found mean 2 (the expected total count,
    # 1/2 * 1 from the trapped play + 1/2 * 3 from the rest) beside a pmf of mass 1/2 whose
    # conditional mean is 3 (L = 1 + G, G geometric(1/2)): no law has both.
    c = tbsg.chain(closed_zero_loop(), lambda s: "go" if s != 2 else "wait")
    count = lambda s, a: 0 if s == 2 else 1  # noqa: E731
    d = c.length_distribution(40, count)
    assert d.mean is None and d.variance is None
    assert d.pmf[:5] == (0, 0, Fraction(1, 4), Fraction(1, 8), Fraction(1, 16))
    assert d.ends == H and d.trapped == H
    assert d.beyond() == d.trapped + H**40  # P(L > 40) = P(L = infinity) + P(40 < L < infinity)
    bounds = c.length_distribution(40, count, exact=False)
    assert bounds.mean is None and bounds.variance is None
    assert bounds.trapped[0] <= H <= bounds.trapped[1]
    # the expected total count is another quantity, finite here (documented as such)
    assert c.expected_steps(count) == 2
    # from state 1 play ends surely: one law, and the mean is expected_steps'
    d1 = c.length_distribution(3, count, state=1)
    assert (d1.trapped, d1.mean, d1.variance) == (0, 2, 2) == (0, c.expected_steps(count, state=1),
                                                               c.variance_of_steps(count, state=1))


@st.composite
def trap_chains(draw: st.DrawFn) -> tuple[TableGame, list[int]]:
    """A random chain (one action per state) whose moves go forward only, some of its states
    traps that wait forever, and a whole count per state (0 to 2, traps included): play
    ends or is trapped within ``n`` moves, so the pmf has finite support."""
    n = draw(st.integers(1, 6))
    moves: list[Any] = []
    traps = [s > 0 and draw(st.integers(0, 3)) == 0 for s in range(n)]
    for s in range(n):
        if traps[s]:
            moves.append((("wait", ((Fraction(1), s),)),))
            continue
        k = draw(st.integers(1, 3))
        weights = [draw(st.integers(1, 5)) for _ in range(k)]
        succ: list[int | Terminal] = []
        for _ in range(k):
            if s + 1 < n and draw(st.booleans()):
                succ.append(draw(st.integers(s + 1, n - 1)))
            else:
                succ.append(Terminal(Fraction(draw(st.integers(0, 2)), 2)))
        outs = tuple((Fraction(w, sum(weights)), t) for w, t in zip(weights, succ, strict=True))
        moves.append((("go", outs),))
    counts = [draw(st.integers(0, 2)) for _ in range(n)]
    return TableGame(players=(0,) * n, moves=tuple(moves)), counts


@settings(max_examples=80, deadline=None)
@given(trap_chains())
def test_mean_and_variance_are_those_of_the_pmf(case: tuple[TableGame, list[int]]) -> None:
    game, counts = case
    c = tbsg.chain(game, lambda s: game.actions(s)[0])
    count = lambda s, a: counts[s]  # noqa: E731
    horizon = 2 * game.n + 1  # beyond every finite length
    d = c.length_distribution(horizon, count)
    assert sum(d.pmf, Fraction(0)) == d.ends  # every finite length is within the horizon
    if d.ends != 1:  # L = infinity with positive probability: E L is infinite
        assert d.mean is None and d.variance is None
        assert d.trapped == 1 - d.ends == d.beyond()
        bounds = c.length_distribution(horizon, count, exact=False)
        assert bounds.mean is None and bounds.variance is None
        return
    assert d.trapped == 0 == d.beyond()
    mean = sum((k * p for k, p in enumerate(d.pmf)), Fraction(0))
    assert d.mean == mean == c.expected_steps(count)
    assert d.variance == sum(((k - mean) ** 2 * p for k, p in enumerate(d.pmf)), Fraction(0))
    assert d.variance == c.variance_of_steps(count)
