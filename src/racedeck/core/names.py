"""Words for actions, events and cards: what a game's ``presentation.describe`` builds on.

``spell`` writes a struct as its kind and its fields, ``play cards=7 R car=0``, naming
every card it holds (a field called ``card``, ``cards``, ``hand`` or ``hands``) with the
game's own ``card`` function, so that a game only has to say what one card is called.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

CARD_FIELDS = frozenset({"card", "cards", "hand", "hands", "laid"})
"""Fields whose integers are cards."""


def spell(value: Any, card: Callable[[int], str] = str) -> str:
    """Return ``value`` as short text: an int is a card; a struct is its kind and fields."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return card(value)
    if not isinstance(value, msgspec.Struct):
        return str(value)
    fields = msgspec.structs.asdict(value)
    kind = getattr(value.__struct_config__, "tag", None) or type(value).__name__
    parts = [
        f"{name}={_field(item, card if name in CARD_FIELDS else None)}"
        for name, item in fields.items()
    ]
    return " ".join([str(kind).replace("_", " "), *parts])


def _field(value: Any, card: Callable[[int], str] | None) -> str:
    if isinstance(value, tuple | list):
        inner = [_field(item, card) for item in value]
        return (
            "(" + ", ".join(inner) + ")"
            if card is None or any(isinstance(item, tuple | list) for item in value)
            else " ".join(inner) or "-"
        )
    if card is not None and isinstance(value, int) and not isinstance(value, bool):
        return card(value)
    if isinstance(value, msgspec.Struct):
        return "{" + spell(value) + "}"
    return str(value)
