"""The SHA-256 fingerprint of a compiled game: what a saved file and a provenance name.

One definition serves :func:`tbsg.save` / :func:`tbsg.load` (the ``graph`` fields of a
solution file, see :mod:`tbsg.certify.persist`) and :meth:`tbsg.Solution.provenance`
(the hash a methods section quotes), so the two always agree.

The hash is taken over a canonical text of the compiled game: every state's ``repr`` and
mover, and each action's label, immediate payoff ``c_k`` (reward included), probability
of ending, successor probabilities and, when it is not 0, its reward on its own, in
enumeration order. A reward is named apart from ``c_k`` so that moving payoff between a
reward and a terminal changes the hash; a game without rewards has the text, and so the
hash, it would have if rewards did not exist. The *unordered* variant sorts states and
actions by ``repr`` first and names successors by ``repr``, so that a game whose action
order changed between runs (actions returned from a set) is told apart from another
game. States must have a deterministic ``repr``.

How the ordered text is built: it is a sequence of small pieces (a state's ``repr``, a
rational's text followed by its separator, a successor's number followed by ``:``), each
piece one of a few tables of texts written once (every distinct rational, every state
number, every distinct action object, once). The position of every piece in the text
follows from the compressed-sparse-row pointers alone (a state's block holds 3 pieces,
an action 4 besides its outcomes, an outcome 2), so one block of states is laid out by
numpy index arithmetic and filled by fancy indexing of object arrays, then joined once
and hashed: no Python loop per state, action or outcome, and no text is built twice.
Blocks of a bounded number of outcomes keep the pieces in memory small for any game.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from tbsg._util.digits import unlimited_digits
from tbsg.engine.compiled import CompiledGame

__all__ = ["graph_hash"]

_BLOCK = 1 << 18
"""Outcomes (at least; whole states) laid out and hashed at a time."""

Pieces = np.ndarray[Any, np.dtype[np.object_]]


def _texts(items: Sequence[str]) -> Pieces:
    """An object array of the given texts (``np.array`` would make fixed-width strings)."""
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


class _Tables:
    """The texts every piece of the ordered text is taken from, each written once."""

    def __init__(self, g: CompiledGame[Any, Any]) -> None:
        text = [str(x) for x in g.rationals]
        n = len(text)
        self.field = _texts([f"{t}\t" for t in text])  # c_k and s_k, each followed by a tab
        # an outcome's probability followed by ';', or by nothing when it is the action's last
        self.prob = _texts([f"{t};" for t in text] + text)
        self.n_rationals = n
        self.end = _texts([f"\tR{t}\n" if x else "\n" for t, x in zip(text, g.rationals, strict=True)])
        self.target = _texts([f"{i}:" for i in range(g.n_states)])
        self.state = _texts(g.state_texts())
        labels, self.label_code = g.label_texts()
        self.label = _texts([f"A\t{t}\t" for t in labels])
        movers = np.unique(g.player).tolist()
        self.mover_text = _texts([f"\t{p}\n" for p in movers])
        self.mover_code = np.searchsorted(np.asarray(movers), g.player)


def _block(g: CompiledGame[Any, Any], t: _Tables, s0: int, s1: int) -> str:
    """The ordered text of states ``s0 .. s1-1``."""
    ptr = g.act_ptr
    a0, a1 = int(ptr[s0]), int(ptr[s1])
    o0, o1 = int(g.out_ptr[a0]), int(g.out_ptr[a1])
    out_ptr = g.out_ptr[a0:a1 + 1].astype(np.int64) - o0
    act_ptr = ptr[s0:s1 + 1].astype(np.int64) - a0
    # first piece of each state (3 pieces per state before it, 4 per action, 2 per outcome)
    states = np.arange(s1 - s0, dtype=np.int64)
    at_state = 3 * states + 4 * act_ptr[:-1] + 2 * out_ptr[act_ptr[:-1]]
    pieces = np.empty(3 * (s1 - s0) + 4 * (a1 - a0) + 2 * (o1 - o0), dtype=object)
    pieces[at_state] = "S\t"
    pieces[at_state + 1] = t.state[s0:s1]
    pieces[at_state + 2] = t.mover_text[t.mover_code[s0:s1]]
    actions = np.arange(a1 - a0, dtype=np.int64)
    at_action = 3 * (g.act_state[a0:a1].astype(np.int64) - s0 + 1) + 4 * actions + 2 * out_ptr[:-1]
    pieces[at_action] = t.label[t.label_code[a0:a1]]
    pieces[at_action + 1] = t.field[g.act_code[a0:a1]]
    pieces[at_action + 2] = t.field[g.stop_code[a0:a1]]
    degree = np.diff(out_ptr)
    pieces[at_action + 3 + 2 * degree] = "\n" if g.reward_code is None else t.end[g.reward_code[a0:a1]]
    at_outcome = np.repeat(at_action + 3 - 2 * out_ptr[:-1], degree) + 2 * np.arange(o1 - o0, dtype=np.int64)
    last = np.zeros(o1 - o0, dtype=np.int64)
    last[out_ptr[1:][degree > 0] - 1] = t.n_rationals
    pieces[at_outcome] = t.target[g.out_target[o0:o1]]
    pieces[at_outcome + 1] = t.prob[g.out_code[o0:o1] + last]
    return "".join(pieces.tolist())


def _ordered(g: CompiledGame[Any, Any], h: Any) -> None:
    """Hash the ordered text of ``g`` into ``h``, a block of states at a time."""
    t = _Tables(g)
    starts = g.out_ptr[g.act_ptr]  # first outcome of each state (and the total, last)
    s0 = 0
    while s0 < g.n_states:
        s1 = int(np.searchsorted(starts, starts[s0] + _BLOCK, side="right")) - 1
        s1 = min(max(s1, s0 + 1), g.n_states)
        h.update(_block(g, t, s0, s1).encode())
        s0 = s1


def _unordered_lines(g: CompiledGame[Any, Any], name: Sequence[str]) -> list[str]:
    """The ``A`` line of every flat action, successors named by ``repr`` and sorted."""
    text = [str(x) for x in g.rationals]
    outs = [f"{name[t]}:{text[c]}" for t, c in zip(g.out_target.tolist(), g.out_code.tolist(), strict=True)]
    succ = [";".join(sorted(outs[a:b])) for a, b in itertools.pairwise(g.out_ptr.tolist())]
    if g.reward_code is None:
        rewards = [""] * g.n_actions
    else:
        nonzero = [f"\tR{t}" if x else "" for t, x in zip(text, g.rationals, strict=True)]
        rewards = [nonzero[c] for c in g.reward_code.tolist()]
    labels, code = g.label_texts()
    return [f"A\t{labels[a]}\t{text[c]}\t{text[p]}\t{o}{r}\n"
            for a, c, p, o, r in zip(code.tolist(), g.act_code.tolist(), g.stop_code.tolist(), succ,
                                     rewards, strict=True)]


def _unordered(g: CompiledGame[Any, Any], h: Any) -> None:
    """Hash the unordered text of ``g`` into ``h``: states and each state's lines sorted."""
    reprs = g.state_texts()
    lines = _unordered_lines(g, reprs)
    ptr, player = g.act_ptr.tolist(), g.player.tolist()
    chunk: list[str] = []
    for i in sorted(range(g.n_states), key=reprs.__getitem__):
        chunk.append(f"S\t{reprs[i]}\t{player[i]}\n")
        chunk.extend(sorted(lines[ptr[i]:ptr[i + 1]]))
        if len(chunk) >= _BLOCK:
            h.update("".join(chunk).encode())
            chunk = []
    h.update("".join(chunk).encode())


@unlimited_digits()
def graph_hash(g: CompiledGame[Any, Any], *, ordered: bool = True) -> str:
    """SHA-256 (hex) of the canonical text of a compiled game (see the module docstring).

    ``ordered=False``: states and actions sorted by ``repr`` and successors named by
    ``repr``, so the hash does not depend on the order in which the game lists them.
    """
    h = hashlib.sha256(b"tbsg-graph-v1\n" if ordered else b"tbsg-graph-unordered-v1\n")
    (_ordered if ordered else _unordered)(g, h)
    return h.hexdigest()
