"""Registers the game-independent bots."""

from __future__ import annotations

from collections.abc import Callable

from racedeck.bots.random_bot import RandomBot
from racedeck.core.bot import BotSpec
from racedeck.hookspecs import hookimpl


@hookimpl
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register the random bot for every game."""
    register(BotSpec(name="random", factory=RandomBot, description="uniform over legal actions"))
