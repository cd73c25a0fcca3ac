"""Telling a real interrupt from a bot that raises ``KeyboardInterrupt`` or ``SystemExit``.

A bot may raise anything, ``SystemExit`` and ``KeyboardInterrupt`` included, and that is
its seat's fault. A person pressing Ctrl-C, or a signal telling a tournament to stop,
must still stop the engine. The engine's own handlers keep the very exception they raise,
so the runner re-raises only that one: there is no flag a bot could set.
"""

from __future__ import annotations

import contextlib
import importlib
import signal
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager
from types import FrameType
from typing import Any, NoReturn


class _State:
    raised: list[BaseException] = []
    """The interrupts the engine's own handlers raised, newest last (a few are kept)."""


_KEEP = 8


def _interrupt() -> NoReturn:
    """Raise a ``KeyboardInterrupt`` the engine can later tell for its own (handlers only)."""
    exc = KeyboardInterrupt()
    raised = _State.raised
    raised.append(exc)
    del raised[:-_KEEP]
    raise exc


def received() -> bool:
    """Return True once one of the engine's handlers raised an interrupt in this process."""
    return bool(_State.raised)


def _on_sigint(signum: int, frame: FrameType | None) -> None:
    _interrupt()


# The ``signal`` module's own functions turn every handler they return into an enum
# member, through a ValueError raised and caught for a function: tens of microseconds a
# match. Watching a match swaps SIGINT's handler twice, so it uses the C functions.
_raw_signal: Any = importlib.import_module("_signal")
_SIGINT = int(signal.SIGINT)


class _Watching:
    """The block ``watching`` returns, arming Ctrl-C on entry and disarming it on exit.

    A class, since a generator-made context manager costs about 12,000 instructions a
    match, a tenth of the runner's fixed cost for a short game.
    """

    __slots__ = ("_armed",)

    def __init__(self) -> None:
        self._armed = False

    def __enter__(self) -> None:
        # Only the main thread gets signals, and a handler someone else set stays theirs.
        if (
            threading.current_thread() is threading.main_thread()
            and _raw_signal.getsignal(_SIGINT) is signal.default_int_handler
        ):
            _raw_signal.signal(_SIGINT, _on_sigint)
            self._armed = True

    def __exit__(self, *exc_info: object) -> None:
        if self._armed:
            self._armed = False
            _raw_signal.signal(_SIGINT, signal.default_int_handler)


def watching() -> AbstractContextManager[None]:
    """Mark Ctrl-C as a real interrupt while the block runs (main thread, default handler)."""
    return _Watching()


_HELD = (int(signal.SIGINT), int(signal.SIGTERM))
"""The signals ``held`` keeps back: Ctrl-C, and SIGTERM where it stops a run as Ctrl-C does."""


class _Holding:
    """The block ``held`` returns: Ctrl-C and SIGTERM wait for its end, then act."""

    __slots__ = ("_arrived", "_previous")

    def __init__(self) -> None:
        self._previous: list[tuple[int, Any]] = []
        self._arrived: list[int] = []

    def _hold(self, signum: int, frame: FrameType | None) -> None:
        self._arrived.append(signum)

    def __enter__(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        for signum in _HELD:
            handler = _raw_signal.getsignal(signum)
            # Only a Python handler raises inside the block. A signal ignored, or left to
            # its default action (which ends the process outright), is left as it is.
            if callable(handler):
                _raw_signal.signal(signum, self._hold)
                self._previous.append((signum, handler))

    def __exit__(self, *exc_info: object) -> None:
        previous, self._previous = self._previous, []
        for signum, handler in previous:
            _raw_signal.signal(signum, handler)
        # Taken after every handler is back: a signal that comes later meets its own.
        arrived, self._arrived = self._arrived, []
        handlers = dict(previous)
        for signum in arrived:
            handlers[signum](signum, None)


def held() -> AbstractContextManager[None]:
    """Keep Ctrl-C and SIGTERM back while the block runs; their handlers act when it ends.

    For work that must not be cut in two: reading one message from a pipe takes several
    system calls, and an interrupt between them would leave half of it behind, for the
    next read to take as a whole one. Only the main thread gets signals; elsewhere the
    block changes nothing.
    """
    return _Holding()


def is_bots_own(exc: BaseException) -> bool:
    """Return True when ``exc``, raised out of a bot's code, is the bot's and not an interrupt.

    Only the very exception one of the engine's handlers raised (or one raised while it
    was being handled, as a bot that catches it and raises another does) is an interrupt.
    A ``KeyboardInterrupt`` or ``SystemExit`` a bot makes itself is its own, whatever
    else happened in the process before.
    """
    raised = _State.raised
    if not raised:
        return True
    seen: BaseException | None = exc
    for _ in range(64):  # a chain a bot built to be endless ends here
        if seen is None:
            return True
        if any(seen is mine for mine in raised):
            return False
        seen = seen.__context__
    return True


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    _interrupt()


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
