"""The table of contents: every event folds through its section's function, in one match."""

from __future__ import annotations

import msgspec
import pytest

from racedeck.core.errors import UnknownEventError
from racedeck.games.lacorsa.events import Extended

from .helpers import GAME, race


def test_an_event_of_a_subclass_folds_as_its_kind() -> None:
    """An event of a subclass of a kind folds as that kind: the match's class pattern."""

    class Later(Extended, frozen=True, tag="later_extended"):
        """A subclass of a kind of the union."""

    state = race([0, 1], [0, 3], {0: "1 9", 1: "5"})
    assert GAME.evolve(state, Later(car=0, card=0)) == GAME.evolve(state, Extended(car=0, card=0))


def test_an_unknown_event_is_an_error() -> None:
    """An event of no LACORSA rule raises rather than leaving the state as it was."""

    class Stray(msgspec.Struct, frozen=True):
        """Not a LACORSA event."""

    with pytest.raises(UnknownEventError, match="Stray"):
        GAME.evolve(race([0, 1], [0, 3], {0: "1 9", 1: "5"}), Stray())  # type: ignore[arg-type]
