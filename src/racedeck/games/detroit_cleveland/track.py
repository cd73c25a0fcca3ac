"""Tracks as data: a directed graph of spaces, its loader and checks, and a section builder.

A track file is JSON (see ``docs/rules/detroit-cleveland.md``): every space has an id, a
lane, its distance along the track and the spaces straight ``ahead`` of it and
``diagonal``-ly ahead of it; ``start`` lists the six start positions, pole first;
``finish`` lists the spaces from which a step forward crosses the finish line. The loader
turns a file into a compact :class:`Track` (spaces as indexes, successors as tuples) and
rejects a malformed one with a one-line ``DataError``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Literal

import msgspec

from racedeck.core.errors import DataError

Source = Literal["seed", "published", "proposal"]

FINISH = -2
"""A car's position once it has crossed the finish line; also the successor that crosses it."""
OFF_TRACK = -1
"""A car's position before it is placed on a start position."""
START_POSITIONS = 6
TRACK_FORMAT = 1
BUILTIN_TRACKS: tuple[str, ...] = ("detroit", "cleveland")


class SpaceData(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One space of a track file."""

    id: str
    lane: int
    distance: float
    ahead: tuple[str, ...] = ()
    diagonal: tuple[str, ...] = ()
    section: str = ""


class TrackData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A whole track file: the graph of spaces, the start positions and the finish line."""

    format: int
    name: str
    spaces: tuple[SpaceData, ...]
    start: tuple[str, ...]
    finish: tuple[str, ...]
    title: str = ""
    source: Source = "proposal"
    note: str = ""


class Track(msgspec.Struct, frozen=True):
    """A checked track, compiled for speed: space ``i`` of the file is index ``i``."""

    name: str
    title: str
    ids: tuple[str, ...]
    lanes: tuple[int, ...]
    distances: tuple[float, ...]
    sections: tuple[str, ...]
    successors: tuple[tuple[int, ...], ...]
    """Per space, the spaces one step ahead (straight, then diagonal); ``FINISH`` crosses."""
    start: tuple[int, ...]
    length: float
    """The distance of the finish line: one more than the farthest space."""
    index: dict[str, int]


def decode_track(raw: bytes, origin: str) -> TrackData:
    """Decode a track file's bytes, raising ``DataError`` naming ``origin`` when malformed."""
    try:
        return msgspec.json.decode(raw, type=TrackData)
    except msgspec.DecodeError as exc:
        raise DataError(f"{origin}: not a track file: {exc}") from None


def compile_track(data: TrackData, origin: str) -> Track:
    """Check a decoded track and return it compiled; ``DataError`` names the first problem."""
    if data.format != TRACK_FORMAT:
        raise DataError(f"{origin}: track format {data.format} is not {TRACK_FORMAT}")
    if not data.spaces:
        raise DataError(f"{origin}: the track has no spaces")
    index: dict[str, int] = {}
    for i, space in enumerate(data.spaces):
        if not space.id or space.id == "finish":
            raise DataError(f"{origin}: space {i} has the reserved or empty id {space.id!r}")
        if space.id in index:
            raise DataError(f"{origin}: space id {space.id!r} appears twice")
        if space.lane < 0:
            raise DataError(f"{origin}: space {space.id!r} has a negative lane {space.lane}")
        index[space.id] = i
    finish = set()
    for name in data.finish:
        if name not in index:
            raise DataError(f"{origin}: the finish line names unknown space {name!r}")
        finish.add(index[name])
    if not finish:
        raise DataError(f"{origin}: the finish line is missing (list its spaces in 'finish')")
    successors: list[tuple[int, ...]] = []
    for i, space in enumerate(data.spaces):
        nexts: list[int] = []
        for kind, names in (("ahead", space.ahead), ("diagonal", space.diagonal)):
            for name in names:
                j = index.get(name)
                if j is None:
                    raise DataError(
                        f"{origin}: space {space.id!r}: {kind} names unknown space {name!r}"
                    )
                if j not in nexts:
                    nexts.append(j)
        if i in finish:
            nexts.append(FINISH)
        if not nexts:
            raise DataError(
                f"{origin}: space {space.id!r} has no way forward (nothing ahead or diagonal, "
                "and it is not on the finish line)"
            )
        successors.append(tuple(nexts))
    if len(data.start) != START_POSITIONS:
        raise DataError(
            f"{origin}: start positions missing: 'start' must list {START_POSITIONS} spaces, "
            f"found {len(data.start)}"
        )
    start: list[int] = []
    for name in data.start:
        if name not in index:
            raise DataError(f"{origin}: start position {name!r} is not a space of the track")
        if index[name] in start:
            raise DataError(f"{origin}: start position {name!r} is listed twice")
        start.append(index[name])
    _check_finish_reachable(data, successors, origin)
    for i, links in enumerate(successors):
        for j in links:
            if j != FINISH and data.spaces[j].distance <= data.spaces[i].distance:
                raise DataError(
                    f"{origin}: space {data.spaces[i].id!r} leads back to {data.spaces[j].id!r}:"
                    f" distance {data.spaces[j].distance} is not beyond "
                    f"{data.spaces[i].distance} (cars never move sideways or backwards)"
                )
    return Track(
        name=data.name,
        title=data.title or data.name,
        ids=tuple(s.id for s in data.spaces),
        lanes=tuple(s.lane for s in data.spaces),
        distances=tuple(float(s.distance) for s in data.spaces),
        sections=tuple(s.section for s in data.spaces),
        successors=tuple(successors),
        start=tuple(start),
        length=max(s.distance for s in data.spaces) + 1.0,
        index=index,
    )


def _check_finish_reachable(
    data: TrackData, successors: Sequence[tuple[int, ...]], origin: str
) -> None:
    """Every space must lead to the finish line: walk the graph backwards from it."""
    before: list[list[int]] = [[] for _ in successors]
    reaches = [False] * len(successors)
    todo: list[int] = []
    for i, nexts in enumerate(successors):
        for j in nexts:
            if j == FINISH:
                if not reaches[i]:
                    reaches[i] = True
                    todo.append(i)
            else:
                before[j].append(i)
    while todo:
        j = todo.pop()
        for i in before[j]:
            if not reaches[i]:
                reaches[i] = True
                todo.append(i)
    for i, ok in enumerate(reaches):
        if not ok:
            raise DataError(
                f"{origin}: the finish line cannot be reached from space {data.spaces[i].id!r}"
            )


def track_hash(data: TrackData) -> str:
    """Return the hash of a track's canonical bytes: what a log records of a user track."""
    return hashlib.blake2b(msgspec.json.encode(data), digest_size=16).hexdigest()


def read_track_file(path: str | Path) -> TrackData:
    """Read, decode and check a user's track file."""
    origin = str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise DataError(f"{origin}: cannot read the track file: {exc.strerror}") from None
    data = decode_track(raw, origin)
    compile_track(data, origin)
    return data


def builtin_track_data(name: str) -> TrackData:
    """Return the decoded data of a built-in track."""
    if name not in BUILTIN_TRACKS:
        raise DataError(f"unknown track {name!r}; built-in tracks: {', '.join(BUILTIN_TRACKS)}")
    raw = resources.files(__package__).joinpath(f"data/track-{name}.json").read_bytes()
    return decode_track(raw, f"track-{name}.json")


_COMPILED: dict[str, Track] = {}
_BUILTIN_HASHES: dict[str, str] = {}


def builtin_track_hash(name: str) -> str:
    """Return the hash of a built-in track's data, computed once."""
    digest = _BUILTIN_HASHES.get(name)
    if digest is None:
        digest = _BUILTIN_HASHES[name] = track_hash(builtin_track_data(name))
    return digest


def builtin_track(name: str) -> Track:
    """Return a built-in track, compiled once."""
    track = _COMPILED.get(name)
    if track is None:
        track = compile_track(builtin_track_data(name), f"track-{name}.json")
        _COMPILED[name] = track
    return track


def track_from_data(data: TrackData, key: str) -> Track:
    """Return a user track compiled once per ``key`` (its hash)."""
    cache_key = "user:" + key
    track = _COMPILED.get(cache_key)
    if track is None:
        track = compile_track(data, data.name or "track")
        if len(_COMPILED) > 64:
            for stale in [k for k in _COMPILED if k.startswith("user:")]:
                del _COMPILED[stale]
        _COMPILED[cache_key] = track
    return track


# Authoring --------------------------------------------------------------------------------
LANE_LETTERS = "LCR"


class Section(msgspec.Struct, frozen=True):
    """A stretch of track for the builder: spaces per lane (0 left, 1 centre, 2 right).

    A straight gives its lanes equal counts; a curve gives its inside lane fewer spaces.
    """

    name: str
    lanes: dict[int, int]


def build_track(
    name: str,
    title: str,
    sections: Sequence[Section],
    start: Sequence[str],
    *,
    source: Source = "proposal",
    note: str = "",
) -> TrackData:
    """Expand sections into a graph of spaces; the last section ends at the finish line.

    Within a section, space ``k`` of a lane of ``n`` spaces covers the fraction
    ``k / n`` to ``(k + 1) / n`` of it. A step goes straight to the next space of the
    lane, or diagonally to the first space of a neighbouring lane that starts where this
    one ends or later; at the end of a section it goes to the first space of the same or
    a neighbouring lane of the next section. Distances (a space's middle) are measured
    in spaces of the section's longest lane.
    """
    spaces: list[dict[str, object]] = []
    offset = 0.0
    layout: list[tuple[Section, float, dict[int, list[str]]]] = []
    for section in sections:
        ids = {
            lane: [f"{section.name}:{k + 1}{LANE_LETTERS[lane]}" for k in range(count)]
            for lane, count in sorted(section.lanes.items())
        }
        layout.append((section, offset, ids))
        offset += max(section.lanes.values())
    for number, (section, offset, ids) in enumerate(layout):
        following = layout[number + 1][2] if number + 1 < len(layout) else None
        length = max(section.lanes.values())
        for lane, names in ids.items():
            count = len(names)
            for k, space_id in enumerate(names):
                centre = (k + 0.5) / count
                ahead: list[str] = []
                diagonal: list[str] = []
                if k + 1 < count:
                    ahead.append(names[k + 1])
                elif following is not None and lane in following:
                    ahead.append(following[lane][0])
                for side in (lane - 1, lane + 1):
                    if side not in ids:
                        if k + 1 == count and following is not None and side in following:
                            diagonal.append(following[side][0])
                        continue
                    other = ids[side]
                    later = [j for j in range(len(other)) if j * count >= (k + 1) * len(other)]
                    if later:
                        diagonal.append(other[later[0]])
                    elif following is not None and side in following:
                        diagonal.append(following[side][0])
                spaces.append(
                    {
                        "id": space_id,
                        "section": section.name,
                        "lane": lane,
                        "distance": round(offset + centre * length, 3),
                        "ahead": ahead,
                        "diagonal": diagonal,
                    }
                )
    last_ids = layout[-1][2]
    finish = [names[-1] for names in last_ids.values()]
    raw = {
        "format": TRACK_FORMAT,
        "name": name,
        "title": title,
        "source": source,
        "note": note,
        "spaces": spaces,
        "start": list(start),
        "finish": finish,
    }
    return msgspec.convert(raw, type=TrackData)
