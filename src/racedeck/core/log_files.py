"""Opening a log file for reading: plain, or compressed with gzip (recognised by its bytes).

A log may be stored compressed with gzip (a tournament keeps its logs as
``match-0000042.jsonl.gz``). ``open_log`` is the one place a log file is opened for
reading: it recognises a gzip file by its first bytes, whatever its name, so every
command that reads logs reads compressed ones too.
"""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path
from typing import IO, cast

from racedeck.core.errors import LogError

GZIP_MAGIC = b"\x1f\x8b"
"""The first two bytes of every gzip file."""
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
"""The first four bytes of a Zstandard frame (recognised, to be refused clearly)."""

DAMAGED_COMPRESSION: tuple[type[BaseException], ...] = (EOFError, zlib.error, gzip.BadGzipFile)
"""What reading a damaged or cut-off gzip file raises."""


def open_log(path: str | Path) -> IO[bytes]:
    """Open a log file for reading its lines, decompressing it when it is gzip-compressed.

    Raises ``LogError`` (line 0) when the file cannot be opened or is compressed in a
    format racedeck does not read.
    """
    try:
        with open(path, "rb") as probe:
            magic = probe.read(4)
        if magic.startswith(GZIP_MAGIC):
            return cast(IO[bytes], gzip.open(path, "rb"))
        if magic == ZSTD_MAGIC:
            raise LogError(
                str(path), 0, "compressed with zstd, which racedeck does not read: unpack it first"
            )
        return open(path, "rb")
    except OSError as exc:
        raise LogError(str(path), 0, f"cannot open: {exc.strerror}") from None


def decompressing(stream: IO[bytes]) -> IO[bytes]:
    """Return ``stream``, read through gzip when it holds a gzip file (seekable streams only)."""
    if not stream.seekable():
        return stream
    start = stream.tell()
    magic = stream.read(2)
    stream.seek(start)
    if magic == GZIP_MAGIC:
        return cast(IO[bytes], gzip.GzipFile(fileobj=stream, mode="rb"))
    return stream
