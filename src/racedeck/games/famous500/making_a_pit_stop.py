"""Making a Pit Stop: declared on dotted sections, a draw and a return, repairs.

The rulebook's section "Making a Pit Stop", with "Pit stops are indicated with a dotted
line", "Declaring your intent to stop", "Draw a card then return one under the deck",
"Spend Speed points to repair your car" and "Returning to the race":

    To declare a Pit Stop, simply say "Pit Stop!" and keep your card facedown when it's
    time to reveal.

    Drivers who make a Pit Stop draw a card from the Pit deck. After viewing their hand,
    they return a card to the bottom of the deck. If both drivers declare a Pit Stop, the
    one with the most Speed points draws first.

    For every Speed point you spend, your pit crew repairs 3 Tire points, 2 Fuel points,
    or 1 Engine point.

    The driver who did not make a Pit Stop earns Speed points and subtracts costs, as
    usual. Drivers in the pit earn no Speed points and subtract no costs.

A pit stop is part of the sealed choice on a dotted section (a card laid with the
declaration). At the reveal a pitting driver scores nothing and pays nothing, and a
driver racing alone scores the lone racer's points (2: there is no slower card to beat).
Each pitting driver in turn draws the top card, returns any card of its hand to the
bottom, buys repairs one Speed point at a time and leaves; the swap then closes the
section. Both pitting, tied on Speed points: the faster card on the previous section
draws first, and on the race's first section a coin tossed by the engine decides.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from msgspec.structs import replace

from racedeck.core.rng import Rng
from racedeck.games.famous500 import swapping_cards
from racedeck.games.famous500.actions import (
    Famous500Action,
    LeavePit,
    PitStop,
    Repair,
    ReturnCard,
)
from racedeck.games.famous500.dealing_the_cards import draw_from_pit_deck
from racedeck.games.famous500.events import (
    CardDrawn,
    CardReturned,
    PitLeft,
    Repaired,
    SectionRevealed,
)
from racedeck.games.famous500.hands import pair, remove
from racedeck.games.famous500.state import Car, Famous500State

if TYPE_CHECKING:
    from racedeck.games.famous500.hands import RaceTurn

_NOTHING: tuple[Famous500Action, ...] = ()
_LEAVE_ONLY: tuple[Famous500Action, ...] = (LeavePit(),)
_REPAIR_OR_LEAVE: tuple[Famous500Action, ...] = (
    Repair(column=0),
    Repair(column=1),
    Repair(column=2),
    LeavePit(),
)
_NO_COST = (0, 0, 0)


# Pit stops are indicated with a dotted line; declaring your intent to stop ---------------
def pit_stop_choices(hand: tuple[int, ...]) -> list[PitStop]:
    """Return a pit stop with each card of ``hand`` (offered on dotted sections only)."""
    return [PitStop(card=c) for c in hand]


def why_no_pit_stop(state: Famous500State) -> str:
    """Say why no pit stop may be declared on this section."""
    return (
        f"section {state.section + 1} ({state.setup.names[state.section]}) has no "
        "dotted line: pit stops are only on pit sections"
    )


def coin_needed(state: Famous500State) -> bool:
    """Return True when both drivers pit tied on Speed points with no section before."""
    return (
        state.phase == "reveal"
        and state.pits[0]
        and state.pits[1]
        and state.cars[0][3] == state.cars[1][3]
        and not state.history
    )


def pit_stop_reveal(
    state: Famous500State, rng: Rng
) -> tuple[tuple[int, int], tuple[tuple[int, int, int], ...], tuple[int, ...]]:
    """Return the points, costs and pit order of a reveal where a driver pits.

    Only the tie of ``coin_needed`` draws from ``rng``.
    """
    setup = state.setup
    section = state.section
    c0, c1 = state.laid
    p0, p1 = state.pits
    if p0 and p1:
        s0, s1 = state.cars[0][3], state.cars[1][3]
        if s0 != s1:
            first = 0 if s0 > s1 else 1
        elif state.history:
            previous = state.history[-1].cards
            first = 0 if previous[0] > previous[1] else 1
        else:
            first = rng.randrange(2)
        return (0, 0), (_NO_COST, _NO_COST), (first, 1 - first)
    if p0:
        return (0, setup.lone_racer_points), (_NO_COST, setup.cost(c1, section)), (0,)
    return (setup.lone_racer_points, 0), (setup.cost(c0, section), _NO_COST), (1,)


def into_the_pit(
    state: Famous500State, cars: tuple[Car, ...], event: SectionRevealed
) -> Famous500State:
    """Return the state after a reveal with pit stops: the first pitting driver draws.

    The section's points are kept (they are public) until the swap closes it.
    """
    return replace(
        state,
        cars=cars,
        pit_order=event.pit_order,
        points=event.points,
        phase="pit_draw" if state.pit_deck else "pit_repair",
    )


# Draw a card then return one under the deck -----------------------------------------------
def draw(turn: RaceTurn) -> None:
    """Emit the pitting driver's draw from the top of the pit deck (no choice, no chance)."""
    state = turn.state
    turn.emit(CardDrawn(seat=state.pit_order[0], card=state.pit_deck[0]))


def pit_card_drawn(state: Famous500State, event: CardDrawn) -> Famous500State:
    """Fold the pitting driver's draw; it returns a card next."""
    return draw_from_pit_deck(state, event, "pit_return")


@functools.cache
def _returns(hand: tuple[int, ...]) -> tuple[Famous500Action, ...]:
    return tuple(ReturnCard(card=c) for c in hand)


def return_choices(state: Famous500State, seat: int) -> tuple[Famous500Action, ...]:
    """Return the cards the pitting driver may put under the deck (any card of its hand)."""
    if seat != state.pit_order[0]:
        return _NOTHING
    return _returns(state.hands[seat])


def return_card(turn: RaceTurn, seat: int, action: ReturnCard) -> None:
    """Emit a card returned face down to the bottom of the pit deck."""
    turn.emit(CardReturned(seat=seat, card=action.card))


def card_returned(state: Famous500State, event: CardReturned) -> Famous500State:
    """Fold a returned card; only the driver who put it there knows it. Repairs come next."""
    seat = event.seat
    other = 1 - seat
    return replace(
        state,
        hands=pair(state.hands, seat, remove(state.hands[seat], event.card)),
        pit_deck=(*state.pit_deck, event.card),
        deck_known=(*state.deck_known, 1 << seat),
        # The opponent cannot tell which card went under the deck: what it knew this hand
        # held may now be under the deck instead.
        opponent_known=pair(state.opponent_known, other, ()),
        opponent_maybe=pair(
            state.opponent_maybe,
            other,
            (*state.opponent_maybe[other], *state.opponent_known[other]),
        ),
        phase="pit_repair",
    )


# Spend Speed points to repair your car ----------------------------------------------------
def repair_choices(state: Famous500State, seat: int) -> tuple[Famous500Action, ...]:
    """Return the repairs the pitting driver may buy (while it has a Speed point), or leave."""
    if seat != state.pit_order[0]:
        return _NOTHING
    if state.cars[seat][3] <= 0:
        return _LEAVE_ONLY
    return _REPAIR_OR_LEAVE


def repair(turn: RaceTurn, seat: int, action: Repair) -> None:
    """Emit one Speed point spent on a column, with what the pit crew repairs for it."""
    amount = turn.state.setup.repair[action.column]
    turn.emit(Repaired(seat=seat, column=action.column, amount=amount))


def repaired(state: Famous500State, event: Repaired) -> Famous500State:
    """Fold a repair: the column gains, the Speed column pays one point."""
    seat = event.seat
    t, f, e, s = state.cars[seat]
    column = event.column
    car = (
        t + (event.amount if column == 0 else 0),
        f + (event.amount if column == 1 else 0),
        e + (event.amount if column == 2 else 0),
        s - 1,
    )
    return replace(state, cars=pair(state.cars, event.seat, car))


def why_no_repair(state: Famous500State, action: Repair) -> str:
    """Say why ``action`` cannot be bought now."""
    if state.phase != "pit_repair":
        return "repairs are bought only during a pit stop"
    if not 0 <= action.column <= 2:
        return f"column {action.column} cannot be repaired (0 tires, 1 fuel, 2 engine)"
    return "repairs cost a Speed point and seat has none left"


# Returning to the race --------------------------------------------------------------------
def leave_pit(turn: RaceTurn, seat: int) -> None:
    """Emit the end of a driver's pit stop."""
    turn.emit(PitLeft(seat=seat))


def pit_left(state: Famous500State, event: PitLeft) -> Famous500State:
    """Fold the end of a pit stop: the other pitting driver's turn, else the swap."""
    pit_order = state.pit_order[1:]
    if pit_order:
        phase = "pit_draw" if state.pit_deck else "pit_repair"
        return replace(state, pit_order=pit_order, phase=phase)
    return swapping_cards.close_section(state, state.cars, state.points)
