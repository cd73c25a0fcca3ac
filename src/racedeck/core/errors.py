"""The narrow exceptions racedeck raises, each with the exit code the CLI gives it."""

from __future__ import annotations

from typing import Never

EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_BAD_INPUT = 3
EXIT_VERIFY_FAILED = 4
EXIT_INTERNAL = 70


class RacedeckError(Exception):
    """Base of every error racedeck reports to a user."""

    exit_code = EXIT_BAD_INPUT


class UsageError(RacedeckError):
    """A command was called with arguments that do not fit together."""

    exit_code = EXIT_USAGE


class UnknownGameError(RacedeckError):
    """No registered game has the requested name."""


class UnknownBotError(RacedeckError):
    """No registered bot has the requested name, or it does not play the game."""


class OptionError(RacedeckError):
    """A game option is unknown, malformed or out of range."""


class DataError(RacedeckError):
    """A game data file (track, deck, table) is malformed."""


class IllegalActionError(RacedeckError, ValueError):
    """An action is not legal for that seat in that state."""

    def __init__(self, action: object, seat: int, why: str) -> None:
        self.action = action
        self.seat = seat
        self.why = why
        super().__init__(f"illegal action {action!r} for seat {seat}: {why}")


class LogError(RacedeckError):
    """A log cannot be read: unreadable, truncated, altered or of an unknown format."""

    def __init__(self, path: str, line: int, why: str) -> None:
        self.path = path
        self.line = line
        self.why = why
        super().__init__(f"{path}:{line}: {why}")


class VerificationError(RacedeckError):
    """Re-running a match did not reproduce its log."""

    exit_code = EXIT_VERIFY_FAILED


class PluginError(RacedeckError):
    """A plugin could not be loaded or registered something invalid."""


class UnknownEventError(RacedeckError, TypeError):
    """A game was asked to fold an event that is not of its event union."""


def unknown_event(event: Never) -> Never:
    """Raise ``UnknownEventError`` for ``event``; mypy proves a dispatch never reaches here.

    Call it in the last branch of a game's ``evolve``: with the parameter typed ``Never``,
    a dispatch that misses an event type of the union fails the type check.
    """
    raise UnknownEventError(f"no rule folds an event of type {type(event).__name__}")
