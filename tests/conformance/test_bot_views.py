"""What a bot can reach holds nothing it may not see, and nothing it can change.

For every registered game: the objects a bot is handed (the game as a forward model, its
observation, the legal actions) and everything reachable from them carry no match state
(so no other seat's hidden cards), and are immutable, so nothing a bot does to them
reaches the engine.
"""

from __future__ import annotations

import gc
import types
from collections.abc import Sequence
from typing import Any

import msgspec
import pytest

from racedeck.core.bot import Bot, BotSpec
from racedeck.core.game import AnyGame
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng
from racedeck.core.runner import run_match

from .cases import GAMES, REGISTRY

_SKIP = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.CodeType,
    types.FrameType,
    types.MethodType,
)


def _reachable(root: object, limit: int = 20_000) -> list[object]:
    """Everything reachable from ``root`` by reference, short of classes, modules and code."""
    seen: set[int] = set()
    found: list[object] = []
    queue = [root]
    while queue and len(found) < limit:
        obj = queue.pop()
        if id(obj) in seen or isinstance(obj, _SKIP):
            continue
        seen.add(id(obj))
        found.append(obj)
        queue.extend(gc.get_referents(obj))
    return found


def _mutable_parts(value: object) -> list[str]:
    """The mutable containers and unfrozen structs inside a value a bot is handed."""
    problems = []
    for obj in _reachable(value):
        if isinstance(obj, (list, dict, set, bytearray)) and obj is not value:
            problems.append(type(obj).__name__)
        if isinstance(obj, msgspec.Struct) and not type(obj).__struct_config__.frozen:
            problems.append(f"unfrozen {type(obj).__name__}")
    return problems


class _Inspecting(Bot):
    """Records what it is handed at each decision, then plays at random."""

    seen: list[tuple[AnyGame, Observation, Sequence[Action]]] = []

    def bind_game(self, game: AnyGame) -> None:
        self.game = game

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        if len(self.seen) < 6:
            self.seen.append((self.game, observation, legal))
        return legal[rng.randrange(len(legal))]


@pytest.mark.parametrize("name", GAMES)
def test_no_object_a_bot_can_reach_carries_match_state(name: str) -> None:
    game = REGISTRY.game(name)
    options = game.parse_options(dict(game.conformance_options[0]))
    players = max(game.min_players, 2 if game.max_players >= 2 else 1)
    state_type = type(game.initial_state(options, players))
    _Inspecting.seen = []
    spec = BotSpec(name="inspecting", factory=_Inspecting, description="")
    run_match(game, options, [spec] * players, 7)
    assert _Inspecting.seen
    for bound, observation, legal in _Inspecting.seen:
        for obj in _reachable((bound, observation, legal)):
            assert not isinstance(obj, state_type), f"a bot can reach a {state_type.__name__}"


@pytest.mark.parametrize("name", GAMES)
def test_what_a_bot_is_handed_cannot_be_changed(name: str) -> None:
    game = REGISTRY.game(name)
    options = game.parse_options(dict(game.conformance_options[0]))
    players = max(game.min_players, 2 if game.max_players >= 2 else 1)
    _Inspecting.seen = []
    spec = BotSpec(name="inspecting", factory=_Inspecting, description="")
    run_match(game, options, [spec] * players, 3)
    for _game, observation, legal in _Inspecting.seen:
        assert type(legal) is tuple
        _mutations(legal)
        assert _mutable_parts(legal) == []
        assert _mutable_parts(observation) == [], type(observation).__name__


def _mutations(value: Any) -> None:
    """Try what a cheating bot would; each attempt must fail."""
    for attempt in (
        lambda: value.append(value[0]),
        lambda: value.__setitem__(0, None),
        lambda: setattr(value[0], "__class__", object),
    ):
        with pytest.raises((AttributeError, TypeError)):
            attempt()


def test_the_walk_finds_a_state_kept_anywhere_a_bot_can_reach() -> None:
    game = REGISTRY.game("lacorsa")
    state = game.initial_state(game.parse_options({"races": 1}), 2)
    holder = types.SimpleNamespace(cache={"last": (state,)})
    assert any(obj is state for obj in _reachable((holder, ())))
    assert _mutable_parts((1, [2])) == ["list"]
