"""A fork's bots watch the copied prefix: legality once a decision, the recorded action alone.

At each seat decision of the prefix, ``watched`` asks the seat's bot what it would have
played and resolves the recorded action. One list of legal actions serves both; the
recorded action is the only one resolved, and the engine's recorded events are folded.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from racedeck.core.bot import Bot, BotSpec
from racedeck.core.game import AnyGame
from racedeck.core.log import LogReader, LogWriter
from racedeck.core.model import Action, Observation
from racedeck.core.replay import copy_prefix
from racedeck.core.resume import watched
from racedeck.core.rng import Rng
from racedeck.core.runner import run_match
from racedeck.plugins import Registry


class _Asked(Bot):
    """Plays at random and counts the decisions it is asked for."""

    asked = 0

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        _Asked.asked += 1
        return legal[rng.randrange(len(legal))]


ASKED = BotSpec(name="asked", factory=_Asked, description="test")


def _counting(game: AnyGame) -> tuple[AnyGame, dict[str, Any]]:
    """Return a game of the same rules that counts ``evolve``, ``resolve`` and
    ``legal_actions`` calls, and keeps each ``(state, seat)`` legality was computed for."""
    calls: dict[str, Any] = {"evolve": 0, "resolve": 0, "legal_actions": 0, "asked_for": []}
    kind = type(game)

    def counted(method: str) -> Callable[..., Any]:
        inner = getattr(kind, method)

        def call(self: AnyGame, *args: Any) -> Any:
            calls[method] += 1
            if method == "legal_actions":
                # The state itself is kept: no two states watched share an id.
                calls["asked_for"].append((args[0], args[1]))
            return inner(self, *args)

        return call

    methods = ("evolve", "resolve", "legal_actions")
    counting = type(f"Counting{kind.__name__}", (kind,), {m: counted(m) for m in methods})
    return counting(), calls


def _watch(registry: Registry, name: str, players: int) -> tuple[int, dict[str, Any]]:
    """Play a match, then have fresh bots watch all of it; return its events and the calls."""
    game, calls = _counting(registry.game(name))
    options = game.parse_options({})
    buffer = io.BytesIO()
    run_match(game, options, [ASKED] * players, 5, writer=LogWriter(buffer))
    buffer.seek(0)
    with LogReader("match.jsonl", buffer) as reader:
        last = sum(1 for entry in reader if entry.event is not None) - 1
    buffer.seek(0)
    with LogReader("match.jsonl", buffer) as reader:
        _state, _hash, decisions = copy_prefix(reader, game, options, last, None)
    for key in ("evolve", "resolve", "legal_actions"):
        calls[key] = 0
    calls["asked_for"].clear()
    _Asked.asked = 0
    watched(game, options, players, [ASKED] * players, 5, decisions)
    return last + 1, calls


@pytest.mark.parametrize("name", ["detroit-cleveland", "famous-500", "lacorsa", "wacky-races"])
def test_legality_is_computed_once_a_seat_decision(registry: Registry, name: str) -> None:
    game = registry.game(name)
    for players in sorted({game.min_players, game.max_players}):
        _events, calls = _watch(registry, name, players)
        asked_for = [(id(state), seat) for state, seat in calls["asked_for"]]
        assert _Asked.asked > 0
        assert len(set(asked_for)) == len(asked_for), "legal actions computed twice"
        # A decision is a state and a seat: no list was computed twice for one, and
        # none was computed but for a decision the bot was asked about.
        assert len(asked_for) == _Asked.asked


@pytest.mark.parametrize("name", ["detroit-cleveland", "famous-500", "lacorsa", "wacky-races"])
def test_only_the_recorded_action_is_resolved(registry: Registry, name: str) -> None:
    # Each seat decision resolves its recorded action once; the engine's recorded events
    # are folded as they are: each event of the prefix is folded once.
    game = registry.game(name)
    for players in sorted({game.min_players, game.max_players}):
        events, calls = _watch(registry, name, players)
        assert calls["resolve"] == calls["legal_actions"] == _Asked.asked
        assert calls["evolve"] == events
