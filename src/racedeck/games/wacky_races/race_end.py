"""The finish (la meta), the race's result and the championship sheet (hoja de Campeonato).

Rulebook: the circuit ends at "la meta" / "the finish"; the box holds "1 hoja de Campeonato"
/ "1 championship sheet". Published: the player whose racer reaches the Finish Line tile
first wins; a championship leaflet adds a multi-race mode.

Decisions and proposals: the finish holds any number of racers. The first racer onto it
ends the race, and every racer's place is recorded: the finishers in order, then the
others by position (further ahead first; on a shared position, the one that arrived
first). A neutral racer first onto the finish wins and ends the race, unless the option
``neutral_finish`` is ``continues`` (it waits there and the race goes on until a player's
racer arrives). The option ``races`` (more than one) is the championship: 6-4-3-2-1-0
points by place each race; the next race starts with the next seat, same racers and
neutral racers; ties go to the better place in the last race. A race still running after
``MAX_ROUNDS`` rounds ends where it stands (a safety net only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec.structs import replace

from racedeck.core.errors import OptionError
from racedeck.core.model import Result
from racedeck.games.wacky_races import data
from racedeck.games.wacky_races.circuit import leader_order
from racedeck.games.wacky_races.events import RaceEnded
from racedeck.games.wacky_races.options import WackyOptions
from racedeck.games.wacky_races.state import WackyState

if TYPE_CHECKING:
    from racedeck.games.wacky_races.resolution import Resolution

MAX_ROUNDS = 200
"""A race still running after this many rounds ends on the spot (a safety net only)."""


def check_options(options: WackyOptions) -> None:
    """Reject a championship of no race, or of more races than a sheet can hold."""
    if not 1 <= options.races <= 100:
        raise OptionError(f"wacky-races: races must be 1 to 100, got {options.races}")


def finish(state: WackyState, car: int) -> WackyState:
    """Return ``state`` with ``car`` arrived at the finish (a fold's last part)."""
    if car in state.finished:
        return state
    ends = car < state.players or state.options.neutral_finish == "ends"
    return replace(
        state, finished=(*state.finished, car), phase="race_end" if ends else state.phase
    )


def race_order(state: WackyState) -> tuple[int, ...]:
    """Return every car from first place to last: finishers in order, then by position."""
    rest = [c for c in range(len(state.field)) if c not in state.finished]
    return (*state.finished, *leader_order(state, rest))


def points(state: WackyState) -> tuple[int, ...]:
    """Return each seat's championship points for the race that just ended."""
    order = race_order(state)
    return tuple(data.POINTS[order.index(seat)] for seat in range(state.players))


def end_race(r: Resolution) -> None:
    """Record the race's places and points."""
    s = r.turn.state
    r.emit(RaceEnded(race=s.race, order=race_order(s), points=points(s)))


def on_race_ended(state: WackyState, e: RaceEnded) -> WackyState:
    """Fold: the race goes on the championship sheet; then the next race, or the end."""
    race = state.race + 1
    return replace(
        state,
        race=race,
        phase="over" if race >= state.options.races else "setup",
        results=(*state.results, e.order),
        fields=(*state.fields, state.field),
        points=tuple(p + q for p, q in zip(state.points, e.points, strict=True)),
    )


def result(state: WackyState) -> Result:
    """Rank seats by their racers' places, or over a championship by points."""
    players = state.players
    if not state.results:
        return Result(ranks=(1,) * players, scores=(0,) * players, unit="places")
    last = state.results[-1]
    places = tuple(last.index(seat) + 1 for seat in range(players))
    summary = tuple(
        f"race {n + 1}: "
        + ", ".join(
            f"{data.RACER_NAMES[field[car]]}{'' if car >= players else f' (seat {car})'}"
            for car in order
        )
        for n, (order, field) in enumerate(zip(state.results, state.fields, strict=True))
    )
    if state.options.races == 1:
        ranks = tuple(1 + sum(1 for other in places if other < mine) for mine in places)
        return Result(ranks=ranks, scores=places, unit="places", summary=summary)
    keys = [(state.points[s], -places[s]) for s in range(players)]
    ranks = tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)
    return Result(ranks=ranks, scores=state.points, unit="championship points", summary=summary)
