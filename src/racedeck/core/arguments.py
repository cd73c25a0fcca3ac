"""Arguments handed to the Python API, checked where they come in.

A seed of 3.5, ``True`` or ``numpy.int64(3)`` played a match whose log no reader took, or
that no encoder wrote; a bot's name given alone was read letter by letter. Each function
here returns the argument as the engine keeps it, or raises ``UsageError`` naming it.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

from racedeck.core.errors import UsageError


def integer(value: object, what: str) -> int:
    """Return ``value`` as a plain ``int``: an integer of any kind (NumPy's too), never a bool.

    A float, a string or a bool is refused: ``3.0`` would seed another match than ``3``
    (streams are keyed by the seed's text), and a bool is an integer only by accident.
    """
    if isinstance(value, bool):
        raise UsageError(f"{what} must be an integer, got {value!r}")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise UsageError(f"{what} must be an integer, got {value!r}") from None


def names(value: object, what: str) -> list[str]:
    """Return bots' names as a list: one name alone counts as one, not as its letters."""
    if isinstance(value, str):
        return [value]
    if not isinstance(value, Sequence) or not all(isinstance(name, str) for name in value):
        raise UsageError(f"{what} must be a bot's name or a list of names, got {value!r}")
    return list(value)
