"""Between Laps: the trailing driver discards a card and draws from the pit deck.

The rulebook's section "Between Laps", with "Trailing driver discards and draws" and
"Starting the next lap":

    Between laps, the driver with the fewest Speed points must discard a card, removing
    it from the game. He then draws a new card from the top of the Pit deck. If tied, the
    driver who played the slowest card on the previous section must discard.

    Armed with new knowledge of the available cards, the trailing driver advances both
    pennies to mark the start of the new lap.

The discard is face up ("removing it from the game" names no face-down discard, and a
face-up discard keeps the count of cards in play public). The draw from the top of the
pit deck follows by itself.

How long a race can be follows from this section: the pit deck starts with three cards
(the nine less three dealt to each driver), every lap after the first takes one from it
for good (the discard is "removing it from the game", so discards never go back into the
deck), and a pit stop draws one and returns one. So the fourth lap's start takes the
last card, and a fifth would find the deck empty while "He then draws a new card" is a
must: ``MAX_LAPS`` is 4, and a longer race is refused when the options are read (gap
decision; the published game races three laps). Rules version 1 offered 1 to 20 laps,
where from the fifth lap the trailing driver drew nothing and a hand ran dry; logs
written under it still replay under it (``rules.Famous500RulesV1``).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from msgspec.structs import replace

from racedeck.games.famous500.actions import Discard, Famous500Action
from racedeck.games.famous500.data import CARDS_IN_GAME, HAND_SIZE
from racedeck.games.famous500.dealing_the_cards import draw_from_pit_deck
from racedeck.games.famous500.events import CardDiscarded, CardDrawn
from racedeck.games.famous500.hands import pair, remove
from racedeck.games.famous500.state import Car, Famous500State

if TYPE_CHECKING:
    from racedeck.games.famous500.hands import RaceTurn

_NOTHING: tuple[Famous500Action, ...] = ()

PIT_DECK_SIZE = CARDS_IN_GAME - 2 * HAND_SIZE
"""Cards in the pit deck after the deal: three."""
MAX_LAPS = PIT_DECK_SIZE + 1
"""The longest race the pit deck supports: one between-laps draw per lap after the first."""


def trailing_driver(cars: tuple[Car, ...], laid: tuple[int, ...]) -> int:
    """Return the driver with fewer Speed points; tied, the one of the slower last card."""
    s0, s1 = cars[0][3], cars[1][3]
    if s0 != s1:
        return 0 if s0 < s1 else 1
    c0, c1 = laid
    return 0 if c0 < c1 else 1


@functools.cache
def _discards(hand: tuple[int, ...]) -> tuple[Famous500Action, ...]:
    return tuple(Discard(card=c) for c in hand)


def discard_choices(state: Famous500State, seat: int) -> tuple[Famous500Action, ...]:
    """Return the cards the trailing driver may discard (nothing for the other driver)."""
    if seat != state.trailing:
        return _NOTHING
    return _discards(state.hands[seat])


def discard(turn: RaceTurn, seat: int, action: Discard) -> None:
    """Emit the trailing driver's discard, out of the game."""
    turn.emit(CardDiscarded(seat=seat, card=action.card))


def card_discarded(state: Famous500State, event: CardDiscarded) -> Famous500State:
    """Fold a discard: the card leaves the game; next the draw, or the new lap."""
    seat = event.seat
    other = 1 - seat
    known = pair(state.opponent_known, other, remove(state.opponent_known[other], event.card))
    maybe = pair(state.opponent_maybe, other, remove(state.opponent_maybe[other], event.card))
    state = replace(
        state,
        hands=pair(state.hands, seat, remove(state.hands[seat], event.card)),
        discards=(*state.discards, (seat, event.card)),
        opponent_known=known,
        opponent_maybe=maybe,
        phase="lap_draw",
    )
    return state if state.pit_deck else start_next_lap(state)


def draw(turn: RaceTurn) -> None:
    """Emit the trailing driver's draw from the top of the pit deck (no choice, no chance)."""
    state = turn.state
    turn.emit(CardDrawn(seat=state.trailing, card=state.pit_deck[0]))


def lap_card_drawn(state: Famous500State, event: CardDrawn) -> Famous500State:
    """Fold the trailing driver's draw; the new lap starts."""
    return start_next_lap(draw_from_pit_deck(state, event, "choose"))


def start_next_lap(state: Famous500State) -> Famous500State:
    """Return ``state`` with both pennies on the first section of the next lap."""
    return replace(state, lap=state.lap + 1, section=0, trailing=-1, phase="choose")
