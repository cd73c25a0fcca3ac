"""Shared pieces of the games' data files: where each item comes from, and decoding.

Every piece of game data carries a ``source``: ``seed`` (stated by the rulebook),
``published`` (found in public material about the physical game) or ``proposal`` (a
designed value for a gap), so that a reader can tell a rule from a guess.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal, TypeVar

import msgspec

from racedeck.core.errors import DataError

Source = Literal["seed", "published", "proposal"]
"""Where a piece of game data comes from."""

T = TypeVar("T")

MAX_DATA_FILE = 8 << 20
"""The largest user data file (a track, a card table) read, in bytes."""


def read_user_file(path: str | Path, what: str = "file") -> bytes:
    """Return a user's data file's bytes: a regular file of at most ``MAX_DATA_FILE`` bytes.

    A device (``/dev/zero``), a pipe or an endless file is refused with a ``DataError``
    instead of being read without end.
    """
    origin = str(path)
    try:
        with open(path, "rb") as handle:
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
