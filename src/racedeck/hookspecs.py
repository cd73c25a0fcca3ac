"""The hooks through which games, bots and pictures are registered, built-in ones included."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pluggy

from racedeck.core.bot import BotSpec
from racedeck.core.game import AnyGame

if TYPE_CHECKING:
    from racedeck.inspect.pictures.base import Picture

hookspec = pluggy.HookspecMarker("racedeck")
hookimpl = pluggy.HookimplMarker("racedeck")

PictureFactory = Callable[[AnyGame], "Picture"]
"""Makes a game's picture (a ``racedeck.inspect.pictures.Picture``) for the game it is given."""


@hookspec
def racedeck_register_games(register: Callable[[AnyGame], None]) -> None:
    """Register games by calling ``register(game)`` once for each."""


@hookspec
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register bots by calling ``register(BotSpec(...))`` once for each."""


@hookspec
def racedeck_register_pictures(register: Callable[[str, PictureFactory], None]) -> None:
    """Register how games are drawn by calling ``register(game_name, factory)`` once for each.

    ``factory(game)`` returns the game's ``Picture`` (what the HTML replay draws and the
    lap chart plots). Import the picture's module inside ``factory``, so that it is loaded
    only when the game is drawn. A game without one gets the generic, text-only picture.
    """
