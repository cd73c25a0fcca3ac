"""Per-game pictures: what to draw of a state or an observation, and how cars stand.

``picture_for(game)`` returns the game's ``Picture``, or the generic one, which draws
nothing but the game's own text and charts only the final result. A scene is drawn from
a *view*: the state itself (the omniscient view, the log's own knowledge) or one seat's
observation, so a seat's picture is built from what that seat was shown and nothing else.
Each game's picture is imported only when that game is looked at.
"""

from __future__ import annotations

import importlib

from racedeck.core.game import AnyGame
from racedeck.inspect.pictures.base import Picture

PICTURES: dict[str, str] = {
    "detroit-cleveland": "detroit_cleveland:DetroitClevelandPicture",
    "famous-500": "famous500:Famous500Picture",
    "lacorsa": "lacorsa:LacorsaPicture",
    "wacky-races": "wacky_races:WackyRacesPicture",
}
"""The games with a picture of their own: game name to ``module:class`` in this package."""


def picture_for(game: AnyGame) -> Picture:
    """Return the picture for ``game``: its own, or the generic text-only one."""
    where = PICTURES.get(game.name)
    if where is None:
        return Picture(game)
    module, _, name = where.partition(":")
    kind: type[Picture] = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    return kind(game)


__all__ = ["PICTURES", "Picture", "picture_for"]
