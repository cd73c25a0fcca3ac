"""Optional Rules, one test each; each test quotes the rulebook line it pins."""

from __future__ import annotations

from racedeck.games.detroit_cleveland import data, optional_rules
from racedeck.games.detroit_cleveland.actions import Decline, Move, Pass, Play
from racedeck.games.detroit_cleveland.events import (
    CarBought,
    RaceStarted,
)
from racedeck.games.detroit_cleveland.options import track_of
from tests.games.detroit_cleveland.support import (
    GAME,
    SPREAD,
    K,
    O,
    R,
    act,
    auction_to_race,
    deal,
    engine,
    options,
    race_state,
    sell,
)

OPTS = options()
TRACK = track_of(OPTS)


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
    state = auction_to_race(3, (0, 0, 0, 1, 2, 0), no_car_limit=True)
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


def test_a_player_without_a_car_may_stop_under_the_option() -> None:
    """Gap decision: a player owning no car counts as having all his cars finished."""
    opts = options(may_stop_when_finished=True)
    state = race_state(opts, SPREAD, {0: (38,), 1: (5,)}, owner={"blue": 1})
    assert optional_rules.may_decline(state, 0)
    assert not optional_rules.may_decline(state, 1)
    assert not optional_rules.may_decline(race_state(OPTS, SPREAD, {0: (38,)}), 0)
