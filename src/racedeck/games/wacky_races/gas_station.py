"""The gas station (la gasolinera): between the stages; the only refresh of advantages.

Rulebook: "una gasolinera que hace de nexo entre la primera etapa y la segunda etapa." /
"a gas station that links the first stage to the second stage."

Published ruling (gas station refresh): when the racer in last place moves onto it, every
player refreshes one of their exhausted advantage cards. Decisions: it happens once a
race, the moment no racer is left behind it (reaching or passing it), and each player
refreshes its first exhausted advantage in sheet order (no choice is asked). Any card
counts for a later step on the gas station, which shows no terrain (see ``moving``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec.structs import replace

from racedeck.games.wacky_races.advantages import first_exhausted
from racedeck.games.wacky_races.data import GAS
from racedeck.games.wacky_races.events import GasStationReached
from racedeck.games.wacky_races.state import WackyState

if TYPE_CHECKING:
    from racedeck.games.wacky_races.resolution import Resolution


def check(r: Resolution) -> None:
    """Once the last racer reaches the gas station, each player refreshes an advantage."""
    s = r.turn.state
    if not s.gas_done and min(s.pos) >= GAS:
        refreshed = tuple(first_exhausted(s.exhausted[seat]) for seat in range(s.players))
        r.emit(GasStationReached(refreshed=refreshed))


def on_gas_station_reached(state: WackyState, e: GasStationReached) -> WackyState:
    """Fold: each player's refreshed advantage (-1: none) is face up again; it will not recur."""
    exhausted = tuple(
        mask & ~(1 << i) if i >= 0 else mask
        for mask, i in zip(state.exhausted, e.refreshed, strict=True)
    )
    return replace(state, exhausted=exhausted, gas_done=True)
