"""Winning the Race: the prize money; each test quotes the rulebook sentence it pins."""

from __future__ import annotations

from racedeck.games.detroit_cleveland import data
from racedeck.games.detroit_cleveland.actions import Play
from racedeck.games.detroit_cleveland.events import (
    RaceEnded,
)
from racedeck.games.detroit_cleveland.options import track_of
from racedeck.games.detroit_cleveland.prizes import paid, prizes_won
from tests.games.detroit_cleveland.support import (
    B,
    G,
    K,
    O,
    R,
    Y,
    act,
    consequences,
    options,
    race_state,
)

OPTS = options()
TRACK = track_of(OPTS)


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
    events = consequences(state)
    assert events == [RaceEnded(race=0, places=(R, O, Y), prizes=(300_000, 150_000), next_dealer=0)]


def test_the_banker_pays_each_seat_its_prizes() -> None:
    assert paid((200_000, 50_000), (150_000, 0)) == (350_000, 50_000)
    state = race_state(
        OPTS,
        {"blue": "jefferson:1L"},
        {0: (), 1: ()},
        finished=("red", "orange", "yellow"),
        owner={"red": 1, "yellow": 1},
    )
    assert prizes_won(state) == (0, 200_000 + 100_000)
