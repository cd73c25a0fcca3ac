"""Golden logs: old logs stay readable, replay to their recorded result and re-run identically."""

from __future__ import annotations

from pathlib import Path

import pytest

from racedeck.core.log import LOG_FORMAT, LogReader
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
    """Never regenerated: written before a state schema change or in an older log format."""
    replay = replay_log(registry, path)
    assert replay.complete, replay.error
    assert (
        replay.header.state_version < replay.game.state_version
        or replay.header.format < LOG_FORMAT
    )
    verify_log(registry, path)


def test_every_game_keeps_a_log_in_the_old_format(registry: Registry) -> None:
    formats: dict[str, set[int]] = {}
    for path in OLD_DIR.glob("*.jsonl"):
        with LogReader(path) as reader:
            formats.setdefault(reader.header.game, set()).add(reader.header.format)
    assert all(1 in formats.get(name, set()) for name in registry.games), formats


def test_an_old_format_result_line_is_still_checked_against_its_events(
    registry: Registry, tmp_path: Path
) -> None:
    path = OLD_DIR / "lacorsa-format1.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(b"".join(lines[:-1]) + lines[-1].replace(b'"ranks":[1,2]', b'"ranks":[2,1]'))
    assert lines[-1] != forged.read_bytes().splitlines(keepends=True)[-1]
    replay = replay_log(registry, forged)
    assert replay.error is not None and f":{len(lines)}:" in str(replay.error)
