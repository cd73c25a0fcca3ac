"""Registers Famous 500, its heuristic bot, its learned policy and its picture."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from racedeck.bots.linear import policy_spec
from racedeck.core.bot import BotSpec
from racedeck.core.game import AnyGame
from racedeck.games.famous500.bots import Famous500Heuristic
from racedeck.games.famous500.policy import WEIGHTS, Famous500Policy
from racedeck.games.famous500.rules import Famous500
from racedeck.hookspecs import PictureFactory, hookimpl

if TYPE_CHECKING:
    from racedeck.inspect.pictures.base import Picture


@hookimpl
def racedeck_register_games(register: Callable[[AnyGame], None]) -> None:
    """Register Famous 500."""
    register(Famous500())


@hookimpl
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register Famous 500's heuristic bot and its learned policy."""
    register(
        BotSpec(
            name="heuristic",
            factory=Famous500Heuristic,
            description="designs for the track, races hard only while its columns can pay, "
            "pits to repair",
            games=("famous-500",),
        )
    )
    register(policy_spec(Famous500Policy, "famous-500", WEIGHTS.version))


@hookimpl
def racedeck_register_pictures(register: Callable[[str, PictureFactory], None]) -> None:
    """Register how Famous 500 is drawn; its module is imported only when it is drawn."""
    register(Famous500.name, _picture)


def _picture(game: AnyGame) -> Picture:
    from racedeck.games.famous500.picture import Famous500Picture

    return Famous500Picture(game)
