"""The table of contents (``rules.py``): the dispatch of actions and events, and why an action
is refused."""

from __future__ import annotations

import inspect
import random
import re
import typing

import pytest
from msgspec.structs import replace

from racedeck.core.errors import IllegalActionError, UnknownEventError
from racedeck.core.model import ENGINE, Event
from racedeck.core.step import apply
from racedeck.games.wacky_races.actions import ChooseRacer, EndTurn, UseAdvantage
from racedeck.games.wacky_races.events import TurnStarted, WackyEvent
from racedeck.games.wacky_races.rules import WackyRaces
from tests.games.wacky_races.helpers import (
    G,
    make,
)


def test_illegal_actions_name_the_seat_and_the_rule() -> None:
    """Actions out of turn or off the list are refused with the rule."""
    state = make(players=2)
    with pytest.raises(IllegalActionError, match="seat 1"):
        apply(G, state, 1, EndTurn(), random.Random(0))
    with pytest.raises(IllegalActionError, match="exhausted"):
        apply(G, make(players=2, exhausted=(8, 0)), 0, UseAdvantage(advantage=3))
    with pytest.raises(IllegalActionError, match="only when its trap"):
        apply(G, state, 0, UseAdvantage(advantage=0), random.Random(0))
    with pytest.raises(IllegalActionError):
        apply(G, state, ENGINE, None, random.Random(0))


def test_the_reasons_name_the_rule_that_refuses() -> None:
    """``explain_illegal`` keeps the game's messages: queued chance work, another seat's turn."""
    state = make(players=2)
    assert "seat 1's turn" in G.explain_illegal(state, 1, EndTurn())
    pending = replace(state, pending=(("steal", 0, 1),))
    assert "chance work" in G.explain_illegal(pending, 0, EndTurn())
    assert G.legal_actions(pending, 0) == ()
    assert "chosen before the first race" in G.explain_illegal(state, 0, ChooseRacer(racer=1))


def test_folding_an_event_of_no_wacky_races_rule_raises() -> None:
    """``evolve`` is one dispatch over the event union; anything else is an error."""

    class Stray(Event, frozen=True, kw_only=True, tag="stray"):
        """An event of no game."""

    with pytest.raises(UnknownEventError, match="Stray"):
        G.evolve(make(players=2), Stray())  # type: ignore[arg-type]


def test_each_event_kind_has_its_rule() -> None:
    """Every event of the union folds through its section's function, none is left out."""
    union = set(typing.get_args(WackyEvent))
    source = inspect.getsource(WackyRaces.evolve)
    assert {cls.__name__ for cls in union} == set(re.findall(r"case (\w+)\(\):", source))


def test_an_event_of_a_subclass_folds_as_its_kind() -> None:
    """An event of a subclass of a kind folds as that kind: the match's class pattern."""

    class Later(TurnStarted, frozen=True, tag="later_turn_started"):
        """A subclass of a kind of the union."""

    state = make(players=2)
    assert G.evolve(state, Later(seat=1, round=3)) == G.evolve(state, TurnStarted(seat=1, round=3))


def test_the_game_object_keeps_no_state() -> None:
    """A game is a stateless table of rules: a match leaves its attributes as they were."""
    game = WackyRaces()
    before = dict(vars(game))
    state = game.initial_state(game.parse_options({}), 3)
    rng = random.Random(2)
    while not game.next_step(state).over:
        step = game.next_step(state)
        if step.engine:
            state = apply(game, state, ENGINE, None, random.Random(len(state.results))).state
        else:
            legal = game.legal_actions(state, step.seats[0])
            assert type(legal) is tuple
            game.observe(state, step.seats[0])
            state = apply(game, state, step.seats[0], legal[rng.randrange(len(legal))]).state
    assert vars(game) == before
