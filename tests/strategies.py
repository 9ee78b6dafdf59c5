"""Hypothesis strategies shared by the property tests: small random stochastic games.

:class:`TableGame` is a generic game given by tables (states are the ints ``0 .. n-1``,
``0`` is the initial state); :func:`stopping_games` draws games that are stopping by
construction and :func:`any_games` draws games that may or may not be stopping.

How :func:`stopping_games` guarantees that play ends with probability 1 under every
strategy profile: each action either

* carries positive terminal probability ("cycle" actions: their other outcomes may go to
  any state, including the state itself), or
* only moves *forward*, to states with a larger number or to terminals ("forward"
  actions, possibly with no terminal mass at all).

An end component needs a set of states closed under actions with no terminal mass; those
are forward actions only, and forward edges form a DAG, so no end component exists.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from tbsg import DRAW, Terminal, win

Action = Hashable
Successor = int | Terminal
Outcome = tuple[Fraction, Successor]

#: tiny probabilities that stress exact arithmetic and the float filter
TINY = (Fraction(1, 2**40), Fraction(1, 2**60), Fraction(1, 3**25), Fraction(1, 10**12 + 39))

#: action label sets (one is picked per game): strings or ints
LABELS: tuple[tuple[Action, ...], ...] = (("a", "b", "c"), (0, 1, 2), ("stop", "go", "wait"))


@dataclass(frozen=True)
class TableGame:
    """A turn-based stochastic game given by tables.

    Attributes
    ----------
    players : tuple of int
        ``players[s]`` moves at state ``s``.
    moves : tuple
        ``moves[s]`` is a tuple of ``(action label, outcomes)``; ``outcomes`` a tuple of
        ``(probability, successor)`` with successor an int state or a :class:`Terminal`.
    initial : int
        The initial state.
    """

    players: tuple[int, ...]
    moves: tuple[tuple[tuple[Action, tuple[Outcome, ...]], ...], ...]
    initial: int = 0

    @property
    def n(self) -> int:
        """Number of states in the tables (reachable or not)."""
        return len(self.players)

    def player(self, s: int) -> int:
        return self.players[s]

    def actions(self, s: int) -> tuple[Action, ...]:
        return tuple(label for label, _ in self.moves[s])

    def outcomes(self, s: int, a: Action) -> list[Outcome]:
        for label, outs in self.moves[s]:
            if label == a and type(label) is type(a):
                return list(outs)
        raise KeyError(f"no action {a!r} at state {s}")

    def reachable(self) -> list[int]:
        """States reachable from ``initial`` through positive-probability outcomes (BFS)."""
        seen = [self.initial]
        todo = [self.initial]
        while todo:
            s = todo.pop()
            for _, outs in self.moves[s]:
                for p, nxt in outs:
                    if p > 0 and not isinstance(nxt, Terminal) and nxt not in seen:
                        seen.append(nxt)
                        todo.append(nxt)
        return sorted(seen)


# --- building blocks ---------------------------------------------------------------------

#: payoff change far below float resolution near 1/2 (float(1/2 + NUDGE) == 0.5)
NUDGE = Fraction(1, 2**70)


def nudged(outs: tuple[Outcome, ...], delta: Fraction) -> tuple[Outcome, ...]:
    """``outs`` with the payoff of its first terminal moved by ``delta`` (kept in [0, 1])."""
    result = list(outs)
    for i, (p, nxt) in enumerate(result):
        if isinstance(nxt, Terminal):
            r = nxt.payoff + delta
            if not 0 <= r <= 1:
                r = nxt.payoff - delta
            result[i] = (p, Terminal(r))
            break
    return tuple(result)


def terminals() -> st.SearchStrategy[Terminal]:
    """win(0), win(1), DRAW or ``Terminal(k/m)`` with a small denominator."""
    fractional = st.integers(1, 7).flatmap(
        lambda m: st.integers(0, m).map(lambda k: Terminal(Fraction(k, m))))
    return st.one_of(st.sampled_from([win(0), win(1), DRAW]), fractional)


@st.composite
def distributions(draw: st.DrawFn, k: int, tiny: bool = True) -> list[Fraction]:
    """``k`` positive exact probabilities summing to 1; sometimes one of them is tiny."""
    weights = draw(st.lists(st.integers(1, 6), min_size=k, max_size=k))
    if tiny and k >= 2 and draw(st.integers(0, 3)) == 0:
        small: Fraction = draw(st.sampled_from(TINY))
        rest = sum(weights[1:])
        probs = [small] + [(1 - small) * Fraction(w, rest) for w in weights[1:]]
    else:
        total = sum(weights)
        probs = [Fraction(w, total) for w in weights]
    assert sum(probs) == 1 and all(p > 0 for p in probs)
    return probs


@st.composite
def _action_outcomes(draw: st.DrawFn, s: int, n: int, *, forward_only: bool,
                     force_terminal: bool, tiny: bool = True) -> tuple[Outcome, ...]:
    """Outcomes of one action of state ``s`` in a game with ``n`` states."""
    targets = list(range(s + 1, n)) if forward_only else list(range(n))
    n_term = draw(st.integers(1 if force_terminal or not targets else 0, 2))
    n_state = draw(st.integers(0 if n_term else 1, 3 if targets else 0))
    succ: list[Successor] = [draw(terminals()) for _ in range(n_term)]
    succ += [draw(st.sampled_from(targets)) for _ in range(n_state)]  # repeats allowed
    probs = draw(distributions(len(succ), tiny))
    order = draw(st.permutations(range(len(succ))))
    return tuple((probs[i], succ[i]) for i in order)


@st.composite
def stopping_games(draw: st.DrawFn, min_states: int = 2, max_states: int = 7,
                   max_actions: int = 3, max_profiles: int | None = None,
                   tiny: bool = True) -> TableGame:
    """A stopping game (see the module docstring for why it is stopping).

    ``max_profiles`` bounds the number of pure stationary profiles (the product of the
    action counts), for tests that enumerate them all. ``tiny=False`` leaves out the tiny
    probabilities (with them, value iteration may need ~2**40 sweeps).
    """
    n = draw(st.integers(min_states, max_states))
    players = tuple(draw(st.integers(0, 1)) for _ in range(n))
    labels = draw(st.sampled_from(LABELS))
    profiles = 1
    moves: list[tuple[tuple[Action, tuple[Outcome, ...]], ...]] = []
    for s in range(n):
        k = draw(st.integers(1, max_actions))
        if max_profiles is not None:
            k = max(1, min(k, max_profiles // profiles))
        profiles *= k
        acts: list[tuple[Action, tuple[Outcome, ...]]] = []
        for a in range(k):
            if acts and draw(st.integers(0, 4)) == 0:
                # a copy of an earlier action under a new label: an exact tie, or (nudged)
                # a near-tie closer than float resolution
                outs = draw(st.sampled_from([o for _, o in acts]))
                if draw(st.booleans()):
                    outs = nudged(outs, draw(st.sampled_from([NUDGE, -NUDGE])))
            else:
                forward = draw(st.booleans())
                outs = draw(_action_outcomes(s, n, forward_only=forward, force_terminal=not forward,
                                                  tiny=tiny))
            acts.append((labels[a], outs))
        moves.append(tuple(acts))
    return TableGame(players, tuple(moves))


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
def any_games(draw: st.DrawFn, max_states: int = 4, max_actions: int = 2) -> TableGame:
    """A small game that may or may not be stopping (no terminal mass is guaranteed)."""
    n = draw(st.integers(1, max_states))
    players = tuple(draw(st.integers(0, 1)) for _ in range(n))
    moves = []
    for s in range(n):
        k = draw(st.integers(1, max_actions))
        acts = tuple(
            (label, draw(_action_outcomes(s, n, forward_only=False, force_terminal=False)))
            for label in LABELS[0][:k])
        moves.append(acts)
    return TableGame(players, tuple(moves))


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
    total = sum((q for q, _ in broken), Fraction(0))
    return TableGame(game.players, moves, game.initial), s, label, total


def numpy_numbers(game: TableGame) -> TableGame:
    """``game`` with every probability and payoff rebuilt from numpy integers where they fit
    in int64, as ``Fraction(counts[i], counts.sum())`` builds them: ``Fraction`` s whose
    numerator and denominator stay ``numpy.int64`` (their arithmetic overflows silently),
    and probability 1 as a bare ``numpy.int64``."""
    import numpy as np

    limit = 2**62

    def num(x: Fraction) -> Any:
        if abs(x.numerator) >= limit or x.denominator >= limit:
            return x
        if x.denominator == 1:
            return np.int64(x.numerator)
        return Fraction(np.int64(x.numerator), np.int64(x.denominator))

    def succ(x: Successor) -> Successor:
        return Terminal(num(x.payoff)) if isinstance(x, Terminal) else x

    moves = tuple(tuple((label, tuple((num(p), succ(x)) for p, x in outs)) for label, outs in acts)
                  for acts in game.moves)
    return TableGame(game.players, moves, game.initial)
