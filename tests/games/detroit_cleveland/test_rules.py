"""The table of contents: the game wires the sections into the contract and keeps no state."""

from __future__ import annotations

import random

import pytest

from racedeck.core.errors import IllegalActionError, UnknownEventError
from racedeck.core.model import ENGINE, Event
from racedeck.core.rng import engine_stream
from racedeck.core.runner import run_match
from racedeck.core.step import NO_CHANCE, apply, resolve
from racedeck.games.detroit_cleveland.actions import Bid, Pass, Play
from racedeck.games.detroit_cleveland.events import (
    CarOffered,
)
from racedeck.games.detroit_cleveland.rules import DetroitCleveland
from racedeck.plugins import load_registry
from tests.games.detroit_cleveland.support import GAME, SPREAD, deal, options, race_state

OPTS = options()


class _Stray(Event, frozen=True, tag="stray_detroit"):
    """An event of no Detroit-Cleveland rule."""


def test_folding_an_unknown_event_raises() -> None:
    state = GAME.initial_state(OPTS, 3)
    with pytest.raises(UnknownEventError, match="_Stray"):
        GAME.evolve(state, _Stray())  # type: ignore[arg-type]  # not an event of the game, on purpose


def test_an_action_of_another_game_is_named_as_such() -> None:
    state = deal(OPTS, 3)
    assert GAME.explain_illegal(state, 0, "bid") == "str is not a Detroit-Cleveland action"
    with pytest.raises(IllegalActionError, match=r"not a legal action|not a Detroit"):
        apply(GAME, state, 0, _Stray())  # type: ignore[arg-type]  # not an action, on purpose


def test_only_the_seat_to_act_may_act() -> None:
    state = deal(OPTS, 3)
    assert GAME.legal_actions(state, 1) == ()
    assert GAME.explain_illegal(state, 1, Pass()) == (
        "seat 1 is not to act in phase 'auction'; seat 0 is"
    )
    with pytest.raises(IllegalActionError, match="nothing to decide"):
        apply(GAME, state, 1, Pass())
    dealing = GAME.initial_state(OPTS, 3)
    assert "the engine is" in GAME.explain_illegal(dealing, 0, Bid(amount=10_000))
    with pytest.raises(IllegalActionError, match="not the engine's turn"):
        apply(GAME, state, ENGINE, None)


def test_a_seat_action_emits_its_event_then_what_follows_without_a_decision() -> None:
    state = deal(OPTS, 2)
    turn = apply(GAME, state, 0, Pass())
    state, events = turn.state, turn.events
    turn = apply(GAME, state, 1, Pass())
    # The pass, then the car refused (all passed), then the next car turned over.
    assert [type(e).__name__ for e in turn.events] == ["BidPassed", "CarRefused", "CarOffered"]
    assert turn.events[-1] == CarOffered(car=1)
    folded = state
    for event in turn.events:
        folded = GAME.evolve(folded, event)
    assert folded == turn.state
    assert events


def test_each_turn_folds_to_the_state_it_reports() -> None:
    """Folding a turn's events from the state before it gives the turn's state: nothing
    is folded apart from the events, and every consequence was read off the state."""
    for seed, raw in enumerate(GAME.conformance_options):
        opts = options(**raw)
        state = GAME.initial_state(opts, 3 + seed % 3)
        pick = random.Random(seed)
        events = 0
        while not (step := GAME.next_step(state)).over:
            if step.engine:
                turn = resolve(GAME, state, ENGINE, None, engine_stream(seed, events))
            else:
                legal = GAME.legal_actions(state, step.seats[0])
                turn = resolve(GAME, state, step.seats[0], pick.choice(legal), NO_CHANCE)
            folded = state
            for event in turn.events:
                folded = GAME.evolve(folded, event)
            assert folded == turn.state
            events += len(turn.events)
            state = turn.state


def test_the_game_object_keeps_no_state() -> None:
    game = DetroitCleveland()
    before = {name: (id(value), value) for name, value in vars(game).items()}
    registry = load_registry(entry_points=False)
    seats = [registry.bot("heuristic", game.name), registry.bot("random", game.name)] * 2
    for seed in range(2):
        run_match(game, options(races=1, white_own_car=True), seats[: 2 + seed], seed)
    state = race_state(OPTS, SPREAD, {0: (34, 5), 1: (38,)})
    apply(game, state, 0, Play(card=34))
    after = {name: (id(value), value) for name, value in vars(game).items()}
    assert after == before
    assert set(before) == {"event_decoder", "action_decoder"}
