"""Famous 500's components as data: the rules table, card tables and tracks.

Three kinds of file live in ``data/``: ``famous500.json`` (hand size, points, repair
rates, the sample cars), ``cards-<name>.json`` (the nine Speed cards and what each costs
on each kind of section) and ``track-<name>.json`` (a track: its difficulty and its
sections in order, some of them pit sections). Users add their own card tables and tracks
as JSON or TOML files of the same shape; ``docs/rules/famous-500.md`` describes it.
Everything is checked on loading and a malformed file raises ``DataError`` naming the file
and what is wrong. A card is its speed (an ``int``): no two cards share one.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from importlib import resources
from types import MappingProxyType
from typing import Literal

import msgspec

from racedeck.core.data import read_user_file
from racedeck.core.errors import DataError

Source = Literal["seed", "published", "proposal", "user"]
"""Where a datum comes from: the tutorial (seed), published facts, the research's proposals,
or a user's own file."""

SectionKind = Literal["black", "grey", "white"]
Column = Literal["tires", "fuel", "engine"]

KINDS: tuple[SectionKind, ...] = ("black", "grey", "white")
"""Section kinds in index order: hairpins, curves, straightaways."""
COLUMNS: tuple[str, ...] = ("tires", "fuel", "engine", "speed")
"""The four columns of a car sheet, in index order."""
COSTED: tuple[Column, ...] = ("tires", "fuel", "engine")
"""The columns a section can charge (Speed is earned, never charged)."""
TIRES, FUEL, ENGINE, SPEED = 0, 1, 2, 3
CARDS_IN_GAME = 9
"""Nine Speed cards: three per hand and three in the pit deck."""


class Tagged(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A single number and where it comes from."""

    value: int
    source: Source


class Repair(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What one Speed point buys in the pit, per column."""

    tires: int
    fuel: int
    engine: int
    source: Source


class SampleCar(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One of the tutorial's sample car designs."""

    name: str
    tires: int
    fuel: int
    engine: int
    speed: int
    source: Source

    @property
    def split(self) -> tuple[int, int, int, int]:
        """The design as (tires, fuel, engine, speed)."""
        return (self.tires, self.fuel, self.engine, self.speed)


class RulesData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The numbers of the rules themselves (``famous500.json``)."""

    hand_size: Tagged
    false_start_above: Tagged
    laps: Tagged
    faster_points: Tagged
    slower_points: Tagged
    lone_racer_points: Tagged
    repair: Repair
    sample_cars: tuple[SampleCar, ...]


class SectionType(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A kind of section: its label and the column it charges."""

    kind: SectionKind
    label: str
    column: Column
    source: Source = "user"


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One Speed card: its speed and its cost on each kind of section, ``{column: n}``."""

    speed: int
    cost: dict[SectionKind, dict[Column, int]]
    source: Source = "user"
    cost_source: Source = "user"


class CardTable(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A deck of nine Speed cards with their costs (``cards-<name>.json``)."""

    name: str
    cards: tuple[Card, ...]
    sections: tuple[SectionType, ...] = ()
    notes: str = ""


class Section(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One section of a track; ``pit`` marks the dotted line of a pit stop."""

    kind: SectionKind
    name: str = ""
    pit: bool = False
    source: Source = "user"


class Track(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A track (``track-<name>.json``): its difficulty and its sections, first one first."""

    name: str
    difficulty: int
    sections: tuple[Section, ...]
    difficulty_source: Source = "user"
    notes: str = ""


MAX_DIFFICULTY = 60
"""Car designs are enumerated as actions; 60 keeps that list under 40,000."""
MAX_SECTIONS = 100
MAX_COST = 99
MAX_SPEED = 1000
"""The fastest Speed card (the standard deck's: 200); a speed past what a number in a log
can hold would fail in the engine mid-match."""


def _decode(raw: bytes, kind: type[msgspec.Struct], origin: str) -> msgspec.Struct:
    """Decode JSON or TOML (chosen by the file's suffix) into ``kind``."""
    try:
        if origin.endswith(".toml"):
            try:
                loaded = tomllib.loads(raw.decode("utf-8"))
            except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
                raise DataError(f"{origin}: not valid TOML: {exc}") from None
            except RecursionError:
                raise DataError(f"{origin}: not valid TOML: nested too deep") from None
            return msgspec.convert(loaded, type=kind)
        return msgspec.json.decode(raw, type=kind)
    except msgspec.ValidationError as exc:
        raise DataError(f"{origin}: {exc}") from None
    except msgspec.DecodeError as exc:
        raise DataError(f"{origin}: not valid JSON: {exc}") from None


def check_track(track: Track, origin: str) -> Track:
    """Return ``track`` if it can be raced, else raise ``DataError`` saying why."""
    if not track.name.strip():
        raise DataError(f"{origin}: the track needs a name")
    if not 0 <= track.difficulty <= MAX_DIFFICULTY:
        raise DataError(
            f"{origin}: difficulty must be 0 to {MAX_DIFFICULTY}, got {track.difficulty}"
        )
    if not 1 <= len(track.sections) <= MAX_SECTIONS:
        raise DataError(
            f"{origin}: a track has 1 to {MAX_SECTIONS} sections, got {len(track.sections)}"
        )
    return track


def check_cards(table: CardTable, origin: str) -> CardTable:
    """Return ``table`` if it is a playable deck, else raise ``DataError`` saying why."""
    if len(table.cards) != CARDS_IN_GAME:
        raise DataError(
            f"{origin}: the deck has nine Speed cards (three each and three in the pit deck), "
            f"got {len(table.cards)}"
        )
    speeds = [c.speed for c in table.cards]
    if len(set(speeds)) != len(speeds):
        raise DataError(f"{origin}: two cards share a speed: {sorted(speeds)}")
    for card in table.cards:
        if not 0 < card.speed <= MAX_SPEED:
            raise DataError(f"{origin}: card speed must be 1 to {MAX_SPEED}, got {card.speed}")
        for kind in KINDS:
            if kind not in card.cost:
                raise DataError(f"{origin}: card {card.speed} has no cost for {kind} sections")
            for column, n in card.cost[kind].items():
                if not 0 <= n <= MAX_COST:
                    raise DataError(
                        f"{origin}: card {card.speed} costs {n} {column} on {kind} sections; "
                        f"costs are 0 to {MAX_COST}"
                    )
    return table


def load_track(raw: bytes, origin: str) -> Track:
    """Decode and check a track file's bytes."""
    track = _decode(raw, Track, origin)
    assert isinstance(track, Track)
    return check_track(track, origin)


def load_cards(raw: bytes, origin: str) -> CardTable:
    """Decode and check a card table file's bytes."""
    table = _decode(raw, CardTable, origin)
    assert isinstance(table, CardTable)
    return check_cards(table, origin)


def read_file(path: str) -> bytes:
    """Read a user's data file, as ``DataError`` when it cannot be read."""
    return read_user_file(path, "data file")


def load_rules(raw: bytes, origin: str = "famous500.json") -> RulesData:
    """Decode and check the rules table."""
    rules = _decode(raw, RulesData, origin)
    assert isinstance(rules, RulesData)
    if rules.hand_size.value != 3:
        raise DataError(f"{origin}: the hand size is three cards")
    for car in rules.sample_cars:
        if min(car.split) < 0:
            raise DataError(f"{origin}: sample car {car.name!r} has a negative column")
    return rules


_FILES = resources.files(__package__).joinpath("data")


def _builtin(prefix: str) -> Mapping[str, str]:
    names = {}
    for entry in _FILES.iterdir():
        file = entry.name
        if file.startswith(prefix) and file.endswith(".json"):
            names[file[len(prefix) : -len(".json")]] = file
    return MappingProxyType(dict(sorted(names.items())))


BUILTIN_TRACKS: Mapping[str, str] = _builtin("track-")
"""Built-in tracks by name (``monaco``), each the file holding it."""
BUILTIN_CARDS: Mapping[str, str] = _builtin("cards-")
"""Built-in card tables by name (``standard``), each the file holding it."""


@functools.cache
def builtin_track(name: str) -> Track:
    """Return the built-in track called ``name``."""
    file = BUILTIN_TRACKS[name]
    return load_track(_FILES.joinpath(file).read_bytes(), file)


@functools.cache
def builtin_cards(name: str) -> CardTable:
    """Return the built-in card table called ``name``."""
    file = BUILTIN_CARDS[name]
    return load_cards(_FILES.joinpath(file).read_bytes(), file)


RULES = load_rules(_FILES.joinpath("famous500.json").read_bytes())
"""The rules table every match uses."""
HAND_SIZE: int = RULES.hand_size.value
LAPS: int = RULES.laps.value
REPAIR: tuple[int, int, int] = (RULES.repair.tires, RULES.repair.fuel, RULES.repair.engine)
SAMPLE_CARS: tuple[SampleCar, ...] = RULES.sample_cars


def sample_name(split: tuple[int, int, int, int]) -> str:
    """Return the name of the tutorial's sample car with this design, or ``""``."""
    for car in SAMPLE_CARS:
        if car.split == split:
            return car.name
    return ""
