"""Everything that can happen in a Famous 500 race."""

from __future__ import annotations

from racedeck.core.model import Event


class Dealt(Event, frozen=True, tag="dealt"):
    """The nine cards were shuffled: three to each driver, three face down as the pit deck."""

    deal: int
    hands: tuple[tuple[int, ...], ...]
    pit_deck: tuple[int, ...]
    """Top card first."""


class StartChosen(Event, frozen=True, tag="start_chosen"):
    """A driver kept the deal or declared a false start (sealed until both have chosen)."""

    seat: int
    false_start: bool


class CarDesigned(Event, frozen=True, tag="car_designed"):
    """A driver designed the car: tires, fuel, engine, speed (sealed until both have)."""

    seat: int
    tires: int
    fuel: int
    engine: int
    speed: int


class CardLaid(Event, frozen=True, tag="card_laid"):
    """A driver laid a card face down for the section, racing it or declaring a pit stop."""

    seat: int
    card: int
    pit: bool


class SectionRevealed(Event, frozen=True, tag="section_revealed"):
    """The cards were turned over (a pitting driver's stays face down) and scored.

    ``points`` and ``costs`` (tires, fuel, engine) per seat; ``pit_order`` the pitting
    drivers in the order they draw.
    """

    lap: int
    section: int
    cards: tuple[int, ...]
    pits: tuple[bool, ...]
    points: tuple[int, ...]
    costs: tuple[tuple[int, int, int], ...]
    pit_order: tuple[int, ...] = ()


class CardDrawn(Event, frozen=True, tag="card_drawn"):
    """A driver drew the top card of the pit deck (in the pit, or as the trailing driver)."""

    seat: int
    card: int


class CardReturned(Event, frozen=True, tag="card_returned"):
    """A pitting driver returned a card face down to the bottom of the pit deck."""

    seat: int
    card: int


class Repaired(Event, frozen=True, tag="repaired"):
    """A pitting driver spent one Speed point on a column; ``amount`` points were repaired."""

    seat: int
    column: int
    amount: int


class PitLeft(Event, frozen=True, tag="pit_left"):
    """A driver's pit stop ended."""

    seat: int


class CardDiscarded(Event, frozen=True, tag="card_discarded"):
    """Between laps, the trailing driver discarded a card out of the game (face up)."""

    seat: int
    card: int


class RaceFinished(Event, frozen=True, tag="race_finished"):
    """The race ended: a car fell below zero, or both crossed the finish line."""

    winner: int
    reason: str
    speed: tuple[int, ...]


Famous500Event = (
    Dealt
    | StartChosen
    | CarDesigned
    | CardLaid
    | SectionRevealed
    | CardDrawn
    | CardReturned
    | Repaired
    | PitLeft
    | CardDiscarded
    | RaceFinished
)
