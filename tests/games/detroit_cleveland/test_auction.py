"""Bidding for Cars (the auction), rule by rule: each test quotes the rulebook sentence it pins."""

from __future__ import annotations

import random

import pytest

from racedeck.core.errors import IllegalActionError
from racedeck.core.model import ENGINE
from racedeck.core.rng import engine_stream
from racedeck.core.runner import run_match
from racedeck.core.step import NO_CHANCE, apply, resolve
from racedeck.games.detroit_cleveland import data
from racedeck.games.detroit_cleveland.actions import Bid, Pass
from racedeck.games.detroit_cleveland.events import (
    CarBought,
    CarOffered,
    CarRefused,
    CarUnowned,
    RaceDealt,
    RaceStarted,
)
from racedeck.games.detroit_cleveland.options import track_of
from racedeck.plugins import load_registry
from tests.games.detroit_cleveland.support import (
    GAME,
    B,
    G,
    K,
    O,
    R,
    Y,
    act,
    deal,
    engine,
    options,
    sell,
)

OPTS = options()
TRACK = track_of(OPTS)


def bid(state, seat, amount):
    return act(state, seat, Bid(amount=amount))


def pass_(state, seat):
    return act(state, seat, Pass())


def test_every_race_begins_with_an_auction() -> None:
    """Before each race begins, players must purchase race cars for that race by bidding on
    them."""
    registry = load_registry(entry_points=False)
    spec = registry.bot("random", GAME.name)
    outcome = run_match(GAME, options(races=2), [spec] * 2, 6)
    assert len(outcome.state.owners) == 2
    state = GAME.initial_state(options(races=2), 2)
    phases = []
    rng = random.Random(0)
    events = 0
    while not GAME.next_step(state).over:
        step = GAME.next_step(state)
        if step.engine:
            turn = resolve(GAME, state, ENGINE, None, engine_stream(6, events))
        else:
            legal = GAME.legal_actions(state, step.seats[0])
            turn = resolve(GAME, state, step.seats[0], legal[rng.randrange(len(legal))], NO_CHANCE)
        for event in turn.events:
            state = GAME.evolve(state, event)
            events += 1
            if not phases or phases[-1] != state.phase:
                phases.append(state.phase)
            if isinstance(event, RaceDealt):
                assert state.owner == (-1,) * 6
        assert state == turn.state
    assert phases == ["auction", "race", "deal", "auction", "race", "over"]


def test_players_bid_after_seeing_their_hands() -> None:
    """Players examine the cards in their hands and then decide which cars to bid on."""
    state = engine(GAME.initial_state(OPTS, 3), 2)
    assert state.phase == "auction"
    observation = GAME.observe(state, state.bidder)
    assert len(observation.hand) == 13
    assert observation.hands[(state.bidder + 1) % 3] is None


def test_the_dealer_turns_over_the_first_car_and_begins() -> None:
    """To begin the bidding process, the dealer turns over the top card in the bidding deck,
    revealing the first race car to be auctioned. The dealer begins the auction by bidding
    or passing."""
    state = deal(OPTS, 4, bidding=(K, Y, B, G, R, O), dealer=2)
    assert state.offer == K
    assert state.bidder == 2
    assert GAME.next_step(state).seats == (2,)
    observation = GAME.observe(state, 0)
    assert observation.offer == K
    assert observation.cars_left == 5


def test_bids_go_up_in_10000_steps_clockwise() -> None:
    """All bids are made in increments of $10,000 and bidding proceeds clockwise around the
    table."""
    state = deal(OPTS, 3)
    legal = GAME.legal_actions(state, 0)
    assert legal[0] == Pass()
    assert [a.amount for a in legal[1:]] == list(range(10_000, 200_001, 10_000))
    with pytest.raises(IllegalActionError, match="increments of \\$10,000"):
        apply(GAME, state, 0, Bid(amount=15_000))
    state, _ = bid(state, 0, 20_000)
    assert state.bidder == 1
    assert [a.amount for a in GAME.legal_actions(state, 1)[1:3]] == [30_000, 40_000]
    with pytest.raises(IllegalActionError, match="top the current bid"):
        apply(GAME, state, 1, Bid(amount=20_000))
    state, _ = bid(state, 1, 30_000)
    assert state.bidder == 2
    state, _ = pass_(state, 2)
    assert state.bidder == 0


def test_a_player_may_not_bid_more_than_he_has() -> None:
    """A player may not bid more for a car than he has."""
    state = deal(OPTS, 3, money=(30_000, 200_000, 0))
    assert [a.amount for a in GAME.legal_actions(state, 0)[1:]] == [10_000, 20_000, 30_000]
    with pytest.raises(IllegalActionError, match="more than he has"):
        apply(GAME, state, 0, Bid(amount=40_000))
    state, _ = pass_(state, 0)
    state, _ = pass_(state, 1)
    assert GAME.legal_actions(state, 2) == (Pass(),)


def test_a_pass_is_final_for_that_car() -> None:
    """A player who has passed instead of bidding on a car may not re-enter the bidding on
    that car for this race."""
    state = deal(OPTS, 3)
    state, _ = bid(state, 0, 10_000)
    state, _ = pass_(state, 1)
    state, _ = bid(state, 2, 20_000)
    assert state.bidder == 0
    with pytest.raises(IllegalActionError):
        apply(GAME, state, 1, Bid(amount=30_000))
    state, _ = bid(state, 0, 30_000)
    assert state.bidder == 2, "seat 1 passed on this car and is skipped"
    assert GAME.observe(state, 1).passed == (False, True, False)


def test_the_last_bidder_buys_when_all_others_have_passed() -> None:
    """When all but one player has passed, the bidding ends and the player who bid last
    (and, thus, bid the most) buys the car."""
    state = deal(OPTS, 3)
    state, _ = bid(state, 0, 10_000)
    state, _ = bid(state, 1, 50_000)
    state, _ = pass_(state, 2)
    state, events = pass_(state, 0)
    assert events[1] == CarBought(seat=1, car=Y, price=50_000, position=1)
    assert state.owner[Y] == 1


def test_the_buyer_pays_places_the_car_and_takes_its_cards() -> None:
    """pays the bank the amount of the last bid; places the car on the printed starting
    position on the track (first car drawn gets #1, the second gets #2 and so on); takes
    the bidding card and places it face-up in front of him to indicate ownership of the car;
    takes the matching 10 count card for that car and adds it to his hand."""
    state = deal(OPTS, 3, bidding=(G, Y, B, K, R, O))
    hand = state.hands[2]
    state = sell(state, 2, 70_000)
    assert state.money == (200_000, 200_000, 130_000)
    assert state.positions[G] == TRACK.start[0]
    assert GAME.observe(state, 0).owner[G] == 2
    assert data.TEN_COUNT[G] in state.hands[2]
    assert len(state.hands[2]) == len(hand) + 1
    state = sell(state, 0, 10_000)
    assert state.positions[Y] == TRACK.start[1]
    assert state.start_order == (G, Y)


def test_bidding_on_the_next_car_begins_left_of_the_last_buyer() -> None:
    """Bidding on the next car begins with the player to the left of the last player to
    buy a car."""
    state = deal(OPTS, 4)
    state = sell(state, 2)
    assert state.offer == B
    assert state.bidder == 3
    state = sell(state, 3)
    assert state.bidder == 0


def test_no_more_than_two_cars_with_three_to_five_players() -> None:
    """In a 3, 4 or 5 player game, a player cannot own more than two cars. Once a player has
    purchased the maximum number of cars he is allowed, he cannot bid on any other cars."""
    state = deal(OPTS, 3)
    state = sell(state, 0)
    state = sell(state, 0)
    assert state.owner[:2] == (0, 0)
    assert state.offer == G
    assert state.bidder == 1
    state, _ = pass_(state, 1)
    assert state.bidder == 2, "seat 0 owns two cars and is out of the bidding"
    with pytest.raises(IllegalActionError):
        apply(GAME, state, 0, Bid(amount=10_000))


def test_three_cars_at_most_with_two_players() -> None:
    """In a 2 player game, each player may own a maximum of three cars."""
    state = deal(OPTS, 2)
    for _ in range(3):
        state = sell(state, 1)
    assert state.owner[:3] == (1, 1, 1)
    assert state.bidder == 0
    state, events = bid(state, 0, 10_000)
    assert isinstance(events[1], CarBought), "seat 1 may not bid on a fourth car"


def test_one_car_each_with_six_players() -> None:
    """In a 6 player game, each player must own one car."""
    state = deal(OPTS, 6)
    for buyer in (0, 1, 2, 3, 4):
        state = sell(state, buyer)
        assert state.owner.count(buyer) == 1
    assert state.owner[O] == 5
    assert state.phase == "race"
    assert sorted(state.owner) == [0, 1, 2, 3, 4, 5]


def test_the_last_carless_player_must_buy_the_last_car_for_10000() -> None:
    """If one player is still without a car when the last car comes up for sale, that
    player must buy the car for $10,000."""
    state = deal(OPTS, 3)
    for buyer in (0, 0, 1, 1):
        state = sell(state, buyer, 40_000)
    # Seats 0 and 1 own two cars each; seat 2 lets red and orange go round twice.
    assert (state.offer, state.bidder) == (R, 2)
    state, events = pass_(state, 2)
    assert events[1:] == [CarRefused(car=R), CarOffered(car=O)]
    state, _ = pass_(state, 2)
    state, events = pass_(state, 2)
    assert events[1] == CarUnowned(car=R, position=5)
    # Orange is now the last car and seat 2 still has none: no auction, a forced sale.
    assert events[2] == CarOffered(car=O, again=True)
    assert events[3] == CarBought(seat=2, car=O, price=10_000, position=6, forced=True)
    assert data.FORCED_PRICE == 10_000
    assert state.money[2] == 190_000
    assert state.phase == "race"


def test_each_player_must_buy_at_least_one_car() -> None:
    """Each player must buy at least one car."""
    state = deal(OPTS, 4)
    state = sell(state, 0)
    state = sell(state, 0)
    state = sell(state, 1)
    state = sell(state, 1)
    # Two cars left and two players without one: only they may bid.
    assert state.offer == R
    assert state.bidder == 2
    with pytest.raises(IllegalActionError):
        apply(GAME, state, 0, Bid(amount=10_000))
    # Seat 2 passes: seat 3 is the only one left who may take red, and must.
    state, events = pass_(state, 2)
    bought = [e for e in events if isinstance(e, CarBought)]
    assert bought[0] == CarBought(seat=3, car=R, price=10_000, position=5, forced=True)
    assert bought[1] == CarBought(seat=2, car=O, price=10_000, position=6, forced=True)
    assert all(state.owner.count(seat) >= 1 for seat in range(4))


def test_an_unwanted_car_goes_to_the_bottom_of_the_bidding_deck() -> None:
    """If no one wants to bid on a car, its bid card is placed at the bottom of the bidding
    deck to be offered at the end of the auction."""
    state = deal(OPTS, 2)
    state, _ = pass_(state, 0)
    state, events = pass_(state, 1)
    assert events[1:] == [CarRefused(car=Y), CarOffered(car=B)]
    assert state.bid_deck == (G, K, R, O, Y)
    assert GAME.observe(state, 0).refused == (Y,)
    assert state.bidder == 0, "nobody bought: the dealer still starts"


def test_a_car_refused_twice_races_unowned_without_its_10_count() -> None:
    """When the car is auctioned again, if no one bids on it, it is placed on the track in
    the normal fashion and is moved around the track as usual. The matching 10 count card is
    placed aside and it is out of play for that race."""
    state = deal(OPTS, 2)
    state, _ = pass_(state, 0)
    state, _ = pass_(state, 1)
    for buyer in (0, 0, 1, 1):
        state = sell(state, buyer)
    assert state.offer == O
    state = sell(state, 0)
    # Yellow comes up again from the bottom; seat 0 owns three cars, seat 1 passes again.
    assert state.offer == Y
    assert GAME.observe(state, 1).refused == (Y,)
    assert state.bidder == 1
    state, events = pass_(state, 1)
    assert events[1] == CarUnowned(car=Y, position=6)
    assert isinstance(events[2], RaceStarted)
    assert state.owner[Y] == -1
    assert state.positions[Y] == TRACK.start[5]
    assert all(data.TEN_COUNT[Y] not in hand for hand in state.hands)


def test_the_auction_continues_until_all_six_cars_are_placed() -> None:
    """The auction continues until all six cars have been placed on the track."""
    state = deal(OPTS, 3)
    for buyer in (0, 1, 2, 0, 1):
        state = sell(state, buyer)
        assert state.phase == "auction"
    state = sell(state, 2)
    assert state.phase == "race"
    assert all(position >= 0 for position in state.positions)


def test_start_positions_follow_the_order_drawn() -> None:
    """The cars are auctioned before each race in the order they are drawn from the bidding
    deck."""
    order = (O, K, Y, R, G, B)
    state = deal(OPTS, 3, bidding=order)
    for buyer in (0, 1, 2, 0, 1, 2):
        state = sell(state, buyer)
    assert state.start_order == order
    assert tuple(state.positions[car] for car in order) == TRACK.start
