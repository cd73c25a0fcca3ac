"""Famous 500's options; the defaults follow the tutorial and the research notes."""

from __future__ import annotations

from racedeck.core.model import Options
from racedeck.games.famous500.data import LAPS, CardTable, Track


class Famous500Options(Options, frozen=True):
    """How a Famous 500 race is run.

    ``track``: a built-in track's name (``monaco``) or the path of a user's track file
    (JSON or TOML). ``cards``: a built-in card table's name (``standard``) or a file.
    When a file is named, ``parse_options`` reads it into ``track_data`` / ``cards_data``,
    so the options (and every log header) carry the track itself and a log replays
    without the file. ``laps``: laps in the race (three, published).
    """

    track: str = "monaco"
    cards: str = "standard"
    laps: int = LAPS
    track_data: Track | None = None
    cards_data: CardTable | None = None
