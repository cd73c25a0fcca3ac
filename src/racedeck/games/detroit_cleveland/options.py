"""Detroit-Cleveland's options; the defaults follow the rulebook."""

from __future__ import annotations

from msgspec.structs import replace

from racedeck.core.errors import OptionError
from racedeck.core.model import Options
from racedeck.games.detroit_cleveland.data import RACES
from racedeck.games.detroit_cleveland.track import (
    BUILTIN_TRACKS,
    Track,
    TrackData,
    builtin_track,
    builtin_track_hash,
    compile_track,
    read_track_file,
    track_from_data,
    track_hash,
)


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


def track_of(options: DetroitClevelandOptions) -> Track:
    """Return the compiled track the options name (built-in, or carried in ``track_data``)."""
    if options.track_data is None:
        return builtin_track(options.track)
    return track_from_data(options.track_data, options.track_hash or track_hash(options.track_data))


def with_track(options: DetroitClevelandOptions) -> DetroitClevelandOptions:
    """Return the options with their track's hash, and a track file's content, filled in.

    A track file is read once, here, so that a log carries the track and replays without
    the file; a hash that no longer matches the track (altered data, or a built-in track
    changed since) is refused.
    """
    if options.track_data is None and options.track not in BUILTIN_TRACKS:
        if not options.track.endswith(".json"):
            raise OptionError(_unknown_track(options.track))
        track = read_track_file(options.track)
        return replace(options, track_data=track, track_hash=track_hash(track))
    digest = checked_track_hash(options)
    if options.track_data is not None:
        compile_track(options.track_data, f"track {options.track!r}")
    return replace(options, track_hash=digest)


def checked_track_hash(options: DetroitClevelandOptions) -> str:
    """Return the hash of the track the options carry or name, once it matches theirs.

    The track is ``track_data`` or a built-in track (a track file is read into
    ``track_data`` by ``with_track``); a ``track_hash`` given (a logged match's) must be
    that track's: one that is not was altered, or the built-in track changed since.
    """
    if options.track_data is not None:
        digest = track_hash(options.track_data)
        altered = (
            f"track_data of track {options.track!r} does not match its track_hash "
            f"{options.track_hash}: the track was altered"
        )
    elif options.track in BUILTIN_TRACKS:
        digest = builtin_track_hash(options.track)
        altered = (
            f"the built-in track {options.track!r} has changed since this match was set up "
            f"(hash {options.track_hash}, now {digest})"
        )
    else:
        raise OptionError(
            _unknown_track(options.track) + " (a track file is read by parse_options)"
        )
    if options.track_hash and options.track_hash != digest:
        raise OptionError(f"detroit-cleveland: {altered}")
    return digest


def _unknown_track(track: str) -> str:
    return (
        f"detroit-cleveland: unknown track {track!r}; use a built-in track "
        f"({', '.join(BUILTIN_TRACKS)}) or the path of a .json track file"
    )


def check_options(options: DetroitClevelandOptions) -> None:
    """Reject option values the rules cannot play, and a track they cannot name."""
    checked_track_hash(options)
    if not 1 <= options.races <= 100:
        raise OptionError(f"detroit-cleveland: races must be 1 to 100, got {options.races}")
