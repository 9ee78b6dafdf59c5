"""The certificate and trust under adversarial use.

* :func:`tbsg.verify` runs only the definitions it shares with the solvers (traced), and
  reports each condition at the state where it fails;
* exactness is a static type, and Ctrl-C interrupts cleanly.

(Validation of bad games is in ``tests/properties/test_bad_input.py``; the fuzz
properties, tampered solutions included, in ``tests/properties/test_properties.py``.)
"""

from __future__ import annotations

import dataclasses
import os
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tbsg
from tbsg.engine import _backend as bk
from tbsg.errors import show
from tbsg.games import risk_or_safety

SRC = Path(tbsg.__file__).resolve().parent.parent

GAME_TEMPLATE = '''
from fractions import Fraction
import tbsg

class Coin:
    initial = "flip"

    def player(self, s: str) -> int:
        return 0

    def actions(self, s: str) -> tuple[str, ...]:
        return ("go",)

    def outcomes(self, s: str, a: str) -> list[tuple[{prob}, tbsg.Terminal]]:
        return [({half}, tbsg.win(0)), ({half}, tbsg.win(1))]

value = tbsg.solve(Coin()).value()
exact: Fraction = value
'''


def _mypy(tmp_path: Path, prob: str, half: str) -> tuple[int, str]:
    api = pytest.importorskip("mypy.api")
    file = tmp_path / "user_game.py"
    file.write_text(GAME_TEMPLATE.format(prob=prob, half=half))
    old = os.environ.get("MYPYPATH")
    os.environ["MYPYPATH"] = str(SRC)
    try:
        out, err, status = api.run(["--strict", "--no-error-summary", "--cache-dir",
                                    str(tmp_path / ".mypy_cache"), str(file)])
    finally:
        if old is None:
            del os.environ["MYPYPATH"]
        else:
            os.environ["MYPYPATH"] = old
    return status, out + err


def test_float_probability_is_a_static_type_error(tmp_path: Path) -> None:
    # a float probability must be rejected by mypy, not only at run time
    status, out = _mypy(tmp_path, "float", "0.5")
    assert status == 1, out
    assert 'No overload variant of "solve" matches argument type "Coin"' in out
    status, out = _mypy(tmp_path, "Fraction", "Fraction(1, 2)")
    assert status == 0, out


def test_float_probability_is_a_runtime_type_error() -> None:
    @dataclass(frozen=True)
    class Coin:
        initial: str = "flip"

        def player(self, s: str) -> int:
            return 0

        def actions(self, s: str) -> tuple[str, ...]:
            return ("go",)

        def outcomes(self, s: str, a: str) -> list[tuple[float, tbsg.Terminal]]:
            return [(0.5, tbsg.win(0)), (0.5, tbsg.win(1))]

    with pytest.raises(TypeError, match=r"Fraction\(1, 2\)"):
        tbsg.solve(Coin())  # type: ignore[call-overload]


@dataclass
class Interrupting:
    """Risk or Safety to 6 whose ``outcomes`` presses Ctrl-C after ``after`` calls."""

    after: int
    calls: int = 0

    def __post_init__(self) -> None:
        self.inner = risk_or_safety(6)
        self.initial = self.inner.initial

    def player(self, s: object) -> int:
        return self.inner.player(s)  # type: ignore[arg-type]

    def actions(self, s: object) -> object:
        return self.inner.actions(s)  # type: ignore[arg-type]

    def outcomes(self, s: object, a: object) -> object:
        self.calls += 1
        if self.calls > self.after:
            raise KeyboardInterrupt
        return self.inner.outcomes(s, a)  # type: ignore[arg-type]


def test_ctrl_c_during_enumeration_propagates_unwrapped() -> None:
    # Ctrl-C is not a game error: it must reach the user as KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        tbsg.solve(Interrupting(after=50))  # type: ignore[call-overload]
    # nothing is left half-done: the next solve works and is exact
    # seed 000 (Jehn 2026), section 3.3: n = 6 gives 275848876/521145625
    assert tbsg.solve(risk_or_safety(6)).value() == Fraction(275848876, 521145625)


def test_ctrl_c_during_the_solve_propagates(monkeypatch: pytest.MonkeyPatch) -> None:
    import tbsg.api.solving

    def interrupting(progress: bool | None, label: str, **options: object) -> tuple[object, object]:
        def press(done: int, total: int) -> None:
            if done > total // 2:
                raise KeyboardInterrupt
        return press, lambda: None

    monkeypatch.setattr(tbsg.api.solving, "make_progress", interrupting)
    for exact in (True, False):
        with pytest.raises(KeyboardInterrupt):
            tbsg.solve(risk_or_safety(8), exact=exact)
    monkeypatch.undo()
    assert tbsg.solve(risk_or_safety(3)).value() == Fraction(6, 11)


# --- what the certificate runs: no solver, no float, no backend rationals ---------------------

ENGINE_ALLOWED = {
    # the compiled graph, compiled afresh from the plain protocol
    "engine/compile/", "engine/compiled.py",
    # the graph analysis: components, end components
    "engine/graph.py",
    # the optimality conditions and the optimal-action mask
    "engine/optimality.py",
    # Q and its signs in exact integer arithmetic (the Bellman kernel's exact action values)
    "engine/integer_q.py",
}
ENGINE_FUNCTIONS_ALLOWED = {
    # reading the solution's stored values (which may be the backend's) into Fractions
    ("engine/_backend.py", "to_fraction"), ("engine/_backend.py", "is_canonical"),
    ("engine/_backend.py", "_coprime_fraction"),
    # a solution that stores every value hands them over as they are; one that stores its
    # boundary values only recomputes the others first (tests/engine/test_boundary.py)
    ("engine/boundary.py", "as_list"),
}


def _engine_calls(run: object) -> set[tuple[str, str]]:
    """The (module path, function) pairs of tbsg's engine that ``run()`` calls."""
    import sys

    calls: set[tuple[str, str]] = set()

    def profile(frame: Any, event: str, arg: object) -> None:
        path = frame.f_code.co_filename.replace(os.sep, "/")
        if event == "call" and "/tbsg/engine/" in path:
            calls.add(("engine/" + path.split("/tbsg/engine/")[1], frame.f_code.co_name))

    sys.setprofile(profile)
    try:
        run()  # type: ignore[operator]
    finally:
        sys.setprofile(None)
    return calls


def _outside_the_shared_definitions(calls: set[tuple[str, str]]) -> set[tuple[str, str]]:
    return {(path, name) for path, name in calls
            if not path.startswith(tuple(ENGINE_ALLOWED)) and (path, name) not in ENGINE_FUNCTIONS_ALLOWED}


class Lobby:
    """Player 0 may wait for ever or leave for a draw (non-stopping)."""

    initial = "lobby"

    def player(self, s: str) -> int:
        return 0

    def actions(self, s: str) -> tuple[str, ...]:
        return ("wait", "leave")

    def outcomes(self, s: str, a: str) -> list[tuple[Fraction, str | tbsg.Terminal]]:
        return [(Fraction(1), "lobby")] if a == "wait" else [(Fraction(1), tbsg.DRAW)]


@pytest.mark.parametrize("case", ["solve", "best_response", "evaluate", "infinite_play"])
def test_verify_calls_only_the_shared_definitions(case: str) -> None:
    # the certificate's docstring: it shares the compiled graph, the graph analysis, the
    # exact action values and the optimality module, and runs no solver and no float filter
    game: Any = risk_or_safety(4)
    if case == "solve":
        sol = tbsg.solve(game)
    elif case == "best_response":
        sol = tbsg.best_response(game, 1, lambda s: "toss")
    elif case == "evaluate":
        sol = tbsg.evaluate(game, lambda s: "toss", reach="game")
    else:
        game = Lobby()
        sol = tbsg.solve(game, infinite_play=1)
    calls = _engine_calls(lambda: tbsg.verify(game, sol))
    assert ("engine/optimality.py", "optimal_mask") in calls  # (the tracing sees the engine)
    assert _outside_the_shared_definitions(calls) == set()


def test_the_solver_calls_more_than_the_certificate() -> None:
    # the tracing above can fail: a solve runs the exact solver and the float filter
    calls = _engine_calls(lambda: tbsg.solve(risk_or_safety(4)))
    outside = {path for path, _ in _outside_the_shared_definitions(calls)}
    assert {"engine/exact.py", "engine/bellman.py"} <= outside


# --- the conditions, as verify reports them ------------------------------------------------------

def _tampered(sol: tbsg.Solution[Any, Any], values: list[Fraction]) -> tbsg.Solution[Any, Any]:
    return dataclasses.replace(sol, values_exact=values)


def test_each_condition_names_the_state() -> None:
    from tbsg.games import risk_or_safety as ros

    game = ros(2)
    sol = tbsg.solve(game)
    values = list(sol.values_exact)
    # (a): the initial state's value raised, its action still yields the old value
    raised = [*values]
    raised[0] = values[0] + Fraction(1, 10**6)
    with pytest.raises(tbsg.TamperedSolutionError, match=r"^\(a\) fails at state .*yields"):
        tbsg.verify(game, _tampered(sol, raised))
    # outside [0, 1]: refused before the conditions
    high = [*values]
    high[-1] = Fraction(3, 2)
    with pytest.raises(tbsg.TamperedSolutionError, match=r"outside \[0, 1\]"):
        tbsg.verify(game, _tampered(sol, high))


def test_a_negative_value_of_a_win_probability_game_is_named() -> None:
    # below 0 as above 1 (the range check reads every value's parts at C speed, then names
    # the first value out of range): the state of the first such value, not another one
    from tbsg.games import risk_or_safety as ros

    game = ros(2)
    sol = tbsg.solve(game)
    values = list(sol.values_exact)
    low = [*values]
    low[1], low[2] = Fraction(-1, 7), Fraction(-2, 7)
    with pytest.raises(tbsg.TamperedSolutionError, match=r"value at state .* is -1/7, outside \[0, 1\]"):
        tbsg.verify(game, _tampered(sol, low))


@pytest.mark.parametrize("game", [tbsg.games.pig(12), tbsg.games.pig_solitaire(12)],
                         ids=["pig", "pig-solitaire"])
def test_a_value_moved_by_the_least_amount_is_rejected(game: tbsg.Game[Any, Any]) -> None:
    """A value moved to its nearest neighbour among fractions of a far larger denominator
    (``(n m +- 1) / (d m)``, ``m = 2**300``) breaks (a) at its state: the signs are exact,
    whatever fixed-point filter decides the clear ones. Pig solitaire pays rewards (its
    values are expected numbers of turns), Pig is a win-probability game."""
    sol = tbsg.solve(game)
    values = list(sol.values_exact)
    m = 2**300
    for i in (0, len(values) // 2, len(values) - 1):
        for d in (1, -1):
            moved = [*values]
            moved[i] = Fraction(values[i].numerator * m + d, values[i].denominator * m)
            with pytest.raises(tbsg.TamperedSolutionError, match=r"^\([ab]\) fails at state"):
                tbsg.verify(game, _tampered(sol, moved))
    assert tbsg.verify(game, sol).states == len(values)


def test_a_non_stopping_claim_without_a_rule_fails_c() -> None:
    # waiting for ever (worth 1) passes (a) and (b); without the rule, (c) fails
    sol = dataclasses.replace(tbsg.solve(Lobby(), infinite_play=1), infinite_play=None)
    with pytest.raises(tbsg.NonStoppingGameError, match=r"^\(c\) fails"):
        tbsg.verify(Lobby(), sol)


def test_check_certificate_returns_the_mask_it_implies() -> None:
    from tbsg.certify.certificate import check_certificate
    from tbsg.engine.compile import compile_game

    g = compile_game(Lobby())
    # worth 1 for ever: wait (1); leaving yields 1/2 < 1
    wait = np.array([0], dtype=np.int64)
    assert check_certificate(g, [Fraction(1)], wait, (0,), Fraction(1)).tolist() == [True, False]
    # worth 1/2: both optimal (waiting for ever earns the value)
    leave = np.array([1], dtype=np.int64)
    assert check_certificate(g, [Fraction(1, 2)], leave, (0,), Fraction(1, 2)).tolist() == [True, True]
    # worth 1, claiming 1/2 by leaving: waiting ties, but for ever earns 1 > 1/2: (c') fails
    with pytest.raises(tbsg.TamperedSolutionError, match=r"^\(c'\) fails at state 'lobby'"):
        check_certificate(g, [Fraction(1, 2)], leave, (0,), Fraction(1))


# --- rewards (issue 24) ---------------------------------------------------------------------------

@dataclass(frozen=True)
class _Shift:
    """One state: "go" pays ``w`` and ends with payoff ``r``; "stay" ends with a draw.
    By hand the value is max(w + r, 1/2)."""

    w: int
    r: int
    initial: str = "s"

    def actions(self, s: str) -> tuple[str, ...]:
        return ("go", "stay")

    def reward(self, s: str, a: str) -> int:
        return self.w if a == "go" else 0

    def outcomes(self, s: str, a: str) -> list[tuple[int, tbsg.Terminal]]:
        return [(1, tbsg.Terminal(self.r) if a == "go" else tbsg.DRAW)]


def test_verify_rederives_rewards_from_the_game() -> None:
    sol = tbsg.solve(_Shift(1, 0))
    assert sol.value() == 1
    tbsg.verify(_Shift(1, 0), sol)
    with pytest.raises(tbsg.TamperedSolutionError, match="not the game's"):
        tbsg.verify(_Shift(2, 0), sol)  # a changed reward changes c_k
    # the same c_k (a point moved between the reward and the terminal): the rewards differ
    with pytest.raises(tbsg.TamperedSolutionError,
                       match=r"rewards are not the game's \(at state 's', action 'go' the game pays 2\)"):
        tbsg.verify(_Shift(2, -1), sol)


def test_verify_checks_win_probability_and_the_range_of_win_games() -> None:
    sol = tbsg.solve(_Shift(0, 1))
    assert sol.win_probability
    bent = dataclasses.replace(sol.graph, win_probability=False)
    with pytest.raises(tbsg.TamperedSolutionError, match="win_probability=False"):
        tbsg.verify(_Shift(0, 1), dataclasses.replace(sol, graph=bent))
    tbsg.verify(_Shift(2, 1), tbsg.solve(_Shift(2, 1)))  # value 3: no [0, 1] range to check


def test_check_certificate_refuses_a_reward_inside_an_end_component() -> None:
    """(c') needs no reward inside an end component: checked even on a hand-made claim."""
    from tbsg.certify.certificate import check_certificate
    from tbsg.engine.compile import compile_game

    class Loop:
        initial = "s"

        def actions(self, s: str) -> tuple[str, ...]:
            return ("loop", "out")

        def reward(self, s: str, a: str) -> int:
            return 1 if a == "loop" else 0

        def outcomes(self, s: str, a: str) -> list[tuple[int, str | tbsg.Terminal]]:
            return [(1, "s")] if a == "loop" else [(1, tbsg.DRAW)]

    g = compile_game(Loop())
    with pytest.raises(tbsg.NonStoppingGameError, match="pays a reward of 1 inside the end component"):
        check_certificate(g, [Fraction(1, 2)], np.array([1]), (0, 1), Fraction(0))


# --- values shared by many states (as a solver's are): read and checked once per object -----

def _shared(sol: tbsg.Solution[Any, Any], bad: object, at: list[int]) -> tbsg.Solution[Any, Any]:
    """``sol`` with the one object ``bad`` stored at the states ``at``, every other state
    keeping its own stored (shared) object."""
    raws: list[Any] = list(sol._raw_values)
    for i in at:
        raws[i] = bad
    return dataclasses.replace(sol, values_exact=raws)


def test_a_bad_value_object_shared_by_many_states_is_named_at_its_first_state() -> None:
    # Risk or Safety 20: 8,400 states share about 1,650 value objects, so the values are
    # read once per object; a bad object stored at several states is refused, naming the
    # first of them (whatever order they were stored in)
    game = risk_or_safety(20)
    sol = tbsg.solve(game)
    assert len({id(x) for x in sol._raw_values}) * 2 < len(sol._raw_values)  # shared indeed
    g = sol.graph
    at = [4000, 17, 2500]
    first = re.escape(show(g.states[17], 120))
    unreduced = object.__new__(Fraction)  # 2/4: a Fraction built without normalisation
    unreduced._numerator, unreduced._denominator = 2, 4  # type: ignore[attr-defined]
    with pytest.raises(tbsg.TamperedSolutionError, match=f"value at state {first} is 2/4, not in lowest"):
        tbsg.verify(game, _shared(sol, unreduced, at))
    negative = object.__new__(Fraction)  # 2/-3: coprime parts, but a negative denominator
    negative._numerator, negative._denominator = 2, -3  # type: ignore[attr-defined]
    with pytest.raises(tbsg.TamperedSolutionError, match=f"value at state {first} is 2/-3, not in lowest"):
        tbsg.verify(game, _shared(sol, negative, at))
    numpy_parts = Fraction(np.int64(1), np.int64(3))  # type: ignore[call-overload]  # on purpose
    with pytest.raises(tbsg.TamperedSolutionError, match=f"value at state {first} is a Fraction with parts"):
        tbsg.verify(game, _shared(sol, numpy_parts, at))
    with pytest.raises(tbsg.TamperedSolutionError, match=f"value at state {first} is 3/2, outside"):
        tbsg.verify(game, _shared(sol, bk.from_fraction(Fraction(3, 2)), at))
    # a shared object moved by the least amount: (a) or (b) fails where it is stored
    x = sol.value(g.states[17])
    moved = bk.from_fraction(Fraction(x.numerator * 2**300 + 1, x.denominator * 2**300))
    with pytest.raises(tbsg.TamperedSolutionError, match=r"^\([ab]\) fails at state"):
        tbsg.verify(game, _shared(sol, moved, at))
    assert tbsg.verify(game, sol).states == g.n_states


def test_the_values_read_keep_the_solution_s_sharing() -> None:
    from tbsg.certify.certificate import _read

    sol = tbsg.solve(risk_or_safety(20))
    v = _read(sol.graph, sol)
    raws = sol._raw_values
    assert list(v) == list(sol.values_exact) and all(type(x) is Fraction for x in v)
    assert v[-1] == sol.values_exact[-1] and v[2:5] == list(sol.values_exact[2:5])
    # one entry of parts per stored object, each state pointing at its own object's
    inverse = v.inverse
    assert inverse is not None and len(v.numerators) == len({id(x) for x in raws}) < len(raws)
    first = {u: i for i, u in reversed(list(enumerate(inverse.tolist())))}  # an object's first state
    assert all(raws[first[u]] is raws[i] for i, u in enumerate(inverse.tolist()))
    assert [(x.numerator, x.denominator) for x in (sol.values_exact[first[u]] for u in range(len(first)))] \
        == list(zip(v.numerators, v.denominators, strict=True))


@pytest.mark.parametrize("field", ["n_components", "largest_component"])
def test_a_wrong_component_count_is_refused(field: str) -> None:
    # Risk or Safety 6 has many components (each score pair leads away); one more or one
    # fewer, or a largest one of another size, is refused
    game = risk_or_safety(6)
    sol = tbsg.solve(game)
    for delta in (1, -1):
        wrong = dataclasses.replace(sol, **{field: getattr(sol, field) + delta})
        with pytest.raises(tbsg.TamperedSolutionError, match=r"solution reports \d+ components \(largest"):
            tbsg.verify(game, wrong)
    assert tbsg.verify(game, sol).states == sol.n_states


@dataclass(frozen=True)
class TwoDoors:
    """One state of player 0 (maximiser): "big" pays 2, "small" pays 1 (value 2, by hand)."""

    initial: str = "start"

    def player(self, s: str) -> int:
        return 0

    def actions(self, s: str) -> tuple[str, ...]:
        return ("big", "small")

    def outcomes(self, s: str, a: str) -> list[tuple[int, tbsg.Terminal]]:
        return [(1, tbsg.Terminal(2 if a == "big" else 1))]


@pytest.mark.skipif(bk.BACKEND != "gmpy2", reason="GMP values only with the gmpy2 backend")
@pytest.mark.parametrize(("parts", "shown"), [((-1, -1), "-1/-1"), ((2, -1), "2/-1"), ((-3, -2), "-3/-2")])
def test_gmp_values_with_a_negative_denominator_are_refused(parts: tuple[int, int], shown: str) -> None:
    """An ``mpq`` made from a Fraction built without normalisation keeps its parts: -1/-1
    claims the value 1 of the worse door ("small"), and with a negative denominator the
    signs over a common denominator flip, so "big" (2, strictly better) looked worse. Each
    is refused, naming the state and the parts."""
    import gmpy2

    game = TwoDoors()
    sol = tbsg.solve(game)
    f = object.__new__(Fraction)
    f._numerator, f._denominator = parts  # type: ignore[attr-defined]
    g = sol.graph
    small = g.act_labels.index("small")
    bad = dataclasses.replace(sol, values_exact=[gmpy2.mpq(f)],
                              choice=np.array([small], dtype=sol.choice.dtype),
                              optimal=np.array([label == "small" for label in g.act_labels]))
    with pytest.raises(tbsg.TamperedSolutionError, match=f"value at state 'start' is {shown}, not in lowest"):
        tbsg.verify(game, bad)
    assert tbsg.verify(game, sol)  # the solver's own values pass
