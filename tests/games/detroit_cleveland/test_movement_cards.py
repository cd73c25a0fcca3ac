"""The Cards: movement cards and the white car; each test quotes the rulebook sentence it pins."""

from __future__ import annotations

import pytest

from racedeck.core.errors import IllegalActionError
from racedeck.core.step import apply
from racedeck.games.detroit_cleveland import data, movement_cards
from racedeck.games.detroit_cleveland.actions import Move, Play
from racedeck.games.detroit_cleveland.movement import moved, reach
from racedeck.games.detroit_cleveland.movement_cards import CardPlay
from racedeck.games.detroit_cleveland.options import track_of
from tests.games.detroit_cleveland.support import (
    BOXED,
    GAME,
    SPREAD,
    B,
    G,
    K,
    O,
    R,
    Y,
    act,
    options,
    play_card,
    race_state,
    random_states,
)

OPTS = options()
TRACK = track_of(OPTS)


def test_the_race_uses_movement_and_switch_cards() -> None:
    """During the race, players use two kinds of cards: movement cards and switch cards.
    Movement cards move cars around the track."""
    kinds = {data.CARDS[n].kind for n in data.RACE_DECK}
    assert kinds == {"move", "switch"}
    assert all(n in data.MOVES or n in data.SWITCHES for n in data.RACE_DECK)


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
        apply(GAME, state, 0, Move(car=G, to="jefferson:5R"))


def test_card_39_moves_black_five_spaces() -> None:
    """For example, Chris plays movement card #39 and moves the black car five spaces
    around the track."""
    assert data.MOVES[39] == ((K, 5),)
    state = race_state(OPTS, SPREAD, {0: (39,), 1: (38,)})
    state, made = play_card(state, 0, 39)
    assert made[0].car == K and made[0].steps == 5
    assert TRACK.distances[state.positions[K]] == TRACK.distances[TRACK.index["atwater:1L"]] + 5


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
    assert GAME.legal_actions(state, 0) == (Play(card=38),)
    with pytest.raises(IllegalActionError, match="unplayable"):
        apply(GAME, state, 0, Play(card=14))


def _feasible_by_search(play: CardPlay, positions: tuple[int, ...], slot: int) -> bool:
    """The white move's feasibility by trying every destination of every car before it."""
    if slot == play.white_slot:
        return play.white_possible(positions)
    car = play.cars[slot]
    if positions[car] < 0:
        return _feasible_by_search(play, positions, slot + 1)
    dests = reach(play.track.successors, positions, car, play.counts[slot])[0]
    return any(_feasible_by_search(play, moved(positions, car, d), slot + 1) for d in dests)


def test_a_white_card_s_quick_verdict_agrees_with_trying_every_move() -> None:
    """A card whose white move is assured without a search is one the search can play;
    and whatever the shortcut, playable cards and legal moves are those the search finds."""
    verdicts: set[tuple[bool, bool]] = set()
    for raw in ({"races": 1}, {"races": 1, "white_own_car": True, "track": "cleveland"}):
        for state in random_states(raw, 4, 11):
            if state.phase != "race":
                continue
            seat = state.order[state.turn % state.players]
            for card in data.WHITE_CARDS:
                play = movement_cards.card_play(state, card, seat)
                searched = _feasible_by_search(play, state.positions, 0)
                assured = play.white_assured(state.positions, 0)
                assert searched or not assured
                assert play.playable(state.positions) == searched
                verdicts.add((assured, searched))
            if state.card >= 0:
                play = movement_cards.card_play(state, state.card, seat)
                every = play.options(state.positions, state.slot)
                kept = movement_cards.slot_options(play, state.positions, state.slot)
                assert kept == tuple(every)
    assert verdicts == {(True, True), (False, True), (False, False)}, "every case was met"


def test_a_chosen_move_goes_as_far_as_it_was_offered() -> None:
    """The steps a ``car_moved`` reports are those of the destination that was offered."""
    for state in random_states({"races": 1, "track": "cleveland"}, 3, 5):
        if state.phase != "race" or state.card < 0:
            continue
        seat = state.order[state.turn % state.players]
        play = movement_cards.card_play(state, state.card, seat)
        track = track_of(state.options)
        offered = {
            (car, track.space_id(dest)): steps
            for car, dest, steps in play.options(state.positions, state.slot)
        }
        for move in GAME.legal_actions(state, seat):
            assert isinstance(move, Move)
            event = movement_cards.car_moved_by(state, move)
            assert event.steps == offered[move.car, move.to]
