"""`play` prints the last of a bot's debug notes unless asked for all; the log keeps them all."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from racedeck.cli.app import main
from racedeck.cli.render import DEBUG_TAIL
from racedeck.core.errors import EXIT_USAGE

PROGRAM = Path(__file__).parents[2] / "plugins" / "subprocess-python" / "program" / "bot.py"
BOT = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(PROGRAM))}"


def test_play_prints_a_tail_of_debug_notes_and_all_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "m.jsonl"
    args = ["play", "lacorsa", "--seat", BOT, "--seat", "heuristic", "-o", "races=1"]
    assert main([*args, "--log", str(log)]) == 0
    out = capsys.readouterr().out.splitlines()
    notes = [json.loads(line) for line in log.read_text().splitlines()]
    kept = [n["debug"]["text"] for n in notes if n["kind"] == "debug"]
    assert len(kept) > DEBUG_TAIL
    printed = [line for line in out if line.startswith("debug: seat")]
    assert [line.split("): ", 1)[1] for line in printed] == kept[-DEBUG_TAIL:]
    left = len(kept) - DEBUG_TAIL
    said = f"debug: {left} earlier {'note' if left == 1 else 'notes'} not shown"
    assert out[out.index(printed[0]) - 1].startswith(said)
    assert main([*args, "--no-log", "--bot-debug", "all"]) == 0
    printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("debug:")]
    assert len(printed) == len(kept)
    assert main([*args, "--no-log", "--bot-debug", "none"]) == 0
    assert "debug:" not in capsys.readouterr().out


def test_a_bad_bot_debug_value_is_one_line_before_any_match(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["play", "lacorsa", "-s", "random", "-s", "random", "--no-log", "--bot-debug", "some"]
    assert main(args) == EXIT_USAGE
    captured = capsys.readouterr()
    assert "--bot-debug must be one of tail, all, none, got 'some'" in captured.err
    assert len(captured.err.strip().splitlines()) == 1 and "final standings" not in captured.out
