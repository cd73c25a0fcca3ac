"""Where a search finds a game's evaluation: the judge of a playout cut at a horizon.

A game declares an evaluation (``Capabilities.evaluation``) and gives it as ``estimate``:
the result an unfinished match would have by the game's own measure of who is ahead (or
None where it cannot judge, and the playout goes on). The built-in games keep theirs in
a module ``evaluation`` of their package. Declared, not looked up by module name or
method identity, so a game plugin is treated as a built-in game is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from racedeck.core.game import AnyGame
from racedeck.core.model import Result

Evaluation = Callable[[Any], Result | None]
"""A pure judge of a state: the result it foresees, or None where it cannot judge."""


def evaluation_of(game: AnyGame) -> Evaluation | None:
    """Return ``game``'s evaluation (its ``estimate``) where the game declares one, else None.

    A game without one has its playouts run to the end.
    """
    if game.capabilities.evaluation:
        return game.estimate
    return None
