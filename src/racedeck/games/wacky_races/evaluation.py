"""Wacky Races' evaluation: who is ahead in a race that is not over, for searches.

A search that cuts its playouts short (ISMCTS's ``horizon``) asks this who leads. The
race is scored as if it ended now, every car placed as the rules place it at the race's
end (finishers in order, then the rest from the leader back: ``race_end.race_order``),
with the championship's own points (``race_end.points``, ``race_end.result``).
"""

from __future__ import annotations

from racedeck.core.model import Result
from racedeck.games.wacky_races import race_end
from racedeck.games.wacky_races.events import RaceEnded
from racedeck.games.wacky_races.state import WackyState

RACING = frozenset({"turn", "after_turn"})
"""The phases in which the racers stand on the track."""


def evaluate(state: WackyState) -> Result | None:
    """Return the result the match would have if the race ended as the racers stand.

    None outside a race's turns (the racers not chosen or not on the grid yet, or the race
    over): the search plays on to where it can judge. Draws nothing.
    """
    if state.phase not in RACING or not state.field:
        return None
    ended = RaceEnded(
        race=state.race, order=race_end.race_order(state), points=race_end.points(state)
    )
    return race_end.result(race_end.on_race_ended(state, ended))
