"""What a tournament keeps of one finished match."""

from __future__ import annotations

import msgspec

OK = "ok"
FORFEIT = "forfeit"
ERROR = "error"
STATUSES: tuple[str, ...] = (OK, FORFEIT, ERROR)
"""``ok``: played to the end; ``forfeit``: a bot faulted and lost the match; ``error``:
the match could not be played (a bot failed to start, or the game itself failed)."""


class MatchRecord(msgspec.Struct, frozen=True, kw_only=True):
    """One finished match: its place in the schedule, the seats and how it ended.

    ``ranks`` and ``scores`` are per seat; ``fault_seat`` and ``reason`` say who forfeited
    (or why the match failed) and ``faults`` lists every fault recorded, forfeit or not.
    An ``error`` match has no ranks and counts in no standings.
    """

    index: int
    seed: int
    deal: int
    seats: tuple[str, ...]
    status: str
    ranks: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    unit: str = ""
    events: int = 0
    fault_seat: int = -1
    reason: str = ""
    faults: tuple[str, ...] = ()
    log: str = ""

    @property
    def counted(self) -> bool:
        """True when the match counts in the standings (it was played or forfeited)."""
        return self.status != ERROR

    @property
    def failed(self) -> bool:
        """True when a bot faulted or the match could not be played."""
        return self.status != OK or bool(self.faults)


class PlayedMatch(msgspec.Struct, frozen=True):
    """A match as a worker hands it back: its record and, when it is kept, its log.

    ``log`` is the whole log compressed with gzip (empty when the log is not kept): logs
    travel back with their records and the driver writes them where the user asked, so
    they end up beside the database whichever machine played the match.
    """

    record: MatchRecord
    log: bytes = b""
