"""The heuristic bot: how it values a car, and that it beats the random bot by a wide margin."""

from __future__ import annotations

from racedeck.core.runner import run_match
from racedeck.games.detroit_cleveland.bots import DetroitClevelandHeuristic, colour_movement
from racedeck.plugins import load_registry
from tests.games.detroit_cleveland.support import GAME, B, G, Y, deal, options

OPTS = options()


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


def test_the_bot_values_a_colour_by_its_movement_counting_white() -> None:
    """A player will likely bid higher for a car for which he holds cards which have a
    greater total movement for that color (counting white, when it could be used for that
    color)."""
    hand = (5, 8)  # B6 Y4 R2 G1 and B6 G4 W2 R1
    totals = colour_movement(hand, ten_to_buyer=False)
    assert totals[B] == 12
    assert totals[Y] == 4 + 1  # white counts half for yellow, which is not on #8
    assert totals[G] == 5  # green is on #8, so its white cannot move green
    bot = DetroitClevelandHeuristic()
    bot.start_match(GAME.name, 0, 3, OPTS)
    full = (*hand, 1, 4, 9, 12, 18, 19, 25, 26, 33, 35, 36)  # 13 cards
    state = deal(OPTS, 3, hands=(full, (7,), (17,)))
    observation = GAME.observe(state, 0)
    totals = colour_movement(full, ten_to_buyer=True)
    strongest = max(range(6), key=totals.__getitem__)
    weakest = min(range(6), key=totals.__getitem__)
    assert bot.worth(observation, strongest) > bot.worth(observation, weakest)
