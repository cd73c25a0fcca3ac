"""A stopped tournament leaves no process behind; resuming a database runs no code unasked."""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from racedeck.core.errors import EXIT_USAGE
from tests.tournament.conftest import rows, run_cli
from tools.fuzz.hostile import PLUGIN

PLUGINS = Path(__file__).parent / "plugins"


def _count(db: Path) -> int:
    if not db.exists():
        return 0
    with contextlib.closing(sqlite3.connect(db)) as connection:
        try:
            return int(connection.execute("SELECT COUNT(*) FROM matches").fetchone()[0])
        except sqlite3.Error:
            return 0


def _session(sid: int) -> list[int]:
    """The live processes of session ``sid`` (zombies are dead)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z" and int(fields[4]) == sid:
            found.append(int(entry))
    return found


def _tournament(db: Path) -> subprocess.Popen[bytes]:
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
        "100000",
        "--workers",
        "2",
        "--db",
        str(db),
    ]
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )
    deadline = time.monotonic() + 60
    while _count(db) < 20 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert process.poll() is None, "the tournament ended before it could be stopped"
    return process


def _gone(sid: int, within: float) -> list[int]:
    deadline = time.monotonic() + within
    while _session(sid) and time.monotonic() < deadline:
        time.sleep(0.1)
    return _session(sid)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_a_stopped_tournament_leaves_no_worker_behind(tmp_path: Path, sig: int) -> None:
    db = tmp_path / "t.sqlite"
    process = _tournament(db)
    try:
        os.kill(process.pid, sig)
        code = process.wait(timeout=30)
        left = _gone(process.pid, within=15)
        assert left == [], f"processes left in the tournament's session: {left}"
        if sig == signal.SIGTERM:
            assert process.stderr is not None
            said = process.stderr.read()
            # What the tournament said goes into the message: a wrong ending names its cause.
            assert code == 130, said.decode(errors="replace")[-2000:]
            assert b"resume with: racedeck tournament resume" in said
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    assert _count(db) >= 20


def test_resume_runs_a_stored_plugins_folder_only_when_told_to(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.sqlite"
    args = [
        "tournament",
        "lacorsa",
        "-o",
        "races=1",
        "--plugins-dir",
        str(PLUGINS),
        "--bot",
        "random",
        "--bot",
        "where",
        "--players",
        "2",
        "--matches",
        "4",
        "--workers",
        "1",
        "--db",
        str(db),
    ]
    assert run_cli(args, capsys)[0] == 0
    with contextlib.closing(sqlite3.connect(db)) as connection:
        connection.execute("DELETE FROM matches WHERE idx >= 2")
        connection.commit()
    code, _out, err = run_cli(["tournament", "resume", str(db), "--workers", "1"], capsys)
    assert code == EXIT_USAGE and f"--plugins-dir {PLUGINS}" in err
    assert len(rows(db)) == 2, "nothing was played, no plugin was loaded"
    other = tmp_path / "other"
    other.mkdir()
    code, _out, err = run_cli(
        ["tournament", "resume", str(db), "--workers", "1", "--plugins-dir", str(other)], capsys
    )
    assert code == EXIT_USAGE and "is not the folder" in err
    code, _out, err = run_cli(
        ["tournament", "resume", str(db), "--workers", "1", "--plugins-dir", str(PLUGINS)], capsys
    )
    assert code == 0, err
    assert len(rows(db)) == 4


def test_a_bot_that_leaves_a_thread_running_does_not_hang_a_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "hostile_bots.py").write_text(PLUGIN)
    args = [
        "tournament",
        "lacorsa",
        "-o",
        "races=1",
        "--plugins-dir",
        str(plugins),
        "--bot",
        "random",
        "--bot",
        "hostile-thread",
        "--players",
        "2",
        "--matches",
        "4",
        "--workers",
        "2",
        "--db",
        str(tmp_path / "t.sqlite"),
    ]
    start = time.monotonic()
    code, _out, err = run_cli(args, capsys)
    assert code == 0, err
    assert time.monotonic() - start < 60


def test_a_stopped_tournament_leaves_no_process_a_bots_program_started(tmp_path: Path) -> None:
    """Stopping the pool ends its workers mid-match: the bot's program died with its worker,
    but what the program had started (here a ``sleep``) ran on. A worker now ends all it
    began before itself."""
    marker = tmp_path / "child"
    bot = tmp_path / "starter.py"
    bot.write_text(
        "import json, subprocess, sys, time\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'start':\n"
        "        print(json.dumps({'type': 'ready'}), flush=True)\n"
        "    elif m['type'] == 'act':\n"
        "        child = subprocess.Popen(['sleep', '300'])\n"
        f"        open({str(marker)!r}, 'a').write(str(child.pid) + '\\n')\n"
        "        time.sleep(300)\n"
    )
    db = tmp_path / "t.sqlite"
    command = [sys.executable, "-m", "racedeck", "tournament", "lacorsa"]
    command += ["--bot", f"cmd:{sys.executable} {bot}", "--bot", "heuristic", "-o", "races=1"]
    command += ["--matches", "4", "--workers", "2", "--db", str(db)]
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 60
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.2)
        children = [int(pid) for pid in marker.read_text().split()]
        os.kill(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
        deadline = time.monotonic() + 10
        alive = children
        while alive and time.monotonic() < deadline:
            time.sleep(0.1)
            alive = [pid for pid in children if Path(f"/proc/{pid}").exists() and not _zombie(pid)]
        assert alive == [], f"the program's children outlived the tournament: {alive}"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        for pid in [int(p) for p in marker.read_text().split()] if marker.exists() else []:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True
