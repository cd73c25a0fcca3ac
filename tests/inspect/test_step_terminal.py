"""`racedeck step` at a terminal: lines edited with readline, recalled from history; events
listed in the game's words."""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from racedeck.cli.app import main
from racedeck.core.replay import replay_log
from racedeck.inspect.step import Viewer, load_timeline
from racedeck.plugins import Registry
from tests.inspect.helpers import play

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory, registry: Registry) -> Path:
    return play(registry, tmp_path_factory.mktemp("term") / "match.jsonl", options={"races": 1})


def _read_until(fd: int, wanted: bytes, seen: bytearray, timeout: float = 60.0) -> None:
    """Read from the terminal's far end until ``wanted`` has been seen after ``len(seen)``."""
    start = len(seen)
    deadline = time.monotonic() + timeout
    while wanted not in seen[start:]:
        left = deadline - time.monotonic()
        assert left > 0, f"waited for {wanted!r}; the terminal showed {bytes(seen[start:])!r}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            seen += os.read(fd, 65536)


def test_arrow_keys_recall_earlier_commands_instead_of_printing_escapes(log: Path) -> None:
    main_end, far_end = os.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "TERM": "xterm"}
    process = subprocess.Popen(
        [sys.executable, "-m", "racedeck", "step", str(log)],
        stdin=far_end,
        stdout=far_end,
        stderr=far_end,
        env=env,
        close_fds=True,
    )
    os.close(far_end)
    seen = bytearray()
    try:
        _read_until(main_end, b"step> ", seen)
        os.write(main_end, b"g 5\r")
        _read_until(main_end, b"step> ", seen)
        os.write(main_end, b"n\r")
        _read_until(main_end, b"step> ", seen)
        before = len(seen)
        os.write(main_end, b"\x1b[A\x1b[A\r")  # up twice: "g 5" again
        _read_until(main_end, b"step> ", seen)
        shown = bytes(seen[before:])
        os.write(main_end, b"q\r")
        assert process.wait(60) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(main_end)
    assert b"event 5 of" in shown and b"^[[A" not in shown


def test_the_event_list_words_events_as_the_game_does(log: Path, registry: Registry) -> None:
    timeline = load_timeline(registry, log)
    viewer = Viewer(timeline)
    viewer.command("g 10")
    listed = viewer.command("e") or ""
    rows = listed.splitlines()
    assert len(rows) == 11 and rows[5].startswith(">     10 ")
    for row, seq in zip(rows, range(5, 16), strict=True):
        assert row.endswith(timeline.game.presentation.describe(timeline.events[seq]))
    assert "{" not in listed and not re.search(r'"card"', listed)
    viewer.command("s 1")
    assert (viewer.command("e") or "").splitlines()[5].endswith(timeline.kind(10))


def test_step_shows_each_seats_latest_debug_note_up_to_the_event(
    tmp_path: Path, registry: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "explained.jsonl"
    bot = "ismcts:simulations=20,explain=true"
    args = ["play", "lacorsa", "-s", bot, "-s", "heuristic", "-o", "races=1", "--log", str(log)]
    assert main(args) == 0
    capsys.readouterr()
    timeline = load_timeline(registry, log)
    viewer = Viewer(timeline)
    for seq in (0, 10, 30, len(timeline.events) - 1):
        viewer.command(f"g {seq}")
        notes = replay_log(registry, log, at=seq).debug
        screen = viewer.screen()
        if notes:
            assert f"  debug, seat 0 ({bot}) last said: {notes[-1].text}" in screen
        else:
            assert "debug," not in screen
    viewer.command("s 1")  # the heuristic leaves no notes, and seat 0's are not its to see
    assert "debug," not in viewer.screen()
