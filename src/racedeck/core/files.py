"""Writing a file whole or not at all: under ``<name>.partial``, renamed only on success.

A reader (a person, a resumed tournament, another process) never finds a half-written
file under the target's own name: the content goes to ``<target>.partial`` first, is
flushed and synced to disk, and only then renamed over the target in one step. When
writing fails, the partial file is removed and the target is left as it was.

``atomic_write`` hands out an open binary file; ``write_atomically`` writes bytes in one
call; ``atomic_path`` hands out the partial path itself, for writers that open the file
on their own (SQLite). A failure of the file operations these make raises
``FileWriteError`` ("cannot write WHAT: why"); whatever the caller's own block raises
passes through unchanged, after the partial file is removed. A target (or partial name)
that is a symbolic link, a folder, a device or anything but a regular file is refused
before anything is written (``UnsafeTargetError``), so a match is not played for a log
that cannot be kept.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from racedeck.core.errors import RacedeckError

PARTIAL_SUFFIX = ".partial"


WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS})
"""The errors of writing a file that say the disk, not the program, failed."""


class FileWriteError(RacedeckError):
    """A file could not be written (or renamed into place); its target is as it was."""

    def __init__(self, what: str, cause: OSError) -> None:
        super().__init__(f"cannot write {what}: {cause.strerror or cause}")
        self.cause: OSError | None = cause
        """The operating system's error (None when racedeck refused on its own)."""


class UnsafeTargetError(FileWriteError):
    """A file is to be written where something other than a regular file is."""

    def __init__(self, message: str) -> None:
        RacedeckError.__init__(self, message)
        self.cause = None


def check_target(target: str | Path, what: str | None = None) -> None:
    """Refuse to write ``target`` when it is a link, a folder, a device or any non-file.

    Writing renames a new file over the target: over a symbolic link that would replace
    the link, over a device node (as root) the device. Both, and the partial name beside
    it, must be absent or regular files. Raises ``UnsafeTargetError`` naming ``what``.
    """
    target = Path(target)
    what = what or str(target)
    if not target.name or target.name in (".", ".."):
        raise UnsafeTargetError(f"cannot write {what}: the path names no file")
    for path in (target, partial_path(target)):
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise FileWriteError(what, exc) from None
        if stat.S_ISLNK(info.st_mode):
            kind = "a symbolic link"
        elif stat.S_ISDIR(info.st_mode):
            kind = "a folder"
        elif not stat.S_ISREG(info.st_mode):
            kind = "not a regular file (a device, a pipe or a socket)"
        else:
            continue
        raise UnsafeTargetError(
            f"cannot write {what}: {path} is {kind}; racedeck writes only regular files"
        )


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
    what = what or str(target)
    check_target(target, what)
    partial = partial_path(target)
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

    The partial file is readable by its owner alone while it is written (mode 0600), and
    what lands under ``target`` must be the very file racedeck wrote: a partial name
    replaced meanwhile (by a link or another file) is refused, before the rename and after
    it, by the file's identity (device and inode), never by its name.
    """
    what = what or str(target)
    with atomic_path(target, what) as partial:
        try:
            # Created afresh (O_EXCL, no link followed): a link or file planted at the
            # partial name since the check above makes this fail instead of being written
            # through. Owner-only while the match runs: its deal is in there.
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
            handle = os.fdopen(os.open(partial, flags, 0o600), "wb")
        except OSError as exc:
            raise FileWriteError(what, exc) from None
        try:
            with handle:
                yield handle
                handle.flush()
                os.fsync(handle.fileno())
                mine = os.fstat(handle.fileno())
        except OSError as exc:
            # A write into the file by the block, its flush, sync or close: a full disk,
            # a quota, a file too big. Any other OSError is not the file's and goes on.
            if exc.errno not in WRITE_ERRNOS and exc.filename is not None:
                raise
            raise FileWriteError(what, exc) from None
        _refuse_swapped(partial, mine, what)
    _refuse_swapped(Path(target), mine, what, landed=True)


def _refuse_swapped(path: Path, mine: os.stat_result, what: str, *, landed: bool = False) -> None:
    """Raise ``UnsafeTargetError`` unless ``path`` is the file ``mine`` describes.

    ``landed``: the rename is done, so a stranger's file under the target's name is
    removed before refusing (it is not the file racedeck wrote).
    """
    try:
        found = os.lstat(path)
    except OSError:
        found = None
    if found is not None and (found.st_dev, found.st_ino) == (mine.st_dev, mine.st_ino):
        return
    if landed and found is not None and not stat.S_ISDIR(found.st_mode):
        with contextlib.suppress(OSError):
            path.unlink()
    raise UnsafeTargetError(
        f"cannot write {what}: {path} was replaced while it was being written; "
        "the file under its name would not be the one racedeck wrote"
    )


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
