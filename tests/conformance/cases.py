"""The games the conformance suite checks: the built-in ones and a plugin's, at every count."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from racedeck.core.errors import OptionError
from racedeck.plugins import load_registry

PLUGIN_GAMES = Path(__file__).with_name("plugin_games")
"""A folder of single-file plugins that register games, loaded like any ``--plugins-dir``."""

REGISTRY = load_registry(PLUGIN_GAMES, entry_points=False)


def _cases() -> Iterator[Any]:
    for name in sorted(REGISTRY.games):
        game = REGISTRY.games[name]
        for index, raw in enumerate(game.conformance_options):
            for players in range(game.min_players, game.max_players + 1):
                try:
                    options = game.parse_options(raw)
                    game.check_players(options, players)
                except OptionError:
                    continue
                yield pytest.param(name, raw, players, id=f"{name}-opt{index}-{players}p")


CASES = list(_cases())
"""(game name, raw options, players) for every option set and player count a game declares."""

GAMES = sorted(REGISTRY.games)
