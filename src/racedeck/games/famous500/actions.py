"""The choices a Famous 500 driver makes."""

from __future__ import annotations

from racedeck.core.model import Action


class KeepCards(Action, frozen=True, tag="keep_cards"):
    """Accept the cards dealt (offered to both drivers after every deal)."""


class FalseStart(Action, frozen=True, tag="false_start"):
    """Declare a false start: all three cards dealt are above 100; shuffle and redeal."""


class Design(Action, frozen=True, tag="design"):
    """Design the car: the track's difficulty split over the four columns (sealed)."""

    tires: int
    fuel: int
    engine: int
    speed: int


class Race(Action, frozen=True, tag="race"):
    """Play a card face down to race through the section (sealed until both have played)."""

    card: int


class PitStop(Action, frozen=True, tag="pit_stop"):
    """Declare a pit stop on a dotted section; the card laid stays face down."""

    card: int


class ReturnCard(Action, frozen=True, tag="return_card"):
    """In the pit, after drawing: return a card of the hand to the bottom of the pit deck."""

    card: int


class Repair(Action, frozen=True, tag="repair"):
    """In the pit: spend one Speed point on a column (3 Tires, 2 Fuel or 1 Engine)."""

    column: int


class LeavePit(Action, frozen=True, tag="leave_pit"):
    """End the pit stop and return to the race."""


class Discard(Action, frozen=True, tag="discard"):
    """Between laps, the trailing driver discards a card out of the game."""

    card: int


Famous500Action = (
    KeepCards | FalseStart | Design | Race | PitStop | ReturnCard | Repair | LeavePit | Discard
)
