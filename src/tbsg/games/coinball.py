"""Coinball (The Riddler, FiveThirtyEight; seed 001).

Rules (seed 001): two players take turns calling a fair coin, ``tosses`` tosses in all
(100 in the source, 50 calls each); player 0 calls first, i.e. on tosses 0, 2, 4, ....
The caller announces heads or tails and "rush" or "pass". A rush is worth 1 point, a
pass 2 points: to the caller if the call is right, to the opponent if it is wrong.
After the last toss the player with more points wins; equal points are a draw (half a
win). The coin is fair, so the heads/tails call is irrelevant: on each toss the caller
gains 1 (rush) or 2 (pass) points with probability 1/2, else the opponent gains them.

Only the difference of the scores matters, so a state is the number of completed
tosses ``t`` and player 0's lead (19,899 states for 100 tosses; an exact solve takes
about a second). The source writes a state as ``(t, m, y)``: ``t`` tosses done, the
caller ("I") has ``m`` points and the opponent ``y``; :meth:`Coinball.position` maps
that to a state, and ``solution.value_to_move(game.position(t, m, y))`` is the
source's ``E(t, m, y)``.

The source's verbal summary of optimal play is :func:`coinball_summary_rule`;
:func:`coinball_summary_check` compares it with the exact optimal actions in every
reachable state. What the source prints and how it compares (all of it reproduces) is
in :mod:`tbsg.sources.coinball`.

Beyond the source: read with turns counted from the end (``r = tosses - t`` tosses left:
pass at a tie when ``r`` is divisible by 4; a wash when ``r`` is even and below 8, or
``r = 1``; else rush), the summary is never wrong for every number of tosses checked (1
to 100 and 200); see :func:`coinball_summary_rule`.

Examples
--------
>>> import tbsg
>>> from tbsg.games.coinball import coinball
>>> game = coinball(4)
>>> sol = tbsg.solve(game)
>>> sol.value()
Fraction(7, 16)
>>> sol.optimal_actions(game.position(2, 1, 1))      # tied, two tosses left: a wash
('rush', 'pass')
>>> tbsg.best_response(game, 0, lambda s: "rush").value()
Fraction(9, 16)

With 100 tosses, player 0 (first to call) is worse off than the second player:

>>> sol = tbsg.solve(coinball())
>>> sol.n_states, round(float(sol.value()), 12)
(19899, 0.489818590457)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, NamedTuple

from tbsg.errors import InvalidGameError
from tbsg.model import DRAW, Terminal, win

__all__ = [
    "Coinball",
    "CoinballState",
    "CoinballSummaryCheck",
    "coinball",
    "coinball_summary_check",
    "coinball_summary_rule",
]

Action = Literal["rush", "pass"]
_ACTIONS: tuple[Action, Action] = ("rush", "pass")
_HALF = Fraction(1, 2)
_GAIN = {"rush": 1, "pass": 2}


class CoinballState(NamedTuple):
    """A position of Coinball before a toss.

    Attributes
    ----------
    toss : int
        Tosses completed so far, the source's ``t`` (0 to ``tosses - 1``); player
        ``toss % 2`` calls the next toss.
    lead : int
        Player 0's points minus player 1's points (negative when player 0 is behind).
    """

    toss: int
    lead: int


@dataclass(frozen=True)
class Coinball:
    """Coinball with ``tosses`` tosses; player 0 calls the even-numbered tosses (first)."""

    tosses: int = 100

    def __post_init__(self) -> None:
        if isinstance(self.tosses, bool) or not isinstance(self.tosses, int) or self.tosses < 1:
            raise InvalidGameError(f"tosses must be a positive int, got {self.tosses!r}")

    @property
    def initial(self) -> CoinballState:
        return CoinballState(0, 0)

    def position(self, t: int, m: int, y: int) -> CoinballState:
        """The source's state ``(t, m, y)``: ``t`` tosses done, the caller has ``m``, the
        other ``y`` points.

        The caller is player ``t % 2``. Any ``t <= m + y <= 2 t`` is accepted, as in the
        source; the state keeps only the difference of the scores.
        """
        if not (0 <= t < self.tosses and m >= 0 and y >= 0 and t <= m + y <= 2 * t):
            raise InvalidGameError(
                f"({t}, {m}, {y}) is not a position of Coinball with {self.tosses} tosses: "
                f"need 0 <= t < {self.tosses}, m, y >= 0 and t <= m + y <= 2t")
        return CoinballState(t, m - y if t % 2 == 0 else y - m)

    def player(self, s: CoinballState) -> int:
        return s.toss % 2

    def actions(self, s: CoinballState) -> Sequence[Action]:
        return _ACTIONS

    def outcomes(self, s: CoinballState,
                 a: Action) -> list[tuple[Fraction, CoinballState | Terminal]]:
        gain = _GAIN[a] if s.toss % 2 == 0 else -_GAIN[a]  # change of player 0's lead
        out: list[tuple[Fraction, CoinballState | Terminal]] = []
        for lead in (s.lead + gain, s.lead - gain):  # right call, wrong call
            if s.toss + 1 < self.tosses:
                out.append((_HALF, CoinballState(s.toss + 1, lead)))
            else:
                out.append((_HALF, win(0) if lead > 0 else win(1) if lead < 0 else DRAW))
        return out


def coinball(tosses: int = 100) -> Coinball:
    """Coinball with ``tosses`` tosses (100 in seed 001)."""
    return Coinball(tosses)


def coinball_summary_rule(toss: int, lead: int, tosses: int = 100) -> frozenset[Action]:
    """The source's verbal summary of optimal play, as the set of actions it recommends.

    ``toss`` is the number of completed tosses, ``lead`` the caller's points minus the
    opponent's. "It's a wash" is read as both actions being optimal. The source states
    the rule for 100 tosses, where it reads, with ``r = tosses - toss`` tosses left:
    tied and ``r`` divisible by 4, pass; else tied with ``r`` even and ``r < 8`` ("after
    turn 92 and you went first") or ``r == 1`` (the very last turn), a wash; else rush.
    For other ``tosses`` this function applies that form, counted from the end (an
    extrapolation, not the source's; counted from the start, "completed turns divisible
    by 4" is wrong at every tie when ``tosses`` is not a multiple of 4).

    >>> sorted(coinball_summary_rule(98, 0)), sorted(coinball_summary_rule(96, 0))
    (['pass', 'rush'], ['pass'])
    """
    if lead < 0:
        return frozenset({"pass"})
    if lead > 0:
        return frozenset({"rush"})
    left = tosses - toss
    if left % 4 == 0:
        return frozenset({"pass"})
    if (left < 8 and left % 2 == 0) or left == 1:
        return frozenset(_ACTIONS)
    return frozenset({"rush"})


@dataclass(frozen=True)
class CoinballSummaryCheck:
    """How the verbal summary compares with the exact optimal actions, state by state.

    Every reachable state (both players to call) falls in exactly one of ``exact``,
    ``missed_tie``, ``false_wash`` and ``wrong``.

    Attributes
    ----------
    tosses : int
        Length of the game.
    states : int
        Reachable states checked.
    exact : int
        The rule names exactly the set of optimal actions.
    missed_tie : int
        The rule names one action, which is optimal, but the other is optimal too.
    missed_tie_decided : int
        Of ``missed_tie``, states already decided (value 0 or 1 to the caller).
    false_wash : int
        The rule says "it's a wash" but one action is strictly better.
    wrong : int
        The rule names a single action that is not optimal.
    examples : dict
        For ``missed_tie`` (undecided states only), ``false_wash`` and ``wrong``, up to
        ``max_examples`` tuples ``(toss, caller's lead, rule's actions, optimal actions)``.
    """

    tosses: int
    states: int
    exact: int
    missed_tie: int
    missed_tie_decided: int
    false_wash: int
    wrong: int
    examples: dict[str, tuple[tuple[int, int, tuple[str, ...], tuple[str, ...]], ...]]

    @property
    def never_wrong(self) -> bool:
        """Whether every action the rule recommends is exactly optimal, in every state."""
        return self.wrong == 0 and self.false_wash == 0


def coinball_summary_check(tosses: int = 100, *,
                           max_examples: int = 50) -> CoinballSummaryCheck:
    """Check the source's verbal strategy summary against the exact solution.

    Solves :func:`coinball` exactly and compares :func:`coinball_summary_rule` with
    ``Solution.optimal_actions`` in every reachable state, for both players.

    >>> c = coinball_summary_check()
    >>> c.states, c.exact, c.missed_tie, c.missed_tie_decided, c.false_wash, c.wrong
    (19899, 8715, 11184, 11172, 0, 0)
    >>> [(t, lead) for t, lead, _, _ in c.examples["missed_tie"] if lead == 0]
    [(92, 0), (96, 0)]
    """
    from tbsg.api import solve

    game = Coinball(tosses)
    sol = solve(game)
    counts: Counter[str] = Counter()
    examples: dict[str, list[tuple[int, int, tuple[str, ...], tuple[str, ...]]]] = {
        "missed_tie": [], "false_wash": [], "wrong": []}
    decided = 0
    for s in sorted(sol.states):
        mover = s.toss % 2
        lead = s.lead if mover == 0 else -s.lead
        rule = coinball_summary_rule(s.toss, lead, tosses)
        optimal = frozenset(sol.optimal_actions(s))
        if rule == optimal:
            counts["exact"] += 1
            continue
        if rule < optimal:
            kind = "missed_tie"
            if sol.value_to_move(s) in (0, 1):
                decided += 1
                continue
        elif rule > optimal:
            kind = "false_wash"
        else:
            kind = "wrong"
        counts[kind] += 1
        if len(examples[kind]) < max_examples:
            examples[kind].append((s.toss, lead, tuple(sorted(rule)), tuple(sorted(optimal))))
    return CoinballSummaryCheck(
        tosses=tosses, states=sol.n_states, exact=counts["exact"],
        missed_tie=counts["missed_tie"] + decided, missed_tie_decided=decided,
        false_wash=counts["false_wash"], wrong=counts["wrong"],
        examples={k: tuple(v) for k, v in examples.items()})
