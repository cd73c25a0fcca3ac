"""Writing a file whole or not at all: under ``<name>.partial``, renamed only on success.

A reader (a person, a resumed tournament, another process) never finds a half-written
file under the target's own name: the content goes to ``<target>.partial`` first, is
flushed and synced to disk, and only then renamed over the target in one step. When
writing fails, the partial file is removed and the target is left as it was.

``atomic_write`` hands out an open binary file; ``write_atomically`` writes bytes in one
call; ``atomic_path`` hands out the partial path itself, for writers that open the file
on their own (SQLite). A failure of the file operations these make raises
``FileWriteError`` ("cannot write WHAT: why"); whatever the caller's own block raises
passes through unchanged, after the partial file is removed.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from racedeck.core.errors import RacedeckError

PARTIAL_SUFFIX = ".partial"


class FileWriteError(RacedeckError):
    """A file could not be written (or renamed into place); its target is as it was."""

    def __init__(self, what: str, cause: OSError) -> None:
        super().__init__(f"cannot write {what}: {cause.strerror or cause}")
        self.cause = cause
        """The operating system's error."""


def partial_path(target: str | Path) -> Path:
    """Return the temporary name ``target`` is written under: ``<target>.partial``."""
    target = Path(target)
    return target.with_name(target.name + PARTIAL_SUFFIX)


@contextmanager
def atomic_path(target: str | Path, what: str | None = None) -> Iterator[Path]:
    """Yield the partial path to write ``target``'s content to; rename it over ``target``.

    A stale partial file from an earlier failed attempt is removed first. When the block
    raises, or the rename fails, the partial file is removed and ``target`` is untouched.
    ``what`` names the file in a ``FileWriteError`` (default: its path).
    """
    target = Path(target)
    partial = partial_path(target)
    what = what or str(target)
    try:
        partial.unlink(missing_ok=True)
    except OSError as exc:
        raise FileWriteError(what, exc) from None
    try:
        yield partial
        try:
            os.replace(partial, target)
        except OSError as exc:
            raise FileWriteError(what, exc) from None
    except BaseException:
        with contextlib.suppress(OSError):  # the first failure is the one to report
            partial.unlink(missing_ok=True)
        raise


@contextmanager
def atomic_write(target: str | Path, what: str | None = None) -> Iterator[BinaryIO]:
    """Yield ``<target>.partial`` opened for binary writing; on success it becomes ``target``.

    The file is flushed and synced before the rename, so ``target`` is either as it was
    or the whole new file, also after a crash. ``what`` names the file in a
    ``FileWriteError`` (default: its path).
    """
    what = what or str(target)
    with atomic_path(target, what) as partial:
        try:
            handle = open(partial, "wb")  # noqa: SIM115 - closed by the with below
        except OSError as exc:
            raise FileWriteError(what, exc) from None
        with handle:
            yield handle
            try:
                handle.flush()
                os.fsync(handle.fileno())
            except OSError as exc:
                raise FileWriteError(what, exc) from None


def write_atomically(target: str | Path, payload: bytes, what: str | None = None) -> Path:
    """Write ``payload`` to ``target`` whole or not at all; return ``target`` as a path.

    Any failure raises ``FileWriteError`` naming ``what`` (default: the path).
    """
    what = what or str(target)
    with atomic_write(target, what) as handle:
        try:
            handle.write(payload)
        except OSError as exc:
            raise FileWriteError(what, exc) from None
    return Path(target)
