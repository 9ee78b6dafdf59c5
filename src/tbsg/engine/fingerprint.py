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
"""

from __future__ import annotations

import hashlib
import itertools
from typing import Any

from tbsg._util.digits import unlimited_digits
from tbsg.engine.compiled import CompiledGame

__all__ = ["graph_hash"]


_CHUNK = 1 << 14  # states written per update of the hash


def _action_lines(g: CompiledGame[Any, Any], name: list[str], ordered: bool) -> list[str]:
    """The ``A`` line of every flat action. Each rational of the game's table is written
    once (``str``), then looked up by its code; the lines are built by joining strings."""
    text = [str(x) for x in g.rationals]
    outs = [f"{name[t]}:{text[c]}" for t, c in zip(g.out_target.tolist(), g.out_code.tolist(), strict=True)]
    ptr = g.out_ptr.tolist()
    if ordered:
        succ = [";".join(outs[a:b]) for a, b in itertools.pairwise(ptr)]
    else:
        succ = [";".join(sorted(outs[a:b])) for a, b in itertools.pairwise(ptr)]
    if g.reward_code is None:
        rewards = [""] * g.n_actions
    else:
        nonzero = [f"\tR{t}" if x else "" for t, x in zip(text, g.rationals, strict=True)]
        rewards = [nonzero[c] for c in g.reward_code.tolist()]
    return [f"A\t{a!r}\t{text[c]}\t{text[p]}\t{o}{r}\n"
            for a, c, p, o, r in zip(g.act_labels, g.act_code.tolist(), g.stop_code.tolist(), succ, rewards,
                                     strict=True)]


@unlimited_digits()
def graph_hash(g: CompiledGame[Any, Any], *, ordered: bool = True) -> str:
    """SHA-256 (hex) of the canonical text of a compiled game (see the module docstring).

    ``ordered=False``: states and actions sorted by ``repr`` and successors named by
    ``repr``, so the hash does not depend on the order in which the game lists them.
    """
    h = hashlib.sha256(b"tbsg-graph-v1\n" if ordered else b"tbsg-graph-unordered-v1\n")
    reprs = [repr(s) for s in g.states]
    names = [str(i) for i in range(g.n_states)] if ordered else reprs
    lines = _action_lines(g, names, ordered)
    ptr, player = g.act_ptr.tolist(), g.player.tolist()
    order = range(g.n_states) if ordered else sorted(range(g.n_states), key=names.__getitem__)
    chunk: list[str] = []
    for i in order:
        own = lines[ptr[i]:ptr[i + 1]]
        if not ordered:
            own.sort()
        chunk.append(f"S\t{reprs[i]}\t{player[i]}\n")
        chunk.extend(own)
        if len(chunk) >= _CHUNK:
            h.update("".join(chunk).encode())
            chunk = []
    h.update("".join(chunk).encode())
    return h.hexdigest()
