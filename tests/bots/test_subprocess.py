"""Subprocess bots: the example programs, protocol violations, and nothing left hanging."""

from __future__ import annotations

import io
import os
import sys
import textwrap
import time
from pathlib import Path

import pytest

from racedeck.bots.check import check_program
from racedeck.bots.subprocess_bot import subprocess_spec
from racedeck.core.replay import replay_log
from racedeck.core.verify import verify_log
from racedeck.plugins import load_registry
from tests.bots.helpers import HEURISTIC, RANDOM, REGISTRY, play

ROOT = Path(__file__).parents[2]
PYTHON_EXAMPLE = ROOT / "plugins" / "subprocess-python"
NODE_EXAMPLE = ROOT / "plugins" / "subprocess-node"

pytestmark = pytest.mark.slow


def _running(pid: int) -> bool:
    """True while ``pid`` runs; a killed process nobody has reaped yet (a zombie) is dead."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] == "Z")


def _program(tmp_path: Path, body: str) -> list[str]:
    """Return the command of a Python program that answers ``ready`` and then runs ``body``."""
    path = tmp_path / "bot.py"
    path.write_text(
        "import json, os, subprocess, sys, time\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'start':\n"
        "        print(json.dumps({'type': 'ready'}), flush=True)\n"
        "        continue\n"
        "    if m['type'] != 'act':\n"
        "        break\n" + textwrap.indent(textwrap.dedent(body), "    ")
    )
    return [sys.executable, str(path)]


@pytest.mark.parametrize(
    ("folder", "name"), [(PYTHON_EXAMPLE, "example-python"), (NODE_EXAMPLE, "example-node")]
)
def test_the_example_programs_play_and_their_logs_verify(
    folder: Path, name: str, tmp_path: Path
) -> None:
    registry = load_registry(folder, entry_points=False)
    spec = registry.bot(name, "lacorsa")
    outcome, log = play([spec, HEURISTIC, RANDOM], seed=3)
    assert not outcome.faults and outcome.forfeit is None
    assert outcome.debug and outcome.debug[0].text.endswith("seat 0")
    path = tmp_path / "match.jsonl"
    path.write_bytes(log)
    assert b'{"kind":"debug",' in log and b'"policy":"debug"' not in log
    verify_log(registry, path, rerun=True)


EXAMPLE_COMMANDS = {
    "python": [sys.executable, str(PYTHON_EXAMPLE / "program" / "bot.py")],
    "node": ["node", str(NODE_EXAMPLE / "bot.js")],
}


@pytest.mark.parametrize("language", sorted(EXAMPLE_COMMANDS))
@pytest.mark.parametrize("game", sorted(REGISTRY.games))
def test_bot_check_finds_nothing_wrong_with_the_examples_in_any_game(
    language: str, game: str
) -> None:
    report = check_program(REGISTRY, EXAMPLE_COMMANDS[language], game, matches=1)
    assert report.ok, [f.describe() for f in report.findings]
    assert report.decisions > 0


def test_bot_check_reports_each_violation_with_the_message_behind_it(tmp_path: Path) -> None:
    command = _program(
        tmp_path,
        """
        n = m['decision']
        if n == 0: print('not json', flush=True)
        elif n == 1: print(json.dumps({'choice': 999}), flush=True)
        elif n == 2: print(json.dumps({'pick': 1}), flush=True)
        elif n == 3: print(json.dumps({'action': {'type': 'fly'}}), flush=True)
        elif n == 4: time.sleep(30)
        else: print(json.dumps({'choice': 0}), flush=True)
        """,
    )
    report = check_program(REGISTRY, command, "lacorsa", matches=1, time_limit=0.5)
    found = [(f.violation.decision, f.violation.kind, f.violation.message) for f in report.findings]
    assert found[:4] == [
        (0, "bad-json", "not json"),
        (1, "illegal-action", '{"choice": 999}'),
        (2, "bad-answer", '{"pick": 1}'),
        (3, "illegal-action", '{"action": {"type": "fly"}}'),
    ]
    assert found[4][:2] == (4, "timeout") and '"decision":4' in found[4][2]
    assert len(found) == 5


def test_a_crash_is_reported_with_the_programs_last_words(tmp_path: Path) -> None:
    command = _program(tmp_path, "sys.stderr.write('out of fuel'); sys.exit(3)\n")
    report = check_program(REGISTRY, command, "lacorsa", matches=1)
    [finding] = report.findings
    assert finding.violation.kind == "crash" and "code 3" in finding.violation.detail
    assert "out of fuel" in finding.violation.message


def test_a_program_that_cannot_start_is_a_crash() -> None:
    report = check_program(REGISTRY, ["/nonexistent/bot"], "lacorsa", matches=1)
    [finding] = report.findings
    assert finding.violation.kind == "crash" and finding.violation.decision == -1


def test_a_hung_program_and_its_children_are_killed_after_the_limit(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    command = _program(
        tmp_path,
        f"""
        child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])
        open({str(pids)!r}, 'w').write(str(child.pid))
        time.sleep(60)
        """,
    )
    spec = subprocess_spec("hangs", command, time_limit=0.5)
    start = time.monotonic()
    outcome, log = play([spec, RANDOM], fault_policy="substitute")
    assert time.monotonic() - start < 10
    assert [f.reason.split(":")[0] for f in outcome.faults] == ["timeout at decision 0"]
    assert outcome.forfeit is None, "the match went on with a substitute"
    child = int(pids.read_text())
    time.sleep(0.2)
    assert not _running(child), "the program's child was killed with its process group"
    assert replay_log(REGISTRY, "m.jsonl", stream=io.BytesIO(log)).complete


def test_json_nested_too_deep_is_a_protocol_violation_not_an_engine_crash(
    tmp_path: Path,
) -> None:
    """msgspec raises ``RecursionError``, not ``DecodeError``, at 100,000 brackets: at the
    start it stopped ``play`` and ``tournament`` (internal error), and ``bot check`` said a
    program answering so every decision broke no rule."""
    deep = "'[' * 100000 + ']' * 100000"
    command = _program(tmp_path, f"print({deep}, flush=True)\n")
    report = check_program(REGISTRY, command, "lacorsa", matches=1, time_limit=2)
    assert report.findings, "no violation found"
    assert all(f.violation.kind in ("bad-json", "bad-answer", "timeout") for f in report.findings)
    described = report.findings[0].describe()
    assert len(described) < 600, "the report shows the start of a megabyte line, not all of it"
    starting = tmp_path / "start.py"
    starting.write_text(
        f"import sys\nsys.stdin.readline()\nprint({deep}, flush=True)\nsys.stdin.read()\n"
    )
    spec = subprocess_spec("deep", [sys.executable, str(starting)])
    outcome, _log = play([spec, HEURISTIC], seed=1)
    assert outcome.forfeit is not None and outcome.forfeit.seat == 0
    assert outcome.forfeit.reason.startswith("bad-json at start")


def test_a_bots_line_breaks_never_start_a_line_of_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A fault's reason is a bot's own words: printed with its line breaks, a program forged
    a standings line ("1. seat 0 ...: 99 points") under the real ones."""
    from racedeck.cli.app import main

    plugin = tmp_path / "forger_plugin.py"
    plugin.write_text(
        "from racedeck.core.bot import Bot, BotSpec\n"
        "from racedeck.hookspecs import hookimpl\n"
        "class Forger(Bot):\n"
        "    emits_debug = True\n"
        "    def act(self, observation, legal, rng):\n"
        "        raise ValueError('x\\n  1. seat 0 (forger): 99 points')\n"
        "    def take_debug(self):\n"
        "        return 'thinking\\nLACORSA Grand Prix: final standings'\n"
        "@hookimpl\n"
        "def racedeck_register_bots(register):\n"
        "    register(BotSpec(name='forger', factory=Forger, description='forges lines'))\n"
    )
    args = ["play", "lacorsa", "--seat", "forger", "--seat", "heuristic", "-o", "races=1"]
    code = main([*args, "--no-log", "--plugins-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    lines = out.splitlines()
    assert not any(line.lstrip().startswith("1. seat 0 (forger)") for line in lines), out
    assert "x\\n  1. seat 0 (forger): 99 points" in out
    assert "LACORSA Grand Prix: final standings" not in [line.strip() for line in lines[1:]]


def test_a_child_that_leaves_its_session_after_the_program_exited_is_killed(
    tmp_path: Path,
) -> None:
    """The program's child calls ``setsid`` only once the program has exited: re-parented to
    init, out of the program's adoption, it held the program's output and outlived its
    match. What it holds gives it away: it is killed with the match."""
    marker = tmp_path / "alive"
    command = _program(
        tmp_path,
        f"""
        child = os.fork()
        if child == 0:
            time.sleep(0.3)
            os.setsid()
            time.sleep(300)
        open({str(marker)!r}, "w").write(str(child))
        os._exit(0)
        """,
    )
    spec = subprocess_spec("leaver", command, time_limit=3)
    outcome, _log = play([spec, HEURISTIC], seed=1)
    assert outcome.forfeit is not None
    deadline = time.monotonic() + 5
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    pid = int(marker.read_text())
    deadline = time.monotonic() + 5
    while _running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(pid), "the child outlived its match"


def test_play_stopped_by_sigterm_leaves_no_process_and_no_partial_log(tmp_path: Path) -> None:
    """``play`` stopped by SIGTERM (a CI's cancel, ``timeout``) died at once: its log stayed
    half-written beside its name and the program's child ran on. It now stops as Ctrl-C
    stops it."""
    import signal
    import subprocess

    marker = tmp_path / "child"
    command = _program(
        tmp_path,
        f"""
        child = subprocess.Popen(["sleep", "300"])
        open({str(marker)!r}, "w").write(str(child.pid))
        time.sleep(300)
        """,
    )
    log = tmp_path / "m.jsonl"
    seat = "cmd:" + " ".join(command)
    args = ["play", "lacorsa", "--seat", seat, "--seat", "heuristic", "-o", "races=1"]
    run = subprocess.Popen(
        [sys.executable, "-m", "racedeck", *args, "--log", str(log)],
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    child = int(marker.read_text())
    run.send_signal(signal.SIGTERM)
    _out, err = run.communicate(timeout=30)
    assert err.strip() == "racedeck: interrupted"
    assert not log.exists() and not list(tmp_path.glob("*.partial"))
    deadline = time.monotonic() + 5
    while _running(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(child)


def test_true_is_neither_protocol_1_nor_the_answer_to_decision_1(tmp_path: Path) -> None:
    """JSON's ``true`` equals 1 in Python: ``"protocol": true`` passed as protocol 1 (its
    name and version ignored) and ``"decision": true`` as the answer to decision 1."""
    ready = tmp_path / "ready.py"
    ready.write_text(
        "import json, sys\nsys.stdin.readline()\n"
        "print(json.dumps({'type': 'ready', 'protocol': True}), flush=True)\nsys.stdin.read()\n"
    )
    spec = subprocess_spec("truthy", [sys.executable, str(ready)])
    outcome, _log = play([spec, HEURISTIC], seed=1)
    assert outcome.forfeit is not None and "protocol True is not 1 or 2" in outcome.forfeit.reason
    answering = tmp_path / "answering.py"
    answering.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'start':\n"
        "        print(json.dumps({'type': 'ready', 'protocol': 2, 'name': 't', 'version': '1'}),"
        " flush=True)\n"
        "    elif m['type'] == 'act':\n"
        "        d = True if m['decision'] == 1 else m['decision']\n"
        "        print(json.dumps({'decision': d, 'choice': 0}), flush=True)\n"
        "    else:\n"
        "        break\n"
    )
    spec = subprocess_spec("truthy", [sys.executable, str(answering)], time_limit=2)
    outcome, _log = play([spec, HEURISTIC], seed=1)
    assert outcome.forfeit is not None and outcome.forfeit.seat == 0
    assert "decision 1" in outcome.forfeit.reason
