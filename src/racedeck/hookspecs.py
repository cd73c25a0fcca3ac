"""The hooks through which games and bots are registered, built-in ones included."""

from __future__ import annotations

from collections.abc import Callable

import pluggy

from racedeck.core.bot import BotSpec
from racedeck.core.game import AnyGame

hookspec = pluggy.HookspecMarker("racedeck")
hookimpl = pluggy.HookimplMarker("racedeck")


@hookspec
def racedeck_register_games(register: Callable[[AnyGame], None]) -> None:
    """Register games by calling ``register(game)`` once for each."""


@hookspec
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register bots by calling ``register(BotSpec(...))`` once for each."""
