"""Saved solutions: an open, versioned JSON format that can be re-checked years later.

A file written by :func:`save` holds everything needed to rebuild and re-verify an exact
solution, and nothing that has to be trusted:

.. code-block:: text

    {
      "format": "tbsg-solution",          fixed marker
      "format_version": 1,                this layout
      "tbsg_version": "0.1.0",            library that wrote it
      "game": {"catalog": "risk_or_safety", "class": "RiskOrSafety",
               "fields": {"target": 4}},  how to rebuild the game (catalog: null for a
                                          user's own game, which load() then needs)
      "graph": {"sha256": "...", "states": 120, "actions": 200},
      "method": "...",                    how the solution was computed
      "infinite_play": null,              payoff "p/q" of never-ending play, if the game
                                          was solved with tbsg.solve(..., infinite_play=)
      "value": "2236/4165",               value of the initial state (for readers)
      "states": [                         one line per state, in enumeration order
        {"state": "RoSState(mover=0, open=0, saved=0, other=0)", "value": "2236/4165",
         "action": 0, "label": "'toss'"}, ...]
    }

Values are exact, to player 0 (as everywhere in tbsg), written ``"p/q"`` (or ``"p"``);
``action`` is the position of the chosen action in ``game.actions(state)`` and ``label``
its ``repr`` (for readers and as a check). The graph hash is SHA-256 over a canonical
text of the compiled game: every state's ``repr``, mover, and each action's label,
terminal payoff part and successor probabilities, in enumeration order. It detects a file
paired with a different game, game version, or parameters. (States must have a
deterministic ``repr``: NamedTuples of numbers and strings do; sets of strings do not, as
their order changes between runs.)

:func:`load` rebuilds the game (from the catalog, or the ``game`` you pass), recompiles it,
compares the hash and every row, recomputes the exactly optimal actions, and by default
re-verifies the certificate (:func:`tbsg.verify`): a loaded solution is as trustworthy as
a fresh one. Only exact solutions of :func:`tbsg.solve` can be saved.

Examples
--------
>>> import os, tempfile, tbsg
>>> from tbsg.games import risk_or_safety
>>> path = os.path.join(tempfile.mkdtemp(), "ros4.json")
>>> save(tbsg.solve(risk_or_safety(4)), path)
>>> load(path).value()
Fraction(2236, 4165)
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import time
from collections.abc import Hashable
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar, overload

import numpy as np

from tbsg._digits import fraction_from_text, fraction_text, unlimited_digits
from tbsg.api import EXACT_METHOD
from tbsg.catalog import CATALOG, entry_for
from tbsg.certificate import action_values_exact, verify
from tbsg.engine import _backend as bk
from tbsg.engine.compile import DEFAULT_MAX_STATES, CompiledGame, compile_game
from tbsg.engine.graph import decompose
from tbsg.engine.infinite import INFINITE_PLAY_METHOD, switch_safe_actions
from tbsg.errors import SolutionFileError, TbsgError
from tbsg.model import Game
from tbsg.results import Solution

__all__ = ["FORMAT", "FORMAT_VERSION", "graph_hash", "load", "save"]

FORMAT = "tbsg-solution"
FORMAT_VERSION = 1

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

_RATIONAL = re.compile(r"-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?")


@unlimited_digits()
def graph_hash(g: CompiledGame[Any, Any]) -> str:
    """SHA-256 (hex) of the canonical text of a compiled game (see the module docstring)."""
    h = hashlib.sha256(b"tbsg-graph-v1\n")
    act_ptr = g.act_ptr.tolist()
    out_ptr = g.out_ptr.tolist()
    target = g.out_target.tolist()
    for i, s in enumerate(g.states):
        parts = [f"S\t{s!r}\t{int(g.player[i])}\n"]
        for k in range(act_ptr[i], act_ptr[i + 1]):
            outs = ";".join(f"{target[o]}:{g.out_prob[o]}" for o in range(out_ptr[k], out_ptr[k + 1]))
            parts.append(f"A\t{g.act_labels[k]!r}\t{g.act_const[k]}\t{g.act_stop[k]}\t{outs}\n")
        h.update("".join(parts).encode())
    return h.hexdigest()


def _version() -> str:
    from tbsg import __version__
    return __version__


@unlimited_digits()
def save(solution: Solution[S, A], path: str | os.PathLike[str], *,
         game: object | None = None) -> None:
    """Write an exact solution of :func:`tbsg.solve` to ``path`` as JSON.

    Parameters
    ----------
    solution : Solution
        An exact solution returned by :func:`tbsg.solve`.
    path : str or path-like
        File to write (overwritten).
    game : object, optional
        The game solved; defaults to ``solution.game``. Catalog games are recorded by
        name and fields so that :func:`load` and ``tbsg verify FILE`` can rebuild them.

    Raises
    ------
    TypeError
        For a float solution (save the exact one; float bounds are not a certificate).
    SolutionFileError
        For a solution of :func:`tbsg.evaluate` or :func:`tbsg.best_response` (not optimal
        for both players, so not verifiable), or one without its game.
    """
    if not isinstance(solution, Solution):
        raise TypeError(f"save() takes an exact Solution of tbsg.solve, got {type(solution).__name__}")
    if not solution.method.startswith((EXACT_METHOD, INFINITE_PLAY_METHOD)):
        raise SolutionFileError(
            f"only solutions of tbsg.solve can be saved (this one is: {solution.method!r}); "
            "its certificate would not verify")
    game = solution.game if game is None else game
    if game is None:
        raise SolutionFileError("the solution does not record its game; pass game=")
    entry = entry_for(game)
    fields: dict[str, object] | None = None
    if dataclasses.is_dataclass(game) and not isinstance(game, type):
        fields = {f.name: getattr(game, f.name) for f in dataclasses.fields(game)}
    g = solution.graph
    choice = solution.choice.tolist()
    act_ptr = g.act_ptr.tolist()
    rows = [{"state": repr(s), "value": fraction_text(bk.to_fraction(solution.values_exact[i])),
             "action": choice[i] - act_ptr[i], "label": repr(g.act_labels[choice[i]])}
            for i, s in enumerate(g.states)]
    head = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "tbsg_version": _version(),
        "game": {"catalog": entry.name if entry else None, "class": type(game).__qualname__,
                 "fields": fields},
        "graph": {"sha256": graph_hash(g), "states": g.n_states, "actions": g.n_actions},
        "method": solution.method,
        "infinite_play": None if solution.infinite_play is None else fraction_text(solution.infinite_play),
        "value": rows[0]["value"],
    }
    # one state per line: readable, diff-able, and still plain JSON
    text = json.dumps(head, indent=1, ensure_ascii=False)[:-2]
    body = ",\n".join("  " + json.dumps(row, ensure_ascii=False) for row in rows)
    Path(path).write_text(f'{text},\n "states": [\n{body}\n ]\n}}\n', encoding="utf-8")


def _fail(path: object, message: str) -> SolutionFileError:
    return SolutionFileError(f"{path}: {message}")


def _get(obj: object, key: str, kind: type | tuple[type, ...], path: object, where: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise _fail(path, f"missing {where}{key!r}")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise _fail(path, f"{where}{key!r} should be {getattr(kind, '__name__', kind)}, "
                          f"found {type(value).__name__}")
    return value


def _rational(text: object, path: object, where: str) -> Fraction:
    if not isinstance(text, str) or not _RATIONAL.fullmatch(text):
        raise _fail(path, f"{where}: value {text!r} is not an exact rational 'p/q'")
    return fraction_from_text(text)


def _rebuild_game(doc: dict[str, Any], path: object) -> Game[Any, Any]:
    info = _get(doc, "game", dict, path, "")
    name = info.get("catalog")
    if name is None:
        raise _fail(path, f"the game ({info.get('class')!r}) is not a catalog game; "
                          "pass it: load(path, game=...)")
    if name not in CATALOG:
        raise _fail(path, f"unknown catalog game {name!r}; this tbsg has {', '.join(CATALOG)}")
    entry = CATALOG[name]
    if info.get("class") != entry.cls:
        raise _fail(path, f"game class {info.get('class')!r} does not match the catalog's {entry.cls!r}")
    fields = _get(info, "fields", dict, path, "game ")
    try:
        game: Game[Any, Any] = entry.rebuild(fields)
        return game
    except (TbsgError, TypeError) as exc:
        raise _fail(path, f"cannot rebuild {name} from fields {fields!r}: {exc}") from exc


@overload
def load(path: str | os.PathLike[str], *, game: Game[S, A], check: bool = ...,
         max_states: int = ...) -> Solution[S, A]: ...
@overload
def load(path: str | os.PathLike[str], *, game: None = ..., check: bool = ...,
         max_states: int = ...) -> Solution[Hashable, Hashable]: ...
@unlimited_digits()
def load(path: str | os.PathLike[str], *, game: Game[S, A] | None = None, check: bool = True,
         max_states: int = DEFAULT_MAX_STATES) -> Solution[S, A] | Solution[Hashable, Hashable]:
    """Read a solution written by :func:`save`, rebuild its game and re-check it.

    Parameters
    ----------
    path : str or path-like
    game : object, optional
        The game, for a solution of a game outside the catalog (or to override).
    check : bool
        Re-verify the certificate exactly (default). ``False`` still checks the graph
        hash and every row against the rebuilt game.

    Returns
    -------
    Solution
        With ``method`` saying where it came from and ``game`` the rebuilt game.

    Raises
    ------
    SolutionFileError
        Unreadable, truncated or edited file, wrong format version, or a game that does
        not match the file (hash, state count, a state, an action).
    TamperedSolutionError, NonStoppingGameError
        If the certificate fails (``check=True``).
    """
    t0 = time.perf_counter()
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise _fail(path, f"cannot read: {exc.strerror or exc}") from exc
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(path, f"not valid JSON (truncated or edited?): {exc}") from exc
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise _fail(path, f"not a tbsg solution file (no \"format\": {FORMAT!r})")
    version = _get(doc, "format_version", int, path, "")
    if version != FORMAT_VERSION:
        raise _fail(path, f"format_version {version} is not supported (this tbsg reads {FORMAT_VERSION})")
    the_game: Game[Any, Any] = _rebuild_game(doc, path) if game is None else game
    g: CompiledGame[Any, Any] = compile_game(the_game, max_states=max_states)
    graph = _get(doc, "graph", dict, path, "")
    digest = _get(graph, "sha256", str, path, "graph ")
    if digest != graph_hash(g):
        raise _fail(path, f"graph hash differs: the file is for another game, other parameters "
                          f"or another version of the game's rules ({g.n_states} states now, "
                          f"{graph.get('states')} in the file)")
    rows = _get(doc, "states", list, path, "")
    if len(rows) != g.n_states:
        raise _fail(path, f"{len(rows)} state rows but the game has {g.n_states} states (truncated?)")
    act_ptr = g.act_ptr.tolist()
    values: list[Fraction] = []
    choice = np.empty(g.n_states, dtype=np.int64)
    for i, s in enumerate(g.states):
        row = rows[i]
        where = f"state row {i}"
        if _get(row, "state", str, path, f"{where}: ") != repr(s):
            raise _fail(path, f"{where} is {row['state']!r} but the game's state there is {s!r}")
        values.append(_rational(row.get("value"), path, f"{where} ({s!r})"))
        a = _get(row, "action", int, path, f"{where}: ")
        n_actions = act_ptr[i + 1] - act_ptr[i]
        if not 0 <= a < n_actions:
            raise _fail(path, f"{where} ({s!r}): action {a} out of range, the state has {n_actions}")
        k = act_ptr[i] + a
        if row.get("label") != repr(g.act_labels[k]):
            raise _fail(path, f"{where} ({s!r}): action {a} is {g.act_labels[k]!r}, "
                              f"the file says {row.get('label')}")
        choice[i] = k
    q = action_values_exact(g, values)
    v_at = [values[int(i)] for i in g.act_state.tolist()]
    optimal = np.array([qk == vk for qk, vk in zip(q, v_at, strict=True)], dtype=bool)
    raw_c = doc.get("infinite_play")
    c = None if raw_c is None else _rational(raw_c, path, "infinite_play")
    if c is not None:  # value-preserving is not enough where play can loop: keep safe switches
        optimal = switch_safe_actions(g, [bk.from_fraction(v) for v in values], choice, c, optimal)
    comps = decompose(g)
    method = f"{_get(doc, 'method', str, path, '')} (loaded from {os.fspath(path)})"
    sol: Solution[Any, Any] = Solution(
        graph=g, method=method, seconds=time.perf_counter() - t0, n_components=comps.count,
        largest_component=comps.largest, values_exact=[bk.from_fraction(v) for v in values],
        choice=choice, optimal=optimal, improvements=0, exact_solves=0, game=the_game,
        infinite_play=c)
    if check:
        verify(the_game, sol, max_states=max_states)
    return sol
