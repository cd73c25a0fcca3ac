"""A program's own name and version: in the log header, in the tournament, checked on resume."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from racedeck.bots.identify import identified
from racedeck.cli.app import main
from racedeck.tournament.store import Store
from tests.bots.helpers import LACORSA, RANDOM, REGISTRY, play


def _program(folder: Path, version: str) -> str:
    """Write a protocol-2 program naming itself ``tester`` at ``version``; return its seat."""
    path = folder / "tester.py"
    path.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'start':\n"
        "        print(json.dumps({'type': 'ready', 'protocol': 2, 'name': 'tester',\n"
        f"                          'version': {version!r}}}), flush=True)\n"
        "    elif m['type'] == 'act':\n"
        "        print(json.dumps({'decision': m['decision'], 'choice': 0}), flush=True)\n"
        "    else:\n"
        "        break\n"
    )
    return f"cmd:{sys.executable} {path}"


def test_the_log_header_records_the_program_by_its_own_name_and_version(
    tmp_path: Path,
) -> None:
    seat = _program(tmp_path, "2.5")
    log = tmp_path / "m.jsonl"
    assert (
        main(["play", "lacorsa", "-s", seat, "-s", "random", "-o", "races=1", "--log", str(log)])
        == 0
    )
    header = json.loads(log.read_text().splitlines()[0])
    assert header["seats"][0] == {"bot": seat, "version": "tester 2.5"}
    assert header["seats"][1]["version"] == "1"


def test_a_program_that_changes_its_version_after_planning_faults_at_its_start(
    tmp_path: Path,
) -> None:
    seat = _program(tmp_path, "1.0")
    spec = identified(REGISTRY.bot(seat, "lacorsa"), LACORSA)
    assert spec.version == "tester 1.0"
    _program(tmp_path, "1.1")
    outcome, _ = play([spec, RANDOM])
    assert outcome.forfeit is not None and outcome.forfeit.seat == 0
    assert "says it is tester 1.1; the match was planned with tester 1.0" in outcome.forfeit.reason


def test_resume_refuses_a_program_that_changed_its_version_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seat = _program(tmp_path, "1.0")
    db = tmp_path / "t.sqlite"
    args = _two_matches(seat, db)
    assert main(args) == 0
    with Store.open(db) as store:
        assert store.spec.bot_versions[seat] == "tester 1.0"
        store._db.execute("DELETE FROM matches")
        store._db.commit()
    _program(tmp_path, "2.0")
    capsys.readouterr()
    assert main(["tournament", "resume", str(db), "--program", seat]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "loads at version tester 2.0, the tournament recorded version tester 1.0" in err[0]


def test_a_log_with_a_protocol_2_program_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seat = _program(tmp_path, "2.5")
    log = tmp_path / "m.jsonl"
    assert (
        main(["play", "lacorsa", "-s", seat, "-s", "random", "-o", "races=1", "--log", str(log)])
        == 0
    )
    # Re-running the program (which names itself again, at the recorded version) gives the
    # very same log.
    assert main(["replay", str(log), "--verify", "--rerun"]) == 0
    assert "verified: re-running its bots reproduced all" in capsys.readouterr().out


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap")
def test_under_sandbox_a_program_is_asked_who_it_is_only_inside_its_sandbox(
    tmp_path: Path,
) -> None:
    tmp_path.chmod(0o755)
    path = tmp_path / "where.py"
    path.write_text(
        "import json, sys\n"
        "first = open('/proc/1/cmdline', 'rb').read().split(bytes(1))[0]\n"
        "where = 'inside' if first.endswith(b'bwrap') else 'outside'\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'start':\n"
        "        print(json.dumps({'type': 'ready', 'protocol': 2, 'name': 'where',\n"
        "                          'version': where}), flush=True)\n"
        "    elif m['type'] == 'act':\n"
        "        print(json.dumps({'decision': m['decision'], 'choice': 0}), flush=True)\n"
        "    else:\n"
        "        break\n"
    )
    seat = f"cmd:python3 {path}"
    log = tmp_path / "m.jsonl"
    assert (
        main(
            [
                "play",
                "lacorsa",
                "-s",
                seat,
                "-s",
                "random",
                "-o",
                "races=1",
                "--log",
                str(log),
                "--sandbox",
            ]
        )
        == 0
    )
    header = json.loads(log.read_text().splitlines()[0])
    assert header["seats"][0]["version"] == "where inside"
    assert b'"kind":"fault"' not in log.read_bytes()
    db = tmp_path / "t.sqlite"
    assert (
        main(
            [
                *_two_matches(seat, db),
                "--sandbox",
                "--workers",
                "1",
            ]
        )
        == 0
    )
    with Store.open(db) as store:
        assert store.spec.bot_versions[seat] == "where inside"
        assert {r.status for r in store.records()} == {"ok"}


def _two_matches(seat: str, db: Path) -> list[str]:
    """Return the command line of a two-match LACORSA tournament of ``seat`` against random."""
    return ["tournament", "lacorsa", "--bot", seat, "--bot", "random", "-o", "races=1",
            "--matches", "2", "--db", str(db)]  # fmt: skip
