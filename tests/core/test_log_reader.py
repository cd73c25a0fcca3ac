"""The log reader finds every kind of damage and names its line."""

from __future__ import annotations

import io

import pytest

from racedeck.core.errors import LogError
from racedeck.core.log import LogWriter
from racedeck.core.replay import replay_log
from racedeck.core.runner import run_match
from racedeck.plugins import Registry


@pytest.fixture(scope="module")
def log_bytes(registry: Registry) -> bytes:
    game = registry.game("lacorsa")
    buffer = io.BytesIO()
    run_match(
        game,
        game.parse_options({"races": 1}),
        [registry.bot("random", "lacorsa")] * 2,
        2,
        writer=LogWriter(buffer),
    )
    return buffer.getvalue()


def _replay(registry: Registry, raw: bytes):  # type: ignore[no-untyped-def]
    return replay_log(registry, "x.jsonl", stream=io.BytesIO(raw))


def test_an_intact_log_replays(registry: Registry, log_bytes: bytes) -> None:
    replay = _replay(registry, log_bytes)
    assert replay.complete and replay.error is None


def test_a_missing_event_is_found(registry: Registry, log_bytes: bytes) -> None:
    lines = log_bytes.splitlines(keepends=True)
    del lines[4]
    replay = _replay(registry, b"".join(lines))
    assert replay.error is not None and replay.error.line == 5
    assert "expected event 3, found 4" in str(replay.error)
    assert replay.events == 3


def test_text_after_the_result_is_found(registry: Registry, log_bytes: bytes) -> None:
    replay = _replay(registry, log_bytes + b'{"kind":"event"}\n')
    assert replay.error is not None and "after the result" in str(replay.error)


def test_an_edited_result_is_found(registry: Registry, log_bytes: bytes) -> None:
    lines = log_bytes.splitlines(keepends=True)
    lines[-1] = lines[-1].replace(b'"unit":"points"', b'"unit":"dollars"')
    replay = _replay(registry, b"".join(lines))
    assert replay.error is not None and "result line" in str(replay.error)


def test_an_unknown_game_is_bad_input(registry: Registry, log_bytes: bytes) -> None:
    raw = log_bytes.replace(b'"game":"lacorsa"', b'"game":"chess"', 1)
    with pytest.raises(LogError, match=":1: unknown game 'chess'"):
        _replay(registry, raw)


def test_the_state_at_an_event(registry: Registry, log_bytes: bytes) -> None:
    replay = replay_log(registry, "x.jsonl", at=0, stream=io.BytesIO(log_bytes))
    assert replay.events == 1 and replay.state.phase == "qualify"
    with pytest.raises(LogError, match="does not exist"):
        replay_log(registry, "x.jsonl", at=10**6, stream=io.BytesIO(log_bytes))
