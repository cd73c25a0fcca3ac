"""One test per rule of the race, the cards and the match; each quotes the rulebook."""

from __future__ import annotations

import random

import pytest

from racedeck.core.errors import IllegalActionError
from racedeck.core.model import ENGINE
from racedeck.core.rng import engine_stream
from racedeck.core.runner import NO_CHANCE, run_match
from racedeck.games.detroit_cleveland import data
from racedeck.games.detroit_cleveland.actions import Bid, Decline, Move, Pass, Play
from racedeck.games.detroit_cleveland.bots import DetroitClevelandHeuristic, colour_movement
from racedeck.games.detroit_cleveland.events import (
    CarBought,
    CarMoved,
    CarSkipped,
    HandRevealed,
    RaceDealt,
    RaceEnded,
    RaceStarted,
)
from racedeck.games.detroit_cleveland.rules import track_of
from racedeck.games.detroit_cleveland.state import Switch
from racedeck.games.detroit_cleveland.track import FINISH
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
    race_state,
    sell,
    space,
)

OPTS = options()
TRACK = track_of(OPTS)
SPREAD = {
    "yellow": "jefferson:1L",
    "blue": "jefferson:1C",
    "green": "jefferson:1R",
    "black": "atwater:1L",
    "red": "atwater:1C",
    "orange": "atwater:1R",
}
"""Six cars with open road ahead of each of them."""
BOXED = {
    "green": "pipe1:1C",
    "black": "pipe1:2C",
    "yellow": "pipe1:3C",
    "orange": "jefferson:1L",
}
"""Green stuck behind black, black behind yellow, on Detroit's first single-lane pipe."""


def play_card(state, seat, card, choose=lambda moves: moves[0]):
    """Play ``card`` and choose each car's destination with ``choose``; return moves made."""
    state, events = act(state, seat, Play(card=card))
    made = [e for e in events if isinstance(e, (CarMoved, CarSkipped))]
    while state.card == card:
        moves = GAME.legal_actions(state, seat)
        state, events = act(state, seat, choose(moves))
        made.extend(e for e in events if isinstance(e, (CarMoved, CarSkipped)))
    return state, made


def by_distance(state, seat):
    """Choose the legal move that lands farthest down the track."""

    def key(move):
        return TRACK.length + 1 if move.to == "finish" else TRACK.distances[TRACK.index[move.to]]

    return lambda moves: max(moves, key=key)


# Setup ---------------------------------------------------------------------------------
def test_each_player_starts_with_200000() -> None:
    """The banker sorts the money by denomination and gives each player $200,000."""
    for players in range(2, 7):
        assert GAME.initial_state(OPTS, players).money == (200_000,) * players


def test_the_dealer_removes_the_bidding_and_10_count_cards() -> None:
    """Choose a player to be the first dealer. The dealer removes from the deck: the six
    bidding cards (the cards featuring one of the six cars - yellow, blue, green, black,
    red, and orange, numbered 50-55) the seven 10 count race car movement cards (one of each
    color plus one white)"""
    state = GAME.initial_state(OPTS, 3)
    assert state.dealer == 0
    dealt = engine(state, 0)
    assert dealt.dealer == 0 and dealt.bidder == 0
    assert [data.CARDS[n].car for n in range(50, 56)] == ["Y", "B", "G", "K", "R", "O"]
    removed = {*data.BIDDING, *data.TEN_COUNT}
    assert len(removed) == 13
    assert not removed & {c for hand in dealt.hands for c in hand}


def test_the_race_uses_movement_and_switch_cards() -> None:
    """During the race, players use two kinds of cards: movement cards and switch cards.
    Movement cards move cars around the track."""
    kinds = {data.CARDS[n].kind for n in data.RACE_DECK}
    assert kinds == {"move", "switch"}
    assert all(n in data.MOVES or n in data.SWITCHES for n in data.RACE_DECK)


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
            new = GAME.decide(state, ENGINE, None, engine_stream(6, events))
        else:
            legal = GAME.legal_actions(state, step.seats[0])
            new = GAME.decide(state, step.seats[0], legal[rng.randrange(len(legal))], NO_CHANCE)
        for event in new:
            state = GAME.evolve(state, event)
            events += 1
            if not phases or phases[-1] != state.phase:
                phases.append(state.phase)
            if isinstance(event, RaceDealt):
                assert state.owner == (-1,) * 6
    assert phases == ["auction", "race", "deal", "auction", "race", "over"]


def test_the_optional_rules_are_options_off_by_default() -> None:
    """Players may select from the following to change the way the game plays. Feel free to
    add variants of your own."""
    defaults = options()
    for name in (
        "ten_counts_in_deck",
        "no_car_limit",
        "no_car_required",
        "white_own_car",
        "may_stop_when_finished",
        "tournament_seating",
    ):
        assert getattr(defaults, name) is False
        assert getattr(options(**{name: True}), name) is True
    assert defaults.races == 3


def test_the_bidding_deck_is_shuffled_face_down() -> None:
    """The six bidding cards are shuffled and placed face down in the middle of the track,
    to be the bidding deck."""
    decks = set()
    for seed in range(20):
        events = GAME.decide(GAME.initial_state(OPTS, 3), ENGINE, None, random.Random(seed))
        dealt = events[0]
        assert isinstance(dealt, RaceDealt)
        assert sorted(dealt.bidding) == list(range(6))
        decks.add(dealt.bidding)
    assert len(decks) > 10
    state = engine(GAME.initial_state(OPTS, 3), 1)
    variant = GAME.hidden_variants(state, 0, random.Random(5))
    assert GAME.observe(variant, 0) == GAME.observe(state, 0)
    assert not hasattr(GAME.observe(state, 0), "bid_deck")


def test_the_10_count_cards_are_held_out_of_the_deal() -> None:
    """Set the six colored 10 count movement cards aside for the moment; they will be given
    to the player buying the matching car for use in the race. The white 10 count movement
    card is removed from play; it is included with the game for use in one of the variants
    described later."""
    state = engine(GAME.initial_state(OPTS, 4), 3)
    dealt = {c for hand in state.hands for c in hand}
    assert dealt == set(data.RACE_DECK)
    assert not dealt & set(data.TEN_COUNT)
    assert data.card_label(data.TEN_COUNT[data.WHITE]) == "#45 W10"


def test_all_cards_are_dealt_some_players_one_more() -> None:
    """Before each race, the remaining movement and switch cards (holding out the bidding
    and 10 count movement cards) are shuffled together and dealt face down to the players.
    Some players may receive one more card than other players, but it is important that all
    these cards be dealt."""
    for players in range(2, 7):
        state = engine(GAME.initial_state(OPTS, players), players)
        sizes = [len(h) for h in state.hands]
        assert sum(sizes) == len(data.RACE_DECK) == 39
        assert max(sizes) - min(sizes) <= 1
        # Dealing starts left of the dealer (seat 0), so the extra cards go there first.
        extra = 39 % players
        assert sizes == [39 // players + (1 if 1 <= s <= extra else 0) for s in range(players)]
    assert [len(h) for h in engine(GAME.initial_state(OPTS, 4), 0).hands] == [9, 10, 10, 10]


def test_players_bid_after_seeing_their_hands() -> None:
    """Players examine the cards in their hands and then decide which cars to bid on."""
    state = engine(GAME.initial_state(OPTS, 3), 2)
    assert state.phase == "auction"
    observation = GAME.observe(state, state.bidder)
    assert len(observation.hand) == 13
    assert observation.hands[(state.bidder + 1) % 3] is None


def test_the_bot_values_a_colour_by_its_movement_counting_white() -> None:
    """A player will likely bid higher for a car for which he holds cards which have a
    greater total movement for that color (counting white, when it could be used for that
    color)."""
    hand = (5, 8)  # B6 Y4 R2 G1 and B6 G4 W2 R1
    totals = colour_movement(hand, ten_to_buyer=False)
    assert totals[B] == 12
    assert totals[Y] == 4 + 1  # white counts half for yellow, which is not on #8
    assert totals[G] == 5  # green is on #8, so its white cannot move green
    bot = DetroitClevelandHeuristic()
    bot.start_match(GAME.name, 0, 3, OPTS)
    full = (*hand, 1, 4, 9, 12, 18, 19, 25, 26, 33, 35, 36)  # 13 cards
    state = deal(OPTS, 3, hands=(full, (7,), (17,)))
    observation = GAME.observe(state, 0)
    totals = colour_movement(full, ten_to_buyer=True)
    strongest = max(range(6), key=totals.__getitem__)
    weakest = min(range(6), key=totals.__getitem__)
    assert bot.worth(observation, strongest) > bot.worth(observation, weakest)


def test_the_winner_of_a_race_deals_and_bids_first_in_the_next() -> None:
    """The winner of the previous race is the dealer and begins the bidding in the next
    race."""
    state = race_state(
        options(races=2),
        {**SPREAD, "red": "finish:6C"},
        {0: (5,), 1: (39,), 2: (38,)},
        players=3,
        owner={"red": 2, "blue": 0, "black": 1},
    )
    state, made = play_card(state, 0, 5)
    assert made[2] == CarMoved(car=R, to="finish", steps=1)
    state, _ = play_card(state, 1, 39)
    state, events = act(state, 2, Play(card=38))
    while not any(isinstance(e, RaceEnded) for e in events):
        state, events = act(state, 2, GAME.legal_actions(state, 2)[0])
    ended = next(e for e in events if isinstance(e, RaceEnded))
    assert ended.places[0] == R
    assert ended.next_dealer == 2
    state = engine(state, 9)
    assert state.dealer == 2
    assert state.bidder == 2


# The cards -------------------------------------------------------------------------------
def test_movement_cards_move_cars_top_to_bottom_the_full_count() -> None:
    """A player playing a movement card moves the cars shown on the card the number of
    spaces indicated. The cars must be moved in the order listed, top to bottom; all cars
    listed must be moved the full number of spaces unless they are blocked by other cars."""
    state = race_state(OPTS, SPREAD, {0: (17,), 1: (39,)})
    state, made = play_card(state, 0, 17)
    assert [(e.car, e.steps) for e in made] == [(K, 6), (G, 4), (O, 2), (Y, 1)]
    # Blocked: black boxed in on the single-lane pipe moves as far as it can, here nowhere.
    boxed = {**SPREAD, "black": "pipe1:1C", "red": "pipe1:2C"}
    state = race_state(OPTS, boxed, {0: (17,), 1: (39,)})
    state, made = play_card(state, 0, 17)
    assert [(e.car, e.steps) for e in made] == [(K, 0), (G, 4), (O, 2), (Y, 1)]


def test_card_17_black_green_orange_yellow() -> None:
    """In another example, Sam plays card #17. He first moves the black car six spaces;
    next he moves the green car four spaces; then he moves the orange car two spaces; and,
    finally, he moves the yellow car one space. The cars must be moved in the order listed
    on the card from top to bottom."""
    assert data.MOVES[17] == ((K, 6), (G, 4), (O, 2), (Y, 1))
    state = race_state(OPTS, SPREAD, {0: (17,), 1: (39,)})
    state, _ = act(state, 0, Play(card=17))
    assert {m.car for m in GAME.legal_actions(state, 0)} == {K}
    with pytest.raises(IllegalActionError, match="not a legal destination"):
        GAME.decide(state, 0, Move(car=G, to="jefferson:5R"), NO_CHANCE)


def test_card_39_moves_black_five_spaces() -> None:
    """For example, Chris plays movement card #39 and moves the black car five spaces
    around the track."""
    assert data.MOVES[39] == ((K, 5),)
    state = race_state(OPTS, SPREAD, {0: (39,), 1: (38,)})
    state, made = play_card(state, 0, 39)
    assert made[0].car == K and made[0].steps == 5
    assert TRACK.distances[state.positions[K]] == TRACK.distances[TRACK.index["atwater:1L"]] + 5


def test_a_blocked_car_stops_where_it_is_blocked() -> None:
    """Each car must be moved the full number of spaces, if possible."""
    at = {**SPREAD, "black": "pipe1:1C", "red": "pipe1:3C"}
    state = race_state(OPTS, at, {0: (39,), 1: (38,)})
    state, made = play_card(state, 0, 39)
    assert made == [CarMoved(car=K, to="pipe1:2C", steps=1)]


def test_cars_move_forward_never_sideways_backwards_or_over_cars() -> None:
    """All cars must move forward one space at a time, either diagonally from lane to lane
    or straight ahead. Cars cannot be moved sideways, backwards or over other cars. Two cars
    may not occupy the same space, nor may a car move through a space occupied by another
    car."""
    for name in ("detroit", "cleveland"):
        track = track_of(options(track=name))
        for space_index, nexts in enumerate(track.successors):
            for nxt in nexts:
                if nxt == FINISH:
                    continue
                assert track.distances[nxt] > track.distances[space_index]
                assert abs(track.lanes[nxt] - track.lanes[space_index]) <= 1
    # A car on the single-lane pipe cannot pass the car in front of it.
    at = {**SPREAD, "black": "narrows:3C", "red": "pipe1:2C"}
    state = race_state(OPTS, at, {0: (39,), 1: (38,)})
    state, made = play_card(state, 0, 39)
    assert made == [CarMoved(car=K, to="pipe1:1C", steps=1)]
    assert len(set(state.positions)) == 6


def test_the_white_car_lets_the_player_choose_the_car() -> None:
    """Several movement cards have a white car on them. The white car allows the player to
    choose which color car to move."""
    state = race_state(OPTS, SPREAD, {0: (34,), 1: (38,)})
    state, _ = act(state, 0, Play(card=34))
    assert {m.car for m in GAME.legal_actions(state, 0)} == set(range(6))


def test_card_34_moves_any_car_a_full_five_spaces() -> None:
    """Playing card #34 would allow Alex to move any car a full five spaces."""
    assert data.MOVES[34] == ((data.WHITE, 5),)
    at = {**SPREAD, "black": "pipe1:1C", "red": "pipe1:3C"}
    state = race_state(OPTS, at, {0: (34,), 1: (38,)})
    state, _ = act(state, 0, Play(card=34))
    moves = GAME.legal_actions(state, 0)
    assert {m.car for m in moves} == {Y, B, G, R, O}, "black can move only one space"
    for move in moves:
        _, events = act(state, 0, move)
        assert events[0].steps == 5


def test_white_must_move_full_count_finish_counts_finished_cars_do_not() -> None:
    """There are, however, restrictions on which cars may be moved as the white car: A car
    must be picked that can move the full number of spaces (including moving beyond the
    finish line, but excluding cars that have completed the race); and"""
    at = {**SPREAD, "green": "finish:5C", "black": "pipe1:1C", "red": "pipe1:3C"}
    state = race_state(OPTS, at, {0: (34,), 1: (38,)}, finished=("orange",))
    state, _ = act(state, 0, Play(card=34))
    moves = GAME.legal_actions(state, 0)
    cars = {m.car for m in moves}
    assert G in cars and Move(car=G, to="finish") in moves
    assert O not in cars, "a car that has completed the race cannot be the white car"
    assert K not in cars, "black cannot move the full five spaces"


def test_the_white_car_is_a_colour_not_elsewhere_on_the_card() -> None:
    """the color chosen may not appear elsewhere on the card."""
    state = race_state(OPTS, SPREAD, {0: (14,), 1: (38,)})
    state, _ = act(state, 0, Play(card=14))
    state, _ = act(state, 0, GAME.legal_actions(state, 0)[0])
    state, _ = act(state, 0, GAME.legal_actions(state, 0)[0])
    assert {m.car for m in GAME.legal_actions(state, 0)} == {R, B, G}


def test_card_14_orange_black_white_yellow() -> None:
    """After playing card #14, shown below, Kyle would move the orange car six spaces; next
    he would move the black car four spaces; then he chooses to move either the red car,
    blue car, or green car two spaces; and, finally, he would move the yellow car one
    space."""
    state = race_state(OPTS, SPREAD, {0: (14,), 1: (38,)})
    state, made = play_card(state, 0, 14)
    assert [(e.car, e.steps) for e in made[:2]] == [(O, 6), (K, 4)]
    assert made[2].car in (R, B, G) and made[2].steps == 2
    assert (made[3].car, made[3].steps) == (Y, 1)


def test_an_unplayable_white_card_makes_the_player_play_another() -> None:
    """When using the white car to move a car, that car must be able to move the full amount.
    If that is not possible with the selected car, another car must be chosen or the player
    must play another card."""
    # Card #14 is O6 K4 W2 Y1: white may be red, blue or green. Red and blue have finished;
    # green is stuck behind black, black behind yellow, and yellow moves only after white.
    state = race_state(OPTS, BOXED, {0: (14, 38), 1: (39,)}, finished=("blue", "red"))
    assert GAME.legal_actions(state, 0) == [Play(card=38)]
    with pytest.raises(IllegalActionError, match="unplayable"):
        GAME.decide(state, 0, Play(card=14), NO_CHANCE)


def test_switch_cards_swap_two_colours() -> None:
    """The switch cards cause the two colors shown on the card to be switched until the end
    of the player's next turn. For example, Peg plays card #47 that switches black and
    yellow. Until the end of Peg's next turn, any time the black car appears on a movement
    card, the yellow car is moved; any time the yellow car appears on a movement card, the
    black car is moved."""
    assert data.SWITCHES[47] == (K, Y)
    state = race_state(OPTS, SPREAD, {0: (47, 39, 17), 1: (38, 7, 5)})
    state, _ = act(state, 0, Play(card=47))
    assert state.switches == (Switch(a=K, b=Y, seat=0, until=2),)
    state, made = play_card(state, 1, 7)  # turn 1: G6 Y4 K2 -> G6 K4 Y2
    assert [(e.car, e.steps) for e in made] == [(G, 6), (K, 4), (Y, 2)]
    state, made = play_card(state, 0, 39)  # turn 2, Peg's next turn: black 5 -> yellow 5
    assert [(e.car, e.steps) for e in made] == [(Y, 5)]
    assert state.switches == ()
    state, made = play_card(state, 1, 5)  # turn 3: the switch is over
    assert [e.car for e in made] == [B, Y, R, G]


def test_a_switch_works_when_only_one_colour_is_on_the_card() -> None:
    """The two colors need not both appear on a movement card for the color switch to take
    effect. For example, card #7 normally moves green six spaces, yellow four spaces, and
    black two spaces. When this switch is in effect, it still moves green six spaces, but
    moves black four spaces and yellow two spaces."""
    assert data.MOVES[7] == ((G, 6), (Y, 4), (K, 2))
    switch = (Switch(a=K, b=Y, seat=1, until=1),)
    state = race_state(OPTS, SPREAD, {0: (38,), 1: (39,)}, switches=switch)
    state, made = play_card(state, 0, 38)
    assert [(e.car, e.steps) for e in made] == [(G, 5)]
    state = race_state(OPTS, SPREAD, {0: (39,), 1: (38,)}, switches=switch)
    state, made = play_card(state, 0, 39)
    assert [(e.car, e.steps) for e in made] == [(Y, 5)]


# Running the race --------------------------------------------------------------------------
def _auction_to_race(players, buyers, **raw):
    state = deal(options(**raw), players)
    for buyer in buyers:
        state = sell(state, buyer)
    return state


def test_the_owner_of_car_1_plays_first_then_clockwise() -> None:
    """The player who owns the car in the #1 position plays the first card. Play then
    continues clockwise around the table until all cars have finished the race or all cards
    have been played, whichever occurs first."""
    state = _auction_to_race(4, (2, 0, 2, 1, 3, 0))
    assert state.phase == "race"
    assert state.order == (2, 3, 0, 1)
    assert GAME.next_step(state).seats == (2,)


def test_a_card_every_turn_even_with_all_ones_cars_finished() -> None:
    """A player must play a card every turn, even after all his cars have crossed the finish
    line."""
    state = race_state(
        OPTS,
        {k: v for k, v in SPREAD.items() if k != "blue"},
        {0: (38, 39), 1: (5,)},
        finished=("blue",),
        owner={"blue": 0},
    )
    legal = GAME.legal_actions(state, 0)
    assert legal == [Play(card=38), Play(card=39)]
    assert Decline() not in legal


def test_a_player_without_a_playable_card_shows_the_hand_and_passes() -> None:
    """If a player feels he has no playable card, he must reveal his cards to evidence that
    fact. If a playable card is found, it must be played; otherwise, play proceeds to the
    left."""
    state = race_state(OPTS, BOXED, {0: (39, 38), 1: (14,)}, finished=("blue", "red"))
    state, events = act(state, 0, Play(card=39))
    assert events[1:] == [
        CarMoved(car=K, to="pipe1:2C", steps=0),
        HandRevealed(seat=1, cards=(14,)),
    ]
    assert GAME.observe(state, 0).hands[1] == (14,)
    assert state.order[state.turn % 2] == 0


def test_cards_are_played_face_up() -> None:
    """Cards are played face-up in a discard pile in the center of the game board."""
    state = race_state(OPTS, SPREAD, {0: (39, 5), 1: (38,)})
    state, _ = play_card(state, 0, 39)
    assert GAME.observe(state, 1).played == (39,)
    assert GAME.observe(state, 1).hands[0] is None
    assert GAME.observe(state, 1).hand_sizes == (1, 1)


def test_the_player_of_the_card_moves_every_car_on_it() -> None:
    """The player playing the card moves each of the cars shown on the card the number of
    spaces indicated. The cars are moved in the order they appear on the card (top to
    bottom). Each car must be moved the full number of spaces, if possible. The owner of a
    car can suggest, but may not dictate how to move his car."""
    state = race_state(OPTS, SPREAD, {0: (17,), 1: (38,)}, owner={"black": 1})
    state, _ = act(state, 0, Play(card=17))
    assert GAME.next_step(state).seats == (0,)
    assert {m.car for m in GAME.legal_actions(state, 0)} == {K}
    assert GAME.legal_actions(state, 1) == []
    with pytest.raises(IllegalActionError):
        GAME.decide(state, 1, GAME.legal_actions(state, 0)[0], NO_CHANCE)


# Winning the race --------------------------------------------------------------------------
def test_finishing_order_fills_the_winners_circle_then_the_places() -> None:
    """The first car to cross the Finish Line is placed in the Winner's Circle. The next car
    to finish is placed on the second place position, and so on."""
    at = {**SPREAD, "blue": "finish:6L", "yellow": "finish:5C", "red": "finish:6R"}
    state = race_state(OPTS, at, {0: (5, 38), 1: (39,)})
    state, _made = play_card(state, 0, 5, lambda moves: moves[0])
    assert state.finished == (B, Y, R)
    assert "finished 1." in GAME.render(state)


def test_the_race_ends_when_all_cars_have_finished() -> None:
    """The race continues until all cars cross the Finish Line or the players have no more
    cards in their hands."""
    at = {"blue": "finish:6L"}
    finished = ("yellow", "green", "black", "red", "orange")
    state = race_state(OPTS, at, {0: (5, 38), 1: (39, 17)}, finished=finished)
    state, events = act(state, 0, Play(card=5))
    assert isinstance(events[-1], RaceEnded)
    assert events[-1].places == (Y, G, K, R, O, B)


def test_unfinished_cars_earn_nothing_when_the_cards_run_out() -> None:
    """If a car does not cross the Finish Line after all players' cards have been played,
    the car does not finish the race and the owner of that car does not collect any prize
    money."""
    state = race_state(
        OPTS,
        {**SPREAD, "green": "finish:6C"},
        {0: (38,), 1: (39,)},
        owner={"green": 0, "black": 1},
    )
    state, _ = play_card(state, 0, 38)
    state, events = act(state, 1, Play(card=39))
    while state.card >= 0:
        state, events = act(state, 1, GAME.legal_actions(state, 1)[0])
    ended = events[-1]
    assert isinstance(ended, RaceEnded)
    assert ended.places == (G,)
    assert ended.prizes == (200_000, 0)


def test_prize_money_for_unowned_cars_stays_in_the_bank() -> None:
    """At the end of each race, the banker pays the owners of the cars the prize money
    earned by each car. Prize money for un-owned cards remains in the bank.

    Prize money by finishing position:
    Position	Prize
    1st (Winner's Circle)	$200,000
    2nd	$150,000
    3rd	$100,000
    4th	$60,000
    5th	$30,000
    6th	$10,000
    """
    assert data.PRIZES == (200_000, 150_000, 100_000, 60_000, 30_000, 10_000)
    assert data.DATA.prizes.source == "seed"
    finished = ("yellow", "blue", "green", "black", "red")
    orange_5 = next(n for n, moves in data.MOVES.items() if moves == ((O, 5),))
    state = race_state(
        OPTS,
        {"orange": "finish:6C"},
        {0: (orange_5,), 1: (39,)},
        finished=finished,
        owner={"yellow": 1, "blue": 0, "green": 0, "red": 1, "orange": 0},
    )
    state, events = act(state, 0, Play(card=orange_5))
    ended = events[-1]
    assert isinstance(ended, RaceEnded)
    assert ended.places == (Y, B, G, K, R, O)
    assert ended.prizes == (150_000 + 100_000 + 10_000, 200_000 + 30_000)
    assert state.money == (200_000 + 260_000, 200_000 + 230_000)


def test_three_races_and_the_richest_player_wins() -> None:
    """The player with the most money after three races is the winner! The game ends when
    three races have been completed. The player with the most money is the winner."""
    registry = load_registry(entry_points=False)
    spec = registry.bot("random", GAME.name)
    outcome = run_match(GAME, OPTS, [spec] * 3, 4)
    assert len(outcome.state.results) == 3
    assert GAME.next_step(outcome.state).over
    result = GAME.result(outcome.state)
    assert result.unit == "dollars"
    assert result.scores == outcome.state.money
    richest = max(result.scores)
    assert all(
        (r == 1) == (s == richest) for r, s in zip(result.ranks, result.scores, strict=False)
    )


def test_winnings_by_place() -> None:
    """As cars cross the finish line, their owners collect their winnings: $200,000 for 1st
    place, $150,000 for 2nd, and so on. Cars that do not finish earn nothing."""
    finished = ("red", "orange", "yellow")
    state = race_state(
        OPTS,
        {"blue": "jefferson:1L", "green": "jefferson:1C", "black": "jefferson:1R"},
        {0: (), 1: ()},
        finished=finished,
        owner={"red": 0, "orange": 1, "yellow": 0, "blue": 1},
    )
    events = GAME.with_consequences(state, [])
    assert events == [RaceEnded(race=0, places=(R, O, Y), prizes=(300_000, 150_000), next_dealer=0)]


# Tournament and optional rules ---------------------------------------------------------------
def test_tournament_seating_follows_the_start_positions() -> None:
    """Once the cars are positioned on the track, the car owners seat themselves in order
    from the left of the pole position. If a player owns more than one car, he uses the car
    with the highest position to determine the seating."""
    state = _auction_to_race(4, (2, 0, 2, 1, 3, 0), tournament_seating=True)
    assert state.order == (2, 0, 1, 3)
    started = _auction_to_race(4, (2, 0, 2, 1, 3, 0))
    assert started.order == (2, 3, 0, 1)


def test_option_all_10_counts_shuffled_into_the_deck() -> None:
    """All 10 count cards (including white) are shuffled into deck."""
    opts = options(ten_counts_in_deck=True)
    state = engine(GAME.initial_state(opts, 3), 1)
    dealt = sorted(c for hand in state.hands for c in hand)
    assert dealt == sorted((*data.RACE_DECK, *data.TEN_COUNT))
    hand = state.hands[state.bidder]
    buyer = state.bidder
    state = sell(state, buyer)
    assert state.hands[buyer] == hand


def test_option_no_maximum_number_of_cars() -> None:
    """No maximum to the number of cars a player may own."""
    state = _auction_to_race(3, (0, 0, 0, 1, 2, 0), no_car_limit=True)
    assert state.owner.count(0) == 4


def test_option_players_do_not_have_to_own_a_car() -> None:
    """Players do not have to own a car."""
    state = deal(options(no_car_required=True), 6)
    for buyer in (0, 1, 2, 3, 4):
        state = sell(state, buyer)
    assert state.bidder == 5
    assert Pass() in GAME.legal_actions(state, 5)
    state, events = act(state, 5, Pass())
    assert not any(isinstance(e, CarBought) for e in events)
    state, events = act(state, 5, Pass())
    assert state.owner[O] == -1
    assert isinstance(events[-1], RaceStarted)


def test_option_white_may_move_own_car_short_of_the_full_count() -> None:
    """The white may be used for moving the player's own car, even if full movement is not
    possible."""
    at = {**SPREAD, "black": "pipe1:1C", "red": "pipe1:3C"}
    state = race_state(OPTS, at, {0: (34,), 1: (38,)}, owner={"black": 0})
    state, _ = act(state, 0, Play(card=34))
    assert K not in {m.car for m in GAME.legal_actions(state, 0)}
    opts = options(white_own_car=True)
    state = race_state(opts, at, {0: (34,), 1: (38,)}, owner={"black": 0, "red": 1})
    state, _ = act(state, 0, Play(card=34))
    assert Move(car=K, to="pipe1:2C") in GAME.legal_actions(state, 0)
    assert R in {m.car for m in GAME.legal_actions(state, 0)}


def test_option_a_player_may_stop_once_his_cars_have_finished() -> None:
    """A player may choose to not play cards once all of his cars have finished the race."""
    opts = options(may_stop_when_finished=True)
    at = {k: v for k, v in SPREAD.items() if k != "blue"}
    state = race_state(opts, at, {0: (38, 39), 1: (5,)}, finished=("blue",), owner={"blue": 0})
    assert GAME.legal_actions(state, 0)[-1] == Decline()
    state, _events = act(state, 0, Decline())
    assert state.hands[0] == (38, 39)
    assert GAME.next_step(state).seats == (1,)
    state = race_state(opts, SPREAD, {0: (38, 39), 1: (5,)}, owner={"blue": 0})
    assert Decline() not in GAME.legal_actions(state, 0)


def test_bids_belong_to_the_auction() -> None:
    state = race_state(OPTS, SPREAD, {0: (39,), 1: (38,)})
    with pytest.raises(IllegalActionError, match="auction"):
        GAME.decide(state, 0, Bid(amount=10_000), NO_CHANCE)
    assert space(OPTS, state, K) == "atwater:1L"


def test_identical_cards_are_offered_once_and_either_may_be_played() -> None:
    white_fives = sorted(n for n, moves in data.MOVES.items() if moves == ((data.WHITE, 5),))
    assert len(white_fives) == 6
    state = race_state(OPTS, SPREAD, {0: (white_fives[0], white_fives[1], 39), 1: (38,)})
    assert GAME.legal_actions(state, 0) == [Play(card=white_fives[0]), Play(card=39)]
    state, _ = act(state, 0, Play(card=white_fives[1]))
    assert state.card == white_fives[1]
    assert state.hands[0] == (white_fives[0], 39)
