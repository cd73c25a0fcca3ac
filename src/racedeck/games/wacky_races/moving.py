"""Players' turns (los turnos de los jugadores): up to three steps, each paid with a card.

Rulebook: "En su turno, un jugador puede mover a su piloto hasta tres casillas siguiendo
estas reglas: Para realizar el primer movimiento y avanzar una posición el jugador puede
gastar cualquier carta de movimiento. Para realizar un segundo paso el jugador debe gastar
una carta de movimiento correspondiente al tipo de terreno sobre el que se encuentre
actualmente su miniatura. Para realizar un tercer y último paso el jugador debe gastar una
carta de movimiento igual al tipo de terreno sobre el que se encuentre actualmente su
miniatura [...] Si un jugador se desplaza a una posición en la que ya hay dos pilotos
saltará a la siguiente que esté vacía o que contenga un único piloto." / "On their turn a
player may move their driver up to three spaces, following these rules: To make the first
move and advance one position, the player may spend any movement card. To make a second
step the player must spend a movement card matching the terrain type of the tile the
miniature is currently on. To make a third and last step the player must spend a movement
card equal to the terrain type of the tile the miniature is currently on [...] If a player
moves to a position that already holds two drivers, they jump to the next position that is
empty or holds a single driver."

"Una vez un jugador ha movido a su piloto, debe robar cartas de movimiento del mazo
correspondiente hasta tener un mínimo de tres." / "Once a player has moved their driver,
they must draw movement cards from the deck until they hold at least three." Then Dick
Dastardly moves (``dastardly``), and "Es el turno del siguiente jugador siguiendo el
sentido de las agujas del reloj" / "The next player, clockwise, takes their turn"; after
the last player of a round, the neutral racers move (``neutrals``).

A turn is a run of decisions: a step with a card, an advantage (``advantages``), or ending
the turn. The turn also ends by itself when a trap stops the racer or the seat has nothing
left to do but end it. Gap decision: on the grid, the gas station and the special tiles
(no terrain) any card counts for a later step.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from msgspec.structs import replace

from racedeck.games.wacky_races import (
    advantages,
    circuit,
    dastardly,
    data,
    gas_station,
    neutrals,
    terrain,
    traps,
)
from racedeck.games.wacky_races.actions import EndTurn, PlayStep, WackyAction
from racedeck.games.wacky_races.data import FINISH, GAS, MAX_STEPS, SWAMP
from racedeck.games.wacky_races.events import (
    RacerMoved,
    StepPlayed,
    TrapSprung,
    TurnEnded,
    TurnStarted,
    WackyEvent,
)
from racedeck.games.wacky_races.movement_cards import draw_cards, turn_start_refill
from racedeck.games.wacky_races.race_end import MAX_ROUNDS, finish
from racedeck.games.wacky_races.state import WackyState
from racedeck.games.wacky_races.tuples import set_at

if TYPE_CHECKING:
    from racedeck.games.wacky_races.resolution import Arrivals, Resolution

END_TURN = EndTurn()
"""Ending the turn (actions are values, made once)."""
ONE_CARD = tuple(PlayStep(cards=(t,)) for t in range(len(data.TERRAINS)))
"""``ONE_CARD[t]``: a step paid with one card of terrain ``t`` (actions are values, made once)."""
MATCHING = tuple((step,) for step in ONE_CARD)
"""``MATCHING[t]``: the one step a card of the tile's terrain ``t`` pays for."""
_ON_ENTRY = terrain.ON_ENTRY
"""The tiles that act on a racer stepping onto them (``terrain.ON_ENTRY``, read at every step)."""


# The steps ------------------------------------------------------------------------------------
@functools.cache
def any_card_steps(hand: tuple[int, ...]) -> tuple[PlayStep, ...]:
    """Return the steps a hand pays for when any card will do: one per terrain held."""
    steps: list[PlayStep] = []
    last = -1
    for t in hand:  # hands are sorted: one step per terrain held
        if t != last:
            steps.append(ONE_CARD[t])
            last = t
    return tuple(steps)


def step_actions(state: WackyState, seat: int) -> tuple[PlayStep, ...]:
    """Return the steps ``seat`` can pay for now (cards of one terrain are alike).

    None after the third step; the first takes any card, and so does a later one with a
    wild card in play or from a tile without terrain; the Swamp takes two identical cards
    or any three (``terrain``).
    """
    steps = state.steps
    if steps >= (MAX_STEPS - 1 if state.held else MAX_STEPS):  # traps.step_limit
        return ()
    hand = state.hands[seat]
    tile = state.tiles[state.pos[seat]]
    if tile == SWAMP:
        return terrain.swamp_steps(hand)
    if steps == 0 or state.wild or tile >= data.GRID:
        return any_card_steps(hand)
    return MATCHING[tile] if tile in hand else ()


def turn_actions(state: WackyState, seat: int) -> tuple[WackyAction, ...]:
    """Return what the seat whose turn it is can do: steps, advantages, ending the turn."""
    steps = step_actions(state, seat)
    if state.exhausted[seat] == 15:  # every advantage face down
        return (*steps, END_TURN)
    return (*steps, *advantages.advantage_actions(state, seat), END_TURN)


def can_go_on(state: WackyState, seat: int) -> bool:
    """Return True when ``seat`` has something to do in its turn besides ending it."""
    return bool(step_actions(state, seat)) or advantages.any_usable(state, seat)


def why_step_illegal(state: WackyState, seat: int, action: PlayStep) -> str:
    """Say why this step is refused."""
    hand = state.hands[seat]
    limit = traps.step_limit(state)
    if state.steps >= limit:
        held = " (the Glue Trap holds this turn)" if state.held else ""
        return f"a racer moves at most {limit} steps with cards a turn{held}"
    if any(action.cards.count(c) > hand.count(c) for c in action.cards):
        return f"cards {action.cards} are not in seat {seat}'s hand {hand}"
    tile = state.tiles[state.pos[seat]]
    if tile == SWAMP:
        return terrain.SWAMP_RULE
    return (
        "the second and third steps need a card of the terrain of the racer's tile "
        f"({data.TILE_NAMES[tile]})"
    )


def play_step(r: Resolution, seat: int, cards: tuple[int, ...]) -> None:
    """Spend ``cards`` and step one position forward, skipping full positions."""
    pos = r.turn.state.pos
    to = circuit.forward_target(pos, pos[seat])
    arrive(r, seat, True, r.emit(StepPlayed(seat=seat, cards=cards, to=to)))


# Arriving on a position -----------------------------------------------------------------------
def arrive(r: Resolution, car: int, by_step: bool, s: WackyState | None = None) -> None:
    """Apply what ``car``'s new position does.

    That is its trap, its special tile (for a step), and the gas station once the last
    racer passes it. ``s`` is the state now, when the caller has it at hand. A racer the
    trap or the tile moves meets its own new position in turn, before this one goes on.
    """
    if s is None:
        s = r.turn.state
    p = s.pos[car]
    if p == FINISH or s.phase == "race_end":
        return
    trap = s.traps[p]
    if trap >= 0 and traps.spring(r, car, p):
        arrive_all(r, traps.suffer(r, car, trap, p))
        gas_station.check(r)  # a trap may have moved the last racer on
        return
    if by_step and s.tiles[p] in _ON_ENTRY:
        arrive_all(r, terrain.enter(r, car, p))
        s = r.turn.state
    if not s.gas_done and min(s.pos) >= GAS:  # (it happens once a race)
        gas_station.check(r)


def arrive_all(r: Resolution, moved: Arrivals) -> None:
    """Let each racer an effect moved meet its new position, as the effect moves it."""
    for car, by_step in moved:
        arrive(r, car, by_step)


# The turn's end -------------------------------------------------------------------------------
def end_turn(r: Resolution, seat: int, reason: str) -> None:
    """End ``seat``'s turn, refilling its hand at once when the draw pile holds the cards."""
    s = r.turn.state
    drawn: tuple[int, ...] = ()
    if not s.pending:
        need = traps.refill_size(s, seat) - len(s.hands[seat])
        if 0 < need <= len(s.draw):
            drawn = s.draw[len(s.draw) - need :]
    r.emit(TurnEnded(seat=seat, reason=reason, drawn=drawn))


def stopped_this_decision(events: list[WackyEvent], seat: int) -> bool:
    """Return True when a trap stopped ``seat``'s racer among a seat decision's ``events``.

    "deberá detenerse y sufrir los efectos de esta, perdiendo el turno" / "they must stop
    there and suffer its effects, losing the turn": a trap no advantage cancelled.
    """
    return any(type(e) is TrapSprung and e.car == seat and e.advantage < 0 for e in events)


def start_race(r: Resolution) -> None:
    """Deal three cards to each player, from the race's first player on; the first turn."""
    s = r.turn.state
    first, players = s.first_seat, s.players
    for k in range(players):
        draw_cards(r, (first + k) % players, data.HAND_SIZE)
    r.emit(TurnStarted(seat=first, round=0))


def after_turn(r: Resolution) -> None:
    """End the turn: refill, move Dastardly, end the round, start the next turn.

    At the round's end the neutral racers move. It is the engine's work: a refill may
    reshuffle, Dastardly may lay a trap from a shuffled deck, the neutral racers draw.
    """
    s = r.turn.state
    seat = s.active
    players = s.players
    need = traps.refill_size(s, seat) - len(s.hands[seat])
    next_turn = s.turn_in_round + 1
    round_over = next_turn >= players
    following = s.first_seat if round_over else (s.first_seat + next_turn) % players
    if need > 0:
        draw_cards(r, seat, need)
    if s.glued[seat] and s.options.short_turn_hands:
        traps.unglue(r, seat)  # (otherwise the glue holds the seat's next turn)
    dastardly.move(r)
    rnd = s.round
    if round_over:
        if neutrals.move_this_round(s):
            arrive_all(r, neutrals.move(r))
            if not r.racing:
                return
            if s.options.dastardly_after_neutrals:
                dastardly.move(r)
        rnd += 1
        if rnd >= MAX_ROUNDS:
            r.emit(TurnStarted(seat=following, round=rnd))  # ends the race
            return
    r.emit(TurnStarted(seat=following, round=rnd))
    turn_start_refill(r, following)


# Folding --------------------------------------------------------------------------------------
def on_step_played(state: WackyState, e: StepPlayed) -> WackyState:
    """Fold: the cards go from the hand to the discard pile (the last on top); the racer steps."""
    seat, to, cards = e.seat, e.to, e.cards
    clock = state.clock
    pos = list(state.pos)
    pos[seat] = to
    stamp = list(state.stamp)
    stamp[seat] = clock
    hands = list(state.hands)
    hand = hands[seat]
    discard = list(state.discard)
    if len(cards) == 1:  # every step but the Swamp's: one card out of a sorted hand
        card = cards[0]
        i = hand.index(card)
        hands[seat] = hand[:i] + hand[i + 1 :]
        discard[card] += 1
    else:
        rest = list(hand)
        for card in cards:
            rest.remove(card)
            discard[card] += 1
        hands[seat] = tuple(rest)
    state = replace(
        state,
        hands=tuple(hands),
        discard=tuple(discard),
        top=cards[-1],
        steps=state.steps + 1,
        wild=False,
        pos=tuple(pos),
        stamp=tuple(stamp),
        clock=clock + 1,
    )
    return finish(state, seat) if to == FINISH else state


def on_racer_moved(state: WackyState, e: RacerMoved) -> WackyState:
    """Fold: a racer stands on its new position, arrived after every other there."""
    car = e.car
    pos, stamp = list(state.pos), list(state.stamp)
    pos[car], stamp[car] = e.to, state.clock
    state = replace(state, pos=tuple(pos), stamp=tuple(stamp), clock=state.clock + 1)
    return finish(state, car) if e.to == FINISH else state


def on_turn_ended(state: WackyState, e: TurnEnded) -> WackyState:
    """Fold: the turn is over; the cards drawn with it (if any) join the hand, kept sorted."""
    drawn = e.drawn
    if not drawn:
        return replace(state, phase="after_turn")
    return replace(
        state,
        phase="after_turn",
        draw=state.draw[: len(state.draw) - len(drawn)],
        hands=set_at(state.hands, e.seat, tuple(sorted(state.hands[e.seat] + drawn))),
    )


def on_turn_started(state: WackyState, e: TurnStarted) -> WackyState:
    """Fold: the seat's turn begins with no step taken (past the last round, the race ends).

    A seat the Glue Trap caught is held this turn (two steps at most), and let go.
    """
    seat = e.seat
    held = state.glued[seat] and not state.options.short_turn_hands
    return replace(
        state,
        phase="turn" if e.round < MAX_ROUNDS else "race_end",
        active=seat,
        round=e.round,
        turn_in_round=(seat - state.first_seat) % state.players,
        steps=0,
        wild=False,
        held=held,
        glued=set_at(state.glued, seat, False) if held else state.glued,
    )
