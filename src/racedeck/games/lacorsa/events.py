"""Everything that can happen in a LACORSA match."""

from __future__ import annotations

from racedeck.core.model import Event


class RaceDealt(Event, frozen=True, tag="race_dealt"):
    """The deck was shuffled and dealt: one hand of 13 cards per car."""

    race: int
    hands: tuple[tuple[int, ...], ...]


class CardsCommitted(Event, frozen=True, tag="cards_committed"):
    """A car placed its card (or Redline and card) face down, for qualifying or a challenge."""

    car: int
    cards: tuple[int, ...]


class QualifyingRevealed(Event, frozen=True, tag="qualifying_revealed"):
    """Every car's qualifying cards were turned over; totals per car."""

    totals: tuple[int, ...]


class QualifyingTieRolled(Event, frozen=True, tag="qualifying_tie_rolled"):
    """Cars tied in qualifying rolled the die; the highest roll goes ahead."""

    cars: tuple[int, ...]
    rolls: tuple[int, ...]


class GridFormed(Event, frozen=True, tag="grid_formed"):
    """The cars were placed on the board, last place first, with no gaps."""

    order: tuple[int, ...]


class ChallengeResolved(Event, frozen=True, tag="challenge_resolved"):
    """Both cards of a challenge were revealed; the higher total wins, a tie the car in front."""

    attacker: int
    defender: int
    attacker_total: int
    defender_total: int
    winner: int


class Extended(Event, frozen=True, tag="extended"):
    """A car played an Extend card and moved one space forward."""

    car: int
    card: int


class Discarded(Event, frozen=True, tag="discarded"):
    """A car discarded a card (or a Redline and a card) to end its turn."""

    car: int
    cards: tuple[int, ...]


class RaceScored(Event, frozen=True, tag="race_scored"):
    """The race ended; places front to back and the points each car earned."""

    race: int
    places: tuple[int, ...]
    points: tuple[int, ...]


LacorsaEvent = (
    RaceDealt
    | CardsCommitted
    | QualifyingRevealed
    | QualifyingTieRolled
    | GridFormed
    | ChallengeResolved
    | Extended
    | Discarded
    | RaceScored
)
