"""The conformance suite: every registered game passes it with no code of its own.

Seeded random playouts at every player count and every option set the game declares:
each ends, every action taken is one that ``legal_actions`` offered, folding the log gives
the live state, events round-trip through JSON, the same seed writes the same bytes, and
no seat's observation changes when the cards it cannot see are dealt differently. The game
objects are stateless: matches and searches leave their attributes as they were, two
threads can share one, each event is folded once and legality is computed once a decision.

The registry holds the built-in games and the plugin game in ``plugin_games/``, loaded as
any single-file plugin is, so everything here holds for plugins' games too.
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterator, Sequence
from itertools import islice
from typing import Any

import msgspec
import pytest

from racedeck.core.bot import Bot, BotSpec
from racedeck.core.errors import IllegalActionError
from racedeck.core.game import AnyGame
from racedeck.core.log import LogWriter
from racedeck.core.model import ENGINE, Action, Observation
from racedeck.core.replay import replay_log
from racedeck.core.rng import Rng, engine_stream
from racedeck.core.runner import run_match, state_hash
from racedeck.core.step import apply, resolve

from .cases import CASES
from .cases import REGISTRY as _REGISTRY

SEEDS = range(6)
MAX_EVENTS = 200_000


def _play(game: AnyGame, options: Any, players: int, seed: int) -> tuple[bytes, Any]:
    buffer = io.BytesIO()
    spec = _REGISTRY.bot("random", game.name)
    outcome = run_match(game, options, [spec] * players, seed, writer=LogWriter(buffer))
    assert outcome.forfeit is None, outcome.forfeit
    assert not outcome.faults, outcome.faults
    return buffer.getvalue(), outcome


def _walk(
    game: AnyGame, options: Any, players: int, seed: int
) -> Iterator[tuple[Any, int, Sequence[Action]]]:
    """Play a random match step by step, yielding each (state, seat, legal actions)."""
    state = game.initial_state(options, players)
    rng = random.Random(seed)
    events = 0
    while True:
        step = game.next_step(state)
        if step.over:
            return
        if step.engine:
            turn = resolve(game, state, ENGINE, None, engine_stream(seed, events))
            assert turn.events, "the engine acted but produced no event"
        else:
            seat = step.seats[0]
            legal = game.legal_actions(state, seat)
            assert legal, f"seat {seat} must act but has no legal action"
            yield state, seat, legal
            turn = apply(game, state, seat, legal[rng.randrange(len(legal))])
        state = turn.state
        events += len(turn.events)
        assert events < MAX_EVENTS, "the match did not end"


@pytest.mark.parametrize(("name", "raw", "players"), CASES)
def test_random_playouts_end_and_fold_back(name: str, raw: dict[str, Any], players: int) -> None:
    game = _REGISTRY.game(name)
    options = game.parse_options(raw)
    for seed in SEEDS:
        log, outcome = _play(game, options, players, seed)
        assert outcome.events > 0
        assert len(outcome.result.ranks) == players
        assert len(outcome.result.scores) == players
        assert all(1 <= r <= players for r in outcome.result.ranks)
        replay = replay_log(_REGISTRY, "memory.jsonl", stream=io.BytesIO(log))
        assert replay.error is None, replay.error
        assert replay.complete
        assert state_hash(replay.state) == state_hash(outcome.state)
        assert replay.state == outcome.state


@pytest.mark.parametrize(("name", "raw", "players"), CASES)
def test_same_seed_writes_the_same_bytes(name: str, raw: dict[str, Any], players: int) -> None:
    game = _REGISTRY.game(name)
    options = game.parse_options(raw)
    first, _ = _play(game, options, players, 7)
    second, _ = _play(game, options, players, 7)
    assert first == second
    other, _ = _play(game, options, players, 8)
    assert other != first


@pytest.mark.parametrize(("name", "raw", "players"), CASES)
def test_events_round_trip_through_json(name: str, raw: dict[str, Any], players: int) -> None:
    game = _REGISTRY.game(name)
    options = game.parse_options(raw)
    log, _ = _play(game, options, players, 3)
    for line in log.splitlines()[1:-1]:
        entry = msgspec.json.decode(line)
        if entry["kind"] != "event":
            continue
        raw_event = msgspec.json.encode(entry["event"])
        event = game.event_decoder.decode(raw_event)
        assert msgspec.json.encode(event) == raw_event
        assert game.event_decoder.decode(msgspec.json.encode(event)) == event


class _CheckingBot(Bot):
    """Plays at random but fails the test if it is offered nothing or plays off the list."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        assert legal, "a bot was asked to act with no legal action"
        msgspec.json.encode(observation)
        action = legal[rng.randrange(len(legal))]
        assert action in legal
        return action


@pytest.mark.parametrize(("name", "raw", "players"), CASES)
def test_every_action_taken_was_legal(name: str, raw: dict[str, Any], players: int) -> None:
    game = _REGISTRY.game(name)
    options = game.parse_options(raw)
    spec = BotSpec(name="checking", factory=_CheckingBot, description="test")
    for seed in SEEDS:
        outcome = run_match(game, options, [spec] * players, seed)
        assert not outcome.faults, outcome.faults


@pytest.mark.parametrize(("name", "raw", "players"), CASES)
def test_observations_hide_what_a_seat_cannot_see(
    name: str, raw: dict[str, Any], players: int
) -> None:
    game = _REGISTRY.game(name)
    options = game.parse_options(raw)
    rng = random.Random(11)
    changed = 0
    for state, _seat, _legal in _walk(game, options, players, 5):
        for viewer in range(players):
            variant = game.hidden_variants(state, viewer, rng)
            if variant is None:
                continue
            if variant != state:
                changed += 1
            assert game.observe(variant, viewer) == game.observe(state, viewer), (
                f"seat {viewer}'s observation changed when only cards it cannot see changed"
            )
            assert game.legal_actions(variant, viewer) == game.legal_actions(state, viewer)
            seen = game.observe(state, viewer)
            # A search's stream of determinizations (a game may chain them).
            for world in islice(game.sample_states(seen, options, viewer, rng), 3):
                assert world is not None, f"{name} declares sampling but built no state"
                assert game.observe(world, viewer) == seen, (
                    f"a state of seat {viewer}'s sample stream does not give it back"
                )
    has_hidden = any(
        game.hidden_variants(state, 0, random.Random(1)) is not None
        for state, _s, _l in _walk(game, options, players, 6)
    )
    if has_hidden:
        assert changed > 0, "hidden_variants never changed anything: the check proved nothing"


@pytest.mark.parametrize(("name", "raw", "players"), CASES)
def test_the_step_refuses_a_seat_that_is_not_to_act(
    name: str, raw: dict[str, Any], players: int
) -> None:
    game = _REGISTRY.game(name)
    options = game.parse_options(raw)
    refused = 0
    for state, _seat, legal in _walk(game, options, players, 9):
        acting = set(game.next_step(state).seats)
        for other in range(players):
            if other in acting:
                continue
            with pytest.raises(IllegalActionError) as info:
                apply(game, state, other, legal[0])
            assert str(other) in str(info.value)
            refused += 1
        if refused > 50:
            break


@pytest.mark.parametrize("name", sorted(_REGISTRY.games))
def test_game_has_a_heuristic_bot_and_renders(name: str) -> None:
    game = _REGISTRY.game(name)
    assert _REGISTRY.bot("heuristic", name).plays(name)
    options = game.parse_options(game.conformance_options[0])
    _, outcome = _play(game, options, max(game.min_players, 2), 1)
    assert game.presentation.render(outcome.state)
    assert game.presentation.render(outcome.state, 0)
    assert game.result(outcome.state).unit
    assert state_hash(outcome.state)
