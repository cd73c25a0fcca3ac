"""Small helpers every rule module shares: hands as sorted tuples, per-driver pairs.

A hand is a sorted tuple of speeds (a card is its speed, and no two cards share one), so a
hand is hashable and the legal actions of a hand can be cached. Per-driver values are
pairs, seat 0 first.
"""

from __future__ import annotations

import functools
from bisect import bisect_left
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from racedeck.core.step import Turn
    from racedeck.games.famous500.events import Famous500Event
    from racedeck.games.famous500.state import Famous500State

    RaceTurn = Turn[Famous500State, Famous500Event]
    """The turn a Famous 500 rule emits its events into."""

SEATS = (0, 1)
"""Famous 500 is a race of two drivers."""

T = TypeVar("T")


# Cached: a hand (or a record of cards) is a few of the card table's nine speeds, so the
# pairs of a tuple and a card are few, and every section adds and removes cards at each
# step of a search's playouts. A cache hit costs a third of building the tuple again; the
# bound keeps a stream of forged logs from growing it.
@functools.lru_cache(maxsize=1 << 12)
def add(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """Return the sorted ``hand`` with ``card`` in it, still sorted."""
    i = bisect_left(hand, card)
    return (*hand[:i], card, *hand[i:])


@functools.lru_cache(maxsize=1 << 12)
def remove(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """Return ``hand`` without ``card``."""
    return tuple([c for c in hand if c != card])  # a list first: faster than a generator


def pair(values: tuple[T, ...], seat: int, value: T) -> tuple[T, ...]:
    """Return the per-driver pair ``values`` with ``seat``'s entry set to ``value``."""
    return (value, values[1]) if seat == 0 else (values[0], value)
