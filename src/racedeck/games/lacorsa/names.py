"""LACORSA's words for its cards and actions: a card by its face (``7``, ``R``)."""

from __future__ import annotations

from typing import Any

from racedeck.core.names import spell
from racedeck.games.lacorsa import data
from racedeck.games.lacorsa.actions import Discard, Extend, Play


def card_name(card: int) -> str:
    """Return a card's face, such as ``7`` or ``R`` (a Redline)."""
    return data.label(card)


def describe(value: Any) -> str:
    """Return an action, an event or a card as words, cards by their faces."""
    match value:
        case Play(car=car, cards=cards):
            return f"car {car} plays {_faces(cards)}"
        case Extend(car=car, card=card):
            return f"car {car} extends with {card_name(card)}"
        case Discard(car=car, cards=cards):
            return f"car {car} discards {_faces(cards)}"
    return spell(value, card_name)


def _faces(cards: tuple[int, ...]) -> str:
    return " ".join(card_name(c) for c in cards) or "nothing"
