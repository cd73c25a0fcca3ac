"""Where a search finds a game's evaluation: the judge of a playout cut at a horizon.

A game package may hold a module ``evaluation`` whose ``evaluate(state)`` returns the
result an unfinished match would have by the game's own measure of who is ahead (or None
where it cannot judge, and the playout goes on). A game without one may still give
``Game.estimate``. The lookup is by the package the game's class lives in, so a game
plugin gets the same treatment as a built-in game.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from racedeck.core.game import AnyGame, Game
from racedeck.core.model import Result

Evaluation = Callable[[Any], Result | None]
"""A pure judge of a state: the result it foresees, or None where it cannot judge."""


def evaluation_of(game: AnyGame) -> Evaluation | None:
    """Return ``game``'s evaluation: its package's ``evaluation.evaluate``, else its estimate.

    None when the game gives neither: its playouts run to the end.
    """
    package = type(game).__module__.rpartition(".")[0]
    if package:
        name = f"{package}.evaluation"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as missing:
            if missing.name != name:
                raise
        else:
            evaluate: Evaluation | None = getattr(module, "evaluate", None)
            if evaluate is not None:
                return evaluate
    if type(game).estimate is not Game.estimate:
        return game.estimate
    return None
