"""Showing what a bot handed back, in a fault's reason: safely, briefly, the same every run."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from racedeck.core.interrupts import is_bots_own

REASON_LIMIT = 500
"""The most characters of a fault's reason that go into the log."""


def safe_str(value: object, show: Callable[[object], str] = str) -> str:
    """Return ``show(value)``, or its type's name when the bot's object will not say."""
    try:
        text = show(value)
    except BaseException as exc:  # a bot's object may raise anything when shown
        if not is_bots_own(exc):
            raise
        return f"<{type(value).__name__}>"
    return text if isinstance(text, str) else f"<{type(value).__name__}>"


def shown(answer: object) -> str:
    """Return an answer as a fault reason shows it: the same text in every run.

    Actions and plain values are shown as they are; any other object by its type alone,
    since its own ``repr`` may name a memory address (and so differ from run to run).
    """
    if isinstance(answer, msgspec.Struct) or type(answer) in (str, int, float, bool, type(None)):
        return clip(safe_str(answer, repr))
    return f"(an object of type {safe_str(type(answer), _type_name)})"


def one_line(text: str) -> str:
    r"""Return a bot's text for one line of output: its line breaks written out (``\n``).

    A fault's reason is a bot's own words (an exception's message, a program's report);
    printed as it is, a line break in it would start a line that looks like the engine's
    (a forged standings line, say).
    """
    return text.replace("\r", "\\r").replace("\n", "\\n")


def _type_name(kind: object) -> str:
    return str(getattr(kind, "__name__", "?"))


def clip(text: str, width: int = REASON_LIMIT) -> str:
    """Return ``text`` cut to ``width`` characters, marked when cut."""
    return text if len(text) <= width else text[: width - 3] + "..."
