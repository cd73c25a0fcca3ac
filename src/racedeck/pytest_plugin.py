"""racedeck's pytest plugin for bot authors, loaded by pytest through the ``pytest11`` entry point.

Fixtures:

- ``racedeck_registry``: every installed game and bot (entry points included), loaded once.
- ``racedeck_play``: a function ``(game, seats, seed=0, options=None, fault_policy=...)``
  that plays one match between named bots (or ``BotSpec``s) and returns its outcome.

Helper: ``assert_plays_legally(bot, game)`` plays a bot in many seeded matches at every
player count and fails, naming the match, on the first illegal action, crash or timeout.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest

from racedeck.core.bot import BotSpec
from racedeck.core.runner import MatchOutcome, run_match
from racedeck.plugins import Registry, load_registry

PlayMatch = Callable[..., MatchOutcome]
"""``play(game, seats, seed=0, options=None, fault_policy="forfeit") -> MatchOutcome``."""


def _spec(registry: Registry, bot: BotSpec | str, game: str) -> BotSpec:
    return bot if isinstance(bot, BotSpec) else registry.bot(bot, game)


def play_match(
    registry: Registry,
    game: str,
    seats: Sequence[BotSpec | str],
    seed: int = 0,
    options: dict[str, Any] | None = None,
    fault_policy: str = "forfeit",
    time_limit: float | None = None,
) -> MatchOutcome:
    """Play one match of ``game`` between ``seats`` (bot names or specs) and return it.

    ``options`` of ``None`` plays the game's first quick option set (the one the
    conformance suite uses), not the full-length default.
    """
    rules = registry.game(game)
    raw = dict(rules.conformance_options[0]) if options is None else options
    parsed = rules.parse_options(raw)
    specs = [_spec(registry, bot, game) for bot in seats]
    return run_match(rules, parsed, specs, seed, fault_policy=fault_policy, time_limit=time_limit)


def assert_plays_legally(
    bot: BotSpec | str,
    game: str,
    *,
    registry: Registry | None = None,
    seeds: Iterable[int] = range(10),
    options: dict[str, Any] | None = None,
    opponent: str = "random",
    time_limit: float | None = None,
) -> int:
    """Assert ``bot`` plays only legal actions, without crashing, in every seeded match.

    For each player count of the game and each seed, the bot takes seat ``seed % players``
    and ``opponent`` the others. Returns the number of matches played.
    """
    registry = registry if registry is not None else load_registry()
    rules = registry.game(game)
    spec = _spec(registry, bot, game)
    played = 0
    seeds = list(seeds)
    for players in range(rules.min_players, rules.max_players + 1):
        for seed in seeds:
            seat = seed % players
            seats: list[BotSpec | str] = [opponent] * players
            seats[seat] = spec
            outcome = play_match(
                registry, game, seats, seed, options, "forfeit", time_limit=time_limit
            )
            played += 1
            faults = [f for f in outcome.faults if f.seat == seat]
            assert not faults and outcome.forfeit is None, (
                f"{spec.name} in {game}, {players} players, seed {seed}, seat {seat}: "
                f"{faults[0].reason if faults else outcome.forfeit}"
            )
    return played


@pytest.fixture(scope="session")
def racedeck_registry() -> Registry:
    """Every installed game and bot, entry-point plugins included."""
    return load_registry()


@pytest.fixture
def racedeck_play(racedeck_registry: Registry) -> PlayMatch:
    """Return a function that plays one match between named bots and returns its outcome."""

    def play(
        game: str,
        seats: Sequence[BotSpec | str],
        seed: int = 0,
        options: dict[str, Any] | None = None,
        fault_policy: str = "forfeit",
        time_limit: float | None = None,
    ) -> MatchOutcome:
        return play_match(racedeck_registry, game, seats, seed, options, fault_policy, time_limit)

    return play
