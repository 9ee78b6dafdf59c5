"""The compiled game: a game's reachable states as arrays, the only form solvers see.

States are numbered ``0 .. n-1`` (``0`` the initial state) and actions ``0 .. m-1`` in
state order, in compressed-sparse-row form: the actions of state ``i`` are
``act_ptr[i]:act_ptr[i+1]``, the outcomes of action ``k`` are ``out_ptr[k]:out_ptr[k+1]``,
each a probability and a successor state. Outcomes that end play are folded, with the
action's reward ``w_k`` (:mod:`tbsg.model.protocol`; 0 for most games), into two numbers
per action: ``c_k = w_k + sum p(t) r(t)`` (expected immediate payoff, ``act_const``) and
``s_k = sum p(t)`` (probability of ending now, ``act_stop``), so the Bellman operator reads

.. math:: Q(k) = c_k + \\sum_{o} p_o\\, v(t_o), \\qquad v(i) = \\operatorname{opt}_{k \\in A(i)} Q(k).

The solvers read ``c_k`` alone: a reward costs them nothing. The reward is also kept on
its own (``reward_code``, ``act_reward``) for the code that needs the terminal part
``c_k - w_k`` by itself (the distribution of the terminal reached) or the rewards
themselves (the stopping rule for reward games, the fingerprint, the certificate).
``win_probability`` records whether the game is a win-probability game (every reward 0,
every terminal payoff in [0, 1]), which decides player 1's view and the labels.

Every number is *interned*: the distinct rationals of a game are stored once, in
``rationals``, and each action and outcome holds an integer code into that table
(``act_code``, ``stop_code``, ``out_code``). Per-value work (conversion to float or to
the exact backend, tests for zero) is then done once per distinct value, and a game
of a million states with a handful of distinct probabilities stores 8 bytes per
outcome. :func:`tbsg.engine.compile.compile_game` builds the table while enumerating;
games derived inside the engine (perturbed games, quotients, restricted chains) go
through :meth:`CompiledGame.from_values` or :meth:`CompiledGame.derive`, which intern
in the same way, so there is a single representation and no second code path.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any, Generic, TypeVar, overload

import numpy as np
import numpy.typing as npt

from tbsg.errors import UnsupportedError

__all__ = ["CompiledGame", "IndexArray", "Interner"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

IntArray = npt.NDArray[np.int64]
IndexArray = npt.NDArray[np.signedinteger[Any]]
"""Array of state, action or outcome numbers or codes: int32, or int64 past ``2**31``."""
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


class Interner:
    """Table of distinct rationals: one shared ``Fraction`` and one integer code per value.

    ``values[0]`` is always 0.
    """

    __slots__ = ("by_value", "values")

    def __init__(self, values: Sequence[Fraction] = ()) -> None:
        self.values: list[Fraction] = []
        self.by_value: dict[tuple[int, int], int] = {}
        self.code(Fraction(0))
        for x in values:
            self.code(x)

    def code(self, x: Fraction) -> int:
        """Code of ``x`` (added to the table if new)."""
        key = (x.numerator, x.denominator)
        c = self.by_value.get(key)
        if c is None:
            c = self.by_value[key] = len(self.values)
            self.values.append(x)
        return c

    def codes(self, xs: Sequence[Fraction]) -> IntArray:
        """Codes of a sequence of values, memoised by object identity (values repeat)."""
        memo: dict[int, int] = {}
        out = np.empty(len(xs), dtype=np.int64)
        code = self.code
        for i, x in enumerate(xs):
            c = memo.get(id(x))
            if c is None:
                c = memo[id(x)] = code(x)
            out[i] = c
        return out


class _Decoded(Sequence[Fraction]):
    """Read-only sequence of the table values named by a sequence of codes (no copies)."""

    __slots__ = ("_codes", "_values")

    def __init__(self, values: list[Fraction], codes: Sequence[int]) -> None:
        self._values = values
        self._codes = codes

    def __len__(self) -> int:
        return len(self._codes)

    @overload
    def __getitem__(self, k: int) -> Fraction: ...

    @overload
    def __getitem__(self, k: slice) -> list[Fraction]: ...

    def __getitem__(self, k: int | slice) -> Fraction | list[Fraction]:
        if isinstance(k, slice):
            return [self._values[c] for c in self._codes[k]]
        return self._values[self._codes[k]]

    def __iter__(self) -> Iterator[Fraction]:
        return map(self._values.__getitem__, self._codes)

    def __repr__(self) -> str:
        return f"_Decoded({list(self)!r})"


@dataclass(frozen=True, eq=False)
class CompiledGame(Generic[S, A]):
    """A game as arrays. Solvers work on this, never on the user's object.

    Attributes
    ----------
    states : list
        State objects, indexed by state number; ``states[0]`` is the initial state.
    index : dict
        Inverse of ``states``.
    player : ndarray of int8
        Owner of each state.
    act_ptr : ndarray of int64, length ``n_states + 1``
        Actions of state ``i`` are the flat action numbers ``act_ptr[i]:act_ptr[i+1]``.
    act_labels : list
        The user's action object of each flat action number.
    act_state : ndarray of int64
        State each flat action belongs to.
    out_ptr : ndarray of int64, length ``n_actions + 1``
        Outcomes of action ``k`` are ``out_ptr[k]:out_ptr[k+1]``.
    out_target : ndarray of int64
        Successor state of each outcome.
    rationals : list of Fraction
        The distinct probabilities and terminal constants, each once; ``rationals[0] == 0``.
    act_code, stop_code, out_code : ndarray of int64
        Index into ``rationals`` of each action's ``c_k``, each action's ``s_k`` and each
        outcome's probability.
    reward_code : ndarray of int64 or None
        Index into ``rationals`` of each action's reward ``w_k`` (included in ``c_k``);
        None when every reward is 0.
    win_probability : bool
        Every reward is 0 and every terminal payoff lies in [0, 1] (see
        :mod:`tbsg.model.protocol`).
    """

    states: list[S]
    index: dict[S, int]
    player: npt.NDArray[np.int8]
    act_ptr: IndexArray
    act_labels: list[A]
    act_state: IndexArray
    out_ptr: IndexArray
    out_target: IndexArray
    rationals: list[Fraction]
    act_code: IndexArray
    stop_code: IndexArray
    out_code: IndexArray
    reward_code: IndexArray | None = None
    win_probability: bool = True

    # -- constructors for derived games --------------------------------------------------
    @classmethod
    def from_values(cls, states: list[S], index: dict[S, int], player: npt.NDArray[np.int8],
                    act_ptr: IndexArray, act_labels: list[A], out_ptr: IndexArray,
                    out_target: IndexArray,
                    act_const: Sequence[Fraction], act_stop: Sequence[Fraction],
                    out_prob: Sequence[Fraction], act_reward: Sequence[Fraction] | None = None,
                    win_probability: bool | None = None) -> CompiledGame[S, A]:
        """A compiled game from plain sequences of ``Fraction`` (interned here).

        ``act_const`` includes the rewards; ``act_reward`` (None: all 0) repeats them on
        their own. ``win_probability`` None: inferred, True when no reward is kept and
        ``0 <= c_k <= s_k`` for every action (every expected terminal payoff is a
        probability-weighted average of payoffs in [0, 1], so every value lies in [0, 1]:
        what the float filter of :mod:`tbsg.engine.bellman` needs to know of a derived game).
        """
        if win_probability is None:
            win_probability = (act_reward is None or not any(act_reward)) and all(
                0 <= c <= s for c, s in zip(act_const, act_stop, strict=True))
        table = Interner()
        act_state = np.repeat(np.arange(len(states), dtype=np.int64), np.diff(act_ptr))
        rewards = None if act_reward is None or not any(act_reward) else table.codes(act_reward)
        return cls(states=states, index=index, player=player, act_ptr=act_ptr,
                   act_labels=act_labels, act_state=act_state, out_ptr=out_ptr,
                   out_target=out_target, rationals=table.values,
                   act_code=table.codes(act_const), stop_code=table.codes(act_stop),
                   out_code=table.codes(out_prob), reward_code=rewards,
                   win_probability=win_probability)

    def derive(self, act_const: Sequence[Fraction], act_stop: Sequence[Fraction],
               out_prob: Sequence[Fraction], keep: BoolArray | None = None,
               act_reward: Sequence[Fraction] | None = None,
               win_probability: bool | None = None) -> CompiledGame[S, A]:
        """The same states and actions with new numbers (``keep``: outcomes to keep).

        ``out_prob`` is indexed like this game's outcomes; outcomes outside ``keep`` are
        dropped (their mass must have moved into ``act_const``/``act_stop``).
        ``act_reward``: the derived game's rewards on their own, when its caller keeps
        them apart (None: not kept; ``act_const`` carries them either way);
        ``win_probability`` as in :meth:`from_values` (None: inferred from the numbers).
        """
        out_ptr, target, probs = self.out_ptr, self.out_target, out_prob
        if keep is not None:
            counts = np.bincount(self.out_action()[keep], minlength=self.n_actions)
            out_ptr = np.zeros(self.n_actions + 1, dtype=np.int64)
            np.cumsum(counts, out=out_ptr[1:])
            target = self.out_target[keep]
            probs = [p for p, k in zip(out_prob, keep.tolist(), strict=True) if k]
        return CompiledGame.from_values(self.states, self.index, self.player, self.act_ptr,
                                        self.act_labels, out_ptr, target, act_const, act_stop,
                                        probs, act_reward, win_probability)

    # -- sizes and lookups ---------------------------------------------------------------
    @property
    def n_states(self) -> int:
        """Number of reachable non-terminal states."""
        return len(self.states)

    @property
    def n_actions(self) -> int:
        """Number of (state, action) pairs."""
        return len(self.act_labels)

    def actions_of(self, i: int) -> range:
        """Flat action numbers of state ``i``."""
        return range(int(self.act_ptr[i]), int(self.act_ptr[i + 1]))

    def action_index(self, i: int, action: object) -> int | None:
        """Flat action number of ``action`` at state ``i`` (matched with ``==``), or None.

        A comparison that raises (a user ``__eq__`` meeting a foreign object) counts as
        "not equal": the compiler has checked that the game's own actions compare.
        """
        for k in self.actions_of(i):
            try:
                if self.act_labels[k] == action:
                    return k
            except Exception:
                continue
        return None

    # -- exact numbers, decoded lazily ---------------------------------------------------
    @cached_property
    def act_const(self) -> Sequence[Fraction]:
        """``c_k``: expected terminal payoff of each action (read-only)."""
        return _Decoded(self.rationals, self.act_code.tolist())

    @cached_property
    def act_stop(self) -> Sequence[Fraction]:
        """``s_k``: probability that each action ends play (read-only)."""
        return _Decoded(self.rationals, self.stop_code.tolist())

    @cached_property
    def act_reward(self) -> Sequence[Fraction]:
        """``w_k``: the reward of each action, included in ``act_const`` (read-only)."""
        if self.reward_code is None:
            return _Decoded(self.rationals, [0] * self.n_actions)
        return _Decoded(self.rationals, self.reward_code.tolist())

    @property
    def has_rewards(self) -> bool:
        """Some action pays a nonzero reward."""
        return self.reward_code is not None

    @cached_property
    def out_prob(self) -> Sequence[Fraction]:
        """Probability of each outcome (read-only)."""
        return _Decoded(self.rationals, self.out_code)  # type: ignore[arg-type]  # int64 codes

    # -- cached derived arrays (do not modify) -------------------------------------------
    @cached_property
    def _float_arrays(self) -> tuple[FloatArray, FloatArray]:
        table = self.float_table()
        return table[self.act_code], table[self.out_code]

    @cached_property
    def _float_table(self) -> FloatArray:
        try:
            return np.array([float(x) for x in self.rationals], dtype=np.float64)
        except OverflowError:
            raise _beyond_floats(self.rationals) from None

    @cached_property
    def _stop_mask(self) -> BoolArray:
        nonzero = np.array([x != 0 for x in self.rationals], dtype=bool)
        return nonzero[self.stop_code]

    @cached_property
    def _out_action(self) -> IntArray:
        # int32 when the numbers fit: one entry per outcome, the largest derived arrays
        kind = np.int32 if self.n_actions < 2**31 else np.int64
        out: IntArray = np.repeat(np.arange(self.n_actions, dtype=kind), np.diff(self.out_ptr))
        return out


    def out_action(self) -> IntArray:
        """Flat action number of each outcome (cached; do not modify)."""
        return self._out_action

    def out_source(self) -> IndexArray:
        """State each outcome leaves from (computed on each call, not cached: an array per
        outcome that the graph analysis needs only briefly)."""
        out: IndexArray = self.act_state[self._out_action]
        return out

    def stop_mask(self) -> BoolArray:
        """Actions that end play with positive probability (``act_stop != 0``; cached)."""
        return self._stop_mask

    def float_table(self) -> FloatArray:
        """:attr:`rationals` as float64, correctly rounded (cached; do not modify); an
        :class:`~tbsg.errors.UnsupportedError` if one is beyond the float range."""
        return self._float_table

    def float_arrays(self) -> tuple[FloatArray, FloatArray]:
        """``(act_const, out_prob)`` as float64 arrays (correctly rounded; cached)."""
        return self._float_arrays

    def degrees(self) -> IntArray:
        """Number of outcomes of each action (cached; do not modify)."""
        return self._degrees

    @cached_property
    def _degrees(self) -> IntArray:
        return np.diff(self.out_ptr)

    def state_texts(self) -> tuple[str, ...]:
        """The ``repr`` of every state, in state order (cached)."""
        return self._state_texts

    @cached_property
    def _state_texts(self) -> tuple[str, ...]:
        return tuple(map(repr, self.states))

    def label_texts(self) -> tuple[tuple[str, ...], IntArray]:
        """``(texts, code)``: the ``repr`` of each distinct action object and, for every flat
        action, the position of its label's text in ``texts`` (cached; do not modify).

        Action objects repeat (a game offers the same few labels everywhere), so each
        distinct object is written once: the text of action ``k`` is ``texts[code[k]]``.
        """
        return self._label_texts

    @cached_property
    def _label_texts(self) -> tuple[tuple[str, ...], IntArray]:
        ids = np.fromiter(map(id, self.act_labels), dtype=np.uint64, count=self.n_actions)
        _, first, code = np.unique(ids, return_index=True, return_inverse=True)
        labels = self.act_labels
        return tuple(repr(labels[k]) for k in first.tolist()), code.astype(np.int64)

    def __repr__(self) -> str:
        return (f"<CompiledGame: {self.n_states} states, {self.n_actions} actions, "
                f"{len(self.out_target)} outcomes, {len(self.rationals)} distinct rationals>")


def _beyond_floats(rationals: Sequence[Fraction]) -> UnsupportedError:
    """The error for a game whose numbers (an action's expected terminal payoff plus its
    reward) do not fit a float: the solvers' float filters and starting profiles need them."""
    big = max(rationals, key=lambda x: abs(x.numerator).bit_length() - x.denominator.bit_length())
    exponent = round((abs(big.numerator).bit_length() - big.denominator.bit_length()) * math.log10(2))
    return UnsupportedError(
        f"the game pays about {'-' if big < 0 else ''}10^{exponent} at one action (a terminal "
        f"payoff, or a reward plus the expected payoff), beyond the float range (about "
        f"1.8e308) that the solvers' float filters need; divide the game's payoffs and rewards "
        f"by a constant (the optimal strategies are the same)")

