"""Detroit-Cleveland's options; the defaults follow the rulebook."""

from __future__ import annotations

from racedeck.core.model import Options
from racedeck.games.detroit_cleveland.data import RACES
from racedeck.games.detroit_cleveland.track import TrackData


class DetroitClevelandOptions(Options, frozen=True):
    """How a Detroit-Cleveland match is played.

    ``track``: a built-in track (``detroit``, ``cleveland``) or the path of a track file.
    A file's content is copied into ``track_data`` when the options are parsed, so a log
    carries its track and replays without the file; ``track_hash`` records the track's
    hash (built-in tracks too), and a log whose track no longer matches it is refused.
    ``races``: races in the match (the rulebook's is 3). ``tournament_seating``: the
    tournament rule, turn order follows the cars' start positions. The five optional
    rules: ``ten_counts_in_deck`` (all seven 10 count cards shuffled into the deck),
    ``no_car_limit``, ``no_car_required``, ``white_own_car`` (white may move the player's
    own car short of the full count) and ``may_stop_when_finished``.
    """

    track: str = "detroit"
    track_data: TrackData | None = None
    track_hash: str = ""
    races: int = RACES
    tournament_seating: bool = False
    ten_counts_in_deck: bool = False
    no_car_limit: bool = False
    no_car_required: bool = False
    white_own_car: bool = False
    may_stop_when_finished: bool = False
