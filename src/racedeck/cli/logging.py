"""Diagnostics of the command line: configured once at its entry (``racedeck.core.diagnostics``).

Readable lines on stderr by default, coloured on a terminal; one JSON object a line with
``--log-json``. structlog is loaded only when an event is written.
"""

from __future__ import annotations

from racedeck.core import diagnostics


def configure_logging(debug: bool, json: bool = False) -> None:
    """Write warnings and errors (with ``debug``, everything) to stderr."""
    diagnostics.configure(diagnostics.DEBUG if debug else diagnostics.WARNING, json)


def get_logger() -> diagnostics.Logger:
    """Return the racedeck logger."""
    return diagnostics.get_logger()
