"""The choices a LACORSA seat makes, always for one named car, and the tables of them."""

from __future__ import annotations

import functools
from collections.abc import Callable

from racedeck.core.model import Action
from racedeck.games.lacorsa import data
from racedeck.games.lacorsa.data import REDLINE


class Play(Action, frozen=True, tag="play"):
    """Commit a card, or a Redline with one other card, face down (qualifying or challenge)."""

    car: int
    cards: tuple[int, ...]


class Extend(Action, frozen=True, tag="extend"):
    """Move one space forward into the open space ahead with an Extend card."""

    car: int
    card: int


class Discard(Action, frozen=True, tag="discard"):
    """Discard a card, or a Redline with one other card, to end the turn."""

    car: int
    cards: tuple[int, ...]


LacorsaAction = Play | Extend | Discard


MAX_CARS = 6
"""Two cars each at two or three players, one each at four to six: never more than six."""

CARD_IDS = data.card(REDLINE, 7) + 1
"""Card ids run from 0 to the last suit's Redline."""


def _table(make: Callable[[int, int], LacorsaAction]) -> tuple[tuple[LacorsaAction, ...], ...]:
    """Return ``make(car, card)`` for every car and every card id, built once."""
    ids = range(CARD_IDS)
    return tuple(tuple(make(car, c) for c in ids) for car in range(MAX_CARS))


# Every one-card action of every car, built once: legal lists are made of these very
# objects, so a bot's answer is found by identity and no action is built in a match.
PLAY_ONE = _table(lambda car, c: Play(car=car, cards=(c,)))
"""``PLAY_ONE[car][card]``: ``car`` commits ``card`` alone."""
DISCARD_ONE = _table(lambda car, c: Discard(car=car, cards=(c,)))
"""``DISCARD_ONE[car][card]``: ``car`` discards ``card`` alone."""
EXTEND_WITH = _table(lambda car, c: Extend(car=car, card=c))
"""``EXTEND_WITH[car][card]``: ``car`` extends with ``card``."""


@functools.cache
def _with_redline(
    kind: type[Play] | type[Discard], car: int, redline: int
) -> tuple[LacorsaAction, ...]:
    """Return, per card id, the action playing the Redline ``redline`` with that card.

    One row per kind, car and Redline, built on first use: a hand holding the Redline
    offers it with a card of every other rank, and a lookup per card is much cheaper
    than building (or looking up) each action by its four arguments. (The row's entries
    for the Redlines themselves are never offered.)
    """
    return tuple(kind(car=car, cards=(redline, c)) for c in range(CARD_IDS))


def plays(
    car: int,
    hand: tuple[int, ...],
    singles: tuple[tuple[LacorsaAction, ...], ...],
    kind: type[Play] | type[Discard],
) -> tuple[LacorsaAction, ...]:
    """One card of each rank, then the Redline with one card of each other rank.

    Rulebook, "Rank of Cards": the Redline "can be played with any other card to add 2";
    cards of one rank are interchangeable, so one of each is offered. ``singles`` is the
    table of one-card actions of ``kind`` (``PLAY_ONE`` or ``DISCARD_ONE``).
    """
    firsts = []
    last_rank = -1
    for c in hand:
        r = c >> 3
        if r != last_rank:
            firsts.append(c)
            last_rank = r
    row = singles[car]
    if last_rank != REDLINE:
        return tuple([row[c] for c in firsts])
    redline = firsts.pop()
    pairs = _with_redline(kind, car, redline)
    return (*[row[c] for c in firsts], row[redline], *[pairs[c] for c in firsts])
