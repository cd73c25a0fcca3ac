"""Registers Wacky Races and its heuristic bot."""

from __future__ import annotations

from collections.abc import Callable

from racedeck.core.bot import BotSpec
from racedeck.core.game import AnyGame
from racedeck.games.wacky_races.bots import WackyHeuristic
from racedeck.games.wacky_races.rules import WackyRaces
from racedeck.hookspecs import hookimpl


@hookimpl
def racedeck_register_games(register: Callable[[AnyGame], None]) -> None:
    """Register Wacky Races: The Board Game."""
    register(WackyRaces())


@hookimpl
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register Wacky Races' heuristic bot."""
    register(
        BotSpec(
            name="heuristic",
            factory=WackyHeuristic,
            description="plans its three steps from hand and terrain ahead, avoids traps",
            games=("wacky-races",),
        )
    )
