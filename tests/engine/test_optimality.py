"""The optimal-action mask and the optimality conditions (:mod:`tbsg.engine.optimality`),
on small hand-built games whose answers are derived in the comments.

``COURT`` (a stopping game, every action terminal-only but "pass"):

* state 0, player 0: "safe" ends in a draw (Q = 1/2), "pass" moves to state 1
  (Q = v(1)), "low" ends paying 1/4 (Q = 1/4);
* state 1, player 1: "draw" (Q = 1/2), "lose" (player 0 wins: Q = 1), "coin" (a fair
  coin between the two wins: Q = 1/2).

v(1) = min(1/2, 1, 1/2) = 1/2 and v(0) = max(1/2, v(1), 1/4) = 1/2: the optimal actions
are {safe, pass} at state 0 and {draw, coin} at state 1. Flat actions, in order: safe 0,
pass 1, low 2, draw 3, lose 4, coin 5.
"""

from __future__ import annotations

import os
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import HealthCheck, given, settings

import tbsg
from strategies import TableGame, stopping_games
from tbsg import DRAW, Terminal, win
from tbsg.engine.bellman import action_signs
from tbsg.engine.compile import compile_game
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.optimality import (
    Failure,
    directions,
    end_component_failure,
    exact_signs,
    first_failure,
    optimal_mask,
    switch_safe_actions,
    usable_actions,
)

F = Fraction
H = F(1, 2)
EXAMPLES = int(os.environ.get("TBSG_EXAMPLES", "40"))

COURT = TableGame(
    players=(0, 1),
    moves=((("safe", ((F(1), DRAW),)), ("pass", ((F(1), 1),)), ("low", ((F(1), Terminal(F(1, 4))),))),
           (("draw", ((F(1), DRAW),)), ("lose", ((F(1), win(0)),)),
            ("coin", ((H, win(0)), (H, win(1)))))))
SAFE, PASS, LOW, DRAW_, LOSE, COIN = range(6)
VALUES = [H, H]


def court() -> CompiledGame[Any, Any]:
    g = compile_game(COURT)
    assert g.states == [0, 1] and g.act_labels == ["safe", "pass", "low", "draw", "lose", "coin"]
    return g


def labels(g: CompiledGame[Any, Any], mask: npt.NDArray[np.bool_]) -> list[list[str]]:
    """The masked actions' labels, state by state."""
    return [[g.act_labels[k] for k in g.actions_of(i) if mask[k]] for i in range(g.n_states)]


def choice(*ks: int) -> npt.NDArray[np.int64]:
    return np.array(ks, dtype=np.int64)


# --- signs and directions -----------------------------------------------------------------

def test_exact_signs_compare_each_action_with_its_state_value() -> None:
    g = court()
    # Q - v: safe 0, pass 0, low 1/4 - 1/2 < 0, draw 0, lose 1 - 1/2 > 0, coin 0
    assert exact_signs(g, VALUES).tolist() == [0, 0, -1, 0, 1, 0]
    assert exact_signs(g, VALUES, choice(LOW, LOSE)).tolist() == [-1, 1]


def test_filtered_signs_are_the_exact_signs() -> None:
    g = court()
    vf = np.array([float(v) for v in VALUES])
    assert action_signs(g, VALUES, vf).tolist() == exact_signs(g, VALUES).tolist()


def test_directions_follow_the_players_who_optimise() -> None:
    g = court()
    assert directions(g).tolist() == [1, -1]  # player 0 maximises, player 1 minimises
    assert directions(g, (0,)).tolist() == [1, 0]
    assert directions(g, (1,)).tolist() == [0, -1]
    assert directions(g, ()).tolist() == [0, 0]


# --- the mask ------------------------------------------------------------------------------

def test_mask_is_the_ties_of_both_players() -> None:
    g = court()
    want = [["safe", "pass"], ["draw", "coin"]]
    for profile in (choice(SAFE, DRAW_), choice(PASS, COIN)):  # whichever ties the profile plays
        assert labels(g, optimal_mask(g, VALUES, profile)) == want


def test_mask_reads_signs_however_they_are_decided() -> None:
    g = court()
    profile = choice(SAFE, DRAW_)
    vf = np.array([float(v) for v in VALUES])
    by_fraction = optimal_mask(g, VALUES, profile)
    by_array = optimal_mask(g, VALUES, profile, sign=exact_signs(g, VALUES))
    asked: list[list[int]] = []

    def filtered(acts: npt.NDArray[np.int64]) -> npt.NDArray[np.int8]:
        asked.append(acts.tolist())
        return action_signs(g, VALUES, vf, acts)

    by_filter = optimal_mask(g, VALUES, profile, sign=filtered)
    assert by_fraction.tolist() == by_array.tolist() == by_filter.tolist()
    assert asked == [[PASS, LOW, LOSE, COIN]]  # the profile's own actions are not asked about


def test_a_fixed_player_lists_its_own_action_only() -> None:
    g = court()
    # best response of player 0 to "lose": v(1) = 1 (player 1 plays lose), v(0) = max(1/2, 1, 1/4) = 1
    values = [F(1), F(1)]
    mask = optimal_mask(g, values, choice(PASS, LOSE), optimizing=(0,))
    assert labels(g, mask) == [["pass"], ["lose"]]
    # evaluation of (safe, coin): nobody optimises, each state lists the profile's action
    mask = optimal_mask(g, VALUES, choice(SAFE, COIN), optimizing=())
    assert labels(g, mask) == [["safe"], ["coin"]]


def test_actions_outside_allowed_are_never_optimal() -> None:
    g = court()
    allowed = np.array([True, False, True, True, True, True])  # "pass" forbidden
    mask = optimal_mask(g, VALUES, choice(SAFE, DRAW_), allowed=allowed)
    assert labels(g, mask) == [["safe"], ["draw", "coin"]]


def test_settled_states_keep_what_is_known() -> None:
    g = court()
    known = np.zeros(g.n_actions, dtype=bool)
    known[[SAFE, PASS]] = True
    settled = np.array([True, False])

    def never_state_0(acts: npt.NDArray[np.int64]) -> npt.NDArray[np.int8]:
        assert not np.isin(acts, [SAFE, PASS, LOW]).any()
        return exact_signs(g, VALUES, acts)

    mask = optimal_mask(g, VALUES, choice(SAFE, DRAW_), known=known, settled=settled, sign=never_state_0)
    assert labels(g, mask) == [["safe", "pass"], ["draw", "coin"]]


# --- (a) and (b) ---------------------------------------------------------------------------

def test_first_failure_of_the_strategy_equations() -> None:
    g = court()
    sign = exact_signs(g, VALUES)
    assert first_failure(g, sign, choice(SAFE, DRAW_), directions(g)) is None
    # "low" yields 1/4, not the claimed 1/2: (a) at state 0
    assert first_failure(g, sign, choice(LOW, DRAW_), directions(g)) == Failure("a", 0, LOW, 0)
    # claimed v(0) = 1/4 played by "safe" (Q = 1/2): (a) fails, and (b) at the same state
    # ("safe" is better than 1/4): (a) is reported first
    sign = exact_signs(g, [F(1, 4), H])
    assert first_failure(g, sign, choice(SAFE, DRAW_), directions(g)) == Failure("a", 0, SAFE, 0)


def test_first_failure_of_no_profitable_deviation_for_each_direction() -> None:
    g = court()
    # v(0) = 1/4 played by "low" satisfies (a), but "safe" yields 1/2 > 1/4 for the maximiser
    values = [F(1, 4), H]
    sign = exact_signs(g, values)
    assert first_failure(g, sign, choice(LOW, DRAW_), directions(g)) == Failure("b", 0, SAFE, 0)
    # v = (1, 1) played by (pass, lose) satisfies (a); state 0 has nothing better than 1, but
    # at state 1 "draw" yields 1/2 < 1 for the minimiser
    values = [F(1), F(1)]
    sign = exact_signs(g, values)
    assert first_failure(g, sign, choice(PASS, LOSE), directions(g)) == Failure("b", 1, DRAW_, 1)
    # with player 1 fixed to "lose" that is its best response: no failure
    assert first_failure(g, sign, choice(PASS, LOSE), directions(g, (0,))) is None


# --- infinite play -------------------------------------------------------------------------

def lobby(owner: int) -> CompiledGame[str, str]:
    """One state: "wait" loops for ever, "leave" ends paying 2/5 to player 0."""
    class Lobby:
        initial = "lobby"

        def player(self, s: str) -> int:
            return owner

        def actions(self, s: str) -> tuple[str, ...]:
            return ("wait", "leave")

        def outcomes(self, s: str, a: str) -> list[tuple[Fraction, str | Terminal]]:
            return [(F(1), "lobby")] if a == "wait" else [(F(1), Terminal(F(2, 5)))]

    return compile_game(Lobby())


WAIT, LEAVE = 0, 1


@pytest.mark.parametrize(("owner", "c", "value", "played", "want"), [
    # player 0, never-ending play worth 0: leave (2/5); waiting ties (Q = v) but for ever earns 0
    (0, F(0), F(2, 5), LEAVE, ["leave"]),
    # worth 2/5: waiting for ever earns exactly the value, so it is optimal too
    (0, F(2, 5), F(2, 5), LEAVE, ["wait", "leave"]),
    # worth 1: wait (1); leaving yields 2/5 < 1
    (0, F(1), F(1), WAIT, ["wait"]),
    # player 1, worth 1: leave (2/5); waiting ties but for ever gives player 0 1 > 2/5
    (1, F(1), F(2, 5), LEAVE, ["leave"]),
    # player 1, worth 0: wait (0)
    (1, F(0), F(0), WAIT, ["wait"]),
])
def test_infinite_play_keeps_the_switch_safe_ties(owner: int, c: Fraction, value: Fraction,
                                                   played: int, want: list[str]) -> None:
    g = lobby(owner)
    assert labels(g, optimal_mask(g, [value], choice(played), infinite_play=c)) == [want]
    ties = exact_signs(g, [value]) == 0
    assert labels(g, switch_safe_actions(g, [value], choice(played), c, ties)) == [want]


def test_end_component_bounds() -> None:
    # player 0 claims 2/5 by leaving, but with never-ending play worth 1 it can wait for ever:
    # (a) and (b) hold (waiting ties), only (c) catches the claim
    g = lobby(0)
    values = [F(2, 5)]
    assert first_failure(g, exact_signs(g, values), choice(LEAVE), directions(g)) is None
    assert end_component_failure(g, values, choice(LEAVE), F(1)) == Failure("c", 0, -1, 0)
    assert end_component_failure(g, values, choice(LEAVE), F(0)) is None
    # player 1 can wait for ever (worth 0 < 2/5 to player 0): the claim of 2/5 fails (c)
    g = lobby(1)
    assert end_component_failure(g, values, choice(LEAVE), F(0)) == Failure("c", 0, -1, 1)
    # unless player 1's strategy is fixed to leaving: then it cannot loop
    usable = usable_actions(g, choice(LEAVE), optimizing=(0,))
    assert usable.tolist() == [False, True]
    assert end_component_failure(g, values, choice(LEAVE), F(0), usable) is None


# --- against the definition on random games ------------------------------------------------

@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stopping_games(max_states=5))
def test_mask_is_the_ties_of_the_definition(game: TableGame) -> None:
    sol = tbsg.solve(game)
    g = sol.graph
    values = [F(v) for v in sol.values_exact]
    # Q(s, a) from the game's own tables, in Fractions: an action is optimal iff Q = v(s)
    value = dict(zip(g.states, values, strict=True))
    want = []
    for s in g.states:
        for a in game.actions(s):
            q = sum((p * (x.payoff if isinstance(x, Terminal) else value[x])
                     for p, x in game.outcomes(s, a)), F(0))
            want.append(q == value[s])
    for sign in (None, exact_signs(g, values)):
        assert optimal_mask(g, values, sol.choice, sign=sign).tolist() == want
    assert sol.optimal.tolist() == want
