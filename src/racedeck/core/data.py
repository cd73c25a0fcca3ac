"""Shared pieces of the games' data files: where each item comes from, and decoding.

Every piece of game data carries a ``source``: ``seed`` (stated by the rulebook),
``published`` (found in public material about the physical game) or ``proposal`` (a
designed value for a gap), so that a reader can tell a rule from a guess.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Literal, TypeVar

import msgspec

from racedeck.core.errors import DataError

Source = Literal["seed", "published", "proposal"]
"""Where a piece of game data comes from."""

T = TypeVar("T")

MAX_DATA_FILE = 8 << 20
"""The largest user data file (a track, a card table) read, in bytes."""


_FILES_REFUSED: ContextVar[str] = ContextVar("files_refused", default="")
"""While set, why no user data file may be read (``files_refused``)."""


@contextlib.contextmanager
def files_refused(why: str) -> Iterator[None]:
    """Within the block, ``read_user_file`` refuses every file, saying ``why``.

    A log's header names its options, and a log may come from someone else: a match it
    describes carries its data (a track, a card table), so reading it opens no file of the
    reader's machine, whatever path the header names.
    """
    token = _FILES_REFUSED.set(why)
    try:
        yield
    finally:
        _FILES_REFUSED.reset(token)


def read_user_file(path: str | Path, what: str = "file") -> bytes:
    """Return a user's data file's bytes: a regular file of at most ``MAX_DATA_FILE`` bytes.

    A device (``/dev/zero``, ``/dev/stdin``), a pipe or a folder is refused with a
    ``DataError`` before any byte is read: opening does not wait for a pipe's writer, and
    only a regular file is read. An endless or huge file is refused past the limit.
    """
    origin = str(path)
    refused = _FILES_REFUSED.get()
    if refused:
        raise DataError(f"{origin}: {refused}")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise DataError(f"{origin}: cannot read the {what}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise DataError(f"{origin}: the {what} is not a regular file")
            raw = handle.read(MAX_DATA_FILE + 1)
    except OSError as exc:
        raise DataError(f"{origin}: cannot read the {what}: {exc.strerror or exc}") from None
    if len(raw) > MAX_DATA_FILE:
        raise DataError(f"{origin}: the {what} is larger than {MAX_DATA_FILE} bytes")
    return raw


class Tagged(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A single number and where it comes from."""

    value: int
    source: Source


class TaggedList(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A list of numbers and where it comes from."""

    values: list[int]
    source: Source


def decode_data(raw: bytes, kind: type[T], origin: str) -> T:
    """Decode a JSON data file into ``kind``, raising ``DataError`` that names the file."""
    try:
        return msgspec.json.decode(raw, type=kind)
    except msgspec.DecodeError as exc:
        raise DataError(f"{origin}: {exc}") from None
