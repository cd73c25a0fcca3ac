"""Players' turns: three cards in hand, up to three steps, full positions skipped, the refill.

Each test quotes the rule it pins (Spanish, then English); ``moving.py`` implements them.
"""

from __future__ import annotations

import random

import pytest

from racedeck.core.errors import IllegalActionError
from racedeck.core.model import ENGINE
from racedeck.core.rng import engine_stream
from racedeck.core.step import apply, resolve
from racedeck.games.wacky_races import data
from racedeck.games.wacky_races.actions import EndTurn, PlayStep
from racedeck.games.wacky_races.events import (
    CardsDrawn,
    TurnEnded,
    TurnStarted,
)
from racedeck.games.wacky_races.options import WackyOptions
from tests.games.wacky_races.helpers import (
    D,
    F,
    G,
    M,
    P,
    make,
    of,
    play,
    play_on,
    set_up_race,
)


def test_players_start_each_turn_with_three_movement_cards() -> None:
    """Los jugadores comienzan la partida y cada uno de sus turnos con tres cartas de movimiento en la mano.
    Estas cartas son las necesarias para poder mover a los pilotos a través del circuito.

    Players begin the game, and each of their turns, with three movement cards in hand.
    These cards are what moves the drivers along the circuit.
    """
    events, state = set_up_race(4, 2)
    assert [len(h) for h in state.hands] == [3, 3, 3, 3]
    assert len(of(events, CardsDrawn)) == 4
    assert sum(len(h) for h in state.hands) + len(state.draw) == sum(data.DECK)


def test_a_position_holds_two_racers_and_dastardly_takes_no_slot() -> None:
    """En cada una de las casillas de la Parrilla de salida y en cada una de las fichas de terreno puede haber dos pilotos como mucho:
    uno situado a la izquierda y otro situado a la derecha.
    Pierre Nodoyuna y Patán avanzan colocando su figura encima de estas casillas y fichas, no en los laterales.

    Each starting-grid space and each terrain tile can hold at most two drivers:
    one on the left and one on the right.
    Dick Dastardly and Muttley advance by standing on top of these spaces and tiles, not on their sides.
    """
    state = make(players=2, pos=(3, 5, 4, 0, 1, 2), dastardly=4)
    _, after = play(state, PlayStep(cards=(D,)))
    assert after.pos[0] == 4  # one racer and Dastardly there: the right-hand slot is free
    state = make(players=2, pos=(3, 4, 4, 0, 1, 2))
    _, after = play(state, PlayStep(cards=(D,)))
    assert after.pos[0] == 5


def test_a_turn_is_at_most_three_steps() -> None:
    """En su turno, un jugador puede mover a su piloto hasta tres casillas siguiendo estas reglas:

    On their turn a player may move their driver up to three spaces, following these rules:
    """
    state = make(players=2, pos=(2, 0, 0, 1, 1, 9), hands=((D, F, P, M, M, M), (D,)))
    for card in (D, D, F, P):
        if PlayStep(cards=(card,)) not in G.legal_actions(state, 0):
            break
        _, state = play(state, PlayStep(cards=(card,)))
    state = make(players=2, pos=(2, 0, 0, 1, 1, 9), hands=((D, D, F, P), (D,)))
    _, state = play(state, PlayStep(cards=(D,)))  # 2 -> 3, Desert
    _, state = play(state, PlayStep(cards=(D,)))  # 3 -> 4, Forest
    _, state = play(state, PlayStep(cards=(F,)))  # 4 -> 5
    assert state.steps == 3 and state.pos[0] == 5
    assert state.phase == "turn" or state.active != 0
    assert not [a for a in G.legal_actions(state, 0) if isinstance(a, PlayStep)]


def test_the_first_step_takes_any_card() -> None:
    """- Para realizar el primer movimiento y avanzar una posición el jugador puede gastar cualquier carta de movimiento.

    - To make the first move and advance one position, the player may spend any movement card.
    """
    state = make(players=2, pos=(3, 0, 0, 1, 1, 2), hands=((F, P, M), (D,)))
    steps = [a for a in G.legal_actions(state, 0) if isinstance(a, PlayStep)]
    assert steps == [PlayStep(cards=(F,)), PlayStep(cards=(P,)), PlayStep(cards=(M,))]
    _, after = play(state, PlayStep(cards=(M,)))
    assert after.pos[0] == 4 and after.top == M and M not in after.hands[0]


def test_the_second_step_needs_the_terrain_of_the_tile_the_racer_is_on() -> None:
    """- Para realizar un segundo paso el jugador debe gastar una carta de movimiento correspondiente al tipo de terreno sobre el que se encuentre actualmente su miniatura.

    - To make a second step the player must spend a movement card matching the terrain type of the tile the miniature is currently on.
    """
    state = make(players=2, pos=(2, 0, 0, 1, 1, 9), hands=((P, F, M), (D,)))
    _, state = play(state, PlayStep(cards=(P,)))  # onto position 3, a Desert tile
    assert not [a for a in G.legal_actions(state, 0) if isinstance(a, PlayStep)]
    with pytest.raises(IllegalActionError, match="terrain"):
        apply(G, state, 0, PlayStep(cards=(F,)), random.Random(0))
    state = make(players=2, pos=(3, 0, 0, 1, 1, 9), hands=((M, F, P), (D,)), steps=1)
    assert [a for a in G.legal_actions(state, 0) if isinstance(a, PlayStep)] == []
    state = make(players=2, pos=(4, 0, 0, 1, 1, 9), hands=((M, F, P), (D,)), steps=1)
    assert [a for a in G.legal_actions(state, 0) if isinstance(a, PlayStep)] == [
        PlayStep(cards=(F,))
    ]


def test_the_third_step_needs_the_terrain_of_the_tile_too() -> None:
    """- Para realizar un tercer y último paso el jugador debe gastar una carta de movimiento igual al tipo de terreno sobre el que se encuentre actualmente su miniatura (igual que en el segundo paso, vaya).

    - To make a third and last step the player must spend a movement card equal to the terrain type of the tile the miniature is currently on (same as the second step).
    """
    state = make(players=2, pos=(5, 0, 0, 1, 1, 9), hands=((P, F, M), (D,)), steps=2)
    assert [a for a in G.legal_actions(state, 0) if isinstance(a, PlayStep)] == [
        PlayStep(cards=(P,))
    ]
    _, after = play(state, PlayStep(cards=(P,)))
    assert after.pos[0] == 6


def test_non_terrain_positions_take_any_card_for_later_steps() -> None:
    """Gap decision: on the grid, the gas station and the special tiles any card matches."""
    state = make(players=2, pos=(1, 0, 0, 1, 2, 9), hands=((P, F, M), (D,)), steps=1)
    assert len([a for a in G.legal_actions(state, 0) if isinstance(a, PlayStep)]) == 3


def test_full_positions_are_skipped() -> None:
    """- Si un jugador se desplaza a una posición en la que ya hay dos pilotos saltará a la siguiente que esté vacía o que contenga un único piloto.

    - If a player moves to a position that already holds two drivers, they jump to the next position that is empty or holds a single driver.
    """
    state = make(players=2, pos=(3, 4, 4, 5, 5, 6), hands=((D, F, P), (D,)))
    _, after = play(state, PlayStep(cards=(D,)))
    assert after.pos[0] == 6  # 4 and 5 are full; 6 holds one racer


def test_refill_to_three_after_moving() -> None:
    """Una vez un jugador ha movido a su piloto, debe robar cartas de movimiento del mazo correspondiente hasta tener un mínimo de tres.

    Once a player has moved their driver, they must draw movement cards from the deck until they hold at least three.
    """
    state = make(players=2, hands=((D, F, P), (D, F, P)), round=0)
    _, state = play(state, PlayStep(cards=(D,)))
    events, after = play(state, EndTurn())
    assert of(events, TurnEnded)[0].drawn == (M,)  # the draw pile's last card
    assert len(after.hands[0]) == 3 and len(after.draw) == len(state.draw) - 1
    big = make(players=2, hands=((D, F, P, M, M), (D,)), round=0)
    events, after = play(big, EndTurn())
    assert of(events, TurnEnded)[0].drawn == () and len(after.hands[0]) == 5  # no hand limit


def test_every_turn_starts_with_three_cards() -> None:
    """Los jugadores comienzan la partida y cada uno de sus turnos con tres cartas de movimiento en la mano.

    Players begin the game, and each of their turns, with three movement cards in hand. A
    steal or a trap may leave a seat fewer between its turns: it draws up to three as its
    turn starts.
    """
    state = make(players=2, hands=((D, F, P), (D,)), round=0)
    events, after = play_on(state, EndTurn())
    assert after.active == 1 and after.phase == "turn"
    assert [e.cards for e in of(events, CardsDrawn) if e.seat == 1] == [(P, M)]
    assert after.hands[1] == (D, P, M)


def test_short_turn_hands_keeps_the_version_1_reading() -> None:
    """The option ``short_turn_hands`` (off by default): no refill as a turn starts."""
    state = make(players=2, hands=((D, F, P), (D,)), round=0, options={"short_turn_hands": True})
    events, after = play_on(state, EndTurn())
    assert after.active == 1 and after.hands[1] == (D,)
    assert not [e for e in of(events, CardsDrawn) if e.seat == 1]


def short_turn_starts(options: WackyOptions, races: int = 60) -> tuple[int, int]:
    """Return (turns, turns begun with fewer than three cards) over random 3-player races."""
    turns = short = 0
    for seed in range(races):
        state = G.initial_state(options, 3)
        rng = random.Random(seed)
        count, fresh = 0, False
        while not (step := G.next_step(state)).over:
            if step.engine:
                turn = resolve(G, state, ENGINE, None, engine_stream(seed, count))
            else:
                seat = step.seats[0]
                if fresh and state.phase == "turn":
                    turns += 1
                    short += len(state.hands[seat]) < data.HAND_SIZE
                fresh = False
                legal = G.legal_actions(state, seat)
                turn = apply(G, state, seat, legal[rng.randrange(len(legal))])
            if any(isinstance(e, TurnStarted) for e in turn.events):
                fresh = True
            state = turn.state
            count += len(turn.events)
    return turns, short


def test_random_races_never_start_a_turn_short_of_three_cards() -> None:
    """Every turn of 60 random races starts with three cards in hand (version 1: some did not)."""
    turns, short = short_turn_starts(WackyOptions())
    assert turns > 1000 and short == 0
    _, short_v1 = short_turn_starts(WackyOptions(short_turn_hands=True))
    assert short_v1 > 0
