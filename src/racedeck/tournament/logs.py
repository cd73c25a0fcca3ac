"""Kept match logs: compressed by the worker that played the match, written by the driver.

A worker never writes a log to its own disk (on a cluster that disk is another machine's):
it compresses the log with gzip and hands it back with the match's record. The driver
writes it beside the database, as ``match-0000042.jsonl.gz`` (the bytes as they came) or,
with ``--log-compression none``, as plain ``match-0000042.jsonl``. Every command that reads
a log reads either form (``racedeck.core.log.open_log``).

Each file is written whole or not at all and synced to disk before the row that names it
is committed. Syncing one file takes milliseconds on a disk, so several files are written
at once on a few threads (the disk's journal then commits them together).
"""

from __future__ import annotations

import gzip
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import msgspec

from racedeck.core.files import write_atomically
from racedeck.tournament.record import MatchRecord, PlayedMatch
from racedeck.tournament.spec import TournamentSpec

GZIP_LEVEL = 6
"""zlib's default: a quarter of the plain size for a LACORSA log (hash chains do not
compress), at about a fifth of the time the match took to play."""

LOG_WRITERS = 4
"""Threads writing kept logs at once in the driver."""


def pack_log(log: bytes) -> bytes:
    """Return a log compressed for the journey home; the same bytes for the same log."""
    return gzip.compress(log, compresslevel=GZIP_LEVEL, mtime=0)


def log_path(spec: TournamentSpec, index: int) -> Path:
    """Return where the log of match ``index`` is kept."""
    suffix = ".jsonl.gz" if spec.log_compression == "gzip" else ".jsonl"
    return Path(spec.log_dir) / f"match-{index:07d}{suffix}"


class LogKeeper:
    """Writes the logs that come back with records, several at a time, into the log folder."""

    def __init__(self, spec: TournamentSpec, writers: int = LOG_WRITERS) -> None:
        self.spec = spec
        self._writers = writers
        self._pool: ThreadPoolExecutor | None = None

    def keep(self, played: PlayedMatch) -> tuple[MatchRecord, Future[Path] | None]:
        """Start writing the match's log, if it came with one; return its record and the write.

        The record names the log's path; it must not be committed before the write is done.
        """
        if not played.log:
            return played.record, None
        if self._pool is None:
            Path(self.spec.log_dir).mkdir(parents=True, exist_ok=True)
            self._pool = ThreadPoolExecutor(self._writers, thread_name_prefix="racedeck-log")
        path = log_path(self.spec, played.record.index)
        plain = self.spec.log_compression == "none"
        written = self._pool.submit(_write, path, played.log, plain)
        return msgspec.structs.replace(played.record, log=str(path)), written

    def close(self) -> None:
        """Wait for the writes under way and stop the threads."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None


def _write(path: Path, packed: bytes, plain: bool) -> Path:
    return write_atomically(path, gzip.decompress(packed) if plain else packed)
