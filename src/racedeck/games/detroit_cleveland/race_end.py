"""Winning the Race: the finishing order and the end of a race.

"The first car to cross the Finish Line is placed in the Winner's Circle. The next car to
finish is placed on the second place position, and so on. The race continues until all
cars cross the Finish Line or the players have no more cards in their hands."

Gap decision: the race also ends when a whole round of turns passes with no card played
and no switch in force (nobody can play). The prize money is ``prizes``; the next dealer
is the owner of the winning car (Bidding for Cars: "The winner of the previous race is the
dealer and begins the bidding in the next race.").
"""

from __future__ import annotations

from msgspec.structs import replace

from racedeck.games.detroit_cleveland.championship import phase_after_race
from racedeck.games.detroit_cleveland.events import RaceEnded
from racedeck.games.detroit_cleveland.movement import moved
from racedeck.games.detroit_cleveland.prizes import paid, prizes_won
from racedeck.games.detroit_cleveland.state import DetroitClevelandState
from racedeck.games.detroit_cleveland.track import FINISH

State = DetroitClevelandState


def crossed_the_line(state: State, car: int) -> State:
    """Return the state once ``car`` has crossed the line: it takes the next place."""
    return replace(
        state, positions=moved(state.positions, car, FINISH), finished=(*state.finished, car)
    )


def race_over(state: State) -> bool:
    """Return True when the race is over: every car finished, or nobody can play on."""
    return (
        len(state.finished) == 6
        or not any(state.hands)
        or (state.passes >= state.players and not state.switches)
    )


def race_ended(state: State) -> RaceEnded:
    """Return the end of the race: the places, the prizes and the next dealer.

    The owner of the winning car deals next; if no car finished or the winner is
    unowned, the player left of the last dealer (a gap in the rulebook).
    """
    winner = state.owner[state.finished[0]] if state.finished else -1
    dealer = winner if winner >= 0 else (state.dealer + 1) % state.players
    return RaceEnded(
        race=state.race, places=state.finished, prizes=prizes_won(state), next_dealer=dealer
    )


def ended(state: State, event: RaceEnded) -> State:
    """Fold ``RaceEnded``: prizes paid, the race recorded, the next deal (or the end) due."""
    race = state.race + 1
    return replace(
        state,
        phase=phase_after_race(race, state.options),
        race=race,
        dealer=event.next_dealer,
        money=paid(state.money, event.prizes),
        results=(*state.results, event.places),
        owners=(*state.owners, state.owner),
        hands=(),
        card=-1,
        switches=(),
    )
