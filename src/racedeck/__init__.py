"""racedeck: a headless, event-sourced engine for racing card and board games.

The Python API (``racedeck.api``) is importable from here: ``play``, ``load_log``,
``list_games()``, ``list_bots(game)``, ``run_tournament(game, bots)``, ``Match``,
``Replay``, ``GameInfo``, ``BotInfo`` and ``TournamentResult``. It is loaded on first use
(the engine's core reads ``__version__`` from this module, and ``racedeck --help`` must
start without the engine); ``dir(racedeck)`` lists it all the same.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from racedeck.api import (
        BotInfo,
        GameInfo,
        Match,
        Replay,
        TournamentResult,
        list_bots,
        list_games,
        load_log,
        play,
        run_tournament,
    )

__all__ = [
    "BotInfo",
    "GameInfo",
    "Match",
    "Replay",
    "TournamentResult",
    "__version__",
    "list_bots",
    "list_games",
    "load_log",
    "play",
    "run_tournament",
]

_API = frozenset(__all__) - {"__version__"}


def __getattr__(name: str) -> Any:
    """Load the Python API the first time one of its names is read from ``racedeck``."""
    if name in _API:
        value = getattr(importlib.import_module("racedeck.api"), name)
        globals()[name] = value  # read once: later reads find it without this hook
        return value
    raise AttributeError(f"module 'racedeck' has no attribute {name!r}")


def __dir__() -> list[str]:
    """Return the module's names with the API's, loaded or not."""
    return sorted(set(globals()) | _API)
