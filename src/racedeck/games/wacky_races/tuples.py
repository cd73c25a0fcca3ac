"""Small pure helpers on the tuples a Wacky Races state is made of; no rule lives here.

A state holds its piles as tuples: a hand or a deck in order, a discard pile as a count per
kind. These helpers build the changed tuple an event's fold needs.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")
"""The items' type."""


def set_at(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """Return ``values`` with the item at ``index`` replaced by ``value``."""
    out = list(values)  # cheaper than joining slices for the short tuples of a state
    out[index] = value
    return tuple(out)


def add_counts(counts: tuple[int, ...], cards: Iterable[int]) -> tuple[int, ...]:
    """Return a pile kept as counts per kind with ``cards`` added to it."""
    out = list(counts)
    for card in cards:
        out[card] += 1
    return tuple(out)


def without(hand: tuple[int, ...], cards: Iterable[int]) -> tuple[int, ...]:
    """Return ``hand`` with one copy of each of ``cards`` taken out, the rest in order."""
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return tuple(rest)


def expand(counts: tuple[int, ...]) -> list[int]:
    """Return the cards a pile given as counts per kind holds, in kind order."""
    return [kind for kind, n in enumerate(counts) for _ in range(n)]
