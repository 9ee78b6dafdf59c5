"""Provenance of a result: what a methods section says about how a number was computed.

A published number needs its pedigree: the library and interpreter versions, the
arithmetic, the game, the method, the size of the state graph and a hash that identifies
it, the certificate's status and the time. :class:`Provenance` holds those fields and
prints them as lines of text; :meth:`tbsg.Solution.provenance` fills it in.

A certificate is reported only for the solution it was computed on: a
:class:`tbsg.Verification` records :func:`solution_digest`, a SHA-256 of everything
:func:`tbsg.verify` checks, and the solution's own digest must equal it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from tbsg._util.digits import fraction_text
from tbsg.engine._backend import Rational
from tbsg.engine.compiled import CompiledGame
from tbsg.errors import InvalidArgumentError
from tbsg.results.kind import SolutionKind

__all__ = ["Checked", "Provenance", "certificate_line", "solution_digest"]


class _Digested(Protocol):
    """What :func:`solution_digest` reads of an exact solution."""

    @property
    def graph(self) -> CompiledGame[Any, Any]: ...
    @property
    def kind(self) -> SolutionKind: ...
    @property
    def infinite_play(self) -> Fraction | None: ...
    @property
    def choice(self) -> npt.NDArray[np.int64]: ...
    @property
    def optimal(self) -> npt.NDArray[np.bool_]: ...
    @property
    def _raw_values(self) -> Sequence[Rational]: ...
    @property
    def n_states(self) -> int: ...


class Checked(Protocol):
    """What :meth:`tbsg.Solution.provenance` reads from a :class:`tbsg.Verification`."""

    @property
    def states(self) -> int: ...
    @property
    def actions(self) -> int: ...
    @property
    def kind(self) -> SolutionKind: ...
    @property
    def infinite_play(self) -> Fraction | None: ...
    @property
    def solution_sha256(self) -> str: ...


def solution_digest(solution: _Digested) -> str:
    """SHA-256 (hex) of everything :func:`tbsg.verify` checks of an exact solution.

    A :class:`tbsg.Verification` records it, so that :meth:`tbsg.Solution.provenance` reports a
    certificate only for the solution it was computed on (or one equal to it field for
    field), not for another one of the same size: the kind and rule for infinite play,
    the values, the chosen and the optimal actions, and the state graph (its arrays and
    numbers, and Python's ``hash`` of its states and actions, which the compiler checked
    to be stable: so a digest identifies a solution within one Python process, which is
    where a verification is used). The numbers go in as hexadecimal text (linear time,
    no digit limit).
    Raises whatever reading a malformed solution raises.
    """
    g = solution.graph
    h = hashlib.sha256(b"tbsg-solution-v1\n")
    c = solution.infinite_play
    rule = "none" if c is None else f"{int(c.numerator):x}/{int(c.denominator):x}"
    h.update(f"{solution.kind.value}\t{rule}\t{g.n_states}\t{g.n_actions}\n".encode())
    for name in ("player", "act_ptr", "act_state", "out_ptr", "out_target", "act_code", "stop_code",
                 "out_code"):
        h.update(np.asarray(getattr(g, name), dtype=np.int64).tobytes())
    if g.reward_code is not None:  # rewards on their own (a game without them digests as before)
        h.update(b"rewards\n" + np.asarray(g.reward_code, dtype=np.int64).tobytes())
    h.update(np.asarray(solution.choice, dtype=np.int64).tobytes())
    h.update(np.asarray(solution.optimal, dtype=np.bool_).tobytes())
    h.update(f"\n{hash(tuple(g.states))}\t{hash(tuple(g.act_labels))}\n".encode())
    for numbers in (g.rationals, solution._raw_values):
        for start in range(0, len(numbers), _DIGEST_CHUNK):
            h.update(";".join(f"{int(x.numerator):x}/{int(x.denominator):x}"
                              for x in numbers[start:start + _DIGEST_CHUNK]).encode())
        h.update(b"\n")
    return h.hexdigest()


_DIGEST_CHUNK = 4096  # numbers formatted per update of the digest


@dataclass(frozen=True)
class Provenance:
    """What a methods section needs to say about a solution (:meth:`tbsg.Solution.provenance`).

    ``str(provenance)`` gives it as lines of text; :meth:`as_dict` as JSON-ready values.

    Attributes
    ----------
    tbsg_version, python_version : str
        The library and interpreter that computed it.
    arithmetic : str
        ``"exact rationals (gmpy2)"``, ``"exact rationals (fractions.Fraction)"`` or
        ``"float64 with proven bounds (outward rounding)"``.
    game : str
        ``repr`` of the game solved (shortened past 200 characters; ``""`` if unknown).
    game_type : str
        Its class, ``module.QualifiedName``.
    kind : SolutionKind
    method : str
        How it was computed, in words.
    value : str
        The value of the initial state to player 0 (exact: ``p/q ≈ decimal``, shortened
        past 30 characters as in every view of tbsg; float: ``in [lower, upper]``).
    states, actions, outcomes, components, largest_component : int
        The reachable state graph and its strongly connected components.
    graph_sha256 : str
        SHA-256 of the state graph, as :func:`tbsg.save` writes it (``graph.sha256``).
    seconds : float
        Wall time of the solve.
    infinite_play : Fraction or None
        Payoff of never-ending play, if the solution was computed with one.
    certificate : str or None
        ``str`` of the :class:`tbsg.Verification` passed to ``provenance()``; ``None``
        when no verification was given (an exact solution not re-checked here).
    tol, max_gap : float or None
        Float solutions: the requested and the largest proven gap.
    converged : bool or None
        Float solutions: whether every state reached ``tol``.
    """

    tbsg_version: str
    python_version: str
    arithmetic: str
    game: str
    game_type: str
    kind: SolutionKind
    method: str
    value: str
    states: int
    actions: int
    outcomes: int
    components: int
    largest_component: int
    graph_sha256: str
    seconds: float
    infinite_play: Fraction | None = None
    certificate: str | None = None
    tol: float | None = None
    max_gap: float | None = None
    converged: bool | None = None

    def lines(self) -> list[str]:
        """The lines of ``str(self)``."""
        exact = self.tol is None
        out = [f"tbsg {self.tbsg_version} (Python {self.python_version}); arithmetic: {self.arithmetic}",
               f"game: {self.game or '(not recorded)'} ({self.game_type})",
               f"solution: {self.kind.value}; {self.method}"]
        if self.infinite_play is not None:
            out.append(f"never-ending play worth {self.infinite_play} to player 0")
        out.append(f"value to player 0 at the initial state: {self.value}")
        if not exact:
            out.append(f"proven gap: at most {self.max_gap:.3g} in every state (tol {self.tol:.3g}"
                       f"{'' if self.converged else '; NOT reached'})")
        out += [f"state graph: {self.states} states, {self.actions} actions, {self.outcomes} outcomes; "
                f"{self.components} strongly connected components (largest {self.largest_component})",
                f"graph hash: sha256 {self.graph_sha256}"]
        if not exact:
            out.append("certificate: none to re-check (float bounds are proven as they are computed)")
        elif self.certificate is None:
            out.append("certificate: not re-checked here (tbsg.verify(game, solution) re-checks it "
                       "exactly; pass its result to provenance())")
        else:
            out.append(f"certificate: {self.certificate}")
        out.append(f"time: {self.seconds:.3g} s")
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def as_dict(self) -> dict[str, str | int | float | bool | None]:
        """The fields as JSON-ready values (``kind`` and ``infinite_play`` as strings)."""
        return {"tbsg_version": self.tbsg_version, "python_version": self.python_version,
                "arithmetic": self.arithmetic, "game": self.game, "game_type": self.game_type,
                "kind": self.kind.value, "method": self.method, "value": self.value,
                "states": self.states, "actions": self.actions, "outcomes": self.outcomes,
                "components": self.components, "largest_component": self.largest_component,
                "graph_sha256": self.graph_sha256, "seconds": self.seconds,
                "infinite_play": None if self.infinite_play is None else fraction_text(self.infinite_play),
                "certificate": self.certificate, "tol": self.tol, "max_gap": self.max_gap,
                "converged": self.converged}


def certificate_line(solution: _Digested, verification: Checked) -> str:
    """The certificate line of :class:`Provenance`: ``str(verification)``, once it is shown
    to be a verification of ``solution``.

    Raises
    ------
    InvalidArgumentError
        If ``verification`` is of another solution: other counts, kind or rule for
        infinite play, or another :func:`solution_digest`.
    """
    claimed = (verification.states, verification.actions, verification.kind, verification.infinite_play)
    mine = (solution.n_states, solution.graph.n_actions, solution.kind, solution.infinite_play)
    if claimed != mine:
        raise InvalidArgumentError(
            f"the verification is of another solution: it checked {claimed[0]} states, "
            f"{claimed[1]} actions ({claimed[2].value}, infinite play {claimed[3]}); this "
            f"solution has {mine[0]} states, {mine[1]} actions ({mine[2].value}, infinite "
            f"play {mine[3]})")
    try:
        digest = solution_digest(solution)
    except Exception:  # a malformed solution is no verified one
        digest = ""
    checked = getattr(verification, "solution_sha256", "")
    if not digest or checked != digest:
        recorded = f"{checked[:12]}…" if isinstance(checked, str) and checked else "none"
        own = f"{digest[:12]}…" if digest else "none: the solution is malformed"
        raise InvalidArgumentError(
            f"the verification is of another solution: it checked one of the same size "
            f"but with other values, actions or state graph (solution SHA-256 "
            f"{recorded}; this solution's: {own}); pass the result of "
            "tbsg.verify(game, solution) for this very solution")
    return str(verification)
