"""Boundary values: an exact solution that keeps only the values other components read.

Mathematics
-----------
Components are solved bottom-up (:mod:`tbsg.engine.exact`): inside component ``C``, with
the profile ``σ`` fixed, the values are the unique solution of

.. math:: v_C = b^{σ} + P^{σ}_{CC}\\, v_C, \\qquad
          b^{σ}_s = c_{σ(s)} + \\sum_{j \\notin C} p_{σ(s) j}\\, v(j),

so ``v_C`` is a function of the profile and of the values of the *boundary* states ``j``:
those that some action of another component reaches. Keeping the boundary values (and
the initial state's) and the profile is therefore keeping every value: any other is one
exact linear solve of its component away, and that solve returns the same rational as
the first (the system is non-singular in a stopping game, so its solution is unique).

Why
---
In games whose components are long (Pig: a component holds a pair of scores and every
turn total), the interior states are most of the states and their values most of the
memory: Pig to 100 keeps 19,405 of its 960,894 values, 2.6% of their digits. The exact solver
switches to this form when the interior values it holds pass a budget
(:func:`tbsg.engine.exact.solve_exact`), and :class:`BoundaryValues` answers for the
others on demand: a single value solves its component (a small cache keeps the last
few), a pass over all of them (:meth:`BoundaryValues.materialize`) solves each such
component once. Look-ups one by one that would cost more than such a pass (an order that
hops between components) make the sequence keep every value from then on.
"""

from __future__ import annotations

import operator
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar, overload

import numpy as np
import numpy.typing as npt

from tbsg.engine.compiled import CompiledGame
from tbsg.engine.graph import Components

__all__ = ["BoundaryValues", "as_list", "boundary_states"]

R = TypeVar("R")
BoolArray = npt.NDArray[np.bool_]

_CACHED = 16  # components whose recomputed values are kept for further look-ups


def boundary_states(g: CompiledGame[Any, Any], comps: Components) -> BoolArray:
    """The states whose values must be kept: those some action of another component
    reaches (any action, allowed or not: every action value can be asked for), and the
    initial state."""
    source = np.repeat(g.act_state, np.diff(g.out_ptr))
    crossing = comps.label[source] != comps.label[g.out_target]
    keep = np.zeros(g.n_states, dtype=bool)
    keep[g.out_target[crossing]] = True
    if g.n_states:
        keep[0] = True
    return keep


class BoundaryValues(Sequence[R]):
    """Every state's exact value, of which only the boundary values are stored.

    Parameters
    ----------
    values : list
        One entry per state: the exact value where ``kept`` is set, a placeholder
        elsewhere. The list is the evaluator's working list: :meth:`_solve` writes a
        component's values into it and puts the placeholders back.
    kept : ndarray of bool
        The states whose values are stored (at least :func:`boundary_states`).
    comps : Components
        The game's components.
    evaluate : callable
        ``evaluate(states)`` writes the exact values of the states not kept of one
        component (``states``: all of its states) into ``values``, reading only kept values.
    placeholder : object
        What ``values`` holds at a state that is not kept.
    """

    def __init__(self, values: list[R], kept: BoolArray, comps: Components,
                 evaluate: Callable[[list[int]], None], placeholder: R) -> None:
        self._values = values
        self._kept = kept
        self._kept_l: list[bool] = kept.tolist()
        self._comps = comps
        self._evaluate = evaluate
        self._placeholder = placeholder
        self._cache: OrderedDict[int, dict[int, R]] = OrderedDict()
        # look-ups that solved components for more states than one pass over all of them
        # would (values read one by one in an order that hops between components) keep
        # every value from then on: the cost stays within twice a pass
        self._every: list[R] | None = None
        self._solved = 0  # states of the components solved by look-ups (what they cost)
        self._size: list[int] = np.diff(comps.ptr).tolist()
        self._pass = sum(self._size[c] for c in np.unique(comps.label[~kept]).tolist())

    @property
    def n_kept(self) -> int:
        """How many values are stored (every one, once look-ups have asked for them all)."""
        return len(self._values) if self._every is not None else int(self._kept.sum())

    @property
    def kept(self) -> BoolArray:
        """The states whose values are stored (the mask given, read-only)."""
        view = self._kept.view()
        view.flags.writeable = False
        return view

    def kept_values(self) -> list[R]:
        """The stored values, in state order (what a saved file writes; nothing solved)."""
        values = self._values
        return [values[i] for i in np.flatnonzero(self._kept).tolist()]

    def __len__(self) -> int:
        return len(self._values)

    @overload
    def __getitem__(self, i: int) -> R: ...
    @overload
    def __getitem__(self, i: slice) -> list[R]: ...
    def __getitem__(self, i: int | slice) -> R | list[R]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        i = operator.index(i)
        n = len(self._values)
        if i < 0:
            i += n
        if not 0 <= i < n:  # as a list: -n - 1 and below are out of range too
            raise IndexError("BoundaryValues index out of range")
        if self._kept_l[i]:
            return self._values[i]
        if self._every is not None:
            return self._every[i]
        c = int(self._comps.label[i])
        found = self._cache.get(c)
        if found is None:
            found = self._solve(c)
            self._cache[c] = found
            if len(self._cache) > _CACHED:
                self._cache.popitem(last=False)
            self._solved += self._size[c]
            if self._solved > self._pass:
                self._every = self.materialize()
                self._cache.clear()
        else:
            self._cache.move_to_end(c)
        return found[i]

    def _solve(self, c: int) -> dict[int, R]:
        """The values of component ``c``'s states that are not kept, solved afresh."""
        states: list[int] = self._comps.states_of(c).tolist()
        self._evaluate(states)
        values, kept, hole = self._values, self._kept_l, self._placeholder
        out = {i: values[i] for i in states if not kept[i]}
        for i in out:
            values[i] = hole
        return out

    def materialize(self) -> list[R]:
        """Every value, as a new list: each component with values not kept solved once."""
        if self._every is not None:
            return list(self._every)
        out = list(self._values)
        label = self._comps.label
        for c in np.unique(label[~self._kept]).tolist():
            out_c = self._cache.get(c)
            for i, v in (out_c if out_c is not None else self._solve(c)).items():
                out[i] = v
        return out

    def __iter__(self) -> Iterator[R]:
        return iter(self.materialize())

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as the plain list of every value (the evaluator is not kept)."""
        return (list, (self.materialize(),))

    def __repr__(self) -> str:
        return f"<{len(self)} exact values, {self.n_kept} stored, the others recomputed on demand>"


def as_list(values: Sequence[R]) -> Sequence[R]:
    """``values`` itself, or every value in one list when only the boundary ones are
    stored (one pass, :meth:`BoundaryValues.materialize`): what a reader of every value
    should iterate."""
    return values.materialize() if isinstance(values, BoundaryValues) else values
