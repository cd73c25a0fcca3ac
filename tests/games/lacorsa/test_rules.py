"""The table of contents: every event folds through its section's function, by either route."""

from __future__ import annotations

import random
import typing

import msgspec
import pytest

from racedeck.core.errors import UnknownEventError
from racedeck.core.model import ENGINE
from racedeck.core.rng import engine_stream
from racedeck.core.step import NO_CHANCE, resolve
from racedeck.games.lacorsa.events import Extended, LacorsaEvent
from racedeck.games.lacorsa.options import LacorsaOptions
from racedeck.games.lacorsa.rules import _FOLDS, fold_by_match

from .helpers import GAME, race


def test_the_fold_table_lists_every_event_kind() -> None:
    """``evolve`` finds a fold by the event's exact type for every kind of the union."""
    assert set(_FOLDS) == set(typing.get_args(LacorsaEvent))


@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_table_and_the_match_fold_every_event_alike(players: int) -> None:
    """Over whole championships, each event folds to the same state by the table and the match."""
    rng = random.Random(players)
    state = GAME.initial_state(LacorsaOptions(races=2), players)
    kinds = set()
    events = 0
    while not (step := GAME.next_step(state)).over:
        if step.engine:
            turn = resolve(GAME, state, ENGINE, None, engine_stream(players, events))
        else:
            seat = step.seats[0]
            turn = resolve(
                GAME, state, seat, rng.choice(GAME.legal_actions(state, seat)), NO_CHANCE
            )
        for event in turn.events:
            kinds.add(type(event))
            folded = GAME.evolve(state, event)
            assert folded == fold_by_match(state, event)
            state = folded
        assert state == turn.state
        events += len(turn.events)
    assert len(kinds) >= 8  # every kind but, in some deals, the qualifying die


def test_an_event_of_a_subclass_folds_as_its_kind() -> None:
    """An event whose exact type the table lacks still folds, through the match."""

    class Later(Extended, frozen=True, tag="later_extended"):
        """A subclass the table does not list."""

    state = race([0, 1], [0, 3], {0: "1 9", 1: "5"})
    assert GAME.evolve(state, Later(car=0, card=0)) == GAME.evolve(state, Extended(car=0, card=0))


def test_an_unknown_event_is_an_error() -> None:
    """An event of no LACORSA rule raises rather than leaving the state as it was."""

    class Stray(msgspec.Struct, frozen=True):
        """Not a LACORSA event."""

    with pytest.raises(UnknownEventError, match="Stray"):
        GAME.evolve(race([0, 1], [0, 3], {0: "1 9", 1: "5"}), Stray())  # type: ignore[arg-type]
