"""racedeck: a headless, event-sourced engine for racing card and board games.

The Python API (``racedeck.api``) is importable from here: ``play``, ``load_log``,
``games()``, ``bots(game)``, ``tournament(game, bots)``, ``Match``, ``Replay``,
``GameInfo``, ``BotInfo`` and ``TournamentResult``. It is loaded on first use, since the
engine's core reads ``__version__`` from this module.
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
        bots,
        games,
        load_log,
        play,
        tournament,
    )

__all__ = [
    "BotInfo",
    "GameInfo",
    "Match",
    "Replay",
    "TournamentResult",
    "__version__",
    "bots",
    "games",
    "load_log",
    "play",
    "tournament",
]

_API = frozenset(__all__) - {"__version__"}


def __getattr__(name: str) -> Any:
    """Load the Python API the first time one of its names is read from ``racedeck``."""
    if name in _API:
        api = importlib.import_module("racedeck.api")
        # ``games`` and ``bots`` are the packages of that name, which the API makes callable.
        return globals()[name] if name in globals() else getattr(api, name)
    raise AttributeError(f"module 'racedeck' has no attribute {name!r}")
