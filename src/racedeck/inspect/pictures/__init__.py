"""Per-game pictures: what to draw of a state or an observation, and how cars stand.

``picture_for(registry, game)`` returns the game's ``Picture``, or the generic one, which
draws nothing but the game's own text and charts only the final result. A game's picture
lives in the game's own package and comes through its registration (the
``racedeck_register_pictures`` hook), so adding a game needs no edit here; its module is
imported only when that game is drawn. A scene is drawn from a *view*: the state itself
(the omniscient view, the log's own knowledge) or one seat's observation, so a seat's
picture is built from what that seat was shown and nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from racedeck.core.errors import PluginError
from racedeck.core.game import AnyGame
from racedeck.inspect.pictures.base import Picture

if TYPE_CHECKING:
    # Only a type: a game's picture module imports this package, which loads no plugins.
    from racedeck.plugins import Registry


def picture_for(registry: Registry, game: AnyGame) -> Picture:
    """Return the picture for ``game``: the one registered for it, or the generic one."""
    factory = registry.pictures.get(game.name)
    if factory is None:
        return Picture(game)
    picture = factory(game)
    if not isinstance(picture, Picture):
        raise PluginError(f"the picture registered for {game.name} is not a Picture: {picture!r}")
    return picture


__all__ = ["Picture", "picture_for"]
