"""Provenance of a result: what a methods section says about how a number was computed.

A published number needs its pedigree: the library and interpreter versions, the
arithmetic, the game, the method, the size of the state graph and a hash that identifies
it, the certificate's status and the time. :class:`Provenance` holds those fields and
prints them as lines of text; :meth:`tbsg.Solution.provenance` fills it in.

A certificate is reported only for the solution it was computed on: a
:class:`tbsg.Verification` records :func:`solution_digest`, a SHA-256 of everything
:func:`tbsg.verify` checks, and the solution's own digest must equal it.

A game is named by its parameters, never by its memory address. A game *carries its
parameters* when it reports them in one of two declared ways (:func:`game_parameters`):

* a ``parameters()`` method returning ``{name: value}``, the keyword arguments that
  rebuild it: ``type(game)(**game.parameters())`` is the same game;
* or being a dataclass, whose fields are its parameters (a frozen dataclass is the
  shortest way: ``@dataclass(frozen=True) class Duel: goal: int = 20``).

Why one pattern: provenance, :func:`tbsg.save` and :func:`tbsg.load`, the catalog and the
command line all need to say which game was solved and to rebuild it from a file, and
each would otherwise guess differently. A game with neither is still solved, saved and
verified (pass it to ``load``), but its provenance can only name its class.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Race:
...     goal: int = 20
>>> class Duel:
...     def __init__(self, goal=20): self.goal = goal
...     def parameters(self): return {"goal": self.goal}
>>> game_parameters(Race(5)), game_parameters(Duel(7)), game_parameters(object())
({'goal': 5}, {'goal': 7}, None)
>>> describe_game(Duel(7))
'Duel(goal=7)'
"""

from __future__ import annotations

import dataclasses
import hashlib
import pickle
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from tbsg._util.digits import fraction_text
from tbsg.engine._backend import Rational
from tbsg.engine.boundary import as_list
from tbsg.engine.compiled import CompiledGame
from tbsg.engine.integer_q import value_parts
from tbsg.errors import InvalidArgumentError, InvalidGameError, show
from tbsg.results.kind import SolutionKind

__all__ = ["Checked", "Provenance", "certificate_line", "describe_game", "game_parameters",
           "solution_digest"]


def game_parameters(game: object) -> dict[str, object] | None:
    """The parameters ``game`` reports: its ``parameters()``, else its dataclass fields.

    ``None`` for a game that reports none (see the module docstring for the pattern).

    Raises
    ------
    InvalidGameError
        If ``parameters()`` raises or returns anything but a mapping with ``str`` keys.
    """
    method = getattr(type(game), "parameters", None)
    if callable(method) and not isinstance(game, type):
        try:
            values = game.parameters()  # type: ignore[attr-defined]
        except Exception as exc:
            raise InvalidGameError(f"{type(game).__name__}.parameters() raised "
                                   f"{type(exc).__name__}: {show(str(exc), 200)}") from exc
        if not isinstance(values, Mapping) or not all(isinstance(k, str) for k in values):
            raise InvalidGameError(
                f"{type(game).__name__}.parameters() must return a mapping of parameter names "
                f"to values (the keyword arguments that rebuild the game), got {show(values, 80)}")
        return dict(values)
    if dataclasses.is_dataclass(game) and not isinstance(game, type):
        return {f.name: getattr(game, f.name) for f in dataclasses.fields(game)}
    return None


_ADDRESS = re.compile(r" (object )?at 0x[0-9a-fA-F]+>")


def describe_game(game: object, limit: int = 200) -> str:
    """The game as provenance names it: ``Class(name=value, ...)`` from its parameters.

    A dataclass is named by its ``repr``, a game with ``parameters()`` by its class and
    those; a game whose ``repr`` is a memory address (``<mod.Duel object at 0x...>``) by
    its class and a note that it reports no parameters, never by the address.
    """
    name = type(game).__name__
    if callable(getattr(type(game), "parameters", None)):
        try:
            values = game_parameters(game) or {}
        except InvalidGameError as exc:  # a description never fails: it says why
            return f"{name} (its parameters cannot be read: {exc})"
        return f"{name}({', '.join(f'{k}={show(v, 60)}' for k, v in values.items())})"
    text = show(game, limit)
    if _ADDRESS.search(text):
        return (f"{name} (its parameters are not recorded: give the class a parameters() method "
                "or make it a dataclass)")
    return text


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


def solution_digest(solution: _Digested, values: Sequence[Fraction] | None = None) -> str:
    """SHA-256 (hex) of everything :func:`tbsg.verify` checks of an exact solution.

    A :class:`tbsg.Verification` records it, so that :meth:`tbsg.Solution.provenance` reports a
    certificate only for the solution it was computed on (or one equal to it field for
    field), not for another one of the same size: the kind and rule for infinite play,
    the values, the chosen and the optimal actions, and the state graph (its arrays and
    numbers, and Python's ``hash`` of its states and actions, which the compiler checked
    to be stable: so a digest identifies a solution within one Python process, which is
    where a verification is used). The graph's numbers go in as hexadecimal text, the
    values as the pickle of their numerators' and denominators' Python ``int`` s (both
    linear time, no digit limit; pickle writes an ``int`` by its value alone, as
    little-endian bytes, so a value digests the same whatever type holds it).
    ``values``: the solution's values already read as ``Fraction`` s (by
    :func:`tbsg.verify`), equal one for one to its stored ones; they give the same digest
    without converting the stored values again.
    Raises whatever reading a malformed solution raises.
    """
    g = solution.graph
    h = hashlib.sha256(b"tbsg-solution-v1\n")
    c = solution.infinite_play
    rule = "none" if c is None else f"{int(c.numerator):x}/{int(c.denominator):x}"
    h.update(f"{solution.kind.value}\t{rule}\t{g.n_states}\t{g.n_actions}\n".encode())
    for name in ("player", "act_ptr", "act_state", "out_ptr", "out_target", "act_code", "stop_code",
                 "out_code"):
        h.update(_int_bytes(getattr(g, name)))
    if g.reward_code is not None:  # rewards on their own (a game without them digests as before)
        h.update(b"rewards\n" + _int_bytes(g.reward_code))
    h.update(_int_bytes(solution.choice))
    h.update(np.asarray(solution.optimal, dtype=np.bool_).tobytes())
    h.update(f"\n{hash(tuple(g.states))}\t{hash(tuple(g.act_labels))}\n".encode())
    numbers = g.rationals
    for start in range(0, len(numbers), _DIGEST_CHUNK):
        h.update(";".join(f"{int(x.numerator):x}/{int(x.denominator):x}"
                          for x in numbers[start:start + _DIGEST_CHUNK]).encode())
    h.update(b"\n")
    nums, dens = _value_parts(as_list(solution._raw_values) if values is None else values)
    for start in range(0, len(nums), _DIGEST_CHUNK):
        chunk = (nums[start:start + _DIGEST_CHUNK], dens[start:start + _DIGEST_CHUNK])
        h.update(pickle.dumps(chunk, protocol=_PICKLE_PROTOCOL))
    h.update(b"\n")
    return h.hexdigest()


_DIGEST_CHUNK = 4096  # numbers per update of the digest
_PICKLE_PROTOCOL = 5  # fixed, so that the bytes of a value never depend on the interpreter's default


def _int_bytes(column: object) -> bytes:
    """The integers of ``column`` as bytes, by value alone: a tag and int32 when they all
    fit (half the bytes to hash), else a tag and int64; the array's own dtype plays no part."""
    a = np.asarray(column)
    if a.dtype.kind in "iub" and a.dtype.itemsize <= 2 + 2 * (a.dtype.kind == "i"):
        # int8 to int32, uint8 and uint16, bool: all fit
        return b"i4" + a.astype(np.int32, copy=False).tobytes()
    wide = np.asarray(a, dtype=np.int64)
    if not len(wide) or (int(wide.min()) >= -2**31 and int(wide.max()) < 2**31):
        return b"i4" + wide.astype(np.int32, copy=False).tobytes()
    return b"i8" + wide.tobytes()


def _value_parts(values: Sequence[Any]) -> tuple[list[int], list[int]]:
    """Every state's numerator and denominator as Python ``int`` s, each value object
    shared by many states read once (:func:`~tbsg.engine.integer_q.value_parts`: the
    parts :func:`tbsg.verify` has read already, if it passes its values)."""
    nums, dens, inverse = value_parts(values)
    if inverse is None:
        return nums, dens
    order = inverse.tolist()
    return list(map(nums.__getitem__, order)), list(map(dens.__getitem__, order))


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
        The game solved, by its parameters (:func:`describe_game`; ``""`` if unknown).
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
    factory : str or None
        How the game was built, when it was built from a factory: the command line's
        ``GAME -p NAME=VALUE ...`` (a catalog name, ``module:factory`` or
        ``file.py:factory`` and the parameters it was given).
    win_probability : bool
        Whether the game is a win-probability game (:mod:`tbsg.model.protocol`): the value
        line says "value", else "expected payoff".
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
    factory: str | None = None
    win_probability: bool = True

    def lines(self) -> list[str]:
        """The lines of ``str(self)``."""
        exact = self.tol is None
        out = [f"tbsg {self.tbsg_version} (Python {self.python_version}); arithmetic: {self.arithmetic}",
               f"game: {self.game or '(not recorded)'} ({self.game_type})",
               *([f"built by: {self.factory}"] if self.factory else []),
               f"solution: {self.kind.value}; {self.method}"]
        if self.infinite_play is not None:
            out.append(f"never-ending play worth {self.infinite_play} to player 0")
        what = "value" if self.win_probability else "expected payoff"
        out.append(f"{what} to player 0 at the initial state: {self.value}")
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
                "converged": self.converged, "factory": self.factory,
                "win_probability": self.win_probability}


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
