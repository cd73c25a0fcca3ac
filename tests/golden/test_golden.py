"""Golden logs: old logs stay readable, replay to their recorded result and re-run identically."""

from __future__ import annotations

import io
import json
from pathlib import Path

import msgspec
import pytest

from racedeck.core.errors import LogError, OptionError, UsageError
from racedeck.core.fork import fork_log
from racedeck.core.log import LOG_FORMAT, LogReader, LogWriter
from racedeck.core.replay import replay_log
from racedeck.core.runner import run_match
from racedeck.core.verify import verify_log
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
    checked = verify_log(registry, match.path, rerun=True)
    assert checked.whole and checked.rerun and checked.replay.events == replay.events


def test_every_registered_game_has_a_golden_log(registry: Registry) -> None:
    covered = {m.game for m in GOLDEN_MATCHES}
    assert set(registry.games) <= covered, (
        "add a GoldenMatch for each new game and run `make golden`"
    )


def test_no_stray_golden_files() -> None:
    expected = {m.path.name for m in GOLDEN_MATCHES}
    assert {p.name for p in GOLDEN_DIR.glob("*.jsonl")} == expected


OLD_DIR = GOLDEN_DIR / "old"


OLD_LOGS = sorted(OLD_DIR.glob("*.jsonl"))


@pytest.mark.parametrize("path", OLD_LOGS, ids=lambda p: p.stem)
def test_logs_from_older_versions_still_replay_and_verify(registry: Registry, path) -> None:  # type: ignore[no-untyped-def]
    """Never regenerated: these logs were written before a state schema or rules change,
    and replay and re-run under the rules version they name."""
    replay = replay_log(registry, path)
    assert replay.complete, replay.error
    current = registry.game(replay.header.game)
    assert (
        replay.header.state_version < current.state_version
        or replay.header.rules_version != current.rules_version
        or replay.header.format < LOG_FORMAT
    )
    assert replay.game.rules_version == replay.header.rules_version
    assert verify_log(registry, path).whole  # read and checked, no bot run
    verify_log(registry, path, rerun=True)


@pytest.mark.parametrize(
    "path", [p for p in OLD_LOGS if "rules-v1" in p.name], ids=lambda p: p.stem
)
def test_older_rules_logs_play_differently_under_todays_rules(registry: Registry, path) -> None:  # type: ignore[no-untyped-def]
    """The old rules are really what re-runs them: today's rules refuse their options or
    play (or score) their match differently."""
    with LogReader(path) as reader:
        header = reader.header
        logged = [entry.event for entry in reader]
        logged_result = reader.result
    game = registry.game(header.game)
    try:
        options = game.parse_options(header.options)
    except OptionError:
        return  # refused: a Famous 500 race longer than today's rules allow
    seats = [registry.bot(seat.bot, header.game) for seat in header.seats]
    buffer = io.BytesIO()
    run_match(game, options, seats, header.seed, writer=LogWriter(buffer))
    again = [json.loads(line) for line in buffer.getvalue().splitlines()]
    events = [line["event"] for line in again if line["kind"] == "event"]
    result = next(line for line in again if line["kind"] == "result")
    old_events = [msgspec.json.decode(e) if isinstance(e, bytes) else e for e in logged]
    assert logged_result is not None
    assert events != old_events or result["result"] != logged_result.result


def test_a_log_of_a_rules_version_no_engine_played_is_refused(registry: Registry, tmp_path) -> None:  # type: ignore[no-untyped-def]
    source = OLD_DIR / "lacorsa-rules-v1-5p-pairs-as-teams-seed13.jsonl"
    text = source.read_text().replace('"rules_version":"1"', '"rules_version":"0"', 1)
    path = tmp_path / "future.jsonl"
    path.write_text(text)
    with pytest.raises(LogError) as refused:
        replay_log(registry, path)
    assert refused.value.line == 1
    assert "lacorsa rules version '0' is not one this engine plays (it plays '2')" in str(
        refused.value
    )


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


@pytest.mark.parametrize("match", GOLDEN_MATCHES, ids=lambda m: m.path.stem)
def test_a_log_of_decisions_is_at_most_15_percent_larger_than_one_of_events(match) -> None:  # type: ignore[no-untyped-def]
    """The same match, written as format 3 (decision lines) and format 2 (event lines)."""
    format2 = OLD_DIR / f"{match.path.stem}-format2.jsonl"
    with LogReader(format2) as reader:
        assert reader.header.format == 2
    with LogReader(match.path) as reader:
        assert reader.header.format == LOG_FORMAT == 3
    assert match.path.stat().st_size <= 1.15 * format2.stat().st_size


@pytest.mark.parametrize("path", sorted(OLD_DIR.glob("*-format2.jsonl"))[:3], ids=lambda p: p.stem)
def test_a_fork_of_a_format_2_log_is_a_log_of_decisions_checked_against_it(
    registry: Registry, path: Path, tmp_path: Path
) -> None:
    """The frozen reader finds the copied decisions; the fork is written in format 3."""
    for at in range(12, 40):
        try:
            forked = fork_log(registry, path, at, tmp_path / "fork.jsonl")
        except UsageError as exc:
            assert "decision" in str(exc)
            continue
        break
    else:
        raise AssertionError("no decision ends between events 12 and 40")
    assert forked.header.format == LOG_FORMAT and forked.header.fork is not None
    checked = verify_log(registry, forked.path, rerun=True, parent=path)
    assert checked.whole and checked.checked_from == at + 1
