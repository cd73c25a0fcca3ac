"""Wacky Races' state and what one seat may see of it."""

from __future__ import annotations

from typing import Literal

import msgspec

from racedeck.core.model import Observation
from racedeck.games.wacky_races.options import WackyOptions

Phase = Literal["choose", "setup", "turn", "after_turn", "race_end", "over"]
"""Where a match stands: choosing racers, a race's set-up, a turn, a turn's or race's end."""
Task = tuple[str, int, int]
"""Chance work the engine owes: (kind, seat, target)."""


class WackyState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The whole truth of a Wacky Races match at one moment.

    Cars are numbered within a race: car ``s`` belongs to seat ``s``, the cars after the
    players' are neutral racers. ``pos`` and ``stamp`` are per car: a position (0 is the
    back of the grid, ``data.FINISH`` the finish) and when the car arrived there (earlier
    arrivals are ahead on a shared position). ``traps`` holds the face-down trap of each
    position or -1. The movement cards are terrain indexes: ``draw`` is the draw pile in
    order (drawn from its end), ``discard`` counts the discard pile per terrain and ``top``
    is its top card. ``trap_deck`` is the trap deck in order, ``trap_discard`` counts the
    revealed traps. ``exhausted`` is a 4-bit mask per seat.
    """

    options: WackyOptions
    players: int
    phase: Phase = "choose"
    racer_of_seat: tuple[int, ...] = ()
    race: int = 0
    tiles: tuple[int, ...] = ()
    field: tuple[int, ...] = ()
    pos: tuple[int, ...] = ()
    stamp: tuple[int, ...] = ()
    clock: int = 0
    dastardly: int = -1
    traps: tuple[int, ...] = ()
    trap_deck: tuple[int, ...] = ()
    trap_discard: tuple[int, ...] = ()
    hands: tuple[tuple[int, ...], ...] = ()
    draw: tuple[int, ...] = ()
    discard: tuple[int, ...] = ()
    top: int = -1
    exhausted: tuple[int, ...] = ()
    glued: tuple[bool, ...] = ()
    first_seat: int = 0
    active: int = 0
    round: int = 0
    turn_in_round: int = 0
    steps: int = 0
    wild: bool = False
    pending: tuple[Task, ...] = ()
    gas_done: bool = False
    finished: tuple[int, ...] = ()
    results: tuple[tuple[int, ...], ...] = ()
    """Per finished race, its cars from first place to last."""
    fields: tuple[tuple[int, ...], ...] = ()
    """Per finished race, the racer of each car."""
    points: tuple[int, ...] = ()
    """Championship points per seat so far."""
    held: bool = False
    """The Glue Trap holds this turn: the racer takes two steps with cards at most."""


class WackyObservation(Observation, frozen=True, gc=False, tag="wacky_races"):
    """What one seat knows: its own hand and every public fact.

    Face-down traps show only where they are (``traps``); other seats' hands only their
    sizes; the draw pile only its size. ``discard`` and ``trap_discard`` count what has
    been played face up, so a bot can count cards without a memory of its own.
    ``results`` and ``fields`` are the championship so far: per finished race, its cars
    first to last and the racer of each car.
    """

    seat: int
    players: int
    phase: Phase
    racer_of_seat: tuple[int, ...]
    race: int
    races: int
    tiles: tuple[int, ...]
    field: tuple[int, ...]
    pos: tuple[int, ...]
    stamp: tuple[int, ...]
    dastardly: int
    traps: tuple[bool, ...]
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    draw_size: int
    discard: tuple[int, ...]
    top: int
    trap_deck_size: int
    trap_discard: tuple[int, ...]
    exhausted: tuple[int, ...]
    glued: tuple[bool, ...]
    active: int
    round: int
    steps: int
    wild: bool
    gas_done: bool
    finished: tuple[int, ...]
    results: tuple[tuple[int, ...], ...]
    points: tuple[int, ...]
    fields: tuple[tuple[int, ...], ...] = ()
    held: bool = False
    """The Glue Trap holds the turn of the seat to act: two steps with cards at most."""
