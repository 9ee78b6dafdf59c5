"""The array form of a game: its row-by-row semantics on a small hand-built game, and the
structural checks that decide whether an array form belongs to the rules beside it.

The game, with states ``(k,)`` for ``k`` in ``{0, 1}``, player 0 moving everywhere:

* "roll" (every state): with 1/2 advance (from 0 to ``(1,)``, from 1 player 0 wins),
  with 1/2 player 1 wins;
* "hold" (only at ``(1,)``): player 0 wins with 1/2, else player 1 wins.

By hand: ``v(1) = max(roll: 1/2, hold: 1/2) = 1/2`` and ``v(0) = 1/2 v(1) = 1/4``.

Its array form is written to use the liberties the semantics allow: rows of a state
that does not offer an action hold garbage, an outcome with probability 0 has a
successor row that is out of range, probabilities come as ``(numerators, denominator)``,
and one outcome ends play on some rows and goes on elsewhere (``terminal == -1``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import tbsg
from tbsg import Terminal, win
from tbsg.engine.compile import compile_game
from tbsg.engine.compiled import CompiledGame
from tbsg.errors import InvalidArgumentError
from tbsg.model.arrays import ArrayAction, ArrayOutcome, ArrayTransitions, rules_kept, untrusted_reason

H = Fraction(1, 2)
I64 = npt.NDArray[np.int64]


class Counter:
    """The game of the module docstring, in both descriptions."""

    initial = (0,)
    array_shape = (2,)

    def player(self, s: tuple[int]) -> int:
        return 0

    def actions(self, s: tuple[int]) -> tuple[str, ...]:
        return ("roll", "hold") if s[0] == 1 else ("roll",)

    def outcomes(self, s: tuple[int], a: str) -> list[tuple[Fraction, tuple[int] | Terminal]]:
        if a == "roll":
            return [(H, (1,) if s[0] == 0 else win(0)), (H, win(1))]
        return [(H, win(0)), (H, win(1))]

    def array_transitions(self, states: I64) -> ArrayTransitions:
        k = states[:, 0]
        n = len(k)
        advance = ArrayOutcome(H, states + 1, terminal=np.where(k == 1, 0, -1))
        lose = ArrayOutcome(H, None, terminal=np.ones(n, dtype=np.int64))
        # hold: 1/2 and 1/2 at k = 1; garbage (7/2) where it is not offered
        won = ArrayOutcome((np.where(k == 1, 1, 7), 2), None, terminal=np.zeros(n, dtype=np.int64))
        lost = ArrayOutcome((np.where(k == 1, 1, 7), 2), None, terminal=np.ones(n, dtype=np.int64))
        # an outcome absent everywhere: its successor rows are never read
        absent = ArrayOutcome((np.zeros(n, dtype=np.int64), 2), np.full((n, 1), -5))
        return ArrayTransitions(
            player=np.zeros(n, dtype=np.int64),
            actions=(ArrayAction("roll", (advance, lose)),
                     ArrayAction("hold", (won, absent, lost), allowed=k == 1)),
            terminals=(win(0), win(1)))


def _same(a: CompiledGame[Any, Any], b: CompiledGame[Any, Any]) -> None:
    assert a.states == b.states
    assert a.player.tolist() == b.player.tolist()
    assert a.act_ptr.tolist() == b.act_ptr.tolist() and a.act_labels == b.act_labels
    assert a.out_ptr.tolist() == b.out_ptr.tolist() and a.out_target.tolist() == b.out_target.tolist()
    assert list(a.out_prob) == list(b.out_prob)
    assert list(a.act_const) == list(b.act_const) and list(a.act_stop) == list(b.act_stop)


def test_the_array_form_compiles_to_the_plain_game() -> None:
    game = Counter()
    plain = compile_game(game, arrays=False)
    arrays = compile_game(game, arrays=True)
    _same(plain, arrays)
    # read off the rules: (0,) rolls (to (1,) with 1/2); (1,) rolls or holds, both
    # ending play: c = 1/2 for each
    assert arrays.states == [(0,), (1,)]
    assert arrays.act_labels == ["roll", "roll", "hold"]
    assert arrays.out_target.tolist() == [1]
    assert list(arrays.act_const) == [0, H, H]
    # every row compared with the plain protocol: no difference
    _same(compile_game(game, arrays=True, check_arrays="all"), plain)


def test_the_value_by_hand() -> None:
    sol = tbsg.solve(Counter())
    assert sol.value() == Fraction(1, 4)
    assert sol.value((1,)) == H


def test_defaults_of_the_array_records() -> None:
    out = ArrayOutcome(H, None)
    assert out.terminal is None
    act = ArrayAction("go", (out,))
    assert act.allowed is None
    assert ArrayTransitions(np.zeros(1, dtype=np.int64), (act,)).terminals == ()


# --- whether an array form belongs to the rules beside it ---------------------------------------

class _Base:
    def player(self, s: object) -> int:
        return 0

    def actions(self, s: object) -> tuple[str, ...]:
        return ("a",)

    def outcomes(self, s: object, a: object) -> list[tuple[int, Terminal]]:
        return [(1, win(0))]

    def array_transitions(self, states: I64) -> ArrayTransitions:
        raise NotImplementedError  # never called: the checks are structural


class _NewRule(_Base):
    def outcomes(self, s: object, a: object) -> list[tuple[int, Terminal]]:
        return [(1, win(1))]


class _NewRuleAndForm(_NewRule):
    def array_transitions(self, states: I64) -> ArrayTransitions:
        raise NotImplementedError


class _NewStart(_Base):
    initial = 5  # a new initial state keeps the rules


class _Forwarding:
    def __init__(self, inner: object) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_rules_kept() -> None:
    assert rules_kept(_Base(), _Base)
    assert rules_kept(_NewStart(), _Base)
    assert not rules_kept(_NewRule(), _Base)
    assert rules_kept(_NewRuleAndForm(), _Base)  # the form was redefined with the rule


def test_untrusted_reasons() -> None:
    assert untrusted_reason(_Base()) is None
    assert untrusted_reason(_NewStart()) is None
    assert untrusted_reason(_NewRuleAndForm()) is None
    reason = untrusted_reason(_NewRule())
    assert reason is not None and "_NewRule redefines outcomes below _Base" in reason
    reason = untrusted_reason(_Forwarding(_Base()))
    assert reason is not None and "does not define array_transitions" in reason
    on_instance = _Base()
    on_instance.array_transitions = _Base().array_transitions  # type: ignore[method-assign]
    reason = untrusted_reason(on_instance)
    assert reason is not None and "not a method of the game itself" in reason


def test_an_untrusted_array_form_is_refused_when_required_and_skipped_by_default() -> None:
    class Changed(Counter):
        # a new rule (roll always loses) that the inherited array form does not describe
        def outcomes(self, s: tuple[int], a: str) -> list[tuple[Fraction, tuple[int] | Terminal]]:
            return [(Fraction(1), win(1))] if a == "roll" else super().outcomes(s, a)

    with pytest.raises(InvalidArgumentError, match="redefines outcomes below Counter"):
        compile_game(Changed(), arrays=True)
    # the default compiles the plain protocol, the definition: rolling loses at once,
    # so v(0) = 0 (only roll there)
    assert tbsg.solve(Changed()).value() == 0
