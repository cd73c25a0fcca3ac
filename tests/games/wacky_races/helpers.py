"""Positions built by hand for Wacky Races' rule tests."""

from __future__ import annotations

import random
from typing import Any

from msgspec.structs import replace

from racedeck.core.model import ENGINE
from racedeck.core.step import apply
from racedeck.core.step import fold as core_fold
from racedeck.games.wacky_races import data
from racedeck.games.wacky_races.actions import ChooseRacer
from racedeck.games.wacky_races.events import RacerChosen, RaceSetUp, WackyEvent
from racedeck.games.wacky_races.options import WackyOptions
from racedeck.games.wacky_races.rules import WackyRaces
from racedeck.games.wacky_races.state import WackyState

G = WackyRaces()
D, F, P, M = 0, 1, 2, 3
"""Desert, Forest, Prairie, Farm."""
STAGE_ONE = (D, F, P, M, D, F, P, M)
"""Positions 3-10."""
GAS = data.GAS  # 11
SPECIAL_AT = 16
FINISH = data.FINISH  # 21

PAT, SLAG, GRUESOME, PENELOPE, RED_MAX, ARMY, ANTS, LUKE, PETER, RUFUS = (
    data.RACER_KEYS.index(k)
    for k in (
        "pat_pending",
        "slag_brothers",
        "gruesome_twosome",
        "penelope_pitstop",
        "red_max",
        "army_surplus",
        "ant_hill_mob",
        "lazy_luke",
        "peter_perfect",
        "rufus_ruffcut",
    )
)
TRAP = {key: i for i, key in enumerate(data.TRAP_KEYS)}


def circuit(special: int = data.SWAMP) -> tuple[int, ...]:
    """Grid (0-2), stage one (3-10), gas station (11), stage two (12-20), finish (21)."""
    stage_two = (D, F, P, M, special, D, F, P, M)
    return (
        (data.GRID,) * data.GRID_POSITIONS
        + STAGE_ONE
        + (data.GAS_STATION,)
        + stage_two
        + (data.FINISH_LINE,)
    )


def make(
    *,
    players: int = 1,
    racers: tuple[int, ...] | None = None,
    pos: tuple[int, ...] = (3, 0, 0, 1, 1, 2),
    hands: tuple[tuple[int, ...], ...] | None = None,
    traps: dict[int, int] | None = None,
    tiles: tuple[int, ...] | None = None,
    options: dict[str, Any] | None = None,
    deck: tuple[int, ...] = (D, F, P, M) * 12,
    trap_deck: tuple[int, ...] = tuple(range(len(data.TRAP_KEYS))),
    **fields: Any,
) -> WackyState:
    """Return a race in progress: seat ``active`` (0) to act, round 1, cars where ``pos`` says.

    Car ``c`` arrived on its position before car ``c + 1``. The other racers (after
    ``racers``) are neutral. Extra keyword arguments replace state fields as they are.
    """
    chosen = racers or (PAT, SLAG, GRUESOME, PENELOPE, RED_MAX, ARMY)[:players]
    state = G.initial_state(WackyOptions(**(options or {})), players)
    for seat in range(players):
        state = G.evolve(state, RacerChosen(seat=seat, racer=chosen[seat]))
    rest = [r for r in range(len(data.RACER_KEYS)) if r not in chosen]
    field = (*chosen[:players], *rest[: data.FIELD_SIZE - players])
    state = G.evolve(
        state,
        RaceSetUp(
            race=0,
            tiles=tiles or circuit(),
            field=field,
            grid=pos,
            slot_order=tuple(range(len(field))),
            first_seat=0,
            deck=deck,
            trap_deck=trap_deck,
        ),
    )
    track = [-1] * len(state.tiles)
    for p, t in (traps or {}).items():
        track[p] = t
    defaults: dict[str, Any] = {
        "hands": hands if hands is not None else ((D, F, P),) * players,
        "traps": tuple(track),
        "round": 1,
        "phase": "turn",
        "turn_in_round": fields.get("active", 0),
    }
    defaults.update(fields)
    return replace(state, **defaults)


def fold(state: WackyState, events: list[WackyEvent]) -> WackyState:
    """Return ``state`` with ``events`` folded in (events built by hand, as a log holds them)."""
    return core_fold(G, state, events)


def play(
    state: WackyState, action: Any, seat: int | None = None
) -> tuple[list[WackyEvent], WackyState]:
    """Let ``seat`` (the active one by default) take ``action``; return events and new state."""
    actor = state.active if seat is None else seat
    turn = apply(G, state, actor, action)
    return turn.events, turn.state


def play_on(
    state: WackyState, action: Any, seat: int | None = None, seed: int = 0
) -> tuple[list[WackyEvent], WackyState]:
    """Let ``seat`` take ``action``, then let the engine act until a seat or nobody is next.

    What the turn's end sets going (the refill, Dastardly, the neutral racers, the next
    turn) is the engine's, right after the seat's own events.
    """
    events, state = play(state, action, seat)
    while G.next_step(state).engine:
        more, state = engine(state, seed)
        events = events + more
    return events, state


def engine(state: WackyState, seed: int = 0) -> tuple[list[WackyEvent], WackyState]:
    """Let the engine act; return its events and the new state."""
    turn = apply(G, state, ENGINE, None, random.Random(seed))
    return turn.events, turn.state


def set_up_race(players: int, seed: int, **options: object) -> tuple[list[WackyEvent], WackyState]:
    """Let ``players`` seats choose racers 0, 1, ... and the engine set the race up."""
    state = G.initial_state(WackyOptions(**options), players)  # type: ignore[arg-type]
    for seat in range(players):
        state = apply(G, state, seat, ChooseRacer(racer=seat), random.Random(0)).state
    return engine(state, seed)


def kinds(events: list[WackyEvent]) -> list[str]:
    """Return the events' type names."""
    return [type(e).__name__ for e in events]


def of(events: list[WackyEvent], kind: type) -> list[Any]:
    """Return the events of one type."""
    return [e for e in events if isinstance(e, kind)]
