"""Detroit-Cleveland's state and what one seat may see of it."""

from __future__ import annotations

from typing import Literal

import msgspec

from racedeck.core.model import Observation
from racedeck.games.detroit_cleveland.options import DetroitClevelandOptions
from racedeck.games.detroit_cleveland.track import OFF_TRACK

Phase = Literal["deal", "auction", "race", "over"]

NO_CARS: tuple[int, ...] = (-1,) * 6
OFF: tuple[int, ...] = (OFF_TRACK,) * 6


class Switch(msgspec.Struct, frozen=True, array_like=True):
    """A switch card in force: cars ``a`` and ``b`` swap until turn ``until`` ends."""

    a: int
    b: int
    seat: int
    until: int


class AuctionEntry(msgspec.Struct, frozen=True, array_like=True):
    """One bid (``amount`` > 0) or pass (``amount`` 0) of the race's auction."""

    car: int
    seat: int
    amount: int


class DetroitClevelandState(msgspec.Struct, frozen=True, kw_only=True):
    """The whole truth of a match at one moment.

    Cars are numbered 0-5 (yellow, blue, green, black, red, orange). ``owner[car]`` is a
    seat, or -1 for no owner (not sold yet, or racing unowned). ``positions[car]`` is a
    space index of the track, ``OFF_TRACK`` before the car is placed, ``FINISH`` after it
    crossed the line. In a race, the seat to act is ``order[turn % players]``; ``card`` is
    the movement card being played (-1 between cards) and ``slot`` its next car.
    """

    options: DetroitClevelandOptions
    players: int
    money: tuple[int, ...]
    phase: Phase = "deal"
    race: int = 0
    dealer: int = 0
    hands: tuple[tuple[int, ...], ...] = ()
    owner: tuple[int, ...] = NO_CARS
    positions: tuple[int, ...] = OFF
    start_order: tuple[int, ...] = ()
    """The placed cars in start-position order (#1 first)."""
    bid_deck: tuple[int, ...] = ()
    """The cars still in the bidding deck, top first (hidden from every seat)."""
    refused: tuple[int, ...] = ()
    """Cars nobody bid on once this race, in the order they went to the bottom."""
    offer: int = -1
    high_bid: int = 0
    high_bidder: int = -1
    passed: tuple[bool, ...] = ()
    bidder: int = -1
    last_buyer: int = -1
    auction: tuple[AuctionEntry, ...] = ()
    order: tuple[int, ...] = ()
    turn: int = 0
    passes: int = 0
    """Turns in a row without a card played."""
    card: int = -1
    slot: int = 0
    switches: tuple[Switch, ...] = ()
    played: tuple[int, ...] = ()
    revealed: tuple[int, ...] = ()
    """Seats that showed their hand this race: their hands are public from then on."""
    finished: tuple[int, ...] = ()
    results: tuple[tuple[int, ...], ...] = ()
    """Per finished race, its cars in finishing order."""
    owners: tuple[tuple[int, ...], ...] = ()
    """Per finished race, each car's owner."""


class DetroitClevelandObservation(Observation, frozen=True, tag="detroit_cleveland"):
    """What one seat knows: its own hand and every public fact, no one else's cards.

    ``hand`` is the seat's movement, switch and 10 count cards. ``hands`` has an entry per
    seat: the seat's own hand, and the hands other seats showed this race (reduced by what
    they played since); ``None`` where unknown, sizes in ``hand_sizes``. ``positions`` are
    per car space indexes of the track named by ``track`` (a built-in name or a file path)
    and ``track_hash``; -1 before a car is placed, -2 once it has finished. ``played`` is
    every card played this race, in order. ``auction`` lists this race's bids and passes
    (amount 0) in order. ``cars_left`` counts the bidding cards still face down;
    ``refused`` are the cars known to wait at the bottom of the bidding deck. ``switches``
    are the switch cards in force: the two cars swapped, the seat that played it and the
    turn at whose end it stops. ``card`` is the movement card being played and ``slot`` the
    index of its next car; ``to_act`` is the seat to decide. ``turn`` counts the race's
    turns from 0 (the seat to play is ``order[turn % players]``), ``passes`` the turns in a
    row without a card played, and ``owners`` has, per finished race, each car's owner
    (-1: unowned).
    """

    seat: int
    players: int
    phase: Phase
    race: int
    races: int
    dealer: int
    money: tuple[int, ...]
    owner: tuple[int, ...]
    positions: tuple[int, ...]
    start_order: tuple[int, ...]
    finished: tuple[int, ...]
    hand: tuple[int, ...]
    hands: tuple[tuple[int, ...] | None, ...]
    hand_sizes: tuple[int, ...]
    played: tuple[int, ...]
    offer: int
    high_bid: int
    high_bidder: int
    passed: tuple[bool, ...]
    bidder: int
    auction: tuple[AuctionEntry, ...]
    refused: tuple[int, ...]
    cars_left: int
    order: tuple[int, ...]
    to_act: int
    card: int
    slot: int
    switches: tuple[Switch, ...]
    results: tuple[tuple[int, ...], ...]
    track: str
    track_hash: str
    turn: int = 0
    passes: int = 0
    owners: tuple[tuple[int, ...], ...] = ()
