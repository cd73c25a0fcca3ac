"""A breach of the subprocess protocol, as ``bot check`` and a fault line report it."""

from __future__ import annotations

import msgspec

CLIP = 200
"""How many characters of an offending message a fault reason quotes."""


class Violation(msgspec.Struct, frozen=True, kw_only=True):
    """One breach of the protocol: what kind, at which decision, and the message behind it.

    ``kind`` is one of ``bad-json``, ``bad-answer``, ``illegal-action``, ``timeout``,
    ``crash``, and ``fault`` (a protocol-2 program gave up the decision, its reason in
    ``detail``). ``decision`` counts from 0; -1 is the start of the match.
    """

    kind: str
    decision: int
    detail: str
    message: str = ""


def clip(text: str, width: int = CLIP) -> str:
    """Return ``text`` cut to ``width`` characters, marked when cut."""
    return text if len(text) <= width else text[: width - 3] + "..."
