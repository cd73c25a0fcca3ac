"""The gas station: "una gasolinera que hace de nexo entre la primera etapa y la segunda
etapa" / "a gas station that links the first stage to the second stage".

``gas_station.py`` implements it.
"""

from __future__ import annotations

from racedeck.games.wacky_races.actions import PlayStep
from tests.games.wacky_races.helpers import (
    GAS,
    D,
    F,
    M,
    P,
    kinds,
    make,
    play,
)


def test_gas_station_refreshes_one_advantage_of_every_player_when_the_last_racer_arrives() -> None:
    """Published ruling (gas station refresh): when the racer in last place moves onto it,
    every player refreshes one of their exhausted advantage cards."""
    state = make(
        players=2, pos=(10, 12, 13, 12, 14, 15), hands=((F, P, M), (D,)), exhausted=(3, 12)
    )
    events, after = play(state, PlayStep(cards=(M,)))
    assert after.pos[0] == GAS
    assert "GasStationReached" in kinds(events)
    assert after.exhausted == (2, 8) and after.gas_done
    again = make(players=2, pos=(10, 12, 13, 12, 14, 15), exhausted=(3, 12), gas_done=True)
    assert "GasStationReached" not in kinds(play(again, PlayStep(cards=(D,)))[0])
    early = make(players=2, pos=(10, 12, 13, 12, 14, 3), exhausted=(3, 12))
    assert "GasStationReached" not in kinds(play(early, PlayStep(cards=(D,)))[0])
