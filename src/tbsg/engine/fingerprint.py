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
from typing import Any

from tbsg._util.digits import unlimited_digits
from tbsg.engine.compiled import CompiledGame

__all__ = ["graph_hash"]


def _state_lines(g: CompiledGame[Any, Any], i: int, name: list[str], ordered: bool) -> list[str]:
    act_ptr, out_ptr, target = g.act_ptr, g.out_ptr, g.out_target
    rewards = g.act_reward if g.has_rewards else None
    lines = []
    for k in range(int(act_ptr[i]), int(act_ptr[i + 1])):
        outs = [f"{name[int(target[o])]}:{g.out_prob[o]}"
                for o in range(int(out_ptr[k]), int(out_ptr[k + 1]))]
        if not ordered:
            outs.sort()
        reward = f"\tR{rewards[k]}" if rewards is not None and rewards[k] else ""
        lines.append(f"A\t{g.act_labels[k]!r}\t{g.act_const[k]}\t{g.act_stop[k]}\t{';'.join(outs)}"
                     f"{reward}\n")
    if not ordered:
        lines.sort()
    return [f"S\t{g.states[i]!r}\t{int(g.player[i])}\n", *lines]


@unlimited_digits()
def graph_hash(g: CompiledGame[Any, Any], *, ordered: bool = True) -> str:
    """SHA-256 (hex) of the canonical text of a compiled game (see the module docstring).

    ``ordered=False``: states and actions sorted by ``repr`` and successors named by
    ``repr``, so the hash does not depend on the order in which the game lists them.
    """
    h = hashlib.sha256(b"tbsg-graph-v1\n" if ordered else b"tbsg-graph-unordered-v1\n")
    names = [str(i) for i in range(g.n_states)] if ordered else [repr(s) for s in g.states]
    order = range(g.n_states) if ordered else sorted(range(g.n_states), key=names.__getitem__)
    for i in order:
        h.update("".join(_state_lines(g, i, names, ordered)).encode())
    return h.hexdigest()
