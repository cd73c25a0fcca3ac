"""The progress bar: matches done, rate and time left."""

from __future__ import annotations

import contextlib
import io
import os
import pty
import subprocess
import sys
from pathlib import Path

from racedeck.tournament.progress import ProgressBar


def test_the_bar_shows_done_rate_and_time_left_and_ends_its_line() -> None:
    stream = io.StringIO()
    bar = ProgressBar(total=10, done=4, stream=stream)
    bar.advance(6)
    bar.close()
    text = stream.getvalue()
    last = text.rstrip("\n").split("\r")[-1]
    assert "10/10 matches" in last and "/s" in last and "left" in last
    assert last.startswith("[" + "#" * 30 + "]")
    assert text.endswith("\n")


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
    assert b"20/20 matches" in seen and b"left" in seen
    assert b"matches/s" not in done.stdout
    piped = subprocess.run(
        [*command, "--db", str(tmp_path / "b.sqlite")], capture_output=True, timeout=60, check=True
    )
    assert b"20/20" not in piped.stderr
