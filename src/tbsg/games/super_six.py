"""Super Six (R. Jehn, "Optimum Strategies for the Game Super Six", 2021; seed 002).

Rules (seed 002, section 1): a die, sticks, and a lid with holes 1 to 5 (a stick placed
there stays) and hole 6 (the stick falls through into the box, out of play). The player
to move rolls the die. If the hole of the number rolled is free (hole 6 always is), they
place one of their sticks in it and may then stop (hand the die over) or roll again. If
the hole is occupied they must take that stick into their hand, and the turn passes.
Whoever has no stick left in hand wins. With ``j`` sticks on the lid a roll is a 6 with
probability 1/6, another free hole with probability ``(5 - j)/6`` and an occupied hole
with probability ``j/6``.

Situations. The paper writes ``(j/k/l)``: ``j`` sticks on the lid, ``k`` in the hand of
the player to move, ``l`` in the opponent's; ``i = j + k + l`` sticks are in play. A
state is a :class:`SuperSixState` ``(mover, lid, hand, other, decision)``: the player to
move, ``j``, ``k``, ``l``, and whether the mover may now ``"stop"`` (else ``"roll"`` is
the only action). :meth:`SuperSix.situation` builds it with player 0 to move: ``situation(j, k, l)`` is
the position where the die must be rolled (the paper's pyramids, Figures 1 to 4, give
``P(j/k/l)``, the mover's winning probability there) and ``situation(j, k, l,
decision=True)`` the moment just after a stick was placed (in a hole or through hole 6),
where the mover may stop. Conventions of the paper, encoded here:

* "a player will always continue to roll the die if the lid is empty (j = 0)"
  (section 2): a 6 rolled on an empty lid gives no decision, the mover rolls again. So
  decision states have ``j >= 1``, and a turn never ends on an empty lid by choice.
* The decision after a 6 and after a stick placed in a hole is the same decision: both
  lead to the same situation ``(j/k/l)`` (section 2, "If he had rolled a 6, the previous
  situation was (1/k+1/1)").
* The game is stopping: every roll is a 6 with probability 1/6, which takes a stick out
  of play for good, and every stop is followed by a roll. So whatever the players do,
  the number of sticks in play keeps falling until someone's hand is empty; values are
  well defined for any strategies.

Mathematics. Write ``P(j/k/l)`` for the mover's winning probability at a roll and
``D(j/k/l)`` for it at a decision. Then, with ``D(j/0/l) = 1`` (the mover's hand is
empty: they won) and ``D(0/k/l) = P(0/k/l)`` (no decision on an empty lid),

.. math::

    P(j/k/l) = \\tfrac16 D(j/k{-}1/l) + \\tfrac{5-j}6 D(j{+}1/k{-}1/l)
               + \\tfrac j6 \\big(1 - P(j{-}1/l/k{+}1)\\big),
    \\qquad D(j/k/l) = \\max\\big(P(j/k/l),\\; 1 - P(j/l/k)\\big),

since continuing is a roll at ``(j/k/l)`` and stopping gives the opponent the roll at
``(j/l/k)``. Hence *continuing is optimal at (j/k/l) exactly when P(j/k/l) + P(j/l/k) >=
1*: the decision is symmetric in ``k`` and ``l``, the gain of continuing over stopping
(the difference plotted in Figure 5) is ``P(j/k/l) + P(j/l/k) - 1``, and every group of
a strategy string with ``j >= 2`` is a palindrome. A 6 lowers ``i``; everything else
keeps it, so the situations with ``i`` sticks form one strongly connected component
(``22 i - 88`` states for ``i >= 6``: both movers, rolls and decisions) that
:func:`tbsg.solve` solves exactly once all smaller ``i`` are known. Everything here is computed by solving the
game from ``(0/i-1/1)``, which reaches every situation with at most ``i`` sticks with
player 0 to move (including the paper's parenthesised ``(0/i-1/1)``).

Strategy strings (section 2). For ``i`` sticks the paper's ``S_i`` lists one digit per
decision situation ``(j/k/l)`` with ``j + k + l = i``, ``1 <= j <= 5`` and ``k, l >=
1``: ``1`` continue, ``0`` stop. Digits are grouped by ``j``, ``j = 1`` on the left,
groups separated by ``/``; inside a group ``k`` increases from left to right (so "the 1
at the right means continue at (5/1/1), the 10 means continue at (4/1/2) and stop at
(4/2/1)"). The situations ``(1/k/1)`` are left out: the paper argues they need no
strategy because they cannot be reached from an even start ``(0/k/k)`` unless someone
stops on an empty lid. (Strictly, they are reachable if the opponent stops at
``(1/1/k)``, which is never optimal; continuing is optimal at ``(1/k/1)`` anyway, since
stopping hands the opponent a 5/6 immediate win.) This gives 2, 5, 9 digits for 4, 5, 6
sticks and ``5 i - 21`` for ``i >= 6`` (5 more per stick), as the paper states. An exact
tie (``P(j/k/l) + P(j/l/k) = 1``) would be written ``1``, the paper's default of rolling
on; none occurs for 4 to 60 sticks (the tests check 4 to 20, the slow tests to 40).

What the paper prints and how it compares with these functions (including the
misprints and the values of section 6 that need a reading of their own) is in
:mod:`tbsg.sources.super_six`.

Beyond the paper (computed exactly up to 60 sticks; see :func:`super_six_summary_check`):
the summary rules for 1, 2, 4 and 5 sticks on the lid hold for every total from 4 to 60.
With 3 on the lid, continuing is optimal exactly when ``min(k, l) <= m``, where ``m`` is
unbounded up to 12 sticks, 3 for 13, 2 for 14 to 19 and 1 from 20 on (to 60): from 20
sticks on, stop with 3 on the lid unless one player holds a single stick. Figure 5's
thresholds for ``l = 3 .. 6`` stay right for every ``k``, but its implicit "never stop
when the opponent holds 2" fails from ``(3/15/2)`` (20 sticks) on. The paper's brute
force over every strategy profile stopped at 15 sticks; one exact solve per number of
sticks (the components above) reaches these totals.

Examples
--------
>>> import tbsg
>>> from tbsg.games.super_six import super_six, super_six_pyramid, super_six_strategy
>>> game = super_six(2, 2)                       # 4 sticks, empty lid (Figure 1)
>>> sol = tbsg.solve(game)
>>> sol.value_to_move(game.situation(0, 2, 2)), sol.value_to_move(game.situation(1, 1, 2))
(Fraction(36, 41), Fraction(35, 41))
>>> sol.optimal_actions(game.situation(2, 1, 1, decision=True))
('roll',)
>>> super_six_strategy(7)
'(1111/1111/111/00/0)'
>>> super_six_strategy(13)
'(1111111111/1111111111/111000111/00000000/0000000)'
>>> super_six_pyramid(4)[0, 3, 1]                # (0/3/1), in parentheses in Figure 1
Fraction(727, 1107)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Literal, NamedTuple

from tbsg._util.checks import int_at_least
from tbsg.errors import InvalidGameError
from tbsg.model.protocol import Terminal, win

if TYPE_CHECKING:
    from tbsg.results import Solution

__all__ = [
    "SuperSix",
    "SuperSixState",
    "SuperSixSummaryCheck",
    "super_six",
    "super_six_continue_gain",
    "super_six_decision_situations",
    "super_six_evaluate",
    "super_six_pyramid",
    "super_six_strategy",
    "super_six_summary_check",
]

Action = Literal["roll", "stop"]
Situation = tuple[int, int, int]
"""The paper's ``(j/k/l)``: sticks on the lid, in the mover's hand, in the opponent's."""

_SIXTH = Fraction(1, 6)
_HOLES = 5  # holes 1..5 keep a stick; hole 6 does not
_MIN_STRATEGY_TOTAL = 4  # fewer sticks: no digit (3 sticks: only (1/1/1), left out)


class SuperSixState(NamedTuple):
    """A position of Super Six.

    Attributes
    ----------
    mover : int
        Player whose turn it is (0 or 1).
    lid : int
        Sticks standing on the lid, 0 to 5: the paper's ``j``.
    hand : int
        Sticks in the mover's hand (at least 1): ``k``.
    other : int
        Sticks in the opponent's hand (at least 1): ``l``.
    decision : bool
        True just after the mover placed a stick (lid not empty): they may ``"stop"``
        or ``"roll"`` again. False: the mover must roll.
    """

    mover: int
    lid: int
    hand: int
    other: int
    decision: bool


@dataclass(frozen=True)
class SuperSix:
    """Super Six from ``(lid/hand/other)``, player 0 to move (holding ``hand`` sticks).

    Parameters
    ----------
    hand : int
        Sticks in player 0's hand, at least 1 (the paper's ``k``).
    other : int
        Sticks in player 1's hand, at least 1 (``l``).
    lid : int
        Sticks on the lid, 0 to 5 (``j``); the die must be rolled first.
    """

    hand: int
    other: int
    lid: int = 0

    def __post_init__(self) -> None:
        int_at_least("hand", self.hand, 1, error=InvalidGameError)
        int_at_least("other", self.other, 1, error=InvalidGameError)
        int_at_least("lid", self.lid, 0, error=InvalidGameError)
        if self.lid > _HOLES:
            raise InvalidGameError(f"lid holds at most {_HOLES} sticks, got {self.lid}")

    @property
    def total(self) -> int:
        """Sticks in play at the start (lid plus both hands): the paper's ``i``."""
        return self.lid + self.hand + self.other

    @property
    def initial(self) -> SuperSixState:
        return SuperSixState(0, self.lid, self.hand, self.other, False)

    def situation(self, j: int, k: int, l: int, decision: bool = False) -> SuperSixState:  # noqa: E741
        """The paper's situation ``(j/k/l)`` with player 0 to move.

        ``decision=True``: the mover has just placed a stick and may stop (needs ``j >= 1``:
        on an empty lid the paper's players always roll on).
        """
        int_at_least("j", j, 0, error=InvalidGameError)
        int_at_least("k", k, 1, error=InvalidGameError)
        int_at_least("l", l, 1, error=InvalidGameError)
        if j > _HOLES:
            raise InvalidGameError(f"the lid holds at most {_HOLES} sticks, got j={j}")
        if j + k + l > self.total:
            raise InvalidGameError(
                f"({j}/{k}/{l}) has {j + k + l} sticks, more than the {self.total} of this game")
        if decision and j == 0:
            raise InvalidGameError(
                f"({j}/{k}/{l}) with decision=True: on an empty lid the mover always rolls on "
                "(seed 002, section 2), so there is no decision")
        return SuperSixState(0, j, k, l, bool(decision))

    def player(self, s: SuperSixState) -> int:
        return s.mover

    def actions(self, s: SuperSixState) -> Sequence[Action]:
        return ("roll", "stop") if s.decision else ("roll",)

    def outcomes(self, s: SuperSixState,
                 a: Action) -> list[tuple[Fraction, SuperSixState | Terminal]]:
        mover, j, k, l, _ = s  # noqa: E741
        nxt = 1 - mover
        if a == "stop":
            return [(Fraction(1), SuperSixState(nxt, j, l, k, False))]
        out: list[tuple[Fraction, SuperSixState | Terminal]] = []
        done = win(0 if mover == 0 else 1) if k == 1 else None
        # a 6: the stick falls through; on an empty lid the mover rolls on (no decision)
        out.append((_SIXTH, done or SuperSixState(mover, j, k - 1, l, j > 0)))
        if j < _HOLES:  # a free hole 1..5
            out.append((Fraction(_HOLES - j, 6), done or SuperSixState(mover, j + 1, k - 1, l, True)))
        if j > 0:  # an occupied hole: take the stick, the turn passes
            out.append((Fraction(j, 6), SuperSixState(nxt, j - 1, l, k + 1, False)))
        return out


def super_six(k: int, l: int, lid: int = 0) -> SuperSix:  # noqa: E741
    """Super Six from ``(lid/k/l)``: player 0 to move holds ``k`` sticks, player 1 ``l``.

    >>> super_six(3, 3).total
    6
    """
    return SuperSix(k, l, lid)


# --- solving by number of sticks ----------------------------------------------------------

_CACHE: dict[int, Solution[SuperSixState, Action]] = {}


def _check_total(total_sticks: object, low: int) -> int:
    return int_at_least("total_sticks", total_sticks, low, error=InvalidGameError,
                        what="sticks in play: lid plus both hands")


def _solution(total: int) -> Solution[SuperSixState, Action]:
    """Exact solution of a game holding every situation with at most ``total`` sticks.

    The game starts at ``(0/n-1/1)``, ``n = max(total, 4)``: from there every situation
    with at most ``n`` sticks is reachable with player 0 to move. The largest solution
    computed so far is kept and reused (values do not depend on where play started).
    """
    from tbsg.api.solving import solve

    n = max(total, _MIN_STRATEGY_TOTAL)
    for m, sol in _CACHE.items():
        if m >= n:
            return sol
    sol = solve(SuperSix(n - 1, 1))
    _CACHE.clear()
    _CACHE[n] = sol
    return sol


def _state(s: Situation, decision: bool) -> SuperSixState:
    return SuperSixState(0, s[0], s[1], s[2], decision)


def _group(total: int, j: int) -> list[Situation]:
    """The decision situations with ``j`` on the lid, as in the strings (``(1/k/1)`` out)."""
    return [(j, k, total - j - k) for k in range(1, total - j)
            if not (j == 1 and total - j - k == 1)]


def super_six_decision_situations(total_sticks: int) -> list[Situation]:
    """The situations ``(j/k/l)`` behind the digits of the paper's strategy string ``S_i``.

    In the order of the digits: ``j = 1`` to 5, ``k`` increasing inside each ``j``;
    ``(1/k/1)`` left out (seed 002, section 2). ``5 i - 21`` of them for ``i >= 6``.

    Parameters
    ----------
    total_sticks : int
        Sticks in play, ``i = j + k + l``, at least 4 (else :class:`~tbsg.errors.InvalidGameError`).

    Examples
    --------
    >>> super_six_decision_situations(5)
    [(1, 1, 3), (1, 2, 2), (2, 1, 2), (2, 2, 1), (3, 1, 1)]
    >>> [len(super_six_decision_situations(i)) for i in (4, 5, 6, 7, 15)]
    [2, 5, 9, 14, 54]
    """
    total = _check_total(total_sticks, _MIN_STRATEGY_TOTAL)
    return [s for j in range(1, _HOLES + 1) for s in _group(total, j)]


def super_six_strategy(total_sticks: int) -> str:
    """The optimal strategy ``S_i`` for ``total_sticks`` sticks, as the paper writes it.

    One digit per situation of :func:`super_six_decision_situations`, ``1`` when
    continuing (rolling) is optimal there and ``0`` when stopping is; groups by sticks on
    the lid, ``/``-separated, in parentheses. Computed by solving the game exactly. An
    exact tie would give ``1``; none occurs for 4 to 60 sticks.

    Parameters
    ----------
    total_sticks : int
        Sticks in play, at least 4 (else :class:`~tbsg.errors.InvalidGameError`).

    Examples
    --------
    >>> super_six_strategy(6)      # seed 002, section 5: always continue, even at (4/1/1)
    '(111/111/11/1)'
    >>> super_six_strategy(14)     # seed 002, section 8
    '(11111111111/11111111111/1100000011/000000000/00000000)'
    """
    total = _check_total(total_sticks, _MIN_STRATEGY_TOTAL)
    sol = _solution(total)
    groups = []
    for j in range(1, _HOLES + 1):
        situations = _group(total, j)
        if situations:
            groups.append("".join("1" if "roll" in sol.optimal_actions(_state(s, True)) else "0"
                                  for s in situations))
    return "(" + "/".join(groups) + ")"


def super_six_pyramid(total_sticks: int) -> dict[Situation, Fraction]:
    """The mover's winning probability ``P(j/k/l)`` at every roll with ``total_sticks`` sticks.

    The paper's pyramids (Figures 1 to 4): every ``(j/k/l)`` with ``j + k + l = i``,
    ``0 <= j <= 5`` and ``k, l >= 1``, both players optimal, keyed ``(j, k, l)`` in
    order of ``j`` then ``k``. Included are ``(0/1/i-1)`` (value 1: the mover's last stick
    goes in whatever is rolled) and ``(0/i-1/1)``, which the paper prints in parentheses
    ("reached only if a player stops on an empty lid"): its value is that of the position
    if it arises, e.g. the start of a game dealt ``i-1`` and 1 sticks.

    Parameters
    ----------
    total_sticks : int
        Sticks in play, at least 2 (else :class:`~tbsg.errors.InvalidGameError`).

    Examples
    --------
    >>> p = super_six_pyramid(4)     # seed 002, Figure 1
    >>> [(s, str(v), round(float(v), 3)) for s, v in p.items()]    # doctest: +NORMALIZE_WHITESPACE
    [((0, 1, 3), '1', 1.0), ((0, 2, 2), '36/41', 0.878), ((0, 3, 1), '727/1107', 0.657),
     ((1, 1, 2), '35/41', 0.854), ((1, 2, 1), '101/164', 0.616), ((2, 1, 1), '88/123', 0.715)]
    """
    total = _check_total(total_sticks, 2)
    sol = _solution(total)
    return {(j, k, total - j - k): sol.value_to_move(SuperSixState(0, j, k, total - j - k, False))
            for j in range(min(_HOLES, total - 2) + 1) for k in range(1, total - j)}


def super_six_continue_gain(total_sticks: int) -> dict[Situation, Fraction]:
    """Gain of continuing over stopping at every decision with ``total_sticks`` sticks.

    ``P(continue) - P(stop)`` for the mover at each decision situation ``(j/k/l)``,
    ``1 <= j <= 5``, ``(1/k/1)`` included, both players optimal afterwards; equal to
    ``P(j/k/l) + P(j/l/k) - 1`` (see the module docstring). Negative: stopping is better.
    For ``j = 3`` this is the difference of the paper's Figure 5.

    Parameters
    ----------
    total_sticks : int
        Sticks in play, at least 3 (else :class:`~tbsg.errors.InvalidGameError`).

    Examples
    --------
    >>> g = super_six_continue_gain(6)[4, 1, 1]        # seed 002, section 5: 0.524 vs 0.476
    >>> g, round(float(g), 3)
    (Fraction(778515921, 16065337541), 0.048)
    """
    total = _check_total(total_sticks, 3)
    sol = _solution(total)
    out: dict[Situation, Fraction] = {}
    for j in range(1, min(_HOLES, total - 2) + 1):
        for k in range(1, total - j):
            s = (j, k, total - j - k)
            values = sol.action_values(_state(s, True))  # to player 0, the mover
            out[s] = values["roll"] - values["stop"]
    return out


def _parse_strategy(strategy: str) -> tuple[int, dict[Situation, bool]]:
    """``(total, {situation: continue?})`` from a strategy string like ``(1111/1111/111/00/0)``."""
    if not isinstance(strategy, str):
        raise InvalidGameError(f"strategy must be a str like '(1111/1111/111/00/0)', got {strategy!r}")
    body = strategy.strip()
    if body.startswith("(") and body.endswith(")"):
        body = body[1:-1]
    groups = body.split("/")
    if not groups[0] or any(c not in "01" for g in groups for c in g):
        raise InvalidGameError(
            f"strategy {strategy!r} must be groups of digits 0/1 separated by '/', "
            "like '(1111/1111/111/00/0)'")
    total = len(groups[0]) + 3  # j = 1: k = 1 .. i-3
    expected = [len(_group(total, j)) for j in range(1, _HOLES + 1) if _group(total, j)]
    sizes = [len(g) for g in groups]
    if sizes != expected:
        shown = "/".join(map(str, expected))
        raise InvalidGameError(
            f"strategy {strategy!r} has groups of {'/'.join(map(str, sizes))} digits; with "
            f"{total} sticks (read from its first group) the groups for j = 1 .. "
            f"{len(expected)} sticks on the lid need {shown} digits")
    digits = "".join(groups)
    situations = super_six_decision_situations(total)
    return total, {s: d == "1" for s, d in zip(situations, digits, strict=True)}


def super_six_evaluate(strategy: str, *,
                       elsewhere: Literal["optimal", "roll"] = "optimal") -> Solution[SuperSixState, Action]:
    """Exact values when both players play the strategy string ``S_i`` (seed 002, section 6).

    Both players follow ``strategy`` at the situations of
    :func:`super_six_decision_situations` with ``i`` sticks (``i`` read from the
    string's group lengths); everywhere else (``(1/k/1)`` and fewer sticks) they play
    optimally, or roll on with ``elsewhere="roll"``. The game solved starts at
    ``(0/i-1/1)``, so every situation with at most ``i`` sticks can be looked up with
    :meth:`SuperSix.situation`.

    Parameters
    ----------
    strategy : str
        Digits ``0``/``1`` grouped by sticks on the lid, e.g. ``'(0101/1010/110/10/1)'``
        (parentheses optional).
    elsewhere : {"optimal", "roll"}
        What both players do at the decisions the string does not cover: play optimally
        (default) or continue (roll on). With 7 sticks the two agree, since continuing
        is optimal at every decision with at most 6 sticks and at ``(1/5/1)``.

    Returns
    -------
    Solution
        ``value_to_move(SuperSixState(0, j, k, l, False))`` is ``P^S(j/k/l)``.

    Raises
    ------
    InvalidGameError
        If the string is not digits in groups of the right lengths (the message names
        them), e.g. for a group one digit too long.

    Examples
    --------
    >>> sol = super_six_evaluate('(0101/1010/110/10/1)')
    >>> round(float(sol.value_to_move(SuperSixState(0, 4, 1, 2, False))), 4)
    0.6683
    >>> rolling = super_six_evaluate('(0101/1010/110/10/1)', elsewhere="roll")
    >>> rolling.values == sol.values
    True
    >>> super_six_evaluate('(11/11/1/1)')
    Traceback (most recent call last):
    ...
    tbsg.errors.InvalidGameError: strategy '(11/11/1/1)' has groups of 2/2/1/1 digits; \
with 5 sticks (read from its first group) the groups for j = 1 .. 3 sticks on the lid \
need 2/2/1 digits
    """
    from tbsg.api.solving import evaluate

    if elsewhere not in ("optimal", "roll"):
        raise InvalidGameError(f"elsewhere must be 'optimal' or 'roll', got {elsewhere!r}")
    total, digits = _parse_strategy(strategy)
    opt = _solution(total) if elsewhere == "optimal" else None

    def act(s: SuperSixState) -> Action:
        if not s.decision:
            return "roll"
        chosen = digits.get((s.lid, s.hand, s.other))
        if chosen is not None:
            return "roll" if chosen else "stop"
        if opt is None:
            return "roll"
        return opt.action(s._replace(mover=0))  # same optimal action for either mover

    return evaluate(SuperSix(total - 1, 1), act, reach="game")  # the source reads every situation


# --- the paper's summary ------------------------------------------------------------------

_FIGURE_5 = {3: 8, 4: 6, 5: 5, 6: 4}
"""Figure 5's bullets: with 3 on the lid and ``l`` sticks in the opponent's hand, stopping
is better when ``k >= _FIGURE_5[l]``; for ``l = 1, 2`` (the other curves) never."""


def _figure_5_says_stop(k: int, l: int) -> bool:  # noqa: E741
    return l in _FIGURE_5 and k >= _FIGURE_5[l]


@dataclass(frozen=True)
class SuperSixSummaryCheck:
    """The paper's summary rules (abstract, section 9, Figure 5) against the exact optimum.

    Every decision situation ``(j/k/l)`` with 4 to ``max_total`` sticks is checked,
    ``(1/k/1)`` included.

    Attributes
    ----------
    max_total : int
        Largest number of sticks checked.
    lid_1_2_stop : tuple
        Situations with 1 or 2 on the lid where stopping is optimal ("always continue").
    lid_4_wrong : tuple
        Situations with 4 on the lid where "stop unless both players have one stick" is
        not optimal.
    lid_5_continue : tuple
        Situations with 5 on the lid where continuing is optimal ("stop").
    lid_3_stop : tuple
        Every situation with 3 on the lid where stopping is optimal ("depends").
    figure_5_wrong : tuple
        Situations ``(3/k/l)`` with ``l <= 6`` (Figure 5's curves) where its bullets
        ("stop when l = 3 and k >= 8, l = 4 and k >= 6, l = 5 and k >= 5, l = 6 and
        k >= 4", else continue) name the worse action.
    """

    max_total: int
    lid_1_2_stop: tuple[Situation, ...]
    lid_4_wrong: tuple[Situation, ...]
    lid_5_continue: tuple[Situation, ...]
    lid_3_stop: tuple[Situation, ...]
    figure_5_wrong: tuple[Situation, ...]

    @property
    def summary_holds(self) -> bool:
        """Whether the rules for 1, 2, 4 and 5 sticks on the lid hold throughout."""
        return not (self.lid_1_2_stop or self.lid_4_wrong or self.lid_5_continue)

    @property
    def first_lid_3_stop(self) -> int | None:
        """Fewest sticks at which stopping with 3 on the lid is optimal somewhere."""
        return min((sum(s) for s in self.lid_3_stop), default=None)


def super_six_summary_check(max_total: int = 15) -> SuperSixSummaryCheck:
    """Check the paper's summary rules for every total from 4 to ``max_total`` sticks.

    Parameters
    ----------
    max_total : int
        Largest number of sticks (15 in the paper), at least 4 (else
        :class:`~tbsg.errors.InvalidGameError`).

    Examples
    --------
    >>> c = super_six_summary_check(15)
    >>> c.summary_holds, c.first_lid_3_stop, c.figure_5_wrong
    (True, 13, ())
    >>> len(c.lid_3_stop)
    16
    """
    top = _check_total(max_total, _MIN_STRATEGY_TOTAL)
    _solution(top)
    lid_1_2: list[Situation] = []
    lid_4: list[Situation] = []
    lid_5: list[Situation] = []
    lid_3: list[Situation] = []
    figure_5: list[Situation] = []
    for total in range(_MIN_STRATEGY_TOTAL, top + 1):
        for s, gain in super_six_continue_gain(total).items():
            j, k, l = s  # noqa: E741
            stop = gain < 0  # ties (none occur) count as continue, as in the strings
            if j in (1, 2) and stop:
                lid_1_2.append(s)
            elif j == 4 and stop == (k == 1 and l == 1):
                lid_4.append(s)
            elif j == 5 and not stop:
                lid_5.append(s)
            elif j == 3:
                if stop:
                    lid_3.append(s)
                if l <= 6 and stop != _figure_5_says_stop(k, l):
                    figure_5.append(s)
    return SuperSixSummaryCheck(
        max_total=top, lid_1_2_stop=tuple(lid_1_2), lid_4_wrong=tuple(lid_4),
        lid_5_continue=tuple(lid_5), lid_3_stop=tuple(lid_3), figure_5_wrong=tuple(figure_5))
