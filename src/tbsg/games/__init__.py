"""The catalog: published games encoded as their sources state the rules.

Each module holds one game: its rules (with the source) in the docstring, a constructor
with the source's parameters, lookups in the source's notation, and analysis functions
(the source's tables as functions returning exact data, checks of its summary rules).
What each source prints, its recomputation for ``tbsg reproduce`` and its known
discrepancies live apart, in :mod:`tbsg.sources`; the games do not import it.
"""

from tbsg.games.coinball import (
    Coinball,
    CoinballOutcomes,
    CoinballState,
    CoinballSummaryCheck,
    coinball,
    coinball_outcomes,
    coinball_summary_check,
    coinball_summary_rule,
)
from tbsg.games.pig import (
    BiasedPig,
    Pig,
    Piglet,
    PigState,
    PigTurnBounds,
    PigTurns,
    biased_pig,
    pig,
    pig_hold_at,
    pig_hold_boundary,
    pig_turn_bounds,
    pig_turns,
    pig_versus,
    piglet,
)
from tbsg.games.risk_or_safety import (
    BiasedRiskOrSafety,
    RiskOrSafety,
    RoSLengthRow,
    RoSState,
    biased_risk_or_safety,
    risk_or_safety,
    risk_or_safety_coin_table,
    risk_or_safety_lengths,
)
from tbsg.games.super_six import (
    SuperSix,
    SuperSixState,
    super_six,
    super_six_continue_gain,
    super_six_decision_situations,
    super_six_pyramid,
    super_six_strategy,
)
from tbsg.games.the_race import (
    RaceLength,
    RaceState,
    TheRace,
    the_race,
    the_race_length,
    the_race_strategy,
    the_race_ties,
)
from tbsg.games.unspeakable_words import (
    UnspeakableWords,
    UWState,
    unspeakable_words,
    unspeakable_words_tables,
)

__all__ = [
    "BiasedPig",
    "BiasedRiskOrSafety",
    "Coinball",
    "CoinballOutcomes",
    "CoinballState",
    "CoinballSummaryCheck",
    "Pig",
    "PigState",
    "PigTurnBounds",
    "PigTurns",
    "Piglet",
    "RaceLength",
    "RaceState",
    "RiskOrSafety",
    "RoSLengthRow",
    "RoSState",
    "SuperSix",
    "SuperSixState",
    "TheRace",
    "UWState",
    "UnspeakableWords",
    "biased_pig",
    "biased_risk_or_safety",
    "coinball",
    "coinball_outcomes",
    "coinball_summary_check",
    "coinball_summary_rule",
    "pig",
    "pig_hold_at",
    "pig_hold_boundary",
    "pig_turn_bounds",
    "pig_turns",
    "pig_versus",
    "piglet",
    "risk_or_safety",
    "risk_or_safety_coin_table",
    "risk_or_safety_lengths",
    "super_six",
    "super_six_continue_gain",
    "super_six_decision_situations",
    "super_six_pyramid",
    "super_six_strategy",
    "the_race",
    "the_race_length",
    "the_race_strategy",
    "the_race_ties",
    "unspeakable_words",
    "unspeakable_words_tables",
]
