"""--sandbox: each sandboxed bot's memory and processes bounded in total by a control group."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

from racedeck.bots import cgroups
from racedeck.bots.cgroups import PREFIX, Group, bases, leftovers, make_group, sweep
from racedeck.bots.sandbox import Sandbox
from racedeck.bots.sandboxed import sandboxed
from racedeck.bots.subprocess_bot import subprocess_spec
from racedeck.cli.app import main
from racedeck.core.runner import run_match
from tests.bots.helpers import LACORSA, ONE_RACE, RANDOM
from tools.fuzz.attackers import program_source

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap")
needs_cgroups = pytest.mark.skipif(bases() is None, reason="needs a writable cgroup")
LIMIT = 64 << 20


def _groups() -> set[Path]:
    found = bases()
    assert found is not None
    return {f for p in found[1] for f in p.iterdir() if f.name.startswith(PREFIX)}


def _owner(folder: Path) -> int:
    return int(folder.name.removeprefix(PREFIX).split("-")[0])


def _alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists()


@needs_bwrap
@needs_cgroups
def test_a_forking_memory_bomb_is_bounded_in_total_and_its_seat_faulted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    peaks: list[int | None] = []
    remove = Group.remove

    def noting(group: Group) -> None:
        if not group.removed:
            peaks.append(group.peak())
        remove(group)

    monkeypatch.setattr(Group, "remove", noting)
    tmp_path.chmod(0o755)  # the program runs under a user id of its own
    program = tmp_path / "bomb.py"
    program.write_text(program_source("forking-memory-bomb", 9))
    spec = sandboxed(subprocess_spec("bomb", ["python3", str(program)]), Sandbox(memory=LIMIT))
    outcome = run_match(LACORSA, ONE_RACE, [spec, RANDOM], 5, fault_policy="substitute")
    assert outcome.forfeit is None  # the match went on without it
    said = [json.loads(note.text) for note in outcome.debug if note.seat == 0]
    assert all(s["bytes"] <= LIMIT for s in said)
    faults = [f for f in outcome.faults if f.seat == 0]
    assert faults and "--bot-memory in total" in faults[0].reason
    assert peaks and all(p is not None and p <= LIMIT for p in peaks)
    assert leftovers() == []


@needs_bwrap
@needs_cgroups
def test_no_group_is_left_after_a_tournament_of_sandboxed_matches(tmp_path: Path) -> None:
    before = _groups()
    seen: set[Path] = set()
    done = threading.Event()

    def watch() -> None:  # the matches run in spawned workers: their groups show here
        while not done.wait(0.01):
            seen.update(_groups() - before)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        assert (
            main(
                [
                    "tournament",
                    "lacorsa",
                    "--bot",
                    "random",
                    "--bot",
                    "heuristic",
                    "-o",
                    "races=1",
                    "--matches",
                    "3",
                    "--workers",
                    "1",
                    "--db",
                    str(tmp_path / "t.sqlite"),
                    "--sandbox",
                    "--bot-memory",
                    "256M",
                ]
            )
            == 0
        )
    finally:
        done.set()
        watcher.join()
    assert seen  # the bots had groups
    new = _groups() - before
    # Another engine on the machine may hold groups of its own while it runs.
    assert not [g for g in new if _owner(g) == os.getpid() or not _alive(_owner(g))]
    assert leftovers() == []


@needs_bwrap
@needs_cgroups
def test_a_sandboxed_fork_leaves_no_group(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    assert (
        main(
            ["play", "lacorsa", "-s", "random", "-s", "random", "-o", "races=1", "--log", str(log)]
        )
        == 0
    )
    assert (
        main(
            [
                "fork",
                str(log),
                "--at",
                "3",
                "-s",
                "heuristic",
                "-s",
                "random",
                "--log",
                str(tmp_path / "f.jsonl"),
                "--sandbox",
            ]
        )
        == 0
    )
    assert leftovers() == []  # the bots that watched the prefix are closed with the match


@needs_cgroups
def test_a_group_left_by_an_engine_that_is_gone_is_swept() -> None:
    found = bases()
    assert found is not None
    gone = subprocess.Popen(["true"])
    gone.wait()
    stale = [parent / f"{PREFIX}{gone.pid}-0" for parent in found[1]]
    mine = [parent / f"{PREFIX}{os.getpid()}-999999" for parent in found[1]]
    for folder in [*stale, *mine]:
        folder.mkdir()
    try:
        swept = sweep(found[1])
        assert set(stale) <= set(swept) and not any(f.exists() for f in stale)
        assert all(f.exists() for f in mine)  # a living engine's group stays
    finally:
        for folder in [*stale, *mine]:
            if folder.exists():
                folder.rmdir()


@needs_cgroups
def test_a_group_bounds_memory_and_processes_and_goes_with_its_processes() -> None:
    group = make_group(LIMIT, 8)
    assert group is not None
    try:
        child = subprocess.Popen(["sleep", "60"], preexec_fn=group.join)
        assert group.pids() == [child.pid]
        if group.version == 1:
            limit = (group.folders[0] / "memory.limit_in_bytes").read_text()
            processes = (group.folders[1] / "pids.max").read_text()
        else:
            limit = (group.folders[0] / "memory.max").read_text()
            processes = (group.folders[0] / "pids.max").read_text()
        assert int(limit) == LIMIT and int(processes) == 8
    finally:
        group.remove()
    assert child.wait(5) == -9  # killed with its group
    assert not any(f.exists() for f in group.folders)


def test_without_a_writable_cgroup_one_line_says_what_bounds_the_bot(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cgroups, "_state", {"bases": None})
    assert make_group(LIMIT, 32) is None and make_group(LIMIT, 32) is None
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "bounded per process only" in err[0] and "32 processes" in err[0]


def test_cgroup_v2_is_chosen_where_it_offers_memory_and_pids(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A stand-in for a delegated cgroup2 mount: the files the kernel would show.
    own = tmp_path / "engine.slice"
    own.mkdir()
    (tmp_path / "cgroup.controllers").write_text("cpu memory pids\n")
    (own / "cgroup.subtree_control").write_text("memory pids\n")
    monkeypatch.setattr(cgroups, "ROOT", tmp_path)
    monkeypatch.setattr(cgroups, "_own_paths", lambda: {"": "/engine.slice"})
    monkeypatch.setattr(cgroups, "_state", {"swept": True})
    group = make_group(LIMIT, 8)
    assert group is not None and group.version == 2 and group.folders[0].parent == own
    assert (group.folders[0] / "memory.max").read_text() == str(LIMIT)
    assert (group.folders[0] / "pids.max").read_text() == "8"
    cgroups._LIVE.discard(group)
    shutil.rmtree(group.folders[0])
