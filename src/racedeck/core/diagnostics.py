"""The engine's diagnostics: structured events, with structlog loaded only to write one.

A module asks ``get_logger(**context)`` for a logger and calls ``debug``, ``info``,
``warning`` or ``error`` with an event name and its fields. An event below the configured
level costs one comparison: structlog is imported, and configured, the first time an
event is actually written. The command line configures the level and the format once
(``configure``): readable lines by default (coloured on a terminal), one JSON object a line
with ``--log-json``. Diagnostics go to standard error, never to a command's output.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

DEBUG = 10
INFO = 20
WARNING = 30
ERROR = 40

_NAMES = {DEBUG: "debug", INFO: "info", WARNING: "warning", ERROR: "error"}


class _Settings:
    """What ``configure`` set; read when an event is written."""

    level = WARNING
    json = False
    stream: TextIO | None = None
    backend: Any = None


def configure(level: int = WARNING, json: bool = False, stream: TextIO | None = None) -> None:
    """Write events at ``level`` and above, as JSON lines or readable lines, to ``stream``.

    ``stream`` defaults to standard error as it is when an event is written.
    """
    _Settings.level = level
    _Settings.json = json
    _Settings.stream = stream
    _Settings.backend = None


def settings() -> tuple[int, bool]:
    """Return the level and format ``configure`` set, to hand to a worker process."""
    return _Settings.level, _Settings.json


def enabled(level: int) -> bool:
    """Return whether an event at ``level`` would be written."""
    return level >= _Settings.level


class Logger:
    """A logger with fields bound to every event it writes."""

    __slots__ = ("_context",)

    def __init__(self, context: dict[str, Any]) -> None:
        self._context = context

    def bind(self, **fields: Any) -> Logger:
        """Return a logger that adds ``fields`` to every event."""
        return Logger({**self._context, **fields})

    def debug(self, event: str, **fields: Any) -> None:
        """Write a debug event: what a developer tracing the engine wants to follow."""
        self._write(DEBUG, event, fields)

    def info(self, event: str, **fields: Any) -> None:
        """Write an info event: a step of a long run."""
        self._write(INFO, event, fields)

    def warning(self, event: str, **fields: Any) -> None:
        """Write a warning: something went wrong and the engine carried on."""
        self._write(WARNING, event, fields)

    def error(self, event: str, **fields: Any) -> None:
        """Write an error: something failed that the user must hear of."""
        self._write(ERROR, event, fields)

    def _write(self, level: int, event: str, fields: dict[str, Any]) -> None:
        if level < _Settings.level:
            return
        logger = _backend().get_logger("racedeck").bind(**self._context)
        getattr(logger, _NAMES[level])(event, **fields)


def get_logger(**context: Any) -> Logger:
    """Return the racedeck logger, with ``context`` bound to each of its events."""
    return Logger(context)


def _backend() -> Any:
    """Import and configure structlog the first time an event is written."""
    if _Settings.backend is not None:
        return _Settings.backend
    import logging

    import structlog

    stream = _Settings.stream or sys.stderr
    renderer: Any
    if _Settings.json:
        renderer = structlog.processors.JSONRenderer(sort_keys=True)
    else:
        renderer = structlog.dev.ConsoleRenderer(colors=_is_terminal(stream))
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(
            logging.DEBUG if _Settings.level <= DEBUG else _Settings.level
        ),
        logger_factory=structlog.PrintLoggerFactory(file=stream),
        cache_logger_on_first_use=False,
    )
    _Settings.backend = structlog
    return structlog


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
