"""`racedeck diff`: the first divergence of two logs, found at the right event."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from racedeck.cli.app import main
from racedeck.core.errors import LogError
from racedeck.inspect.diff import diff_logs
from racedeck.inspect.text import CHANGED, PIPE_WIDTH, describe_diff, side_by_side
from racedeck.plugins import Registry
from tests.inspect.helpers import events_of, line_of, play, rewrite


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory, registry: Registry) -> Path:
    return play(registry, tmp_path_factory.mktemp("diff") / "base.jsonl")


def _changed_card(event: dict) -> dict:
    """Return a discard or extend of another card: a different event of the same kind."""
    if event["type"] == "discarded":
        return {**event, "cards": [event["cards"][0] ^ 1]}
    if event["type"] == "extended":
        return {**event, "card": event["card"] ^ 1}
    return {**event, "type": "discarded", "car": 0, "cards": [0]}


@pytest.mark.parametrize("place", [0, 1, 17, 33, -1])
def test_diff_finds_an_edited_event_at_its_number(
    base: Path, tmp_path: Path, registry: Registry, place: int
) -> None:
    count = len(events_of(base))
    at = place % count
    edited = rewrite(
        base, tmp_path / "edited.jsonl", lambda seq, e: _changed_card(e) if seq == at else e
    )
    report = diff_logs(registry, base, edited)
    assert report.divergence is not None
    assert report.divergence.seq == at
    assert report.events_compared == at
    assert report.divergence.a.line == report.divergence.b.line == line_of(base, at)
    assert (
        report.divergence.b.entry is not None
        and report.divergence.a.entry != report.divergence.b.entry
    )


def test_diff_finds_where_a_shorter_log_ends(
    base: Path, tmp_path: Path, registry: Registry
) -> None:
    shorter = rewrite(base, tmp_path / "short.jsonl", lambda seq, e: e if seq < 20 else None)
    report = diff_logs(registry, base, shorter)
    assert report.divergence is not None
    assert report.divergence.seq == 20
    assert report.divergence.b.entry is None
    assert "second log ends" in report.divergence.why


def test_diff_of_a_log_with_itself_exits_0(base: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", str(base), str(base)]) == 0
    assert "identical" in capsys.readouterr().out


def _flip_winner(event: dict) -> dict:
    loser = event["attacker"] if event["winner"] == event["defender"] else event["defender"]
    return {**event, "winner": loser}


def test_diff_shows_both_events_and_states_side_by_side_and_exits_1(
    base: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    at = next(
        seq
        for seq, e in enumerate(events_of(base))
        if seq > 20 and e["type"] == "challenge_resolved"
    )
    edited = rewrite(base, tmp_path / "e.jsonl", lambda seq, e: _flip_winner(e) if seq == at else e)
    assert main(["diff", str(base), str(edited)]) == 1
    captured = capsys.readouterr()
    out = captured.out
    assert f"diverge at event {at}" in out and f"differ from event {at}" in captured.err
    assert "cannot be folded" not in out
    row = next(line for line in out.splitlines() if line[2:].startswith("LACORSA"))
    assert row.count("LACORSA") == 2


def test_diff_marks_the_rows_that_differ_words_events_and_fits_a_pipe(
    base: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], registry: Registry
) -> None:
    at = next(
        seq
        for seq, e in enumerate(events_of(base))
        if seq > 20 and e["type"] == "challenge_resolved"
    )
    edited = rewrite(base, tmp_path / "e.jsonl", lambda seq, e: _flip_winner(e) if seq == at else e)
    assert main(["diff", str(base), str(edited)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in out) <= PIPE_WIDTH  # not a terminal: 100 columns
    report = diff_logs(registry, base, edited)
    assert report.divergence is not None
    game = report.divergence.a.game
    assert f"  A: {game.presentation.describe(report.divergence.a.entry)}" in out
    assert not any(line.startswith("  A: {") for line in out)
    columns = out[out.index(next(line for line in out if line.startswith("states after"))) + 1 :]
    assert any(line.startswith(CHANGED) for line in columns)
    assert all(line[0] in (CHANGED, " ") for line in columns)
    narrow = describe_diff(report, width=60).splitlines()
    assert max(len(line) for line in narrow) <= 60


def test_side_by_side_marks_each_differing_row_and_wraps_within_the_width() -> None:
    assert side_by_side("a\nb\nc", "a\nX", ("A", "B")).splitlines() == [
        "  A   B",
        "  a   a",
        f"{CHANGED} b   X",
        f"{CHANGED} c",
    ]
    long = "word " * 12
    wrapped = side_by_side(long, long, width=40).splitlines()
    assert len(wrapped) > 1 and all(len(line) <= 40 for line in wrapped)
    assert all(line.startswith("  ") for line in wrapped)  # the same on both sides
    assert " ".join(" ".join(line.split()) for line in wrapped).count("word") == 24


def test_diff_json_names_the_event_and_both_views(
    base: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edited = rewrite(
        base, tmp_path / "e.jsonl", lambda seq, e: _changed_card(e) if seq == 25 else e
    )
    assert main(["diff", str(base), str(edited), "--json", "--seat", "1"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["divergence"]["seq"] == 25
    assert out["divergence"]["a"]["view"]["type"] == "lacorsa"  # an observation, not a state
    assert out["divergence"]["a"]["view"]["seat"] == 1


def test_diff_reports_header_differences_and_diverges_at_the_deal(
    base: Path, tmp_path: Path, registry: Registry
) -> None:
    other = play(registry, tmp_path / "other.jsonl", seed=8)
    report = diff_logs(registry, base, other)
    assert report.header_differences == ["seed"]
    assert report.divergence is not None and report.divergence.seq == 0


def test_diff_of_an_altered_log_exits_3_naming_the_line(
    base: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = base.read_bytes().splitlines(keepends=True)
    lines[5] = lines[5].replace(b'"car":', b'"car": ', 1)
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(b"".join(lines))
    assert main(["diff", str(base), str(broken)]) == 3
    err = capsys.readouterr().err
    assert f"{broken}:6:" in err and "Traceback" not in err


def test_diff_of_a_missing_log_raises_a_log_error(
    base: Path, tmp_path: Path, registry: Registry
) -> None:
    with pytest.raises(LogError):
        diff_logs(registry, base, tmp_path / "nothing.jsonl")
