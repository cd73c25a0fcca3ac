"""`racedeck html` shows the debug notes bots left, each at its decision, as text only."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from racedeck.cli.app import main
from racedeck.core.log import LogReader
from racedeck.core.log_lines import ResultLine
from racedeck.core.log_writer import LogWriter
from racedeck.inspect.html import NOTE_LIMIT, match_data
from racedeck.plugins import Registry
from tests.inspect.browser import Browser

BOT = "ismcts:simulations=20,explain=true"
HOSTILE = "<script>alert(1)</script>\x1b[31m" + "x" * (NOTE_LIMIT * 3)


@pytest.fixture(scope="module")
def explained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    log = tmp_path_factory.mktemp("notes") / "m.jsonl"
    args = ["play", "lacorsa", "-s", BOT, "-s", "heuristic", "-o", "races=1", "--log", str(log)]
    assert main(args) == 0
    return log


def _notes_in_log(log: Path) -> list[tuple[int, int, str]]:
    """Each debug line of the log as ``(seq, seat, text)``, in order."""
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    return [
        (x["seq"], x["debug"]["seat"], x["debug"]["text"]) for x in lines if x["kind"] == "debug"
    ]


def _hostile_copy(source: Path, target: Path) -> Path:
    """Copy a log with its first note's text replaced by markup and a huge tail, re-chained."""
    with LogReader(source) as reader, open(target, "wb") as handle:
        reader.event_entries = False
        writer = LogWriter(handle)
        writer.header(reader.header)
        first = True
        for entry in reader:
            if entry.decision is not None:
                d = entry.decision
                writer.turn(d.actor, d.action, list(d.events))
            elif entry.debug is not None:
                note = entry.debug
                if first:
                    note, first = type(note)(seat=note.seat, bot=note.bot, text=HOSTILE), False
                writer.debug(note)
        result = reader.result
        assert result is not None
        writer.result(
            ResultLine(
                kind="result",
                events=result.events,
                hash=writer.last_hash,
                state_hash=result.state_hash,
                result=result.result,
            )
        )
    return target


def test_the_page_holds_each_note_with_the_decision_it_came_with(
    explained: Path, registry: Registry
) -> None:
    in_log = _notes_in_log(explained)
    assert in_log and all(seat == 0 for _, seat, _ in in_log)
    data = match_data(registry, explained)
    strings = data["strings"]
    shown = [(seq, seat, strings[text]) for seq, seat, text in data["notes"]]
    assert shown == [(seq, seat, f"seat 0 ({BOT}): {text}") for seq, seat, text in in_log]
    # Each note's step is a decision of its seat: the decision line whose first event it
    # names is seat 0's.
    lines = [json.loads(line) for line in explained.read_text().splitlines()]
    actor = {x["seq"]: x.get("by", -1) for x in lines if x["kind"] == "turn"}
    for seq, seat, text in in_log:
        assert text.startswith("weighed ") and actor[seq] == seat
        assert data["events"][seq][0] == seq
    assert match_data(registry, explained, seats=[1])["notes"] == []
    assert len(match_data(registry, explained, seats=[0])["notes"]) == len(in_log)


def test_a_hostile_note_is_clipped_and_shown_as_text_in_a_browser(
    explained: Path, registry: Registry, tmp_path: Path
) -> None:
    forged = _hostile_copy(explained, tmp_path / "forged.jsonl")
    data = match_data(registry, forged)
    text = data["strings"][data["notes"][0][2]]
    assert "\x1b" not in text and len(text) < NOTE_LIMIT + 200
    assert text.endswith(f"({len(HOSTILE) - NOTE_LIMIT} more characters)")
    page = tmp_path / "forged.html"
    assert main(["html", str(forged), "--out", str(page)]) == 0
    assert "<script>alert" not in page.read_text()
    try:
        browser = Browser(tmp_path / "profile")
    except RuntimeError:
        pytest.skip("no chromium on PATH")
    try:
        seq = data["notes"][0][0]
        browser.open(f"{page.as_uri()}#event={seq}&view=0", "document.getElementById('notes')")
        items = browser.evaluate(
            "[...document.querySelectorAll('#notes li')].map(li => li.textContent)"
        )
        assert items == [text] and "<script>alert(1)</script>" in items[0]
        assert browser.evaluate("document.querySelectorAll('#notes script').length") == 0
        # Seat 1's view shows none of seat 0's notes; seat 0's view shows its own.
        pick = "(e => {{ e.value = '{}'; e.dispatchEvent(new Event('change')); }})(document.getElementById('view'))"
        browser.evaluate(pick.format(1))
        assert browser.evaluate("document.querySelectorAll('#notes li').length") == 1
        browser.evaluate(pick.format(2))
        assert browser.evaluate("document.querySelectorAll('#notes li').length") == 0
    finally:
        browser.close()


def test_the_commands_in_debugging_md_make_a_page_holding_the_notes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, registry: Registry
) -> None:
    text = (Path(__file__).parents[2] / "docs" / "debugging.md").read_text()
    block = text.split("<!-- tested: tests/inspect/test_html_notes.py -->\n```\n")[1]
    monkeypatch.chdir(tmp_path)
    for line in block.split("```")[0].strip().splitlines():
        args = shlex.split(line)
        assert args[0] == "racedeck" and main(args[1:]) == 0
    data = match_data(registry, tmp_path / "m.jsonl")
    assert len(data["notes"]) == len(_notes_in_log(tmp_path / "m.jsonl")) > 0
    assert (tmp_path / "m.html").exists()
