"""Running tournaments from the command line: results, executors, output, faults, reports."""

from __future__ import annotations

import gzip
import json
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from racedeck.core.errors import EXIT_BAD_INPUT, EXIT_USAGE
from racedeck.core.log import LogReader
from racedeck.tournament.executors import LocalExecutor, MatchStream
from tests.tournament.conftest import PLUGINS, rows, rows_or_none, run_cli

SMALL = ["tournament", "lacorsa", "--bot", "heuristic", "--bot", "random", "-o", "races=1"]


IDENTICAL = [
    *SMALL,
    "--players",
    "3",
    "--format",
    "duplicate",
    "--matches",
    "24",
    "--seed",
    "5",
    "--json",
]


def _run_standings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, extra: list[str]
) -> dict[str, object]:
    code, out, err = run_cli([*IDENTICAL, *extra, "--db", str(tmp_path / f"{name}.sqlite")], capsys)
    assert code == 0, err
    last: dict[str, object] = json.loads(out.splitlines()[-1])
    del last["db"]
    return last


def test_results_are_identical_whatever_the_number_of_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = _run_standings(tmp_path, capsys, "one", ["--workers", "1"])
    two = _run_standings(tmp_path, capsys, "two", ["--workers", "2"])
    reference = rows(tmp_path / "one.sqlite")
    assert len(reference) == 24
    assert rows(tmp_path / "two.sqlite") == reference
    assert one == two


def test_a_local_ray_instance_plays_the_same_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("ray")
    level = logging.getLogger("ray").level
    local = _run_standings(tmp_path, capsys, "local", ["--workers", "2"])
    on_ray = _run_standings(tmp_path, capsys, "ray", ["--executor", "ray", "--workers", "2"])
    assert rows(tmp_path / "ray.sqlite") == rows(tmp_path / "local.sqlite")
    assert on_ray == local
    # Ray's log level is back as it was once the instance is gone.
    assert logging.getLogger("ray").level == level


def test_json_prints_one_line_per_match_then_the_standings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.sqlite"
    code, out, err = run_cli(
        [*SMALL, "--matches", "10", "--workers", "1", "--db", str(db), "--json"], capsys
    )
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["kind"] for line in lines] == ["match"] * 10 + ["standings"]
    assert sorted(line["index"] for line in lines[:-1]) == list(range(10))
    assert lines[-1]["recorded"] == 10 and lines[-1]["complete"]
    assert "matches/s" not in err, "no progress bar when stderr is not a terminal"


def test_the_table_ranks_the_stronger_bot_first_and_shows_seats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(
        [*SMALL, "--matches", "40", "--workers", "1", "--db", str(tmp_path / "t.sqlite")], capsys
    )
    assert code == 0, err
    table = out.splitlines()
    assert table[0].startswith(
        "lacorsa round-robin, 2 players, seed 0: 40 of 40 matches (complete)"
    )
    first_bot_row = next(line for line in table if line.startswith(("heuristic", "random")))
    assert first_bot_row.startswith("heuristic")
    assert any(line.startswith("by seat") for line in table)


def test_the_same_command_continues_its_database_and_another_spec_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = ["--db", str(tmp_path / "t.sqlite"), "--workers", "1"]
    assert run_cli([*SMALL, "--matches", "6", *db], capsys)[0] == 0
    code, _out, err = run_cli([*SMALL, "--matches", "6", *db], capsys)
    assert code == 0 and "6 of 6 matches recorded" in err
    assert len(rows(tmp_path / "t.sqlite")) == 6
    code, _out, err = run_cli([*SMALL, "--matches", "7", *db], capsys)
    assert code == EXIT_USAGE
    assert err.count("\n") == 1 and "holds another tournament" in err


def test_default_database_goes_to_logs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli([*SMALL, "--matches", "4", "--workers", "1"], capsys)
    assert code == 0, err
    [db] = (tmp_path / "logs").glob("tournament-lacorsa-round-robin-seed0-*.sqlite")
    assert f"database: {Path('logs') / db.name}" in out


def test_misbehaving_bots_cost_their_match_and_never_stop_the_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.sqlite"
    bots = ["heuristic", "random", "crasher", "illegal", "slow", "broken"]
    args = [
        "tournament",
        "lacorsa",
        "-o",
        "races=1",
        "--plugins-dir",
        str(PLUGINS),
        "--players",
        "2",
        "--matches",
        "30",
        "--workers",
        "2",
        "--time-limit",
        "0.05",
        "--keep-logs",
        "failures",
        "--db",
        str(db),
        "--json",
    ]
    for bot in bots:
        args += ["--bot", bot]
    code, out, err = run_cli(args, capsys)
    assert code == 0, err
    matches = [json.loads(line) for line in out.splitlines()[:-1]]
    assert len(matches) == 30 and len(rows(db)) == 30
    for m in matches:
        seats = m["seats"]
        if "broken" in seats:
            # A bot that cannot be made is its seat's fault, not a match nobody counts.
            assert m["status"] == "forfeit" and "cannot start" in m["reason"], m
            assert seats[m["fault_seat"]] == "broken"
            continue
        culprits = [s for s, bot in enumerate(seats) if bot in ("crasher", "illegal", "slow")]
        if not culprits:
            assert m["status"] == "ok" and m["log"] == ""
            continue
        assert m["status"] == "forfeit" and m["fault_seat"] == culprits[0]
        reason = {"crasher": "RuntimeError: boom", "illegal": "illegal action", "slow": "time"}[
            seats[culprits[0]]
        ]
        assert reason in m["reason"], m["reason"]
        assert m["ranks"][m["fault_seat"]] == 2
        with LogReader(m["log"]) as reader:
            assert sum(1 for entry in reader if entry.fault is not None) >= 1
            assert reader.result is not None and reader.result.forfeit is not None
    code, out, err = run_cli(["tournament", "report", str(db)], capsys)
    assert code == 0, err
    assert "forfeited" in out and "0 failed to play" in out


def test_report_writes_a_self_contained_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.sqlite"
    assert run_cli([*SMALL, "--matches", "20", "--workers", "1", "--db", str(db)], capsys)[0] == 0
    page = tmp_path / "out" / "report.html"
    code, _out, err = run_cli(["tournament", "report", str(db), "--html", str(page)], capsys)
    assert code == EXIT_BAD_INPUT and "No such file or directory" in err  # as html -o does
    page.parent.mkdir()
    code, _out, err = run_cli(["tournament", "report", str(db), "--html", str(page)], capsys)
    assert code == 0, err
    text = page.read_text()
    assert "Content-Security-Policy" in text and "script-src" not in text
    assert text.count("<svg") == 2 and "<polyline" in text and "<rect" in text
    assert "heuristic" in text and "mean points ↑ (95% CI)" in text
    assert "<script" not in text and "http://" not in text.replace(
        'xmlns="http://www.w3.org/2000/svg"', ""
    )
    assert not list(page.parent.glob("*.partial"))


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        ([*SMALL, "--bot", "nobody"], EXIT_BAD_INPUT, "unknown bot 'nobody'"),
        ([*SMALL, "--format", "swiss"], EXIT_USAGE, "--format must be one of"),
        ([*SMALL, "--keep-logs", "some"], EXIT_USAGE, "--keep-logs must be one of"),
        ([*SMALL, "--workers", "0"], EXIT_USAGE, "--workers must be at least 1"),
        ([*SMALL, "--players", "9"], EXIT_BAD_INPUT, "takes 2 to 6 players"),
        (
            ["tournament", "lacorsa", "--bot", "random", "--bot", "random"],
            EXIT_USAGE,
            "name each --bot once",
        ),
        (["tournament", "report", "nowhere.sqlite"], EXIT_BAD_INPUT, "no such tournament database"),
        (["tournament", "resume", "nowhere.sqlite"], EXIT_BAD_INPUT, "no such tournament database"),
    ],
)
def test_bad_input_is_one_line_and_a_distinct_exit_code(
    args: list[str], code: int, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    got, _out, err = run_cli(
        [
            *args,
            *([] if "report" in args or "resume" in args else ["--db", str(tmp_path / "x.sqlite")]),
        ],
        capsys,
    )
    assert got == code and words in err and err.count("\n") == 1, err
    assert not (tmp_path / "x.sqlite").exists()


def test_no_more_workers_are_started_than_matches_to_play() -> None:
    """A local pool starts all its workers at once: ``--workers 100000`` for a run of a few
    matches must not start a hundred thousand processes, only as many as there are matches."""
    from racedeck.tournament.plan import make_executor

    with make_executor("local", 100_000, most=3) as running:
        assert running.workers == 3
    with make_executor("local", 2, most=50) as running:
        assert running.workers == 2


def test_a_gate_names_its_own_option_for_too_few_matches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["gate", "lacorsa", "--candidate", "heuristic", "--baseline", "random"]
    code, _out, err = run_cli([*args, "--max-matches", "0"], capsys)
    assert code == EXIT_USAGE and "--max-matches must be at least 1" in err, err


def test_a_pool_has_every_worker_before_any_match_so_a_dying_one_races_no_start() -> None:
    # Started one at a time as work came, a worker could start just as a bot took another
    # down: CPython's clean-up of the broken pool then died iterating its workers, and the
    # new worker died unpickling the queue the clean-up had closed, each with a traceback.
    executor = LocalExecutor(2)
    try:
        assert not executor._pool._processes, "nothing to play yet: no worker started"
        assert executor._submit(os.getpid).result(timeout=60) > 0
        assert len(executor._pool._processes) == 2
        executor._restart()  # what a broken pool gets
        assert executor._submit(os.getpid).result(timeout=60) > 0
        assert len(executor._pool._processes) == 2
    finally:
        executor.close()


@pytest.mark.parametrize("executor", ["local", "ray"])
def test_ctrl_c_stops_with_exit_130_and_says_how_to_resume(tmp_path: Path, executor: str) -> None:
    if executor == "ray":
        pytest.importorskip("ray")
    db = tmp_path / "t.sqlite"
    command = [
        sys.executable,
        "-m",
        "racedeck",
        *SMALL,
        "--matches",
        "100000",
        "--workers",
        "2",
        "--executor",
        executor,
        "--db",
        str(db),
    ]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        # A suite started in the background inherits an ignored SIGINT; Ctrl-C must land.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while not rows_or_none(db) and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)  # what a terminal does on Ctrl-C
    asked = time.monotonic()
    out, err = process.communicate(timeout=60)
    took = time.monotonic() - asked
    assert process.returncode == 130, err.decode()
    # About a second; a local Ray instance takes a second or so more to shut down.
    assert took < (3.0 if executor == "local" else 6.0), f"stopping took {took:.1f} s"
    saved = [row[0] for row in rows(db)]
    told = (
        "match finished in this run and is"
        if len(saved) == 1
        else ("matches finished in this run and are")
    )
    assert err.decode().strip().splitlines()[-1] == (
        f"racedeck: error: interrupted; {len(saved)} {told}"
        f" saved ({len(saved)} of 100000 in all), resume with: racedeck tournament resume {db}"
    )
    assert saved and len(saved) < 100000 and out == b""
    # Nothing else went wrong on the way out: no worker's traceback, no leaked semaphore,
    # and nothing but racedeck's line (a local Ray instance's own warnings are held back)
    # and, before it, the run's estimate of what it would cost.
    told_lines = [line for line in err.decode().splitlines() if not line.startswith("estimate: ")]
    assert len(told_lines) == 1, err.decode()


def test_ctrl_c_in_the_middle_of_reading_a_match_tears_and_loses_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A message is a length, then the pickle, each read by its own system call; Ctrl-C
    # between the two once left the pickle in the pipe, and stop's read took it for a
    # length: "Ran out of input", and the run ended "aborted" with exit 1, not 130.
    stream = MatchStream(multiprocessing.get_context("spawn"))
    sent = [f"match {index}" for index in range(3)]
    writer, _lock = stream.worker_end()
    for match in sent:
        writer.send(match)
    reads: list[int] = []
    read = multiprocessing.connection.Connection._recv  # type: ignore[attr-defined]

    def interrupted_read(connection: object, size: int) -> object:
        reads.append(size)
        if len(reads) == 4:  # the second match's pickle, after its length
            signal.raise_signal(signal.SIGINT)
        return read(connection, size)

    monkeypatch.setattr(multiprocessing.connection.Connection, "_recv", interrupted_read)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            stream.drain()
        assert len(reads) == 6  # every message was read whole before Ctrl-C was let through
        assert stream.drain() == sent
    finally:
        signal.signal(signal.SIGINT, previous)
        stream.close()


# The pool's manager thread dying as it cleans up after the bot is a failure, not a warning.
@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_bot_that_kills_its_worker_costs_its_match_only(
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
        "heuristic",
        "--bot",
        "random",
        "--bot",
        "exiter",
        "--players",
        "2",
        "--matches",
        "24",
        "--workers",
        "2",
        "--db",
        str(db),
        "--json",
    ]
    code, out, err = run_cli(args, capsys)
    assert code == 0, err
    matches = [json.loads(line) for line in out.splitlines()[:-1]]
    assert sorted(m["index"] for m in matches) == list(range(24))
    for m in matches:
        if "exiter" in m["seats"]:
            # Played again with every bot in a process of its own: the exiter's seat is
            # at fault, and the match counts like any other forfeit.
            assert m["status"] == "forfeit" and "exited (code 3)" in m["reason"], m
            assert m["seats"][m["fault_seat"]] == "exiter"
        else:
            assert m["status"] == "ok"


def test_a_pool_that_breaks_while_a_batch_is_submitted_loses_no_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker's death can close the pool's wake-up pipe while the next batch goes in.

    CPython 3.11 then raises ``OSError: handle is closed`` from ``submit`` and from
    ``shutdown`` rather than ``BrokenProcessPool``; it once ended a tournament with an
    internal error. Both are forced here, once each: every match is still played, and
    the standings are those of a run the pool never failed.
    """
    from concurrent.futures import ProcessPoolExecutor

    calm = _run_standings(tmp_path, capsys, "calm", ["--workers", "2"])
    submit, shutdown = ProcessPoolExecutor.submit, ProcessPoolExecutor.shutdown
    forced = {"submit": 0, "shutdown": 0}

    def closing_submit(self: ProcessPoolExecutor, *args: object, **kwargs: object) -> object:
        forced["submit"] += 1
        if forced["submit"] == 2:
            raise OSError("handle is closed")
        return submit(self, *args, **kwargs)  # type: ignore[arg-type]

    def closing_shutdown(self: ProcessPoolExecutor, wait: bool = True, **kwargs: bool) -> None:
        forced["shutdown"] += 1
        if forced["shutdown"] == 1:
            shutdown(self, wait=False, **kwargs)
            raise OSError("handle is closed")
        shutdown(self, wait=wait, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", closing_submit)
    monkeypatch.setattr(ProcessPoolExecutor, "shutdown", closing_shutdown)
    stormy = _run_standings(tmp_path, capsys, "stormy", ["--workers", "2"])
    assert forced["submit"] > 2 and forced["shutdown"] > 1, "the pool was broken and restarted"
    assert stormy == calm


@pytest.mark.parametrize(("compression", "suffix"), [("gzip", ".jsonl.gz"), ("none", ".jsonl")])
def test_kept_logs_come_home_the_same_bytes_with_any_workers_and_replay_verified(
    compression: str, suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for workers in ("1", "2"):
        db = tmp_path / f"w{workers}.sqlite"
        code, _out, err = run_cli(
            [
                *SMALL,
                "--matches",
                "6",
                "--workers",
                workers,
                "--keep-logs",
                "all",
                "--log-compression",
                compression,
                "--db",
                str(db),
            ],
            capsys,
        )
        assert code == 0, err
    one = sorted((tmp_path / "w1-logs").glob("match-*"))
    two = sorted((tmp_path / "w2-logs").glob("match-*"))
    assert [p.name for p in one] == [f"match-{i:07d}{suffix}" for i in range(6)]
    assert [p.read_bytes() for p in one] == [p.read_bytes() for p in two]
    assert [row[-1] for row in rows(tmp_path / "w1.sqlite")] == [str(p) for p in one]
    code, out, err = run_cli(["replay", str(one[3]), "--verify"], capsys)
    assert code == 0, err
    assert "verified" in out


def test_a_compressed_kept_log_holds_the_bytes_of_the_plain_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = {}
    for compression in ("gzip", "none"):
        db = tmp_path / f"{compression}.sqlite"
        args = [*SMALL, "--matches", "3", "--workers", "1", "--keep-logs", "all"]
        code, _out, err = run_cli(
            [*args, "--log-compression", compression, "--db", str(db)], capsys
        )
        assert code == 0, err
        kept[compression] = sorted((tmp_path / f"{compression}-logs").glob("match-*"))
    packed = [gzip.decompress(p.read_bytes()) for p in kept["gzip"]]
    assert packed == [p.read_bytes() for p in kept["none"]]
