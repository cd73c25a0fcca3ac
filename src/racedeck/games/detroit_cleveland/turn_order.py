"""Running the Race: who plays, and when a turn ends.

"The player who owns the car in the #1 position plays the first card. Play then continues
clockwise around the table until all cars have finished the race or all cards have been
played, whichever occurs first."

The race's seats in turn order are ``state.order`` (set by ``RaceStarted``); the seat to
play is ``order[turn % players]``. A turn ends when a switch card is played, when the
last car of a movement card has moved, or when a player shows his hand or declines.
"""

from __future__ import annotations

from msgspec.structs import replace

from racedeck.games.detroit_cleveland.events import RaceStarted
from racedeck.games.detroit_cleveland.state import DetroitClevelandState
from racedeck.games.detroit_cleveland.switch_cards import still_in_force
from racedeck.games.detroit_cleveland.tournament_rules import seating

State = DetroitClevelandState


def turn_order(state: State) -> tuple[int, ...]:
    """Return the seats in turn order for the race about to start.

    The owner of car #1 plays first, then play goes clockwise. If car #1 is unowned, the
    owner of the best-placed owned car starts (a gap in the rulebook); with no owned car
    at all, the dealer. Under the tournament rules the owners sit in the order of their
    best-placed cars instead (``tournament_rules``).
    """
    n = state.players
    owner = state.owner
    owners = [owner[car] for car in state.start_order if owner[car] >= 0]
    first = owners[0] if owners else state.dealer
    clockwise = [(first + k) % n for k in range(n)]
    if not state.options.tournament_seating:
        return tuple(clockwise)
    return seating(owners, clockwise)


def race_started(state: State, event: RaceStarted) -> State:
    """Fold ``RaceStarted``: the race begins with the first seat of ``event.order``."""
    return replace(state, phase="race", order=event.order, turn=0, passes=0)


def seat_to_play(state: State) -> int:
    """Return the seat whose turn it is in the race."""
    return state.order[state.turn % state.players]


def to_act(state: State) -> int:
    """Return the seat that must decide now (the bidder, or the seat to play), or -1."""
    if state.phase == "race":
        return state.order[state.turn % state.players]
    if state.phase == "auction":
        return state.bidder
    return -1


def end_turn(state: State) -> State:
    """Close the turn: the next seat is to play; switches whose time is up end."""
    turn = state.turn
    return replace(
        state, turn=turn + 1, card=-1, slot=0, switches=still_in_force(state.switches, turn)
    )
