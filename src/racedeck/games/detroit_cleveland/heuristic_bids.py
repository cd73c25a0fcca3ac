"""What the Detroit-Cleveland heuristic would pay for a car: the worth of a hand.

A car is worth the prize money its owner can expect, and that grows with the movement the
hand holds for its colour (``data.colour_movement``). The heuristic bids up to that worth
(``bots.DetroitClevelandHeuristic``), and the search's sampler reads the bids back with it
(``sampling.read_the_bids``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from racedeck.games.detroit_cleveland.data import MOVES, PRIZES, RACE_DECK, colour_movement

COLOUR_MOVEMENT = sum(
    count for card in RACE_DECK for colour, count in MOVES.get(card, ()) if colour == 0
)
"""Movement the race deck holds for one colour (every colour holds the same)."""

BID_MARGIN = 0.75
"""The share of a car's estimated worth the bot will pay at most."""
STRENGTH_DOLLARS = 6_000
"""Estimated prize money per space of movement held above the average for a colour."""


@functools.lru_cache(maxsize=4096)
def worths(hand: tuple[int, ...], players: int, ten_to_buyer: bool) -> tuple[int, ...]:
    """Return the most the bot would pay for each car, holding ``hand``.

    A car is worth the mean prize plus ``STRENGTH_DOLLARS`` per point of movement the hand
    holds for it above the average, cut when the colour is not among its three strongest,
    times ``BID_MARGIN``. A hand bids on several cars in a row: worked out once per hand.
    """
    return worths_of(colour_movement(hand, ten_to_buyer), players, ten_to_buyer)


MEAN_PRIZE = sum(PRIZES) / len(PRIZES)
"""The prize a car wins on average."""


def worths_of(totals: Sequence[float], players: int, ten_to_buyer: bool) -> tuple[int, ...]:
    """Return ``worths`` of a hand from the movement it holds per car (``colour_movement``)."""
    average = COLOUR_MOVEMENT / players + (10 if ten_to_buyer else 0)
    third = sorted(totals, reverse=True)[min(2, len(totals) - 1)]
    prices = []
    for car in range(6):
        estimate = MEAN_PRIZE + STRENGTH_DOLLARS * (totals[car] - average)
        if totals[car] < third:
            estimate *= 0.6
        prices.append(int(max(0.0, min(estimate, PRIZES[0])) * BID_MARGIN))
    return tuple(prices)
