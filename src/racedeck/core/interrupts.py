"""Telling a real interrupt from a bot that raises ``KeyboardInterrupt`` or ``SystemExit``.

A bot may raise anything, ``SystemExit`` and ``KeyboardInterrupt`` included, and that is
its seat's fault. A person pressing Ctrl-C, or a signal telling a tournament to stop,
must still stop the engine. The engine's own handlers mark that here before they raise,
so the runner re-raises only what was marked.
"""

from __future__ import annotations

import contextlib
import importlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any


class _State:
    received = False


def mark() -> None:
    """Record that a real interrupt arrived (called by the engine's signal handlers)."""
    _State.received = True


def received() -> bool:
    """Return True once a real interrupt arrived in this process."""
    return _State.received


def _on_sigint(signum: int, frame: FrameType | None) -> None:
    mark()
    raise KeyboardInterrupt


# The ``signal`` module's own functions turn every handler they return into an enum
# member, through a ValueError raised and caught for a function: tens of microseconds a
# match. Watching a match swaps SIGINT's handler twice, so it uses the C functions.
_raw_signal: Any = importlib.import_module("_signal")
_SIGINT = int(signal.SIGINT)


@contextlib.contextmanager
def watching() -> Iterator[None]:
    """Mark Ctrl-C as a real interrupt while the block runs (main thread, default handler)."""
    if (
        threading.current_thread() is not threading.main_thread()
        or _raw_signal.getsignal(_SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    _raw_signal.signal(_SIGINT, _on_sigint)
    try:
        yield
    finally:
        _raw_signal.signal(_SIGINT, signal.default_int_handler)


def is_bots_own(exc: BaseException) -> bool:
    """Return True when ``exc``, raised out of a bot's code, is the bot's and not an interrupt."""
    return not (isinstance(exc, (KeyboardInterrupt, SystemExit)) and received())


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    mark()
    raise KeyboardInterrupt


@contextlib.contextmanager
def sigterm_interrupts() -> Iterator[None]:
    """While the block runs, SIGTERM stops the program as Ctrl-C does (main thread only).

    A tournament asked to stop then commits what it has, stops its workers and says how
    to resume, instead of dying with its workers orphaned.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
