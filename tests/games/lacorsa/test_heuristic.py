"""The LACORSA heuristic bot clearly beats random play."""

from __future__ import annotations

from racedeck.core.runner import run_match
from racedeck.plugins import Registry


def test_heuristic_wins_most_four_player_championships(registry: Registry) -> None:
    game = registry.game("lacorsa")
    heuristic, random_bot = registry.bot("heuristic", "lacorsa"), registry.bot("random", "lacorsa")
    options = game.parse_options({"races": 7})
    wins = 0
    matches = 40
    for seed in range(matches):
        seat = seed % 4
        seats = [random_bot] * 4
        seats[seat] = heuristic
        outcome = run_match(game, options, seats, seed)
        assert not outcome.faults
        wins += outcome.result.ranks[seat] == 1
    # Random play would win a quarter; over 300 seeds the heuristic wins 89%.
    assert wins >= 0.6 * matches, f"heuristic won only {wins} of {matches}"


def test_heuristic_qualifies_hard_with_few_extends() -> None:
    """• If you have two or fewer Extend Cards, try to move to the front during qualifying or early in the race.

    Being aggressive here can prevent you from falling behind.
    """
    from msgspec.structs import replace

    from racedeck.games.lacorsa.bots import LacorsaHeuristic
    from racedeck.games.lacorsa.options import LacorsaOptions

    from .helpers import GAME, hand

    bot = LacorsaHeuristic()
    base = GAME.initial_state(LacorsaOptions(races=1), 4)
    few = replace(
        base,
        phase="qualify",
        hands=(hand("1 4 5 9 12"), hand("4"), hand("4"), hand("4")),
        committed=(None,) * 4,
    )
    many = replace(few, hands=(hand("1 1 2 3 4 12"), hand("4"), hand("4"), hand("4")))
    import random

    pick = bot.act(GAME.observe(few, 0), GAME.legal_actions(few, 0), random.Random(0))
    assert pick.cards == hand("12")  # type: ignore[attr-defined]
    pick = bot.act(GAME.observe(many, 0), GAME.legal_actions(many, 0), random.Random(0))
    assert pick.cards == hand("4")  # type: ignore[attr-defined]
