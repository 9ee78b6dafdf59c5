"""R. Jehn, "Optimum Strategies for the Game Super Six" (2021; seed 002).

The paper solves Super Six (:mod:`tbsg.games.super_six`) for 3 to 15 sticks by solving
the linear system of every strategy profile and comparing. It prints: exact winning
probabilities for 3, 4 and 5 sticks and the bounds used in its arguments (sections 3
and 4, with the 2 x 2 and 5 x 5 systems), the pyramid of Figure 1 (4 sticks, 3
decimals), counts and equations for 6 sticks and the value at (4/1/1) (section 5), two
values under sub-optimal profiles and the comparisons that fix the 3-on-the-lid digits
for 7 sticks (section 6), the optimal strategy strings ``S_7`` to ``S_15`` (sections 6
to 8), where stopping with 3 on the lid pays (section 8, Figure 5), and a summary
(abstract, section 9). The author's brute force over every profile stopped at 15 sticks
(16 ran out of memory, the paper says); tbsg solves each number of sticks exactly once.

Everything else reproduces exactly; six rows do not, declared below as
:data:`KNOWN_DISCREPANCIES`:

* **S_13 and S_15** (section 8): as printed, the last group (``j = 5``) has one digit too
  many: 8 zeros for 13 sticks and 10 for 15, where there are only 7 and 9 situations
  ``(5/k/l)`` (``k + l = 8`` resp. 10, ``k, l >= 1``). The paper's own count (``5 i -
  21``: 44 and 54 digits) and every other group agree with the computed strings, and every
  stop/continue decision the paper states in words for 13 to 15 sticks ("stop at (3/4/6),
  (3/5/5) and (3/6/4)", Figure 5's list) matches: slips in the length of a run of zeros,
  not errors in the strategy. The strings are compared literally (no match), and a second
  row per string compares the printed digits cut to the true group lengths (a match).
  :func:`~tbsg.games.super_six.super_six_evaluate` rejects the printed strings (wrong group
  length), naming the expected lengths.
* **Figure 1, 0.853** for ``P(1/1/2) = 35/41 = 0.85366``, which rounds to 0.854: a
  truncation (the same figure rounds ``P(1/2/1) = 101/164 = 0.61585`` up to 0.616);
  section 3 gives the exact 35/41, which matches.
* **Section 5, the equation for (0/4/2)**: printed ``P(0/4/2) = 1/6 + 5/6 P(1/3/2)`` (and
  ``1/6 + 5/6 (1 - P(1/2/3))`` when stopping), where the rules give ``1/6 P(0/3/2) +
  ...``: a 6 on an empty lid with four sticks in hand does not win. The rules' equation
  holds exactly.
* **Section 6, 0.1759 and 0.1765**, ``P_(4,1,2)`` under ``(0101/1010/110/10/1)`` and
  ``(0101/1010/010/10/1)``. Read literally (the mover's value at the roll (4/1/2), both
  players following the string at 7 sticks, optimal elsewhere) they come out as 0.6683 and
  0.6641, and the claim around them fails (continuing at (3/1/3) stays better than
  stopping). One reading reproduces both values to four decimals, with *one digit of the
  printed strings changed*: read "(4,1,2)" and "(3,1,3)" as (mover's sticks, opponent's
  sticks, lid), i.e. the situations (2/4/1) and (3/3/1); order the digits within each lid
  group by the mover's sticks *descending* (section 2 says the 10 of the ``j = 4`` group
  means "continue at (4/1/2) and stop at (4/2/1)", i.e. ascending); and take the first
  digit, at (1/4/2), as 1 where 0 is printed. In the paper's own digit order these are the
  profiles ``(1011/0101/011/01/1)`` and ``(1011/0101/010/01/1)`` (:data:`SECTION_6`); with
  both players following them at 7 sticks and continuing at every other decision (fewer
  sticks, and (1/5/1): optimal play there is the same), the mover's chance at the roll
  (2/4/1) is ``99034769631786605/563168094091149096 = 0.17585`` and
  ``31241691634460480867/177030122297190441048 = 0.17648``, and the claim holds: stopping
  at (3/3/1) (the ``x`` of the paper's ``(0101/1010/x10/10/1)``) is better. Without the
  changed digit this reading gives 0.1718 and 0.1724; of the three readings of the triple
  ((4/1/2), (2/4/1), (2/1/4)), both digit orders and every single-digit change, this is
  the only one that reproduces both values. The rows stay known discrepancies (the
  printed strings, read as printed, do not give the printed values) and report both
  computations.

Examples
--------
>>> [d.quantity for d in KNOWN_DISCREPANCIES][:2]
['P(1/1/2)', 'equation for (0/4/2), continuing']
>>> STRATEGIES[13]
('section 8', '(1111111111/1111111111/111000111/00000000/00000000)')
"""

# The paper's notation (j/k/l) is kept in variable names, so ``l`` is used throughout.
# ruff: noqa: E741

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple

from tbsg.games.super_six import (
    SuperSix,
    SuperSixState,
    super_six_continue_gain,
    super_six_decision_situations,
    super_six_evaluate,
    super_six_pyramid,
    super_six_strategy,
    super_six_summary_check,
)
from tbsg.sources.check import Check, Citation, KnownDiscrepancy, decimal_match

__all__ = [
    "CITATION",
    "FIGURE_1",
    "FIGURE_5",
    "KNOWN_DISCREPANCIES",
    "SECTION_4_SOLUTION",
    "SECTION_6",
    "STRATEGIES",
    "Section6Profile",
    "checks",
]

GAME = "super_six"
CITATION = "seed 002 (Jehn, Super Six)"

Situation = tuple[int, int, int]
"""The paper's ``(j/k/l)``: sticks on the lid, in the mover's hand, in the opponent's."""

F = Fraction

#: Section 3: ``P`` with three sticks, as printed.
SECTION_3: dict[Situation, str] = {(0, 1, 2): "1", (0, 2, 1): "31/36", (1, 1, 1): "5/6"}
#: Section 3: the solution of the 2 x 2 system and ``P_B``: (quantity, situation, as printed).
SECTION_3_SYSTEM: tuple[tuple[str, Situation, str], ...] = (
    ("P_D = P(0/2/2), solution of the 2 x 2 system", (0, 2, 2), "36/41"),
    ("P_A = P(1/1/2), solution of the 2 x 2 system", (1, 1, 2), "35/41"),
    ("P_B = P(2/1/1)", (2, 1, 1), "88/123"))
#: Section 3: ``P_C = 1/6 P(1/1/1) + 4/6 P_B = 0.616``.
SECTION_3_PC = "0.616"
#: Figure 1 (4 sticks) as printed; (0/3/1) is printed in parentheses ("reached only if a
#: player stops on an empty lid").
FIGURE_1: dict[Situation, str] = {(2, 1, 1): "0.715", (1, 2, 1): "0.616", (1, 1, 2): "0.853",
                                  (0, 3, 1): "(0.657)", (0, 2, 2): "0.878", (0, 1, 3): "1.000"}
#: Section 4: ``P(2/2/1) > 1/6 * 88/123 + 0.5 * 0.5 = 0.369``.
SECTION_4_BOUND = "0.369"
#: Section 4: the right-hand side of the 5 x 5 system, rows 1 and 2.
SECTION_4_RHS = ("36/41", "76/41")
#: Section 4: "The solution vector is (45324, 43164, 49531, 57624, 56365)/63919".
SECTION_4_SOLUTION: dict[Situation, str] = {
    (0, 3, 2): "45324/63919", (1, 2, 2): "43164/63919", (2, 1, 2): "49531/63919",
    (0, 2, 3): "57624/63919", (1, 1, 3): "56365/63919"}
#: Section 5 (6 sticks): possible situations, situations a game can iterate through,
#: decision situations.
SECTION_5_COUNTS = ("15", "13", "9")
#: Section 5: the printed equation for (0/4/2) when continuing.
SECTION_5_EQUATION = "P(0/4/2) = 1/6 + 5/6 P(1/3/2)"
#: Section 5: (4/1/1) with 6 sticks, winning probability continuing and stopping.
SECTION_5_P411 = ("0.524", "0.476")
#: Section 6: decision situations with 7 sticks ("the 14 shaded situations", Figure 4).
SECTION_6_DECISIONS = "14"


class Section6Profile(NamedTuple):
    """A value of section 6: as printed, and the reading that reproduces it.

    Attributes
    ----------
    printed : str
        ``P_(4,1,2)`` as printed.
    profile : str
        The profile as printed.
    reconstructed : str
        The same profile in the paper's own digit order (section 2: ``k`` ascending in
        each lid group) under the reading of the module docstring: digits read in order
        of ``k`` descending, the first one taken as 1.
    """

    printed: str
    profile: str
    reconstructed: str


#: Section 6: the two values under sub-optimal profiles (see the module docstring).
SECTION_6: tuple[Section6Profile, ...] = (
    Section6Profile("0.1759", "(0101/1010/110/10/1)", "(1011/0101/011/01/1)"),
    Section6Profile("0.1765", "(0101/1010/010/10/1)", "(1011/0101/010/01/1)"),
)
#: Section 6: at the roll where the 3-on-the-lid digits are compared, which strategy of
#: the three digits for (3/1/3), (3/2/2), (3/3/1) wins over which (others
#: 1111/1111/.../00/0).
SECTION_6_COMPARISONS: tuple[tuple[Situation, tuple[tuple[str, str], ...]], ...] = (
    ((2, 2, 3), (("100", "000"), ("101", "001"), ("110", "010"), ("111", "011"))),
    ((2, 3, 2), (("110", "100"), ("111", "101"))),
    ((2, 4, 1), (("111", "110"),)),
)
#: Sections 6 to 8: the optimal strategies as printed, by number of sticks.
STRATEGIES: dict[int, tuple[str, str]] = {
    7: ("section 6", "(1111/1111/111/00/0)"),
    8: ("section 7", "(11111/11111/1111/000/00)"),
    9: ("section 7", "(111111/111111/11111/0000/000)"),
    10: ("section 7", "(1111111/1111111/111111/00000/0000)"),
    11: ("section 7", "(11111111/11111111/1111111/000000/00000)"),
    12: ("section 7", "(111111111/111111111/11111111/0000000/000000)"),
    13: ("section 8", "(1111111111/1111111111/111000111/00000000/00000000)"),
    14: ("section 8", "(11111111111/11111111111/1100000011/000000000/00000000)"),
    15: ("section 8", "(111111111111/111111111111/11000000011/0000000000/0000000000)"),
}
#: Section 8: with 13 sticks and 3 on the lid, stop exactly at these.
SECTION_8_STOPS_13: tuple[Situation, ...] = ((3, 4, 6), (3, 5, 5), (3, 6, 4))
#: Figure 5's bullets: with 3 on the lid and ``l`` sticks in the opponent's hand, stopping
#: is better when the mover has at least ``FIGURE_5[l]`` sticks.
FIGURE_5: dict[int, int] = {3: 8, 4: 6, 5: 5, 6: 4}

_SECTION_6_REASON = (
    "read literally (both players follow the printed string at the 7-stick decisions and "
    "play optimally elsewhere; P is the mover's chance at the roll (4/1/2)) the value is "
    "{literal}, not {printed}. Reproduced to four decimals under a reading that changes one "
    "printed digit: '(4,1,2)' and '(3,1,3)' read as (mover's sticks, opponent's sticks, lid), "
    "i.e. the situations (2/4/1) and (3/3/1); digits within each lid group ordered by the "
    "mover's sticks descending (section 2 orders them ascending); the first digit, at "
    "(1/4/2), taken as 1 where 0 is printed. That is the profile {reconstructed} in the "
    "paper's own digit order, followed by both players at 7 sticks, both continuing at "
    "every other decision (fewer sticks, and (1/5/1)); P is the mover's chance at the roll "
    "(2/4/1), {value}")

#: The source's known discrepancies, declared in advance: each row named here must not
#: match, and must compute exactly this value (see the module docstring).
KNOWN_DISCREPANCIES: tuple[KnownDiscrepancy, ...] = (
    KnownDiscrepancy(
        "P(1/1/2)", F(35, 41),
        "35/41 = 0.85366 rounds to 0.854; the printed 0.853 is truncated, while the same "
        "figure rounds 101/164 = 0.61585 up to 0.616. Section 3 gives the exact 35/41, "
        "which matches"),
    KnownDiscrepancy(
        "equation for (0/4/2), continuing",
        (F(8684269776, 16065337541), F(8684269776, 16065337541), F(56779267361, 96392025246)),
        "the printed first term 1/6 counts a 6 as a win; with 4 sticks in hand a 6 on an "
        "empty lid leads to (0/3/2), so the term is 1/6 P(0/3/2) (same slip in the printed "
        "'stop' equation); the rules' equation holds exactly"),
    KnownDiscrepancy(
        "P_(4,1,2) under (0101/1010/110/10/1)",
        (F(3215688078055457611, 4812061526281270503), F(99034769631786605, 563168094091149096)),
        _SECTION_6_REASON.format(literal="0.6683", printed="0.1759",
                                 reconstructed="(1011/0101/011/01/1)", value="0.17585")),
    KnownDiscrepancy(
        "P_(4,1,2) under (0101/1010/010/10/1)",
        (F(50994409826490740813, 76790739299946382656),
         F(31241691634460480867, 177030122297190441048)),
        _SECTION_6_REASON.format(literal="0.6641", printed="0.1765",
                                 reconstructed="(1011/0101/010/01/1)", value="0.17648")),
    KnownDiscrepancy(
        "optimal strategy S_13", "(1111111111/1111111111/111000111/00000000/0000000)",
        "the printed j = 5 group has 8 digits but there are only 7 situations (5/k/l) with "
        "13 sticks (44 digits in all, the paper's 5i - 21); every other digit agrees"),
    KnownDiscrepancy(
        "optimal strategy S_15",
        "(111111111111/111111111111/11000000011/0000000000/000000000)",
        "the printed j = 5 group has 10 digits but there are only 9 situations (5/k/l) with "
        "15 sticks (54 digits in all, the paper's 5i - 21); every other digit agrees"),
)


_PAPER = Citation(GAME, CITATION)


def _describe(situations: Sequence[Situation]) -> str:
    return ", ".join("({}/{}/{})".format(*s) for s in situations) or "none"


def _group_sizes(total: int) -> list[int]:
    """Digits per lid group of ``S_total``: the decision situations with ``j`` on the lid."""
    sits = super_six_decision_situations(total)
    return [n for n in (sum(1 for s in sits if s[0] == j) for j in range(1, 6)) if n]


def _cut_to_true_length(printed: str, total: int) -> str:
    """``printed`` with every group cut to the number of situations it stands for."""
    groups = printed.strip("()").split("/")
    return "(" + "/".join(g[:n] for g, n in zip(groups, _group_sizes(total), strict=True)) + ")"


def _approx(x: Fraction) -> str:
    return f"{x} ≈ {float(x):.4f}"


def _inequality(where: str, quantity: str, printed: str, x: Fraction, bound: Fraction, *,
                below: bool = False) -> Check:
    """The paper's ``x > bound`` (``x < bound`` with ``below``), both shown to 4 decimals."""
    holds = x < bound if below else x > bound
    sign = ">" if x > bound else "<" if x < bound else "="
    return _PAPER.claim(where, quantity, printed, f"{float(x):.4f} {sign} {float(bound):.4f}", holds, x)


def _strategy_claim(where: str, quantity: str, printed: str, total: int, expected: str) -> Check:
    """A strategy the paper states in words for ``total`` sticks, against the computed ``S_total``."""
    computed = super_six_strategy(total)
    return _PAPER.claim(where, quantity, printed, f"S_{total} = {computed}", computed == expected)


class _Values:
    """The paper's ``P(j/k/l)``, the mover's chance at a roll, for 3 to 15 sticks.

    The pyramids are computed largest first, so one exact solve (15 sticks) serves all.
    """

    def __init__(self) -> None:
        self.pyramids = {n: super_six_pyramid(n) for n in range(15, 2, -1)}

    def __call__(self, j: int, k: int, l: int) -> Fraction:
        return self.pyramids[j + k + l][j, k, l]


def _section_3(p: _Values) -> list[Check]:
    """Three and four sticks: the exact values, the bounds used in the arguments, the
    2 x 2 system."""
    where = "section 3"
    rows = [_PAPER.fraction(where, f"P({j}/{k}/{l})", printed, p(j, k, l))
            for (j, k, l), printed in SECTION_3.items()]
    rows += [
        _strategy_claim(where, "4 sticks: best action at A = (1/1/2) and B = (2/1/1)",
                        "continue at both", 4, "(1/1)"),
        _inequality(where, "P_A = P(1/1/2) > 5/6", "> 5/6", p(1, 1, 2), F(5, 6)),
        _inequality(where, "P_C = P(1/2/1) > 1/6 * 5/6 + 4/6 * 4/6 = 21/36", "> 21/36",
                    p(1, 2, 1), F(21, 36)),
        _inequality(where, "stopping at (1/1/2) leaves 1 - P_C < 15/36", "< 15/36",
                    1 - p(1, 2, 1), F(15, 36), below=True)]
    rows += [_PAPER.fraction(where, quantity, printed, p(*at)) for quantity, at, printed in SECTION_3_SYSTEM]
    rows.append(_PAPER.decimal(where, "P_C = P(1/2/1)", SECTION_3_PC, p(1, 2, 1)))
    return rows


def _figure_1(p: _Values) -> list[Check]:
    """Figure 1 (4 sticks, 3 decimals); the value printed in parentheses is compared
    without them and shown with them."""
    rows = []
    for (j, k, l), printed in FIGURE_1.items():
        quantity = f"P({j}/{k}/{l})"
        if printed.startswith("("):
            quantity += ", printed in parentheses: reached only by stopping on an empty lid"
        row = _PAPER.decimal("Figure 1", quantity, printed.strip("()"), p(j, k, l))
        rows.append(dataclasses.replace(row, published=printed))
    return rows


def _section_4(p: _Values) -> list[Check]:
    """Five sticks: the bounds of the argument, ``S_5`` and the printed 5 x 5 system."""
    where = "section 4"
    bound = F(1, 6) * p(2, 1, 1) + F(1, 4)
    rows = [
        _inequality(where, "P(3/1/1) > 0.5", "> 0.5", p(3, 1, 1), F(1, 2)),
        _inequality(where, "P(2/1/2) > 4/6", "> 4/6", p(2, 1, 2), F(4, 6)),
        _PAPER.decimal(where, "bound 1/6 * P(2/1/1) + 0.5 * 0.5", SECTION_4_BOUND, bound),
        _PAPER.claim(where, "P(2/2/1) > 0.369 > 2/6", "> 0.369 > 2/6",
                     f"{float(p(2, 2, 1)):.4f} > {float(bound):.4f} > {float(F(2, 6)):.4f}",
                     p(2, 2, 1) > bound > F(2, 6), p(2, 2, 1)),
        _strategy_claim(where, "5 sticks: continuing is best in all 5 decision situations",
                        "continue at all 5", 5, "(11/11/1)"),
        _PAPER.fraction(where, "right-hand side, row 1: 6 * P(0/2/2) / 6", SECTION_4_RHS[0], p(0, 2, 2)),
        _PAPER.fraction(where, "right-hand side, row 2: 6 * P(1/1/2) / 6 + 1", SECTION_4_RHS[1],
                        p(1, 1, 2) + 1)]
    rows += [_PAPER.fraction(where, f"P{_describe([at])}, solution vector of the 5 x 5 system",
                             printed, p(*at))
             for at, printed in SECTION_4_SOLUTION.items()]
    return rows


def _section_5_counts(p: _Values) -> list[Check]:
    """Six sticks: the situations there are, those a game from (0/3/3) iterates through,
    the decision situations, and ``S_6``."""
    from tbsg.api.solving import solve

    where = "section 5"
    six = p.pyramids[6]
    reached = {(s.lid, s.hand, s.other) for s in solve(SuperSix(3, 3)).states
               if not s.decision and s.lid + s.hand + s.other == 6}
    iterating = {s for s in reached if six[s] != 1}
    possible, iterate, decisions = SECTION_5_COUNTS
    n6 = len(super_six_decision_situations(6))
    return [
        _PAPER.claim(where, "6 sticks: possible situations", possible, str(len(six)),
                     str(len(six)) == possible, len(six)),
        _PAPER.claim(where, "6 sticks: situations a game from (0/3/3) can iterate through "
                     "(without the unreachable (0/5/1) and the trivial (0/1/5))", iterate,
                     f"{len(iterating)}; unreachable: {_describe(sorted(set(six) - reached))}; "
                     f"trivial: {_describe(sorted(reached - iterating))}", str(len(iterating)) == iterate),
        _PAPER.claim(where, "6 sticks: decision situations", decisions, str(n6), str(n6) == decisions, n6),
        _strategy_claim(where, "6 sticks: best strategy", "continue in all 9 situations", 6,
                        "(111/111/11/1)")]


def _section_5_equations(p: _Values) -> list[Check]:
    """Six sticks: the printed equations for (0/4/2), (1/4/1) and (4/1/1), and the values
    at (4/1/1)."""
    where = "section 5"
    rules_042 = F(1, 6) * p(0, 3, 2) + F(5, 6) * p(1, 3, 2)
    printed_042 = F(1, 6) + F(5, 6) * p(1, 3, 2)
    cont_141 = F(1, 6) * p(1, 3, 1) + F(4, 6) * p(2, 3, 1)
    stop_141 = F(1, 6) * p(1, 3, 1) + F(4, 6) * (1 - p(2, 1, 3))
    rhs_411 = F(2, 6) + F(4, 6) * (1 - p(3, 1, 2))
    return [
        _PAPER.claim(where, "equation for (0/4/2), continuing", SECTION_5_EQUATION,
                     f"P(0/4/2) = {_approx(p(0, 4, 2))} = 1/6 P(0/3/2) + 5/6 P(1/3/2) = {rules_042}; "
                     f"1/6 + 5/6 P(1/3/2) = {_approx(printed_042)}",
                     printed_042 == p(0, 4, 2) and rules_042 == p(0, 4, 2),
                     (p(0, 4, 2), rules_042, printed_042)),
        _PAPER.claim(where, "equations for (1/4/1): continue 1/6 P(1/3/1) + 4/6 P(2/3/1), "
                     "stop 1/6 P(1/3/1) + 4/6 (1 - P(2/1/3))", "continue is better (section 5)",
                     f"P(1/4/1) = {float(p(1, 4, 1)):.4f} = continue; stop {float(stop_141):.4f}",
                     cont_141 == p(1, 4, 1) and cont_141 > stop_141, (cont_141, stop_141)),
        _PAPER.claim(where, "P(4/1/1) = 2/6 + 4/6 (1 - P(3/1/2))", "equation",
                     f"{float(p(4, 1, 1)):.4f} = {float(rhs_411):.4f}", p(4, 1, 1) == rhs_411,
                     (p(4, 1, 1), rhs_411)),
        _PAPER.decimal(where, "(4/1/1), 6 sticks: winning probability when continuing",
                       SECTION_5_P411[0], p(4, 1, 1)),
        _PAPER.decimal(where, "(4/1/1), 6 sticks: winning probability when stopping",
                       SECTION_5_P411[1], 1 - p(4, 1, 1))]


def _section_6_row(where: str, case: Section6Profile) -> Check:
    """Both computations of a section 6 value: literal, and the reading that reproduces it."""
    literal = super_six_evaluate(case.profile).value_to_move(SuperSixState(0, 4, 1, 2, False))
    rolling = super_six_evaluate(case.reconstructed, elsewhere="roll")
    optimal = super_six_evaluate(case.reconstructed)
    read = rolling.value_to_move(SuperSixState(0, 2, 4, 1, False))
    read_optimal = optimal.value_to_move(SuperSixState(0, 2, 4, 1, False))
    reproduced = decimal_match(case.printed, read)
    computed = (f"literal (4/1/2): {_approx(literal)}; reconstructed (2/4/1) under "
                f"{case.reconstructed}: {_approx(read)}")
    note = (f"literal: P at the roll (4/1/2), both players following {case.profile} at 7 sticks "
            f"and optimal elsewhere = {literal} ≈ {float(literal):.4f}; reconstructed: P at the "
            f"roll (2/4/1), both players following {case.reconstructed} at 7 sticks and "
            f"continuing elsewhere = {read} ≈ {float(read):.4f}, which "
            + ("rounds to the printed value" if reproduced else "does NOT round to the printed value")
            + ("; optimal play elsewhere gives the same value" if read == read_optimal
               else f"; optimal play elsewhere gives {_approx(read_optimal)} instead"))
    return _PAPER.claim(where, f"P_(4,1,2) under {case.profile}", case.printed, computed,
                        decimal_match(case.printed, literal), (literal, read), note)


def _section_6() -> list[Check]:
    """Seven sticks: the two values under sub-optimal profiles, the decision situations and
    the comparisons that fix the 3-on-the-lid digits."""
    where = "section 6"
    rows = [_section_6_row(where, case) for case in SECTION_6]
    n7 = len(super_six_decision_situations(7))
    rows.append(_PAPER.claim(where, "7 sticks: decision situations (shaded in Figure 4)", SECTION_6_DECISIONS,
                             str(n7), str(n7) == SECTION_6_DECISIONS, n7))
    three = {d: super_six_evaluate(f"(1111/1111/{d}/00/0)") for _, pairs in SECTION_6_COMPARISONS
             for pair in pairs for d in pair}
    for at, pairs in SECTION_6_COMPARISONS:
        values = {d: three[d].value_to_move(SuperSixState(0, *at, False))
                  for pair in pairs for d in pair}
        rows.append(_PAPER.claim(
            where, f"P at ({at[0]}/{at[1]}/{at[2]}), 3-on-the-lid digits compared (others "
            "1111/1111/.../00/0)", ", ".join(f"({a}) wins over ({b})" for a, b in pairs),
            ", ".join(f"({a}) {float(values[a]):.5f} vs ({b}) {float(values[b]):.5f}" for a, b in pairs),
            all(values[a] > values[b] for a, b in pairs),
            tuple(values[d] for pair in pairs for d in pair)))
    return rows


def _strategies() -> list[Check]:
    """Sections 6 to 8: the optimal strings ``S_7`` to ``S_15``, literally; a string with a
    group too long also cut to the true group lengths."""
    rows = []
    for total, (where, printed) in STRATEGIES.items():
        computed = super_six_strategy(total)
        rows.append(_PAPER.text(where, f"optimal strategy S_{total}", printed, computed))
        if [len(g) for g in printed.strip("()").split("/")] != _group_sizes(total):
            rows.append(_PAPER.text(
                where, f"optimal strategy S_{total}, each group cut to its number of situations",
                _cut_to_true_length(printed, total), computed,
                "compares the printed digits that stand for a situation; the extra digits of a "
                "group too long are dropped"))
    return rows


def _section_8() -> list[Check]:
    """Where stopping with 3 on the lid pays: the 13-stick stops, the small gains at 15
    sticks, and Figure 5's thresholds."""
    where = "section 8"
    stops13 = [s for s, g in super_six_continue_gain(13).items() if s[0] == 3 and g < 0]
    gains15 = [abs(g) for s, g in super_six_continue_gain(15).items() if s[0] == 3]
    small = sum(g < F(5, 10**4) for g in gains15)
    rows = [
        _PAPER.claim(where, "13 sticks, 3 on the lid: where stopping is optimal",
                     f"{_describe(SECTION_8_STOPS_13)}; continue elsewhere", _describe(stops13),
                     tuple(stops13) == SECTION_8_STOPS_13),
        _PAPER.claim(where, "15 sticks, 3 on the lid: |P(continue) - P(stop)| mostly below 5e-4",
                     "mostly below 5e-4",
                     f"{small} of {len(gains15)} below; largest {float(max(gains15)):.2e}",
                     2 * small > len(gains15), tuple(gains15))]
    gains = {s: g for total in range(6, 16)
             for s, g in super_six_continue_gain(total).items() if s[0] == 3}
    for l, first in FIGURE_5.items():
        ks = list(range(1, 13 - l))
        stops = [k for k in ks if gains[3, k, l] < 0]
        rows.append(_PAPER.claim(
            "section 8, Figure 5", f"3 on the lid, opponent holds {l}: stopping is better",
            f"when player 1 has {first} or more sticks",
            f"for k = {', '.join(map(str, stops)) or 'none'} (k = 1 .. {ks[-1]}, up to 15 sticks)",
            stops == [k for k in ks if k >= first]))
    return rows


def _summary() -> list[Check]:
    """The abstract and section 9: the summary rules, checked up to 15 sticks."""
    where = "abstract and section 9"
    summary = super_six_summary_check(15)
    return [
        _PAPER.claim(where, "1 or 2 sticks on the lid (4 to 15 sticks)", "always continue",
                     f"stopping optimal at: {_describe(summary.lid_1_2_stop)}", not summary.lid_1_2_stop),
        _PAPER.claim(where, "5 sticks on the lid (7 to 15 sticks)", "stop",
                     f"continuing optimal at: {_describe(summary.lid_5_continue)}",
                     not summary.lid_5_continue),
        _PAPER.claim(where, "4 sticks on the lid (6 to 15 sticks)", "stop unless both players have one stick",
                     f"rule wrong at: {_describe(summary.lid_4_wrong)}", not summary.lid_4_wrong),
        _PAPER.claim(where, "3 sticks on the lid (5 to 15 sticks)",
                     "continue with not too many sticks; from 13 sticks stop in some situations",
                     f"first stop at {summary.first_lid_3_stop} sticks; {len(summary.lid_3_stop)} stops "
                     "up to 15 sticks", summary.first_lid_3_stop == 13)]


def checks() -> list[Check]:
    """Every number and statement of the paper, recomputed (rows for ``tbsg reproduce``).

    Sections 3 and 4 (the 3-, 4- and 5-stick values, the bounds used in the arguments and
    the solution of the printed 5 x 5 system), Figure 1, section 5 (counts, the printed
    equations, (4/1/1) at 6 sticks), section 6 (the two sub-optimal profiles, the
    comparisons that fix the 3-on-the-lid digits, ``S_7``), sections 7 and 8 (``S_8`` to
    ``S_15``, the 13-stick stops, Figure 5) and the abstract and conclusion's summary.
    Literal comparisons throughout.
    """
    p = _Values()
    return [*_section_3(p), *_figure_1(p), *_section_4(p), *_section_5_counts(p),
            *_section_5_equations(p), *_section_6(), *_strategies(), *_section_8(), *_summary()]
