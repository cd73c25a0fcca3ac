"""A seat's first event names its action, so checking a log resolves only that action."""

from __future__ import annotations

from typing import Any

import pytest

from racedeck.core.model import Event
from racedeck.core.step import NO_CHANCE, choose, resolve
from racedeck.games.detroit_cleveland.actions import Bid, Decline, Move, Pass, Play
from racedeck.games.detroit_cleveland.events import CardPlayed, CarOffered, HandRevealed
from tests.games.detroit_cleveland.support import GAME, options, random_states

OPTION_SETS: tuple[dict[str, Any], ...] = (
    {"races": 1},
    {"races": 1, "white_own_car": True, "ten_counts_in_deck": True},
    {"races": 1, "no_car_required": True, "may_stop_when_finished": True},
)


@pytest.mark.parametrize("raw", OPTION_SETS)
def test_each_action_is_named_by_its_first_event_and_no_other_is(raw: dict[str, Any]) -> None:
    named: set[type] = set()
    for players, seed in ((2, 1), (4, 2), (6, 3)):
        for state in random_states(raw, players, seed):
            seat = GAME.next_step(state).seats[0]
            legal = GAME.legal_actions(state, seat)
            for action in legal:
                first = resolve(GAME, state, seat, action, NO_CHANCE).events[0]
                answer = GAME.action_of(state, seat, first)
                assert answer is not None, (action, first)
                assert choose(legal, answer) is action, (action, first, answer)
                named.add(type(answer))
    assert named >= {Move, Play, Bid, Pass}


def test_a_decline_is_named_by_its_event() -> None:
    for state in random_states(dict(OPTION_SETS[2]), 2, 4):
        seat = GAME.next_step(state).seats[0]
        legal = GAME.legal_actions(state, seat)
        if Decline() in legal:
            first = resolve(GAME, state, seat, Decline(), NO_CHANCE).events[0]
            assert choose(legal, GAME.action_of(state, seat, first)) == Decline()
            return
    pytest.fail("no match offered a decline")


@pytest.mark.parametrize(
    "event",
    [
        CarOffered(car=2),
        HandRevealed(seat=0, cards=(1, 2)),
        CardPlayed(seat=0, card=-1),
        CardPlayed(seat=0, card=10_000),
    ],
)
def test_an_event_no_action_begins_with_names_nothing(event: Event) -> None:
    state = GAME.initial_state(options(), 2)
    assert GAME.action_of(state, 0, event) is None  # type: ignore[arg-type]  # any event
