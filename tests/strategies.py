"""Hypothesis strategies shared by the property tests, built on :mod:`tbsg.testing`.

The random games, their class :class:`TableGame` and the building blocks (terminals,
distributions, near ties) live in :mod:`tbsg.testing.strategies`, the strategies users
get; this module only fixes the shapes tbsg's own property tests draw
(:func:`stopping_games`, :func:`any_games`) and adds the helpers that are about tbsg
itself: relabelling, broken probability sums, numpy numbers.

How :func:`stopping_games` guarantees that play ends with probability 1 under every
strategy profile is explained in :mod:`tbsg.testing.strategies`: every action either
has a terminal outcome ("cycle" actions, whose other outcomes may go anywhere) or only
moves forward (to larger state numbers or terminals), so no end component exists.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from hypothesis import strategies as st

from tbsg import DRAW, ArrayAction, ArrayOutcome, ArrayTransitions, Terminal, win
from tbsg.testing.strategies import (
    LABELS,
    NUDGE,
    TINY,
    Action,
    Outcome,
    TableGame,
    distributions,
    games,
    nudged,
    terminals,
)

__all__ = [
    "LABELS",
    "NUDGE",
    "TINY",
    "Action",
    "ArrayTableGame",
    "Outcome",
    "TableGame",
    "any_games",
    "array_games",
    "distributions",
    "nudged",
    "numpy_numbers",
    "parametric_games",
    "relabel",
    "relabellings",
    "stopping_games",
    "substituted",
    "terminals",
    "wrong_sums",
]

Successor = int | Terminal


def stopping_games(min_states: int = 2, max_states: int = 7, max_actions: int = 3,
                   max_profiles: int | None = None, tiny: bool = True) -> st.SearchStrategy[TableGame]:
    """A stopping game with any rational payoffs, exact ties and near ties below float
    resolution, and 1 to 5 outcomes per action.

    ``max_profiles`` bounds the number of pure stationary profiles (the product of the
    action counts), for tests that enumerate them all. ``tiny=False`` leaves out the tiny
    probabilities (with them, value iteration may need ~2**40 sweeps).
    """
    return games(states=(min_states, max_states), actions=(1, max_actions), outcomes=(1, 5),
                 payoffs="rational", ties=True, near_ties=True, tiny=tiny,
                 max_profiles=max_profiles)


def any_games(max_states: int = 4, max_actions: int = 2) -> st.SearchStrategy[TableGame]:
    """A small game that may or may not be stopping (no terminal mass is guaranteed)."""
    return games(states=(1, max_states), actions=(1, max_actions), outcomes=(1, 5),
                 stopping=False, payoffs="rational", ties=False, tiny=True)


def relabel(game: TableGame, perm: list[int], order: list[list[int]]) -> TableGame:
    """The same game with state ``s`` renamed ``perm[s]`` and state ``s``'s actions listed
    in the order ``order[s]`` (a permutation of its action positions)."""
    n = game.n
    inverse = [0] * n
    for s, t in enumerate(perm):
        inverse[t] = s

    def rename(outs: tuple[Outcome, ...]) -> tuple[Outcome, ...]:
        return tuple((p, perm[x] if isinstance(x, int) else x) for p, x in outs)

    players = tuple(game.players[inverse[t]] for t in range(n))
    moves = tuple(tuple((game.moves[inverse[t]][i][0], rename(game.moves[inverse[t]][i][1]))
                        for i in order[inverse[t]]) for t in range(n))
    return TableGame(players, moves, initial=perm[game.initial])


@st.composite
def relabellings(draw: st.DrawFn, game: TableGame) -> tuple[list[int], list[list[int]]]:
    """A random state renaming and action reordering for :func:`relabel`."""
    perm = draw(st.permutations(range(game.n)))
    order = [draw(st.permutations(range(len(game.moves[s])))) for s in range(game.n)]
    return list(perm), [list(o) for o in order]


@st.composite
def wrong_sums(draw: st.DrawFn, game: TableGame
               ) -> tuple[TableGame, int, Action, Fraction]:
    """``game`` with the probabilities of one action of a reachable state no longer
    summing to 1: ``(broken game, state, action, new total)``.

    One outcome's probability is scaled by a factor that is not 1 (by as little as
    ``1 + 2**-60``, so exact and float sums are told apart).
    """
    s = draw(st.sampled_from(game.reachable()))
    i = draw(st.integers(0, len(game.moves[s]) - 1))
    label, outs = game.moves[s][i]
    j = draw(st.integers(0, len(outs) - 1))
    factor = draw(st.sampled_from([Fraction(1, 2), Fraction(3, 2), Fraction(2),
                                   1 + Fraction(1, 2**60), 1 - Fraction(1, 3**30)]))
    p, nxt = outs[j]
    broken = (*outs[:j], (p * factor, nxt), *outs[j + 1:])
    acts = (*game.moves[s][:i], (label, broken), *game.moves[s][i + 1:])
    moves = (*game.moves[:s], acts, *game.moves[s + 1:])
    total = sum((Fraction(q) for q, _ in broken), Fraction(0))
    return TableGame(game.players, moves, game.initial), s, label, total


def numpy_numbers(game: TableGame) -> TableGame:
    """``game`` with every probability and payoff rebuilt from numpy integers where they fit
    in int64, as ``Fraction(counts[i], counts.sum())`` builds them: ``Fraction`` s whose
    numerator and denominator stay ``numpy.int64`` (their arithmetic overflows silently),
    and probability 1 as a bare ``numpy.int64``."""
    import numpy as np

    limit = 2**62

    def num(x: Fraction | int) -> Any:
        if abs(x.numerator) >= limit or x.denominator >= limit:
            return x
        if x.denominator == 1:
            return np.int64(x.numerator)
        # numpy parts on purpose (numbers.Rational at run time, not to the type checker)
        return Fraction(np.int64(x.numerator), np.int64(x.denominator))  # type: ignore[call-overload]

    def succ(x: Successor) -> Successor:
        return Terminal(num(x.payoff)) if isinstance(x, Terminal) else x

    moves = tuple(tuple((label, tuple((num(p), succ(x)) for p, x in outs)) for label, outs in acts)
                  for acts in game.moves)
    return TableGame(game.players, moves, game.initial)


# weights positive on the open interval (0, 1), some vanishing at an end: normalised, they
# give distributions whose probabilities are rational functions of p, positive on (0, 1)
_WEIGHTS = ("1", "p", "1 - p", "p**2", "(1 - p)**2", "p**3", "2 - p", "1 + p", "p*(1 - p)", "3*p + 1",
            "4*p**2")


@st.composite
def parametric_games(draw: st.DrawFn, symbol: Any, max_states: int = 4,
                     max_actions: int = 3) -> TableGame:
    """A stopping game whose probabilities are sympy rational functions of ``symbol``.

    Every action has a terminal outcome (so every profile stops, for every p in (0, 1));
    the probabilities are weights from a fixed list of polynomials positive on (0, 1),
    normalised, so each sums to 1 identically.
    """
    import sympy

    weights = [sympy.sympify(w, locals={"p": symbol}) for w in _WEIGHTS]
    n = draw(st.integers(1, max_states))
    players = tuple(draw(st.integers(0, 1)) for _ in range(n))
    pays = st.sampled_from([Terminal(0), Terminal(1), Terminal(Fraction(1, 2)), Terminal(Fraction(1, 3)),
                            Terminal(Fraction(3, 4))])
    moves = []
    for _ in range(n):
        acts = []
        for a in range(draw(st.integers(1, max_actions))):
            succ: list[Successor] = [draw(pays)]
            succ += draw(st.lists(st.one_of(st.integers(0, n - 1), pays), min_size=1, max_size=2))
            ws = [draw(st.sampled_from(weights)) for _ in succ]
            total = sum(ws)
            acts.append((LABELS[0][a], tuple(
                (sympy.cancel(w / total), t) for w, t in zip(ws, succ, strict=True))))
        moves.append(tuple(acts))
    return TableGame(players=players, moves=tuple(moves))


def substituted(game: TableGame, symbol: Any, x: Fraction) -> TableGame:
    """``game`` with ``symbol = x``: exact Fractions (sympy's substitution, not tbsg's)."""
    import sympy

    def number(prob: Any) -> Fraction:
        r = sympy.Rational(sympy.sympify(prob).subs(symbol, sympy.Rational(x.numerator, x.denominator)))
        return Fraction(int(r.p), int(r.q))

    moves = tuple(tuple((a, tuple((number(pr), t) for pr, t in outs)) for a, outs in acts)
                  for acts in game.moves)
    return TableGame(players=game.players, moves=moves, initial=game.initial)


# --- games offering the array form (tbsg.model.arrays) too --------------------------------------

Cell = tuple[int, int]
ArrayMove = tuple[str, tuple[tuple[Fraction, "Cell | Terminal"], ...]]
ARRAY_LABELS = ("x", "y", "z")  # every state lists its actions in this order
ARRAY_TERMINALS = (win(0), win(1), DRAW, Terminal(Fraction(1, 3)))


@dataclass(frozen=True)
class ArrayTableGame:
    """A game on the cells ``(i, j)`` of an ``h x w`` grid, given by tables, that offers
    both the plain protocol and the array form: the same rules twice.

    ``moves[i * w + j]`` lists the cell's actions (labels from ``ARRAY_LABELS``, in that
    order) with their outcomes ``(probability, cell or terminal)``; probabilities may be 0
    and successors may repeat (the compiler drops and merges them). The array form gives
    outcome position ``o`` of action ``x`` as one :class:`tbsg.ArrayOutcome` over all rows,
    with probability 0 where a cell's action has fewer outcomes.
    """

    shape: tuple[int, int]
    players: tuple[int, ...]
    moves: tuple[tuple[ArrayMove, ...], ...]

    initial: Cell = (0, 0)

    @property
    def array_shape(self) -> tuple[int, int]:
        return self.shape

    def _cell(self, s: Cell) -> int:
        return s[0] * self.shape[1] + s[1]

    def player(self, s: Cell) -> int:
        return self.players[self._cell(s)]

    def actions(self, s: Cell) -> tuple[str, ...]:
        return tuple(label for label, _ in self.moves[self._cell(s)])

    def outcomes(self, s: Cell, a: str) -> list[tuple[Fraction, Cell | Terminal]]:
        return next(list(outs) for label, outs in self.moves[self._cell(s)] if label == a)

    def array_transitions(self, states: npt.NDArray[np.int64]) -> ArrayTransitions:
        cells = states[:, 0] * self.shape[1] + states[:, 1]
        n_cells = len(self.moves)
        actions = []
        for label in ARRAY_LABELS:
            table = [dict(self.moves[c]).get(label) for c in range(n_cells)]
            if all(outs is None for outs in table):
                continue
            has = np.array([outs is not None for outs in table])
            outcomes = []
            for o in range(max(len(outs) for outs in table if outs is not None)):
                here = [outs[o] if outs is not None and o < len(outs) else None for outs in table]
                den = math.lcm(*(x[0].denominator for x in here if x is not None))
                num = np.array([0 if x is None else x[0].numerator * (den // x[0].denominator)
                                for x in here], dtype=np.int64)
                succ = np.array([x[1] if x is not None and not isinstance(x[1], Terminal) else (0, 0)
                                 for x in here], dtype=np.int64)
                term = np.array([ARRAY_TERMINALS.index(x[1]) if x is not None and isinstance(x[1], Terminal)
                                 else -1 for x in here], dtype=np.int64)
                outcomes.append(ArrayOutcome((num[cells], den), succ[cells], terminal=term[cells]))
            actions.append(ArrayAction(label, tuple(outcomes), allowed=None if has.all() else has[cells]))
        return ArrayTransitions(np.array(self.players)[cells], tuple(actions), ARRAY_TERMINALS)


@st.composite
def array_games(draw: st.DrawFn, max_side: int = 3) -> ArrayTableGame:
    """An :class:`ArrayTableGame` on at most ``max_side x max_side`` cells: 1 to 3
    actions per cell, 1 to 4 outcomes per action, zero probabilities and repeated
    successors; sometimes every denominator is ``2**60`` (sums beyond int64)."""
    h, w = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    big = draw(st.booleans())
    cells = st.tuples(st.integers(0, h - 1), st.integers(0, w - 1))
    players = tuple(draw(st.integers(0, 1)) for _ in range(h * w))
    moves = []
    for _ in range(h * w):
        labels = draw(st.lists(st.sampled_from(ARRAY_LABELS), min_size=1, max_size=3, unique=True))
        acts = []
        for label in sorted(labels, key=ARRAY_LABELS.index):
            k = draw(st.integers(1, 4))
            succ = [draw(st.one_of(cells, st.sampled_from(ARRAY_TERMINALS))) for _ in range(k)]
            if big:
                cuts = sorted(draw(st.lists(st.integers(0, 2**60), min_size=k - 1, max_size=k - 1)))
                edges = [0, *cuts, 2**60]
                probs = [Fraction(b - a, 2**60) for a, b in itertools.pairwise(edges)]
            else:
                weights = draw(st.lists(st.integers(0, 3), min_size=k, max_size=k).filter(any))
                probs = [Fraction(x, sum(weights)) for x in weights]
            acts.append((label, tuple(zip(probs, succ, strict=True))))
        moves.append(tuple(acts))
    return ArrayTableGame((h, w), players, tuple(moves))


@dataclass(frozen=True)
class SkewedArrayGame(ArrayTableGame):
    """An :class:`ArrayTableGame` whose array form differs from its plain protocol at the
    one cell ``wrong``: there the other player moves (``change == ("player",)``), or
    outcome ``o`` of action ``label`` leads to ``target`` instead (``("outcome", label,
    o, target)``, a cell or one of ``ARRAY_TERMINALS``). Everywhere else the two agree."""

    wrong: Cell = (0, 0)
    change: tuple[Any, ...] = ("player",)

    def array_transitions(self, states: npt.NDArray[np.int64]) -> ArrayTransitions:
        tr = super().array_transitions(states)
        here = (states[:, 0] == self.wrong[0]) & (states[:, 1] == self.wrong[1])
        if self.change[0] == "player":
            return dataclasses.replace(tr, player=np.where(here, 1 - tr.player, tr.player))
        _, label, o, target = self.change
        acts = []
        for act in tr.actions:
            if act.label == label:
                outs = list(act.outcomes)
                out = outs[o]
                assert out.successor is not None and out.terminal is not None
                if isinstance(target, Terminal):
                    term = np.where(here, ARRAY_TERMINALS.index(target), out.terminal)
                    succ = out.successor
                else:
                    term = np.where(here, -1, out.terminal)
                    succ = np.where(here[:, None], np.array(target, dtype=np.int64), out.successor)
                outs[o] = ArrayOutcome(out.probability, succ, terminal=term)
                act = dataclasses.replace(act, outcomes=tuple(outs))
            acts.append(act)
        return dataclasses.replace(tr, actions=tuple(acts))


@st.composite
def skewed(draw: st.DrawFn, game: ArrayTableGame, reachable: list[Cell]) -> SkewedArrayGame:
    """``game`` with its array form changed at one of the ``reachable`` cells: another
    player, or an outcome of positive probability sent to another cell or terminal."""
    cell = draw(st.sampled_from(reachable))
    h, w = game.shape
    changes: list[tuple[Any, ...]] = [("player",)]
    for label, outs in game.moves[cell[0] * w + cell[1]]:
        for o, (p, target) in enumerate(outs):
            if p > 0:
                others: list[Terminal | Cell] = [t for t in ARRAY_TERMINALS if t != target]
                others += [c for c in itertools.product(range(h), range(w)) if c != target]
                changes.append(("outcome", label, o, draw(st.sampled_from(others))))
    return SkewedArrayGame(game.shape, game.players, game.moves, game.initial, wrong=cell,
                           change=draw(st.sampled_from(changes)))
