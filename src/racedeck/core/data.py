"""Shared pieces of the games' data files: where each item comes from, and decoding.

Every piece of game data carries a ``source``: ``seed`` (stated by the rulebook),
``published`` (found in public material about the physical game) or ``proposal`` (a
designed value for a gap), so that a reader can tell a rule from a guess.
"""

from __future__ import annotations

from typing import Literal, TypeVar

import msgspec

from racedeck.core.errors import DataError

Source = Literal["seed", "published", "proposal"]
"""Where a piece of game data comes from."""

T = TypeVar("T")


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
