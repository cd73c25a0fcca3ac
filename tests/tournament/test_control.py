"""The engine's control stays the engine's: resume, locks, full disks, long names, plugins."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from racedeck.cli.app import main
from racedeck.tournament.store import Store

TOURNAMENT = [
    "tournament",
    "lacorsa",
    "--bot",
    "random",
    "--bot",
    "heuristic",
    "--matches",
    "2",
    "-o",
    "races=1",
]


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    capsys.readouterr()
    code = main(args)
    return code, capsys.readouterr().err.strip().splitlines()


def test_a_second_resume_of_a_running_tournament_stops_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.sqlite"
    assert _run([*TOURNAMENT, "--matches", "4", "--db", str(db)], capsys)[0] == 0
    with Store.open(db, lock=True) as store:  # as a resume that is playing holds it
        before = store.count()
        code, err = _run(["tournament", "resume", str(db)], capsys)
        assert code == 3 and len(err) == 1 and "another racedeck is playing" in err[0]
        assert store.count() == before
    assert _run(["tournament", "resume", str(db)], capsys)[0] == 0


def test_resume_starts_no_program_its_command_line_does_not_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    started = tmp_path / "started"
    program = tmp_path / "bot.py"
    program.write_text(
        "import json, sys\n"
        f"open({str(started)!r}, 'a').write('x')\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'end':\n"
        "        break\n"
        "    print(json.dumps({'type': 'ready'} if m['type'] == 'start' else {'choice': 0}),"
        " flush=True)\n"
    )
    name = f"cmd:{sys.executable} {program}"
    db = tmp_path / "t.sqlite"
    args = [
        "tournament",
        "lacorsa",
        "--bot",
        name,
        "--bot",
        "random",
        "-o",
        "races=1",
        "--matches",
        "2",
        "--db",
        str(db),
    ]
    assert _run(args, capsys)[0] == 0
    started.unlink()
    with Store.open(db) as store:
        store._db.execute("DELETE FROM matches")
        store._db.commit()
    code, err = _run(["tournament", "resume", str(db)], capsys)
    assert code == 2 and len(err) == 1
    assert "--program" in err[0] and "resuming starts it" in err[0]
    assert not started.exists()
    assert _run(["tournament", "resume", str(db), "--program", name], capsys)[0] == 0
    assert started.exists()


def test_db_memory_is_refused_and_leaves_no_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, err = _run([*TOURNAMENT, "--db", ":memory:"], capsys)
    assert code == 3 and len(err) == 1 and ":memory:" in err[0]
    assert os.listdir(tmp_path) == [] or os.listdir(tmp_path) == ["logs"]
    assert not (tmp_path / ":memory:").exists()


def test_a_db_name_too_long_for_the_system_is_one_line_exit_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = _run([*TOURNAMENT, "--db", str(tmp_path / ("d" * 300 + ".sqlite"))], capsys)
    assert code == 3 and len(err) == 1 and "too long" in err[0]


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A folder on a 64 KiB file system that is already full (needs root to mount it)."""
    folder = tmp_path / "full"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip("cannot mount a small file system here")
    try:
        with contextlib.suppress(OSError), open(folder / "filler", "wb") as handle:
            handle.write(b"x" * (1 << 20))
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


def test_a_full_disk_under_the_log_is_one_line_exit_3(
    full_disk: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = full_disk / "m.jsonl"
    args = ["play", "famous-500", "-s", "random", "-s", "random", "--log", str(log)]
    code, err = _run(args, capsys)
    assert code == 3 and len(err) == 1 and "No space left" in err[0]
    assert sorted(p.name for p in full_disk.iterdir()) == ["filler"]


def test_a_full_disk_under_the_database_is_one_line_exit_3(
    full_disk: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = _run([*TOURNAMENT, "--db", str(full_disk / "t.sqlite")], capsys)
    assert code == 3 and len(err) == 1


def test_a_plugin_that_exits_at_import_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "quitter.py").write_text("import sys\nsys.exit(5)\n")
    code, err = _run(["bots", "--plugins-dir", str(tmp_path)], capsys)
    assert code == 3 and len(err) == 1
    assert "quitter.py" in err[0] and "sys.exit(5)" in err[0]
