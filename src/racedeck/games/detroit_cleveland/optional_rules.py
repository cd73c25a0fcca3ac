"""Optional Rules: five variants, each an option that is off by default.

"Players may select from the following to change the way the game plays."

- "All 10 count cards (including white) are shuffled into deck." (``ten_counts_in_deck``:
  ``race_preparation.race_deck``; buyers then take no 10 count card, ``auction.car_bought``.)
- "No maximum to the number of cars a player may own." (``no_car_limit``:
  ``auction.car_limit``.)
- "Players do not have to own a car." (``no_car_required``: ``auction.must_sell``.)
- "The white may be used for moving the player's own car, even if full movement is not
  possible." (``white_own_car``: ``movement_cards.CardPlay``.)
- "A player may choose to not play cards once all of his cars have finished the race."
  (``may_stop_when_finished``: here, the ``Decline`` action.)

Gap decision: under the last rule a player owning no car counts as having all his cars
finished.
"""

from __future__ import annotations

from msgspec.structs import replace

from racedeck.games.detroit_cleveland.actions import Decline
from racedeck.games.detroit_cleveland.events import TurnDeclined
from racedeck.games.detroit_cleveland.state import DetroitClevelandState
from racedeck.games.detroit_cleveland.track import FINISH
from racedeck.games.detroit_cleveland.turn_order import end_turn

State = DetroitClevelandState

DECLINE = Decline()
"""The one decline action, offered after the cards a player may play."""


def may_decline(state: State, seat: int) -> bool:
    """Return True when ``seat`` may play no card this turn: all its cars have finished."""
    if not state.options.may_stop_when_finished:
        return False
    positions = state.positions
    return all(positions[car] == FINISH for car, holder in enumerate(state.owner) if holder == seat)


def turn_declined(state: State, event: TurnDeclined) -> State:
    """Fold ``TurnDeclined``: the turn passes with no card played."""
    return end_turn(replace(state, passes=state.passes + 1))


WHY_NOT_DECLINE = "a player may only decline once all of his cars have finished (optional rule)"
"""Why a ``Decline`` is refused."""
