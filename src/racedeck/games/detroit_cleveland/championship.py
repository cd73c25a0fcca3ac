"""Winning the Game: three races, and the richest player wins.

"The player with the most money after three races is the winner!" "The game ends when
three races have been completed. The player with the most money is the winner."

The number of races is the ``races`` option (3 by default); the result ranks the seats by
money, ties shared.
"""

from __future__ import annotations

import functools

from racedeck.core.model import Result, ranks_from_scores
from racedeck.games.detroit_cleveland.data import PRIZES, colour_movement
from racedeck.games.detroit_cleveland.options import DetroitClevelandOptions
from racedeck.games.detroit_cleveland.render import describe_race
from racedeck.games.detroit_cleveland.state import DetroitClevelandState, Phase
from racedeck.games.detroit_cleveland.track import Track


def phase_after_race(races_run: int, options: DetroitClevelandOptions) -> Phase:
    """Return what follows once ``races_run`` races are over: the next deal, or the end."""
    return "over" if races_run >= options.races else "deal"


def result(state: DetroitClevelandState) -> Result:
    """Rank seats by money: the richest player wins."""
    scores = state.money
    summary = [
        describe_race(race, places, state.owners[race]) for race, places in enumerate(state.results)
    ]
    summary.append("money: " + ", ".join(f"seat {s} ${m:,}" for s, m in enumerate(scores)))
    return Result(
        ranks=ranks_from_scores(scores), scores=scores, unit="dollars", summary=tuple(summary)
    )


def estimate(state: DetroitClevelandState, track: Track) -> Result:
    """Rank seats by their money with the race's prizes paid in the order the cars may finish.

    A car's prospect is the distance it has covered plus the movement every hand still
    holds for its colour (a white count at a share, as ``colour_movement`` credits it);
    cars that have finished keep their places, and the rest follow by prospect (equal
    prospects in car order), each paying its owner the prize of that place ("Prize money
    by finishing position"). In the auction no car is on the track yet, so the hands alone
    rank them, and only sold cars pay. Races still to come are not guessed at; between
    races the estimate is the money as it stands.
    """
    money = list(state.money)
    if state.phase in ("race", "auction"):
        positions, distances = state.positions, track.distances
        finished = state.finished
        held = [0.0] * len(positions)
        for hand in state.hands:
            for car, count in enumerate(_held(hand)):
                held[car] += count
        prospects = [
            (distances[space] if space >= 0 else 0.0) + held[car]
            for car, space in enumerate(positions)
        ]
        racing = sorted(
            (car for car in range(len(positions)) if car not in finished),
            key=lambda car: -prospects[car],
        )
        owner = state.owner
        for place, car in enumerate((*finished, *racing)[: len(PRIZES)]):
            if owner[car] >= 0:
                money[owner[car]] += PRIZES[place]
    scores = tuple(money)
    return Result(ranks=ranks_from_scores(scores), scores=scores, unit="dollars")


@functools.lru_cache(maxsize=1 << 12)
def _held(hand: tuple[int, ...]) -> tuple[float, ...]:
    """Return the movement ``hand`` holds for each car (a pure function of the hand)."""
    return tuple(colour_movement(hand, False)[:6])
