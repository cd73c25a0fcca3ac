"""The table of contents: every event folds through its section's function, by either route."""

from __future__ import annotations

import typing

import msgspec
import pytest

from racedeck.core.errors import UnknownEventError
from racedeck.games.lacorsa.events import Extended, LacorsaEvent
from racedeck.games.lacorsa.options import LacorsaOptions
from racedeck.games.lacorsa.rules import _FOLDS, fold_by_match
from tests.playing import fold_kinds_alike

from .helpers import GAME, race


def test_the_fold_table_lists_every_event_kind() -> None:
    """``evolve`` finds a fold by the event's exact type for every kind of the union."""
    assert set(_FOLDS) == set(typing.get_args(LacorsaEvent))


@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_table_and_the_match_fold_every_event_alike(players: int) -> None:
    """Over whole championships, each event folds to the same state by the table and the match."""
    kinds = fold_kinds_alike(GAME, LacorsaOptions(races=2), players, players, fold_by_match)
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
