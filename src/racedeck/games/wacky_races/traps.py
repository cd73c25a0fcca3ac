"""Traps (cartas de trampa): entering one stops a racer, unless an advantage cancels it.

Rulebook: "Si un jugador se mueve a una posición que contiene una carta de trampa deberá
detenerse y sufrir los efectos de esta, perdiendo el turno. Las trampas pueden ignorarse
con ciertas ventajas." / "If a player moves to a position that holds a trap card, they must
stop there and suffer its effects, losing the turn. Traps can be ignored with certain
advantages." And for the neutral racers: "Cuando un piloto neutral se come una trampa sufre
los efectos también, como si de un piloto normal se tratase." / "A neutral driver that runs
into a trap suffers its effects as a normal driver would."

Published ruling (trap resolution): with an unexhausted advantage for that kind of trap,
the cancel is mandatory: the advantage is exhausted, the trap has no effect and the turn
goes on. Otherwise the racer stops and suffers it; it is the racer taking its turn, the
turn ends (it still refills its hand). The trap is discarded face up either way. Traps
trigger on entering a position by any movement.

The eight kinds (two copies each; Painted Tunnel and Switcheroo are published, the rest
proposals): Painted Tunnel (loses the turn, nothing more), Switcheroo (swaps places with the
closest racer behind, up to three positions back), Oil Slick and Rockslide (back one or
two positions), Giant Fly-Swatter (exhausts the first face-up advantage), Giant Magnet (a
random card of the hand goes to the last racer, or the discard pile if that is neutral),
Glue Trap (the victim's next turn has two steps with cards at most), Giant Hammer (the
whole hand is discarded). The Glue Trap was first designed to stop the victim's next refill
at two cards, which contradicts "Los jugadores comienzan la partida y cada uno de sus
turnos con tres cartas de movimiento en la mano"; a proposed card may not overrule the
rulebook, so it slows the racer instead ("hasta tres casillas" is a most, not a right).
The option ``short_turn_hands`` keeps the first design (rules version 1). Neutral racers
hold no cards and no advantages: those effects pass them by, and they take no turn for the
Glue Trap to hold.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec.structs import replace

from racedeck.games.wacky_races import data
from racedeck.games.wacky_races.advantages import first_face_up
from racedeck.games.wacky_races.circuit import backward_target, last_car, leader_order, swap
from racedeck.games.wacky_races.data import CANCELS, TRAP_AMOUNTS, TRAP_EFFECTS, TRAP_KEYS
from racedeck.games.wacky_races.events import (
    AdvantageExhausted,
    CardTaken,
    Glued,
    HandDiscarded,
    RacerMoved,
    TrapSprung,
)
from racedeck.games.wacky_races.state import WackyState
from racedeck.games.wacky_races.tuples import add_counts, set_at, without

if TYPE_CHECKING:
    from racedeck.games.wacky_races.resolution import Arrivals, Resolution


def cancel_for(state: WackyState, car: int, trap: int) -> int:
    """Return the unexhausted advantage of ``car`` that cancels ``trap``, or -1."""
    if car >= state.players:
        return -1  # a neutral racer has no advantages
    mask = state.exhausted[car]
    for i, cancels in enumerate(CANCELS[state.racer_of_seat[car]]):
        if cancels == trap and not mask >> i & 1:
            return i
    return -1


def spring(r: Resolution, car: int, p: int) -> bool:
    """Reveal the trap ``car`` entered on ``p``; return True when it stopped the racer.

    A cancel is used at once; otherwise the racer is stopped (its turn ends, a neutral
    racer moves no more this round) and then suffers the trap (``suffer``).
    """
    trap = r.turn.state.traps[p]
    cancel = cancel_for(r.turn.state, car, trap)
    r.emit(TrapSprung(car=car, position=p, trap=trap, advantage=cancel))
    if cancel >= 0:
        return False
    r.stopped.add(car)
    return True


def suffer(r: Resolution, car: int, trap: int, p: int) -> Arrivals:
    """Apply a trap's effect to ``car``, which entered it on ``p``; yield the racer it moved."""
    s = r.turn.state
    effect = TRAP_EFFECTS[trap]
    amount = TRAP_AMOUNTS[trap]
    key = TRAP_KEYS[trap]
    if effect == "switcheroo":
        behind = [c for c in range(len(s.field)) if c != car and p - amount <= s.pos[c] < p]
        if behind:
            yield from swap(r, car, leader_order(s, behind)[0], key)
        return
    if effect == "back":
        q = backward_target(s.pos, p, amount)
        if q != p:
            r.emit(RacerMoved(car=car, to=q, cause=key))
            yield car, False
        return
    if car >= s.players:
        return  # the other traps act on hands and advantages, which neutrals lack
    if effect == "swat":
        first = first_face_up(s.exhausted[car])
        if first >= 0:
            r.emit(AdvantageExhausted(seat=car, advantage=first, cause=key))
    elif effect == "magnet":
        if s.hands[car]:
            r.task("magnet", car, -1, magnet_card)
    elif effect == "glue":
        r.emit(Glued(seat=car))
    elif effect == "hammer" and s.hands[car]:
        r.emit(HandDiscarded(seat=car, cards=s.hands[car], cause=key))


def magnet_card(r: Resolution, seat: int, target: int) -> None:
    """Spring the Giant Magnet: a random card of ``seat``'s hand changes hands.

    It goes to the last racer's hand, or to the discard pile when the last racer is neutral
    (the engine's chance).
    """
    s = r.turn.state
    hand = s.hands[seat]
    if hand:
        card = hand[r.chance().randrange(len(hand))]
        last = last_car(s, [c for c in range(len(s.field)) if c != seat])
        taker = last if last < s.players else -1
        r.emit(CardTaken(source=seat, taker=taker, card=card, cause="giant_magnet"))


def refill_size(state: WackyState, seat: int) -> int:
    """Return how many cards ``seat`` refills to: three, or two after the Glue Trap.

    (Two only under ``short_turn_hands``: otherwise the Glue Trap holds the next turn.)
    """
    return 2 if state.glued[seat] and state.options.short_turn_hands else data.HAND_SIZE


def step_limit(state: WackyState) -> int:
    """Return how many steps with cards the seat to act may take this turn.

    Three ("hasta tres casillas"), or two in a turn the Glue Trap holds.
    """
    return data.MAX_STEPS - 1 if state.held else data.MAX_STEPS


def unglue(r: Resolution, seat: int) -> None:
    """Release the Glue Trap: it holds for one refill only, and ``seat``'s is done."""
    r.emit(Glued(seat=seat, on=False))


# Folding --------------------------------------------------------------------------------------
def on_trap_sprung(state: WackyState, e: TrapSprung) -> WackyState:
    """Fold: the trap is revealed and discarded; a cancelling advantage is exhausted."""
    state = replace(
        state,
        traps=set_at(state.traps, e.position, -1),
        trap_discard=add_counts(state.trap_discard, (e.trap,)),
    )
    if e.advantage >= 0:
        mask = state.exhausted[e.car] | 1 << e.advantage
        state = replace(state, exhausted=set_at(state.exhausted, e.car, mask))
    return state


def on_glued(state: WackyState, e: Glued) -> WackyState:
    """Fold: the Glue Trap takes hold of the seat's next turn (or refill), or lets go."""
    return replace(state, glued=set_at(state.glued, e.seat, e.on))


def on_hand_discarded(state: WackyState, e: HandDiscarded) -> WackyState:
    """Fold: the Giant Hammer: the cards go from the hand to the discard pile (under its top)."""
    return replace(
        state,
        hands=set_at(state.hands, e.seat, without(state.hands[e.seat], e.cards)),
        discard=add_counts(state.discard, e.cards),
    )
