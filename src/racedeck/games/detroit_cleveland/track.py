"""Tracks as data: a directed graph of spaces, its loader and checks, and a section builder.

A track file is JSON (see ``docs/rules/detroit-cleveland.md``): every space has an id, a
lane, its distance along the track and the spaces straight ``ahead`` of it and
``diagonal``-ly ahead of it; ``start`` lists the six start positions, pole first;
``finish`` lists the spaces from which a step forward crosses the finish line. The loader
turns a file into a compact :class:`Track` (spaces as indexes, successors as tuples) and
rejects a malformed one with a one-line ``DataError``.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Literal

import msgspec

from racedeck.core.data import read_user_file
from racedeck.core.errors import DataError

Source = Literal["seed", "published", "proposal"]

FINISH = -2
"""A car's position once it has crossed the finish line; also the successor that crosses it."""
FINISH_ID = "finish"
"""How events and actions name the finish line where they name a space."""
OFF_TRACK = -1
"""A car's position before it is placed on a start position."""
START_POSITIONS = 6
TRACK_FORMAT = 1
MAX_SPACES = 500
"""The most spaces a track may have (the built-in ones have under 150)."""
MAX_LINKS = 4
"""The most spaces one space may lead to, ahead and diagonally (built in: 3)."""
MAX_LANE = 9
"""The highest lane number (built in: 2)."""
MAX_DISTANCE = 1000.0
"""The farthest a space may lie from the start (built in: 56.5)."""
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


class Track(msgspec.Struct, frozen=True, eq=False):
    """A checked track, compiled for speed: space ``i`` of the file is index ``i``.

    A track is compiled once per content (see ``builtin_track`` and ``track_from_data``),
    so it compares and hashes by identity: the tables derived from it are cached per track.
    """

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
    index: MappingProxyType[str, int]
    """Each space's index by its id."""

    def space_id(self, space: int) -> str:
        """Return the id of a space, or ``finish`` for a car across the line."""
        return FINISH_ID if space == FINISH else self.ids[space]

    def space_index(self, space_id: str) -> int:
        """Return the index of the space with this id, or ``FINISH`` for ``finish``."""
        return FINISH if space_id == FINISH_ID else self.index[space_id]


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
    # Bounds on what a file may ask of the engine: what a car on a space can reach is
    # worked out for every space and count, and a track is drawn a column a unit of
    # distance, so a large graph of many links, or a distance of 1e300, would take the
    # machine's memory before a card is played.
    if len(data.spaces) > MAX_SPACES:
        raise DataError(f"{origin}: {len(data.spaces)} spaces; a track has at most {MAX_SPACES}")
    index: dict[str, int] = {}
    for i, space in enumerate(data.spaces):
        if not space.id or space.id == "finish":
            raise DataError(f"{origin}: space {i} has the reserved or empty id {space.id!r}")
        if space.id in index:
            raise DataError(f"{origin}: space id {space.id!r} appears twice")
        _check_bounds(space, origin)
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
        index=MappingProxyType(index),
    )


def _check_bounds(space: SpaceData, origin: str) -> None:
    """Refuse a space past the bounds a track is held to (``MAX_LANE``, ...)."""
    if not 0 <= space.lane <= MAX_LANE:
        raise DataError(
            f"{origin}: space {space.id!r} has lane {space.lane}; lanes are 0 to {MAX_LANE}"
        )
    if not 0 <= space.distance <= MAX_DISTANCE:
        raise DataError(
            f"{origin}: space {space.id!r} lies at distance {space.distance}; distances"
            f" are 0 to {MAX_DISTANCE:g}"
        )
    links = len(space.ahead) + len(space.diagonal)
    if links > MAX_LINKS:
        raise DataError(
            f"{origin}: space {space.id!r} leads to {links} spaces; at most {MAX_LINKS}"
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
    raw = read_user_file(path, "track file")
    data = decode_track(raw, origin)
    compile_track(data, origin)
    return data


def builtin_track_data(name: str) -> TrackData:
    """Return the decoded data of a built-in track."""
    if name not in BUILTIN_TRACKS:
        raise DataError(f"unknown track {name!r}; built-in tracks: {', '.join(BUILTIN_TRACKS)}")
    raw = resources.files(__package__).joinpath(f"data/track-{name}.json").read_bytes()
    return decode_track(raw, f"track-{name}.json")


@functools.cache
def builtin_track_hash(name: str) -> str:
    """Return the hash of a built-in track's data, computed once."""
    return track_hash(builtin_track_data(name))


@functools.cache
def builtin_track(name: str) -> Track:
    """Return a built-in track, compiled once."""
    return compile_track(builtin_track_data(name), f"track-{name}.json")


class _ByHash:
    """A user track's data as a cache key: its hash stands for its content.

    Hashing the whole data on every look-up would cost more than the look-up saves; the
    options carry the hash, checked against the content when they were parsed.
    """

    __slots__ = ("data", "digest")

    def __init__(self, data: TrackData, digest: str) -> None:
        self.data = data
        self.digest = digest

    def __hash__(self) -> int:
        return hash(self.digest)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _ByHash) and other.digest == self.digest


def track_from_data(data: TrackData, key: str) -> Track:
    """Return a user track compiled once per ``key`` (its hash)."""
    return _compiled(_ByHash(data, key))


@functools.lru_cache(maxsize=64)
def _compiled(key: _ByHash) -> Track:
    return compile_track(key.data, key.data.name or "track")


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
