"""Tracks and card tables as data: tags, the user format, clear errors, replayable logs."""

from __future__ import annotations

import io
import json
from pathlib import Path

import msgspec
import pytest

from racedeck.core.errors import DataError, OptionError
from racedeck.core.log import LogWriter
from racedeck.core.replay import replay_log
from racedeck.core.runner import run_match
from racedeck.games.famous500 import data
from racedeck.plugins import Registry

from .helpers import GAME

SOURCES = {"seed", "published", "proposal"}


def test_monaco_is_built_in_with_difficulty_18() -> None:
    """The Monaco track has a difficulty of 18."""
    track = data.builtin_track("monaco")
    assert track.difficulty == 18 and track.difficulty_source == "seed"
    assert [s.kind for s in track.sections] == [
        "white",
        "grey",
        "white",
        "grey",
        "black",
        "grey",
        "white",
        "black",
        "grey",
        "black",
    ]
    assert [i for i, s in enumerate(track.sections) if s.pit] == [0]
    assert all(s.source in SOURCES for s in track.sections)


def test_every_built_in_item_is_tagged() -> None:
    table = data.builtin_cards("standard")
    assert [c.speed for c in table.cards] == [40, 60, 80, 100, 120, 140, 160, 180, 200]
    assert all(c.source in SOURCES and c.cost_source in SOURCES for c in table.cards)
    assert all(t.source in SOURCES for t in table.sections)
    rules = data.RULES
    for item in (
        rules.hand_size,
        rules.false_start_above,
        rules.laps,
        rules.faster_points,
        rules.slower_points,
        rules.lone_racer_points,
        rules.repair,
        *rules.sample_cars,
    ):
        assert item.source in SOURCES
    # The research's placeholder costs, as published in the notes.
    grey = [c.cost["grey"]["fuel"] for c in table.cards]
    assert grey == [0, 0, 0, 1, 1, 1, 2, 2, 2]


def _write(tmp_path: Path, name: str, content: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(content) if not isinstance(content, str) else content)
    return str(path)


OVAL = {
    "name": "Oval",
    "difficulty": 12,
    "sections": [
        {"kind": "white", "pit": True},
        {"kind": "grey"},
        {"kind": "white"},
        {"kind": "grey"},
    ],
}


def test_a_user_track_file_is_carried_in_the_options_and_its_log_replays(
    tmp_path: Path, registry: Registry
) -> None:
    path = _write(tmp_path, "oval.json", OVAL)
    options = GAME.parse_options({"track": path})
    assert options.track_data is not None and options.track_data.difficulty == 12
    state = GAME.initial_state(options, 2)
    assert state.setup.track == "Oval" and state.setup.kinds == (2, 1, 2, 1)
    buffer = io.BytesIO()
    spec = registry.bot("random", "famous-500")
    outcome = run_match(GAME, options, [spec, spec], 4, writer=LogWriter(buffer))
    header = json.loads(buffer.getvalue().splitlines()[0])
    assert header["options"]["track_data"]["name"] == "Oval"
    Path(path).unlink()  # the log must not need the file any more
    replay = replay_log(registry, "oval.jsonl", stream=io.BytesIO(buffer.getvalue()))
    assert replay.complete, replay.error
    assert replay.state == outcome.state


def test_a_toml_track_file(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "hill.toml",
        'name = "Hill"\ndifficulty = 15\n\n[[sections]]\nkind = "black"\npit = true\n\n'
        '[[sections]]\nkind = "white"\nname = "Long straight"\n',
    )
    options = GAME.parse_options({"track": path, "laps": 2})
    assert GAME.initial_state(options, 2).setup.names == ("section 1", "Long straight")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ({**OVAL, "difficulty": -1}, "difficulty must be 0 to 60"),
        ({**OVAL, "sections": []}, "1 to 100 sections"),
        ({**OVAL, "sections": [{"kind": "purple"}]}, "Invalid enum value 'purple'"),
        ({**OVAL, "length": 3}, "unknown field `length`"),
        ({"name": "No difficulty", "sections": [{"kind": "grey"}]}, "missing required field"),
        ("{not json", "not valid JSON"),
    ],
)
def test_a_malformed_track_is_rejected_with_a_clear_message(
    tmp_path: Path, content: object, message: str
) -> None:
    path = _write(tmp_path, "bad.json", content)
    with pytest.raises(DataError, match=message) as info:
        GAME.parse_options({"track": path})
    assert path in str(info.value)


def _table(**changes: object) -> dict[str, object]:
    table = json.loads(msgspec.json.encode(data.builtin_cards("standard")))
    table.update(changes)
    return table  # type: ignore[no-any-return]


def test_a_user_card_table(tmp_path: Path) -> None:
    table = _table(name="cheap")
    for card in table["cards"]:  # type: ignore[attr-defined]
        card["cost"] = {"black": {"tires": 0}, "grey": {"fuel": 1, "engine": 1}, "white": {}}
    options = GAME.parse_options({"cards": _write(tmp_path, "cheap.json", table)})
    setup = GAME.initial_state(options, 2).setup
    assert setup.cards == "cheap"
    assert setup.cost(200, 1) == (0, 1, 1)  # Monaco section 2 is grey


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t["cards"].pop(), "nine Speed cards"),
        (lambda t: t["cards"][1].update(speed=40), "share a speed"),
        (lambda t: t["cards"][0]["cost"].pop("white"), "no cost for white"),
        (lambda t: t["cards"][0]["cost"]["grey"].update(fuel=-1), "costs are 0 to 99"),
        (lambda t: t["cards"][0]["cost"]["grey"].update(speed=1), "Invalid enum value 'speed'"),
        # Past what a number in a log can hold: it failed mid-match, blamed on a bot.
        (lambda t: t["cards"][8].update(speed=2**80), "card speed must be 1 to 1000"),
    ],
)
def test_a_malformed_card_table_is_rejected_with_a_clear_message(
    tmp_path: Path,
    change,
    message: str,  # type: ignore[no-untyped-def]
) -> None:
    table = _table()
    change(table)
    path = _write(tmp_path, "bad-cards.json", table)
    with pytest.raises(DataError, match=message):
        GAME.parse_options({"cards": path})


def test_toml_nested_too_deep_is_a_clear_data_error(tmp_path: Path) -> None:
    """Deep JSON is refused by the decoder; deep TOML recursed in ``tomllib`` (exit 70)."""
    path = tmp_path / "deep.toml"
    path.write_text("sections = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(DataError, match="not valid TOML: nested too deep"):
        GAME.parse_options({"track": str(path)})


def test_unknown_names_and_missing_files_are_option_errors() -> None:
    with pytest.raises(OptionError, match="unknown track 'spa'; built-in tracks: monaco"):
        GAME.parse_options({"track": "spa"})
    with pytest.raises(DataError, match="cannot read"):
        GAME.parse_options({"track": "/nonexistent/track.json"})
    with pytest.raises(OptionError, match=r"laps must be 1 to 4, got 0$"):
        GAME.parse_options({"laps": 0})
    with pytest.raises(
        OptionError, match="unknown option 'pit_lane'; its options are track, cards, laps"
    ):
        GAME.parse_options({"pit_lane": True})


def test_embedded_track_data_is_checked_too() -> None:
    with pytest.raises(OptionError, match="option track_data: difficulty"):
        GAME.parse_options({"track": "x.json", "track_data": {**OVAL, "difficulty": 99}})
