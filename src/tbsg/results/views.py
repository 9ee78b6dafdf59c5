"""Read-only views of a result: mappings over its states and sequences of its values.

A solution of a game of a million states must not copy a million values into a dict to
answer ``solution.values[state]``: these views hold the compiled graph and a function
of a state's index, and compute each entry when it is read. :func:`state_index` is the
one lookup of a state argument (the default :data:`~tbsg.results.query.INITIAL` is
index 0), shared by every result type, so that an unknown state gets the same kind of
error everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar, Generic, NoReturn, Protocol, TypeVar, overload

import numpy as np
import numpy.typing as npt

from tbsg.engine import _backend as bk
from tbsg.engine._backend import Rational
from tbsg.engine.compiled import CompiledGame
from tbsg.errors import InvalidGameError, TbsgError, UnknownStateError, show
from tbsg.results.query import INITIAL, Initial

__all__ = ["ExactValues", "FractionValues", "Getter", "Indexed", "OnGraph", "StateMap", "StatesOf",
           "state_index"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)
V = TypeVar("V")
V_co = TypeVar("V_co", covariant=True)


def state_index(index: Mapping[Any, int], state: object, unknown: Callable[[], str], *,
                unhashable: type[TbsgError] = InvalidGameError) -> int:
    """The index of a ``state`` argument: 0 for :data:`~tbsg.results.query.INITIAL`.

    Raises
    ------
    UnknownStateError
        ``state`` is not covered; ``unknown()`` is the message (built only then).
    InvalidGameError (or ``unhashable``)
        ``state`` is not hashable, or its ``__hash__`` or ``__eq__`` raised.
    """
    if state is INITIAL:
        return 0
    try:
        i = index.get(state)
    except TypeError as exc:
        raise unhashable(f"state {show(state)} is not hashable") from exc
    except Exception as exc:  # a user __hash__ or __eq__ that raises
        raise InvalidGameError(f"looking up state {show(state)} raised {type(exc).__name__}") from exc
    if i is None:
        _unknown(unknown)
    return i


def _unknown(message: Callable[[], str]) -> NoReturn:
    raise UnknownStateError(message())


class Indexed(Protocol[S]):
    """What a :class:`StateMap` reads of a compiled game (plain or parametric)."""

    @property
    def index(self) -> Mapping[S, int]: ...
    @property
    def states(self) -> Sequence[S]: ...
    @property
    def n_states(self) -> int: ...


class StatesOf(Generic[S]):
    """The state set of a result over the states of an indexed graph (``_over``): the
    queries ``initial``, ``states`` and ``n_states`` of :mod:`tbsg.results.query`."""

    @property
    def _over(self) -> Indexed[S]:
        raise NotImplementedError  # pragma: no cover - every result names its graph

    @property
    def initial(self) -> S:
        """The initial state."""
        return self._over.states[0]

    @property
    def states(self) -> list[S]:
        """Every state covered (those reachable from the initial state, or reached by a
        fixed profile), the initial one first (a copy)."""
        return list(self._over.states)

    @property
    def n_states(self) -> int:
        """Number of states covered (non-terminal)."""
        return self._over.n_states


class OnGraph(StatesOf[S], Generic[S, A]):
    """The queries of a result over a compiled game that plays one action per state (a
    solution's strategy, a chain's profile): the state lookup, who moves, the action played
    and the strategy. ``_choice()`` holds each state's flat action."""

    graph: CompiledGame[S, A]
    _unhashable: ClassVar[type[TbsgError]] = InvalidGameError

    @property
    def _over(self) -> CompiledGame[S, A]:
        return self.graph

    def _choice(self) -> Sequence[int] | npt.NDArray[np.int64]:
        raise NotImplementedError  # pragma: no cover - every result names its actions

    def _unknown(self, state: object) -> str:
        raise NotImplementedError  # pragma: no cover - every result says what it covers

    def _index(self, state: S | Initial) -> int:
        if state is INITIAL:
            return 0
        try:
            i = self.graph.index.get(state)
        except Exception:  # unhashable, or a user __hash__ / __eq__ that raises: said below
            i = None
        if i is None:  # state_index raises the error that says why
            return state_index(self.graph.index, state, lambda: self._unknown(state),
                               unhashable=self._unhashable)
        return i

    def player(self, state: S | Initial = INITIAL) -> int:
        """Who moves at ``state``."""
        return int(self.graph.player[self._index(state)])

    def action(self, state: S | Initial = INITIAL) -> A:
        """The action played at ``state``."""
        return self.graph.act_labels[int(self._choice()[self._index(state)])]

    @property
    def strategy(self) -> Mapping[S, A]:
        """Mapping from every state to the action played there, :meth:`action`."""
        labels, choice = self.graph.act_labels, self._choice()
        return StateMap(self.graph, lambda i: labels[int(choice[i])], "strategy")


class StateMap(Mapping[S, V]):
    """Read-only mapping over every state of a result, computed on access (no dict copy)."""

    def __init__(self, graph: Indexed[S], get: Getter[V], what: str) -> None:
        self._g, self._get, self._what = graph, get, what

    def __getitem__(self, state: S) -> V:
        try:
            i = self._g.index.get(state)
        except TypeError:  # unhashable: not a state
            raise KeyError(state) from None
        if i is None:
            raise KeyError(state)
        return self._get(i)

    def __iter__(self) -> Iterator[S]:
        return iter(self._g.states)

    def __len__(self) -> int:
        return self._g.n_states

    def __repr__(self) -> str:
        return f"<{self._what} of {self._g.n_states} states>"


class Getter(Protocol[V_co]):  # a function of a state's index
    def __call__(self, i: int, /) -> V_co: ...


class FractionValues(Sequence[Fraction]):
    """The stored values of a :class:`tbsg.Solution`, seen as Fractions (converted on access, no copy).

    Compares equal to any sequence of equal numbers, e.g. a list of Fractions.
    """

    __hash__ = None  # type: ignore[assignment]  # mutable-looking like a list: unhashable

    def __init__(self, values: Sequence[Rational]) -> None:
        self.raw = values

    def __len__(self) -> int:
        return len(self.raw)

    @overload
    def __getitem__(self, i: int) -> Fraction: ...
    @overload
    def __getitem__(self, i: slice) -> list[Fraction]: ...
    def __getitem__(self, i: int | slice) -> Fraction | list[Fraction]:
        if isinstance(i, slice):
            return [bk.to_fraction(x) for x in self.raw[i]]
        return bk.to_fraction(self.raw[i])

    def __iter__(self) -> Iterator[Fraction]:
        return map(bk.to_fraction, self.raw)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FractionValues):
            other = other.raw
        if not isinstance(other, Sequence) or isinstance(other, str) or len(other) != len(self):
            return NotImplemented if not isinstance(other, Sequence) else False
        return all(x == y for x, y in zip(self.raw, other, strict=True))

    def __repr__(self) -> str:
        return f"<{len(self)} exact values (Fraction)>"


class ExactValues:
    """Descriptor of :attr:`tbsg.Solution.values_exact`.

    Stores what the solver (or a caller of ``Solution(...)`` / ``dataclasses.replace``)
    passes, in the exact backend's type, and hands out a :class:`FractionValues` view,
    so users never receive a backend number. ``_raw_values`` is the stored list, for the
    library's own fast paths (the certificate, which skips a gcd for GMP values).
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self._slot = f"_{name}"

    def __get__(self, obj: object | None, owner: type | None = None) -> Sequence[Fraction]:
        if obj is None:  # the dataclass asks for a default: there is none
            raise AttributeError(self._slot)
        return FractionValues(obj.__dict__[self._slot])

    def __set__(self, obj: object, value: Sequence[Rational]) -> None:
        obj.__dict__[self._slot] = value.raw if isinstance(value, FractionValues) else value

