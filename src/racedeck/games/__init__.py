"""One package per game; each has a ``plugin`` module that registers it.

Called, the package lists what the installed plugins registered: ``racedeck.games()`` is
``racedeck.api.games``, since a package and a function cannot both own the name
``racedeck.games``. The package's module class is swapped for one with ``__call__`` as
soon as it is imported, so the call works however the package was first reached.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any


class _Listing(types.ModuleType):
    """The module type of the package: the package itself, which may also be called."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Return ``racedeck.api.games(*args, **kwargs)``."""
        # Looked up at call time only: the API sits above this package (it loads the
        # plugins, which import the packages here), so importing it here would be a cycle.
        listing = importlib.import_module("racedeck.api").games
        return listing(*args, **kwargs)


sys.modules[__name__].__class__ = _Listing
