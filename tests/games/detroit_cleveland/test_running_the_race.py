"""Running the Race: a card every turn, played face up, or the hand shown."""

from __future__ import annotations

import pytest

from racedeck.core.errors import IllegalActionError
from racedeck.core.step import apply
from racedeck.games.detroit_cleveland import data, running_the_race
from racedeck.games.detroit_cleveland.actions import Bid, Decline, Play
from racedeck.games.detroit_cleveland.events import (
    CarMoved,
    HandRevealed,
)
from racedeck.games.detroit_cleveland.options import track_of
from tests.games.detroit_cleveland.support import (
    BOXED,
    GAME,
    SPREAD,
    K,
    act,
    options,
    play_card,
    race_state,
    random_states,
    space,
)

OPTS = options()
TRACK = track_of(OPTS)


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
    assert legal == (Play(card=38), Play(card=39))
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
    assert GAME.legal_actions(state, 1) == ()
    with pytest.raises(IllegalActionError):
        apply(GAME, state, 1, GAME.legal_actions(state, 0)[0])


def test_bids_belong_to_the_auction() -> None:
    state = race_state(OPTS, SPREAD, {0: (39,), 1: (38,)})
    with pytest.raises(IllegalActionError, match="auction"):
        apply(GAME, state, 0, Bid(amount=10_000))
    assert space(OPTS, state, K) == "atwater:1L"


def test_identical_cards_are_offered_once() -> None:
    """Cards that do the same are one choice: the first of them in the hand is offered, and
    naming its twin is refused with the card to play instead (the engine checks every
    action against the offered ones)."""
    white_fives = sorted(n for n, moves in data.MOVES.items() if moves == ((data.WHITE, 5),))
    assert len(white_fives) == 6
    state = race_state(OPTS, SPREAD, {0: (white_fives[0], white_fives[1], 39), 1: (38,)})
    assert GAME.legal_actions(state, 0) == (Play(card=white_fives[0]), Play(card=39))
    with pytest.raises(IllegalActionError, match=f"identical to card #{white_fives[0]}"):
        apply(GAME, state, 0, Play(card=white_fives[1]))
    played, _ = act(state, 0, Play(card=white_fives[0]))
    assert played.card == white_fives[0]
    assert played.hands[0] == (white_fives[1], 39)


def test_a_hand_is_shown_exactly_when_no_card_in_it_is_offered() -> None:
    """The check that makes a seat show its hand agrees with the cards it is offered."""
    seen = set()
    for raw in ({"races": 1}, {"races": 1, "ten_counts_in_deck": True}):
        for state in random_states(raw, 5, 8):
            if state.phase != "race" or state.card >= 0:
                continue
            for seat in range(state.players):
                offered = running_the_race.legal_plays(state, seat)
                playable = any(isinstance(a, Play) for a in offered)
                assert running_the_race.has_playable_card(state, seat) == playable
                seen.add(playable)
    assert True in seen
    # Card #14 (O6 K4 W2 Y1) alone, its white move impossible: nothing to play.
    boxed = race_state(OPTS, BOXED, {0: (14,), 1: (39,)}, finished=("blue", "red"))
    assert not running_the_race.has_playable_card(boxed, 0)
    assert running_the_race.legal_plays(boxed, 0) == ()


def test_cards_that_do_the_same_share_one_entry() -> None:
    same = running_the_race.CONTENT
    white_fives = [n for n, moves in data.MOVES.items() if moves == ((data.WHITE, 5),)]
    assert len({same[n] for n in white_fives}) == 1
    assert len({same[n] for n in data.SWITCHES}) == len(data.SWITCHES)
    assert running_the_race.PLAYS[white_fives[0]] == Play(card=white_fives[0])
    assert running_the_race.PLAYS[data.BIDDING[0]] is None
