"""The array form of a game (tbsg.model.arrays, tbsg.engine.compile.arrays): the same compiled
game as the plain protocol, number for number, and the plain compiler's errors."""

from __future__ import annotations

import dataclasses
import os
import re
import tempfile
from collections.abc import Sequence
from fractions import Fraction
from typing import Any
from unittest import mock

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tbsg
from strategies import ArrayTableGame, SkewedArrayGame, array_games, skewed
from tbsg import ArrayAction, ArrayOutcome, ArrayTransitions
from tbsg.engine import compile as compile_module
from tbsg.engine.compile import arrays as compile_arrays
from tbsg.engine.compile import compile_game
from tbsg.engine.compiled import CompiledGame
from tbsg.games import biased_pig, biased_risk_or_safety, pig, piglet, risk_or_safety
from tbsg.games.pig import Pig, PigAction, PigState

ARRAYS = ("player", "act_ptr", "act_state", "out_ptr", "out_target", "act_code", "stop_code", "out_code")


def assert_same(plain: CompiledGame[Any, Any], arrays: CompiledGame[Any, Any]) -> None:
    """Two compiled games are identical: states (and their types), every array (and its
    dtype), the labels and the rationals behind the codes."""
    assert arrays.states == plain.states
    assert [type(s) for s in arrays.states] == [type(s) for s in plain.states]
    assert arrays.index == plain.index
    for name in ARRAYS:
        a, b = getattr(plain, name), getattr(arrays, name)
        assert a.dtype == b.dtype, name
        assert np.array_equal(a, b), name
    assert arrays.act_labels == plain.act_labels
    assert arrays.rationals == plain.rationals


@pytest.mark.parametrize("game", [pig(1), pig(2), pig(7), pig(15, 4), pig(12, 3), piglet(1),
                                  piglet(2), piglet(9), risk_or_safety(1), risk_or_safety(8)],
                         ids=repr)
def test_catalog_array_compile_is_the_plain_compile(game: Any) -> None:
    assert compile_arrays.offers_arrays(game)
    assert_same(compile_game(game, arrays=False), compile_game(game))


@dataclasses.dataclass(frozen=True)
class PlainOnly:
    """A game's plain protocol alone."""

    game: Any

    @property
    def initial(self) -> Any:
        return self.game.initial

    def player(self, s: Any) -> int:
        return self.game.player(s)  # type: ignore[no-any-return]

    def actions(self, s: Any) -> Any:
        return self.game.actions(s)

    def outcomes(self, s: Any, a: Any) -> Any:
        return self.game.outcomes(s, a)


@pytest.mark.parametrize("game", [pig(6), piglet(4), risk_or_safety(4)], ids=repr)
def test_solutions_are_equal(game: Any) -> None:
    plain = tbsg.solve(PlainOnly(game))
    arrays = tbsg.solve(game)
    assert arrays.value() == plain.value()
    assert all(arrays.value(s) == plain.value(s) for s in plain.states)


def test_batches_and_the_sparse_index_give_the_same_game() -> None:
    # batches of 5 states, and the sorted-runs index instead of the dense table
    game = pig(10)
    plain = compile_game(game, arrays=False)
    with mock.patch.object(compile_arrays, "CHUNK", 5):
        assert_same(plain, compile_game(game))
    with mock.patch.object(compile_arrays, "DENSE_LIMIT", 0):
        assert_same(plain, compile_game(game))


@settings(max_examples=150, deadline=None)
@given(array_games())
def test_random_games_compile_the_same_both_ways(game: ArrayTableGame) -> None:
    plain = compile_game(game, arrays=False)
    assert_same(plain, compile_game(game, arrays=True))
    with mock.patch.object(compile_arrays, "CHUNK", 2), mock.patch.object(compile_arrays, "DENSE_LIMIT", 0):
        assert_same(plain, compile_game(game))


@settings(max_examples=60, deadline=None)
@given(array_games(), st.data())
def test_an_array_form_wrong_at_one_state_is_never_certified(game: ArrayTableGame,
                                                            data: st.DataObject) -> None:
    # with no sample (as if the state were not sampled) the solution is made through the
    # array form; verify and load compare every state and name the one that differs
    bad: SkewedArrayGame = data.draw(skewed(game, compile_game(game, arrays=False).states))
    named = re.escape(f"the array form and the plain protocol disagree at state {bad.wrong}: ")
    with mock.patch.object(compile_arrays, "SAMPLE", 0):
        sol = tbsg.solve(bad, infinite_play=Fraction(1, 3))
        with pytest.raises(tbsg.InvalidGameError, match=named):
            tbsg.verify(bad, sol)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "bad.json")
            tbsg.save(sol, path)
            with pytest.raises(tbsg.InvalidGameError, match=named):
                tbsg.load(path, game=bad)
    with pytest.raises(tbsg.InvalidGameError, match=named):
        compile_game(bad, check_arrays="all")
    # the sample covers every state of these small games: solving finds the state too
    with pytest.raises(tbsg.InvalidGameError, match=named):
        tbsg.solve(bad, infinite_play=Fraction(1, 3))


@settings(max_examples=40, deadline=None)
@given(array_games())
def test_a_right_array_form_passes_the_check_of_every_state(game: ArrayTableGame) -> None:
    plain = compile_game(game, arrays=False)
    assert_same(plain, compile_game(game, check_arrays="all"))
    sol = tbsg.solve(game, infinite_play=Fraction(1, 3))
    tbsg.verify(game, sol)


def test_biased_games_and_changed_rules_have_no_array_form() -> None:
    # BiasedPig's and BiasedRiskOrSafety's probabilities may be sympy expressions
    assert not compile_arrays.offers_arrays(biased_pig(5, 6, Fraction(1, 3)))
    assert not compile_arrays.offers_arrays(biased_risk_or_safety(5, Fraction(1, 3)))

    class Greedy(Pig):  # changes the rules, not the array form: loses the array form
        def actions(self, s: PigState) -> Sequence[PigAction]:
            return ("roll",) if s.turn_total < 2 else ("hold",)

    assert not compile_arrays.offers_arrays(Greedy(6))

    class Late(Pig):  # another start, the same rules: keeps the array form
        @property
        def initial(self) -> PigState:
            return PigState(1, 3, 4, 0)

    assert compile_arrays.offers_arrays(Late(8))
    assert_same(compile_game(Late(8), arrays=False), compile_game(Late(8)))
    assert compile_game(Greedy(6)).n_states == compile_game(Greedy(6), arrays=False).n_states
    with pytest.raises(tbsg.InvalidArgumentError, match="does not offer the array form"):
        compile_game(Greedy(6), arrays=True)


def test_shapes_beyond_int64_keys_use_the_plain_protocol() -> None:
    # 2 * goal**3 cells must fit int64 keys; beyond, the catalog games drop the array form
    assert pig(1_600_000).array_shape is not None
    assert pig(1_700_000).array_shape is None
    assert risk_or_safety(1_700_000).array_shape is None
    with pytest.raises(tbsg.InvalidGameError, match=r"fewer than 2\*\*63"):
        compile_game(dataclasses.replace(Walk(), array_shape=(2**32, 2**32)))


def test_progress_is_reported() -> None:
    seen: list[tuple[int, int]] = []
    with mock.patch.object(compile_module, "REPORT_EVERY", 1000):
        g = compile_game(pig(30), progress=lambda k, m: seen.append((k, m)), arrays=True,
                         max_states=10**6)
    assert len(seen) >= 5 and all(m == 10**6 for _, m in seen)
    assert [k for k, _ in seen] == sorted(k for k, _ in seen) and seen[-1][0] <= g.n_states


# --- errors ---------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Walk:
    """States ``(i,)``, ``0 <= i < 4``: the mover tosses; heads moves on (and wins from 3),
    tails goes back to 0. ``change`` edits the array form for the error tests."""

    change: Any = None
    array_shape: tuple[int, ...] = (4,)
    initial: tuple[int, ...] = (0,)

    def player(self, s: tuple[int, ...]) -> int:
        return s[0] % 2

    def actions(self, s: tuple[int, ...]) -> tuple[str, ...]:
        return ("toss",)

    def outcomes(self, s: tuple[int, ...], a: str) -> list[tuple[Fraction, Any]]:
        half = Fraction(1, 2)
        return [(half, tbsg.win(s[0] % 2) if s[0] == 3 else (s[0] + 1,)), (half, (0,))]

    def array_transitions(self, states: npt.NDArray[np.int64]) -> ArrayTransitions:
        i = states[:, 0]
        heads = ArrayOutcome(Fraction(1, 2), states + 1, terminal=np.where(i == 3, i % 2, -1))
        tails = ArrayOutcome(Fraction(1, 2), np.zeros_like(states))
        tr = ArrayTransitions(i % 2, (ArrayAction("toss", (heads, tails)),), (tbsg.win(0), tbsg.win(1)))
        return tr if self.change is None else self.change(tr, states)


def _outcome(tr: ArrayTransitions, k: int, **kw: Any) -> ArrayTransitions:
    """``tr`` with outcome ``k`` of its action changed."""
    act = tr.actions[0]
    outs = list(act.outcomes)
    outs[k] = dataclasses.replace(outs[k], **kw)
    return dataclasses.replace(tr, actions=(dataclasses.replace(act, outcomes=tuple(outs)),))


def test_walk_compiles_like_the_plain_protocol() -> None:
    assert_same(compile_game(Walk(), arrays=False), compile_game(Walk()))
    assert tbsg.solve(Walk()).value() == tbsg.solve(Walk(), max_states=10).value()


@pytest.mark.parametrize("probability", [0.5, (np.array([0.5]), 1)], ids=["float", "float array"])
def test_float_probability_is_an_exactness_error(probability: Any) -> None:
    def change(tr: ArrayTransitions, states: Any) -> ArrayTransitions:
        p = probability if isinstance(probability, float) else (np.full(len(states), 0.5), 1)
        return _outcome(tr, 0, probability=p)

    with pytest.raises(tbsg.ExactnessError, match="float"):
        compile_game(Walk(change))


def test_probabilities_must_sum_to_one() -> None:
    game = Walk(lambda tr, s: _outcome(tr, 1, probability=(np.where(s[:, 0] == 2, 1, 2), 4)))
    with pytest.raises(tbsg.InvalidGameError,
                       match=r"probabilities sum to 3/4, not 1, at state \(2,\), action 'toss'"):
        compile_game(game)


def test_negative_probability() -> None:
    game = Walk(lambda tr, s: _outcome(tr, 1, probability=(np.full(len(s), -1), 2)))
    with pytest.raises(tbsg.InvalidGameError, match=r"negative probability -1/2 .* at state \(0,\)"):
        compile_game(game)


def test_successor_outside_the_shape() -> None:
    game = Walk(lambda tr, s: _outcome(tr, 0, terminal=None))  # heads from 3 goes to (4,)
    with pytest.raises(tbsg.InvalidGameError,
                       match=r"successor \(4,\) of outcome 0 of action 'toss' at state \(3,\) lies "
                             r"outside array_shape \(4,\)"):
        compile_game(game)


def test_bad_player() -> None:
    game = Walk(lambda tr, s: dataclasses.replace(tr, player=np.where(s[:, 0] == 1, 2, 0)))
    with pytest.raises(tbsg.InvalidGameError, match=r"player 2 at state \(1,\); expected 0 or 1"):
        compile_game(game)


def test_wrong_array_shape() -> None:
    game = Walk(lambda tr, s: _outcome(tr, 1, successor=np.zeros((len(s), 2), dtype=np.int64)))
    with pytest.raises(tbsg.InvalidGameError, match=r"ArrayOutcome.successor .* has shape \(1, 2\), "
                                                    r"expected \(1, 1\)"):
        compile_game(game)


def test_no_allowed_action() -> None:
    game = Walk(lambda tr, s: dataclasses.replace(
        tr, actions=(dataclasses.replace(tr.actions[0], allowed=s[:, 0] != 2),)))
    with pytest.raises(tbsg.InvalidGameError, match=r"allows no actions at state \(2,\)"):
        compile_game(game)


def test_array_form_disagreeing_with_the_plain_protocol() -> None:
    # tails from 2 goes to 1 in the array form, to 0 in outcomes()
    game = Walk(lambda tr, s: _outcome(tr, 1, successor=np.where(s == 2, 1, 0)))
    with pytest.raises(tbsg.InvalidGameError,
                       match=r"the array form and the plain protocol disagree at state \(2,\): "
                             r"action 'toss': outcomes\(\) leads to .*\(0,\).*array_transitions to"):
        compile_game(game)
    assert compile_game(game, arrays=False).n_states == 4


def test_state_limit() -> None:
    with pytest.raises(tbsg.StateLimitError, match=r"more than max_states=100 reachable states .*"
                                                   r"max_states=N .*--max-states N"):
        compile_game(pig(20), max_states=100)
    with pytest.raises(tbsg.StateLimitError, match="actions or"):
        compile_game(pig(20), max_actions=10)


def test_initial_state_must_be_a_tuple_of_ints_in_the_shape() -> None:
    with pytest.raises(tbsg.InvalidGameError, match=r"tuples .* of 1 ints"):
        compile_game(dataclasses.replace(Walk(), initial=(np.int64(0),)))  # type: ignore[arg-type]  # a numpy int, on purpose
    with pytest.raises(tbsg.InvalidGameError, match="outside array_shape"):
        compile_game(dataclasses.replace(Walk(), initial=(7,)))


def test_the_check_of_every_state_names_the_state_leading_outside_the_shape() -> None:
    # outcomes() sends heads at 3 to (4,), outside the shape; the array form wins there
    @dataclasses.dataclass(frozen=True)
    class Beyond(Walk):
        def outcomes(self, s: tuple[int, ...], a: str) -> list[tuple[Fraction, Any]]:
            if s[0] == 4:
                return [(Fraction(1), tbsg.win(0))]
            half = Fraction(1, 2)
            return [(half, (s[0] + 1,)), (half, (0,))]

        def array_transitions(self, states: npt.NDArray[np.int64]) -> ArrayTransitions:
            return super().array_transitions(states)

    assert compile_game(Beyond(), arrays=False).n_states == 5
    with pytest.raises(tbsg.InvalidGameError,
                       match=r"disagree at state \(3,\): action 'toss': outcomes\(\) leads to "
                             r"\[\(\(4,\), Fraction\(1, 2\)\), \(\(0,\), Fraction\(1, 2\)\)\], "
                             r"array_transitions to \[\(\(0,\), Fraction\(1, 2\)\)\]"):
        compile_game(Beyond(), check_arrays="all")


def test_check_arrays_is_sample_or_all() -> None:
    with pytest.raises(tbsg.InvalidArgumentError, match=r'check_arrays must be "sample" or "all", got '
                                                        r"'every'"):
        compile_game(Walk(), check_arrays="every")  # type: ignore[arg-type]
    assert_same(compile_game(Walk(), arrays=False), compile_game(Walk(), check_arrays="all"))


_HALF = Fraction(1, 2)


class SteadyWalk(Walk):
    """:class:`Walk` whose every batch has one form (the same action, terminals and
    probability objects), so that its breadth-first waves (one state each) are checked
    and recorded together."""

    terminals = (tbsg.win(0), tbsg.win(1))

    def array_transitions(self, states: npt.NDArray[np.int64]) -> ArrayTransitions:
        i = states[:, 0]
        heads = ArrayOutcome((np.ones_like(i), 2), states + 1, terminal=np.where(i == 3, i % 2, -1))
        tails = ArrayOutcome(_HALF, np.zeros_like(states))
        tr = ArrayTransitions(i % 2, (ArrayAction("toss", (heads, tails)),), self.terminals)
        return tr if self.change is None else self.change(tr, states)


def test_waves_of_one_form_are_recorded_together_as_the_plain_protocol_numbers_them() -> None:
    with mock.patch.object(compile_arrays, "_record", wraps=compile_arrays._record) as record:
        g = compile_game(SteadyWalk())
    assert record.call_count == 1  # four waves of one state, one batch
    assert_same(compile_game(SteadyWalk(), arrays=False), g)


def test_an_error_in_a_held_wave_is_reported_as_in_its_own_wave() -> None:
    """The third wave (state (2,)) sums to 3/4: the message names it, and the batch the
    error context names is that wave alone."""
    game = SteadyWalk(lambda tr, s: _outcome(tr, 0, probability=(np.where(s[:, 0] == 2, 1, 2), 4)))
    with pytest.raises(tbsg.InvalidGameError,
                       match=r"probabilities sum to 3/4, not 1, at state \(2,\), action 'toss'"):
        compile_game(game)
    bad_shape = SteadyWalk(lambda tr, s: _outcome(tr, 1, successor=np.zeros((len(s), 2), dtype=np.int64))
                           if s[0, 0] == 2 else tr)
    with pytest.raises(tbsg.InvalidGameError, match=r"on 1 states from \(2,\)"):
        compile_game(bad_shape)


def test_an_array_form_that_rewrites_arrays_it_returned_is_refused() -> None:
    """The successors of a held wave are read when it is asked; an array form that writes
    into the arrays it returned earlier would make them lead elsewhere."""
    buffer = np.zeros((1, 1), dtype=np.int64)

    def reuse(tr: ArrayTransitions, states: Any) -> ArrayTransitions:
        buffer[:] = np.minimum(states + 1, 3)  # heads' successors, one buffer for every call
        return _outcome(tr, 0, successor=buffer)

    with pytest.raises(tbsg.InvalidGameError, match=r"changed arrays it had returned .*lead elsewhere"):
        compile_game(SteadyWalk(reuse))


# -- boxes: many cells asked at once (array_speculation) ---------------------------------------

class Guessing(Walk):
    """:class:`Walk` that lets the compiler ask every cell of its shape at once."""

    array_speculation = True


def _bank(k: int) -> Any:
    return tbsg.ArrayStrategy(lambda s: "stop" if s.open >= k else "toss",
                              lambda rows: rows[:, 1] >= k, ("toss", "stop"))


@pytest.mark.parametrize("n", [1, 2, 5, 12])
def test_boxes_number_the_states_as_the_plain_protocol_numbers_them(n: int) -> None:
    """A thin chain is numbered from boxes (no waves); best responses, the game itself
    and other chains wherever their states fill the boxes thinly, by the waves. Either way the compiled
    game is the plain protocol's."""
    from tbsg.model.fixed import FixedStrategyGame

    chains: list[Any] = [Guessing(), FixedStrategyGame(risk_or_safety(n), _bank(1), (0, 1))]
    others: list[Any] = [risk_or_safety(n), FixedStrategyGame(risk_or_safety(n), _bank(2), (0, 1)),
                         *(FixedStrategyGame(risk_or_safety(n), _bank(k), fixed)
                           for k in (1, 2) for fixed in ((0,), (1,)))]
    for game in chains + others:
        with mock.patch.object(compile_arrays, "_wave", wraps=compile_arrays._wave) as wave:
            got = compile_game(game)
        if game in chains:
            wave.assert_not_called()  # no breadth-first waves: the numbering came from boxes
        assert_same(compile_game(game, arrays=False), got)


def test_in_a_large_shape_a_best_response_spreading_over_its_boxes_is_left_to_the_waves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A best response reaches a few states per cell of its boxes. In a shape of at most
    SPECULATE cells the boxes are grown anyway (they cost at most about the shape); in a
    larger one (here: SPECULATE lowered below the shape) they are given up for the waves,
    and the chain, which fills its boxes, keeps them."""
    from tbsg.model.fixed import FixedStrategyGame

    def waves(fixed: tuple[int, ...]) -> bool:
        game = FixedStrategyGame(risk_or_safety(30), _bank(1), fixed)
        with mock.patch.object(compile_arrays, "_wave", wraps=compile_arrays._wave) as wave:
            got = compile_game(game)
        assert_same(compile_game(game, arrays=False), got)
        return wave.called

    assert not waves((1,)) and not waves((0, 1))
    monkeypatch.setattr(compile_arrays, "SPECULATE", 8192)  # the shape has 54,000 cells
    assert waves((1,)) and not waves((0, 1))


def test_a_function_strategy_is_not_asked_about_every_cell() -> None:
    from tbsg.model.fixed import FixedStrategyGame

    assert not FixedStrategyGame(risk_or_safety(5), _bank(1).function, (0, 1)).array_speculation
    assert FixedStrategyGame(risk_or_safety(5), _bank(1), (0, 1)).array_speculation
    assert not FixedStrategyGame(Walk(), _bank(1), (0, 1)).array_speculation  # the game does not allow it
    assert getattr(risk_or_safety(5), "array_speculation", False) is False  # the game itself: waves


@dataclasses.dataclass(frozen=True)
class Picky(Guessing):
    """Cells 4 and 5 are no states, and its array form refuses them."""

    array_shape: tuple[int, ...] = (6,)

    def array_transitions(self, states: npt.NDArray[np.int64]) -> ArrayTransitions:
        if (states[:, 0] >= 4).any():
            raise ValueError("no such state")
        return super().array_transitions(states)


class Fickle(Guessing):
    """Its first answer about every cell sends tails to (1,), every later one to (0,), as
    the rules say: the numbering read from the box is not the one the states give."""

    def __init__(self) -> None:
        self.calls = 0

    def array_transitions(self, states: npt.NDArray[np.int64]) -> ArrayTransitions:
        self.calls += len(states) == 4
        tr = super().array_transitions(states)
        return tr if self.calls != 1 else _outcome(tr, 1, successor=np.ones_like(states))


@pytest.mark.parametrize("game", [Picky(), Fickle()], ids=["refuses cells", "answers differently"])
def test_where_one_call_fails_the_waves_enumerate(game: Any) -> None:
    with mock.patch.object(compile_arrays, "_wave", wraps=compile_arrays._wave) as wave:
        got = compile_game(game)
    assert wave.called
    assert_same(compile_game(game, arrays=False), got)


def _message(game: Any, **kw: Any) -> str:
    with pytest.raises(tbsg.TbsgError) as info:
        compile_game(game, **kw)
    return f"{type(info.value).__name__}: {info.value}"


def test_errors_of_a_small_shape_are_the_waves_errors() -> None:
    """A reached state that is wrong (its probabilities, a successor outside the shape) or
    too many states: the same error, in the same words, as without the one call."""
    changes = [
        lambda tr, s: _outcome(tr, 0, probability=(np.where(s[:, 0] == 2, 1, 2), 4)),
        lambda tr, s: _outcome(tr, 1, successor=np.where(s == 2, 7, 0)),
        lambda tr, s: _outcome(tr, 1, successor=None),
    ]
    for change in changes:
        words = _message(Walk(change))
        assert _message(Guessing(change)) == words
    assert _message(Guessing(), max_states=2) == _message(Walk(), max_states=2)


def test_an_order_that_is_not_the_plain_numbering_is_refused_and_the_levels_number() -> None:
    """The breadth-first order of the boxes is used as the numbering only once checked;
    any other order of the same cells is refused, and the levels then number them."""
    from tbsg.model.fixed import FixedStrategyGame

    # cells 0 -> (2, 1), 1 -> (3,), 2 -> (3, 1): the plain order is 0, 2, 1, 3
    grid = np.array([[2, 1], [3, -1], [3, 1], [-1, -1]], dtype=np.int64)
    plain = compile_arrays._plain_order(grid, 0, np.array([0, 2, 1, 3]))
    assert plain is not None and plain.tolist() == [0, 2, 1, 3]
    for wrong in ([0, 1, 2, 3], [0, 2, 3, 1]):
        assert compile_arrays._plain_order(grid, 0, np.array(wrong)) is None
    game = FixedStrategyGame(risk_or_safety(9), _bank(1), (0, 1))
    with mock.patch.object(compile_arrays, "_plain_order", return_value=None), \
            mock.patch.object(compile_arrays, "_wave", wraps=compile_arrays._wave) as wave:
        got = compile_game(game)
    wave.assert_not_called()
    assert_same(compile_game(game, arrays=False), got)
