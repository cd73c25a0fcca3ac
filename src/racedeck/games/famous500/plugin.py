"""Registers Famous 500 and its heuristic bot."""

from __future__ import annotations

from collections.abc import Callable

from racedeck.core.bot import BotSpec
from racedeck.core.game import AnyGame
from racedeck.games.famous500.bots import Famous500Heuristic
from racedeck.games.famous500.rules import Famous500
from racedeck.hookspecs import hookimpl


@hookimpl
def racedeck_register_games(register: Callable[[AnyGame], None]) -> None:
    """Register Famous 500."""
    register(Famous500())


@hookimpl
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register Famous 500's heuristic bot."""
    register(
        BotSpec(
            name="heuristic",
            factory=Famous500Heuristic,
            description="designs for the track, races hard only while its columns can pay, "
            "pits to repair",
            games=("famous-500",),
        )
    )
