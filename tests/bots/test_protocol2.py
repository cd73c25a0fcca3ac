"""Protocol 2: answers echo their decision, a stray line is a violation however it is timed."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from racedeck.bots.check import check_named
from racedeck.bots.subprocess_bot import STRAY, subprocess_spec
from racedeck.cli.app import main
from tests.bots.helpers import RANDOM, REGISTRY, play


def _v2(tmp_path: Path, body: str, ready: str = "") -> str:
    """Return ``cmd:`` for a protocol-2 Python program that runs ``body`` for each ``act``."""
    path = tmp_path / "bot.py"
    path.write_text(
        "import json, os, sys, time\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'start':\n"
        "        r = {'type': 'ready', 'protocol': 2, 'name': 'tester', 'version': '3.1'}\n"
        f"        r.update({ready or '{}'})\n"
        "        print(json.dumps(r), flush=True)\n"
        "        continue\n"
        "    if m['type'] != 'act':\n"
        "        break\n"
        "    d = m['decision']\n" + textwrap.indent(textwrap.dedent(body), "    ")
    )
    return f"cmd:{sys.executable} {path}"


STRAY_LINE = """
print(json.dumps({'decision': d, 'choice': 0}), flush=True)
if d == 1:
    time.sleep(os.urandom(1)[0] % 3 * 0.03)  # sometimes before the next question, sometimes after
    print('a stray line', flush=True)
"""


def test_a_stray_line_gets_the_same_verdict_every_run(tmp_path: Path) -> None:
    name = _v2(tmp_path, STRAY_LINE)
    verdicts = set()
    for _ in range(6):
        report = check_named(REGISTRY, name, "lacorsa", matches=1, time_limit=2)
        verdicts.add(
            tuple(
                (f.violation.kind, f.violation.decision, f.violation.detail, f.violation.message)
                for f in report.findings
            )
        )
    assert verdicts == {(("bad-answer", 2, STRAY, "a stray line"),)}


def test_an_answer_that_echoes_another_decision_is_never_taken(tmp_path: Path) -> None:
    name = _v2(tmp_path, "print(json.dumps({'decision': d + 5, 'choice': 0}), flush=True)\n")
    report = check_named(REGISTRY, name, "lacorsa", matches=1, time_limit=2)
    assert report.findings and report.findings[0].violation.detail == STRAY
    assert report.program == "tester 3.1"


def test_a_program_that_gives_up_a_decision_is_its_seats_fault(tmp_path: Path) -> None:
    name = _v2(tmp_path, "print(json.dumps({'decision': d, 'fault': 'no idea'}), flush=True)\n")
    spec = REGISTRY.bot(name, "lacorsa")
    outcome, _ = play([spec, RANDOM])
    assert outcome.forfeit is not None and outcome.forfeit.seat == 0
    assert outcome.forfeit.reason == "no idea"


def test_protocol_2_ready_must_name_the_program(tmp_path: Path) -> None:
    name = _v2(
        tmp_path,
        "print(json.dumps({'decision': d, 'choice': 0}), flush=True)\n",
        ready="{'name': ''}",
    )
    report = check_named(REGISTRY, name, "lacorsa", matches=1, time_limit=2)
    assert report.findings[0].violation.decision == -1
    assert "names the program" in report.findings[0].violation.detail


def test_a_version_1_program_still_plays(tmp_path: Path) -> None:
    path = tmp_path / "old.py"
    path.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'end':\n"
        "        break\n"
        "    print(json.dumps({'type': 'ready'} if m['type'] == 'start' else {'choice': 0}),"
        " flush=True)\n"
    )
    spec = subprocess_spec("old", [sys.executable, str(path)])
    outcome, _ = play([spec, RANDOM])
    assert outcome.forfeit is None and not outcome.faults


@pytest.mark.parametrize("name", ["heuristic", "random"])
def test_bot_check_takes_a_registered_bot(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bot", "check", name, "--game", "lacorsa", "--matches", "2"]) == 0
    out = capsys.readouterr().out
    assert "no protocol violations" in out and f"({name} " in out


def test_bot_check_finds_a_registered_bot_that_raises(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "raiser.py").write_text(
        "from racedeck.hookspecs import hookimpl\n"
        "from racedeck.core.bot import Bot, BotSpec\n"
        "class Raiser(Bot):\n"
        "    def act(self, observation, legal, rng):\n"
        "        raise KeyboardInterrupt\n"
        "@hookimpl\n"
        "def racedeck_register_bots(register):\n"
        "    register(BotSpec(name='raiser', factory=Raiser, description='raises'))\n"
    )
    args = ["bot", "check", "raiser", "--game", "lacorsa", "--matches", "1"]
    assert main([*args, "--plugins-dir", str(tmp_path)]) == 1
    assert "fault: raised KeyboardInterrupt" in capsys.readouterr().out


def test_the_examples_speak_protocol_2(capsys: pytest.CaptureFixture[str]) -> None:
    example = Path(__file__).parents[2] / "plugins" / "subprocess-python" / "program" / "bot.py"
    args = ["bot", "check", f"python3 {example}", "--game", "lacorsa", "--matches", "1"]
    assert main(args) == 0
    assert "(example-python 1.0)" in capsys.readouterr().out
