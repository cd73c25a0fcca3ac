"""From a tournament's rows to its matches: which seat did what, and any match's log again.

``seat_result`` names how one seat's match ended for it, ``select`` keeps the matches
where a seat fits a filter, and ``match_log`` plays one recorded match again exactly as
its worker played it (the same code, seed and bots) and returns its log: byte for byte
the log ``--keep-logs`` would have kept, since a match is fixed by its seed.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterable, Iterator
from pathlib import Path

import msgspec

from racedeck.core.errors import UsageError, VerificationError
from racedeck.tournament.plan import only_named_code
from racedeck.tournament.record import ERROR, MatchRecord
from racedeck.tournament.spec import TournamentSpec

WIN = "win"
LOSS = "loss"
FAULT = "fault"
RESULTS: tuple[str, ...] = (WIN, LOSS, FAULT, ERROR)
"""How a match ended for one seat: ``win`` (first, ties included), ``loss``, ``fault``
(that seat forfeited it) or ``error`` (the match could not be played)."""


def seat_result(record: MatchRecord, seat: int) -> str:
    """Return how the match ended for ``seat``: one of ``RESULTS``."""
    if record.status == ERROR:
        return ERROR
    if record.fault_seat == seat:
        return FAULT
    if seat < len(record.ranks) and record.ranks[seat] == 1:
        return WIN
    return LOSS


def select(
    records: Iterable[MatchRecord],
    bot: str | None = None,
    seat: int | None = None,
    result: str | None = None,
) -> Iterator[MatchRecord]:
    """Yield the matches in which some seat fits every filter given.

    A seat fits when ``bot`` sat in it, it is seat number ``seat`` and the match ended
    for it with ``result``; a filter left ``None`` lets every seat through.
    """
    if result is not None and result not in RESULTS:
        raise UsageError(f"--result must be one of {', '.join(RESULTS)}, got {result!r}")
    for record in records:
        if any(
            (bot is None or name == bot)
            and (seat is None or index == seat)
            and (result is None or seat_result(record, index) == result)
            for index, name in enumerate(record.seats)
        ):
            yield record


def check_filters(spec: TournamentSpec, bot: str | None, seat: int | None) -> None:
    """Raise ``UsageError`` for a bot the tournament never entered or a seat it never had."""
    if bot is not None and bot not in spec.bots:
        raise UsageError(f"--bot {bot!r} did not play in this tournament: {', '.join(spec.bots)}")
    if seat is not None and not 0 <= seat < spec.players:
        raise UsageError(f"--seat {seat}: the tournament's seats go from 0 to {spec.players - 1}")


def replay_spec(
    spec: TournamentSpec, db: Path, plugins_dir: Path | None, programs: Iterable[str] = ()
) -> TournamentSpec:
    """Return the spec to play a stored match again with, running only code the user named.

    As for resuming: a database may come from someone else, so a program it names runs
    only when ``programs`` names it too, and its plugins folder only when ``plugins_dir``
    is that folder. No log is written anywhere by the spec returned; the caller has it.
    """
    only_named_code(spec, db, plugins_dir, programs, "playing its match again")
    return msgspec.structs.replace(spec, keep_logs="all", log_dir="")


def check_index(spec: TournamentSpec, recorded: Iterable[MatchRecord], index: int) -> MatchRecord:
    """Return match ``index``'s record; a ``UsageError`` when there is no such match."""
    if not 0 <= index < spec.matches:
        raise UsageError(f"no match {index}: the tournament has matches 0 to {spec.matches - 1}")
    for record in recorded:
        if record.index == index:
            return record
    raise UsageError(f"match {index} has not been played yet (racedeck tournament resume plays it)")


def match_log(spec: TournamentSpec, record: MatchRecord) -> bytes:
    """Play ``record``'s match again and return its log (plain, not compressed).

    Raises ``VerificationError`` when the match ends otherwise than recorded (a bot or
    the game changed in a way its version does not say, or a time limit decided it).
    """
    from racedeck.tournament.worker import iter_batch

    (played,) = iter_batch(spec, [record.index])
    again = msgspec.structs.replace(played.record, log=record.log)
    if again != record:
        raise VerificationError(
            f"match {record.index} ends otherwise when played again ({again.status},"
            f" ranks {list(again.ranks)}) than recorded ({record.status}, ranks"
            f" {list(record.ranks)}): its log cannot be written as it was"
        )
    if not played.log:
        raise UsageError(
            f"match {record.index} left no log: {record.reason or 'it could not be played'}"
        )
    return gzip.decompress(played.log)
