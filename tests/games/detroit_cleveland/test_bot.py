"""The heuristic bot beats the random bot by a wide margin."""

from __future__ import annotations

from racedeck.core.runner import run_match
from racedeck.plugins import load_registry
from tests.games.detroit_cleveland.support import GAME, options


def test_the_heuristic_bot_beats_random() -> None:
    registry = load_registry(entry_points=False)
    heuristic = registry.bot("heuristic", GAME.name)
    random_bot = registry.bot("random", GAME.name)
    opts = options(races=1)
    wins = 0
    matches = 0
    for players in (2, 4):
        for seed in range(12):
            seat = seed % players
            seats = [heuristic if s == seat else random_bot for s in range(players)]
            outcome = run_match(GAME, opts, seats, 1000 + seed)
            assert not outcome.faults
            wins += outcome.result.ranks[seat] == 1
            matches += 1
    # Random would win about a third of these; the heuristic wins nearly all.
    assert wins >= 0.8 * matches
