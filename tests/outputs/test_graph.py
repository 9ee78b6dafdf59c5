"""The state graph export (tbsg.outputs.graph): networkx and DOT.

The oracle is the solution itself and the game's rules: every exported number is checked
against the solution's queries, and the exported edges are checked to be a probability
distribution per action whose expectation, under the exported node values, is the
exported action value (the Bellman equation, which holds exactly for any correct
solution). Risk or Safety to 2 points has value 4/7 (the source's section 3.1, as
``tbsg.evaluate``'s docstring cites it).
"""

from __future__ import annotations

import sys
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest

import tbsg
from tbsg import Terminal, win
from tbsg.games import risk_or_safety
from tbsg.outputs import to_dot, to_networkx
from tbsg.outputs.graph import DEFAULT_MAX_GRAPH_STATES

nx = pytest.importorskip("networkx")


def _node_value(G: Any, node: Any) -> Fraction:
    value: Fraction = G.nodes[node]["value"]
    return value


def test_networkx_nodes_carry_the_solution() -> None:
    game = risk_or_safety(2)
    sol = tbsg.solve(game)
    G = to_networkx(sol)
    states = [n for n, d in G.nodes(data=True) if d["kind"] == "state"]
    terminals = [n for n, d in G.nodes(data=True) if d["kind"] == "terminal"]
    assert set(states) == set(sol.states) and len(states) == sol.n_states
    assert set(terminals) == {Terminal(Fraction(1)), Terminal(Fraction(0))}
    assert G.graph["initial"] == sol.initial and _node_value(G, sol.initial) == Fraction(4, 7)
    for s in states:
        d = G.nodes[s]
        assert (d["value"], d["player"], d["optimal_actions"], d["action"]) == \
            (sol.value(s), sol.player(s), sol.optimal_actions(s), sol.action(s))
    for t in terminals:
        assert G.nodes[t]["payoff"] == G.nodes[t]["value"] == t.payoff


def test_networkx_edges_satisfy_the_bellman_equation() -> None:
    """Per (state, action): probabilities sum to 1, and sum p * value(successor) is the
    exported action value, equal to the solution's; the optimal and chosen flags match."""
    sol = tbsg.solve(risk_or_safety(3))
    G = to_networkx(sol)
    mass: dict[tuple[Any, Any], Fraction] = defaultdict(Fraction)
    expectation: dict[tuple[Any, Any], Fraction] = defaultdict(Fraction)
    for s, t, a, d in G.edges(keys=True, data=True):
        assert d["action"] == a
        mass[s, a] += d["probability"]
        expectation[s, a] += d["probability"] * _node_value(G, t)
        assert d["action_value"] == sol.action_values(s)[a]
        assert d["optimal"] == (a in sol.optimal_actions(s)) and d["chosen"] == (a == sol.action(s))
        assert "reward" not in d
    assert set(mass.values()) == {1}
    assert all(expectation[s, a] == sol.action_values(s)[a] for s, a in expectation)
    assert {(s, a) for s, a in mass} == {(s, a) for s in sol.states for a in sol.action_values(s)}


def test_float_solutions_and_chains_export_too() -> None:
    game = risk_or_safety(2)
    exact = tbsg.solve(game)
    G = to_networkx(tbsg.solve(game, exact=False))
    lo, hi = G.nodes[exact.initial]["value"]
    assert lo <= exact.value() <= hi
    c = tbsg.chain(game, lambda s: "stop" if s.open else "toss")
    H = to_networkx(c)
    assert all(d["action"] == c.action(s) for s, _, d in H.edges(data=True))
    assert _node_value(H, c.initial) == c.value()


@dataclass(frozen=True)
class Quoted:
    """Two states named with quotes and a backslash; one action each, paying a reward."""

    initial: str = 'say "hi" \\'

    def player(self, s: str) -> int:
        return 0 if s == self.initial else 1

    def actions(self, s: str) -> tuple[str, ...]:
        return ("go",)

    def outcomes(self, s: str, a: str) -> list[tuple[Fraction, str | Terminal]]:
        return [(Fraction(1), "next")] if s == self.initial else [(Fraction(1), win(1))]

    def reward(self, s: str, a: str) -> Fraction:
        return Fraction(0)


def test_rewards_are_edge_attributes() -> None:
    G = to_networkx(tbsg.solve(Quoted()))
    assert [d["reward"] for _, _, d in G.edges(data=True)] == [0, 0]


def test_dot_has_a_node_per_state_and_an_edge_per_outcome() -> None:
    sol = tbsg.solve(risk_or_safety(2))
    dot = to_dot(sol)
    lines = dot.splitlines()
    assert lines[0] == "digraph tbsg {" and lines[-1] == "}"
    edges = [line for line in lines if " -> " in line]
    assert len(edges) == to_networkx(sol).number_of_edges()
    assert sum("shape=box" in line or "shape=ellipse" in line for line in lines) == sol.n_states
    assert sum("shape=plaintext" in line for line in lines) == 2
    assert "value 4/7 ≈ 0.571429" in lines[3] and "penwidth=2" in lines[3]
    chosen = [line for line in edges if "style=bold" in line]
    assert len(chosen) == sum(d["chosen"] for _, _, d in to_networkx(sol).edges(data=True))
    assert '[label="toss 1/2", style=bold]' in dot


def test_dot_escapes_quotes_and_backslashes() -> None:
    dot = to_dot(tbsg.solve(Quoted()))
    # the label is the state's repr, 'say "hi" \\', with quotes and backslashes escaped
    assert r"""label="'say \"hi\" \\\\'\nvalue 0", penwidth=2""" in dot


def test_the_size_limit_is_named() -> None:
    sol = tbsg.solve(risk_or_safety(3))
    for export in (to_networkx, to_dot):
        with pytest.raises(tbsg.StateLimitError, match=r"has \d+ states, more than max_states=5"):
            export(sol, max_states=5)
    assert DEFAULT_MAX_GRAPH_STATES == 2_000
    big = tbsg.solve(risk_or_safety(40))
    assert big.n_states > DEFAULT_MAX_GRAPH_STATES
    with pytest.raises(tbsg.StateLimitError, match="max_states=2,000"):
        to_dot(big)


def test_bad_arguments() -> None:
    sol = tbsg.solve(risk_or_safety(2))
    with pytest.raises(tbsg.InvalidArgumentError, match="from a Solution, FloatSolution or Chain"):
        to_dot("not a solution")  # type: ignore[arg-type]
    with pytest.raises(tbsg.InvalidArgumentError, match="max_states must be a positive int"):
        to_networkx(sol, max_states=0)
    with pytest.raises(tbsg.InvalidArgumentError, match="digits must be an int from 1 to 30"):
        to_dot(sol, digits=0)


def test_missing_networkx_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "networkx", None)
    with pytest.raises(ImportError, match=r"pip install 'tbsg\[graph\]'"):
        to_networkx(tbsg.solve(risk_or_safety(2)))
