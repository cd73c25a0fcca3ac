"""The simulations ``make bench`` counts for each game's registered ``ismcts``."""

from __future__ import annotations

import dataclasses

import pytest

from benchmarks.bench_ismcts import _budget_searcher, _registered
from racedeck.bots.plugin import GAME_BUDGETS


@pytest.mark.parametrize("game", sorted(GAME_BUDGETS))
def test_the_registered_search_is_counted_in_simulations_with_its_own_playouts(game: str) -> None:
    """Its playouts, horizon and bias are the registered ones; only the limit differs."""
    registered, _what = GAME_BUDGETS[game]["ismcts"]
    counted = _registered(game, 3)
    assert (counted.simulations, counted.steps, counted.effort, counted.searched) == (
        3,
        None,
        None,
        None,
    )
    limits = {"simulations", "steps", "effort", "seconds", "searched"}
    for field in dataclasses.fields(registered):
        if field.name not in limits:
            assert getattr(counted, field.name) == getattr(registered, field.name), field.name
    # Each decision point searched makes the simulations asked for, Detroit-Cleveland's
    # bids among them.
    assert _budget_searcher(game, counted, 2)() == 6
