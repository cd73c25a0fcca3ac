"""What a bot is handed is its own copy: writes through any path never reach the engine."""

from __future__ import annotations

import gc
import io
from collections.abc import Sequence
from typing import Any

import msgspec
import pytest

from racedeck.core.bot import Bot, BotSpec
from racedeck.core.log import LogWriter
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng
from racedeck.core.runner import run_match
from tests.bots.helpers import REGISTRY


def _structs(root: object) -> list[msgspec.Struct]:
    """Every msgspec struct reachable from ``root``."""
    seen: set[int] = set()
    found: list[msgspec.Struct] = []
    queue = [root]
    while queue:
        obj = queue.pop()
        if id(obj) in seen or isinstance(obj, (type, str, bytes, int, float)):
            continue
        seen.add(id(obj))
        if isinstance(obj, msgspec.Struct):
            found.append(obj)
        queue.extend(gc.get_referents(obj))
    return found


def _poisoned(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 7
    if isinstance(value, tuple):
        return ()
    if isinstance(value, str):
        return value + "?"
    return value


def vandalize(root: object) -> int:
    """Write every field of every struct reachable from ``root`` through its descriptor."""
    written = 0
    for struct in _structs(root):
        cls = type(struct)
        for name in cls.__struct_fields__:
            descriptor = cls.__dict__.get(name)
            if descriptor is None:
                continue
            descriptor.__set__(struct, _poisoned(getattr(struct, name)))
            written += 1
    return written


class Vandal(Bot):
    """Plays the first legal action, after writing into everything else it was handed."""

    writes = 0

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        Vandal.writes += vandalize((observation, legal[1:]))
        return legal[0]


class Rewriter(Bot):
    """Rewrites the action it returns through its descriptor, at its second decision."""

    def __init__(self) -> None:
        self.decisions = 0

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        self.decisions += 1
        chosen = legal[0]
        if self.decisions == 2:
            vandalize(chosen)
        return chosen


class First(Bot):
    """Plays the first legal action."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        return legal[0]


def _play(game_name: str, bots: list[type[Bot]], seed: int) -> bytes:
    game = REGISTRY.game(game_name)
    options = game.parse_options({"races": 1} if game_name != "famous-500" else {})
    # One name for every bot, so the two logs may be compared byte for byte.
    specs = [BotSpec(name="first", factory=b, description="") for b in bots]
    buffer = io.BytesIO()
    run_match(game, options, specs, seed, writer=LogWriter(buffer))
    return buffer.getvalue()


@pytest.mark.parametrize("game", ["lacorsa", "famous-500", "detroit-cleveland", "wacky-races"])
def test_writes_through_field_descriptors_reach_neither_this_match_nor_the_next(game: str) -> None:
    players = 2 if game != "detroit-cleveland" else 3
    clean = _play(game, [First] * players, 5)
    Vandal.writes = 0
    vandalized = _play(game, [Vandal] * players, 5)
    assert Vandal.writes > 0
    assert vandalized == clean
    assert _play(game, [First] * players, 5) == clean  # nothing cached was changed


def test_a_bot_that_rewrites_the_action_it_returns_commits_its_own_seats_fault() -> None:
    game = REGISTRY.game("lacorsa")
    options = game.parse_options({"races": 1})
    specs = [
        BotSpec(name="rewriter", factory=Rewriter, description=""),
        BotSpec(name="first", factory=First, description=""),
    ]
    outcome = run_match(game, options, specs, 3)
    assert outcome.forfeit is not None and outcome.forfeit.seat == 0
    assert "illegal action" in outcome.forfeit.reason
