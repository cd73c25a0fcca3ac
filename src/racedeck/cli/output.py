"""Keeping a command's standard output for its own result when it prints JSON.

With ``--json`` a script reads standard output as one JSON object, so nothing else may
reach it: not a bot's ``print``, not a plugin's chatter, not a C extension writing to
file descriptor 1. While such a command runs, descriptor 1 (and ``sys.stdout``) point at
standard error, and ``write_result`` writes the JSON to the real output kept aside.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import TextIO


class _Kept:
    stream: TextIO | None = None


def write_result(text: str) -> None:
    """Write a command's result to the real standard output."""
    stream = _Kept.stream or sys.stdout
    stream.write(text)
    stream.flush()


@contextlib.contextmanager
def result_only(active: bool) -> Iterator[None]:
    """While the block runs, send everything but ``write_result`` to standard error."""
    if not active:
        yield
        return
    sys.stdout.flush()
    try:
        saved = os.dup(1)
        os.dup2(2, 1)
    except OSError:  # no descriptors to juggle (an embedding host): nothing to protect
        yield
        return
    previous, sys.stdout = sys.stdout, sys.stderr
    try:
        backed = previous.fileno() == 1
    except (AttributeError, OSError, ValueError):  # a stream in memory (a test's capture)
        backed = False
    kept = os.fdopen(os.dup(saved), "w", encoding="utf-8") if backed else previous
    _Kept.stream = kept
    try:
        yield
    finally:
        if backed:
            with contextlib.suppress(OSError, ValueError):
                kept.close()
        _Kept.stream = None
        sys.stdout = previous
        sys.stderr.flush()
        os.dup2(saved, 1)
        os.close(saved)
