"""Golden logs: old logs stay readable, replay to their recorded result and re-run identically."""

from __future__ import annotations

import pytest

from racedeck.core.replay import replay_log, verify_log
from racedeck.plugins import Registry
from tests.golden.specs import GOLDEN_DIR, GOLDEN_MATCHES


@pytest.mark.parametrize("match", GOLDEN_MATCHES, ids=lambda m: m.path.stem)
def test_golden_log_replays_and_verifies(registry: Registry, match) -> None:  # type: ignore[no-untyped-def]
    assert match.path.exists(), f"missing golden log {match.path.name}: run `make golden`"
    replay = replay_log(registry, match.path)
    assert replay.complete, replay.error
    assert replay.header.game == match.game
    assert [s.bot for s in replay.header.seats] == list(match.seats)
    assert replay.game.next_step(replay.state).over
    assert getattr(replay.state, "phase", "over") == "over"
    verify_log(registry, match.path)


def test_every_registered_game_has_a_golden_log(registry: Registry) -> None:
    covered = {m.game for m in GOLDEN_MATCHES}
    assert set(registry.games) <= covered, (
        "add a GoldenMatch for each new game and run `make golden`"
    )


def test_no_stray_golden_files() -> None:
    expected = {m.path.name for m in GOLDEN_MATCHES}
    assert {p.name for p in GOLDEN_DIR.glob("*.jsonl")} == expected


OLD_DIR = GOLDEN_DIR / "old"


@pytest.mark.parametrize("path", sorted(OLD_DIR.glob("*.jsonl")), ids=lambda p: p.stem)
def test_logs_from_older_state_versions_still_replay_and_verify(registry: Registry, path) -> None:  # type: ignore[no-untyped-def]
    """Never regenerated: these logs were written before a state schema change."""
    replay = replay_log(registry, path)
    assert replay.complete, replay.error
    assert replay.header.state_version < replay.game.state_version
    verify_log(registry, path)
