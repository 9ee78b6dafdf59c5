"""Adversarial review of boundary values (keep_values="boundary"): each test names the
exact input and the answer a solution storing every value gives."""

from __future__ import annotations

import pytest

import tbsg
from tbsg.games import coinball, pig


@pytest.mark.parametrize("game", [pig(6), coinball(3)], ids=repr)
def test_out_of_range_negative_index_raises_index_error_as_with_all_values(game: object) -> None:
    # a list (keep_values="all") raises IndexError below -n; BoundaryValues adds n once
    # and then reads the list (Python wraps it again): pig(6)[-121] raised KeyError(-1),
    # coinball(3)[-15] returned the last value (0), and [-2n] the initial state's value
    full = tbsg.solve(game, keep_values="all")
    part = tbsg.solve(game, keep_values="boundary")
    n = full.n_states
    for i in (-n - 1, -2 * n):
        with pytest.raises(IndexError):
            full.values_exact[i]
        with pytest.raises(IndexError):
            part.values_exact[i]
