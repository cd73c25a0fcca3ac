"""Registers Detroit-Cleveland Grand Prix and its heuristic bot."""

from __future__ import annotations

from collections.abc import Callable

from racedeck.core.bot import BotSpec
from racedeck.core.game import AnyGame
from racedeck.games.detroit_cleveland.bots import DetroitClevelandHeuristic
from racedeck.games.detroit_cleveland.rules import DetroitCleveland
from racedeck.hookspecs import hookimpl


@hookimpl
def racedeck_register_games(register: Callable[[AnyGame], None]) -> None:
    """Register Detroit-Cleveland Grand Prix."""
    register(DetroitCleveland())


@hookimpl
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register Detroit-Cleveland's heuristic bot."""
    register(
        BotSpec(
            name="heuristic",
            factory=DetroitClevelandHeuristic,
            description=(
                "bids from its hand's movement per colour; moves to help its cars and block rivals"
            ),
            games=("detroit-cleveland",),
        )
    )
