"""Non-stopping games with a payoff for never-ending play: ``solve(game, infinite_play=c)``.

Every hand-solved game below has its derivation in comments. The property tests use an
oracle written here, independently of tbsg: the value of a pure stationary profile in a
finite Markov chain is ``c`` at states from which no terminal is reachable (play never
ends there) and the unique solution of ``v = b + P v`` (Gauss-Jordan on Fractions) on the
others; the value of the game at a state is max over player 0's profiles of min over
player 1's (both players have optimal positional strategies, Liggett and Lippman 1969).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tbsg
from oracles import PingPong, Profile, Wait, all_profiles, gauss_jordan, max_min
from strategies import TableGame, any_games, stopping_games
from tbsg.engine.compile import compile_game
from tbsg.engine.graph import end_components as maximal_end_components
from tbsg.engine.infinite import solve_infinite_play
from tbsg.errors import InfinitePlayError

Named = list[tuple[Fraction, str | tbsg.Terminal]]
"""Outcomes of a game whose states are named by strings."""

EXAMPLES = int(os.environ.get("TBSG_EXAMPLES", "40"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

F = Fraction
H = F(1, 2)
RULES = (F(0), H, F(1))


# --- the independent oracle ----------------------------------------------------------------

def chain_values(game: TableGame, states: Sequence[int], profile: Profile,
                 c: Fraction) -> dict[int, Fraction]:
    """Exact values of a pure stationary profile, never-ending play worth ``c``.

    From a state that reaches no terminal, play never ends: value ``c``. Every other state
    ends play with positive probability within ``len(states)`` steps unless it falls into
    the first kind, so ``v = b + P v`` restricted to those states has a unique solution.
    """
    outs = {s: [(p, x) for p, x in game.outcomes(s, profile[s]) if p > 0] for s in states}
    ends = {s for s in states if any(isinstance(x, tbsg.Terminal) for _, x in outs[s])}
    grow = True
    while grow:  # states that can reach a terminal
        grow = False
        for s in states:
            if s not in ends and any(x in ends for _, x in outs[s] if isinstance(x, int)):
                ends.add(s)
                grow = True
    live = [s for s in states if s in ends]
    pos = {s: r for r, s in enumerate(live)}
    m = len(live)
    mat = [[F(int(r == col)) for col in range(m)] + [F(0)] for r in range(m)]
    for r, s in enumerate(live):
        for p, x in outs[s]:
            if isinstance(x, tbsg.Terminal):
                mat[r][m] += p * x.payoff
            elif x in pos:
                mat[r][pos[x]] -= p
            else:
                mat[r][m] += p * c  # a state that never ends
    values = {s: c for s in states}
    values.update(zip(live, gauss_jordan(mat), strict=True))
    return values


def brute_force(game: TableGame, c: Fraction, fixed: Profile | None = None) -> dict[int, Fraction]:
    """max over player 0 of min over player 1, state by state, over pure stationary profiles."""
    states = game.reachable()
    return max_min(game, lambda profile: chain_values(game, states, profile, c), fixed)


def is_optimal_profile(game: TableGame, profile: Profile, value: dict[int, Fraction],
                       c: Fraction) -> bool:
    """Does each player's part of ``profile`` guarantee ``value`` from every state?"""
    p0 = {s: a for s, a in profile.items() if game.player(s) == 0}
    p1 = {s: a for s, a in profile.items() if game.player(s) == 1}
    return brute_force(game, c, p0) == value and brute_force(game, c, p1) == value


# --- hand-solved games ---------------------------------------------------------------------

@pytest.mark.parametrize("c", [F(0), F(1, 3), H, F(1)])
def test_ping_pong_is_worth_the_infinite_play_payoff(c: Fraction) -> None:
    # The only profile never ends: both states are worth exactly c.
    sol = tbsg.solve(PingPong(), infinite_play=c)
    assert sol.values == {"ping": c, "pong": c}
    assert tbsg.verify(PingPong(), sol).infinite_play == c


@pytest.mark.parametrize(("c", "lobby", "best"), [
    (F(0), H, ("leave",)),           # max(c, 1/2) = 1/2: leave for the draw
    (F(1, 4), H, ("leave",)),
    (H, H, ("wait", "leave")),       # waiting forever is worth exactly a draw
    (F(3, 4), F(3, 4), ("wait",)),
    (F(1), F(1), ("wait",)),         # waiting forever is a win for player 0
])
def test_wait_or_leave(c: Fraction, lobby: Fraction, best: tuple[str, ...]) -> None:
    # v(lobby) = max(c [wait forever], 1/2 [leave]); v(start) = v(lobby) / 2.
    # For c < 1/2, "wait" preserves the value (Q(wait) = v(lobby)) but waiting for ever
    # earns c < 1/2, so it is not listed among the optimal actions.
    sol = tbsg.solve(Wait(), infinite_play=c)
    assert sol.value("lobby") == lobby
    assert sol.value() == lobby / 2
    assert sol.action("lobby") in best
    assert sol.optimal_actions("lobby") == best
    tbsg.verify(Wait(), sol)


@dataclass(frozen=True)
class Cash:
    """Least versus greatest fixed point.

    "m" (player 0): "loop" stays at m, "cash" ends paying 2/5, "coin" goes to "x".
    "x" (chance): 1/3 player 0 wins, 1/3 player 1 wins, 1/3 back to "m".
    """

    initial: str = "m"

    def player(self, s: str) -> int:
        return 0

    def actions(self, s: str) -> tuple[str, ...]:
        return ("loop", "cash", "coin") if s == "m" else ("flip",)

    def outcomes(self, s: str, a: str) -> Named:
        third = F(1, 3)
        if s == "x":
            return [(third, tbsg.win(0)), (third, tbsg.win(1)), (third, "m")]
        moves: dict[str, Named] = {"loop": [(F(1), "m")], "cash": [(F(1), tbsg.Terminal(F(2, 5)))],
                                   "coin": [(F(1), "x")]}
        return moves[a]


def test_least_fixed_point_for_infinite_play_worth_zero() -> None:
    # Bellman: v(m) = max(v(m), 2/5, v(x)), v(x) = 1/3 + v(m)/3. Every v(m) in [1/2, 1]
    # is a fixed point (v >= 1/3 + v/3 iff v >= 1/2). With c = 0 the value is the LEAST
    # one: tossing the coin until it ends wins with probability (1/3)/(2/3) = 1/2, better
    # than cashing 2/5; looping forever earns 0. Value iteration from v = 1 reaches the
    # greatest fixed point (1, 2/3) after one step and stays there: that is the value for
    # c = 1 (loop for ever), not for c = 0.
    game = Cash()
    sol = tbsg.solve(game, infinite_play=0)
    assert sol.values == {"m": H, "x": H}
    assert sol.action("m") == "coin"
    # v = (1, 2/3) is another fixed point: max(1, 2/5, 2/3) = 1 and 1/3 + 1/3 = 2/3
    big = {"m": F(1), "x": F(2, 3)}
    assert all(max(_q(s, big).values()) == big[s] for s in big)
    assert tbsg.solve(game, infinite_play=1).values == {"m": 1, "x": F(2, 3)}
    # in general v(m) = max(c, 1/2)
    for c in (F(1, 4), H, F(3, 4)):
        assert tbsg.solve(game, infinite_play=c).value() == max(c, H)
    # "loop" preserves the value 1/2 (Q(loop) = v(m)), but looping for ever is worth 0:
    # it is not an optimal action, and is not listed as one
    assert sol.action_values("m") == {"loop": H, "cash": F(2, 5), "coin": H}
    assert sol.optimal_actions("m") == ("coin",)
    assert tbsg.evaluate(game, {"m": "loop"}, infinite_play=0).value() == 0
    # the greatest fixed point with the looping strategy passes (a) and (b) but not (c')
    fake = dataclasses.replace(sol, values_exact=[F(1), F(2, 3)],
                               choice=np.array([0, 3], dtype=np.int64))
    with pytest.raises(tbsg.TamperedSolutionError, match=r"\(c'\) fails at state 'm'"):
        tbsg.verify(game, fake, infinite_play=0)
    # ... which is the right answer for c = 1, once its optimal actions are those of c = 1
    with pytest.raises(tbsg.TamperedSolutionError, match="optimal actions at state 'm'"):
        tbsg.verify(game, fake, infinite_play=1)
    right = tbsg.solve(game, infinite_play=1)
    tbsg.verify(game, dataclasses.replace(fake, optimal=right.optimal), infinite_play=1)


def _q(s: str, v: dict[str, Fraction]) -> dict[str, Fraction]:
    game = Cash()
    return {a: sum((p * (x.payoff if isinstance(x, tbsg.Terminal) else v[x])
                    for p, x in game.outcomes(s, a)), F(0)) for a in game.actions(s)}


@dataclass(frozen=True)
class Stall:
    """Player 1 can stall, player 0 can exit, chance cycles (with an exit).

    "A" (player 0): "exit" ends paying 3/5; "play" goes to "B".
    "B" (chance): 1/2 to "C", 1/4 back to "A", 1/4 player 0 wins.
    "C" (player 1): "stall" stays at C; "back" returns to A; "concede" ends in a draw.
    """

    initial: str = "A"

    def player(self, s: str) -> int:
        return 1 if s == "C" else 0

    def actions(self, s: str) -> tuple[str, ...]:
        return {"A": ("exit", "play"), "B": ("roll",), "C": ("stall", "back", "concede")}[s]

    def outcomes(self, s: str, a: str) -> Named:
        if s == "A":
            return [(F(1), tbsg.Terminal(F(3, 5)))] if a == "exit" else [(F(1), "B")]
        if s == "B":
            return [(H, "C"), (F(1, 4), "A"), (F(1, 4), tbsg.win(0))]
        moves: dict[str, Named] = {"stall": [(F(1), "C")], "back": [(F(1), "A")],
                                   "concede": [(F(1), tbsg.DRAW)]}
        return moves[a]


@pytest.mark.parametrize(("c", "a", "b", "cc", "at_a", "at_c"), [
    (F(0), F(3, 5), F(2, 5), F(0), ("exit",), ("stall",)),
    (F(1, 4), F(3, 5), F(21, 40), F(1, 4), ("exit",), ("stall",)),
    (F(2, 5), F(3, 5), F(3, 5), F(2, 5), ("exit", "play"), ("stall",)),
    (H, F(2, 3), F(2, 3), H, ("play",), ("stall", "concede")),
    (F(1), F(2, 3), F(2, 3), H, ("play",), ("concede",)),
])
def test_stall(c: Fraction, a: Fraction, b: Fraction, cc: Fraction,
               at_a: tuple[str, ...], at_c: tuple[str, ...]) -> None:
    # Player 1 at C gets c by stalling for ever, v(A) by going back, 1/2 by conceding:
    # y = v(C) = min(c, v(A), 1/2). Then v(B) = y/2 + v(A)/4 + 1/4, and if player 0 plays
    # on, v(A) = v(B) gives v(A) = 1/3 + 2y/3, which beats exiting (3/5) iff y > 2/5.
    # "back" is never better for player 1 (v(A) >= 3/5 > y); B ends play with probability
    # 1/4, so the only end component is {C} (stall). So:
    #   c <= 2/5: y = c, exit: v = (3/5, c/2 + 3/20 + 1/4, c), e.g. c = 1/4: B = 21/40;
    #             at c = 2/5 playing on gives 1/3 + 4/15 = 3/5 too (a tie);
    #   c >= 1/2: y = 1/2, play: v(A) = 2/3, v(B) = 1/4 + 1/6 + 1/4 = 2/3; player 1
    #             concedes (for c = 1/2 stalling is as good).
    game = Stall()
    sol = tbsg.solve(game, infinite_play=c)
    assert sol.values == {"A": a, "B": b, "C": cc}
    assert sol.optimal_actions("A") == at_a and sol.optimal_actions("C") == at_c
    assert sol.action("A") in at_a and sol.action("C") in at_c
    tbsg.verify(game, sol)
    table = TableGame(
        (0, 0, 1),
        ((("exit", ((F(1), tbsg.Terminal(F(3, 5))),)), ("play", ((F(1), 1),))),
         (("roll", ((H, 2), (F(1, 4), 0), (F(1, 4), tbsg.win(0)))),),
         (("stall", ((F(1), 2),)), ("back", ((F(1), 0),)), ("concede", ((F(1), tbsg.DRAW),)))))
    assert brute_force(table, c) == {0: a, 1: b, 2: cc}


@dataclass(frozen=True)
class Standoff:
    """Both players can loop, through a chance cycle.

    "A" (player 0): "exit" ends paying 3/5; "play" goes to "B".
    "B" (chance): 1/2 back to "A", 1/2 to "C".
    "C" (player 1): "stall" stays at C; "back" returns to A; "concede" ends paying 9/10.
    {A, B, C} (A plays, C goes back) and {C} (stall) are end components.
    """

    initial: str = "A"

    def player(self, s: str) -> int:
        return 1 if s == "C" else 0

    def actions(self, s: str) -> tuple[str, ...]:
        return {"A": ("exit", "play"), "B": ("roll",), "C": ("stall", "back", "concede")}[s]

    def outcomes(self, s: str, a: str) -> Named:
        if s == "A":
            return [(F(1), tbsg.Terminal(F(3, 5)))] if a == "exit" else [(F(1), "B")]
        if s == "B":
            return [(H, "A"), (H, "C")]
        moves: dict[str, Named] = {"stall": [(F(1), "C")], "back": [(F(1), "A")],
                                   "concede": [(F(1), tbsg.Terminal(F(9, 10)))]}
        return moves[a]


@pytest.mark.parametrize(("c", "a", "cc", "at_a", "at_c"), [
    (F(0), F(3, 5), F(0), ("exit",), ("stall",)),
    (H, F(3, 5), H, ("exit",), ("stall",)),
    (F(3, 5), F(3, 5), F(3, 5), ("exit", "play"), ("stall", "back")),
    (F(3, 4), F(3, 4), F(3, 4), ("play",), ("stall", "back")),
    (F(1), F(9, 10), F(9, 10), ("play",), ("concede",)),
])
def test_standoff(c: Fraction, a: Fraction, cc: Fraction,
                  at_a: tuple[str, ...], at_c: tuple[str, ...]) -> None:
    # If player 0 always plays, play reaches C with probability 1 (B sends it there with
    # probability 1/2 each round), and player 1 then chooses between c (stall for ever, or
    # go back for ever: play never ends) and 9/10 (concede): player 0 gets min(c, 9/10).
    # So v(A) = max(3/5, min(c, 9/10)), v(C) = min(c, v(A), 9/10), v(B) = (v(A) + v(C))/2:
    #   c = 0:   A = 3/5 (exit), C = 0 (stall), B = 3/10;
    #   c = 1/2: A = 3/5, C = 1/2 (stall; "back" gives 3/5), B = 11/20;
    #   c = 3/5: A = 3/5 (exit, or play: a tie), C = 3/5 (stall or back), B = 3/5;
    #   c = 3/4: A = 3/4 (play), C = 3/4 (stall or back: both keep play going), B = 3/4;
    #   c = 1:   A = 9/10 (play), C = 9/10 (concede), B = 9/10.
    # With c = 1, "stall" and "back" preserve v(C) = 9/10 (Q(stall) = v(C), Q(back) = v(A))
    # but are not optimal: against either, player 0 keeps play going for ever and gets 1.
    game = Standoff()
    sol = tbsg.solve(game, infinite_play=c)
    assert sol.values == {"A": a, "B": (a + cc) / 2, "C": cc}
    assert sol.optimal_actions("A") == at_a and sol.optimal_actions("C") == at_c
    assert sol.action("A") in at_a and sol.action("C") in at_c
    assert sol.action_values("C")["back"] == a
    tbsg.verify(game, sol)
    table = TableGame(
        (0, 0, 1),
        ((("exit", ((F(1), tbsg.Terminal(F(3, 5))),)), ("play", ((F(1), 1),))),
         (("roll", ((H, 0), (H, 2))),),
         (("stall", ((F(1), 2),)), ("back", ((F(1), 0),)),
          ("concede", ((F(1), tbsg.Terminal(F(9, 10))),)))))
    assert brute_force(table, c) == {0: a, 1: (a + cc) / 2, 2: cc}
    # each listed action, switched into the solution's strategy, is optimal: check all
    for state, listed in (("A", at_a), ("C", at_c)):
        for act in game.actions(state):
            profile = {**{s: sol.action(s) for s in "AC"}, state: act}
            numbered: dict[int, Hashable] = {0: profile["A"], 1: "roll", 2: profile["C"]}
            assert is_optimal_profile(table, numbered, brute_force(table, c), c) == (act in listed)


def test_listed_actions_need_not_combine() -> None:
    # Two player-0 states, each may "pass" to the other or "exit" for 2/5; c = 0. Both are
    # worth 2/5. Passing at one state while the other exits is optimal, so "pass" is
    # listed at both, but passing at both never ends and earns 0 (see tbsg.engine.infinite).
    exit_ = ((F(1), tbsg.Terminal(F(2, 5))),)
    game = TableGame((0, 0), ((("pass", ((F(1), 1),)), ("exit", exit_)),
                              (("pass", ((F(1), 0),)), ("exit", exit_))))
    sol = tbsg.solve(game, infinite_play=0)
    assert sol.values == {0: F(2, 5), 1: F(2, 5)}
    assert sol.optimal_actions(0) == sol.optimal_actions(1) == ("pass", "exit")
    assert "exit" in (sol.action(0), sol.action(1))
    for s in (0, 1):
        one_pass = {s: "pass", 1 - s: "exit"}
        ev = tbsg.evaluate(game, one_pass, infinite_play=0)  # the states it reaches
        assert all(ev.value(t) == sol.value(t) for t in ev.states)
    assert tbsg.evaluate(game, {0: "pass", 1: "pass"}, infinite_play=0).value() == 0


# --- API: arguments, errors, the other front doors -----------------------------------------

def test_default_still_refuses_non_stopping_games_and_names_end_components() -> None:
    with pytest.raises(tbsg.NonStoppingGameError,
                       match=r"maximal end component\(s\): \{'m'\}.*infinite_play=") as info:
        tbsg.solve(Cash())
    assert info.value.trap_states == ("m",)
    with pytest.raises(tbsg.NonStoppingGameError, match=r"\{'A', 'B', 'C'\}"):
        tbsg.solve(Standoff(), exact=False)


@pytest.mark.parametrize("bad", [0.5, 0.0, "1/2", True, 1j])
def test_infinite_play_must_be_exact(bad: object) -> None:
    with pytest.raises(tbsg.ExactnessError, match="infinite_play") as info:
        tbsg.solve(Wait(), infinite_play=bad)  # type: ignore[call-overload]
    assert isinstance(info.value, TypeError)


@pytest.mark.parametrize(("c", "lobby", "best"), [
    (F(-1), H, ("leave",)),
    (F(-1, 10**9), H, ("leave",)),
    (F(3, 2), F(3, 2), ("wait",)),
    (F(2), F(2), ("wait",)),
])
def test_infinite_play_may_be_any_payoff(c: Fraction, lobby: Fraction, best: tuple[str, ...]) -> None:
    # as test_wait_or_leave, by hand: v(lobby) = max(c, 1/2), v(start) = v(lobby) / 2; a
    # payoff outside [0, 1] makes the game a zero-sum game of expected payoffs, not of
    # win probabilities, so player 1's view is -v rather than 1 - v
    sol = tbsg.solve(Wait(), infinite_play=c)
    assert sol.value("lobby") == lobby and sol.value() == lobby / 2
    assert sol.optimal_actions("lobby") == best
    assert not sol.win_probability and sol.value(player=1) == -lobby / 2
    tbsg.verify(Wait(), sol)
    assert tbsg.solve(Wait(), infinite_play=H).win_probability


def test_float_path() -> None:
    with pytest.raises(NotImplementedError, match="exact=True"):
        tbsg.solve(Wait(), exact=False, infinite_play=0)
    with pytest.raises(NotImplementedError, match="exact=True"):
        tbsg.best_response(Wait(), 0, {}, exact=False, infinite_play=0)
    # a stopping game: the rule is never used and the float path works
    from tbsg.games import risk_or_safety
    lo, hi = tbsg.solve(risk_or_safety(3), exact=False, infinite_play=H).bounds()
    assert lo <= F(6, 11) <= hi


def test_evaluate_with_infinite_play() -> None:
    # waiting for ever at the lobby is worth c, so start is worth c/2
    for c in RULES:
        assert tbsg.evaluate(Wait(), {"lobby": "wait"}, infinite_play=c).values == {
            "start": c / 2, "lobby": c}
    assert tbsg.evaluate(Wait(), {"lobby": "leave"}, infinite_play=1).value() == F(1, 4)
    # Standoff, A plays and C goes back: A -> B -> (A | C -> A) never ends: c everywhere
    sol = tbsg.evaluate(Standoff(), {"A": "play", "C": "back"}, infinite_play=F(1, 3))
    assert sol.values == {"A": F(1, 3), "B": F(1, 3), "C": F(1, 3)}
    assert sol.optimal_actions("C") == ("back",)  # evaluate lists the profile's own actions
    # Stall, A plays and C stalls: C = 1/3; B = C/2 + A/4 + 1/4 = 5/12 + A/4 and A = B,
    # so A = (5/12) / (3/4) = 5/9
    sol = tbsg.evaluate(Stall(), {"A": "play", "C": "stall"}, infinite_play=F(1, 3))
    assert sol.values == {"A": F(5, 9), "B": F(5, 9), "C": F(1, 3)}


def test_best_response_with_infinite_play() -> None:
    # player 0 alone in the Wait game: best response = the game's solution
    for c in RULES:
        br = tbsg.best_response(Wait(), 0, {}, infinite_play=c)
        assert br.values == tbsg.solve(Wait(), infinite_play=c).values
    # Standoff, player 1 always goes back: player 0 exits (3/5) or plays for ever (c):
    # every state is worth max(3/5, c)
    for c in RULES:
        br = tbsg.best_response(Standoff(), 0, {"C": "back"}, infinite_play=c)
        m = max(F(3, 5), c)
        assert br.values == {"A": m, "B": m, "C": m}
        assert br.action("A") == ("exit" if c < F(3, 5) else "play")
    # Standoff, player 0 always plays: player 1 gets min(c, 9/10) by stalling or going back
    # for ever (both listed) or conceding
    br = tbsg.best_response(Standoff(), 1, {"A": "play"}, infinite_play=F(1, 3))
    assert br.values == {"A": F(1, 3), "B": F(1, 3), "C": F(1, 3)}
    assert br.optimal_actions("C") == ("stall", "back")
    br = tbsg.best_response(Standoff(), 1, {"A": "play"}, infinite_play=1)
    assert br.value("C") == F(9, 10) and br.optimal_actions("C") == ("concede",)
    # Stall, player 0 always plays: y = v(C) = min(c, v(A), 1/2), v(A) = 1/3 + 2y/3
    br = tbsg.best_response(Stall(), 1, {"A": "play"}, infinite_play=F(1, 3))
    assert br.value("C") == F(1, 3) and br.action("C") == "stall"
    br = tbsg.best_response(Stall(), 1, {"A": "play"}, infinite_play=1)
    assert br.value("C") == H and br.action("C") == "concede"


def test_best_response_attractor_inside_end_component() -> None:
    # A ring 0 -> 1 -> 2 -> 0 of player-0 states; each can "step" on; only state 2 can
    # "exit" (payoff 3/4), and state 0 can "jump" straight to 2. With c = 0, the quotient
    # collapses the ring and chooses the exit at 2; the lifted strategy must walk to 2.
    game = TableGame(
        (0, 0, 0),
        ((("step", ((F(1), 1),)), ("jump", ((F(1), 2),))),
         (("step", ((F(1), 2),)),),
         (("step", ((F(1), 0),)), ("exit", ((F(1), tbsg.Terminal(F(3, 4))),)))))
    br = tbsg.best_response(game, 0, {}, infinite_play=0)
    assert br.values == {0: F(3, 4), 1: F(3, 4), 2: F(3, 4)}
    assert br.action(2) == "exit"
    assert tbsg.evaluate(game, br.strategy, infinite_play=0, reach="game").values == br.values
    # at 0 both "step" and "jump" lead to the exit; at 2 "step" would loop for ever
    assert br.optimal_actions(0) == ("step", "jump") and br.optimal_actions(2) == ("exit",)


def _bare(sol: tbsg.Solution[Any, Any]) -> tbsg.Solution[Any, Any]:
    """A copy of ``sol`` that does not record its rule for infinite play."""
    return tbsg.Solution(
        graph=sol.graph, method=sol.method, seconds=sol.seconds, n_components=sol.n_components,
        largest_component=sol.largest_component, values_exact=sol.values_exact,
        choice=sol.choice, optimal=sol.optimal, improvements=sol.improvements,
        exact_solves=sol.exact_solves, game=sol.game)


def test_verify_needs_the_rule() -> None:
    game = Standoff()
    sol = tbsg.solve(game, infinite_play=F(1, 4))
    assert "infinite play worth 1/4" in str(tbsg.verify(game, sol))
    bare = _bare(sol)
    with pytest.raises(tbsg.NonStoppingGameError, match=r"\(c\) fails"):
        tbsg.verify(game, bare)
    tbsg.verify(game, bare, infinite_play=F(1, 4))
    # checked against another rule the values are wrong: C stalls for ever, worth 1/3 now
    with pytest.raises(tbsg.TamperedSolutionError, match=r"\(c'\) fails at state 'C'"):
        tbsg.verify(game, bare, infinite_play=F(1, 3))


def test_verify_rejects_tampering() -> None:
    game = Standoff()
    sol = tbsg.solve(game, infinite_play=1)
    assert sol.values == {"A": F(9, 10), "B": F(9, 10), "C": F(9, 10)}
    g = sol.graph
    # a value off by 2^-100
    vals = [tbsg.engine._backend.to_fraction(x) for x in sol.values_exact]
    vals[g.index["B"]] += F(1, 2**100)
    with pytest.raises(tbsg.TamperedSolutionError, match=r"\(a\)"):
        tbsg.verify(game, dataclasses.replace(sol, values_exact=vals), infinite_play=1)
    # player 1 stalls (or goes back) instead of conceding: Q = 9/10 = v(C), value
    # preserving, but player 0 then keeps play going for ever and gets 1
    for act in ("stall", "back"):
        choice = sol.choice.copy()
        choice[g.index["C"]] = g.action_index(g.index["C"], act)  # type: ignore[assignment]  # not None
        with pytest.raises(tbsg.TamperedSolutionError, match=r"\(c'\) fails at state"):
            tbsg.verify(game, dataclasses.replace(sol, choice=choice), infinite_play=1)
    # player 0 exits at A: worse than the value
    choice = sol.choice.copy()
    choice[g.index["A"]] = g.action_index(g.index["A"], "exit")  # type: ignore[assignment]  # not None
    with pytest.raises(tbsg.TamperedSolutionError, match=r"\(a\) fails at state 'A'"):
        tbsg.verify(game, dataclasses.replace(sol, choice=choice), infinite_play=1)


def test_solution_records_the_rule_and_method() -> None:
    sol = tbsg.solve(Cash(), infinite_play=F(1, 3))
    assert sol.infinite_play == F(1, 3)
    assert "infinite play worth 1/3" in sol.method
    assert getattr(tbsg.solve(Cash(), infinite_play=0), "infinite_play", None) == 0


def test_candidate_fails_then_smaller_epsilon_certifies() -> None:
    # 0 (player 0): "safe" ends paying 1/2, "go" enters a chance chain 1 -> 2 -> 3 -> 4 that
    # continues with probability t = 2^-40 per step and otherwise falls back to 0; at 4
    # player 0 may "win" (payoff 1) or go "back" to 0. Going for ever wins with probability
    # 1 (each round reaches 4 with probability t^3 > 0): the value is 1 everywhere.
    # {0, .., 4} is an end component, so go and the chain are perturbed: in G_eps a round
    # ends (paying c = 0) with probability about 4 eps, and "go" is worth about
    # t^3 / (t^3 + 4 eps). The first eps is 2^-(32 + 2*41) = 2^-114 > t^3 = 2^-120, so "go"
    # looks worse than 1/2 there and the candidate fails (b); eps^2 = 2^-228 certifies.
    t = F(1, 2**40)
    chain = tuple((("roll", ((t, s + 1), (1 - t, 0))),) for s in (1, 2, 3))
    game = TableGame(
        (0, 0, 0, 0, 0),
        ((("safe", ((F(1), tbsg.DRAW),)), ("go", ((F(1), 1),))), *chain,
         (("win", ((F(1), tbsg.win(0)),)), ("back", ((F(1), 0),)))))
    g = compile_game(game)
    r = solve_infinite_play(g, F(0))
    # (the float candidate, for eps = 2^-20, fails too)
    assert not r.float_candidate and r.attempts == 2 and r.epsilon == F(1, 2**228)
    assert [tbsg.engine._backend.to_fraction(v) for v in r.values] == [1] * 5
    with pytest.raises(InfinitePlayError, match=r"no optimal profile certified.*\(b\) fails"):
        solve_infinite_play(g, F(0), max_attempts=1)
    assert tbsg.solve(game, infinite_play=0).value() == 1


def test_maximal_end_components() -> None:
    g = compile_game(Standoff())
    mec = maximal_end_components(g)
    # {A, B, C} with A: play, B: roll, C: stall and back ("exit" and "concede" end play)
    assert mec.count == 1 and sorted(mec.members()[0]) == [0, 1, 2]
    assert [g.act_labels[k] for k in np.flatnonzero(mec.internal)] == ["play", "roll", "stall",
                                                                         "back"]
    g = compile_game(Cash())
    assert maximal_end_components(g).members() == [[0]]


# --- properties ----------------------------------------------------------------------------

@SETTINGS
@given(any_games(), st.sampled_from(RULES), st.data())
def test_value_is_max_min_over_positional_profiles(game: TableGame, c: Fraction,
                                                   data: st.DataObject) -> None:
    sol = tbsg.solve(game, infinite_play=c)
    expected = brute_force(game, c)
    assert dict(sol.values) == expected
    # the exact perturbation path alone (no float candidate) finds the same values
    exact = solve_infinite_play(sol.graph, c, float_candidate=False)
    assert [tbsg.engine._backend.to_fraction(x) for x in exact.values] == [
        expected[s] for s in sol.graph.states]
    # the solution's own profile is optimal for both players, and verify says so
    profile = dict(sol.strategy)
    assert chain_values(game, game.reachable(), profile, c) == expected
    tbsg.verify(game, sol)
    # tamper with one value: always rejected
    states = game.reachable()
    g = sol.graph
    s = data.draw(st.sampled_from(states))
    vals = [tbsg.engine._backend.to_fraction(x) for x in sol.values_exact]
    vals[g.index[s]] += data.draw(st.sampled_from([F(1, 2**80), F(-1, 7)]))
    with pytest.raises(tbsg.TamperedSolutionError):
        tbsg.verify(game, dataclasses.replace(sol, values_exact=vals), infinite_play=c)
    # switch one state's action: verify never accepts a profile that is not optimal; an
    # optimal one is accepted unless the solution's listed optimal actions (which, where
    # play can loop, depend on the profile: switch-safe actions) do not fit it
    a = data.draw(st.sampled_from(game.actions(s)))
    choice = sol.choice.copy()
    k = g.action_index(g.index[s], a)
    assert k is not None
    choice[g.index[s]] = k
    new_profile = {**profile, s: a}
    ok = is_optimal_profile(game, new_profile, expected, c)
    try:
        tbsg.verify(game, dataclasses.replace(sol, choice=choice), infinite_play=c)
        accepted, why = True, ""
    except tbsg.TamperedSolutionError as exc:
        accepted, why = False, str(exc)
    assert accepted <= ok
    if ok and not accepted:
        assert "optimal actions at state" in why, why


@SETTINGS
@given(any_games(), st.sampled_from(RULES), st.data())
def test_best_response_and_evaluate_match_the_oracle(game: TableGame, c: Fraction,
                                                     data: st.DataObject) -> None:
    states = game.reachable()
    player = data.draw(st.sampled_from([0, 1]))
    other = {s: data.draw(st.sampled_from(game.actions(s)))
             for s in states if game.player(s) != player}
    br = tbsg.best_response(game, player, other, infinite_play=c, reach="game")
    expected = brute_force(game, c, other) if player == 0 else _min_max(game, c, other)
    assert dict(br.values) == expected
    # the best response's own strategy attains its values
    profile = {**dict(br.strategy), **other}
    assert dict(tbsg.evaluate(game, profile, infinite_play=c, reach="game").values) == expected
    # by default only the states reached under the fixed choices are built: same values
    reached = tbsg.best_response(game, player, other, infinite_play=c)
    assert all(reached.value(s) == expected[s] for s in reached.states)
    assert tbsg.verify(game, reached).states == reached.n_states
    assert chain_values(game, states, profile, c) == expected


def _min_max(game: TableGame, c: Fraction, fixed: Profile) -> dict[int, Fraction]:
    """Player 1's best response values against player 0's fixed strategy."""
    states = game.reachable()
    free = [s for s in states if s not in fixed]
    best: dict[int, Fraction] | None = None
    for prof in all_profiles(game, free):
        v = chain_values(game, states, {**fixed, **prof}, c)
        best = v if best is None else {s: min(best[s], v[s]) for s in states}
    assert best is not None
    return best


@SETTINGS
@given(stopping_games(max_states=6), st.sampled_from(RULES))
def test_stopping_games_ignore_the_rule(game: TableGame, c: Fraction) -> None:
    plain = tbsg.solve(game)
    ruled = tbsg.solve(game, infinite_play=c)
    assert ruled.values_exact == plain.values_exact
    assert ruled.choice.tolist() == plain.choice.tolist()
    assert ruled.optimal.tolist() == plain.optimal.tolist()
    assert ruled.method == plain.method
    tbsg.verify(game, ruled)


# --- a larger game -------------------------------------------------------------------------

@dataclass(frozen=True)
class PassingRace:
    """A race on a ring that may never end: each player may "pass" instead of rolling.

    State ``(mover, mine, theirs)``: points still needed by the mover and the opponent.
    "roll": a fair die; 1 to 5 moves the mover ``k`` points closer (reaching 0 wins), 6
    gives the turn away. "pass": gives the turn away without rolling. Both passing for ever
    never ends.
    """

    goal: int = 20

    @property
    def initial(self) -> tuple[int, int, int]:
        return (0, self.goal, self.goal)

    def player(self, s: tuple[int, int, int]) -> int:
        return s[0]

    def actions(self, s: tuple[int, int, int]) -> tuple[str, ...]:
        return ("roll", "pass")

    def outcomes(self, s: tuple[int, int, int], a: str
                 ) -> list[tuple[Fraction, tuple[int, int, int] | tbsg.Terminal]]:
        mover, mine, theirs = s
        turn = (1 - mover, theirs, mine)
        if a == "pass":
            return [(F(1), turn)]
        sixth = F(1, 6)
        out: list[tuple[Fraction, tuple[int, int, int] | tbsg.Terminal]] = [(sixth, turn)]
        for k in range(1, 6):
            out.append((sixth, tbsg.win(mover) if mine - k <= 0 else (mover, mine - k, theirs)))
        return out


@dataclass(frozen=True)
class Race(PassingRace):
    """The same race without "pass": a stopping game."""

    def actions(self, s: tuple[int, int, int]) -> tuple[str, ...]:
        return ("roll",)


def test_passing_race() -> None:
    # 128 states; each "pass" pair {(0, a, b), (1, b, a)} is an end component. Play never
    # ends only if both players pass for ever, and passing just hands the opponent a free
    # roll, so in this race nobody passes and the rule for infinite play changes nothing:
    # the values are those of the race without "pass" (a consistency check, not a proof).
    game = PassingRace(8)
    assert maximal_end_components(compile_game(game)).count == 64
    plain = tbsg.solve(Race(8))
    for c in RULES:
        sol = tbsg.solve(game, infinite_play=c)
        tbsg.verify(game, sol)
        assert dict(sol.values) == dict(plain.values)
        assert set(sol.strategy.values()) == {"roll"}
        exact = solve_infinite_play(sol.graph, c, float_candidate=False)
        assert exact.values == sol.values_exact and not exact.float_candidate


@dataclass(frozen=True)
class Line:
    """A deterministic stopping line of ``n`` states: 0 -> 1 -> ... -> n-1 -> a draw."""

    n: int
    initial: int = 0

    def player(self, s: int) -> int:
        return s % 2

    def actions(self, s: int) -> tuple[str, ...]:
        return ("on",)

    def outcomes(self, s: int, a: str) -> list[tuple[int, int | tbsg.Terminal]]:
        return [(1, s + 1 if s + 1 < self.n else tbsg.DRAW)]


def test_infinite_play_on_a_stopping_game_costs_no_more(monkeypatch: pytest.MonkeyPatch) -> None:
    # a stopping game runs the same steps with or without infinite_play: one decomposition,
    # one end-component refinement, one exact solve and no infinite-play solver (counted,
    # not timed)
    import tbsg.api.solving as api

    calls: list[str] = []

    def counted(name: str) -> None:
        real = getattr(api, name)

        def wrapper(*args: object, **kwargs: object) -> object:
            calls.append(name)
            return real(*args, **kwargs)
        monkeypatch.setattr(api, name, wrapper)

    for name in ("decompose", "end_components", "solve_exact", "solve_infinite_play",
                 "best_response_mdp", "profile_values"):
        counted(name)
    plain = tbsg.solve(Line(8000))
    without = list(calls)
    calls.clear()
    ruled = tbsg.solve(Line(8000), infinite_play=0)
    assert calls == without == ["decompose", "end_components", "solve_exact"]
    assert ruled.values == plain.values and ruled.value() == H
