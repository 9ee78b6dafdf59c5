"""Coinball (The Riddler, FiveThirtyEight; seed 001).

Rules (seed 001): two players take turns calling a fair coin, ``tosses`` tosses in all
(100 in the source, 50 calls each); player 0 calls first, i.e. on tosses 0, 2, 4, ....
The caller announces heads or tails and "rush" or "pass". A rush is worth 1 point, a
pass 2 points: to the caller if the call is right, to the opponent if it is wrong.
After the last toss the player with more points wins; equal points are a draw (half a
win). The coin is fair, so the heads/tails call is irrelevant: on each toss the caller
gains 1 (rush) or 2 (pass) points with probability 1/2, else the opponent gains them.

Only the difference of the scores matters, so a state is a :class:`CoinballState`
``(toss, lead)``: the number of completed tosses ``t`` and player 0's lead (19,899
reachable states for 100 tosses); player ``toss % 2`` calls next, choosing ``"rush"`` or
``"pass"``. The source writes a state as ``(t, m, y)``: ``t`` tosses done, the
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, NamedTuple

from tbsg._util.checks import int_at_least
from tbsg.errors import InvalidGameError
from tbsg.model.protocol import DRAW, Terminal, win

__all__ = [
    "Coinball",
    "CoinballOutcomes",
    "CoinballState",
    "CoinballSummaryCheck",
    "coinball",
    "coinball_outcomes",
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
        int_at_least("tosses", self.tosses, 1, error=InvalidGameError)

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
    from tbsg.api.solving import solve

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


# -- how games end: draws and passes ---------------------------------------------------------

Opponent = Literal["optimal", "rush", "pass"]
"""Player 1's play in :func:`coinball_outcomes`: optimal, or always that call (seed 001)."""


@dataclass(frozen=True)
class CoinballOutcomes:
    """How Coinball ends when player 0 plays optimally against one opponent (a row of
    :func:`coinball_outcomes`).

    The profiles compared are all those in which player 0 plays an exactly optimal
    action at every state (a best response when the opponent is fixed; optimal play by
    both when ``opponent`` is ``"optimal"``). They share the first player's expectation
    ``value = P(win) + P(draw) / 2`` but not the split: with ``P(win) + P(draw) +
    P(loss) = 1``, a profile's draw probability ``d`` fixes ``P(win) = value - d/2`` and
    ``P(loss) = 1 - value - d/2``.

    Attributes
    ----------
    tosses : int
        Length of the game.
    opponent : "optimal", "rush" or "pass"
        Player 1's play: optimal, or always that call.
    value : Fraction
        The first player's expectation (a draw counts one half).
    draw : Fraction
        Draw probability under the solution's own strategy (:func:`tbsg.solve` or
        :func:`tbsg.best_response`, with its choice among tied actions).
    draw_least, draw_most : Fraction
        Least and greatest draw probability among the optimal profiles.
    passes_fewest, passes_most : Fraction
        Least and greatest expected number of "pass" calls (both players') among the
        optimal profiles.
    """

    tosses: int
    opponent: Opponent
    value: Fraction
    draw: Fraction
    draw_least: Fraction
    draw_most: Fraction
    passes_fewest: Fraction
    passes_most: Fraction

    def win(self, draw: Fraction | None = None) -> Fraction:
        """P(player 0 wins) for a profile with draw probability ``draw`` (default: :attr:`draw`)."""
        d = self.draw if draw is None else draw
        return self.value - d / 2

    def loss(self, draw: Fraction | None = None) -> Fraction:
        """P(player 1 wins) for a profile with draw probability ``draw`` (default: :attr:`draw`)."""
        d = self.draw if draw is None else draw
        return 1 - self.value - d / 2


def _always(call: Action) -> Callable[[CoinballState], Action]:
    """The fixed opponent of seed 001: always ``call``."""
    def strategy(s: CoinballState) -> Action:
        return call
    return strategy


def _passes(s: CoinballState, a: Action) -> int:
    """Count of a step: 1 per "pass" call."""
    return 1 if a == "pass" else 0


def coinball_outcomes(tosses: int = 100) -> list[CoinballOutcomes]:
    """Draw probability and number of passes, against an optimal, an always-rush and an
    always-pass opponent.

    The source (seed 001) asks for the first player's chances against an opponent who
    always rushes, always passes, or plays optimally; the first player then plays
    optimally given that knowledge (:func:`tbsg.best_response`, as
    :mod:`tbsg.sources.coinball` reproduces the printed values; :func:`tbsg.solve` for
    the optimal opponent). Fixing the profile makes the game a Markov chain
    (:func:`tbsg.chain`) whose terminal distribution
    (:meth:`tbsg.Chain.outcome_probabilities`) gives the draw probability.

    Coinball has many exact ties (:func:`coinball_summary_check`), and the optimal
    profiles differ in how often they draw. Every quantity here is an expected total of
    a non-negative count along play: the draw probability is the expected total of
    ``c(s, a) = P(the toss from s with call a ends the game in a draw)``, the number of
    passes that of ``c(s, a) = [a = "pass"]``. Their least and greatest values over the
    optimal profiles are the fastest and slowest play (:meth:`tbsg.Solution.fastest`,
    :meth:`~tbsg.Solution.slowest`) with that count: a Markov decision process over the
    optimal actions, the players cooperating on the secondary goal. The source reports
    no draw probability: these numbers are tbsg's own.

    Returns
    -------
    list of CoinballOutcomes
        Against ``"optimal"``, ``"rush"`` and ``"pass"``, in that order.

    Examples
    --------
    Two tosses, both optimal: the first caller's rush and pass are tied (3/8 each); either
    way a draw has probability 1/4, but the expected number of passes is 1/2 (rush, and
    the second caller passes when behind) or 3/2 (pass, and pass again when ahead).

    >>> opt, rush, pass_ = coinball_outcomes(2)
    >>> opt.value, opt.draw_least, opt.draw_most, opt.passes_fewest, opt.passes_most
    (Fraction(3, 8), Fraction(1, 4), Fraction(1, 4), Fraction(1, 2), Fraction(3, 2))
    >>> rush.value, rush.draw_least, rush.draw_most
    (Fraction(1, 2), Fraction(0, 1), Fraction(1, 2))
    """
    from tbsg.api.solving import best_response, solve
    from tbsg.model.protocol import DRAW
    from tbsg.play.chain import chain

    game = Coinball(tosses)

    def draws(s: CoinballState, a: Action) -> Fraction:
        return sum((p for p, nxt in game.outcomes(s, a) if nxt == DRAW), Fraction(0))

    rows: list[CoinballOutcomes] = []
    opponents: tuple[Opponent, ...] = ("optimal", "rush", "pass")
    for opponent in opponents:
        sol = solve(game) if opponent == "optimal" else best_response(game, 0, _always(opponent))
        split = chain(game, sol).outcome_probabilities()
        rows.append(CoinballOutcomes(
            tosses=tosses, opponent=opponent, value=sol.value(),
            draw=split.get(_HALF, Fraction(0)),
            draw_least=sol.fastest(draws).expected, draw_most=sol.slowest(draws).expected,
            passes_fewest=sol.fastest(_passes).expected,
            passes_most=sol.slowest(_passes).expected))
    return rows
