"""Wacky Races' words for its cards and actions: a movement card by its terrain."""

from __future__ import annotations

from typing import Any

from racedeck.core.names import spell
from racedeck.games.wacky_races import data
from racedeck.games.wacky_races.actions import ChooseRacer, EndTurn, PlayStep, UseAdvantage
from racedeck.games.wacky_races.wording import describe_event


def card_name(card: int) -> str:
    """Return a movement card by its terrain."""
    return data.TERRAINS[card] if 0 <= card < len(data.TERRAINS) else f"card {card}"


def describe(value: Any) -> str:
    """Return an action, an event or a card as words, cards by their terrains."""
    match value:
        case ChooseRacer(racer=racer):
            return f"choose {data.RACER_NAMES[racer]}"
        case PlayStep(cards=cards):
            return "step on " + " + ".join(card_name(c) for c in cards)
        case UseAdvantage(advantage=advantage, target=target):
            on = f" on {target}" if target >= 0 else ""
            return f"use advantage {advantage + 1}{on}"
        case EndTurn():
            return "end the turn"
    return describe_event(value, card_name) or spell(value, card_name)
