"""Famous 500's words for its cards and actions: a Speed card by its speed."""

from __future__ import annotations

from typing import Any

from racedeck.core.names import spell
from racedeck.games.famous500.actions import (
    Design,
    Discard,
    FalseStart,
    KeepCards,
    LeavePit,
    PitStop,
    Race,
    Repair,
    ReturnCard,
)


def card_name(card: int) -> str:
    """Return a Speed card by its speed, such as ``speed 120``."""
    return f"speed {card}"


def describe(value: Any) -> str:
    """Return an action, an event or a card as words, cards by their speeds."""
    match value:
        case KeepCards():
            return "keep the cards"
        case FalseStart():
            return "call a false start"
        case Design(tires=tires, fuel=fuel, engine=engine, speed=speed):
            return f"design the car: tires {tires}, fuel {fuel}, engine {engine}, speed {speed}"
        case Race(card=card):
            return f"race at {card_name(card)}"
        case PitStop(card=card):
            return f"pit stop, laying {card_name(card)} face down"
        case ReturnCard(card=card):
            return f"return {card_name(card)}"
        case Repair(column=column):
            return f"repair column {column}"
        case LeavePit():
            return "leave the pit"
        case Discard(card=card):
            return f"discard {card_name(card)}"
    return spell(value, card_name)
