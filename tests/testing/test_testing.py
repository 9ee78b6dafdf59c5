"""``tbsg.testing``: the tools a user's own test suite gets.

The first two tests use the module exactly as a user would, from a test file of their
own: a hypothesis property over random games (``tbsg.solve`` equals the brute-force
oracle, exactly) and a published number checked to every printed digit (passing on the
right digits, failing on a wrong one). The rest pin down each tool: the shapes the
strategies draw and how they shrink, the oracle against hand-solved games and its limits,
and the rules and messages of ``assert_reproduces``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

import tbsg
from tbsg.games import piglet, risk_or_safety
from tbsg.testing import (
    RewardTableGame,
    TableGame,
    assert_reproduces,
    brute_force,
    distributions,
    games,
    profile_values,
    solve_linear_system,
    terminals,
)
from tbsg.testing.strategies import NUDGE, TINY

# TBSG_EXAMPLES=1000 runs a longer search (the default keeps the file to a few seconds)
EXAMPLES = int(os.environ.get("TBSG_EXAMPLES", "40"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

F = Fraction
H = F(1, 2)

# Jehn, "Optimal strategy in the game Risk or Safety" (arXiv 2603.01002, 2026), section 3.3:
# P(0,0,0) = 275848876/521145625 for n = 6 (tbsg.sources.risk_or_safety.P000[6]), which is
# 0.529312466...
JEHN_P000_N6 = F(275848876, 521145625)


# --- as a user would: a property over random games, and a published number ---------------

@SETTINGS
@given(games(states=(1, 5), actions=(1, 3), outcomes=(1, 3), max_profiles=64))
def test_user_property_solve_equals_brute_force(game: TableGame) -> None:
    sol = tbsg.solve(game)
    oracle = brute_force(game)
    assert sol.value() == oracle.value()
    assert sol.values == oracle.values  # every reachable state, exact ==


def test_user_published_fraction_and_decimal() -> None:
    sol = tbsg.solve(risk_or_safety(6))
    quantity = "P(0,0,0), n = 6 (Jehn 2026, section 3.3)"
    assert_reproduces(sol, JEHN_P000_N6, quantity=quantity)
    assert_reproduces(sol, "275848876/521145625", quantity=quantity)
    assert_reproduces(sol, "0.5293", quantity=quantity)
    assert_reproduces(sol, "52.93%", quantity=quantity)
    assert_reproduces(sol, "0.529312466", quantity=quantity)
    with pytest.raises(AssertionError, match=r"decimal 4 \(published 4, computed 3\)") as info:
        assert_reproduces(sol, "0.5294", quantity=quantity)
    message = str(info.value)
    assert quantity in message and "0.5294" in message and "275848876/521145625" in message
    with pytest.raises(AssertionError, match=r"decimal 9 \(published 7, computed 6\)"):
        assert_reproduces(sol, "0.529312467", quantity=quantity, rounding="truncate")


@pytest.mark.slow
def test_user_pig_53_06_percent() -> None:
    # Neller and Presser 2004, The UMAP Journal 25(1), p. 34: with optimal play the first
    # player of Pig to 100 wins 53.06% of games (tbsg.sources.pig.OPTIMAL); float path
    from tbsg.games import pig

    fsol = tbsg.solve(pig(100), exact=False, tol=1e-12)
    assert_reproduces(fsol, "53.06%", quantity="Pig to 100, P(0,0,0)")
    with pytest.raises(AssertionError, match=r"decimal 2 \(published 7, computed 6\)"):
        assert_reproduces(fsol, "53.07%", quantity="Pig to 100, P(0,0,0)")


def test_the_guide_test_files_pass_under_pytest(tmp_path: Path) -> None:
    # docs/testing.md shows a user's test files; run them as the user would
    guide = (Path(__file__).resolve().parents[2] / "docs" / "testing.md").read_text(encoding="utf-8")
    files = re.findall(r"```python\n# (test_\w+\.py)\n(.*?)```", guide, flags=re.DOTALL)
    assert [name for name, _ in files] == ["test_paper.py", "test_my_analysis.py"]
    for name, body in files:
        (tmp_path / name).write_text(body, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                         capture_output=True, text=True, cwd=tmp_path, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "3 passed" in run.stdout


# --- import -------------------------------------------------------------------------------

def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)


def test_import_tbsg_does_not_import_hypothesis() -> None:
    run = _python("import sys, tbsg; print('hypothesis' in sys.modules)")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "False"


def test_import_without_hypothesis_says_how_to_install_it() -> None:
    run = _python("import sys; sys.modules['hypothesis'] = None\n"
                  "try:\n    import tbsg.testing\nexcept ImportError as e:\n    print(e)")
    assert run.returncode == 0, run.stderr
    assert "pip install 'tbsg[testing]'" in run.stdout


# --- the strategies -----------------------------------------------------------------------

def _table_facts(game: TableGame) -> None:
    """What every drawn game is: exact probabilities summing to 1, valid players."""
    assert len(game.players) == len(game.moves) == game.n
    for s in range(game.n):
        assert game.players[s] in (0, 1)
        labels = game.actions(s)
        assert labels and len(set(labels)) == len(labels)
        for a in labels:
            outs = game.outcomes(s, a)
            assert all(type(p) is Fraction and p > 0 for p, _ in outs)
            assert sum(p for p, _ in outs) == 1
            for _, x in outs:
                assert isinstance(x, tbsg.Terminal) or (type(x) is int and 0 <= x < game.n)


@SETTINGS
@given(st.data())
def test_games_have_the_requested_shape(data: st.DataObject) -> None:
    lo_s = data.draw(st.integers(1, 4), label="least states")
    hi_s = data.draw(st.integers(lo_s, 6), label="most states")
    lo_a = data.draw(st.integers(1, 2), label="least actions")
    hi_a = data.draw(st.integers(lo_a, 5), label="most actions")
    k = data.draw(st.integers(1, 4), label="outcomes")
    players = data.draw(st.sampled_from([(0,), (1,), (0, 1)]), label="players")
    payoffs = data.draw(st.sampled_from(["win-lose", "draws", "rational"]), label="payoffs")
    game = data.draw(games(states=(lo_s, hi_s), actions=(lo_a, hi_a), outcomes=k, players=players,
                           payoffs=payoffs, ties=False))  # type: ignore[arg-type]  # one of Payoffs
    _table_facts(game)
    assert lo_s <= game.n <= hi_s
    assert set(game.players) <= set(players)
    allowed = {"win-lose": {0, 1}, "draws": {0, H, 1}}.get(payoffs)
    for s in range(game.n):
        assert lo_a <= len(game.moves[s]) <= hi_a
        for _, outs in game.moves[s]:
            assert len(outs) == k
            if allowed is not None:
                assert {x.payoff for _, x in outs if isinstance(x, tbsg.Terminal)} <= allowed  # type: ignore[operator]
    tbsg.verify(game, tbsg.solve(game))  # stopping: solve accepts it, and its certificate holds


@SETTINGS
@given(games(states=(1, 6), cycles=False))
def test_games_without_cycles_only_move_forward(game: TableGame) -> None:
    _table_facts(game)
    for s in range(game.n):
        for _, outs in game.moves[s]:
            assert all(x > s for _, x in outs if not isinstance(x, tbsg.Terminal))
    tbsg.solve(game)


def test_games_with_cycles_draw_cycles_and_copies() -> None:
    seen = {"cycle": False, "self_loop": False, "tie": False, "near_tie": False, "tiny": False}

    @settings(max_examples=150, deadline=None, database=None)
    @given(games(near_ties=True, tiny=True))
    def probe(game: TableGame) -> None:
        for s in range(game.n):
            outs = [o for _, o in game.moves[s]]
            seen["tie"] |= len(set(outs)) < len(outs)
            for o in outs:
                seen["cycle"] |= any(isinstance(x, int) and x < s for _, x in o)
                seen["self_loop"] |= any(x == s for _, x in o if isinstance(x, int))
                seen["near_tie"] |= any(isinstance(x, tbsg.Terminal) and x.payoff.denominator >= 2**70
                                        for _, x in o)
                seen["tiny"] |= any(p in TINY for p, _ in o)
    probe()
    assert all(seen.values()), seen


FIND = settings(database=None, derandomize=True)


def test_games_that_need_not_stop_include_non_stopping_ones() -> None:
    def never_stops(game: TableGame) -> bool:
        try:
            tbsg.solve(game)
        except tbsg.NonStoppingGameError:
            return True
        return False

    small = find(games(stopping=False), never_stops, settings=FIND)
    # shrinks to one state whose one action loops back to itself
    assert small.n == 1 and len(small.moves[0]) == 1
    assert [x for _, x in small.moves[0][0][1]] == [0]


def test_shrinking_gives_small_games() -> None:
    # the smallest games with three reachable states have three states
    chain = find(games(states=(1, 4), actions=(1, 2)), lambda g: len(g.reachable()) >= 3,
                 settings=FIND)
    assert chain.n == 3
    assert sum(len(outs) for acts in chain.moves for _, outs in acts) <= 5
    # the smallest game with a choice that matters: one state, two actions of different value
    choice = find(games(), lambda g: len(set(tbsg.solve(g).action_values().values())) > 1,
                  settings=FIND)
    assert choice.n == 1 and len(choice.moves[0]) == 2
    assert all(len(outs) == 1 for _, outs in choice.moves[0])


@SETTINGS
@given(games(states=(1, 4), actions=(1, 3), near_ties=True))
def test_near_ties_are_exact_ties_moved_below_float_resolution(game: TableGame) -> None:
    for s in range(game.n):
        for _, outs in game.moves[s]:
            for _, x in outs:
                if isinstance(x, tbsg.Terminal) and x.payoff.denominator >= 2**70:
                    assert float(x.payoff) in (0.0, 0.5, 1.0) or abs(float(x.payoff) * 2**70 % 1) == 0
    assert F(1, 2**70) == NUDGE


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"states": 0}, "states"),
    ({"states": (3, 2)}, "states"),
    ({"actions": (1, 2, 3)}, "actions"),
    ({"outcomes": True}, "outcomes"),
    ({"players": ()}, "players"),
    ({"players": (0, 2)}, "players"),
    ({"stopping": False, "cycles": False}, "cycles=True"),
    ({"near_ties": True, "payoffs": "draws"}, "payoffs='rational'"),
    ({"payoffs": "half"}, "payoffs"),
    ({"max_profiles": 0}, "max_profiles"),
])
def test_bad_shapes_are_refused_when_the_strategy_is_built(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(tbsg.InvalidArgumentError, match=match):
        games(**kwargs)  # type: ignore[arg-type]


def test_building_blocks() -> None:
    assert find(terminals("win-lose"), lambda t: t.payoff == 0) == tbsg.win(1)
    assert find(distributions(2), lambda ps: ps[0] != ps[1]) in ([F(1, 3), F(2, 3)], [F(2, 3), F(1, 3)])
    with pytest.raises(tbsg.InvalidArgumentError):
        distributions(0)


def test_table_game_checks_its_tables_and_round_trips_through_repr() -> None:
    with pytest.raises(tbsg.InvalidGameError, match="2 players for 1 states"):
        TableGame((0, 1), ((("a", ((F(1), tbsg.DRAW),)),),))
    with pytest.raises(tbsg.InvalidGameError, match="initial state 1"):
        TableGame((0,), ((("a", ((F(1), tbsg.DRAW),)),),), initial=1)
    game = TableGame((0, 1), ((("a", ((H, tbsg.DRAW), (H, 1))),), (("x", ((F(1), tbsg.win(1)),)),)))
    assert eval(repr(game), {"TableGame": TableGame, "Fraction": Fraction,
                             "Terminal": tbsg.Terminal}) == game
    assert isinstance(game, tbsg.Game)


# --- the oracle ---------------------------------------------------------------------------

class Dare:
    """A hand-solved game with named states (strings), both players and a cycle.

    "me" (player 0): "safe" wins with 1/3; "dare" wins with 1/2, else play goes to "you".
    "you" (player 1): "draw" ends in a draw; "back" returns to "me" with 1/2, else player 1
    wins. Player 1 at "you": min(1/2, v/2) with v = v("me"); player 0: max(1/3, 1/2 + v("you")/2).
    With v("you") = v/2: v = 1/2 + v/4, so v = 2/3 and v("you") = 1/3.
    """

    initial = "me"

    def player(self, s: str) -> int:
        return 0 if s == "me" else 1

    def actions(self, s: str) -> tuple[str, ...]:
        return ("safe", "dare") if s == "me" else ("draw", "back")

    def outcomes(self, s: str, a: str) -> list[tuple[Fraction, str | tbsg.Terminal]]:
        moves: dict[str, list[tuple[Fraction, str | tbsg.Terminal]]] = {
            "safe": [(F(1, 3), tbsg.win(0)), (F(2, 3), tbsg.win(1))],
            "dare": [(H, tbsg.win(0)), (H, "you")],
            "draw": [(F(1), tbsg.DRAW)],
            "back": [(H, "me"), (H, tbsg.win(1))]}
        return moves[a]


def test_oracle_on_a_hand_solved_game() -> None:
    oracle = brute_force(Dare())
    assert oracle.values == {"me": F(2, 3), "you": F(1, 3)}
    assert oracle.value() == F(2, 3) and oracle.value("you", player=1) == F(2, 3)
    assert oracle.profiles == 4
    assert profile_values(Dare(), {"me": "dare", "you": "draw"}) == {"me": F(3, 4), "you": H}
    assert profile_values(Dare(), lambda s: "safe" if s == "me" else "back") == {
        "me": F(1, 3), "you": F(1, 6)}
    # fixed: player 1 always draws, so player 0's best response dares: 1/2 + 1/4
    assert brute_force(Dare(), fixed={"you": "draw"}).values == {"me": F(3, 4), "you": H}


def test_oracle_reproduces_published_fractions() -> None:
    # Jehn 2026, section 3.1: P(0,0,0) = 4/7 for n = 2; Neller and Presser 2004, p. 30:
    # Piglet to 2, P(0,0,0) = 4/7
    catalog: tuple[tbsg.Game[Any, Any], ...] = (risk_or_safety(2), piglet(2))
    for game in catalog:
        oracle = brute_force(game)
        assert_reproduces(oracle.value(), F(4, 7))
        assert tbsg.solve(game).values == oracle.values


@SETTINGS
@given(games(states=(1, 4), actions=(1, 2), stopping=False), st.sampled_from([F(0), F(1, 3), H, F(1)]))
def test_oracle_with_infinite_play_matches_solve(game: TableGame, c: Fraction) -> None:
    assert tbsg.solve(game, infinite_play=c).values == brute_force(game, infinite_play=c).values


@SETTINGS
@given(games(states=(1, 5), max_profiles=64), st.data())
def test_oracle_best_response_and_evaluation_match_tbsg(game: TableGame, data: st.DataObject) -> None:
    states = game.reachable()
    profile = {s: data.draw(st.sampled_from(game.actions(s)), label=f"action at {s}") for s in states}
    expected = profile_values(game, profile)
    assert tbsg.evaluate(game, profile, reach="game").values == expected
    reached = tbsg.evaluate(game, profile)  # the states the profile reaches
    assert all(reached.value(s) == expected[s] for s in reached.states)
    assert brute_force(game, fixed=profile).values == expected
    player = data.draw(st.integers(0, 1), label="optimising player")
    other = {s: a for s, a in profile.items() if game.player(s) != player}
    oracle = brute_force(game, fixed=other).values
    assert tbsg.best_response(game, player, other, reach="game").values == oracle
    assert all(v == oracle[s] for s, v in tbsg.best_response(game, player, other).values.items())


def test_oracle_refuses_games_above_its_limits() -> None:
    with pytest.raises(tbsg.StateLimitError, match="more than max_states=32 reachable states"):
        brute_force(risk_or_safety(3))  # 36 states
    with pytest.raises(tbsg.StateLimitError, match=r"262144 pure stationary profiles.*max_profiles=1024"):
        brute_force(risk_or_safety(3), max_states=36)
    strategy = tbsg.solve(risk_or_safety(3)).strategy  # pinned everywhere: one profile
    assert brute_force(risk_or_safety(3), fixed=strategy, max_states=36).profiles == 1
    with pytest.raises(tbsg.StateLimitError, match="max_states=10"):
        brute_force(risk_or_safety(2), max_states=10)
    with pytest.raises(tbsg.InvalidArgumentError, match="max_profiles"):
        brute_force(Dare(), max_profiles=0)


def test_oracle_reports_bad_games_and_profiles() -> None:
    loop = TableGame((0,), ((("stay", ((F(1), 0),)), ("go", ((F(1), tbsg.DRAW),))),))
    with pytest.raises(tbsg.NonStoppingGameError, match="infinite_play"):
        brute_force(loop)
    assert brute_force(loop, infinite_play=1).value() == 1
    broken = TableGame((0,), ((("a", ((H, tbsg.DRAW), (F(1, 3), tbsg.win(0)))),),))
    with pytest.raises(tbsg.InvalidGameError, match="probabilities sum to 5/6, not 1, at state 0"):
        brute_force(broken)
    sloppy = TableGame((0,), ((("a", ((0.5, tbsg.DRAW), (0.5, tbsg.win(0)))),),))  # type: ignore[arg-type]
    with pytest.raises(tbsg.ExactnessError):
        brute_force(sloppy)
    with pytest.raises(tbsg.InvalidStrategyError, match="not one of its actions"):
        profile_values(Dare(), {"me": "run", "you": "draw"})
    with pytest.raises(tbsg.InvalidStrategyError, match="no action for state 'you'"):
        profile_values(Dare(), {"me": "dare"})
    with pytest.raises(tbsg.InvalidStrategyError, match="not a reachable state"):
        brute_force(Dare(), fixed={"elsewhere": "draw"})


def test_solve_linear_system() -> None:
    assert solve_linear_system([[2, 1, 5], [1, 3, F(15, 2)]]) == [F(3, 2), F(2)]
    assert solve_linear_system([[0, 1, 2], [1, 0, 3]]) == [F(3), F(2)]  # needs a row swap
    assert solve_linear_system([]) == []
    with pytest.raises(ValueError, match="singular"):
        solve_linear_system([[1, 2, 3], [2, 4, 6]])
    with pytest.raises(ValueError, match="rows"):
        solve_linear_system([[1, 2, 3]])


@SETTINGS
@given(st.integers(1, 6).flatmap(lambda m: st.lists(
    st.lists(st.fractions(-5, 5, max_denominator=9), min_size=m + 1, max_size=m + 1),
    min_size=m, max_size=m)))
def test_solve_linear_system_solves_or_says_singular(rows: list[list[Fraction]]) -> None:
    m = len(rows)
    try:
        x = solve_linear_system(rows)
    except ValueError:
        # singular: Gaussian elimination on Fractions finds a zero column too
        mat = [row[:m] for row in rows]
        rank = 0
        for c in range(m):
            piv = next((r for r in range(rank, m) if mat[r][c] != 0), None)
            if piv is None:
                continue
            mat[rank], mat[piv] = mat[piv], mat[rank]
            for r in range(rank + 1, m):
                f = mat[r][c] / mat[rank][c]
                mat[r] = [a - f * b for a, b in zip(mat[r], mat[rank], strict=True)]
            rank += 1
        assert rank < m
        return
    for row in rows:
        assert sum(a * b for a, b in zip(row, x, strict=False)) == row[m]


# --- assert_reproduces --------------------------------------------------------------------

@pytest.mark.parametrize(("computed", "published", "rounding"), [
    (JEHN_P000_N6, "0.53", "nearest"),
    (JEHN_P000_N6, "0.529", "either"),
    (JEHN_P000_N6, "0.5293", "truncate"),
    (JEHN_P000_N6, ".5293", "nearest"),
    (JEHN_P000_N6, "52.931%", "nearest"),
    (JEHN_P000_N6, "53%", "nearest"),
    (JEHN_P000_N6, "1", "nearest"),
    (F(1, 8), "0.12", "nearest"),   # an exact tie: either neighbour (half even, half up)
    (F(1, 8), "0.13", "nearest"),
    (F(1, 8), "0.12", "truncate"),
    (F(2, 3), "0.666", "truncate"),
    (F(2, 3), "0.667", "either"),
    (F(2, 3), "0.666", "either"),
    (F(1), "1.000", "nearest"),
    (F(0), "0", "nearest"),
    (F(1), 1, "nearest"),
    ((F(5293, 10**4), F(52934, 10**5)), "0.5293", "nearest"),
    ((0.5305927252735, 0.5305927252739), "53.06%", "nearest"),
])
def test_reproduces(computed: object, published: str, rounding: str) -> None:
    assert_reproduces(computed, published, rounding=rounding)  # type: ignore[arg-type]


@pytest.mark.parametrize(("computed", "published", "rounding", "first"), [
    (JEHN_P000_N6, "0.5292", "nearest", r"decimal 4 \(published 2, computed 3\)"),
    (JEHN_P000_N6, "0.52931247", "truncate", r"decimal 8 \(published 7, computed 6\)"),
    (JEHN_P000_N6, "0.52932", "either", r"decimal 5 \(published 2, computed 1\)"),
    (JEHN_P000_N6, "52.94%", "nearest", r"decimal 2 \(published 4, computed 3\)"),
    (JEHN_P000_N6, "0.6", "nearest", r"decimal 1 \(published 6, computed 5\)"),
    (JEHN_P000_N6, "0.50", "nearest", r"decimal 2 \(published 0, computed 3\)"),  # trailing zero counts
    (F(1, 8), "0.14", "nearest", r"decimal 2 \(published 4, computed 2\)"),
    (F(1, 8), "0.13", "truncate", r"decimal 2 \(published 3, computed 2\)"),
    (F(1), "0.999", "nearest", r"the integer part \(published 0, computed 1\)"),
    (JEHN_P000_N6, F(275848876, 521145626), "nearest", r"decimal 9 \(published 5, computed 6\)"),
    (JEHN_P000_N6, F(1, 2), "nearest", r"decimal 2 \(published 0, computed 2\)"),
    ((0.50, 0.52), "0.5306", "nearest", r"decimal 2 \(published 3, computed 2\)"),
    ((0.5305927252735, 0.5305927252739), "53.07%", "nearest", r"decimal 2 \(published 7, computed 6\)"),
    ((F(1, 3), F(1, 2)), F(3, 5), "nearest", r"decimal 1 \(published 6, computed 5\)"),
])
def test_does_not_reproduce(computed: object, published: object, rounding: str, first: str) -> None:
    with pytest.raises(AssertionError, match=f"first difference: {first}") as info:
        assert_reproduces(computed, published, quantity="the quantity", rounding=rounding)  # type: ignore[arg-type]
    message = str(info.value)
    assert message.startswith("the quantity does not reproduce the published ")
    assert "computed:" in message and "published:" in message


@pytest.mark.parametrize(("computed", "published", "rounding", "accepted"), [
    ((F(5305, 10**4), F(5307, 10**4)), "0.5306", "nearest", "[0.53055, 0.53065]"),
    ((F(1, 2), F(6, 10)), "0.53", "truncate", "[0.530, 0.540)"),
    ((F(1, 2), F(6, 10)), "0.53", "either", "[0.525, 0.540)"),
    ((F(52, 100), F(54, 100)), "53%", "nearest", "[52.5%, 53.5%]"),
])
def test_cannot_decide_at_this_tolerance(computed: object, published: str, rounding: str,
                                         accepted: str) -> None:
    with pytest.raises(AssertionError, match="cannot decide at this tolerance") as info:
        assert_reproduces(computed, published, rounding=rounding)  # type: ignore[arg-type]
    assert f"the values in {accepted}" in str(info.value)
    assert "smaller tol" in str(info.value)


def test_an_interval_never_proves_a_fraction() -> None:
    with pytest.raises(AssertionError, match=r"(?s)cannot decide at this tolerance.*solve exactly"):
        assert_reproduces((F(1, 3), F(1, 2)), F(2, 5))
    assert_reproduces((F(2, 5), F(2, 5)), F(2, 5))  # unless it is a point


def test_solutions_are_read_at_a_state_for_a_player() -> None:
    game = Dare()
    sol = tbsg.solve(game)
    assert_reproduces(sol, F(2, 3))
    assert_reproduces(sol, F(1, 3), state="you")
    assert_reproduces(sol, F(2, 3), state="you", player=1)
    fsol = tbsg.solve(game, exact=False)
    assert_reproduces(fsol, "0.6667")
    assert_reproduces(fsol, "66.67%", state="you", player=1)
    with pytest.raises(AssertionError, match=r"the value of state 'you' to player 1 does not"):
        assert_reproduces(fsol, "0.3333", state="you", player=1)


@pytest.mark.parametrize(("computed", "published", "kwargs", "match"), [
    (F(1, 2), 0.5, {}, "as a string"),
    (0.5, "0.5", {}, "no error bound"),
    (F(1, 2), "about a half", {}, "not a printed decimal"),
    (F(1, 2), "1/0", {}, "zero denominator"),
    (F(1, 2), "1e-3", {}, "not a printed decimal"),
    (F(1, 2), None, {}, "published must be"),
    ("1/2", "0.5", {}, "computed must be"),
    ((F(1), F(0)), "0.5", {}, "lower > upper"),
    ((F(0), F(1), F(1)), "0.5", {}, "pair"),
    ((0.0, float("nan")), "0.5", {}, "finite"),
    (F(1, 2), "0.5", {"rounding": "up"}, "rounding"),
    (F(1, 2), "0.5", {"state": 3}, "state= and player="),
    (F(1, 2), "0.5", {"player": 2}, "player"),
])
def test_bad_arguments(computed: object, published: object, kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(tbsg.InvalidArgumentError, match=match):
        assert_reproduces(computed, published, **kwargs)  # type: ignore[arg-type]


# --- reward games (issue 24) ------------------------------------------------------------------------

def test_the_oracle_counts_rewards_and_scores() -> None:
    """By hand (FewestRolls of tests/oracles.py as tables): one die costs 6 rolls; the
    oracle's player 1 view of a score game is -v; one-player games without player() work."""
    from oracles import FewestRolls, OneTurn
    roll = ((F(1, 6), tbsg.Terminal(0)), (F(5, 6), 0))
    two = ((F(11, 36), tbsg.Terminal(0)), (F(25, 36), 0))
    game = RewardTableGame(players=(1,), moves=((("one", roll), ("two", two)),), rewards=((1, 2),))
    oracle = brute_force(game)
    assert oracle.value() == 6 == brute_force(FewestRolls()).value()
    assert oracle.value(player=1) == -6 and not oracle.win_probability
    assert brute_force(OneTurn(4)).value() == F(155, 36)
    assert brute_force(risk_or_safety(2)).win_probability


def test_the_oracle_refuses_rewards_collected_forever() -> None:
    loop = RewardTableGame(players=(0,), moves=((("wait", ((1, 0),)), ("end", ((1, tbsg.DRAW),))),),
                           rewards=((1, 0),))
    with pytest.raises(tbsg.NonStoppingGameError, match="pay rewards"):
        brute_force(loop, infinite_play=0)
    free = RewardTableGame(players=(0,), moves=loop.moves, rewards=((0, 3),))
    assert brute_force(free, infinite_play=5).value() == 5  # max(5 forever, 3 + 1/2)


def test_a_reward_table_needs_one_reward_per_action() -> None:
    with pytest.raises(tbsg.InvalidGameError, match="one reward per action"):
        RewardTableGame(players=(0,), moves=((("a", ((1, tbsg.DRAW),)),),), rewards=((1, 2),))


@SETTINGS
@given(games(states=(1, 4), payoffs="score", rewards=True))
def test_score_and_reward_games_are_drawn(game: TableGame) -> None:
    assert isinstance(game, RewardTableGame)
    assert all(len(r) == len(m) for r, m in zip(game.rewards, game.moves, strict=True))
    tbsg.solve(game)  # stopping: solved without infinite_play


def test_score_games_reach_outside_zero_one() -> None:
    big = find(games(payoffs="score", rewards=True), lambda g: abs(tbsg.solve(g).value()) > 1)
    assert not tbsg.solve(big).win_probability
