"""From options to a race set-up: reading named track and card files, compiling both.

``load_named_files`` is the one place that reads a user's files: it runs when options are
parsed (at the edge, before a match) and puts the files' content into the options, so the
options, and every log header, carry the track and the card table themselves.
``build_setup`` turns a track and a card table into the tuples the rules index.
"""

from __future__ import annotations

import functools

from msgspec.structs import replace

from racedeck.core.errors import OptionError
from racedeck.games.famous500 import data
from racedeck.games.famous500.data import COSTED, KINDS, CardTable, Track
from racedeck.games.famous500.options import Famous500Options
from racedeck.games.famous500.state import Setup


def looks_like_file(value: str) -> bool:
    """Return True when an option value names a file rather than a built-in."""
    return "/" in value or value.endswith((".json", ".toml"))


def load_named_files(options: Famous500Options) -> Famous500Options:
    """Return ``options`` with the content of any named track or card file filled in."""
    if options.track_data is None and options.track not in data.BUILTIN_TRACKS:
        if not looks_like_file(options.track):
            known = ", ".join(data.BUILTIN_TRACKS)
            raise OptionError(
                f"famous-500: unknown track {options.track!r}; built-in tracks: {known}, "
                "or give the path of a .json or .toml track file"
            )
        track = data.load_track(data.read_file(options.track), options.track)
        options = replace(options, track_data=track)
    if options.cards_data is None and options.cards not in data.BUILTIN_CARDS:
        if not looks_like_file(options.cards):
            known = ", ".join(data.BUILTIN_CARDS)
            raise OptionError(
                f"famous-500: unknown card table {options.cards!r}; built-in: {known}, "
                "or give the path of a .json or .toml card file"
            )
        table = data.load_cards(data.read_file(options.cards), options.cards)
        options = replace(options, cards_data=table)
    return options


def build_setup(options: Famous500Options) -> Setup:
    """Return the compiled track and card table the options name or carry."""
    if options.track_data is not None:
        track = data.check_track(options.track_data, "option track_data")
    elif options.track in data.BUILTIN_TRACKS:
        track = data.builtin_track(options.track)
    else:
        raise OptionError(
            f"famous-500: track {options.track!r} is not built in and its content was "
            "not loaded; build the options with parse_options to read a track file"
        )
    if options.cards_data is not None:
        table = data.check_cards(options.cards_data, "option cards_data")
    elif options.cards in data.BUILTIN_CARDS:
        table = data.builtin_cards(options.cards)
    else:
        raise OptionError(
            f"famous-500: card table {options.cards!r} is not built in and its content "
            "was not loaded; build the options with parse_options to read a card file"
        )
    return compile_setup(track, table, options.laps)


def compiled_setup(options: Famous500Options) -> Setup:
    """Return ``build_setup(options)``, compiled once per distinct options.

    Options are frozen, so equal options compile to equal set-ups; options carrying a card
    table (whose costs are mappings) cannot be hashed and are compiled each time.
    """
    try:
        hash(options)
    except TypeError:
        return build_setup(options)
    return _cached_setup(options)


@functools.lru_cache(maxsize=64)
def _cached_setup(options: Famous500Options) -> Setup:
    return build_setup(options)


def compile_setup(track: Track, table: CardTable, laps: int) -> Setup:
    """Compile a track and a card table into the tuples the rules index."""
    cards = sorted(table.cards, key=lambda c: c.speed)
    costs: list[tuple[tuple[int, int, int], ...]] = []
    for card in cards:
        per_kind: list[tuple[int, int, int]] = []
        for kind in KINDS:
            charged = card.cost[kind]
            tires, fuel, engine = (charged.get(column, 0) for column in COSTED)
            per_kind.append((tires, fuel, engine))
        costs.append(tuple(per_kind))
    rules = data.RULES
    return Setup(
        track=track.name,
        cards=table.name,
        difficulty=track.difficulty,
        laps=laps,
        names=tuple(s.name or f"section {i + 1}" for i, s in enumerate(track.sections)),
        kinds=tuple(KINDS.index(s.kind) for s in track.sections),
        pits=tuple(s.pit for s in track.sections),
        speeds=tuple(c.speed for c in cards),
        costs=tuple(costs),
        repair=data.REPAIR,
        faster_points=rules.faster_points.value,
        slower_points=rules.slower_points.value,
        lone_racer_points=rules.lone_racer_points.value,
        false_start_above=rules.false_start_above.value,
    )
