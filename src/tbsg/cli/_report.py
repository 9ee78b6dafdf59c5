"""What ``tbsg solve`` prints: the summary of a solution, or its per-state table, in five formats.

The summary is one list of ``(quantity, value)`` rows written as aligned text, a Markdown
table, a LaTeX (booktabs) table or CSV, or a JSON object with typed fields. Exact values
are written in full except in text, where a fraction longer than ``short`` characters
becomes a decimal and its size; decimals have ``digits`` significant digits rounded from
the exact value, and proven float bounds are rounded outward (the lower one down, the
upper one up), so a printed interval still contains the value.

A game that is not a win-probability game (rewards per move, payoffs outside [0, 1];
:mod:`tbsg.model.protocol`) has its value reported as the "expected payoff to player 0",
its terminal payoffs named as payoffs rather than as winners, and ``--play`` adds the
expected rewards collected along play.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from tbsg._util.digits import exact_decimal, fraction_text, shown_value, text_size
from tbsg.errors import InfiniteExpectationError, UnsupportedError, shorten, show
from tbsg.model.protocol import Game
from tbsg.model.steps import StepFunction
from tbsg.outputs.formats import Fmt, csv_table, latex_escape, latex_table, markdown_table
from tbsg.outputs.tables import state_table
from tbsg.play.chain import Chain, chain
from tbsg.results import FloatSolution, Solution

__all__ = ["play_summary", "solve_report", "table_report"]

Rows = list[tuple[str, str]]


def _value_text(x: Fraction, fmt: str, digits: int, full: bool, short: int) -> str:
    if fmt != "text" or full or text_size(x) <= short:
        return shown_value(x, digits, text_size(x), exact=True)
    return shown_value(x, digits, short, exact=True) + " (--exact-digits prints it)"


def _actions(actions: Sequence[object]) -> str:
    return ", ".join(show(a, 80) if not isinstance(a, str) else a for a in actions)


def _json(x: object) -> object:
    """An action or parameter as JSON: JSON scalars as they are, fractions ``"p/q"``, else ``repr``."""
    if isinstance(x, Fraction):
        return fraction_text(x)
    if x is None or isinstance(x, (bool, float, str)) or (isinstance(x, int) and abs(x) < 10**4000):
        return x
    if isinstance(x, (tuple, list)):
        return [_json(y) for y in x]
    return show(x, 10**6)


def _game_text(game: object, label: str, parameters: Mapping[str, object]) -> str:
    """The game's ``repr``, or, when it has only ``object``'s, how it was built."""
    if type(game).__repr__ is not object.__repr__:
        return show(game, 10**6)
    return f"{label}({', '.join(f'{k}={show(v, 60)}' for k, v in parameters.items())})"


_WHO = {Fraction(1): "player 0 wins", Fraction(1, 2): "draw", Fraction(0): "player 1 wins"}


def _ending(r: Fraction, win_probability: bool) -> str:
    """A terminal payoff named: who wins, in a win-probability game; else the payoff."""
    named = _WHO.get(r) if win_probability else None
    return named if named is not None else f"payoff {fraction_text(r)}"


def _objective(sol: Solution[Any, Any] | FloatSolution[Any, Any]) -> str:
    """What a value is called: "value" in a win-probability game, else "expected payoff"."""
    return "value" if sol.win_probability else "expected payoff"


Part = tuple[Rows, dict[str, object]]
"""Rows of the printed summary, and the JSON fields that say the same."""


def play_summary(sol: Solution[Any, Any] | FloatSolution[Any, Any], game: Game[Any, Any],
                 count: StepFunction | None, unit: str, fmt: str, digits: int, full: bool,
                 short: int = 60) -> Part:
    """Rows and JSON fields of ``tbsg solve --play``: play under the solution's strategy.

    The outcome split, the expected length (in ``unit``: what ``count`` counts) and its
    variance, and, for an exact solution of a stopping game, the fastest and slowest
    optimal play (:mod:`tbsg.play.chain`, :mod:`tbsg.engine.tiebreak`).
    """
    c = chain(game, sol)
    tied = sol.tied_states()
    if isinstance(sol, Solution):
        rows, record = _exact_play(c, sol, count, unit, fmt, digits, full, short)
    else:
        rows, record = _float_play(c, count, unit, digits, sol.win_probability, tied)
    rows.append(("states reached", f"{c.n_states} under the solution's strategy"))
    rows.append(_ties_row(tied, isinstance(sol, Solution)))
    return [(f"play: {k}", v) for k, v in rows], {"states_reached": c.n_states, "unit": unit,
                                                  "tied_states": tied, **record}


def _ties_row(tied: int, exact: bool) -> tuple[str, str]:
    """How many decision states have several optimal (exact) or not-ruled-out (float)
    actions, and which one the strategy plays (the tie rule of :mod:`tbsg.results.query`)."""
    kind = "optimal" if exact else "not ruled out by the bounds"
    text = f"{tied} decision state(s) with more than one action {kind}"
    if tied:
        text += "; the strategy plays the first in the game's order"
    return "ties", text


def _exact_play(c: Chain[Any, Any], sol: Solution[Any, Any], count: StepFunction | None, unit: str,
                fmt: str, digits: int, full: bool, short: int) -> Part:
    """The exact outcome split, the rewards collected (in a game that pays them), expected
    length and variance, fastest and slowest optimal play."""
    def text(x: Fraction) -> str:
        return _value_text(x, fmt, digits, full, short)

    split = c.outcome_probabilities()
    rows: Rows = [("outcomes", "; ".join(f"{_ending(r, sol.win_probability)} {text(q)}"
                                         for r, q in split.items()))]
    record: dict[str, object] = {"outcomes": {fraction_text(r): fraction_text(q) for r, q in split.items()}}
    if sol.graph.has_rewards:  # the value is these rewards plus the terminal payoff
        collected = c.expected_reward()
        rows.append(("rewards collected", f"{text(collected)} (expected, to player 0)"))
        record["rewards"] = fraction_text(collected)
    try:
        mean, var = c.expected_steps(count), c.variance_of_steps(count)
    except InfiniteExpectationError as exc:
        rows.append((f"expected {unit}", f"infinite ({exc})"))
        return rows, record | {"expected": None}
    rows.append((f"expected {unit}", f"{text(mean)} (variance {text(var)})"))
    record |= {"expected": fraction_text(mean), "variance": fraction_text(var)}
    try:
        fast, slow = sol.fastest(count), sol.slowest(count)
    except UnsupportedError:  # not a stopping game: no fastest and slowest play
        return rows, record
    spread = "" if fast.expected == slow.expected else " (the expected figure depends on the tied choices)"
    figures = f"fastest {text(fast.expected)}, slowest {text(slow.expected)}{spread}"
    rows.append((f"optimal play, {unit}", figures))
    return rows, record | {"fastest": fraction_text(fast.expected), "slowest": fraction_text(slow.expected)}


def _float_play(c: Chain[Any, Any], count: StepFunction | None, unit: str, digits: int,
                win_probability: bool, tied: int) -> Part:
    """Proven bounds on the outcome split and on the expected length (of the tie rule's
    profile where ``tied`` states have several actions not ruled out)."""
    bounds = c.outcome_probabilities(exact=False)
    rows: Rows = [("outcomes", "; ".join(f"{_ending(r, win_probability)} in "
                                         f"{_interval(lo, hi, digits)}" for r, (lo, hi) in bounds.items()))]
    record: dict[str, object] = {"outcomes": {fraction_text(r): [lo, hi] for r, (lo, hi) in bounds.items()}}
    try:
        lo, hi = c.expected_steps(count, exact=False)
    except InfiniteExpectationError as exc:
        rows.append((f"expected {unit}", f"infinite ({exc})"))
        return rows, record | {"expected": None}
    rule = ", for the tie rule's choice of action" if tied else ""
    rows.append((f"expected {unit}", f"in {_interval(lo, hi, digits)} (proven bounds{rule})"))
    return rows, record | {"expected": [lo, hi]}


def _interval(lo: float, hi: float, digits: int) -> str:
    return f"[{exact_decimal(lo, digits, 'down')}, {exact_decimal(hi, digits, 'up')}]"


def _value_part(sol: Solution[Any, Any] | FloatSolution[Any, Any], fmt: str, digits: int, full: bool,
                short: int) -> Part:
    """The value to player 0 (its expected payoff, in a game that is not a win-probability
    game): exact, or proven bounds and their gap."""
    name = f"{_objective(sol)} to player 0"
    if isinstance(sol, Solution):
        v = sol.value()
        return ([(name, _value_text(v, fmt, digits, full, short))],
                {"value": fraction_text(v), "value_decimal": exact_decimal(v, digits)})
    lo, hi = sol.bounds()
    shown_lo, shown_hi = exact_decimal(lo, digits, "down"), exact_decimal(hi, digits, "up")
    gap = hi - lo
    widest = (f"{sol.max_gap:.3g} at most over all states" if sol.win_probability else
              f"{sol.max_relative_gap:.3g} at most over all states relative to max(1, |value|)")
    return ([(name, f"in [{shown_lo}, {shown_hi}] (proven bounds)"),
             ("gap", f"{gap:.3g} at the initial state, {widest} "
                     f"(--tol {sol.tol:g}{'' if sol.converged else ': NOT reached'})")],
            {"lower": lo, "upper": hi, "gap": gap, "value": sol.value(), "tol": sol.tol,
             "max_gap": sol.max_gap, "max_relative_gap": sol.max_relative_gap,
             "converged": sol.converged,
             "lower_decimal": shown_lo, "upper_decimal": shown_hi})


def _play_part(sol: Solution[Any, Any] | FloatSolution[Any, Any], certificate: object | None) -> Part:
    """The initial state, its optimal actions, the size of the solve and (exact) the certificate."""
    s0 = sol.initial
    optimal = sol.optimal_actions(s0)
    certain = sol.optimal_actions_certain(s0)
    rows: Rows = [
        ("initial state", f"{show(s0, 200)}, player {sol.player(s0)} to move"),
        ("optimal actions", _actions(optimal) + (
            "" if isinstance(sol, Solution) else
            " (certain: the bounds rule out every other action)" if certain else
            " (not certain: the bounds rule out none of these; an exact solve tells ties apart)")),
        ("states", f"{sol.n_states}"),
        ("components", f"{sol.n_components} strongly connected (largest {sol.largest_component})"),
        ("time", f"{sol.seconds:.3g} s ({sol.method})")]
    record: dict[str, object] = {
        "optimal_actions": [_json(a) for a in optimal], "optimal_actions_certain": certain,
        "states": sol.n_states, "components": sol.n_components,
        "largest_component": sol.largest_component, "seconds": sol.seconds, "method": sol.method}
    if isinstance(sol, Solution):
        rows.append(("certificate", "not re-checked (--no-verify)" if certificate is None
                     else str(certificate)))
        record |= {"verified": certificate is not None,
                   "certificate": None if certificate is None else str(certificate)}
    return rows, record


def solve_report(sol: Solution[Any, Any] | FloatSolution[Any, Any], label: str, game: object,
                 parameters: Mapping[str, object], certificate: object | None, fmt: str, digits: int,
                 full: bool, provenance: bool, short: int = 60,
                 play: Part | None = None, factory: str | None = None) -> str:
    """The summary ``tbsg solve`` prints (see the module docstring); ends with a newline."""
    shown_game = _game_text(game, label, parameters)
    record: dict[str, object] = {
        "game": label, "parameters": {k: _json(v) for k, v in parameters.items()},
        "game_repr": shown_game, "exact": isinstance(sol, Solution),
        "initial_state": show(sol.initial, 10**6), "player_to_move": sol.player(sol.initial),
        "win_probability": sol.win_probability}
    rows: Rows = [("game", shorten(shown_game, 200))]
    for part_rows, part_record in (_value_part(sol, fmt, digits, full, short), _play_part(sol, certificate)):
        rows += part_rows
        record |= part_record
    if play is not None:
        rows += play[0]
        record["play"] = play[1]
    prov = sol.provenance(certificate) if provenance else None  # type: ignore[arg-type]
    if prov is not None:
        prov = dataclasses.replace(prov, factory=factory)
    if prov is not None:
        record["provenance"] = prov.as_dict()
    if fmt == "json":
        return json.dumps(record, indent=2, ensure_ascii=False) + "\n"
    if prov is not None and fmt != "text":
        rows += [(f"provenance: {k}", "" if x is None else str(x)) for k, x in prov.as_dict().items()]
    out = _rows(rows, fmt)
    if prov is not None and fmt == "text":
        out += "\nprovenance:\n" + "\n".join(f"  {line}" for line in prov.lines()) + "\n"
    return out


def _rows(rows: Rows, fmt: str) -> str:
    """``(quantity, value)`` rows as text, Markdown, LaTeX or CSV (ends with a newline)."""
    if fmt == "text":
        width = max(len(k) for k, _ in rows) + 1
        return "".join(f"{k + ':':<{width}} {v}\n" for k, v in rows)
    if fmt == "md":
        md = Fmt("markdown")
        return markdown_table(["quantity", "value"], [[md.text(k), md.text(v)] for k, v in rows],
                              ["l", "l"]) + "\n"
    if fmt == "latex":
        body = [[latex_escape(k), latex_escape(v)] for k, v in rows]
        return latex_table(["quantity & value \\\\"], body, "ll", None, None) + "\n"
    return csv_table(["quantity", "value"], [[k, v] for k, v in rows])


def table_report(sol: Solution[Any, Any] | FloatSolution[Any, Any], fmt: str, digits: int,
                 full: bool, decimals: int | None = None) -> str:
    """The per-state table ``tbsg solve --table`` prints (ends with a newline); with
    ``decimals``, every exact value as a decimal of that many significant digits only."""
    table = state_table(sol)
    d: bool | int = True if decimals is None else decimals
    if fmt == "text":
        return table.to_text(digits=digits, shorten=not full, decimals=d) + "\n"
    if fmt == "md":
        return table.to_markdown(digits=digits, decimals=d) + "\n"
    if fmt == "latex":
        return table.to_latex(digits=digits, decimals=d) + "\n"
    if fmt == "csv":
        return table.to_csv(decimals=d)

    def value(x: object) -> object:
        return exact_decimal(x, decimals) if decimals is not None and isinstance(x, Fraction) else _json(x)
    return json.dumps(table.records(), default=value, indent=1, ensure_ascii=False) + "\n"

