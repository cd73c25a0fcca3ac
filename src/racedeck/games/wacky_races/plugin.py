"""Registers Wacky Races, its heuristic bot, its learned policy and its picture."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from racedeck.bots.linear import policy_spec
from racedeck.core.bot import BotSpec
from racedeck.core.game import AnyGame
from racedeck.games.wacky_races.bots import WackyHeuristic
from racedeck.games.wacky_races.policy import WEIGHTS, WackyPolicy
from racedeck.games.wacky_races.rules import WackyRaces
from racedeck.hookspecs import PictureFactory, hookimpl

if TYPE_CHECKING:
    from racedeck.inspect.pictures.base import Picture


@hookimpl
def racedeck_register_games(register: Callable[[AnyGame], None]) -> None:
    """Register Wacky Races: The Board Game."""
    register(WackyRaces())


@hookimpl
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register Wacky Races' heuristic bot and its learned policy."""
    register(
        BotSpec(
            name="heuristic",
            factory=WackyHeuristic,
            description="plans its three steps from hand and terrain ahead, avoids traps",
            games=("wacky-races",),
        )
    )
    register(policy_spec(WackyPolicy, "wacky-races", WEIGHTS.version))


@hookimpl
def racedeck_register_pictures(register: Callable[[str, PictureFactory], None]) -> None:
    """Register how Wacky Races is drawn; its module is imported only when it is drawn."""
    register(WackyRaces.name, _picture)


def _picture(game: AnyGame) -> Picture:
    from racedeck.games.wacky_races.picture import WackyRacesPicture

    return WackyRacesPicture(game)
