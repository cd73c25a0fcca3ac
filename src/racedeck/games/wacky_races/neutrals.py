"""Neutral racers (pilotos neutrales): they fill the field to six and move after each round.

Rulebook: "Cuando todos los jugadores hayan actuado, es decir, cuando la ronda haya
finalizado, es el momento en el que los pilotos neutrales se mueven. De estos habrá tantos
en la partida como sean necesarios por tal de que haya un mínimo de seis pilotos en juego.
[...] Los pilotos neutrales actúan de la siguiente manera (se omite en la primera ronda de
la partida): Realizan un primer movimiento sí o sí, avanzando a la próxima posición. Se
roba una primera carta de movimiento del mazo pertinente. Todos los pilotos neutrales que
se encuentren en una posición que sea del tipo de terreno que muestre la carta de
movimiento recién robada se mueven un paso más. Se vuelve a robar una segunda carta [...]
Se roba una tercera y última carta [...] Cuando los pilotos neutrales se mueven el primero
en hacerlo es el que va en cabeza [...] Cuando un piloto neutral se come una trampa sufre
los efectos también [...] Mover a los pilotos neutrales no provoca que Pierre Nodoyuna y
Patán se muevan también." / "When all players have acted, that is, when the round is
over, the neutral drivers move. There are as many neutral drivers as needed for at least
six drivers to be in play. [...] Neutral drivers act as follows (this is skipped in the
first round of the game): They always make a first move, advancing to the next position.
A first movement card is drawn from the movement deck. Every neutral driver that is on a
position of the terrain type shown on the card just drawn moves one more step. A second
movement card is drawn and the same is done. A third and last movement card is drawn and
the same is done. When neutral drivers move, the leader among them moves first [...] A
neutral driver that runs into a trap suffers its effects as a normal driver would. Moving
the neutral drivers does not make Dick Dastardly and Muttley move."

Decisions: the first move is made "sí o sí", from the Swamp too (the option
``swamp_holds_neutrals`` keeps rules version 1's reading, where the Swamp held them); a
neutral racer stopped by a trap moves no more that round; on a tile without terrain no
drawn card moves it (but two drawn cards of one terrain take it off the Swamp); the drawn
cards go to the discard pile (the last is its top card). The rulebook's other reading,
where Dastardly also moves after the neutral racers, is the option
``dastardly_after_neutrals``. Neutral racers hold no cards and use no advantages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec.structs import replace

from racedeck.games.wacky_races.circuit import forward_target, leader_order
from racedeck.games.wacky_races.data import FINISH, MAX_STEPS
from racedeck.games.wacky_races.events import NeutralCardDrawn, NeutralsMoving, RacerMoved
from racedeck.games.wacky_races.movement_cards import draw_one
from racedeck.games.wacky_races.state import WackyState
from racedeck.games.wacky_races.terrain import neutral_card_moves, neutral_steps_freely
from racedeck.games.wacky_races.tuples import add_counts

if TYPE_CHECKING:
    from racedeck.games.wacky_races.resolution import Arrivals, Resolution


def move_this_round(state: WackyState) -> bool:
    """Return True when the round ending now moves neutral racers.

    It does when there are some, and it is not the first round.
    """
    return state.round >= 1 and len(state.field) > state.players


def move(r: Resolution) -> Arrivals:
    """One step each, then three cards moving the neutrals on their terrain; leader first.

    Each step yields the racer, which meets its new position before the round goes on.
    """
    s = r.turn.state
    cars = range(s.players, len(s.field))
    r.emit(NeutralsMoving())
    r.stopped.clear()
    for car in leader_order(s, cars):
        st = r.turn.state
        if st.pos[car] != FINISH and (
            not s.options.swamp_holds_neutrals or neutral_steps_freely(st.tiles[st.pos[car]])
        ):
            yield step(r, car)
        if not r.racing:
            return
    drawn: list[int] = []
    for _ in range(MAX_STEPS):
        card = draw_one(r)
        if card < 0:
            return
        r.emit(NeutralCardDrawn(card=card))
        pair = card in drawn
        drawn.append(card)
        st = r.turn.state
        # Only a racer this card can move changes anything: when there is none, nobody is
        # sorted (the order matters only once a racer moves).
        tiles, pos, stopped = st.tiles, st.pos, r.stopped
        for car in cars:
            p = pos[car]
            if p != FINISH and car not in stopped and neutral_card_moves(tiles[p], card, pair):
                break
        else:
            continue
        for car in leader_order(st, cars):
            st = r.turn.state
            p = st.pos[car]
            if car in r.stopped or p == FINISH:
                continue
            if not neutral_card_moves(st.tiles[p], card, pair):
                continue
            yield step(r, car)
            if not r.racing:
                return


def step(r: Resolution, car: int) -> tuple[int, bool]:
    """Step a neutral racer one position forward (full ones skipped); it is to meet its tile."""
    pos = r.turn.state.pos
    r.emit(RacerMoved(car=car, to=forward_target(pos, pos[car]), cause="neutral"))
    return car, True


# Folding --------------------------------------------------------------------------------------
def on_neutrals_moving(state: WackyState, e: NeutralsMoving) -> WackyState:
    """Fold: a marker in the log: the round is over, the neutral racers move."""
    return state


def on_neutral_card_drawn(state: WackyState, e: NeutralCardDrawn) -> WackyState:
    """Fold: the card leaves the draw pile for the top of the discard pile."""
    return replace(
        state, draw=state.draw[:-1], discard=add_counts(state.discard, (e.card,)), top=e.card
    )
