"""LACORSA's deck, its ranks and the deal."""

from __future__ import annotations

import random

import pytest

from racedeck.core.errors import DataError, OptionError
from racedeck.core.model import ENGINE
from racedeck.core.step import apply
from racedeck.games.lacorsa import data
from racedeck.games.lacorsa.events import RaceDealt
from racedeck.games.lacorsa.options import LacorsaOptions

from .helpers import GAME


def deal(players: int, **options: object) -> RaceDealt:
    opts = GAME.parse_options(dict(options))
    state = GAME.initial_state(opts, players)
    (event,) = apply(GAME, state, ENGINE, None, random.Random(4)).events
    assert isinstance(event, RaceDealt)
    return event


def test_the_deck_has_six_suits_of_thirteen() -> None:
    """• 78 playing cards (6 suits, the deck)

    Suits are used to divide the playing cards into groups of thirteen.
    gears, pedals, pistons, steering wheels, shift gates, cams.
    """
    full = data.deck(6)
    assert len(full) == 78 == len(set(full))
    assert data.SUITS == ("gears", "pedals", "pistons", "steering wheels", "shift gates", "cams")
    for suit in range(6):
        assert sum(1 for c in full if data.suit_of(c) == suit) == 13


@pytest.mark.parametrize(("players", "cars"), [(2, 4), (3, 6), (4, 4), (5, 5), (6, 6)])
def test_one_suit_per_car(players: int, cars: int) -> None:
    """Use one suit of cards for each race car in the game.

    So, combine 4, 5, or 6 suits to create the full deck, depending on the number of cars racing.
    """
    event = deal(players)
    dealt = [c for h in event.hands for c in h]
    assert len(event.hands) == cars
    assert sorted(dealt) == list(data.deck(cars))


def test_shuffle_and_deal_every_card_to_each_car() -> None:
    """Shuffle and deal all the cards in the deck to each racecar face down."""
    event = deal(4)
    assert all(len(h) == 13 for h in event.hands)
    other = apply(
        GAME, GAME.initial_state(LacorsaOptions(), 4), ENGINE, None, random.Random(5)
    ).events
    assert other[0] != event, "a different shuffle deals different hands"


def test_teams_are_dealt_two_hands_that_are_never_mixed() -> None:
    """With a team of racecars, each player is dealt two hands, which cannot be mixed.

    One set of cards for the left hand and one for the right.
    Each driver operates two racecars.
    If a driver is playing with two racecars, the racecars should be the same color.
    """
    state = GAME.initial_state(LacorsaOptions(), 2)
    assert state.owner == (0, 0, 1, 1)
    state = apply(GAME, state, ENGINE, None, random.Random(1)).state
    # Seat 0 decides for its first car, then for its second, each from its own hand.
    first = GAME.legal_actions(state, 0)
    assert {a.car for a in first} == {0}
    assert all(c in state.hands[0] for a in first for c in a.cards)
    state = apply(GAME, state, 0, first[0], random.Random(0)).state
    second = GAME.legal_actions(state, 0)
    assert {a.car for a in second} == {1}
    assert all(c in state.hands[1] for a in second for c in a.cards)


def test_team_cars_are_labelled_left_and_right() -> None:
    """The racecar with the stripe is always on the right.

    Use the Marker cards to help identify the correct stack for each car.
    """
    from racedeck.games.lacorsa.render import car_name

    assert [car_name(c, (0, 0, 1, 1)) for c in range(4)] == ["C0/s0L", "C1/s0R", "C2/s1L", "C3/s1R"]
    assert car_name(2, (0, 1, 2, 3)) == "C2/s2"


def test_player_count_sets_the_championship_type() -> None:
    """The number of players determines the game type.

    Teams' Championship (2-3 players):
    Drivers' Championship (4-6 players):
    Each driver operates one racecar.
    LACORSA supports 2-6 drivers, and you can play as teams or individuals.
    """
    assert GAME.initial_state(LacorsaOptions(), 3).owner == (0, 0, 1, 1, 2, 2)
    assert GAME.initial_state(LacorsaOptions(), 5).owner == (0, 1, 2, 3, 4)
    with pytest.raises(OptionError, match="2 to 6 players"):
        GAME.check_players(LacorsaOptions(), 7)
    with pytest.raises(OptionError):
        GAME.check_players(LacorsaOptions(), 1)


def test_two_player_extra_suit_option() -> None:
    """The 2-player option adds a suit; 13 cards per car are dealt, the rest stay out."""
    event = deal(2, extra_suit=True)
    dealt = [c for h in event.hands for c in h]
    assert len(event.hands) == 4 and len(dealt) == 52
    assert set(dealt) <= set(data.deck(5))
    with pytest.raises(OptionError, match="2-player"):
        GAME.check_players(GAME.parse_options({"extra_suit": True}), 4)


def test_rank_values() -> None:
    """Standard (4-11): face value in a challenge.

    • Champion (12): 12 in a challenge (highest card).
    Can be played with any other card to add 2.
    (12) + (R) = 14.
    """
    for rank in range(3, 11):
        assert data.play_total((data.card(rank, 0),)) == rank + 1
    champion = data.card(11, 0)
    redline = data.card(data.REDLINE, 0)
    assert data.play_total((champion,)) == 12
    assert max(data.play_total((data.card(r, 0),)) for r in range(13)) == 12
    assert data.play_total((redline, champion)) == 14
    assert data.play_total((redline,)) == 0
    assert [data.play_total((data.card(r, 1),)) for r in range(3)] == [1, 2, 3]


def test_suits_have_no_rank() -> None:
    """The suits have no rank."""
    for rank in range(13):
        totals = {data.play_total((data.card(rank, suit),)) for suit in range(6)}
        assert len(totals) == 1


def test_a_malformed_data_file_is_rejected() -> None:
    with pytest.raises(DataError, match="expected 13 ranks"):
        raw = (
            data.resources.files("racedeck.games.lacorsa")
            .joinpath("data/lacorsa.json")
            .read_bytes()
        )
        broken = raw.replace(b'{"label": "R"', b'{"label": "X"', 1)
        import msgspec

        doc = msgspec.json.decode(broken)
        doc["ranks"] = doc["ranks"][:12]
        data.load(msgspec.json.encode(doc), "broken.json")
    with pytest.raises(DataError, match=r"broken\.json"):
        data.load(b'{"suits": 3}', "broken.json")


def test_bad_options_are_named() -> None:
    with pytest.raises(OptionError, match="races"):
        GAME.parse_options({"races": 0})
    with pytest.raises(OptionError, match="board_length"):
        GAME.parse_options({"board_length": 3})
    with pytest.raises(OptionError, match="colour"):
        GAME.parse_options({"colour": "red"})
