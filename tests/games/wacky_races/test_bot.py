"""The heuristic bot beats the random bot by a wide, stable margin."""

from __future__ import annotations

from racedeck.core.runner import run_match
from racedeck.plugins import Registry


def test_heuristic_beats_random_with_seats_rotated(registry: Registry) -> None:
    game = registry.game("wacky-races")
    options = game.parse_options({})
    heuristic = registry.bot("heuristic", "wacky-races")
    rand = registry.bot("random", "wacky-races")
    players, matches, wins = 4, 40, 0
    for seed in range(matches):
        seat = seed % players
        seats = [rand] * players
        seats[seat] = heuristic
        outcome = run_match(game, options, seats, seed)
        assert not outcome.faults
        wins += outcome.result.ranks[seat] == 1
    # A random seat wins a quarter of these; the heuristic wins about three quarters.
    assert wins / matches >= 0.5, wins


def test_heuristic_wins_heads_up_from_either_seat(registry: Registry) -> None:
    game = registry.game("wacky-races")
    options = game.parse_options({})
    heuristic = registry.bot("heuristic", "wacky-races")
    rand = registry.bot("random", "wacky-races")
    wins = [0, 0]
    for seed in range(30):
        for seat in (0, 1):
            seats = [rand, rand]
            seats[seat] = heuristic
            wins[seat] += run_match(game, options, seats, seed).result.ranks[seat] == 1
    assert min(wins) >= 18, wins  # about 80% from each seat
