"""A breach of the subprocess protocol, as ``bot check`` and a fault line report it."""

from __future__ import annotations

from typing import Any

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


def echoes(answer: dict[str, Any] | None, decision: int) -> bool:
    """Whether ``answer`` echoes ``decision``: the very integer (``true`` is no decision 1)."""
    echoed = answer.get("decision") if answer is not None else None
    return type(echoed) is int and echoed == decision


def decoded_object(line: str) -> dict[str, Any] | None:
    """Return the JSON object ``line`` holds, or None."""
    try:
        value = msgspec.json.decode(line)
    except (msgspec.DecodeError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def where(decision: int) -> str:
    """Name a decision as a violation does: ``start`` or ``decision N``."""
    return "start" if decision < 0 else f"decision {decision}"
