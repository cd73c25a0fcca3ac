"""Qualifying: "Select Cards" and "Start Position".

Rulebook, "Select Cards": "Each car selects a card (two with R) to qualify and places the
intended card face down on top of their card stack." "Start Position": "Drivers
simultaneously reveal their cards. The highest card, or total score with R, wins. The car
that played the lowest card is placed at the end of the board. Place the remaining cars
on the board by card rank, last to first. The highest die roll resolves ties in
qualifying only."

The sealed cards themselves are committed as in a challenge (``first_lap.committed``);
once every car has one down, the engine reveals them and forms the grid here.
"""

from __future__ import annotations

from msgspec.structs import replace

from racedeck.core.step import Turn
from racedeck.games.lacorsa import data
from racedeck.games.lacorsa.events import (
    GridFormed,
    LacorsaEvent,
    QualifyingRevealed,
    QualifyingTieRolled,
)
from racedeck.games.lacorsa.finish import settle
from racedeck.games.lacorsa.state import LacorsaState


def start_position(turn: Turn[LacorsaState, LacorsaEvent]) -> None:
    """Reveal every qualifying card and form the grid, rolling the die for each tie."""
    totals = tuple(data.play_total(cards or ()) for cards in turn.state.committed)
    turn.emit(QualifyingRevealed(totals=totals))
    order: list[int] = []
    for total in sorted(set(totals)):
        tied = [car for car, t in enumerate(totals) if t == total]
        order.extend(_break_tie(tied, turn))
    turn.emit(GridFormed(order=tuple(order)))


def _break_tie(cars: list[int], turn: Turn[LacorsaState, LacorsaEvent]) -> list[int]:
    """Return ``cars`` from last to first; tied cars roll the die, highest ahead."""
    if len(cars) == 1:
        return cars
    rolls = tuple(turn.rng.randint(1, data.DIE_SIDES) for _ in cars)
    turn.emit(QualifyingTieRolled(cars=tuple(cars), rolls=rolls))
    ordered: list[int] = []
    for roll in sorted(set(rolls)):
        ordered.extend(_break_tie([c for c, r in zip(cars, rolls, strict=True) if r == roll], turn))
    return ordered


def revealed(state: LacorsaState, event: QualifyingRevealed) -> LacorsaState:
    """Fold the reveal: the totals are public and the qualifying cards are discarded."""
    played = tuple(c for cards in state.committed for c in cards or ())
    by = tuple(car for car, cards in enumerate(state.committed) for _ in cards or ())
    return replace(
        state,
        qualifying_totals=event.totals,
        played=state.played + played,
        played_by=state.played_by + by,
        committed=(None,) * len(state.committed),
    )


def grid_formed(state: LacorsaState, event: GridFormed) -> LacorsaState:
    """Fold the grid: each car on its space, last to first; the first lap begins."""
    spaces = [0] * len(event.order)
    for position, car in enumerate(event.order):
        spaces[car] = position
    state = replace(state, order=event.order, spaces=tuple(spaces))
    return settle(state, 0, 0, 1)
