"""The circuit (El circuito): its parts, the racers the players choose, a race's set-up.

Each test quotes the rule it pins (Spanish, then English); ``circuit.py`` implements them.
"""

from __future__ import annotations

import random

import pytest

from racedeck.core.errors import IllegalActionError, OptionError
from racedeck.core.step import apply
from racedeck.games.wacky_races import data
from racedeck.games.wacky_races.actions import ChooseRacer
from racedeck.games.wacky_races.events import (
    RaceSetUp,
)
from racedeck.games.wacky_races.options import WackyOptions
from tests.games.wacky_races.helpers import (
    D,
    F,
    G,
    M,
    P,
    engine,
    of,
    set_up_race,
)


def test_circuit_is_grid_stage_one_gas_station_stage_two_and_finish() -> None:
    """El circuito en el cual transcurre la carrera se divide en:
    - una Parrilla de salida, desde la que parten los pilotos elegidos por los jugadores, así como Pierre Nodoyuna y Patán.
    - una primera etapa compuesta por ocho fichas de terreno.
    - una gasolinera que hace de nexo entre la primera etapa y la segunda etapa.
    - una segunda etapa compuesta por nueve fichas de terreno, una de las cuales es una ficha de terreno especial (Pantano, Paso a nivel, Cruce o Laboratorio A.C.M.E.)
    - la meta.

    The race track is divided into:
    - a Starting Grid, from which the drivers chosen by the players start, together with Dick Dastardly and Muttley;
    - a first stage made of eight terrain tiles;
    - a gas station that links the first stage to the second stage;
    - a second stage made of nine terrain tiles, one of which is a special terrain tile (Swamp, Level Crossing, Crossroads or A.C.M.E.
    Laboratory); the finish.
    """
    specials = set()
    for seed in range(40):
        events, state = set_up_race(2, seed)
        tiles = of(events, RaceSetUp)[0].tiles
        assert tiles[:3] == (data.GRID,) * 3
        stage_one, gas, stage_two, finish = tiles[3:11], tiles[11], tiles[12:21], tiles[21:]
        assert sorted(stage_one) == [D, D, F, F, P, P, M, M]
        assert gas == data.GAS_STATION
        special = [t for t in stage_two if t in data.SPECIAL_TILES]
        assert len(special) == 1 and len(stage_two) == 9
        specials.add(special[0])
        assert finish == (data.FINISH_LINE,)
        assert state.dastardly == -1  # Dastardly starts behind the grid with the racers
    assert specials == set(data.SPECIAL_TILES)


def test_tiles_are_drawn_from_the_seed_so_every_race_can_differ() -> None:
    """una segunda etapa compuesta por nueve fichas de terreno / a second stage made of nine
    terrain tiles: the engine shuffles the tiles from the match seed, as events."""
    first = of(set_up_race(3, 1)[0], RaceSetUp)[0].tiles
    assert of(set_up_race(3, 1)[0], RaceSetUp)[0].tiles == first
    assert any(of(set_up_race(3, s)[0], RaceSetUp)[0].tiles != first for s in range(2, 6))


def test_special_tile_option_picks_the_special_tile() -> None:
    """Pantano, Paso a nivel, Cruce o Laboratorio A.C.M.E. / Swamp, Level Crossing, Crossroads or A.C.M.E."""
    for key in data.SPECIAL_KEYS:
        tiles = of(set_up_race(2, 5, special_tile=key)[0], RaceSetUp)[0].tiles
        assert data.special_code(key) in tiles[12:21]


def test_players_choose_their_racers_in_seat_order() -> None:
    """desde la que parten los pilotos elegidos por los jugadores / from which the drivers
    chosen by the players start."""
    state = G.initial_state(WackyOptions(), 3)
    assert G.next_step(state).seats == (0,)
    state = apply(G, state, 0, ChooseRacer(racer=4), random.Random(0)).state
    assert ChooseRacer(racer=4) not in G.legal_actions(state, 1)
    with pytest.raises(IllegalActionError, match="already taken"):
        apply(G, state, 1, ChooseRacer(racer=4), random.Random(0))
    state = apply(G, state, 1, ChooseRacer(racer=0), random.Random(0)).state
    state = apply(G, state, 2, ChooseRacer(racer=9), random.Random(0)).state
    assert state.phase == "setup" and G.next_step(state).engine
    _, state = engine(state, 3)
    assert state.field[:3] == (4, 0, 9)


def test_one_to_six_players() -> None:
    """Players: 1-6, the neutral racers filling the field."""
    for players in range(1, 7):
        G.check_players(WackyOptions(), players)
    for players in (0, 7):
        with pytest.raises(OptionError):
            G.check_players(WackyOptions(), players)
