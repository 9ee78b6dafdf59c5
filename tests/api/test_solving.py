"""The public API surface: exports, docstrings, result objects and their conventions."""

from __future__ import annotations

import dataclasses
import inspect
import itertools
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Literal

import pytest

import tbsg
import tbsg.games
from strategies import TableGame
from tbsg.games import CoinballState, RoSState, coinball, risk_or_safety

ROOT = Path(__file__).resolve().parents[2]
Move = Literal["toss", "stop"]


# --- exports and documentation ---------------------------------------------------------------

EXPECTED_API = {
    "DRAW", "ExactnessError", "FloatSolution", "Game", "GameUnavailableError", "InfinitePlayError",
    "InvalidArgumentError", "InvalidGameError", "InvalidStrategyError",
    "NonStoppingGameError", "Pivot", "Provenance", "Row", "Solution", "SolutionFileError", "SolutionKind",
    "StateLimitError", "StateTable", "TamperedSolutionError", "TbsgError", "Terminal", "ToleranceError",
    "UnknownStateError", "UnsupportedError", "Verification", "__version__",
    "best_response", "evaluate", "load", "save", "solve", "state_table", "verify", "win",
    # play under a profile and tie-breaking
    "Chain", "InfiniteExpectationError", "LengthBounds", "LengthDistribution", "TieBreak", "chain",
    # Monte Carlo play under a profile
    "Simulation", "simulate",
    # parametric games, loaded on first use (sympy, python-flint)
    "evaluate_parametric", "solve_parametric", "verify_parametric",
    # the optional array form of a game
    "ArrayAction", "ArrayOutcome", "ArrayTransitions",
    # the optional array form of a strategy
    "ArrayStrategy",
    # a parametric solution's region tables, beside state_table (loaded on first use)
    "region_latex", "region_rows", "region_table",
}


def test_every_exception_lives_in_errors_and_is_exported() -> None:
    import inspect

    from tbsg import errors

    defined = {name for name, obj in vars(errors).items()
               if inspect.isclass(obj) and issubclass(obj, Exception) and obj.__module__ == errors.__name__}
    assert defined <= set(tbsg.__all__)
    assert defined == {name for name in errors.__all__ if name[0].isupper()}
    # no exception class is defined anywhere else in the package
    for path in (ROOT / "src" / "tbsg").rglob("*.py"):
        if path.name != "errors.py":
            text = path.read_text(encoding="utf-8")
            assert "Error(" not in "".join(line for line in text.splitlines()
                                           if line.startswith("class ")), path


def test_all_lists_the_public_api() -> None:
    assert set(tbsg.__all__) == EXPECTED_API
    assert len(tbsg.__all__) == len(set(tbsg.__all__))
    for name in tbsg.__all__:
        assert hasattr(tbsg, name), name


@pytest.mark.parametrize("module", [tbsg, tbsg.games])
def test_public_items_have_docstrings(module: object) -> None:
    assert inspect.getdoc(module)
    for name in module.__all__:  # type: ignore[attr-defined]
        obj = getattr(module, name)
        if isinstance(obj, str | tbsg.Terminal):  # __version__, DRAW
            continue
        assert inspect.getdoc(obj), name
        # public methods and properties of tbsg's own classes (the catalog's games implement
        # the Game protocol, whose members are documented on tbsg.Game)
        if inspect.isclass(obj) and module is tbsg:
            for attr, member in vars(obj).items():
                if attr.startswith("_") or not (inspect.isfunction(member) or isinstance(member, property)):
                    continue
                assert inspect.getdoc(member), f"{name}.{attr}"


def _fresh_python(code: str) -> str:
    """Run ``code`` in a new interpreter (nothing imported yet) and return its output."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_import_tbsg_loads_no_catalog_and_no_matplotlib() -> None:
    # importing tbsg stays light: games and plots load on first use
    out = _fresh_python(
        "import sys, tbsg\n"
        "print(sorted(m for m in sys.modules if m.startswith(('matplotlib', 'pandas', 'tqdm', "
        "'tbsg.games', 'tbsg.plots', 'tbsg.games.registry', 'tbsg.sources', 'tbsg.cli', 'sympy', 'flint', "
        "'tbsg.parametric'))))\n"
        "print(tbsg.games.pig(), tbsg.games.piglet(3).goal)\n"
        "print(tbsg.plots.heatmap.__name__, tbsg.plots.plot_pig_hold_boundary.__name__)\n"
        "print(any(m.startswith('matplotlib') for m in sys.modules))\n"
        "print(tbsg.games is sys.modules['tbsg.games'], 'plots' in dir(tbsg))\n")
    assert out.splitlines() == ["[]", "Pig(goal=100, die=6) 3", "heatmap plot_pig_hold_boundary",
                                "False", "True True"]


def test_lazy_subpackages_are_not_a_catch_all() -> None:
    with pytest.raises(AttributeError, match="module 'tbsg' has no attribute 'gmaes'"):
        tbsg.gmaes  # type: ignore[attr-defined]  # noqa: B018
    assert "games" not in tbsg.__all__ and "plots" not in tbsg.__all__  # no import * side effects


def test_type_checkers_see_the_lazy_subpackages(tmp_path: Path) -> None:
    # mypy --strict on a user's file: tbsg.games and tbsg.plots are typed, a typo is an error
    api = pytest.importorskip("mypy.api")
    user = tmp_path / "user.py"
    user.write_text("import tbsg\nreveal_type(tbsg.games.pig(goal=10))\n"
                    "reveal_type(tbsg.plots.plot_coinball)\ntbsg.gmaes\n")
    out, _, status = api.run(["--strict", "--no-incremental", "--follow-imports=silent", str(user)])
    assert status == 1
    assert 'Revealed type is "tbsg.games.pig.Pig"' in out
    assert 'Revealed type is "def (tosses: int =' in out and "-> matplotlib.figure.Figure" in out
    assert 'user.py:4: error: Module has no attribute "gmaes"' in out


def test_version_has_one_source() -> None:
    # pyproject reads the version from tbsg._version; the installed metadata must agree
    import importlib.metadata

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert meta["project"]["dynamic"] == ["version"]
    assert meta["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "tbsg._version.__version__"}
    assert importlib.metadata.version("tbsg") == tbsg.__version__


def test_error_hierarchy() -> None:
    # tbsg.errors: "a malformed game is a ValueError, an inexact number is a TypeError"
    for err in (tbsg.InvalidGameError, tbsg.InvalidStrategyError, tbsg.TamperedSolutionError):
        assert issubclass(err, ValueError) and issubclass(err, tbsg.TbsgError)
    assert issubclass(tbsg.ExactnessError, TypeError) and issubclass(tbsg.ExactnessError, tbsg.TbsgError)
    assert issubclass(tbsg.StateLimitError, tbsg.InvalidGameError)
    assert issubclass(tbsg.NonStoppingGameError, tbsg.InvalidGameError)
    assert not issubclass(tbsg.ExactnessError, ValueError)


def test_games_satisfy_the_protocol() -> None:
    assert isinstance(risk_or_safety(2), tbsg.Game)
    assert isinstance(coinball(2), tbsg.Game)
    assert isinstance(TableGame((0,), ((("a", ((Fraction(1), tbsg.DRAW),)),),)), tbsg.Game)
    assert not isinstance(object(), tbsg.Game)


def test_terminals() -> None:
    assert tbsg.win(0) == tbsg.Terminal(1) and tbsg.win(0).payoff == 1
    assert tbsg.win(1) == tbsg.Terminal(0) and tbsg.win(1).payoff == 0
    assert tbsg.Terminal(Fraction(1, 2)) == tbsg.DRAW
    assert type(tbsg.Terminal(1).payoff) is Fraction
    assert len({tbsg.win(0), tbsg.Terminal(Fraction(2, 2)), tbsg.win(1), tbsg.DRAW}) == 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        tbsg.DRAW.payoff = Fraction(1)  # type: ignore[misc]


# --- Solution ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def ros3() -> tbsg.Solution[RoSState, Move]:
    return tbsg.solve(risk_or_safety(3))


def test_solution_is_immutable(ros3: tbsg.Solution[RoSState, Move]) -> None:
    for attr, value in [("method", "x"), ("seconds", 0.0), ("values_exact", []), ("choice", None)]:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(ros3, attr, value)
    with pytest.raises(TypeError):
        ros3.values[ros3.initial] = Fraction(1)  # type: ignore[index]
    with pytest.raises(TypeError):
        ros3.strategy[ros3.initial] = "stop"  # type: ignore[index]
    # states() and action_values() hand out copies
    states = ros3.states
    states.clear()
    assert len(ros3.states) == 36
    av = ros3.action_values(RoSState(0, 1, 0, 0))
    av["stop"] = Fraction(0)
    assert ros3.action_values(RoSState(0, 1, 0, 0))["stop"] != 0


def test_solution_repr_shows_value(ros3: tbsg.Solution[RoSState, Move]) -> None:
    text = repr(ros3)
    assert text.startswith("Solution(value=6/11 ≈ 0.545454545455")
    assert "states=36" in text and "exact" in text
    assert "6/11" in ros3._repr_markdown_()
    # a value too long to print shows its size instead: here p + (1 - p) q
    p, q = Fraction(1, 3**50), Fraction(1, 7**30)
    big = tbsg.solve(TableGame((0, 1), ((("a", ((p, tbsg.win(0)), (1 - p, 1))),),
                                        (("a", ((q, tbsg.win(0)), (1 - q, tbsg.win(1)))),))))
    assert big.value() == p + (1 - p) * q
    assert len(str(big.value())) > 40
    # the style of the tables' notebook views: a decimal and the size of the exact number
    digits = len(str(big.value().denominator))
    assert f"value=≈1.43732243996e-24 (exact: {digits}-digit denominator), exact" in repr(big)
    assert str(big.value()) not in big._repr_html_() + big._repr_markdown_()
    assert f"(exact: {digits}-digit denominator)" in big._repr_html_()
    assert f"(exact: {digits}-digit denominator)" in big._repr_markdown_()


def test_strategy_and_values_cover_every_state(ros3: tbsg.Solution[RoSState, Move]) -> None:
    game = risk_or_safety(3)
    states = ros3.states
    assert states[0] == ros3.initial == game.initial
    assert len(states) == len(set(states)) == ros3.n_states == 36  # n**2 (n + 1) positions
    assert set(ros3.strategy) == set(ros3.values) == set(states)
    assert len(ros3.strategy) == len(ros3.values) == 36
    for s in states:
        assert ros3.strategy[s] in game.actions(s)
        assert ros3.strategy[s] == ros3.action(s)
        assert type(ros3.values[s]) is Fraction
        assert ros3.values[s] == ros3.value(s)
        assert ros3.player(s) == s.mover
        assert all(type(v) is Fraction for v in ros3.action_values(s).values())


def test_value_for_player_one_and_to_move(ros3: tbsg.Solution[RoSState, Move]) -> None:
    assert ros3.value() == ros3.value(ros3.initial) == ros3.value(ros3.initial, player=0)
    for s in ros3.states:
        v = ros3.value(s)
        assert ros3.value(s, player=1) == 1 - v
        assert ros3.value_to_move(s) == (v if s.mover == 0 else 1 - v)
    assert ros3.value_to_move() == Fraction(6, 11)
    assert ros3.value_to_move(RoSState(1, 0, 0, 0)) == Fraction(6, 11)  # seed 000: P(0,0,0)
    assert ros3.value(RoSState(1, 0, 0, 0)) == Fraction(5, 11)
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        ros3.value(player=2)


def _sccs(game: tbsg.Game[RoSState, Move]) -> list[set[RoSState]]:
    """Strongly connected components of the state graph (Kosaraju, written here): depth-first
    finishing order on the graph, then components collected on the reversed graph."""
    succ = _successors(game)
    pred: dict[RoSState, set[RoSState]] = {s: set() for s in succ}
    for s, ts in succ.items():
        for t in ts:
            pred[t].add(s)
    comps: list[set[RoSState]] = []
    assigned: set[RoSState] = set()
    for root in reversed(_finishing_order(succ)):
        if root in assigned:
            continue
        comp, todo = set(), [root]
        while todo:
            s = todo.pop()
            if s not in assigned:
                assigned.add(s)
                comp.add(s)
                todo.extend(pred[s] - assigned)
        comps.append(comp)
    return comps


def _successors(game: tbsg.Game[RoSState, Move]) -> dict[RoSState, set[RoSState]]:
    """Each reachable state's successor states (positive probability, not terminals)."""
    succ: dict[RoSState, set[RoSState]] = {}
    todo = [game.initial]
    while todo:
        s = todo.pop()
        if s in succ:
            continue
        succ[s] = {t for a in game.actions(s) for p, t in game.outcomes(s, a)
                   if p > 0 and isinstance(t, RoSState)}
        todo.extend(succ[s])
    return succ


def _finishing_order(succ: dict[RoSState, set[RoSState]]) -> list[RoSState]:
    """States in the order an iterative depth-first search finishes them."""
    order: list[RoSState] = []
    seen: set[RoSState] = set()
    for root in succ:
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(sorted(succ[root])))]
        while stack:
            node, it = stack[-1]
            nxt = next((t for t in it if t not in seen), None)
            if nxt is None:
                order.append(node)
                stack.pop()
            else:
                seen.add(nxt)
                stack.append((nxt, iter(sorted(succ[nxt]))))
    return order


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_solution_statistics(n: int) -> None:
    game = risk_or_safety(n)
    sol = tbsg.solve(game)
    comps = _sccs(game)
    assert sol.n_states == n * n * (n + 1) == sum(len(c) for c in comps)
    assert sol.n_components == len(comps)
    assert sol.largest_component == max(len(c) for c in comps)
    assert sol.method == "exact strategy iteration (Hoffman-Karp) per SCC"
    assert isinstance(sol.seconds, float) and sol.seconds >= 0
    assert sol.exact is True
    assert sol.exact_solves >= 1 and sol.improvements >= 0
    approx = tbsg.solve(game, exact=False)
    assert (approx.n_states, approx.n_components, approx.largest_component) == \
        (sol.n_states, sol.n_components, sol.largest_component)
    assert approx.method == "certified policy-iteration bounds per SCC level (interval-iteration fallback)"
    assert approx.exact is False
    assert "evaluation" in tbsg.evaluate(game, sol.strategy).method
    assert "best response of player 1" in tbsg.best_response(game, 1, sol.strategy).method


# --- FloatSolution -----------------------------------------------------------------------------

def test_float_solution_types_and_conventions() -> None:
    game = risk_or_safety(4)
    exact = tbsg.solve(game)
    approx = tbsg.solve(game, exact=False, tol=1e-9)
    assert approx.converged and approx.tol == 1e-9 and approx.sweeps > 0
    lo, hi = approx.bounds()
    assert type(lo) is float and type(hi) is float
    assert type(approx.value()) is float and type(approx.max_gap) is float
    assert lo <= approx.value() <= hi
    assert approx.value() == (lo + hi) / 2
    assert approx.value(player=1) == 1.0 - approx.value()
    assert abs(approx.value() - float(exact.value())) <= 1e-9
    assert approx.max_gap == max(h - low for low, h in (approx.bounds(s) for s in approx.states))
    assert set(approx.strategy) == set(approx.states) == set(exact.states)
    for s in exact.states:
        assert approx.action(s) in exact.optimal_actions(s), s  # greedy = exact here: no near-ties
        assert approx.player(s) == s.mover
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        approx.value(player=-1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        approx.tol = 1.0  # type: ignore[misc]
    text = repr(approx)
    assert text.startswith(f"FloatSolution(value in [{lo:.15g}, {hi:.15g}]")
    assert "converged=True" in text


# --- verify --------------------------------------------------------------------------------------

def test_verification_result(ros3: tbsg.Solution[RoSState, Move]) -> None:
    check = tbsg.verify(risk_or_safety(3), ros3)
    assert (check.states, check.actions) == (36, 54)  # 18 decision positions have 2 actions
    assert str(check).startswith("verified: 36 states, 54 actions")
    with pytest.raises(dataclasses.FrozenInstanceError):
        check.states = 0  # type: ignore[misc]


def test_verify_rejects_profile_that_is_not_optimal() -> None:
    # an evaluated, non-optimal profile has consistent values: as the evaluation it is
    # (kind "evaluate") it verifies; claimed as a solution of both players it fails, as it
    # covers only the 6 states "always toss" reaches, not the game's 36
    game = risk_or_safety(3)
    always_toss = tbsg.evaluate(game, lambda s: "toss")
    assert tbsg.verify(game, always_toss).kind is tbsg.SolutionKind.EVALUATE
    claimed = dataclasses.replace(always_toss, optimizing=(0, 1))
    with pytest.raises(tbsg.TamperedSolutionError, match=r"covers 6 states .* the game has more"):
        tbsg.verify(game, claimed)
    # a best response of player 0 relabelled as player 1's fails (b): player 1 has a
    # profitable deviation from "toss" at some state
    br = tbsg.best_response(game, 0, lambda s: "toss")
    relabelled = dataclasses.replace(br, optimizing=(0, 1))
    with pytest.raises(tbsg.TamperedSolutionError):
        tbsg.verify(game, relabelled)
    # the evaluated optimal profile has the solution's values on the states it reaches
    sol = tbsg.solve(game)
    ev = tbsg.evaluate(game, sol.strategy)
    assert tbsg.verify(game, ev).states == ev.n_states < 36
    assert all(ev.value(s) == sol.value(s) for s in ev.states)
    # ... but it is no solution of the game: it does not cover the states it never reaches
    promoted = dataclasses.replace(ev, optimizing=(0, 1))
    with pytest.raises(tbsg.TamperedSolutionError, match="covers 14 states"):
        tbsg.verify(game, promoted)


# --- evaluate and best_response ------------------------------------------------------------------

def test_evaluate_accepts_mapping_and_callable() -> None:
    game = risk_or_safety(3)
    sol = tbsg.solve(game)
    by_map = tbsg.evaluate(game, sol.strategy)
    by_dict = tbsg.evaluate(game, dict(sol.strategy))
    by_fn = tbsg.evaluate(game, sol.action)
    assert by_map.values == by_dict.values == by_fn.values
    assert all(by_map.value(s) == sol.value(s) for s in by_map.states)


@pytest.mark.parametrize(("n", "fixed"), [
    (2, "toss"), (2, "stop"),
    pytest.param(3, "toss", marks=pytest.mark.slow), pytest.param(3, "stop", marks=pytest.mark.slow),
])
def test_best_response_to_always_x_by_enumeration(n: int, fixed: Move) -> None:
    # the opponent "always X" (a callable; "stop" means stop whenever there is an open
    # point); the best response value is the best of all the responder's pure strategies
    game = risk_or_safety(n)

    def opponent(s: RoSState) -> Move:
        return fixed if s.open >= 1 else "toss"

    sol = tbsg.solve(game)
    decisions = [s for s in sol.states if s.open >= 1]
    for player in (0, 1):
        br = tbsg.best_response(game, player, opponent)
        assert isinstance(br, tbsg.Solution)
        mine = [s for s in decisions if s.mover == player]
        values = []
        moves: tuple[Move, Move] = ("toss", "stop")
        for choice in itertools.product(moves, repeat=len(mine)):
            profile = {s: opponent(s) for s in sol.states} | dict(zip(mine, choice, strict=True))
            values.append(tbsg.evaluate(game, profile).value())
        assert br.value() == (max(values) if player == 0 else min(values))
        # optimal play guarantees the value, a fixed opponent can only do worse
        assert (br.value() >= sol.value()) if player == 0 else (br.value() <= sol.value())
        # the response plays the opponent's actions at the opponent's states it reaches
        reached = set(br.states)
        for s in decisions:
            if s.mover != player and s in reached:
                assert br.action(s) == opponent(s)
                assert br.optimal_actions(s) == (opponent(s),)


def test_best_response_coinball_always_rush() -> None:
    # Coinball (seed 001) with 4 tosses against a caller who always rushes: 9/16 (value in the
    # tbsg.games.coinball docstring); a callable and the equivalent mapping agree
    game = coinball(4)
    by_fn = tbsg.best_response(game, 0, lambda s: "rush")
    sol = tbsg.solve(game)
    rush_everywhere: dict[CoinballState, Literal["rush", "pass"]] = {s: "rush" for s in sol.states}
    by_map = tbsg.best_response(game, 0, rush_everywhere)
    assert by_fn.value() == by_map.value() == Fraction(9, 16)
    assert by_fn.value() > sol.value()
    approx = tbsg.best_response(game, 0, lambda s: "rush", exact=False)
    assert isinstance(approx, tbsg.FloatSolution)
    lo, hi = approx.bounds()
    assert lo <= Fraction(9, 16) <= hi


def test_notebook_reprs() -> None:
    # seed 000 (Jehn 2026), section 2: n = 3 gives 6/11
    game = risk_or_safety(3)
    html = tbsg.solve(game)._repr_html_()
    assert html.startswith("<table><caption>tbsg exact solution</caption>")
    assert "<code>6/11</code>" in html
    assert "RoSState(mover=0, open=0, saved=0, other=0)" in html
    fsol = tbsg.solve(game, exact=False)
    assert "proven bounds" in fsol._repr_html_()
    assert fsol._repr_markdown_().startswith("**tbsg float solution**")


# Deliberate `Any` in the table API, each for a reason a user benefits from:
# cells and fields hold values of the game's own types, read dynamically (row.open,
# pivot[r, c]) -- `object` would force a cast on every use; callbacks over such cells;
# pandas objects (pandas ships no type information mypy can use here).
ANY_ALLOWED = {"Row.__getitem__", "Row.__getattr__", "Pivot.__getitem__", "Pivot.__init__",
               "Pivot.to_dict", "Pivot.map", "Pivot.from_dict", "Pivot.to_pandas",
               "StateTable.to_pandas", "StateTable.column", "StateTable.sorted",
               "StateTable.records", "StateTable.pivot", "StateTable.__init__", "Row.__init__"}


def test_no_any_in_public_signatures() -> None:
    # no `Any` leaks through the public API (annotations are strings here)
    leaks = []
    for name in tbsg.__all__:
        obj = getattr(tbsg, name)
        members = [obj] if callable(obj) and not isinstance(obj, type) else [
            m for m in vars(obj).values() if callable(m) and not isinstance(m, type)
        ] if isinstance(obj, type) else []
        for fn in members:
            try:
                sig = inspect.signature(fn)
            except (TypeError, ValueError):
                continue
            notes = [str(p.annotation) for p in sig.parameters.values()] + [str(sig.return_annotation)]
            where = f"{name}.{getattr(fn, '__name__', fn)}"
            if where not in ANY_ALLOWED:
                leaks += [f"{where}: {a}" for a in notes if "Any" in a]
    assert not leaks


def test_progress_bar_forced_and_silent_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("tqdm")
    # seed 000 (Jehn 2026), section 3.3: n = 4 gives 2236/4165, with or without a bar
    assert tbsg.solve(risk_or_safety(4), progress=True).value() == Fraction(2236, 4165)
    assert "exact solve" in capsys.readouterr().err
    assert tbsg.solve(risk_or_safety(4)).value() == Fraction(2236, 4165)  # not a terminal here
    assert tbsg.solve(risk_or_safety(4), exact=False, progress=False).bounds()[0] > 0
    assert capsys.readouterr().err == ""


# --- any zero-sum objective: scores, rewards per move, one-player games (issue 24) ---------------

def test_one_turn_game_hand_derived() -> None:
    """OneTurn(cap=4), derived by hand in its docstring: 155/36, rolling below the cap."""
    from oracles import OneTurn
    sol = tbsg.solve(OneTurn(4))
    assert sol.value() == Fraction(155, 36)
    assert sol.value(3) == Fraction(35, 6) and sol.value(2) == 5 and sol.value(9) == 9
    assert sol.action(0) == sol.action(2) == sol.action(3) == "roll"
    assert not sol.win_probability and sol.value(player=1) == -Fraction(155, 36)


def test_one_turn_game_holds_at_twenty() -> None:
    """OneTurn with a distant cap: roll below 20, bank above, an exact tie at 20 (the
    one-step argument of OneTurn's docstring)."""
    from oracles import OneTurn
    sol = tbsg.solve(OneTurn(60))
    assert all(sol.optimal_actions(t) == ("roll",) for t in sol.states if t < 20)
    assert all(sol.optimal_actions(t) == ("bank",) for t in sol.states if 20 < t < 60)
    assert sol.optimal_actions(20) == ("bank", "roll")
    assert sol.value(20) == 20


def test_keep_rolling_geometric() -> None:
    """KeepRolling, by hand (its docstring): v = 1/2 + 5v/6, so 3, by rolling."""
    from oracles import KeepRolling
    sol = tbsg.solve(KeepRolling())
    assert sol.value() == 3 and sol.action() == "roll"
    assert sol.action_values() == {"stop": 0, "roll": 3}


def test_two_player_score_game() -> None:
    """Bet, by hand (its docstring): player 1 calls (7/3 < 4), player 0 bets (7/6 > 1)."""
    from oracles import Bet
    sol = tbsg.solve(Bet())
    assert sol.value() == Fraction(7, 6) and sol.value("B") == Fraction(7, 3)
    assert sol.strategy == {"A": "bet", "B": "call"}
    assert sol.value(player=1) == -Fraction(7, 6)  # zero-sum: c = 0
    assert sol.value_to_move("B") == -Fraction(7, 3)
    assert sol.action_values_to_move("B") == {"concede": -4, "call": -Fraction(7, 3)}


@pytest.mark.parametrize(("cost", "value"), [(1, 6), (-1, -6)])
def test_one_player_minimisation(cost: int, value: int) -> None:
    """FewestRolls, by hand (its docstring): player 1 minimises the expected rolls, 6, with
    one die; the same as player 0 maximising minus the rolls, -6."""
    from oracles import FewestRolls
    sol = tbsg.solve(FewestRolls(cost))
    assert sol.value() == value and sol.action() == "one"
    assert sol.action_values() == {"one": value, "two": cost * Fraction(37, 6)}


def test_win_probability_games_read_as_before() -> None:
    """A win-probability game keeps player 1's view 1 - v (Risk or Safety to 2: 4/7, as
    before rewards existed); a payoff outside [0, 1] or a reward makes it a score game."""
    sol = tbsg.solve(risk_or_safety(2))
    assert sol.win_probability and sol.value(player=1) == Fraction(3, 7)
    score = TableGame((0,), ((("a", ((Fraction(1), tbsg.Terminal(2)),)),),))
    assert not tbsg.solve(score).win_probability


def test_evaluate_and_best_response_on_reward_games() -> None:
    """FewestRolls and Bet, by hand: always two dice costs 72/11 (FewestRolls' docstring);
    in Bet, against player 1 conceding, betting is worth 2 > 1, and player 1's best
    response to "safe" is either action (the value is 1 whatever she does)."""
    from oracles import Bet, FewestRolls
    assert tbsg.evaluate(FewestRolls(), lambda s: "two").value() == Fraction(72, 11)
    br = tbsg.best_response(Bet(), 0, {"B": "concede"})
    assert br.value() == 2 and br.action("A") == "bet"
    assert tbsg.best_response(Bet(), 1, {"A": "safe"}).value() == 1


def test_a_reward_inside_an_end_component_is_refused() -> None:
    """Waiting forever while collecting a reward has no finite total: refused with the end
    component named, even with infinite_play; a reward on the way out is fine (by hand:
    "leave" pays 1 then a draw, 3/2; the lobby is worth max(c, 3/2))."""
    class Lobby:
        initial = "lobby"

        def __init__(self, wait_reward: int) -> None:
            self.wait_reward = wait_reward

        def actions(self, s: str) -> tuple[str, ...]:
            return ("wait", "leave")

        def reward(self, s: str, a: str) -> int:
            return self.wait_reward if a == "wait" else 1

        def outcomes(self, s: str, a: str) -> list[tuple[int, str | tbsg.Terminal]]:
            return [(1, "lobby")] if a == "wait" else [(1, tbsg.DRAW)]

    with pytest.raises(tbsg.NonStoppingGameError, match=r"action 'wait' at state 'lobby' pays a "
                                                        r"reward of 2 inside the end component"):
        tbsg.solve(Lobby(2), infinite_play=0)
    with pytest.raises(tbsg.NonStoppingGameError, match="not stopping"):
        tbsg.solve(Lobby(0))
    assert tbsg.solve(Lobby(0), infinite_play=0).value() == Fraction(3, 2)
    sol = tbsg.solve(Lobby(0), infinite_play=5)
    assert sol.value() == 5 and sol.action() == "wait"
    tbsg.verify(Lobby(0), sol)
    with pytest.raises(tbsg.TamperedSolutionError, match="not the game's"):
        tbsg.verify(Lobby(2), sol)  # the game's rewards changed
