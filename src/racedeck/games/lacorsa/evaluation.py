"""LACORSA's evaluation: who is ahead in a race that is not over, for searches.

A search that cuts its playouts short (ISMCTS's ``horizon``) asks this who leads. A race
ends when a car runs out of cards, so a car's prospect is the spaces it has covered plus
what its hand still holds: every Extend card is a space it may gain on open road, and
every card is a turn it may still take. The race is scored as if the cars finished in
the order of their prospects (equal prospects keep the order they race in now), with the
championship's own points and tie-breaks (``scoring.result``).
"""

from __future__ import annotations

from msgspec.structs import replace

from racedeck.core.model import Result
from racedeck.games.lacorsa.data import POINTS
from racedeck.games.lacorsa.scoring import result
from racedeck.games.lacorsa.state import LacorsaState

CARD_WEIGHT = 0.5
"""Spaces a card in hand is worth: one more turn before the race ends.

Calibrated against heuristic playouts (``benchmarks/calibrate_evaluation.py``, 150
positions, horizon 10): pairs ordered alike 0.74 at two players and 0.85 at six with this
weight, 0.75 and 0.84 with spaces alone; counting Extend cards as half a space each did
worse (0.74 and 0.80, and 0.68 and 0.73 at a whole space).
"""

RACING = frozenset({"challenge", "reveal", "move"})
"""The phases in which the cars stand on the track."""


def prospect(state: LacorsaState, car: int) -> float:
    """Return ``car``'s spaces covered plus what the cards in its hand are worth in spaces."""
    return state.spaces[car] + CARD_WEIGHT * len(state.hands[car])


def evaluate(state: LacorsaState) -> Result | None:
    """Return the result the match would have if the race ended in the order of prospects.

    None before the grid stands (qualifying decides it; nothing to judge yet) and after
    the race: the search plays on to where it can judge. Draws nothing.
    """
    if state.phase not in RACING:
        return None
    order = state.order
    place_now = {car: index for index, car in enumerate(order)}  # last place first
    places = tuple(sorted(order, key=lambda car: (-prospect(state, car), -place_now[car])))
    points = list(state.points)
    for place, car in enumerate(places):
        points[car] += POINTS[place]
    projected = replace(state, results=(*state.results, places), points=tuple(points))
    return result(projected)
