"""Per-game pictures: what to draw of a state or an observation, and how cars stand.

``picture_for(game)`` returns the game's ``Picture``, or the generic one, which draws
nothing but the game's own text and charts only the final result. A picture is asked
about a *view*: the state itself (the omniscient view, the log's own knowledge) or one
seat's observation, so a seat's picture is built from what that seat was shown and
nothing else.
"""

from __future__ import annotations

from racedeck.core.game import AnyGame
from racedeck.inspect.pictures.base import Picture
from racedeck.inspect.pictures.lacorsa import LacorsaPicture

PICTURES: dict[str, type[Picture]] = {
    "lacorsa": LacorsaPicture,
}
"""The games with a picture of their own, by name."""


def picture_for(game: AnyGame) -> Picture:
    """Return the picture for ``game``: its own, or the generic text-only one."""
    return PICTURES.get(game.name, Picture)(game)


__all__ = ["PICTURES", "Picture", "picture_for"]
