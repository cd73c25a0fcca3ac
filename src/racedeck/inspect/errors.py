"""The outcome of a comparison that is not a failure of racedeck but has its own exit code."""

from __future__ import annotations

from racedeck.core.errors import EXIT_FAILURE, RacedeckError


class LogsDiffer(RacedeckError):
    """Two logs compared by ``racedeck diff`` are not identical (exit code 1)."""

    exit_code = EXIT_FAILURE
