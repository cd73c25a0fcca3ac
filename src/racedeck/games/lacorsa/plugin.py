"""Registers LACORSA, its heuristic bot, its learned policy and its picture."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from racedeck.bots.linear import policy_spec
from racedeck.core.bot import BotSpec
from racedeck.core.game import AnyGame
from racedeck.games.lacorsa.bots import LacorsaHeuristic
from racedeck.games.lacorsa.policy import WEIGHTS, LacorsaPolicy
from racedeck.games.lacorsa.rules import Lacorsa
from racedeck.hookspecs import PictureFactory, hookimpl

if TYPE_CHECKING:
    from racedeck.inspect.pictures.base import Picture


@hookimpl
def racedeck_register_games(register: Callable[[AnyGame], None]) -> None:
    """Register LACORSA Grand Prix."""
    register(Lacorsa())


@hookimpl
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register LACORSA's heuristic bot and its learned policy."""
    register(
        BotSpec(
            name="heuristic",
            factory=LacorsaHeuristic,
            description="saves Extends for open road, fights only for cheap passes",
            games=("lacorsa",),
        )
    )
    register(policy_spec(LacorsaPolicy, "lacorsa", WEIGHTS.version))


@hookimpl
def racedeck_register_pictures(register: Callable[[str, PictureFactory], None]) -> None:
    """Register how LACORSA is drawn; its module is imported only when it is drawn."""
    register(Lacorsa.name, _picture)


def _picture(game: AnyGame) -> Picture:
    from racedeck.games.lacorsa.picture import LacorsaPicture

    return LacorsaPicture(game)
