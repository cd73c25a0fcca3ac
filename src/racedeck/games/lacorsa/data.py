"""LACORSA's deck and tables, loaded from ``data/lacorsa.json``.

A card is an ``int``: ``rank * 8 + suit``, so sorting cards sorts them by rank. Rank
indexes follow the data file: 0-2 are the Extend cards 1, 2 and the Drafting Extend 3,
3-10 the Standard cards 4-11, 11 the Champion 12 and 12 the Redline.
"""

from __future__ import annotations

import functools
from importlib import resources

import msgspec

from racedeck.core.data import Source, Tagged, TaggedList, decode_data
from racedeck.core.errors import DataError


class Suit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One of the six suits; suits have no rank."""

    name: str
    source: Source


class Rank(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One rank of card and what it does."""

    label: str
    value: int
    extend: bool
    drafting: bool
    redline: bool
    source: Source


class LacorsaData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The whole data file."""

    suits: list[Suit]
    ranks: list[Rank]
    redline_bonus: Tagged
    hand_size: Tagged
    points: TaggedList
    championship_races: Tagged
    die_sides: Tagged


def load(raw: bytes, origin: str = "lacorsa.json") -> LacorsaData:
    """Decode and check LACORSA's data, raising ``DataError`` with what is wrong."""
    data = decode_data(raw, LacorsaData, origin)
    if len(data.suits) != 6:
        raise DataError(f"{origin}: expected 6 suits, found {len(data.suits)}")
    if len(data.ranks) != 13:
        raise DataError(f"{origin}: expected 13 ranks, found {len(data.ranks)}")
    if [r.redline for r in data.ranks] != [False] * 12 + [True]:
        raise DataError(f"{origin}: the Redline must be the last rank and the only one")
    if not data.ranks[2].drafting or any(r.drafting for i, r in enumerate(data.ranks) if i != 2):
        raise DataError(f"{origin}: the Drafting Extend must be the third rank and the only one")
    if len(data.points.values) != 6:
        raise DataError(f"{origin}: expected points for 6 places, found {len(data.points.values)}")
    return data


DATA = load(resources.files(__package__).joinpath("data/lacorsa.json").read_bytes())

SUITS: tuple[str, ...] = tuple(s.name for s in DATA.suits)
RANK_LABELS: tuple[str, ...] = tuple(r.label for r in DATA.ranks)
RANK_VALUES: tuple[int, ...] = tuple(r.value for r in DATA.ranks)
REDLINE = 12
"""The Redline's rank index."""
DRAFTING = 2
"""The Drafting Extend's rank index."""
EXTEND_RANKS: frozenset[int] = frozenset(i for i, r in enumerate(DATA.ranks) if r.extend)
REDLINE_BONUS: int = DATA.redline_bonus.value
HAND_SIZE: int = DATA.hand_size.value
POINTS: tuple[int, ...] = tuple(DATA.points.values)
CHAMPIONSHIP_RACES: int = DATA.championship_races.value
DIE_SIDES: int = DATA.die_sides.value


def card(rank: int, suit: int) -> int:
    """Return the card of ``rank`` in ``suit``."""
    return rank * 8 + suit


def suit_of(card_id: int) -> int:
    """Return a card's suit index."""
    return card_id & 7


@functools.cache
def deck(suits: int) -> tuple[int, ...]:
    """Return the deck built from the first ``suits`` suits, sorted."""
    return tuple(sorted(card(rank, suit) for suit in range(suits) for rank in range(13)))


def label(card_id: int) -> str:
    """Return a card's short label, such as ``7`` or ``R``."""
    return RANK_LABELS[card_id >> 3]


@functools.cache
def play_total(cards: tuple[int, ...]) -> int:
    """Return what a play of one card, or a Redline with one card, counts in a challenge."""
    total = 0
    for c in cards:
        r = c >> 3
        total += REDLINE_BONUS if r == REDLINE else RANK_VALUES[r]
    if len(cards) == 1 and cards[0] >> 3 == REDLINE:
        return 0
    return total
