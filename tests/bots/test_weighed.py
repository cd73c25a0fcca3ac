"""What a bot weighed, per decision, in the log: the call any bot makes, and ISMCTS using it."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from racedeck.bots.weighed import TOP, Choice, Weighing, weighed_text
from racedeck.cli.app import main
from racedeck.core.bot import Bot, BotSpec
from racedeck.core.runner import run_match
from tests.bots.helpers import REGISTRY


def test_the_line_names_the_effort_and_the_most_tried_actions_first() -> None:
    choices = [Choice("a", 3, 0.5), Choice("b", 9, 0.25), Choice("c", 3, 1.0), Choice("d", 1, 0)]
    text = weighed_text(choices, 16)
    assert text == (
        "weighed 16 simulations: b (9 visits, value 0.250); a (3 visits, value 0.500);"
        " c (3 visits, value 1.000)"
    )
    assert text.count("visits") == TOP


def test_a_bot_records_through_the_call_and_the_engine_takes_it_once() -> None:
    class Thinker(Weighing, Bot):
        def act(self, observation: object, legal: object, rng: object) -> object:
            self.record_weighed([Choice("go", 2, 1.0)], 2, unit="looks")
            return None

    bot = Thinker()
    assert bot.emits_debug
    bot.act(None, None, None)
    assert bot.take_debug() == "weighed 2 looks: go (2 visits, value 1.000)"
    assert bot.take_debug() is None


def test_ismcts_writes_what_it_weighed_and_show_prints_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bot = "ismcts:simulations=30,explain=true"
    args = ["play", "lacorsa", "-s", bot, "-s", "heuristic", "-o", "races=1"]
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert main([*args, "--log", str(first)]) == 0
    assert main([*args, "--log", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes()  # the notes are as fixed as the match
    lines = [json.loads(line) for line in first.read_text().splitlines()]
    notes = [line["debug"] for line in lines if line["kind"] == "debug"]
    assert notes and all(note["seat"] == 0 for note in notes)
    for note in notes:
        spent = int(note["text"].split()[1])
        assert note["text"].startswith(f"weighed {spent} simulations: car ") and spent <= 30
        assert "visits, value " in note["text"] and "{" not in note["text"]
    last_event = max(
        line["seq"] + len(line["events"]) - 1 for line in lines if line["kind"] == "turn"
    )
    capsys.readouterr()
    assert main(["show", str(first), "--at", str(last_event)]) == 0
    out = capsys.readouterr().out
    assert f"debug, seat 0 ({bot}) last said: {notes[-1]['text']}" in out
    plain = tmp_path / "plain.jsonl"
    assert main([*args[:3], "ismcts:simulations=30", *args[4:], "--log", str(plain)]) == 0
    assert '"kind":"debug"' not in plain.read_text()  # without explain, nothing is written
    # A fork from the start with the parent's bots replays the parent, notes included: the
    # bots that watched the copied prefix go on noting what they weighed.
    fork = tmp_path / "fork.jsonl"
    assert main(["fork", str(first), "--at", "4", "--log", str(fork)]) == 0
    capsys.readouterr()
    assert main(["diff", str(first), str(fork)]) == 0
    forked = [json.loads(line) for line in fork.read_text().splitlines()]
    after = [line["debug"]["text"] for line in lines if line["kind"] == "debug" and line["seq"] > 6]
    assert (
        after
        and [
            line["debug"]["text"] for line in forked if line["kind"] == "debug" and line["seq"] > 6
        ]
        == after
    )


def test_the_commands_in_debugging_md_print_what_ismcts_weighed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = (Path(__file__).parents[2] / "docs" / "debugging.md").read_text()
    block = text.split("<!-- tested: tests/bots/test_weighed.py -->\n```\n")[1].split("```")[0]
    monkeypatch.chdir(tmp_path)
    outs = []
    for line in block.strip().splitlines():
        args = shlex.split(line)
        assert args[0] == "racedeck" and main(args[1:]) == 0
        outs.append(capsys.readouterr().out)
    shown = outs[-1].splitlines()
    assert shown[0].startswith("event 40: ")
    said = "debug, seat 0 (ismcts:simulations=50,explain=true) last said: weighed "
    assert shown[1].startswith(said) and "visits, value" in shown[1]
    assert "\n    ".join(shown[:2]) in text  # the lines the guide shows are the ones printed


def test_the_weighing_bot_in_the_plugin_guide_leaves_a_line_a_decision() -> None:
    guide = (Path(__file__).parents[2] / "docs" / "plugins.md").read_text()
    [code] = re.findall(r"```python\n# weighing bot\n(.*?)```", guide, re.S)
    names: dict[str, object] = {}
    exec(compile(code, "docs/plugins.md (weighing bot)", "exec"), names)
    spec = BotSpec(name="widest", factory=names["Widest"], description="from docs/plugins.md")
    rules = REGISTRY.game("lacorsa")
    options = rules.parse_options({"races": 1})
    outcome = run_match(rules, options, [spec, REGISTRY.bot("random", "lacorsa")], 3)
    assert not outcome.faults and outcome.forfeit is None
    notes = [note.text for note in outcome.debug if note.seat == 0]
    assert notes and all(re.match(r"weighed \d+ actions: car \d", text) for text in notes)
