"""Provenance names a game by its parameters (the pattern of ``tbsg.results.provenance``),
never by its memory address."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import pytest

import tbsg
import tbsg.games
from tbsg.results.provenance import describe_game, game_parameters


class Bare:
    """One move to a win for player 0; no parameters reported."""

    initial = 0

    def player(self, s: int) -> int:
        return 0

    def actions(self, s: int) -> tuple[str, ...]:
        return ("go",)

    def outcomes(self, s: int, a: str) -> list[tuple[int, tbsg.Terminal]]:
        return [(1, tbsg.win(0))]


class WithParameters(Bare):
    def __init__(self, goal: int = 3, p: Fraction = Fraction(1, 3)) -> None:
        self.goal, self.p = goal, p

    def parameters(self) -> dict[str, object]:
        return {"goal": self.goal, "p": self.p}


@dataclass(frozen=True)
class Frozen(Bare):
    goal: int = 4


def test_the_two_declared_ways_of_reporting_parameters() -> None:
    assert game_parameters(WithParameters(5)) == {"goal": 5, "p": Fraction(1, 3)}
    assert game_parameters(Frozen()) == {"goal": 4}
    assert game_parameters(Bare()) is None
    assert game_parameters(Frozen) is None  # a class is no game
    assert describe_game(WithParameters(5)) == "WithParameters(goal=5, p=1/3)"
    assert describe_game(Frozen()) == "Frozen(goal=4)"


def test_a_game_without_parameters_is_named_without_its_address() -> None:
    assert " at 0x" in repr(Bare())
    text = str(tbsg.solve(Bare()).provenance())
    assert " at 0x" not in text
    assert "game: Bare (its parameters are not recorded: give the class a parameters() method" in text
    assert "game: WithParameters(goal=3, p=1/3) (" in str(tbsg.solve(WithParameters()).provenance())


def test_a_broken_parameters_method_is_a_clear_error() -> None:
    class Broken(Bare):
        def parameters(self) -> list[int]:
            return [1]

    with pytest.raises(tbsg.InvalidGameError, match=r"Broken\.parameters\(\) must return a mapping"):
        game_parameters(Broken())
    assert describe_game(Broken()).startswith("Broken (its parameters cannot be read: Broken.parameters()")


def test_provenance_names_the_factory_it_was_given() -> None:
    import dataclasses

    prov = dataclasses.replace(tbsg.solve(Frozen()).provenance(), factory="./f.py:make -p goal=4")
    assert "built by: ./f.py:make -p goal=4" in prov.lines()
    assert prov.as_dict()["factory"] == "./f.py:make -p goal=4"


def test_a_score_game_says_expected_payoff() -> None:
    """Issue 24: the value line of a game that is not a win-probability game says what the
    number is (Bet of tests/oracles.py: 7/6 points, hand-derived there)."""
    from oracles import Bet
    prov = tbsg.solve(Bet()).provenance()
    assert "expected payoff to player 0 at the initial state: 7/6" in str(prov)
    assert prov.as_dict()["win_probability"] is False
    assert "value to player 0" in str(tbsg.solve(tbsg.games.risk_or_safety(2)).provenance())


# --- the digest a verification records -------------------------------------------------------------

def test_the_digest_is_of_the_values_not_of_the_type_that_holds_them() -> None:
    # the same solution with its values held as Fractions (as without gmpy2), with an
    # int64 graph, and digested from values already read: one digest; another value: another
    import dataclasses

    import numpy as np

    from tbsg.games import risk_or_safety
    from tbsg.results import solution_digest

    sol = tbsg.solve(risk_or_safety(4))
    as_fractions = [Fraction(int(x.numerator), int(x.denominator)) for x in sol._raw_values]
    digest = solution_digest(sol)
    wide = dataclasses.replace(sol.graph, out_target=sol.graph.out_target.astype(np.int64))
    assert solution_digest(dataclasses.replace(sol, values_exact=as_fractions)) == digest
    assert solution_digest(dataclasses.replace(sol, graph=wide)) == digest
    assert solution_digest(sol, values=as_fractions) == digest
    assert tbsg.verify(risk_or_safety(4), sol).solution_sha256 == digest
    changed = [*as_fractions[:-1], as_fractions[-1] + 1]
    assert solution_digest(dataclasses.replace(sol, values_exact=changed)) != digest
