"""Detroit-Cleveland's deck and money tables, from ``data/detroit-cleveland.json``.

Cars are numbered in the rulebook's order, ``0``-``5``: yellow, blue, green, black, red,
orange; ``WHITE`` (6) is the wildcard on movement cards. A card is its rulebook number,
an opaque id; ``MOVES[number]`` lists its (car, count) pairs top to bottom.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from types import MappingProxyType
from typing import Literal

import msgspec

from racedeck.core.data import Source, Tagged, TaggedList
from racedeck.core.errors import DataError

Kind = Literal["move", "switch", "ten", "bid"]

WHITE = 6
"""The white car of a movement card: the player picks which car it moves."""


class Colour(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One car colour: its one-letter code and its name."""

    code: str
    name: str
    source: Source


class CardData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One card as the data file describes it."""

    number: int
    kind: Kind
    group: str
    source: Source
    moves: tuple[tuple[str, int], ...] = ()
    switch: tuple[str, ...] = ()
    car: str = ""
    note: str = ""


class GameData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The whole data file."""

    format: int
    colours: tuple[Colour, ...]
    white: Colour
    cards: tuple[CardData, ...]
    starting_money: Tagged
    bid_step: Tagged
    forced_price: Tagged
    prizes: TaggedList
    races: Tagged
    car_limits: TaggedList


def load(raw: bytes, origin: str = "detroit-cleveland.json") -> GameData:
    """Decode and check the game's data, raising ``DataError`` with what is wrong."""
    try:
        data = msgspec.json.decode(raw, type=GameData)
    except msgspec.DecodeError as exc:
        raise DataError(f"{origin}: {exc}") from None
    if len(data.colours) != 6:
        raise DataError(f"{origin}: expected 6 colours, found {len(data.colours)}")
    codes = [c.code for c in data.colours] + [data.white.code]
    if len(set(codes)) != 7:
        raise DataError(f"{origin}: colour codes must be distinct, got {codes}")
    seen: set[int] = set()
    for card in data.cards:
        where = f"{origin}: card #{card.number}"
        if card.number in seen:
            raise DataError(f"{where} appears twice")
        seen.add(card.number)
        if card.kind in ("move", "ten"):
            if not card.moves:
                raise DataError(f"{where} moves no car")
            colours = [code for code, _ in card.moves]
            if len(set(colours)) != len(colours):
                raise DataError(f"{where} shows a colour twice")
            for code, count in card.moves:
                if code not in codes:
                    raise DataError(f"{where}: unknown colour {code!r}")
                if count < 1:
                    raise DataError(f"{where}: a count must be at least 1, got {count}")
        if card.kind == "switch" and (
            len(card.switch) != 2
            or len(set(card.switch)) != 2
            or any(code not in codes[:6] for code in card.switch)
        ):
            raise DataError(f"{where}: a switch card names two different car colours")
        if card.kind == "bid" and card.car not in codes[:6]:
            raise DataError(f"{where}: a bidding card names one car colour, got {card.car!r}")
    bids = sorted(card.car for card in data.cards if card.kind == "bid")
    if bids != sorted(codes[:6]):
        raise DataError(f"{origin}: expected one bidding card per car, found {bids}")
    tens = sorted(card.moves[0][0] for card in data.cards if card.kind == "ten")
    if tens != sorted(codes):
        raise DataError(f"{origin}: expected one 10 count card per colour and white, found {tens}")
    if len(data.prizes.values) != 6:
        raise DataError(f"{origin}: expected prizes for 6 places, found {len(data.prizes.values)}")
    if len(data.car_limits.values) != 7:
        raise DataError(f"{origin}: car_limits lists a limit for 0 to 6 players")
    return data


DATA = load(resources.files(__package__).joinpath("data/detroit-cleveland.json").read_bytes())

CAR_CODES: tuple[str, ...] = tuple(c.code for c in DATA.colours)
CAR_NAMES: tuple[str, ...] = tuple(c.name for c in DATA.colours)
CODES: tuple[str, ...] = (*CAR_CODES, DATA.white.code)
"""Colour codes indexed by car, with white's code at ``WHITE``."""
NAMES: tuple[str, ...] = (*CAR_NAMES, DATA.white.name)
_INDEX: MappingProxyType[str, int] = MappingProxyType({code: i for i, code in enumerate(CODES)})

CARDS: MappingProxyType[int, CardData] = MappingProxyType(
    {card.number: card for card in DATA.cards}
)
"""Every card of the box by its number."""
MOVES: MappingProxyType[int, tuple[tuple[int, int], ...]] = MappingProxyType(
    {
        card.number: tuple((_INDEX[code], count) for code, count in card.moves)
        for card in DATA.cards
        if card.kind in ("move", "ten")
    }
)
"""Per movement or 10 count card: its (car or ``WHITE``, count) pairs, top to bottom."""
SWITCHES: MappingProxyType[int, tuple[int, int]] = MappingProxyType(
    {
        card.number: (_INDEX[card.switch[0]], _INDEX[card.switch[1]])
        for card in DATA.cards
        if card.kind == "switch"
    }
)
"""Per switch card: the two cars it swaps."""
TEN_COUNT: tuple[int, ...] = tuple(
    next(c.number for c in DATA.cards if c.kind == "ten" and c.moves[0][0] == code)
    for code in CODES
)
"""The 10 count card of each car, and of white at ``WHITE``."""
BIDDING: tuple[int, ...] = tuple(
    next(c.number for c in DATA.cards if c.kind == "bid" and c.car == code) for code in CAR_CODES
)
"""The bidding card of each car."""
RACE_DECK: tuple[int, ...] = tuple(
    sorted(c.number for c in DATA.cards if c.kind in ("move", "switch"))
)
"""The movement and switch cards dealt each race, 10 count cards held out."""
WHITE_CARDS: frozenset[int] = frozenset(
    n for n, moves in MOVES.items() if any(car == WHITE for car, _ in moves)
)
"""The movement cards with the white car on them (white's 10 count card too)."""
STARTING_MONEY: int = DATA.starting_money.value
BID_STEP: int = DATA.bid_step.value
FORCED_PRICE: int = DATA.forced_price.value
PRIZES: tuple[int, ...] = tuple(DATA.prizes.values)
RACES: int = DATA.races.value
CAR_LIMITS: tuple[int, ...] = tuple(DATA.car_limits.values)
"""The most cars one player may own, by player count."""


def card_label(number: int) -> str:
    """Return a card's short text, such as ``#8 B6 G4 W2 R1`` or ``#47 switch K/Y``."""
    if number in SWITCHES:
        a, b = SWITCHES[number]
        return f"#{number} switch {CODES[a]}/{CODES[b]}"
    moves = MOVES.get(number)
    if moves is None:
        return f"#{number}"
    return f"#{number} " + " ".join(f"{CODES[car]}{count}" for car, count in moves)


WHITE_SHARE = 0.5
"""How much of a white count is credited to each colour it could be used for."""


def colour_movement(hand: Sequence[int], ten_to_buyer: bool) -> list[float]:
    """Return the movement the hand holds for each car, white counted at a share.

    ``ten_to_buyer`` adds the 10 a car's buyer is dealt (the ten counts rule); the
    heuristic bids on it, and the game's estimate of a position reads it.
    """
    totals = [10.0 if ten_to_buyer else 0.0] * 6
    for card in hand:
        moves = MOVES.get(card)
        if moves is None:
            continue
        printed = {colour for colour, _ in moves}
        for colour, count in moves:
            if colour == WHITE:
                for car in range(6):
                    if car not in printed:
                        totals[car] += count * WHITE_SHARE
            else:
                totals[colour] += count
    return totals
