"""Wacky Races events read by name in `show` and everywhere events are worded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from racedeck.cli.app import main
from racedeck.core.replay import iter_states
from racedeck.games.wacky_races import data
from racedeck.plugins import load_registry

GOLDEN = (
    Path(__file__).parents[2]
    / "golden"
    / "wacky-races-2p-heuristic-random-seed5-championship.jsonl"
)
NAMED = {"racer_chosen", "race_set_up", "trap_laid", "trap_removed", "trap_sprung"}


def _events() -> list[dict[str, object]]:
    # A log of decisions: each turn line holds the events it caused, in order.
    lines = [json.loads(line) for line in GOLDEN.read_text().splitlines()]
    return [event for line in lines if line["kind"] == "turn" for event in line["events"]]


def test_show_words_the_event_it_stops_after_with_names(capsys: pytest.CaptureFixture[str]) -> None:
    events = _events()
    firsts = {kind: next(i for i, e in enumerate(events) if e["type"] == kind) for kind in NAMED}
    for kind, seq in sorted(firsts.items()):
        assert main(["show", str(GOLDEN), "--at", str(seq)]) == 0
        said = capsys.readouterr().out.splitlines()[0]
        event = events[seq]
        assert said.startswith(f"event {seq}: ") and "=" not in said, said
        if "racer" in event:
            assert data.RACER_NAMES[int(str(event["racer"]))] in said
        if "trap" in event:
            assert data.TRAP_NAMES[int(str(event["trap"]))] in said
        if kind == "race_set_up":
            assert all(data.RACER_NAMES[int(r)] in said for r in event["field"])  # type: ignore[attr-defined]
    assert main(["show", str(GOLDEN), "--at", str(firsts["trap_laid"]), "--seat", "0"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"event {firsts['trap_laid']}: trap_laid"


def test_no_racer_trap_or_tile_is_a_bare_number_in_the_words() -> None:
    registry = load_registry(entry_points=False)
    game = registry.game("wacky-races")
    for _seq, event, _state, _replay in iter_states(registry, GOLDEN):
        words = game.presentation.describe(event)
        for field in ("racer=", "trap=", "tiles=", "field=", "deck="):
            assert field not in words, words
