"""Detroit-Cleveland's words for its cards and actions: a card by what it moves."""

from __future__ import annotations

from typing import Any

from racedeck.core.names import spell
from racedeck.games.detroit_cleveland import data
from racedeck.games.detroit_cleveland.actions import Bid, Decline, Move, Pass, Play


def card_name(card: int) -> str:
    """Return a card as its number and moves, such as ``#8 B6 G4 W2 R1``."""
    return data.card_label(card)


def describe(value: Any) -> str:
    """Return an action, an event or a card as words, cards by what they move."""
    match value:
        case Bid(amount=amount):
            return f"bid {amount}"
        case Pass():
            return "pass"
        case Play(card=card):
            return f"play {card_name(card)}"
        case Move(car=car, to=to):
            return f"move car {data.CODES[car]} to {to}"
        case Decline():
            return "decline"
    return spell(value, card_name)
