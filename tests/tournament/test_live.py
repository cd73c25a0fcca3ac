"""Results per match, live: streamed from the workers, committed as they come, Ctrl-C quick."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from racedeck.plugins import load_registry
from racedeck.tournament.executors import LocalExecutor
from racedeck.tournament.plan import plan_tournament, with_log_dir
from racedeck.tournament.progress import ProgressLines, ReportEvery, parse_report_every
from racedeck.tournament.record import MatchRecord
from racedeck.tournament.store import Store
from tests.tournament.conftest import PLUGINS, rows, rows_or_none

SEARCH = [
    "tournament",
    "lacorsa",
    "--bot",
    "ismcts-fast",
    "--bot",
    "heuristic",
    "--players",
    "2",
    "-o",
    "races=1",
    "--seed",
    "3",
]


def _hear_ctrl_c() -> None:
    """Undo an inherited SIG_IGN (a suite started in the background): Ctrl-C must reach it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _racedeck(args: list[str], **kwargs: object) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "racedeck", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=_hear_ctrl_c,
        **kwargs,  # type: ignore[call-overload]
    )


def test_a_worker_hands_back_each_match_of_a_batch_as_it_finishes() -> None:
    spec = plan_tournament(
        load_registry(),
        "lacorsa",
        ["heuristic", "random"],
        matches=8,
        seed=1,
    )
    with LocalExecutor(1) as executor:
        handed = [len(played) for played in executor.run(spec, [list(range(8))]) if played]
    assert sum(handed) == 8
    # The first matches do not wait for the rest of their batch.
    assert len(handed) > 1 and handed[0] < 8


def test_ctrl_c_stops_within_about_a_second_and_keeps_and_counts_every_finished_match(
    tmp_path: Path,
) -> None:
    db = tmp_path / "t.sqlite"
    process = _racedeck([*SEARCH, "--matches", "400", "--workers", "2", "--db", str(db)])
    deadline = time.monotonic() + 120
    while not rows_or_none(db) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert rows_or_none(db), "no match finished within two minutes"
    os.killpg(process.pid, signal.SIGINT)  # what a terminal does on Ctrl-C
    asked = time.monotonic()
    _out, err = process.communicate(timeout=60)
    took = time.monotonic() - asked
    assert process.returncode == 130
    saved = len(rows(db))
    last = err.decode().strip().splitlines()[-1]
    told = (
        f"{saved} match finished in this run and is"
        if saved == 1
        else (f"{saved} matches finished in this run and are")
    )
    assert last == (
        f"racedeck: error: interrupted; {told} saved"
        f" ({saved} of 400 in all), resume with: racedeck tournament resume {db}"
    )
    assert took < 3.0, f"stopping took {took:.1f} s"


def test_a_second_ctrl_c_loses_nothing_that_was_committed(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    process = _racedeck([*SEARCH, "--matches", "400", "--workers", "2", "--db", str(db), "--json"])
    deadline = time.monotonic() + 120
    while len(rows_or_none(db) or []) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)
    time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)
    out, _err = process.communicate(timeout=60)
    # The second Ctrl-C may land after the command's own handler: killed by SIGINT then.
    assert process.returncode in (130, -signal.SIGINT)
    # With --json the interruption itself is reported as an error object on stdout too.
    lines = [json.loads(line) for line in out.splitlines()]
    reported = [line["index"] for line in lines if line["kind"] == "match"]
    assert all(line["kind"] in ("match", "error") for line in lines)
    saved = [row[0] for row in rows(db)]
    # Every match --json reported was committed first; none is lost by the second Ctrl-C.
    assert reported and set(reported) <= set(saved)


def test_off_a_terminal_report_every_writes_plain_lines_while_it_runs(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    process = _racedeck(
        [
            "tournament",
            "lacorsa",
            "--bot",
            "heuristic",
            "--bot",
            "random",
            "-o",
            "races=1",
            "--matches",
            "12",
            "--workers",
            "1",
            "--report-every",
            "4",
            "--json",
            "--db",
            str(db),
        ]
    )
    assert process.stderr is not None and process.stdout is not None
    first = process.stderr.readline().decode()
    # A run with seconds to go says first what it will cost (on a slow machine).
    estimate = first if first.startswith("estimate: ") else ""
    if estimate:
        first = process.stderr.readline().decode()
    running = process.poll() is None
    rest = process.stderr.read().decode()
    out = process.stdout.read()
    assert process.wait(timeout=120) == 0, rest
    assert first.startswith("progress: 4/12 matches (33%)") and "wins: " in first
    assert running, "the first progress line came only at the end"
    lines = [first, *rest.splitlines()]
    assert not estimate or re.fullmatch(
        r"estimate: [\d.,]+ s a match \(from the first \d+ of this run\); \d+ more on 1 worker:"
        r" about [\d:]+",
        estimate.strip(),
    )
    assert [line.split(" matches")[0] for line in lines if line.strip()] == [
        "progress: 4/12",
        "progress: 8/12",
        "progress: 12/12",
    ]
    # stdout keeps its JSON: one line a match, then the standings.
    kinds = [json.loads(line)["kind"] for line in out.splitlines()]
    assert kinds == ["match"] * 12 + ["standings"]


def test_report_every_takes_matches_or_seconds_and_refuses_anything_else() -> None:
    assert parse_report_every("50") == ReportEvery(matches=50)
    assert parse_report_every("30s") == ReportEvery(seconds=30.0)
    for bad in ("0", "ten", "-3", "1.5", "5m"):
        with pytest.raises(Exception, match="--report-every"):
            parse_report_every(bad)


def test_progress_lines_count_wins_and_unplayable_matches() -> None:
    import io

    stream = io.StringIO()
    lines = ProgressLines(3, 0, stream, ReportEvery(matches=2))
    ok = MatchRecord(index=0, seed=1, deal=0, seats=("a", "b"), status="ok", ranks=(1, 2))
    lines.record(ok)
    lines.record(MatchRecord(index=1, seed=1, deal=0, seats=("a", "b"), status="error"))
    lines.record(ok)
    lines.close()
    text = stream.getvalue().splitlines()
    assert text[0].startswith("progress: 2/3 matches (67%)")
    assert text[0].endswith("wins: a 1, b 0; 1 unplayable")
    assert text[1].startswith("progress: 3/3 matches (100%)")


def test_resume_says_in_one_line_which_bot_changed_version_before_playing(
    tmp_path: Path,
) -> None:
    db = tmp_path / "t.sqlite"
    spec = plan_tournament(
        load_registry(PLUGINS),
        "lacorsa",
        ["skewed", "random"],
        matches=4,
        seed=1,
        options={"races": 1},
        plugins_dir=PLUGINS,
    )
    assert spec.bot_versions["skewed"] == "1"
    Store.create(db, with_log_dir(spec, db)).close()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "racedeck",
            "tournament",
            "resume",
            str(db),
            "--workers",
            "1",
            "--plugins-dir",
            str(PLUGINS),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "RACEDECK_TEST_SKEW": "2"},
    )
    assert done.returncode == 3
    assert done.stderr == (
        f"racedeck: error: cannot resume {db}: bot 'skewed' loads at version 2,"
        " the tournament recorded version 1\n"
    )
    assert rows(db) == []


def test_the_bar_shows_itself_before_the_first_match_ends() -> None:
    import io

    from racedeck.tournament.progress import ProgressBar

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Terminal()
    bar = ProgressBar(total=10, done=0, stream=stream)
    try:
        shown = stream.getvalue()
        assert "0/10 matches" in shown and "--:-- left" in shown
        assert "first match running" in shown and "elapsed 00:00" in shown
    finally:
        bar.close()


def test_ctrl_c_stops_the_gate_without_waiting_for_its_matches(tmp_path: Path) -> None:
    process = _racedeck(
        [
            "gate",
            "lacorsa",
            "--candidate",
            "ismcts-fast",
            "--baseline",
            "heuristic",
            "-o",
            "races=1",
            "--workers",
            "2",
            "--report-every",
            "2",
            "--json",
        ]
    )
    assert process.stdout is not None
    first = process.stdout.readline()  # a match line: the gate is under way
    assert json.loads(first)["kind"] == "match"
    assert process.stderr is not None
    os.killpg(process.pid, signal.SIGINT)
    asked = time.monotonic()
    out = process.stdout.read()
    err = process.stderr.read()
    assert process.wait(timeout=60) == 130
    took = time.monotonic() - asked
    assert json.loads(out.splitlines()[-1])["kind"] == "error"
    assert err.decode().splitlines()[-1] == "racedeck: interrupted"
    assert took < 3.0, f"stopping took {took:.1f} s"
