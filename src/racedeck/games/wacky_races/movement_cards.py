"""The movement cards (cartas de Movimiento): the draw pile, the discard pile and the hands.

Rulebook: "Los jugadores comienzan la partida y cada uno de sus turnos con tres cartas de
movimiento en la mano. Estas cartas son las necesarias para poder mover a los pilotos a
través del circuito." / "Players begin the game, and each of their turns, with three
movement cards in hand. These cards are what moves the drivers along the circuit." The box
holds "64 cartas de Movimiento" / "64 movement cards".

A card is its terrain's index (0-3). The draw pile is drawn from its end; the discard pile
is kept as a count per terrain, with its top card apart (Dick Dastardly follows it). When
the draw pile runs out, the discard pile but its top card is shuffled into a new one (a
gap decision): the shuffle is the engine's chance, and its order goes into the event.

A turn begins with three cards: when a steal or a trap left a seat fewer since its last
refill, it draws up to three as its turn starts (``turn_start_refill``). Rules version 1
had no such refill; the option ``short_turn_hands`` keeps that reading.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec.structs import replace

from racedeck.games.wacky_races.data import HAND_SIZE
from racedeck.games.wacky_races.events import CardsDrawn, CardTaken, DeckReshuffled
from racedeck.games.wacky_races.state import WackyState
from racedeck.games.wacky_races.tuples import add_counts, expand, set_at, without

if TYPE_CHECKING:
    from racedeck.games.wacky_races.resolution import Resolution


def reshuffle_size(state: WackyState) -> int:
    """Return how many cards a reshuffle of the discard pile (but its top) would give."""
    return sum(state.discard) - (1 if state.top >= 0 else 0)


def refill_pile(r: Resolution) -> bool:
    """Turn the discard pile (but its top) into a shuffled draw pile; False if it is empty."""
    s = r.turn.state
    if reshuffle_size(s) <= 0:
        return False
    cards = expand(s.discard)
    if s.top >= 0:
        cards.remove(s.top)
    r.chance().shuffle(cards)
    r.emit(DeckReshuffled(order=tuple(cards)))
    return True


def draw_one(r: Resolution) -> int:
    """Return the draw pile's next card (reshuffling if needed), or -1 for none."""
    if not r.turn.state.draw and not refill_pile(r):
        return -1
    return r.turn.state.draw[-1]


def draw_cards(r: Resolution, seat: int, count: int) -> None:
    """Let ``seat`` draw ``count`` cards, reshuffling when the pile runs out (if it can)."""
    while count > 0:
        draw = r.turn.state.draw
        if not draw:
            if not refill_pile(r):
                return
            continue
        k = min(count, len(draw))
        r.emit(CardsDrawn(seat=seat, cards=draw[len(draw) - k :]))
        count -= k


def turn_start_need(state: WackyState, seat: int) -> int:
    """Return how many cards ``seat`` draws as its turn starts: up to three in hand."""
    if state.options.short_turn_hands:
        return 0
    return max(0, HAND_SIZE - len(state.hands[seat]))


def turn_start_refill(r: Resolution, seat: int) -> None:
    """Let ``seat``, whose turn starts, draw up to three cards (a steal or a trap left fewer)."""
    need = turn_start_need(r.turn.state, seat)
    if need > 0:
        draw_cards(r, seat, need)


# Folding --------------------------------------------------------------------------------------
def on_cards_drawn(state: WackyState, e: CardsDrawn) -> WackyState:
    """Fold: the cards leave the end of the draw pile for the seat's hand, kept sorted."""
    return replace(
        state,
        draw=state.draw[: len(state.draw) - len(e.cards)],
        hands=set_at(state.hands, e.seat, tuple(sorted(state.hands[e.seat] + e.cards))),
    )


def on_deck_reshuffled(state: WackyState, e: DeckReshuffled) -> WackyState:
    """Fold: the shuffled cards are the draw pile; only the top card stays on the discard pile."""
    kept = tuple(1 if t == state.top else 0 for t in range(len(state.discard)))
    return replace(state, draw=e.order, discard=kept)


def on_card_taken(state: WackyState, e: CardTaken) -> WackyState:
    """Fold: a card leaves a hand for another hand (kept sorted), or for the discard pile."""
    hands = list(state.hands)
    hands[e.source] = without(hands[e.source], (e.card,))
    discard = state.discard
    if e.taker >= 0:
        hands[e.taker] = tuple(sorted((*hands[e.taker], e.card)))
    else:
        discard = add_counts(discard, (e.card,))
    return replace(state, hands=tuple(hands), discard=discard)
