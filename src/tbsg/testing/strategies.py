"""Hypothesis strategies for random games of a given shape, and the game class they return.

:class:`TableGame` is a game given by tables: states are the ints ``0 .. n-1`` (``0`` is
the initial state), actions are labels, and each action lists its ``(probability,
successor)`` outcomes with exact :class:`~fractions.Fraction` probabilities. It
implements the :class:`tbsg.Game` protocol, so it goes to :func:`tbsg.solve` like any
game of your own, and its ``repr`` is Python that rebuilds it (paste a falsifying
example into a regression test).

:func:`games` draws such games by shape: number of states, actions per state, outcomes
per action, whether play may return to an earlier state (cycles), the terminal payoffs
(win/lose, draws, any rational in [0, 1], or scores outside [0, 1]), whether moves pay
rewards (then a :class:`RewardTableGame`), and which players own states. Unless asked otherwise,
the games are **stopping** (play ends with probability 1 under every strategy profile,
so :func:`tbsg.solve` accepts them without ``infinite_play``). Every action is one of

* a *forward* action: its successors are terminals or states with a larger number; or
* a *cycle* action (only with ``cycles=True``): at least one outcome is a terminal, and
  the others may go to any state, the state itself included.

A set of states in which play can stay for ever needs actions without terminal
outcomes, hence forward actions only, and forward moves never return to a state: so no
such set exists and the game is stopping, whatever the players do.

Shrinking: every choice shrinks towards the simplest game (the least number of states,
actions and outcomes; a first terminal outcome that player 0 wins; equal weights; no
copied actions), so a failing property is reported on a small game.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, TypeAlias

from hypothesis import strategies as st

from tbsg.errors import InvalidArgumentError, InvalidGameError
from tbsg.model.protocol import DRAW, Probability, Terminal, win

__all__ = [
    "LABELS",
    "NUDGE",
    "SCORES",
    "TINY",
    "Action",
    "Outcome",
    "Payoffs",
    "RewardTableGame",
    "TableGame",
    "action_label",
    "distributions",
    "games",
    "nudged",
    "terminals",
]

Action: TypeAlias = Hashable
"""An action label of a :class:`TableGame` (a string or an int in drawn games)."""

Outcome: TypeAlias = tuple[Probability, int | Terminal]
"""``(probability, successor)``: the successor is a state number or a terminal."""

Payoffs: TypeAlias = Literal["win-lose", "draws", "rational", "score"]
"""Terminal payoffs of drawn games: ``{0, 1}``, ``{0, 1/2, 1}``, any rational ``k/m`` in
[0, 1], or those and scores outside [0, 1] (negative, or above 1)."""

#: Tiny probabilities (drawn with ``tiny=True``): they stress exact arithmetic, and make
#: value iteration need about ``2**40`` sweeps.
TINY = (Fraction(1, 2**40), Fraction(1, 2**60), Fraction(1, 3**25), Fraction(1, 10**12 + 39))

#: A payoff change far below float resolution near 1/2 (``float(1/2 + NUDGE) == 0.5``):
#: the near ties of ``near_ties=True``.
NUDGE = Fraction(1, 2**70)

#: The first action labels of each label family; each drawn game uses one family
#: (strings or ints), continued by :func:`action_label` past these.
LABELS: tuple[tuple[Action, ...], ...] = (("a", "b", "c"), (0, 1, 2), ("stop", "go", "wait"))


def action_label(family: int, i: int) -> Action:
    """The label of action ``i`` in label family ``family`` (an index into :data:`LABELS`).

    >>> [action_label(f, 4) for f in range(3)], action_label(0, 1)
    (['a4', 4, 'stop4'], 'b')
    """
    first = LABELS[family]
    if i < len(first):
        return first[i]
    return i if isinstance(first[0], int) else f"{first[0]}{i}"


@dataclass(frozen=True)
class TableGame:
    """A turn-based stochastic game given by tables (the games :func:`games` draws).

    Parameters
    ----------
    players : tuple of int
        ``players[s]`` moves at state ``s`` (0 or 1).
    moves : tuple
        ``moves[s]`` is a tuple of ``(action label, outcomes)`` pairs, ``outcomes`` a
        tuple of ``(probability, successor)`` with the successor a state number or a
        :class:`~tbsg.Terminal`. Probabilities are not checked here: :func:`tbsg.solve`
        checks them (so broken tables can test error messages).
    initial : int
        The initial state (0 by default).

    Examples
    --------
    State 0 (player 0) may stop for a draw or toss a coin: heads wins, tails passes to
    state 1, where player 1 tosses the same coin.

    >>> import tbsg
    >>> half = Fraction(1, 2)
    >>> game = TableGame(
    ...     players=(0, 1),
    ...     moves=((("stop", ((Fraction(1), tbsg.DRAW),)),
    ...             ("toss", ((half, tbsg.win(0)), (half, 1)))),
    ...            (("toss", ((half, tbsg.win(1)), (half, 0))),)))
    >>> game.actions(0), game.reachable()
    (('stop', 'toss'), [0, 1])
    >>> tbsg.solve(game).value()
    Fraction(2, 3)
    """

    players: tuple[int, ...]
    moves: tuple[tuple[tuple[Action, tuple[Outcome, ...]], ...], ...]
    initial: int = 0

    def __post_init__(self) -> None:
        if len(self.players) != len(self.moves):
            raise InvalidGameError(f"TableGame: {len(self.players)} players for {len(self.moves)} "
                                   "states; give one player and one tuple of moves per state")
        if not 0 <= self.initial < len(self.players):
            raise InvalidGameError(f"TableGame: initial state {self.initial!r} is not one of the "
                                   f"{len(self.players)} states 0 .. {len(self.players) - 1}")

    @property
    def n(self) -> int:
        """Number of states in the tables (reachable from ``initial`` or not)."""
        return len(self.players)

    def player(self, s: int) -> int:
        """Who moves at state ``s``."""
        return self.players[s]

    def actions(self, s: int) -> tuple[Action, ...]:
        """The action labels of state ``s``, in table order."""
        return tuple(label for label, _ in self.moves[s])

    def outcomes(self, s: int, a: Action) -> list[Outcome]:
        """The ``(probability, successor)`` pairs of action ``a`` at state ``s``."""
        for label, outs in self.moves[s]:
            if label == a and type(label) is type(a):
                return list(outs)
        raise KeyError(f"no action {a!r} at state {s}")

    def reachable(self) -> list[int]:
        """States reachable from ``initial`` through positive-probability outcomes, sorted."""
        seen = {self.initial}
        todo = [self.initial]
        while todo:
            s = todo.pop()
            for _, outs in self.moves[s]:
                for p, nxt in outs:
                    if p > 0 and not isinstance(nxt, Terminal) and nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
        return sorted(seen)


@dataclass(frozen=True)
class RewardTableGame(TableGame):
    """A :class:`TableGame` whose moves pay rewards: ``rewards[s][i]`` is paid to player 0
    when the ``i``-th action of state ``s`` is taken (:mod:`tbsg.model.protocol`).

    Examples
    --------
    Player 1 rolls a die until it shows a six, paying one point per roll (the expected
    number of rolls, 6, by the geometric law):

    >>> import tbsg
    >>> roll = ((Fraction(1, 6), tbsg.Terminal(0)), (Fraction(5, 6), 0))
    >>> game = RewardTableGame(players=(1,), moves=((("roll", roll),),), rewards=((1,),))
    >>> tbsg.solve(game).value()
    Fraction(6, 1)
    """

    rewards: tuple[tuple[Fraction | int, ...], ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        if len(self.rewards) != len(self.moves) or any(
                len(r) != len(m) for r, m in zip(self.rewards, self.moves, strict=True)):
            raise InvalidGameError("RewardTableGame: give one reward per action of every state")

    def reward(self, s: int, a: Action) -> Fraction | int:
        """The reward of action ``a`` at state ``s``."""
        for (label, _), w in zip(self.moves[s], self.rewards[s], strict=True):
            if label == a and type(label) is type(a):
                return w
        raise KeyError(f"no action {a!r} at state {s}")


# --- building blocks ---------------------------------------------------------------------

_PAYOFFS: tuple[Payoffs, ...] = ("win-lose", "draws", "rational", "score")


def terminals(payoffs: Payoffs = "rational") -> st.SearchStrategy[Terminal]:
    """Terminals: ``win(0)``, ``win(1)``, then ``DRAW``, then ``Terminal(k/m)`` (``m <= 7``).

    Parameters
    ----------
    payoffs : {"win-lose", "draws", "rational", "score"}
        Payoffs ``{0, 1}``, ``{0, 1/2, 1}``, or those and any ``k/m`` in [0, 1] with
        ``m <= 7``, or (``"score"``) those and :data:`SCORES`, outside [0, 1]. Shrinks
        towards ``win(0)``.

    Examples
    --------
    >>> from hypothesis import find
    >>> find(terminals(), lambda t: True)
    Terminal(payoff=Fraction(1, 1))
    """
    if payoffs not in _PAYOFFS:
        raise InvalidArgumentError(f"payoffs must be one of {_PAYOFFS}, got {payoffs!r}")
    return _TERMINALS[payoffs]


#: ``Terminal(k/m)`` for ``0 <= k <= m <= 7``, each value once, by denominator
_FRACTIONAL = tuple(Terminal(x) for x in sorted({Fraction(k, m) for m in range(1, 8)
                                                  for k in range(m + 1)},
                                                 key=lambda x: (x.denominator, x)))
#: Payoffs and rewards outside [0, 1] that ``payoffs="score"`` and ``rewards=True`` draw
SCORES = (Fraction(-1), Fraction(2), Fraction(-3, 2), Fraction(5, 3), Fraction(-7), Fraction(12),
          Fraction(-2, 7), Fraction(100, 3))
_TERMINALS: dict[str, st.SearchStrategy[Terminal]] = {
    "win-lose": st.sampled_from([win(0), win(1)]),
    "draws": st.sampled_from([win(0), win(1), DRAW]),
    "rational": st.sampled_from([win(0), win(1), DRAW, *_FRACTIONAL[3:]]),
    "score": st.sampled_from([win(0), win(1), DRAW, *_FRACTIONAL[3:12], *map(Terminal, SCORES)]),
}
_REWARDS = st.sampled_from([Fraction(0), Fraction(1), *(t.payoff for t in _FRACTIONAL[3:8]), *SCORES])


def distributions(k: int, *, tiny: bool = False) -> st.SearchStrategy[list[Fraction]]:
    """``k`` positive exact probabilities summing to 1 (integer weights 1..6, normalised).

    Parameters
    ----------
    k : int
        Number of probabilities (at least 1).
    tiny : bool
        With ``k >= 2``, sometimes make the first one tiny (one of :data:`TINY`).

    Examples
    --------
    >>> from hypothesis import find
    >>> find(distributions(3), lambda ps: True)
    [Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)]
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InvalidArgumentError(f"distributions: k must be a positive int, got {k!r}")
    return st.composite(lambda draw: _distribution(draw, k, tiny))()


# Strategies are built once and reused: building them inside every draw costs more than
# the draw.

@functools.cache
def _ints(least: int, most: int) -> st.SearchStrategy[int]:
    return st.integers(least, most)


@functools.cache
def _weights(k: int) -> st.SearchStrategy[list[int]]:
    return st.lists(_ints(1, 6), min_size=k, max_size=k)


_BOOLEANS = st.booleans()
_TINY = st.sampled_from(TINY)
_NUDGES = st.sampled_from([NUDGE, -NUDGE])


def _distribution(draw: st.DrawFn, k: int, tiny: bool) -> list[Fraction]:
    weights = draw(_weights(k))
    if tiny and k >= 2 and draw(_ints(0, 3)) == 3:
        small: Fraction = draw(_TINY)
        rest = sum(weights[1:])
        return [small] + [(1 - small) * Fraction(w, rest) for w in weights[1:]]
    total = sum(weights)
    return [Fraction(w, total) for w in weights]


def nudged(outs: tuple[Outcome, ...], delta: Fraction) -> tuple[Outcome, ...]:
    """``outs`` with the payoff of its first terminal moved by ``delta`` (kept in [0, 1]).

    Outcomes without a terminal are returned unchanged.

    >>> nudged(((Fraction(1), win(0)),), Fraction(1, 4))
    ((Fraction(1, 1), Terminal(payoff=Fraction(3, 4))),)
    """
    result = list(outs)
    for i, (p, nxt) in enumerate(result):
        if isinstance(nxt, Terminal):
            r = nxt.payoff + delta
            if not 0 <= r <= 1:
                r = nxt.payoff - delta
            result[i] = (p, Terminal(r))
            break
    return tuple(result)


# --- games -------------------------------------------------------------------------------

Range: TypeAlias = int | tuple[int, int]
"""A count, or an inclusive range ``(least, most)``."""


def _range(name: str, value: object, least: int) -> tuple[int, int]:
    if isinstance(value, int) and not isinstance(value, bool):
        lo = hi = value
    elif (isinstance(value, tuple) and len(value) == 2
          and all(isinstance(x, int) and not isinstance(x, bool) for x in value)):
        lo, hi = value
    else:
        raise InvalidArgumentError(f"{name} must be an int or a pair (least, most) of ints, "
                                   f"got {value!r}")
    if not least <= lo <= hi:
        raise InvalidArgumentError(f"{name} must satisfy {least} <= least <= most, got {value!r}")
    return lo, hi


@dataclass(frozen=True)
class _Shape:
    states: tuple[int, int]
    actions: tuple[int, int]
    outcomes: tuple[int, int]
    cycles: bool
    stopping: bool
    players: tuple[int, ...]
    ties: bool
    near_ties: bool
    tiny: bool
    max_profiles: int | None
    rewards: bool = False


def games(states: Range = (1, 5), actions: Range = (1, 3), outcomes: Range = (1, 3), *,
          cycles: bool = True, stopping: bool = True, payoffs: Payoffs = "rational",
          players: Sequence[int] = (0, 1), ties: bool = True, near_ties: bool = False,
          tiny: bool = False, max_profiles: int | None = None,
          rewards: bool = False) -> st.SearchStrategy[TableGame]:
    """Random games of a given shape, stopping unless asked otherwise.

    Parameters
    ----------
    states : int or (int, int)
        Number of states in the tables (at least 1). States are ``0 .. n-1`` and play
        starts at 0; states that cannot be reached from 0 are not part of the game that
        :func:`tbsg.solve` sees (``TableGame.reachable()`` lists the others).
    actions : int or (int, int)
        Actions per state (at least 1; a state with one action is a chance step).
    outcomes : int or (int, int)
        ``(probability, successor)`` pairs per action (at least 1). Successors are drawn
        independently, so one action may list the same successor twice (tbsg adds their
        probabilities).
    cycles : bool
        Whether play may return to a state it has visited (then some actions lead back,
        always together with a terminal outcome: see the module docstring). With
        ``False`` every successor is a terminal or a state with a larger number.
    stopping : bool
        ``True`` (default): play ends with probability 1 under every profile.
        ``False``: actions go anywhere with no terminal outcome guaranteed, so the game
        may have end components; solve those with ``infinite_play=`` (or expect
        :class:`tbsg.NonStoppingGameError`). Needs ``cycles=True``.
    payoffs : {"rational", "draws", "win-lose", "score"}
        Terminal payoffs: any rational ``k/m`` with ``m <= 7`` and ``0, 1/2, 1``
        (default); ``0, 1/2, 1`` only (draws); ``0`` and ``1`` only; or (``"score"``)
        payoffs outside [0, 1] too (:data:`SCORES`).
    players : sequence of int
        The players who may own states: ``(0, 1)`` (default), or ``(0,)`` / ``(1,)`` for
        one-player games (Markov decision processes).
    ties : bool
        Sometimes make an action a copy of an earlier one under a new label: an exact tie
        (both are optimal, and :meth:`tbsg.Solution.optimal_actions` must list both).
    near_ties : bool
        Sometimes make the copy differ by :data:`NUDGE` (``2**-70``) in one terminal
        payoff: a tie that floats cannot break and exact arithmetic must. Needs
        ``payoffs="rational"``.
    tiny : bool
        Sometimes give one outcome a tiny probability (:data:`TINY`, down to ``2**-60``):
        exact arithmetic is unaffected; value iteration then converges very slowly.
    max_profiles : int, optional
        Bound on the number of pure stationary profiles (the product of the action counts
        over all states), for tests that enumerate them (:func:`tbsg.testing.brute_force`).
        It wins over the lower bound of ``actions``.
    rewards : bool
        Draw a reward for every action (0, 1, fractions in [0, 1] and :data:`SCORES`):
        the games are then :class:`RewardTableGame`. In a game drawn with
        ``stopping=False`` only actions with a terminal outcome pay, so that no reward lies
        inside an end component and ``infinite_play=`` gives a finite total.

    Returns
    -------
    hypothesis.strategies.SearchStrategy[TableGame]

    Raises
    ------
    tbsg.InvalidArgumentError
        For a shape that cannot be drawn (checked when the strategy is built).

    Examples
    --------
    A property over random games: exact values lie in [0, 1] and solve agrees with the
    brute-force oracle.

    >>> import tbsg
    >>> from hypothesis import given, settings
    >>> from tbsg.testing import brute_force
    >>> @settings(max_examples=25, database=None)
    ... @given(games(states=(1, 3), actions=(1, 2), payoffs="draws"))
    ... def test_solve_matches_brute_force(game):
    ...     assert tbsg.solve(game).values == brute_force(game).values
    >>> test_solve_matches_brute_force()

    Shrinking: the smallest game whose value is not 1 is one state whose one action
    loses.

    >>> from hypothesis import find
    >>> small = find(games(), lambda g: tbsg.solve(g).value() != 1)
    >>> small.players, small.moves
    ((0,), ((('a', ((Fraction(1, 1), Terminal(payoff=Fraction(0, 1))),)),),))
    """
    shape = _Shape(
        states=_range("states", states, 1), actions=_range("actions", actions, 1),
        outcomes=_range("outcomes", outcomes, 1), cycles=bool(cycles), stopping=bool(stopping),
        players=_players(players), ties=bool(ties), near_ties=bool(near_ties), tiny=bool(tiny),
        max_profiles=_max_profiles(max_profiles), rewards=bool(rewards))
    if not shape.stopping and not shape.cycles:
        raise InvalidArgumentError("stopping=False needs cycles=True (a game without cycles "
                                   "always stops)")
    if shape.near_ties and payoffs not in ("rational", "score"):
        raise InvalidArgumentError(f"near_ties=True needs payoffs='rational' (a nudged payoff "
                                   f"is not in {{0, 1/2, 1}}), got payoffs={payoffs!r}")
    return _draw_game(shape, terminals(payoffs))


def _players(players: object) -> tuple[int, ...]:
    chosen: tuple[object, ...] = tuple(players) if isinstance(players, Iterable) else ()
    if not chosen or any(p not in (0, 1) or isinstance(p, bool) for p in chosen):
        raise InvalidArgumentError(f"players must be a non-empty sequence of 0 and 1, got {players!r}")
    return tuple(p for p in (0, 1) if p in chosen)


def _max_profiles(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidArgumentError(f"max_profiles must be None or a positive int, got {value!r}")
    return value


@st.composite
def _draw_game(draw: st.DrawFn, shape: _Shape, terminal: st.SearchStrategy[Terminal]) -> TableGame:
    # one block of choices per state, in order, that never depends on later states: when the
    # shrinker lowers the number of states, the earlier states keep their meaning
    family = draw(_ints(0, len(LABELS) - 1))
    n = draw(_ints(*shape.states))
    players: list[int] = []
    profiles = 1
    moves: list[tuple[tuple[Action, tuple[Outcome, ...]], ...]] = []
    pays: list[tuple[Fraction, ...]] = []
    for s in range(n):
        players.append(shape.players[draw(_ints(0, len(shape.players) - 1))])
        k = draw(_ints(*shape.actions))
        if shape.max_profiles is not None:
            k = max(1, min(k, shape.max_profiles // profiles))
        profiles *= k
        acts: list[tuple[Action, tuple[Outcome, ...]]] = []
        for i in range(k):
            if acts and (shape.ties or shape.near_ties) and draw(_ints(0, 4)) == 4:
                # a copy of an earlier action under a new label: an exact tie, or (nudged)
                # a near tie closer than float resolution
                outs = acts[draw(_ints(0, len(acts) - 1))][1]
                if shape.near_ties and (not shape.ties or draw(_BOOLEANS)):
                    outs = nudged(outs, draw(_NUDGES))
            else:
                outs = _draw_action(draw, s, n, shape, terminal)
            acts.append((action_label(family, i), outs))
        moves.append(tuple(acts))
        if shape.rewards:  # drawn after the state's actions: earlier states keep their meaning
            pays.append(tuple(draw(_REWARDS) if shape.stopping or any(
                isinstance(nxt, Terminal) for _, nxt in outs) else Fraction(0) for _, outs in acts))
    if shape.rewards:
        return RewardTableGame(tuple(players), tuple(moves), rewards=tuple(pays))
    return TableGame(tuple(players), tuple(moves))


def _draw_action(draw: st.DrawFn, s: int, n: int, shape: _Shape,
                 terminal: st.SearchStrategy[Terminal]) -> tuple[Outcome, ...]:
    """The outcomes of one action of state ``s`` (see the module docstring for the kinds)."""
    if not shape.stopping:
        targets, first_terminal = range(n), False  # anywhere
    elif shape.cycles and not draw(_BOOLEANS):
        targets, first_terminal = range(n), True  # a cycle action: a terminal, then anywhere
    else:
        targets, first_terminal = range(s + 1, n), False  # a forward action
    k = draw(_ints(*shape.outcomes))
    succ: list[int | Terminal] = []
    for q in range(k):
        if not (q == 0 and first_terminal) and draw(_BOOLEANS) and targets:
            succ.append(targets[draw(_ints(0, len(targets) - 1))])
        else:
            succ.append(draw(terminal))
    probs = _distribution(draw, k, shape.tiny)
    r = draw(_ints(0, k - 1)) if first_terminal else 0  # the terminal need not come first
    return tuple((probs[i], succ[i]) for i in [*range(r, k), *range(r)])
