"""The catalog: published games encoded as their sources state the rules."""

from tbsg.games.risk_or_safety import (
    RiskOrSafety,
    RoSState,
    risk_or_safety,
    risk_or_safety_coin_table,
)

__all__ = ["RiskOrSafety", "RoSState", "risk_or_safety", "risk_or_safety_coin_table"]
