"""Bidding for Cars: the auction of the six cars before each race.

"To begin the bidding process, the dealer turns over the top card in the bidding deck,
revealing the first race car to be auctioned. The dealer begins the auction by bidding or
passing. All bids are made in increments of $10,000 and bidding proceeds clockwise around
the table."

"When all but one player has passed, the bidding ends and the player who bid last (and,
thus, bid the most) buys the car." "Bidding on the next car begins with the player to the
left of the last player to buy a car. The auction continues until all six cars have been
placed on the track."

The car on offer is ``state.offer``; the seat to bid is ``state.bidder``. Turning over
the next card, a sale, the forced purchase and an unwanted car are consequences that
need no decision (``consequence``). "Each player must buy at least one car" is
generalised: when the cars left are no more than the players without one, only those may
bid, and the last of them buys for $10,000.
"""

from __future__ import annotations

import functools

from msgspec.structs import replace

from racedeck.games.detroit_cleveland.actions import Bid, DetroitClevelandAction, Pass
from racedeck.games.detroit_cleveland.data import BID_STEP, CAR_LIMITS, FORCED_PRICE, TEN_COUNT
from racedeck.games.detroit_cleveland.events import (
    BidMade,
    BidPassed,
    CarBought,
    CarOffered,
    CarRefused,
    CarUnowned,
    RaceStarted,
)
from racedeck.games.detroit_cleveland.options import DetroitClevelandOptions, track_of
from racedeck.games.detroit_cleveland.state import AuctionEntry, DetroitClevelandState
from racedeck.games.detroit_cleveland.turn_order import turn_order

State = DetroitClevelandState
AuctionEvent = CarOffered | CarBought | CarRefused | CarUnowned | RaceStarted
PASS = Pass()
"""The pass: one action, offered first at every bid."""


def car_limit(players: int, options: DetroitClevelandOptions) -> int:
    """Return the most cars one player may own: 3 with 2 players, 2 with 3-5, 1 with 6.

    "In a 3, 4 or 5 player game, a player cannot own more than two cars. In a 2 player
    game, each player may own a maximum of three cars. In a 6 player game, each player
    must own one car." Optional rule: "No maximum to the number of cars a player may own."
    """
    return 6 if options.no_car_limit else CAR_LIMITS[players]


def _car_counts(state: State) -> list[int]:
    counts = [0] * state.players
    for seat in state.owner:
        if seat >= 0:
            counts[seat] += 1
    return counts


def _must_sell(state: State, counts: list[int]) -> bool:
    # Optional rule: "Players do not have to own a car."
    if state.options.no_car_required:
        return False
    left = len(state.bid_deck) + (1 if state.offer >= 0 else 0)
    carless = counts.count(0)
    return carless > 0 and left <= carless


def must_sell(state: State) -> bool:
    """Return True when every car left must go to a player still without one.

    "Each player must buy at least one car." "If one player is still without a car when
    the last car comes up for sale, that player must buy the car for $10,000."
    """
    return _must_sell(state, _car_counts(state))


def active_bidders(state: State) -> tuple[int, ...]:
    """Return the seats still in the auction of the car on offer, in seat order.

    A seat is out once it has passed ("A player who has passed instead of bidding on a
    car may not re-enter the bidding on that car for this race."), once it owns as many
    cars as it may ("Once a player has purchased the maximum number of cars he is allowed,
    he cannot bid on any other cars."), and, when every remaining car must go to a player
    without one, once it owns a car.
    """
    left = len(state.bid_deck) + (1 if state.offer >= 0 else 0)
    return _active_with(state, state.passed, left)


def _active_with(state: State, passed: tuple[bool, ...], left: int) -> tuple[int, ...]:
    """Return ``active_bidders`` of ``state`` with these passes and ``left`` cars to sell."""
    options = state.options
    limit = car_limit(state.players, options)
    return _active(state.owner, passed, state.players, limit, not options.no_car_required, left)


@functools.lru_cache(maxsize=1 << 12)
def _active(
    owner: tuple[int, ...],
    passed: tuple[bool, ...],
    players: int,
    limit: int,
    required: bool,
    left: int,
) -> tuple[int, ...]:
    """Return the active bidders: a pure function of what decides it, asked every bid."""
    counts = [0] * players
    for seat in owner:
        if seat >= 0:
            counts[seat] += 1
    carless = counts.count(0)
    # Optional rule: "Players do not have to own a car." (``required`` is False then.)
    forced = required and carless > 0 and left <= carless
    return tuple(
        seat
        for seat, owned in enumerate(counts)
        if not passed[seat] and owned < limit and not (forced and owned)
    )


def _next_active(active: tuple[int, ...], players: int, start: int, inclusive: bool) -> int:
    """Return the first of ``active`` clockwise from ``start`` (or after it), or -1."""
    for k in range(0 if inclusive else 1, players):
        seat = (start + k) % players
        if seat in active:
            return seat
    return -1


@functools.lru_cache(maxsize=2048)
def _bids(first: int, money: int) -> tuple[Pass | Bid, ...]:
    return (PASS, *(Bid(amount=a) for a in range(first, money + 1, BID_STEP)))


def legal_bids(state: State, seat: int) -> tuple[Pass | Bid, ...]:
    """Return Pass, then every bid above the current one up to the seat's money.

    "All bids are made in increments of $10,000" and "A player may not bid more for a
    car than he has."
    """
    return _bids(state.high_bid + BID_STEP, state.money[seat])


def consequence(state: State) -> AuctionEvent | None:
    """Return what happens next in the auction without a decision, or None.

    The next card is turned over (the race starts once all six cars are placed); the car
    is sold when all but its last bidder have passed, or to the last player who must
    buy; an unwanted car goes to the bottom of the deck, and races unowned the second
    time.
    """
    car = state.offer
    if car < 0:
        if not state.bid_deck:
            return RaceStarted(order=turn_order(state))
        top = state.bid_deck[0]
        return CarOffered(car=top, again=top in state.refused)
    active = active_bidders(state)
    position = len(state.start_order) + 1
    if state.high_bidder >= 0:
        if active == (state.high_bidder,):
            seat = state.high_bidder
            return CarBought(seat=seat, car=car, price=state.high_bid, position=position)
        return None
    if not active:
        if car in state.refused:
            return CarUnowned(car=car, position=position)
        return CarRefused(car=car)
    if len(active) == 1 and must_sell(state):
        seat = active[0]
        # Gap decision: a player who must buy but has less than $10,000 pays what he has.
        price = min(FORCED_PRICE, state.money[seat])
        return CarBought(seat=seat, car=car, price=price, position=position, forced=True)
    return None


def car_offered(state: State, event: CarOffered) -> State:
    """Fold ``CarOffered``: the car is up for auction; the first active bidder starts.

    The dealer starts while nobody has bought a car this race; afterwards the player to
    the left of the last buyer.
    """
    passed = (False,) * state.players
    last = state.last_buyer
    starter = state.dealer if last < 0 else (last + 1) % state.players
    # The car leaves the deck and is on offer: as many cars are left to sell as before.
    active = _active_with(state, passed, len(state.bid_deck))
    return replace(
        state,
        offer=event.car,
        bid_deck=state.bid_deck[1:],
        high_bid=0,
        high_bidder=-1,
        passed=passed,
        bidder=_next_active(active, state.players, starter, True),
    )


def bid_made(state: State, event: BidMade) -> State:
    """Fold ``BidMade``: the bid stands, and the next active bidder clockwise is to bid."""
    return replace(
        state,
        high_bid=event.amount,
        high_bidder=event.seat,
        auction=(*state.auction, AuctionEntry(event.car, event.seat, event.amount)),
        bidder=_next_active(active_bidders(state), state.players, event.seat, False),
    )


def bid_passed(state: State, event: BidPassed) -> State:
    """Fold ``BidPassed``: the seat is out of this car's auction; the next one bids."""
    seat = event.seat
    passed = (*state.passed[:seat], True, *state.passed[seat + 1 :])
    left = len(state.bid_deck) + (1 if state.offer >= 0 else 0)
    return replace(
        state,
        passed=passed,
        auction=(*state.auction, AuctionEntry(event.car, seat, 0)),
        bidder=_next_active(_active_with(state, passed, left), state.players, seat, False),
    )


def car_bought(state: State, event: CarBought) -> State:
    """Fold ``CarBought``: the buyer pays, places the car and takes its 10 count card.

    "pays the bank the amount of the last bid; places the car on the printed starting
    position on the track (first car drawn gets #1, the second gets #2 and so on); takes
    the bidding card [...]; takes the matching 10 count card for that car and adds it to
    his hand"
    """
    seat, car = event.seat, event.car
    hands = state.hands
    # Optional rule: with every 10 count card shuffled into the deck, buyers take none.
    if not state.options.ten_counts_in_deck:
        hand = tuple(sorted((*hands[seat], TEN_COUNT[car])))
        hands = (*hands[:seat], hand, *hands[seat + 1 :])
    start = track_of(state.options).start[event.position - 1]
    return replace(
        state,
        owner=(*state.owner[:car], seat, *state.owner[car + 1 :]),
        money=(*state.money[:seat], state.money[seat] - event.price, *state.money[seat + 1 :]),
        positions=(*state.positions[:car], start, *state.positions[car + 1 :]),
        start_order=(*state.start_order, car),
        hands=hands,
        last_buyer=seat,
        offer=-1,
        bidder=-1,
    )


def car_refused(state: State, event: CarRefused) -> State:
    """Fold ``CarRefused``: "its bid card is placed at the bottom of the bidding deck"."""
    return replace(
        state,
        bid_deck=(*state.bid_deck, event.car),
        refused=(*state.refused, event.car),
        offer=-1,
        bidder=-1,
    )


def car_unowned(state: State, event: CarUnowned) -> State:
    """Fold ``CarUnowned``: refused twice, the car races unowned from the next position.

    "it is placed on the track in the normal fashion and is moved around the track as
    usual. The matching 10 count card is placed aside and it is out of play for that race."
    """
    start = track_of(state.options).start[event.position - 1]
    car = event.car
    return replace(
        state,
        positions=(*state.positions[:car], start, *state.positions[car + 1 :]),
        start_order=(*state.start_order, car),
        offer=-1,
        bidder=-1,
    )


def why_illegal(state: State, seat: int, action: DetroitClevelandAction) -> str:
    """Say why ``action`` is not a legal bid of ``seat``, whose turn it is to bid."""
    if not isinstance(action, Bid):
        if isinstance(action, Pass):
            return "a pass is always allowed to the player whose turn it is to bid"
        return "during the auction a player bids or passes"
    if action.amount % BID_STEP:
        return f"all bids are made in increments of ${BID_STEP:,}"
    if action.amount > state.money[seat]:
        return f"a player may not bid more than he has (${state.money[seat]:,})"
    return f"a bid must top the current bid of ${state.high_bid:,}"
