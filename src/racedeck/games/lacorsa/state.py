"""LACORSA's state and what one seat may see of it."""

from __future__ import annotations

from typing import Literal

import msgspec

from racedeck.core.model import Observation
from racedeck.games.lacorsa.options import LacorsaOptions

Phase = Literal["deal", "qualify", "grid", "challenge", "reveal", "move", "score", "over"]


class LacorsaState(msgspec.Struct, frozen=True, kw_only=True):
    """The whole truth of a LACORSA match at one moment.

    Cars are numbered from 0; ``owner[car]`` is the seat that drives it. ``order`` lists
    the cars from last place to the leader and ``cursor`` points at the active car in it.
    ``committed`` holds each car's face-down play until it is revealed.
    """

    options: LacorsaOptions
    players: int
    owner: tuple[int, ...]
    phase: Phase = "deal"
    race: int = 0
    hands: tuple[tuple[int, ...], ...] = ()
    committed: tuple[tuple[int, ...] | None, ...] = ()
    order: tuple[int, ...] = ()
    spaces: tuple[int, ...] = ()
    lap: int = 0
    cursor: int = 0
    passes: int = 0
    attacker: int = -1
    defender: int = -1
    played: tuple[int, ...] = ()
    qualifying_totals: tuple[int, ...] = ()
    results: tuple[tuple[int, ...], ...] = ()
    """Per finished race, its cars from first place to last."""
    points: tuple[int, ...] = ()
    """Championship points per car so far."""
    played_by: tuple[int, ...] = ()
    """The car that played each card of ``played``, in the same order."""


class LacorsaObservation(Observation, frozen=True, tag="lacorsa"):
    """What one seat knows: its own hands, every public fact, no one else's cards.

    ``hands`` has an entry per car: the cards for the seat's own cars, ``None`` for the
    others, whose sizes are in ``hand_sizes``. ``committed`` tells which cars have a card
    face down; ``own_committed`` shows the seat's own face-down plays. ``played`` is every
    card turned face up this race, in order.
    """

    seat: int
    players: int
    owner: tuple[int, ...]
    phase: Phase
    race: int
    races: int
    lap: int
    hands: tuple[tuple[int, ...] | None, ...]
    hand_sizes: tuple[int, ...]
    committed: tuple[bool, ...]
    own_committed: tuple[tuple[int, ...] | None, ...]
    order: tuple[int, ...]
    spaces: tuple[int, ...]
    active_car: int
    passes: int
    attacker: int
    defender: int
    played: tuple[int, ...]
    qualifying_totals: tuple[int, ...]
    results: tuple[tuple[int, ...], ...]
    points: tuple[int, ...]
    board_length: int
    deciding_car: int
    """The car of this seat that the legal actions are for, or -1."""
    played_by: tuple[int, ...] = ()
    """The car that played each card of ``played``, in the same order."""
