"""Every registered game runs in a tournament, through the game contract alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from racedeck.plugins import load_registry
from racedeck.tournament.executors import InlineExecutor
from racedeck.tournament.plan import plan_tournament
from racedeck.tournament.run import play
from racedeck.tournament.standings import compute_standings
from racedeck.tournament.store import Store

_REGISTRY = load_registry(entry_points=False)


@pytest.mark.parametrize("game_name", sorted(_REGISTRY.games))
def test_a_duplicate_tournament_of_every_game_plays_and_rates(
    game_name: str, tmp_path: Path
) -> None:
    game = _REGISTRY.games[game_name]
    bots = sorted({spec.name for spec in _REGISTRY.bots_for(game_name)} & {"random", "heuristic"})
    players = max(game.min_players, 2)
    spec = plan_tournament(
        _REGISTRY,
        game_name,
        bots,
        matches=2 * players,
        seed=1,
        format="duplicate",
        players=players,
        options=dict(game.conformance_options[0]),
        entry_points=False,
    )
    with Store.create(tmp_path / "t.sqlite", spec) as store:
        assert play(store, InlineExecutor()) == 2 * players
        records = list(store.records())
        standings = compute_standings(spec, store.records())
    assert [r.status for r in records] == ["ok"] * len(records), [r.reason for r in records]
    assert standings.complete and standings.errors == 0
    assert sum(f.matches for f in standings.bots) == 2 * players * players
