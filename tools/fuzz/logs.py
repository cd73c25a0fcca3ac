"""Mutated logs: bytes, lines, fields, forged hash chains, result lines, huge and deep lines.

``mutations(base, rng)`` yields ``(kind, bytes)`` pairs from one intact log. ``plain``
mutations leave the hash chain as it is (a careless edit); ``forged`` ones rewrite every
hash after the edit, as someone who knows the format would, so only checking what the
lines mean can catch them. ``meaning(raw)`` is what a log says about its match, to tell
an accepted mutation that changed nothing that matters (``equivalent``) from one that
changed the match and was accepted anyway (``silently accepted``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import msgspec

from racedeck.core.hashing import chain, header_hash
from racedeck.core.log import ResultLine, encode

try:  # absent before log format 2; the fuzzer also runs against older engines
    from racedeck.core.log import seal_result
except ImportError:  # pragma: no cover - only on an engine that writes format 1
    seal_result = None  # type: ignore[assignment]

Line = dict[str, Any]


def _lines(raw: bytes) -> list[Line]:
    return [msgspec.json.decode(line) for line in raw.splitlines()]


def rechain(lines: list[Line]) -> bytes:
    """Return the lines as a log with every hash worked out again, as a forger would."""
    out = [encode(lines[0])]
    last = header_hash(out[0])
    for line in lines[1:]:
        kind = line.get("kind")
        if kind == "result":
            try:
                result = msgspec.convert(line, ResultLine)
            except msgspec.ValidationError:
                out.append(encode(line))
                continue
            result = msgspec.structs.replace(result, hash=last)
            if lines[0].get("format", 1) >= 2 and seal_result is not None:
                result = seal_result(last, result)
            out.append(encode(result))
            continue
        if kind in ("event", "fault", "debug") and kind in line:
            last = chain(last, encode(line[kind]))
            line = {**line, "hash": last}
        out.append(encode(line))
    return b"\n".join(out) + b"\n"


HEADER_FOLDED = (
    "kind",
    "format",
    "game",
    "rules_version",
    "options",
    "players",
    "fault_policy",
    "state_version",
    "fork",
)
"""The header fields the events are folded and checked under; the rest (the seed, the
seats' bots, the engine's version) say how the match was played, which only re-running
it (``replay --verify``) can check."""


def meaning(raw: bytes, whole_header: bool = False, registry: Any = None) -> Any:
    """Return what a log says about its match: header, events, faults' seats, result.

    Hashes, debug notes and fault reasons are left out: a bot's free text can be edited
    and re-chained by anyone, and means nothing for the match. Unless ``whole_header``,
    so are the header's fields that only a re-run can check. With a ``registry``, options
    are compared as the game reads them (an option left out means its default).
    """
    try:
        lines = _lines(raw)
    except (msgspec.DecodeError, RecursionError):
        return None
    said: list[Any] = []
    for line in lines:
        if not isinstance(line, dict):
            said.append(line)
            continue
        kind = line.get("kind")
        if kind == "header":
            line = dict(line) if whole_header else {key: line.get(key) for key in HEADER_FOLDED}
            line["options"] = _options(registry, line)
            said.append(line)
        elif kind == "event":
            said.append(("event", line.get("seq"), line.get("event")))
        elif kind == "fault":
            fault = line.get("fault") or {}
            said.append(("fault", line.get("seq"), fault.get("seat"), fault.get("policy")))
        elif kind == "result":
            said.append(
                (
                    "result",
                    line.get("events"),
                    line.get("state_hash"),
                    line.get("result"),
                    line.get("forfeit"),
                )
            )
        elif kind != "debug":
            said.append(line)
    return said


def _options(registry: Any, header: Line) -> Any:
    """Return the header's options as its game reads them (one left out is its default)."""
    try:
        game = registry.game(header.get("game"))
        return msgspec.to_builtins(game.parse_options(header.get("options")))
    except Exception:  # no registry, or options no game reads: compare them as written
        return header.get("options")


def _tweak(value: Any, rng: random.Random) -> Any:
    """Return ``value`` changed a little, keeping its type where it can."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice((-1, 1, 7, -1000, 1 << 40))
    if isinstance(value, str):
        return rng.choice((value + "x", "", "<script>", value[::-1] or "y"))
    if isinstance(value, list):
        if len(value) > 1:
            return list(reversed(value))
        return [*value, value[0] if value else 0]
    if isinstance(value, dict):
        if value and rng.random() < 0.7:
            key = rng.choice(sorted(value))
            changed = dict(value)
            if rng.random() < 0.2:
                del changed[key]
            else:
                changed[key] = _tweak(value[key], rng)
            return changed
        return {**value, "extra": 1}
    if value is None:
        return 0
    return None


def _field_edit(lines: list[Line], rng: random.Random, kinds: tuple[str, ...]) -> bool:
    """Change one field of one line of the given kinds; False when there is none."""
    candidates = [i for i, line in enumerate(lines) if line.get("kind") in kinds]
    if not candidates:
        return False
    index = rng.choice(candidates)
    lines[index] = _tweak(lines[index], rng)
    return True


def _deep(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def mutations(base: bytes, rng: random.Random) -> Iterator[tuple[str, bytes]]:
    """Yield one mutation of each kind of ``base``, in a fixed order for a given ``rng``."""
    raw_lines = base.splitlines(keepends=True)
    # Bytes: one flipped, one dropped, one inserted; the file cut anywhere.
    position = rng.randrange(len(base))
    yield (
        "byte-flip",
        base[:position] + bytes([base[position] ^ (1 << rng.randrange(8))]) + base[position + 1 :],
    )
    position = rng.randrange(len(base))
    yield "byte-drop", base[:position] + base[position + 1 :]
    yield "byte-insert", base[:position] + bytes([rng.randrange(256)]) + base[position:]
    yield "truncate", base[: rng.randrange(1, len(base))]
    # Lines: dropped, doubled, swapped, moved to the end.
    index = rng.randrange(1, len(raw_lines))
    yield "line-drop", b"".join(raw_lines[:index] + raw_lines[index + 1 :])
    yield "line-double", b"".join(raw_lines[: index + 1] + raw_lines[index:])
    if len(raw_lines) > 2:
        other = rng.randrange(1, len(raw_lines) - 1)
        swapped = list(raw_lines)
        swapped[other], swapped[other + 1] = swapped[other + 1], swapped[other]
        yield "line-swap", b"".join(swapped)
    # Fields, with the chain left alone and with it forged.
    for kinds, name in (
        (("header",), "header"),
        (("event",), "event"),
        (("fault", "debug"), "fault"),
        (("result",), "result"),
    ):
        lines = _lines(base)
        if _field_edit(lines, rng, kinds):
            yield f"field-{name}", b"\n".join(encode(line) for line in lines) + b"\n"
            yield f"forged-{name}", rechain(lines)
    # Forged structure: an event dropped, two swapped, the result's forfeit invented.
    lines = _lines(base)
    events = [i for i, line in enumerate(lines) if line.get("kind") == "event"]
    if len(events) > 2:
        gone = rng.choice(events)
        kept = [line for i, line in enumerate(lines) if i != gone]
        for seq, line in enumerate(x for x in kept if x.get("kind") == "event"):
            line["seq"] = seq
        kept[-1]["events"] = len(events) - 1
        yield "forged-event-drop", rechain(kept)
        first = rng.choice(events[:-1])
        if lines[first + 1].get("kind") == "event":
            swapped_lines = [dict(line) for line in lines]
            a, b = swapped_lines[first], swapped_lines[first + 1]
            a["event"], b["event"] = b["event"], a["event"]
            yield "forged-event-swap", rechain(swapped_lines)
    lines = _lines(base)
    result = lines[-1]
    if result.get("kind") == "result":
        players = len(lines[0].get("seats", [])) or 2
        seat = rng.randrange(players)
        result["forfeit"] = {"seat": seat, "reason": "made up"}
        result["result"] = {
            "ranks": [players if s == seat else 1 for s in range(players)],
            "scores": [0] * players,
            "unit": "points",
            "summary": [f"seat {seat} forfeited: made up"],
        }
        yield "forged-forfeit", rechain(lines)
        lines = _lines(base)
        ranks = lines[-1]["result"].get("ranks", [])
        if len(set(ranks)) > 1:
            lines[-1]["result"]["ranks"] = list(reversed(ranks))
            yield "forged-ranks", rechain(lines)
    # Huge and deep lines.
    index = rng.randrange(len(raw_lines))
    for name, bad in (
        ("deep-line", _deep(5000) + b"\n"),
        ("deep-event", b'{"kind":"event","seq":0,"hash":"","event":' + _deep(5000) + b"}\n"),
        ("huge-line", b'{"kind":"event","seq":0,"event":"' + b"x" * (20 << 20) + b'"}\n'),
        ("no-newline-flood", b"x" * (20 << 20)),
    ):
        yield name, b"".join([*raw_lines[:index], bad, *raw_lines[index + 1 :]])
