"""A tournament killed with SIGKILL in the middle of a run resumes, losing and repeating nothing."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from racedeck.tournament.store import Store
from racedeck.tournament.worker import run_batch
from tests.tournament.conftest import rows, run_cli

MATCHES = 1200


def _count(db: Path) -> int:
    if not db.exists():
        return 0
    with contextlib.closing(sqlite3.connect(db)) as connection:
        try:
            return int(connection.execute("SELECT COUNT(*) FROM matches").fetchone()[0])
        except sqlite3.Error:
            return 0


def test_kill_9_in_the_middle_then_resume_loses_and_repeats_no_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.sqlite"
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
        str(MATCHES),
        "--workers",
        "2",
        "--seed",
        "11",
        "--db",
        str(db),
    ]
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 60
        while _count(db) < 150 and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert process.poll() is None, "the tournament ended before it could be killed"
        os.kill(process.pid, signal.SIGKILL)
        assert process.wait(timeout=10) == -signal.SIGKILL
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # the orphaned workers
    before = rows(db)
    assert 150 <= len(before) < MATCHES
    code, out, err = run_cli(["tournament", "resume", str(db), "--workers", "2", "--json"], capsys)
    assert code == 0, err
    replayed = [json.loads(line)["index"] for line in out.splitlines()[:-1]]
    done_before = {row[0] for row in before}
    assert sorted(replayed) == sorted(set(range(MATCHES)) - done_before), "exactly the missing ones"
    after = rows(db)
    assert [row[0] for row in after] == list(range(MATCHES))
    assert set(before) <= set(after), "nothing recorded before the kill changed"
    with Store.open(db) as store:
        spec = store.spec
    sample = sorted(replayed)[:20] + [row[0] for row in before[:5]]
    expected = {m.record.index: m.record for m in run_batch(spec, sample)}
    with Store.open(db) as store:
        by_index = {r.index: r for r in store.records() if r.index in expected}
    assert by_index == expected, "a resumed match is the match the schedule says"
