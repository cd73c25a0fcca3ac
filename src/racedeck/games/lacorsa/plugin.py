"""Registers LACORSA and its heuristic bot."""

from __future__ import annotations

from collections.abc import Callable

from racedeck.core.bot import BotSpec
from racedeck.core.game import AnyGame
from racedeck.games.lacorsa.bots import LacorsaHeuristic
from racedeck.games.lacorsa.rules import Lacorsa
from racedeck.hookspecs import hookimpl


@hookimpl
def racedeck_register_games(register: Callable[[AnyGame], None]) -> None:
    """Register LACORSA Grand Prix."""
    register(Lacorsa())


@hookimpl
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register LACORSA's heuristic bot."""
    register(
        BotSpec(
            name="heuristic",
            factory=LacorsaHeuristic,
            description="saves Extends for open road, fights only for cheap passes",
            games=("lacorsa",),
        )
    )
