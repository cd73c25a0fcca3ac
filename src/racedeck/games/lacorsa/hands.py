"""A car's hand: a sorted tuple of card ids, from which played cards are taken."""

from __future__ import annotations


def removed(hand: tuple[int, ...], cards: tuple[int, ...]) -> tuple[int, ...]:
    """Return ``hand`` without ``cards`` (each taken once), in the same order."""
    if len(cards) == 1:
        at = hand.index(cards[0])
        return hand[:at] + hand[at + 1 :]
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return tuple(rest)
