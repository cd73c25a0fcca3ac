"""A fork's bots watch the copied prefix: legality once a decision, the named action alone.

At each seat decision of the prefix, ``watched`` finds which recorded events the seat's
decision gave and asks the seat's bot what it would have played. One list of legal
actions serves both; the action the game names for the decision's first event
(``Game.action_of``) is the only one resolved.
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
        events = [game.event_decoder.decode(e.event) for e in reader if e.event is not None]
    for key in ("evolve", "resolve", "legal_actions"):
        calls[key] = 0
    calls["asked_for"].clear()
    _Asked.asked = 0
    watched(game, options, players, [ASKED] * players, 5, events)
    return len(events), calls


@pytest.mark.parametrize("name", ["detroit-cleveland", "famous-500", "lacorsa", "wacky-races"])
def test_legality_is_computed_once_a_seat_decision(registry: Registry, name: str) -> None:
    game = registry.game(name)
    for players in sorted({game.min_players, game.max_players}):
        _events, calls = _watch(registry, name, players)
        asked_for = [(id(state), seat) for state, seat in calls["asked_for"]]
        assert _Asked.asked > 0
        assert len(set(asked_for)) == len(asked_for), "legal actions computed twice"
        # A decision is a state and a seat: no list was computed twice for one. A few
        # more lists than decisions are of states inside the engine's own turns (Detroit-
        # Cleveland's deal, Wacky Races' draw), where a seat seems to be to act and none
        # of its actions gives the recorded events; they too are computed once.
        assert len(asked_for) >= _Asked.asked


@pytest.mark.parametrize("name", ["famous-500", "lacorsa"])
def test_only_the_action_the_game_names_is_resolved(registry: Registry, name: str) -> None:
    # LACORSA and Famous 500 name the action of every seat event, and none of their
    # engine turns passes through a state where a seat is to act: each event of the
    # prefix is folded once, by its own decision or as the engine's.
    game = registry.game(name)
    for players in sorted({game.min_players, game.max_players}):
        events, calls = _watch(registry, name, players)
        assert calls["resolve"] == calls["legal_actions"] == _Asked.asked
        assert calls["evolve"] == events
