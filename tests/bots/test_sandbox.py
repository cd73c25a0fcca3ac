"""--sandbox: every bot in a bubblewrap sandbox of its own, the match unchanged."""

from __future__ import annotations

import io
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from racedeck.bots.sandbox import _UID_BASE, Sandbox, bwrap_path, parse_memory
from racedeck.bots.sandboxed import sandboxed
from racedeck.bots.subprocess_bot import subprocess_spec
from racedeck.cli.app import main
from racedeck.core import proctree
from racedeck.core.log import LogWriter
from racedeck.core.runner import MatchOutcome, run_match
from racedeck.tournament.store import Store
from tests.bots.helpers import LACORSA, ONE_RACE, RANDOM, REGISTRY
from tools.fuzz.attackers import MARK, WRITTEN, program_source

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap")

EXAMPLE = Path(__file__).parents[2] / "plugins" / "subprocess-python" / "program" / "bot.py"
SMALL = Sandbox(memory=256 << 20, processes=16)


def _play(names: list[str], sandbox: Sandbox | None, seed: int = 7) -> tuple[MatchOutcome, bytes]:
    seats = [REGISTRY.bot(name, "lacorsa") for name in names]
    if sandbox is not None:
        seats = [sandboxed(spec, sandbox, entry_points=False) for spec in seats]
    buffer = io.BytesIO()
    outcome = run_match(LACORSA, ONE_RACE, seats, seed, writer=LogWriter(buffer))
    return outcome, buffer.getvalue()


def test_a_sandboxed_match_logs_the_same_bytes_as_one_played_in_process() -> None:
    names = ["heuristic", "random", f"cmd:python3 {EXAMPLE}"]
    plain = _play(names, None, seed=11)
    boxed = _play(names, SMALL, seed=11)
    assert boxed[0].faults == [] and boxed[0].forfeit is None
    assert boxed[1] == plain[1]


def test_ismcts_draws_from_the_same_stream_in_its_sandbox() -> None:
    names = ["ismcts:simulations=30", "random"]
    assert _play(names, SMALL, seed=4)[1] == _play(names, None, seed=4)[1]


@pytest.mark.parametrize("command", ["play", "tournament", "gate", "fork"])
def test_without_bubblewrap_sandbox_is_one_line_naming_the_package(
    command: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    log = tmp_path / "m.jsonl"
    assert main(["play", "lacorsa", "-s", "random", "-s", "random", "--log", str(log)]) == 0
    monkeypatch.setenv("PATH", "/nonexistent")
    args = {
        "play": ["play", "lacorsa", "--seat", "random", "--seat", "random", "--no-log"],
        "tournament": [
            "tournament",
            "lacorsa",
            "--bot",
            "random",
            "--bot",
            "heuristic",
            "--db",
            str(tmp_path / "t.sqlite"),
        ],
        "gate": ["gate", "lacorsa", "--candidate", "heuristic", "--baseline", "random"],
        "fork": ["fork", str(log), "--at", "3", "--log", str(tmp_path / "f.jsonl")],
    }[command]
    capsys.readouterr()
    assert main([*args, "--sandbox"]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "install the bubblewrap package" in err[0]
    assert not (tmp_path / "t.sqlite").exists() and not (tmp_path / "f.jsonl").exists()


def test_bot_memory_needs_sandbox_and_a_size() -> None:
    base = ["play", "lacorsa", "--seat", "random", "--seat", "random", "--no-log"]
    assert main([*base, "--bot-memory", "1G"]) == 2
    assert main([*base, "--sandbox", "--bot-memory", "lots"]) == 2
    assert parse_memory("512M") == 512 << 20 and parse_memory("1g") == 1 << 30


def test_play_sandbox_plays_and_keeps_the_log_it_would_write(tmp_path: Path) -> None:
    common = ["play", "lacorsa", "--seat", "heuristic", "--seat", "random", "-o", "races=1"]
    assert main([*common, "--log", str(tmp_path / "a.jsonl")]) == 0
    assert main([*common, "--log", str(tmp_path / "b.jsonl"), "--sandbox"]) == 0
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


def test_the_sandbox_sees_no_engine_environment_and_only_its_own_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RACEDECK_TEST_SECRET", "s3cret")
    tmp_path.chmod(0o755)  # the program runs under a user id of its own: it reads as others do
    spy = tmp_path / "spy.py"
    spy.write_text(
        "import json, os, sys\n"
        "pids = [p for p in os.listdir('/proc') if p.isdigit()]\n"
        "seen = {'env': dict(os.environ), 'pids': pids, 'uid': os.getuid(),\n"
        "        'cwd': os.listdir('.'), 'parent': os.path.exists('/proc/%d/cmdline' % "
        f"{os.getpid()})}}\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'start':\n"
        "        print(json.dumps({'type': 'ready', 'protocol': 2, 'name': 'spy',\n"
        "              'version': '1', 'debug': json.dumps(seen)}), flush=True)\n"
        "    elif m['type'] == 'act':\n"
        "        print(json.dumps({'decision': m['decision'], 'choice': 0}), flush=True)\n"
        "    else:\n"
        "        break\n"
    )
    outcome, _ = _play([f"cmd:python3 {spy}", "random"], SMALL)
    assert outcome.forfeit is None, outcome.forfeit
    seen = json.loads(outcome.debug[0].text)
    assert "RACEDECK_TEST_SECRET" not in seen["env"] and "s3cret" not in str(seen["env"])
    assert len(seen["pids"]) <= 3  # the sandbox's first process, the program, no engine
    assert seen["uid"] != 0 or os.geteuid() != 0
    assert "pyproject.toml" not in seen["cwd"] and "logs" not in seen["cwd"]
    assert not seen["parent"]  # the engine's process is not there to be seen


def test_bwrap_path_names_the_tool() -> None:
    assert bwrap_path().endswith("bwrap")


def _attack(name: str, tmp_path: Path, sandbox: Sandbox) -> tuple[MatchOutcome, dict[str, Any]]:
    """Play the attacker program ``name`` in ``sandbox``; return the outcome and its report."""
    tmp_path.chmod(0o755)
    program = tmp_path / f"{name}.py"
    program.write_text(program_source(name, 9))
    spec = sandboxed(subprocess_spec(name, ["python3", str(program)]), sandbox)
    outcome = run_match(LACORSA, ONE_RACE, [spec, RANDOM], 5, fault_policy="substitute")
    said = [json.loads(note.text) for note in outcome.debug if note.seat == 0]
    return outcome, said[0] if said else {}


def test_a_fork_bomb_meets_the_process_limit_and_leaves_nothing(tmp_path: Path) -> None:
    outcome, said = _attack("fork-bomb", tmp_path, Sandbox(memory=64 << 20, processes=8))
    assert outcome.forfeit is None
    assert 0 < said["processes"] < 8  # the program itself is one of the eight
    time.sleep(0.2)
    assert not [p for p in proctree.descendants(os.getpid()) if _uid(p) >= _UID_BASE]


def test_a_memory_bomb_gets_no_more_than_bot_memory(tmp_path: Path) -> None:
    _, said = _attack("memory-bomb", tmp_path, Sandbox(memory=96 << 20))
    assert 0 < said["bytes"] <= 96 << 20


def test_a_setsid_re_forker_dies_with_its_match(tmp_path: Path) -> None:
    outcome, said = _attack("reforker", tmp_path, SMALL)
    assert said["did"] and outcome.forfeit is None
    time.sleep(0.5)
    assert not _marked()


def test_a_program_cannot_write_outside_its_scratch_folder(tmp_path: Path) -> None:
    _, said = _attack("writes", tmp_path, SMALL)
    assert said["did"] == ["wrote into /tmp"]  # its HOME, the private scratch folder
    assert not list(tmp_path.rglob(WRITTEN))


def test_a_program_reaches_no_network_not_even_loopback(tmp_path: Path) -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    tmp_path.chmod(0o755)
    program = tmp_path / "network.py"
    program.write_text(program_source("network", listener.getsockname()[1]))
    spec = sandboxed(subprocess_spec("n", ["python3", str(program)]), SMALL)
    outcome = run_match(LACORSA, ONE_RACE, [spec, RANDOM], 5)
    assert json.loads(outcome.debug[0].text)["did"] == []
    with pytest.raises(BlockingIOError):
        listener.accept()
    listener.close()


def _uid(pid: int) -> int:
    try:
        return os.stat(f"/proc/{pid}").st_uid
    except OSError:
        return -1


def _marked() -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if MARK.encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                    found.append(int(entry))
            except OSError:
                continue
    return found


INSIDE_ONLY = """
from racedeck.core.bot import Bot, BotSpec
from racedeck.hookspecs import hookimpl


class InsideOnly(Bot):
    def act(self, observation, legal, rng):
        with open("/proc/1/cmdline", "rb") as handle:
            if not handle.read().split(b"\\0")[0].endswith(b"bwrap"):
                raise RuntimeError("not in a sandbox")
        return legal[0]


@hookimpl
def racedeck_register_bots(register):
    register(BotSpec(name="inside-only", factory=InsideOnly, description="sandboxed or not at all"))
"""


@pytest.fixture
def inside_only(tmp_path: Path) -> Path:
    folder = tmp_path / "plugins"
    folder.mkdir()
    folder.chmod(0o755)
    (folder / "inside_only.py").write_text(INSIDE_ONLY)
    return folder


def test_a_tournament_plays_every_match_sandboxed_and_its_resume_too(
    inside_only: Path, tmp_path: Path
) -> None:
    db = tmp_path / "t.sqlite"
    args = [
        "tournament",
        "lacorsa",
        "--bot",
        "inside-only",
        "--bot",
        "random",
        "-o",
        "races=1",
        "--matches",
        "2",
        "--plugins-dir",
        str(inside_only),
        "--workers",
        "1",
    ]
    assert main([*args, "--db", str(db), "--sandbox", "--bot-memory", "512M"]) == 0
    with Store.open(db) as store:
        assert store.spec.sandbox_memory == 512 << 20
        assert [r.status for r in store.records()] == ["ok", "ok"]
        store._db.execute("DELETE FROM matches")
        store._db.commit()
    assert main(["tournament", "resume", str(db), "--plugins-dir", str(inside_only)]) == 0
    with Store.open(db) as store:
        assert [r.status for r in store.records()] == ["ok", "ok"]
    unboxed = tmp_path / "u.sqlite"
    assert main([*args, "--db", str(unboxed)]) == 0
    with Store.open(unboxed) as store:
        assert {r.status for r in store.records()} == {"forfeit"}


def test_fork_and_gate_play_sandboxed(inside_only: Path, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    plugins = ["--plugins-dir", str(inside_only)]
    assert (
        main(
            ["play", "lacorsa", "-s", "random", "-s", "random", "-o", "races=1", "--log", str(log)]
        )
        == 0
    )
    fork = tmp_path / "f.jsonl"
    args = [
        "fork",
        str(log),
        "--at",
        "3",
        "-s",
        "inside-only",
        "-s",
        "random",
        "--log",
        str(fork),
        *plugins,
    ]
    assert main([*args, "--sandbox"]) == 0
    assert b'"kind":"fault"' not in fork.read_bytes()
    saved = tmp_path / "gate.sqlite"
    gate = [
        "gate",
        "lacorsa",
        "--candidate",
        "inside-only",
        "--baseline",
        "random",
        "-o",
        "races=1",
        "--max-matches",
        "2",
        "--workers",
        "1",
        *plugins,
        "--sandbox",
        "--save",
        str(saved),
    ]
    assert main(gate) in (0, 1, 5)  # a verdict, whichever
    with Store.open(saved) as store:
        assert {r.status for r in store.records()} == {"ok"}


def test_a_persons_seat_stays_at_the_terminal() -> None:
    human = REGISTRY.bot("human", "lacorsa")
    assert sandboxed(human, SMALL) is human
    assert sandboxed(REGISTRY.bot("random", "lacorsa"), SMALL).factory is not RANDOM.factory


LIMITS = """
import json, os, sys
opened = []
try:
    while len(opened) < 100000:
        opened.append(open("/dev/null"))
except OSError:
    pass
count = len(opened)
for handle in opened:
    handle.close()
def fill(path, limit):
    size = 0
    try:
        with open(path, "wb") as handle:
            while size < limit:
                handle.write(b"x" * 65536)
                handle.flush()
                size += 65536
    except OSError:
        pass
    return os.path.getsize(path)
big = fill("/tmp/big", 64 << 20)
total = big + sum(fill(f"/tmp/more{i}", 1 << 20) for i in range(8))
report = {"open": count, "file": big, "scratch": total}
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "start":
        print(json.dumps({"type": "ready", "protocol": 2, "name": "limits", "version": "1",
                          "debug": json.dumps(report)}), flush=True)
    elif m["type"] == "act":
        print(json.dumps({"decision": m["decision"], "choice": 0}), flush=True)
    else:
        break
"""


def test_open_files_file_size_and_the_scratch_folder_are_bounded(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    program = tmp_path / "limits.py"
    program.write_text(LIMITS)
    tight = Sandbox(memory=128 << 20, open_files=40, file_size=1 << 20, scratch_size=3 << 20)
    spec = sandboxed(subprocess_spec("limits", ["python3", str(program)]), tight)
    outcome = run_match(LACORSA, ONE_RACE, [spec, RANDOM], 5)
    said = json.loads(outcome.debug[0].text)
    assert 0 < said["open"] < 40
    assert said["file"] <= 1 << 20
    assert said["scratch"] <= 3 << 20


def test_a_program_in_the_engines_folder_sees_only_its_own_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tmp_path.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "match.jsonl").write_text("the deal")
    (tmp_path / "spy.py").write_text(
        "import json, os, sys\n"
        "seen = sorted(os.listdir('.'))\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'start':\n"
        "        print(json.dumps({'type': 'ready', 'protocol': 2, 'name': 'spy',\n"
        "              'version': '1', 'debug': json.dumps(seen)}), flush=True)\n"
        "    elif m['type'] == 'act':\n"
        "        print(json.dumps({'decision': m['decision'], 'choice': 0}), flush=True)\n"
        "    else:\n"
        "        break\n"
    )
    outcome, _ = _play(["cmd:python3 spy.py", "random"], SMALL)
    assert json.loads(outcome.debug[0].text) == ["spy.py"]


def test_a_sandboxed_bot_dies_with_the_engine(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    sleeper = tmp_path / f"{MARK}.py"
    sleeper.write_text(
        "import json, sys, time\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'start':\n"
        "        print(json.dumps({'type': 'ready', 'protocol': 2, 'name': 's', 'version': '1'}),"
        " flush=True)\n"
        "    else:\n"
        "        time.sleep(600)\n"
    )
    engine = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "racedeck",
            "play",
            "lacorsa",
            "-s",
            f"cmd:python3 {sleeper}",
            "-s",
            "random",
            "--no-log",
            "--sandbox",
            "--time-limit",
            "120",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while not _marked() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _marked(), "the sleeper never started"
    finally:
        engine.kill()
        engine.wait()
    deadline = time.monotonic() + 5
    while _marked() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _marked()
