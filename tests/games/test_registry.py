"""The catalog follows the pattern of games that carry their parameters
(:mod:`tbsg.results.provenance`): each game reports, as its parameters, the values its
constructor was given, so provenance names them and a saved file rebuilds the game."""

from __future__ import annotations

import pytest

from tbsg.games.registry import CATALOG
from tbsg.results.provenance import describe_game, game_parameters

#: Small, valid parameters of each catalog game (texts, as the command line gives them).
SMALL = {"risk_or_safety": {"target": "3"}, "coinball": {"tosses": "4"},
         "super_six": {"k": "2", "l": "3", "lid": "1"}, "the_race": {"goal": "3"},
         "unspeakable_words": {"a": "2", "b": "3", "die": "4"}, "pig": {"goal": "5", "die": "3"},
         "piglet": {"goal": "3"}, "pig_turn": {"die": "4"},
         "pig_solitaire": {"goal": "8", "die": "4"}}


def test_every_catalog_game_has_small_parameters_here() -> None:
    assert set(SMALL) == set(CATALOG)


@pytest.mark.parametrize("name", list(CATALOG))
def test_catalog_games_report_the_parameters_they_were_built_with(name: str) -> None:
    entry = CATALOG[name]
    game = entry.make(SMALL[name])
    reported = game_parameters(game)
    assert reported is not None
    for parameter in entry.parameters():
        field = entry.fields.get(parameter.name, parameter.name)
        given = SMALL[name].get(parameter.name)
        if given is None and parameter.default is None:
            continue  # a default the game resolves (pig_turn's limit T + 1): it reports the value used
        expected = parameter.default if given is None else int(given)
        assert reported[field] == expected, (name, parameter.name)
    assert describe_game(game) == repr(game) and " at 0x" not in repr(game)
