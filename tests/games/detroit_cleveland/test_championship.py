"""Winning the Game: three races, the richest player wins."""

from __future__ import annotations

from racedeck.core.runner import run_match
from racedeck.games.detroit_cleveland.championship import phase_after_race
from racedeck.games.detroit_cleveland.options import track_of
from racedeck.plugins import load_registry
from tests.games.detroit_cleveland.support import (
    GAME,
    options,
)

OPTS = options()
TRACK = track_of(OPTS)


def test_three_races_and_the_richest_player_wins() -> None:
    """The player with the most money after three races is the winner! The game ends when
    three races have been completed. The player with the most money is the winner."""
    registry = load_registry(entry_points=False)
    spec = registry.bot("random", GAME.name)
    outcome = run_match(GAME, OPTS, [spec] * 3, 4)
    assert len(outcome.state.results) == 3
    assert GAME.next_step(outcome.state).over
    result = GAME.result(outcome.state)
    assert result.unit == "dollars"
    assert result.scores == outcome.state.money
    richest = max(result.scores)
    assert all(
        (r == 1) == (s == richest) for r, s in zip(result.ranks, result.scores, strict=False)
    )


def test_the_match_ends_after_the_last_race() -> None:
    three = options()
    assert [phase_after_race(n, three) for n in (1, 2, 3)] == ["deal", "deal", "over"]
    assert phase_after_race(1, options(races=1)) == "over"
