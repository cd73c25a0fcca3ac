"""Diagnostics: structured events from the engine, readable or JSON, structlog loaded only to
write one."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from racedeck.core import diagnostics

SRC = Path(__file__).resolve().parents[2] / "src"
TOURNAMENT = [
    "tournament",
    "lacorsa",
    "--bot",
    "heuristic",
    "--bot",
    "random",
    "-o",
    "races=1",
    "--matches",
    "4",
    "--workers",
    "1",
]


@pytest.fixture(autouse=True)
def restored() -> Iterator[None]:
    yield
    diagnostics.configure()


def racedeck(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "racedeck", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(SRC)},
        check=True,
    )


def modules(stderr: str) -> set[str]:
    return {
        line.rsplit("|", 1)[1].strip()
        for line in stderr.splitlines()
        if line.startswith("import time:")
    }


def test_events_below_the_level_cost_nothing_and_the_rest_are_json_or_text() -> None:
    stream = io.StringIO()
    diagnostics.configure(diagnostics.INFO, json=True, stream=stream)
    log = diagnostics.get_logger(component="driver").bind(db="t.sqlite")
    log.debug("committed", matches=3)
    log.info("tournament playing", missing=4)
    [line] = stream.getvalue().splitlines()
    event = json.loads(line)
    assert event["event"] == "tournament playing" and event["level"] == "info"
    assert (event["component"], event["db"], event["missing"]) == ("driver", "t.sqlite", 4)
    readable = io.StringIO()
    diagnostics.configure(diagnostics.WARNING, stream=readable)
    log.info("not written")
    log.warning("worker pool broke; restarting it", matches_to_isolate=2)
    text = readable.getvalue()
    assert "worker pool broke; restarting it" in text and "matches_to_isolate=2" in text
    assert "not written" not in text and not text.lstrip().startswith("{")


def test_a_quiet_run_never_imports_structlog(tmp_path: Path) -> None:
    run = racedeck(*TOURNAMENT, "--db", str(tmp_path / "t.sqlite"))
    assert "structlog" not in modules(run.stderr)


def test_debug_and_log_json_give_the_drivers_events_as_json_lines(tmp_path: Path) -> None:
    run = racedeck("--debug", "--log-json", *TOURNAMENT, "--db", str(tmp_path / "t.sqlite"))
    every = [json.loads(line) for line in run.stderr.splitlines() if line.startswith("{")]
    assert {e["component"] for e in every} == {"driver", "executor", "worker"}
    events = [e for e in every if e["component"] == "driver"]
    names = [e["event"] for e in events]
    assert names[0] == "tournament playing" and names[-1] == "tournament stopped"
    assert "committed" in names
    assert events[0]["missing"] == 4 and events[-1]["recorded"] == 4


FAULTY = [
    "tournament",
    "lacorsa",
    "-o",
    "races=1",
    "--plugins-dir",
    str(Path(__file__).resolve().parents[1] / "tournament" / "plugins"),
    "--players",
    "2",
    "--bot",
    "heuristic",
    "--bot",
    "crasher",
    "--bot",
    "slow",
    "--matches",
    "6",
    "--workers",
    "1",
    "--time-limit",
    "0.05",
]


def test_debug_json_names_a_bots_fault_and_its_isolation_kill_quiet_runs_say_nothing_new(
    tmp_path: Path,
) -> None:
    run = racedeck("--debug", "--log-json", *FAULTY, "--db", str(tmp_path / "a.sqlite"))
    events = [json.loads(line) for line in run.stderr.splitlines() if line.startswith("{")]
    faulted = [e for e in events if e["event"] == "match faulted"]
    assert any("RuntimeError: boom" in e["reason"] for e in faulted), faulted
    assert all(e["component"] == "worker" and e["status"] == "forfeit" for e in faulted)
    killed = [e for e in events if e["event"] == "bot killed for its time limit"]
    assert killed and all(e["component"] == "isolation" and e["limit"] == 0.05 for e in killed)
    started = [e for e in events if e["event"] == "worker started"]
    assert len(started) == 1 and started[0]["pid"] > 0
    assert {"worker pool started", "worker ended"} <= {e["event"] for e in events}
    quiet = racedeck(*FAULTY, "--db", str(tmp_path / "b.sqlite"))
    assert "structlog" not in modules(quiet.stderr)
    said = [line for line in quiet.stderr.splitlines() if not line.startswith("import time:")]
    assert said == []
