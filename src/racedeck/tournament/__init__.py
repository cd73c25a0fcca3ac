"""Tournaments: schedules, executors, the store, ratings, statistics, the gate, reports.

A tournament is a ``TournamentSpec``; its schedule expands it, match by match, into seeds
and seatings that depend only on the spec and the match's index, so any executor with any
number of workers produces the same matches, and a resumed tournament plays exactly the
ones that are missing.

Called, the package plays one: ``racedeck.tournament(game, bots, ...)`` is
``racedeck.tournament.script.tournament``, since a package and a function cannot both own
the name ``racedeck.tournament``. The package's module class is swapped for one with
``__call__`` as soon as it is imported, so the call works however the package was reached.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

from racedeck.tournament.spec import TournamentSpec

__all__ = ["TournamentSpec"]


class _Callable(types.ModuleType):
    """The module type of the package: the package itself, which may also be called."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Return ``racedeck.tournament.script.tournament(*args, **kwargs)``."""
        # Imported at call time: the script module loads the whole tournament machinery.
        script = importlib.import_module("racedeck.tournament.script")
        return script.tournament(*args, **kwargs)


sys.modules[__name__].__class__ = _Callable
