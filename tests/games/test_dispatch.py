"""Each game dispatches an event once, by the exhaustive ``match`` in ``evolve``.

No table keyed by event (or action) types sits beside it: a second dispatch would be a
second place to keep in step with the union.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping

import pytest

import racedeck.games
from racedeck.core.model import Action, Event

GAME_MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(racedeck.games.__path__, "racedeck.games.")
    if not info.ispkg
)


def _keyed_by_kind(value: object) -> bool:
    return isinstance(value, Mapping) and any(
        isinstance(key, type) and issubclass(key, Event | Action) for key in value
    )


def test_the_walk_sees_every_game() -> None:
    packages = {name.split(".")[2] for name in GAME_MODULES}
    assert {"lacorsa", "detroit_cleveland", "famous500", "wacky_races"} <= packages


@pytest.mark.parametrize("name", GAME_MODULES)
def test_no_module_keeps_a_table_of_event_or_action_kinds(name: str) -> None:
    module = importlib.import_module(name)
    tables = [key for key, value in vars(module).items() if _keyed_by_kind(value)]
    assert tables == [], f"{name} dispatches by a table: {tables}"


def test_the_check_sees_a_table() -> None:
    class Kind(Event, frozen=True, tag="kind"):
        """A kind of event, for the check."""

    assert _keyed_by_kind({Kind: print}) and not _keyed_by_kind({"kind": print})
