"""Wacky Races' events in words: racers, traps, tiles and cards by their names.

An event alone does not say which racer a car or a seat drives (the race's set-up does),
so cars and seats stay numbered; everything the data names is named.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from racedeck.games.wacky_races import data
from racedeck.games.wacky_races import events as ev


def _racer(racer: int) -> str:
    return data.RACER_NAMES[racer] if 0 <= racer < len(data.RACER_NAMES) else f"racer {racer}"


def _trap(trap: int) -> str:
    return data.TRAP_NAMES[trap] if 0 <= trap < len(data.TRAP_NAMES) else f"trap {trap}"


def _tile(tile: int) -> str:
    return data.TILE_NAMES[tile] if 0 <= tile < len(data.TILE_NAMES) else f"tile {tile}"


def _cause(cause: str) -> str:
    return f" ({cause.replace('_', ' ')})" if cause else ""


def describe_event(event: Any, card: Callable[[int], str]) -> str | None:
    """Return a Wacky Races event in words, or ``None`` for one worded field by field."""
    match event:
        case ev.RacerChosen(seat=seat, racer=racer):
            return f"seat {seat} chooses {_racer(racer)}"
        case ev.RaceSetUp(race=race, tiles=tiles, field=field, first_seat=first):
            return (
                f"race {race + 1} set up: field {', '.join(_racer(r) for r in field)};"
                f" circuit {', '.join(_tile(t) for t in tiles)}; seat {first} starts"
            )
        case ev.StepPlayed(seat=seat, cards=cards, to=to):
            return f"seat {seat} steps on {' + '.join(card(c) for c in cards)} to position {to}"
        case ev.RacerMoved(car=car, to=to, cause=cause):
            return f"car {car} moves to position {to}{_cause(cause)}"
        case ev.AdvantageUsed(seat=seat, advantage=advantage, target=target):
            on = f" on car {target}" if target >= 0 else ""
            return f"seat {seat} uses advantage {advantage + 1}{on}"
        case ev.TrapLaid(position=position, trap=trap):
            return f"{_trap(trap)} laid at position {position}"
        case ev.TrapRemoved(position=position, trap=trap):
            return f"{_trap(trap)} removed from position {position}"
        case ev.TrapSprung(car=car, position=position, trap=trap):
            return f"car {car} springs the {_trap(trap)} at position {position}"
        case ev.DeckReshuffled(order=order):
            return f"movement deck reshuffled ({len(order)} cards)"
        case ev.TrapsReshuffled(order=order):
            return f"trap deck reshuffled ({len(order)} traps)"
        case ev.DastardlyMoved(to=to, cause=cause):
            return f"Dick Dastardly moves to position {to}{_cause(cause)}"
    return None
