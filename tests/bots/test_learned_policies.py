"""Every game's learned policy (``distilled``): whole matches at every table, and its strength."""

from __future__ import annotations

import pytest

from racedeck.bots.ismcts import Budget, Ismcts
from tests.bots.helpers import REGISTRY, policy_against_heuristic, policy_plays_alike_when_watched

POLICIES = {
    "lacorsa": ({"races": 1}, 10, 0.6),
    "wacky-races": ({}, 20, 0.55),
    "famous-500": ({}, 20, 0.6),
}
"""Per game with a learned policy: its options here, the duplicate deals its strength is
measured over, and the score it must pass against its heuristic."""

TABLES = [
    (name, players)
    for name in sorted(POLICIES)
    for players in range(REGISTRY.game(name).min_players, REGISTRY.game(name).max_players + 1)
]
"""Every table of every game with a learned policy."""


@pytest.mark.parametrize(("game_name", "players"), TABLES)
def test_the_policy_plays_whole_matches_at_every_table_the_same_way_twice(
    game_name: str, players: int
) -> None:
    game = REGISTRY.game(game_name)
    policy_plays_alike_when_watched(game, game.parse_options(POLICIES[game_name][0]), players)


@pytest.mark.parametrize("game_name", sorted(POLICIES))
def test_learned_playouts_ask_the_games_policy_for_playouts_and_the_favoured_choice(
    game_name: str,
) -> None:
    game = REGISTRY.game(game_name)
    policy = type(REGISTRY.bot("distilled", game_name).factory())
    bot = Ismcts(Budget(simulations=5, rollout="distilled"))
    bot.bind_game(game)
    bot.start_match(game_name, 0, 2, game.parse_options(POLICIES[game_name][0]))
    assert bot._policy is not None and [type(b) for b in bot._policy] == [policy] * 2
    assert bot._policy is bot._advisers and bot._learned


@pytest.mark.parametrize("game_name", sorted(POLICIES))
def test_the_policy_is_stronger_than_the_heuristic_it_never_imitated(game_name: str) -> None:
    """Trained on the search's choices, not the heuristic's: over ten (LACORSA) or twenty
    (Wacky Races, Famous 500) duplicate deals it finishes ahead of the heuristic in most
    matches."""
    raw, deals, floor = POLICIES[game_name]
    game = REGISTRY.game(game_name)
    strength = policy_against_heuristic(game, game.parse_options(raw), deals=deals)
    assert strength.mean > floor, strength.describe()


def test_every_game_with_a_learned_policy_is_checked_here() -> None:
    learned = {
        game
        for game in REGISTRY.games
        if any(spec.name == "distilled" for spec in REGISTRY.bots_for(game))
    }
    assert learned == set(POLICIES)
