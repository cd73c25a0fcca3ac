"""Registers Detroit-Cleveland Grand Prix, its heuristic bot and its picture."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from racedeck.core.bot import BotSpec
from racedeck.core.game import AnyGame
from racedeck.games.detroit_cleveland.bots import DetroitClevelandHeuristic
from racedeck.games.detroit_cleveland.playout import DetroitClevelandLight
from racedeck.games.detroit_cleveland.rules import DetroitCleveland
from racedeck.hookspecs import PictureFactory, hookimpl

if TYPE_CHECKING:
    from racedeck.inspect.pictures.base import Picture


@hookimpl
def racedeck_register_games(register: Callable[[AnyGame], None]) -> None:
    """Register Detroit-Cleveland Grand Prix."""
    register(DetroitCleveland())


@hookimpl
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register Detroit-Cleveland's heuristic bot and its light stand-in for playouts."""
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
    register(
        BotSpec(
            name="light",
            factory=DetroitClevelandLight,
            description=(
                "bids as the heuristic; races off the cards' faces (cheap: ISMCTS rollout=light)"
            ),
            games=("detroit-cleveland",),
        )
    )


@hookimpl
def racedeck_register_pictures(register: Callable[[str, PictureFactory], None]) -> None:
    """Register how Detroit-Cleveland is drawn; its module is imported only when it is drawn."""
    register(DetroitCleveland.name, _picture)


def _picture(game: AnyGame) -> Picture:
    from racedeck.games.detroit_cleveland.picture import DetroitClevelandPicture

    return DetroitClevelandPicture(game)
