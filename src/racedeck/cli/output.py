"""What a command writes: JSON kept apart from everything else, text without controls.

With ``--json`` a script reads standard output as one JSON object, so nothing else may
reach it: not a bot's ``print``, not a plugin's chatter, not a C extension writing to
file descriptor 1. While such a command runs, descriptor 1 (and ``sys.stdout``) point at
standard error, and ``write_result`` writes the JSON to the real output kept aside.
Text output goes through ``clean``, so no control character from a name or a file
reaches the terminal.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
from collections.abc import Iterator
from typing import TextIO


class _Kept:
    stream: TextIO | None = None
    answered = False
    """Whether the command has written its one result document in this run."""


def write_result(text: str, final: bool = True) -> None:
    """Write a command's result to the real standard output.

    ``final`` marks the run's one result document; a line of a running report (a match of
    a tournament) is not final. Once a run has its result, an error it ends with is told
    inside that result and on stderr, never as a second document (``answered``).
    """
    stream = _Kept.stream or sys.stdout
    stream.write(text)
    stream.flush()
    _Kept.answered = _Kept.answered or final


def answered() -> bool:
    """Return whether this run has written its result document."""
    return _Kept.answered


def new_run() -> None:
    """Forget the previous run's result: a new command starts."""
    _Kept.answered = False


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


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]")


def clean(text: str) -> str:
    r"""Return ``text`` with every control character written out as an escape.

    Bot names, option values, track data, fault reasons and file names reach the terminal;
    an escape sequence or a carriage return in them could rewrite what a person sees.
    Newlines and tabs pass; everything else below space, DEL, the C1 controls and the
    bidirectional and zero-width marks are shown as ``\xNN`` or ``\uNNNN``.
    """
    return _CONTROL.sub(_escape, text)


def continued(text: str) -> str:
    """Return a bot's text of several lines with each line after the first marked as its own.

    Debug text may rightly run over several lines; each continues under a ``|``, so none
    can pass for a line of the engine's.
    """
    return text.replace("\r", "\\r").replace("\n", "\n    | ")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


class _Cleaning(io.TextIOBase):
    """A text stream that passes everything written to it through ``clean``."""

    def __init__(self, inner: TextIO) -> None:
        self._inner = inner

    def write(self, text: str) -> int:
        self._inner.write(clean(text))
        return len(text)

    def flush(self) -> None:
        with contextlib.suppress(ValueError):  # the stream it wraps was closed meanwhile
            self._inner.flush()

    def isatty(self) -> bool:
        try:
            return self._inner.isatty()
        except ValueError:  # closed
            return False

    def fileno(self) -> int:
        return self._inner.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self._inner, "encoding", "utf-8")


def uncleaned(stream: TextIO) -> TextIO:
    """Return the stream under ``cleaned``'s wrapper, for a writer that cleans its own text.

    rich draws its tables with escape sequences of its own, which ``clean`` would show as
    text; it writes to this stream, and every cell it draws is ``clean``ed first.
    """
    return stream._inner if isinstance(stream, _Cleaning) else stream


@contextlib.contextmanager
def cleaned() -> Iterator[None]:
    """While the block runs, everything written to ``sys.stdout`` is ``clean``ed."""
    previous = sys.stdout
    sys.stdout = _Cleaning(previous)
    try:
        yield
    finally:
        sys.stdout = previous
