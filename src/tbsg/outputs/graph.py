"""A small game's state graph, with its values and optimal actions: networkx and Graphviz.

A solution already holds the game as a graph (:class:`tbsg.engine.compiled.CompiledGame`:
states, actions, outcomes); this module hands that graph to the tools people draw and
analyse graphs with, annotated with what the solution knows.

The graph is a directed multigraph. Its nodes are the reachable states (keyed by the
state objects themselves) and the distinct terminal outcomes (keyed by their
:class:`~tbsg.Terminal`). There is one edge per (state, action, outcome): from the
state to the successor, or to the terminal, carrying the action, the outcome's exact
probability and the action's value. A state's action therefore appears as a fan of edges
whose probabilities sum to 1, which is how a stochastic game differs from a plain
directed graph and why a multigraph is needed (two actions may lead to the same
successor).

Attributes
----------
State nodes: ``kind = "state"``, ``player``, ``value`` (to player 0: a ``Fraction``; a
float solution's proven ``(lower, upper)``), ``optimal_actions`` (a tuple), ``action``
(the one the solution's strategy plays there), ``initial`` (bool), ``label`` (text).
Terminal nodes: ``kind = "terminal"``, ``payoff`` and ``value`` (the terminal payoff to
player 0), ``label``. Edges: ``action``, ``probability`` (a ``Fraction``),
``action_value`` (the value to player 0 of taking the action: a ``Fraction`` or proven
bounds), ``optimal`` (the action is optimal), ``chosen`` (the strategy plays it), and
``reward`` where the game defines ``reward(state, action)``.

The compiled graph keeps only the sums of an action's terminal outcomes, so the game is
asked again for the terminal outcomes of the actions that can end play (the same
question :meth:`tbsg.Chain.outcome_probabilities` asks). Exports are refused beyond
``max_states`` states (:data:`DEFAULT_MAX_GRAPH_STATES` by default), with an error that
names the limit: a drawing of thousands of states is unreadable, and the networkx graph
costs hundreds of bytes per edge.

networkx is an optional dependency (the ``graph`` extra); :func:`to_dot` writes the DOT
language itself and needs nothing.

Examples
--------
>>> import tbsg
>>> from tbsg.games import risk_or_safety
>>> sol = tbsg.solve(risk_or_safety(2))
>>> dot = to_dot(sol)
>>> dot.splitlines()[0], "->" in dot
('digraph tbsg {', True)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

from tbsg._util.digits import shown_value
from tbsg.errors import InvalidArgumentError, InvalidGameError, StateLimitError, show
from tbsg.model.protocol import Terminal, exact
from tbsg.play.chain import Chain
from tbsg.results.floating import FloatSolution
from tbsg.results.solution import Solution

__all__ = ["DEFAULT_MAX_GRAPH_STATES", "GRAPH_EXTRA", "to_dot", "to_networkx"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

DEFAULT_MAX_GRAPH_STATES = 2_000
"""Largest number of states :func:`to_networkx` and :func:`to_dot` export unless told."""

GRAPH_EXTRA = "pip install 'tbsg[graph]'"
"""How to install networkx for :func:`to_networkx`."""

Result = Solution[Any, Any] | FloatSolution[Any, Any] | Chain[Any, Any]


@dataclass(frozen=True)
class _Edge:
    source: Any
    target: Any
    action: Any
    probability: Fraction
    action_value: object
    optimal: bool
    chosen: bool
    reward: Fraction | None


def _check(result: object, max_states: object) -> None:
    if not isinstance(result, Solution | FloatSolution | Chain):
        raise InvalidArgumentError(f"a state graph is exported from a Solution, FloatSolution or Chain, "
                                   f"got {show(result)}")
    if isinstance(max_states, bool) or not isinstance(max_states, int) or max_states < 1:
        raise InvalidArgumentError(f"max_states must be a positive int, got {show(max_states)}")
    if result.n_states > max_states:
        raise StateLimitError(
            f"the state graph has {result.n_states:,} states, more than max_states={max_states:,}: "
            "a graph export is for small games (raise max_states= to export it anyway; "
            "tbsg.state_table lists the states of a large game)")
    if result.game is None:
        raise InvalidArgumentError("this result was built without its game, which the graph export "
                                   "asks for the terminal outcomes")


def _value(result: Result, s: Any) -> object:
    if isinstance(result, FloatSolution):
        return result.bounds(s)
    return result.value(s)


def _nodes(result: Result) -> Iterator[tuple[Any, dict[str, object]]]:
    for i, s in enumerate(result.states):
        yield s, {"kind": "state", "player": result.player(s), "value": _value(result, s),
                  "optimal_actions": result.optimal_actions(s), "action": result.action(s),
                  "initial": i == 0, "label": show(s, 80)}


def _terminals(game: Any, s: Any, a: Any) -> dict[Fraction, Fraction]:
    """``{payoff: probability}`` of the terminal outcomes of ``a`` at ``s``."""
    out: dict[Fraction, Fraction] = {}
    for p, nxt in game.outcomes(s, a):
        if isinstance(nxt, Terminal):
            q = exact(p, f"probability at state {show(s)}, action {show(a)}")
            out[nxt.payoff] = out.get(nxt.payoff, Fraction(0)) + q
    return {r: q for r, q in out.items() if q}


def _edges(result: Result) -> Iterator[_Edge]:
    g = result.graph
    game: Any = result.game
    reward: Callable[[Any, Any], object] | None = getattr(game, "reward", None)
    stops = g.stop_mask()
    for i, s in enumerate(g.states):
        values = result.action_values(s)
        optimal, chosen = result.optimal_actions(s), result.action(s)
        for k in g.actions_of(i):
            a = g.act_labels[k]
            r = None if reward is None else exact(reward(s, a),
                                                  f"reward at state {show(s)}, action {show(a)}")
            info = (values.get(a), a in optimal, a == chosen, r)
            for o in range(int(g.out_ptr[k]), int(g.out_ptr[k + 1])):
                yield _Edge(s, g.states[int(g.out_target[o])], a, g.out_prob[o], *info)
            if stops[k]:
                split = _terminals(game, s, a)
                if sum(split.values(), Fraction(0)) != g.act_stop[k]:
                    raise InvalidGameError(f"outcomes({show(s)}, {show(a)}) returned different "
                                           "terminals than when the game was enumerated")
                for payoff, q in split.items():
                    yield _Edge(s, Terminal(payoff), a, q, *info)


def to_networkx(result: Result, *, max_states: int = DEFAULT_MAX_GRAPH_STATES) -> Any:
    """The state graph of ``result`` as a ``networkx.MultiDiGraph`` (module docstring).

    Parameters
    ----------
    result : Solution, FloatSolution or Chain
    max_states : int
        Refuse (:class:`~tbsg.errors.StateLimitError`) a result with more states.

    Returns
    -------
    networkx.MultiDiGraph
        Nodes keyed by state (and :class:`~tbsg.Terminal`), edges keyed by action; the
        graph attribute ``initial`` is the initial state.

    Examples
    --------
    >>> import tbsg
    >>> from tbsg.games import risk_or_safety
    >>> sol = tbsg.solve(risk_or_safety(2))
    >>> G = to_networkx(sol)
    >>> G.nodes[G.graph["initial"]]["value"] == sol.value()
    True
    """
    _check(result, max_states)
    try:
        import networkx as nx
    except ImportError as exc:
        raise ImportError("to_networkx needs networkx, an optional dependency of tbsg that is not "
                          f"installed; install it with: {GRAPH_EXTRA}") from exc
    graph = nx.MultiDiGraph(initial=result.initial)
    graph.add_nodes_from(_nodes(result))
    for e in _edges(result):
        if e.target not in graph:
            graph.add_node(e.target, kind="terminal", payoff=e.target.payoff, value=e.target.payoff,
                           label=f"end {e.target.payoff}")
        attrs = {"action": e.action, "probability": e.probability, "action_value": e.action_value,
                 "optimal": e.optimal, "chosen": e.chosen}
        if e.reward is not None:
            attrs["reward"] = e.reward
        graph.add_edge(e.source, e.target, key=e.action, **attrs)
    return graph


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _number(x: object, digits: int) -> str:
    if isinstance(x, tuple):
        return "[" + ", ".join(f"{float(v):.{digits}g}" for v in x) + "]"
    if isinstance(x, Fraction):
        return shown_value(x, digits, 40)
    return show(x, 40)


def _action_text(a: object) -> str:
    return a if isinstance(a, str) else show(a, 40)


def to_dot(result: Result, *, max_states: int = DEFAULT_MAX_GRAPH_STATES, digits: int = 6) -> str:
    """The state graph of ``result`` in the Graphviz DOT language (module docstring).

    Player 0's states are boxes, player 1's ellipses, terminals plain text; a state's
    label is the state and its value to player 0. Edges are labelled with the action and
    the probability; the strategy's action is drawn bold, other optimal actions solid and
    the rest dashed. Render with ``dot -Tsvg game.dot -o game.svg``.

    Parameters
    ----------
    result : Solution, FloatSolution or Chain
    max_states : int
        Refuse (:class:`~tbsg.errors.StateLimitError`) a result with more states.
    digits : int
        Significant digits of the decimals in the labels.

    Returns
    -------
    str
    """
    _check(result, max_states)
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= 30:
        raise InvalidArgumentError(f"digits must be an int from 1 to 30, got {show(digits)}")
    ids: dict[Any, str] = {}
    lines = ["digraph tbsg {", "  rankdir=LR;", "  node [fontname=Helvetica]; edge [fontname=Helvetica];"]
    for s, attrs in _nodes(result):
        ids[s] = f"s{len(ids)}"
        shape = "box" if attrs["player"] == 0 else "ellipse"
        extra = ", penwidth=2" if attrs["initial"] else ""
        label = f"{attrs['label']}\nvalue {_number(attrs['value'], digits)}"
        lines.append(f"  {ids[s]} [shape={shape}, label={_quote(label)}{extra}];")
    for e in _edges(result):
        if e.target not in ids:
            ids[e.target] = f"t{len(ids)}"
            lines.append(f"  {ids[e.target]} [shape=plaintext, label="
                         f"{_quote('end ' + str(e.target.payoff))}];")
        style = "bold" if e.chosen else ("solid" if e.optimal else "dashed")
        label = f"{_action_text(e.action)} {e.probability}"
        lines.append(f"  {ids[e.source]} -> {ids[e.target]} [label={_quote(label)}, style={style}];")
    lines.append("}")
    return "\n".join(lines) + "\n"

