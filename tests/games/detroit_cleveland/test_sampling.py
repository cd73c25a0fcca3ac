"""Determinization: deals a seat cannot tell from the truth, read from the bids it saw.

"When all but one player has passed, the bidding ends and the player who bid last (and,
thus, bid the most) buys the car." A bid is public, the hand behind it is not: the search
reads the one for the other (``sampling.read_the_bids``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import islice
from typing import Any

import pytest
from msgspec.structs import replace

from racedeck.core.model import ENGINE
from racedeck.core.rng import engine_stream
from racedeck.core.step import NO_CHANCE, resolve
from racedeck.games.detroit_cleveland import sampling
from racedeck.games.detroit_cleveland.bots import DetroitClevelandHeuristic
from racedeck.games.detroit_cleveland.data import BID_STEP, TEN_COUNT, colour_movement
from racedeck.games.detroit_cleveland.state import AuctionEntry, DetroitClevelandState
from tests.games.detroit_cleveland.support import GAME, options

State = DetroitClevelandState
ONE_RACE = options(races=1)


def _auction(players: int, seed: int) -> Iterator[tuple[State, int, Any]]:
    """Yield (state, seat, observation) at each bid after the first of a heuristic match."""
    bots = []
    for seat in range(players):
        bot = DetroitClevelandHeuristic()
        bot.start_match(GAME.name, seat, players, ONE_RACE)
        bots.append(bot)
    state = GAME.initial_state(ONE_RACE, players)
    events = 0
    while not (step := GAME.next_step(state)).over and state.phase in ("deal", "auction"):
        if step.engine:
            turn = resolve(GAME, state, ENGINE, None, engine_stream(seed, events))
        else:
            seat = step.seats[0]
            seen = GAME.observe(state, seat)
            if state.auction:
                yield state, seat, seen
            legal = GAME.legal_actions(state, seat)
            turn = resolve(
                GAME, state, seat, bots[seat].act(seen, legal, random.Random(0)), NO_CHANCE
            )
        state = turn.state
        events += len(turn.events)


def _misfits(state: State, seat: int) -> int:
    """Return how many bids and passes of the others their hands in ``state`` do not explain."""
    count = 0
    for other in range(state.players):
        if other == seat:
            continue
        tens = {TEN_COUNT[car] for car in range(6) if state.owner[car] == other}
        dealt = [card for card in state.hands[other] if card not in tens]
        totals = tuple(colour_movement(dealt, True))
        count += sampling.bid_reading(state, other).misfit(totals, state.players, True)
    return count


@pytest.mark.parametrize("players", [3, 4, 6])
def test_the_heuristics_bids_are_read_exactly_from_its_own_hand(players: int) -> None:
    """The bot "raises by the minimum while the price stays below that worth": read back."""
    read = 0
    for seed in range(1, 4):
        for state, seat, _ in _auction(players, seed):
            assert _misfits(state, seat) == 0, (seed, state.auction)
            read += sum(
                len(sampling.bid_reading(state, o).bids)
                + len(sampling.bid_reading(state, o).passes)
                for o in range(players)
                if o != seat
            )
    assert read > 100, "the matches had bids and passes to read"


def test_a_pass_says_something_only_when_the_seat_could_pay() -> None:
    """ "A player may not bid more for a car than he has": a pass for want of it is no sign."""
    state, _seat, _ = next(_auction(3, 1))
    car = state.offer
    rich = replace(state, auction=(AuctionEntry(car, 1, 0),))
    assert sampling.bid_reading(rich, 1).passes == ((0, car, BID_STEP),)
    money = (*state.money[:1], BID_STEP - 1, *state.money[2:])
    poor = replace(rich, money=money)
    assert sampling.bid_reading(poor, 1).passes == ()
    bid = replace(state, auction=(AuctionEntry(car, 2, 30_000),))
    assert sampling.bid_reading(bid, 2).bids == ((0, car, 30_000),)


@pytest.mark.parametrize("players", [3, 4, 6])
def test_deals_read_from_the_bids_explain_them_where_random_deals_do_not(players: int) -> None:
    read = uniform = decisions = 0.0
    auctions = (found for seed in range(1, 4) for found in _auction(players, seed))
    for _state, seat, seen in auctions:
        base = sampling.state_from_observation(seen, ONE_RACE)
        rng = random.Random(decisions)
        worlds = list(islice(GAME.sample_states(seen, ONE_RACE, seat, rng), 20))
        read += sum(_misfits(w, seat) == 0 for w in worlds) / len(worlds)
        dealt = [sampling.hidden_variants(base, seat, rng) for _ in range(20)]
        uniform += sum(_misfits(w, seat) == 0 for w in dealt if w is not None) / 20
        decisions += 1
    assert decisions >= 100
    assert read / decisions >= 0.8, "most read deals explain every bid and pass"
    assert uniform / decisions <= 0.25, "most random deals do not"


def test_a_seat_that_bid_on_a_car_is_dealt_what_moves_it() -> None:
    """The deals give a bidder more of its car's movement than a random deal does."""
    read = uniform = truth = 0.0
    counted = 0
    for state, seat, seen in _auction(3, 3):
        base = sampling.state_from_observation(seen, ONE_RACE)
        rng = random.Random(counted)
        worlds = list(islice(GAME.sample_states(seen, ONE_RACE, seat, rng), 20))
        dealt = [sampling.hidden_variants(base, seat, rng) for _ in range(20)]
        for entry in state.auction:
            if entry.seat == seat or not entry.amount:
                continue

            def held(world: State | None, entry: AuctionEntry = entry) -> float:
                assert world is not None
                return colour_movement(world.hands[entry.seat], False)[entry.car]

            read += sum(map(held, worlds)) / len(worlds)
            uniform += sum(map(held, dealt)) / len(dealt)
            truth += held(state)
            counted += 1
    assert counted >= 10
    assert read > uniform, "a bidder's car is moved more by its read hand than a random one"
    assert abs(truth - read) < abs(truth - uniform), "and the read hand is nearer the truth"


@pytest.mark.parametrize("players", [3, 6])
def test_every_deal_read_from_the_bids_gives_back_the_observation(players: int) -> None:
    """Each deal of the stream shows the seat what it saw and deals exactly the unseen cards."""
    for state, seat, seen in islice(_auction(players, 4), 0, None, 3):
        cards = sorted(card for hand in state.hands for card in hand)
        for world in islice(GAME.sample_states(seen, ONE_RACE, seat, random.Random(7)), 5):
            assert GAME.observe(world, seat) == seen
            assert sorted(card for hand in world.hands for card in hand) == cards
            assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
            assert sorted(world.bid_deck) == sorted(state.bid_deck)


def test_the_deals_are_the_same_for_the_same_seed() -> None:
    _state, seat, seen = list(_auction(4, 5))[6]
    first = list(islice(GAME.sample_states(seen, ONE_RACE, seat, random.Random(9)), 10))
    again = list(islice(GAME.sample_states(seen, ONE_RACE, seat, random.Random(9)), 10))
    other = list(islice(GAME.sample_states(seen, ONE_RACE, seat, random.Random(10)), 10))
    assert first == again
    assert first != other
    assert len({w.hands for w in first}) > 1, "the chain moves from one deal to the next"


def test_at_two_players_the_other_hand_is_every_card_unseen() -> None:
    """With one hidden hand there is nothing to read: the deals are the random redeals."""
    for state, seat, seen in islice(_auction(2, 6), 4):
        base = sampling.state_from_observation(seen, ONE_RACE)
        stream = list(islice(GAME.sample_states(seen, ONE_RACE, seat, random.Random(1)), 4))
        rng = random.Random(1)
        assert stream == [sampling.hidden_variants(base, seat, rng) for _ in range(4)]
        assert all(w.hands == state.hands for w in stream)
