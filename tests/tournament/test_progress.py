"""The progress bar: matches done, rate and time left."""

from __future__ import annotations

import contextlib
import io
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from racedeck.tournament import progress
from racedeck.tournament.progress import (
    Estimate,
    ProgressBar,
    ProgressLines,
    ReportEvery,
    estimate_line,
    pace,
)
from racedeck.tournament.record import MatchRecord


def test_the_bar_shows_done_pace_elapsed_and_time_left_and_ends_its_line() -> None:
    stream = io.StringIO()
    bar = ProgressBar(total=10, done=4, stream=stream)
    bar.advance(6)
    bar.close()
    text = stream.getvalue()
    last = text.rstrip("\n").splitlines()[-1]
    assert "10/10 matches" in last and "matches/s" in last
    assert "elapsed 00:00" in last and "00:00 left" in last
    assert text.endswith("\n")


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def record(index: int) -> MatchRecord:
    return MatchRecord(
        index=index,
        seed=index,
        deal=index,
        seats=("a", "b"),
        status="ok",
        ranks=(1, 2),
        scores=(2, 1),
        unit="points",
    )


def test_slow_matches_show_the_time_between_them_not_a_rate_of_zero() -> None:
    assert pace(0, 5.0) == "first match running"
    assert pace(3, 1.0) == "3.0 matches/s"
    assert pace(2, 25.0) == "a match every 12.5 s"


def test_the_estimate_comes_from_the_first_match_and_the_workers() -> None:
    # Two workers: the first match back after 12 s means 12 s a match; 99 more shared by two.
    assert estimate_line(12.0, 1, 100, 2) == (
        "estimate: 12.0 s a match (from the first 1 of this run); 99 more on 2 workers: about 09:54"
    )
    assert estimate_line(3.0, 1, 2000, 1, limit=True).endswith(
        "at most 1999 more on 1 worker: about 1:39:57"
    )


def test_plain_lines_say_the_estimate_once_and_the_pace_of_slow_matches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = Clock()
    monkeypatch.setattr(progress.time, "monotonic", clock)
    stream = io.StringIO()
    lines = ProgressLines(total=4, done=0, stream=stream, every=ReportEvery(matches=2))
    for index in range(4):
        clock.now += 30.0
        lines.record(record(index))
    lines.close()
    assert stream.getvalue().splitlines() == [
        "estimate: 30.0 s a match (from the first 1 of this run); 3 more on 1 worker: about 01:30",
        "progress: 2/4 matches (50%), a match every 30.0 s, elapsed 01:00, 01:00 left; wins: a 2, b 0",
        "progress: 4/4 matches (100%), a match every 30.0 s, elapsed 02:00, 00:00 left; wins: a 4, b 0",
    ]


def test_a_short_run_off_a_terminal_says_no_estimate(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    monkeypatch.setattr(progress.time, "monotonic", clock)
    stream = io.StringIO()
    lines = ProgressLines(total=10, done=0, stream=stream, every=ReportEvery(seconds=10))
    for index in range(10):
        clock.now += 0.1
        lines.record(record(index))
    lines.close()
    assert stream.getvalue() == ""


def test_the_command_draws_the_bar_on_a_terminal_only(tmp_path: Path) -> None:
    command = [
        sys.executable,
        "-m",
        "racedeck",
        "tournament",
        "lacorsa",
        "--bot",
        "heuristic",
        "--bot",
        "random",
        "-o",
        "races=1",
        "--matches",
        "20",
        "--workers",
        "1",
    ]
    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [*command, "--db", str(tmp_path / "a.sqlite")],
            stdout=subprocess.PIPE,
            stderr=follower,
            timeout=60,
            check=True,
        )
        os.close(follower)
        seen = b""
        with contextlib.suppress(OSError):
            while chunk := os.read(leader, 4096):
                seen += chunk
    finally:
        os.close(leader)
    assert b"20/20 matches" in seen and b"left" in seen and b"elapsed" in seen
    assert b"matches/s" not in done.stdout
    piped = subprocess.run(
        [*command, "--db", str(tmp_path / "b.sqlite")], capture_output=True, timeout=60, check=True
    )
    assert b"20/20" not in piped.stderr


def test_the_estimate_of_quick_matches_leaves_out_the_workers_start() -> None:
    # Two workers took a second to start; then a match came back every 20 ms.
    estimate = Estimate(total=400, done=0, workers=2, start=0.0)
    lines = [estimate.due(done, 1.0 + 0.02 * (done - 1)) for done in range(1, 40)]
    [line] = [line for line in lines if line is not None]
    per_match = float(line.split()[1])
    # Each worker takes about 40 ms a match (two at once, one back every 20 ms); the
    # time since the start would have said about half a second.
    assert per_match < 0.1, line
    assert line.endswith("about 00:07"), line


def test_a_slow_first_match_alone_still_gives_the_estimate() -> None:
    estimate = Estimate(total=10, done=0, workers=2, start=0.0)
    line = estimate.due(1, 30.0)
    assert line is not None and line.startswith("estimate: 30.0 s a match (from the first 1")
