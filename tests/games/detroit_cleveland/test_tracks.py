"""Tracks as data: the built-in tracks, the loader's checks, user tracks in logs."""

from __future__ import annotations

import io
import json
from pathlib import Path

import msgspec
import pytest

from racedeck.core.errors import DataError, LogError, OptionError
from racedeck.core.log import LogWriter
from racedeck.core.replay import replay_log
from racedeck.core.runner import run_match
from racedeck.games.detroit_cleveland.movement import reach
from racedeck.games.detroit_cleveland.options import DetroitClevelandOptions
from racedeck.games.detroit_cleveland.render import render_track
from racedeck.games.detroit_cleveland.rules import track_of
from racedeck.games.detroit_cleveland.track import (
    FINISH,
    FINISH_ID,
    Section,
    TrackData,
    build_track,
    builtin_track,
    builtin_track_data,
    compile_track,
    decode_track,
)
from racedeck.plugins import load_registry
from tests.games.detroit_cleveland.support import FIGURES_TRACK, GAME, options

REGISTRY = load_registry(entry_points=False)


def lane_counts(track) -> dict[str, set[int]]:
    lanes: dict[str, set[int]] = {}
    for space, section in enumerate(track.sections):
        lanes.setdefault(section, set()).add(track.lanes[space])
    return lanes


def spaces_per_lane(track, section) -> dict[int, int]:
    counts: dict[int, int] = {}
    for space, name in enumerate(track.sections):
        if name == section:
            counts[track.lanes[space]] = counts.get(track.lanes[space], 0) + 1
    return counts


@pytest.mark.parametrize("name", ["detroit", "cleveland"])
def test_built_in_tracks_have_lanes_curves_starts_and_a_finish(name: str) -> None:
    track = builtin_track(name)
    data = builtin_track_data(name)
    assert data.source == "proposal"
    assert len(track.start) == 6 == len(set(track.start))
    assert 54 <= track.length <= 62
    widths = {len(lanes) for lanes in lane_counts(track).values()}
    assert widths == {1, 2, 3}, "three-lane straights narrowing to two lanes and to one"
    curves = [
        section
        for section in lane_counts(track)
        if len(set(spaces_per_lane(track, section).values())) > 1
    ]
    assert curves, "a track has curves"
    for section in curves:
        counts = spaces_per_lane(track, section)
        assert min(counts.values()) < max(counts.values()), "the inside lane is shorter"
    assert any(FINISH in nexts for nexts in track.successors)
    picture = render_track(track)
    assert "#1" in picture and "finish line" in picture


def test_detroit_has_more_single_lane_sections_than_cleveland() -> None:
    def single(track):
        return sum(1 for lanes in lane_counts(track).values() if len(lanes) == 1)

    assert single(builtin_track("detroit")) > single(builtin_track("cleveland"))


def test_the_inside_lane_of_a_curve_is_the_short_route() -> None:
    track = builtin_track("detroit")
    data = builtin_track_data("detroit")
    ahead = {space.id: space.ahead or space.diagonal for space in data.spaces}
    counts = spaces_per_lane(track, "turn2")
    inside, outside = min(counts, key=counts.get), max(counts, key=counts.get)
    letters = "LCR"

    def straight_on(space_id, steps):
        for _ in range(steps):
            space_id = ahead[space_id][0]
        return space_id

    steps = counts[inside]
    assert not straight_on(f"turn2:1{letters[inside]}", steps).startswith("turn2")
    assert straight_on(f"turn2:1{letters[outside]}", steps).startswith("turn2")
    positions = (track.index[f"turn2:1{letters[inside]}"], -2, -2, -2, -2, -2)
    dests = reach(track.successors, positions, 0, steps)[0]
    assert any(track.sections[d] != "turn2" for d in dests)


def _raw(data: TrackData) -> dict:
    return msgspec.to_builtins(data)


def _load(raw: dict) -> None:
    compile_track(decode_track(json.dumps(raw).encode(), "mine.json"), "mine.json")


def figures_raw() -> dict:
    return json.loads(Path(FIGURES_TRACK).read_text())


def test_loader_rejects_missing_start_positions() -> None:
    raw = figures_raw()
    raw["start"] = raw["start"][:5]
    with pytest.raises(DataError, match="start positions missing: 'start' must list 6"):
        _load(raw)
    raw["start"] = [*raw["start"], "nowhere"]
    with pytest.raises(DataError, match="start position 'nowhere' is not a space"):
        _load(raw)


def test_loader_rejects_a_space_with_no_way_forward() -> None:
    raw = figures_raw()
    for space in raw["spaces"]:
        if space["id"] == "after:2C":
            space["ahead"], space["diagonal"] = [], []
    with pytest.raises(DataError, match="space 'after:2C' has no way forward"):
        _load(raw)


def test_loader_bounds_what_a_track_asks_of_the_engine() -> None:
    """What a car can reach is worked out for every space and count, and a track is drawn
    a column a unit of distance: a file of many spaces, many links, or a far distance took
    the machine's memory (a 1.2 MB track of 20,000 spaces, a distance of 1e300)."""
    raw = figures_raw()
    first = raw["spaces"][0]
    cases = [
        ("lane", 10, "lanes are 0 to 9"),
        ("distance", 1e300, "distances are 0 to 1000"),
        ("distance", -1, "distances are 0 to 1000"),
        ("diagonal", [s["id"] for s in raw["spaces"][1:6]], "leads to"),
    ]
    for field, value, why in cases:
        changed = figures_raw()
        changed["spaces"][0] = {**first, field: value}
        with pytest.raises(DataError, match=why):
            _load(changed)
    many = figures_raw()
    many["spaces"] += [
        {"id": f"x{i}", "lane": 0, "distance": 1.0, "ahead": [first["id"]]} for i in range(500)
    ]
    with pytest.raises(DataError, match="a track has at most 500"):
        _load(many)


def test_loader_rejects_an_unreachable_finish() -> None:
    raw = figures_raw()
    # Two spaces that lead only to each other: a loop with no way out to the finish line.
    for space in raw["spaces"]:
        if space["id"] == "after:2C":
            space["ahead"], space["diagonal"] = ["after:3C"], []
        if space["id"] == "after:3C":
            space["ahead"], space["diagonal"] = ["after:2C"], []
    with pytest.raises(DataError, match="finish line cannot be reached from space"):
        _load(raw)


def test_loader_rejects_unknown_links_backward_links_and_bad_files() -> None:
    raw = figures_raw()
    raw["spaces"][0]["ahead"] = ["grid:99L"]
    with pytest.raises(DataError, match="ahead names unknown space 'grid:99L'"):
        _load(raw)
    raw = figures_raw()
    raw["spaces"][1]["diagonal"] = [raw["spaces"][0]["id"]]
    with pytest.raises(DataError, match="leads back to"):
        _load(raw)
    raw = figures_raw()
    raw["finish"] = []
    with pytest.raises(DataError, match="finish line is missing"):
        _load(raw)
    with pytest.raises(DataError, match=r"mine\.json: not a track file"):
        decode_track(b'{"format": 1}', "mine.json")


def test_an_unknown_track_name_or_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="unknown track 'monaco'"):
        GAME.parse_options({"track": "monaco"})
    with pytest.raises(DataError, match="cannot read the track file"):
        GAME.parse_options({"track": str(tmp_path / "absent.json")})


def _user_track(tmp_path: Path) -> Path:
    data = build_track(
        "oval",
        "A user's oval",
        [
            Section("grid", {0: 4, 1: 4}),
            Section("bend", {0: 3, 1: 5}),
            Section("pipe", {1: 3}),
            Section("home", {0: 6, 1: 6, 2: 6}),
        ],
        ["grid:4L", "grid:4C", "grid:3L", "grid:3C", "grid:2L", "grid:2C"],
    )
    path = tmp_path / "oval.json"
    path.write_bytes(msgspec.json.encode(data))
    return path


def test_a_match_on_a_user_track_replays_without_the_file(tmp_path: Path) -> None:
    path = _user_track(tmp_path)
    opts = GAME.parse_options({"track": str(path), "races": 1})
    assert opts.track_data is not None and len(opts.track_hash) == 32
    spec = REGISTRY.bot("random", GAME.name)
    buffer = io.BytesIO()
    outcome = run_match(GAME, opts, [spec] * 3, 5, writer=LogWriter(buffer))
    path.unlink()
    replay = replay_log(REGISTRY, "oval.jsonl", stream=io.BytesIO(buffer.getvalue()))
    assert replay.complete, replay.error
    assert replay.state == outcome.state
    assert track_of(replay.options).title == "A user's oval"


def test_a_log_whose_track_was_altered_is_refused(tmp_path: Path) -> None:
    path = _user_track(tmp_path)
    opts = GAME.parse_options({"track": str(path), "races": 1})
    raw = msgspec.to_builtins(opts)
    raw["track_data"]["title"] = "Someone else's oval"
    with pytest.raises(OptionError, match="does not match its track_hash"):
        GAME.parse_options(raw)
    buffer = io.BytesIO()
    run_match(GAME, opts, [REGISTRY.bot("random", GAME.name)] * 2, 1, writer=LogWriter(buffer))
    lines = buffer.getvalue().split(b"\n")
    lines[0] = lines[0].replace(b"A user's oval", b"Someone else's oval")
    with pytest.raises(LogError):
        replay_log(REGISTRY, "oval.jsonl", stream=io.BytesIO(b"\n".join(lines)))


def test_show_renders_a_track_and_a_race() -> None:
    opts = options(races=1)
    outcome = run_match(GAME, opts, [REGISTRY.bot("random", GAME.name)] * 3, 2)
    assert "Detroit" in GAME.presentation.render(outcome.state)
    picture = render_track(builtin_track("cleveland"))
    assert picture.splitlines()[0].startswith("Cleveland")
    assert "sweeper" in picture


def test_a_log_on_a_built_in_track_records_its_hash() -> None:
    opts = GAME.parse_options({"track": "cleveland"})
    assert len(opts.track_hash) == 32 and opts.track_data is None
    assert GAME.parse_options(msgspec.to_builtins(opts)) == opts
    with pytest.raises(OptionError, match="built-in track 'cleveland' has changed"):
        GAME.parse_options({"track": "cleveland", "track_hash": "0" * 32})


def test_options_built_by_hand_play_the_match_their_log_replays(tmp_path: Path) -> None:
    """Options need not come through ``parse_options`` (the Python API): built by hand,
    without a track hash, they play the very match ``parse_options``' would, so the log
    replays to the same state; a hash that is not the track's, or a track that is neither
    built in nor carried, is refused before any play, naming the option."""
    spec = REGISTRY.bot("random", GAME.name)
    by_hand = DetroitClevelandOptions(races=1, track="cleveland")
    parsed = GAME.parse_options({"races": 1, "track": "cleveland"})
    assert by_hand.track_hash == "" and by_hand != parsed
    buffer = io.BytesIO()
    outcome = run_match(GAME, by_hand, [spec] * 2, 4, writer=LogWriter(buffer))
    assert outcome.state == run_match(GAME, parsed, [spec] * 2, 4).state
    replay = replay_log(REGISTRY, "hand.jsonl", stream=io.BytesIO(buffer.getvalue()))
    assert replay.complete, replay.error
    assert replay.state == outcome.state
    carried = GAME.parse_options({"track": str(_user_track(tmp_path)), "races": 1})
    GAME.initial_state(msgspec.structs.replace(carried, track_hash=""), 2)
    refused = {
        "has changed since": DetroitClevelandOptions(track_hash="0" * 32),
        "does not match its track_hash": msgspec.structs.replace(carried, track_hash="0" * 32),
        "unknown track 'oval.json'": DetroitClevelandOptions(track="oval.json"),
        "unknown track 'monaco'": DetroitClevelandOptions(track="monaco"),
    }
    for why, bad in refused.items():
        with pytest.raises(OptionError, match=why):
            GAME.initial_state(bad, 2)


def test_a_track_is_compiled_once_per_content(tmp_path: Path) -> None:
    assert builtin_track("detroit") is builtin_track("detroit")
    path = _user_track(tmp_path)
    first = track_of(GAME.parse_options({"track": str(path)}))
    again = track_of(GAME.parse_options({"track": str(path)}))
    assert first is again
    assert first != compile_track(decode_track(path.read_bytes(), "copy"), "copy")
    assert hash(first) == hash(again)


def test_space_ids_and_indexes_name_the_finish_line() -> None:
    track = builtin_track("cleveland")
    assert track.space_id(FINISH) == FINISH_ID == "finish"
    assert track.space_index(FINISH_ID) == FINISH
    for space in (0, 17, len(track.ids) - 1):
        assert track.space_index(track.space_id(space)) == space
    with pytest.raises(TypeError):
        track.index["new"] = 1  # type: ignore[index]  # the point: the table is read-only
