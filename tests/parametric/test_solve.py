"""``tbsg.parametric.solve``: the exclusion of roots by Descartes' rule changes no result.

Oracle: the same search with the exclusion switched off (every advantage numerator
factored and its roots isolated, as the search did without it): the same regions, values,
certificates and breakpoints, compared with ``==`` (exact).
"""

from __future__ import annotations

from typing import Any

import pytest

sympy = pytest.importorskip("sympy")
pytest.importorskip("flint")

from tbsg.games import biased_pig, biased_risk_or_safety  # noqa: E402
from tbsg.parametric import solve, solve_parametric  # noqa: E402

P = sympy.Symbol("p")


def _record(sol: Any) -> list[Any]:
    """Everything a solution holds, region by region and breakpoint by breakpoint."""
    out: list[Any] = []
    for r in sol.regions:
        out.append((r.lo, r.hi, r.sample, r._choice, r._values, r._zero, r._touch,
                    tuple((k, list(poly.coeffs())) for k, poly in r._adv)))
    out += [(b.at, b.changes, b.ties) for b in sol.breakpoints]
    return out


@pytest.mark.parametrize("game", [biased_risk_or_safety(3, P), biased_pig(4, bust=P)], ids=["ros3", "pig4"])
def test_the_exclusion_changes_no_result(game: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = solve_parametric(game, P)
    monkeypatch.setattr(solve, "sign_on", lambda poly, a, b: 0)
    full = solve_parametric(game, P)
    assert _record(fast) == _record(full)
    assert len(fast.regions) > 1
