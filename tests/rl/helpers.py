"""Shared pieces of the RL tests: the games (a plugin's too) and random episodes."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import racedeck.rl as rl
from racedeck.plugins import load_registry
from racedeck.rl.aec import RacedeckEnv
from tests.conformance.cases import PLUGIN_GAMES

REGISTRY = load_registry(PLUGIN_GAMES, entry_points=False)
"""The built-in games and the conformance suite's plugin game (high-card)."""

GAMES: list[tuple[str, dict[str, Any], int]] = []
"""Per game: its first conformance options and a player count with sealed steps."""
for _name in sorted(REGISTRY.games):
    _game = REGISTRY.games[_name]
    _players = min(3, _game.max_players) if _game.min_players < 3 else _game.min_players
    GAMES.append((_name, dict(_game.conformance_options[0]), _players))

GAME_IDS = [name for name, _, _ in GAMES]


def make(name: str, options: dict[str, Any], players: int, **kwargs: Any) -> RacedeckEnv:
    """Return the AEC environment of a game of the test registry."""
    return rl.env(name, players=players, options=options, catalogue=REGISTRY, **kwargs)


def play_randomly(env: RacedeckEnv, seed: int, pick: int = 1) -> Iterator[str]:
    """Play one episode with uniformly random legal indexes, yielding each agent to act."""
    rng = random.Random(pick)
    env.reset(seed=seed)
    for agent in env.agent_iter():
        _, _, terminated, truncated, info = env.last(observe=False)
        if terminated or truncated:
            env.step(None)
            continue
        yield agent
        legal = info["action_mask"].nonzero()[0]
        env.step(int(legal[rng.randrange(len(legal))]))
