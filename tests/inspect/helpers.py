"""Logs for the inspect tests: played, edited and re-chained so that they stay readable."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from racedeck.core.log import Header, LogReader, LogWriter, ResultLine
from racedeck.core.runner import run_match
from racedeck.plugins import Registry


def play(
    registry: Registry,
    path: Path,
    *,
    game: str = "lacorsa",
    bots: tuple[str, ...] = ("heuristic",) * 4,
    seed: int = 7,
    options: dict[str, Any] | None = None,
) -> Path:
    """Play a match to ``path`` and return the path."""
    g = registry.game(game)
    opts = g.parse_options({"races": 1} if options is None and game == "lacorsa" else options or {})
    seats = [registry.bot(name, game) for name in bots]
    with open(path, "wb") as handle:
        run_match(g, opts, seats, seed, writer=LogWriter(handle))
    return path


def rewrite(
    source: Path,
    target: Path,
    edit: Callable[[int, dict[str, Any]], dict[str, Any] | None],
    header: Callable[[Header], Header] = lambda h: h,
) -> Path:
    """Copy a log, passing each event through ``edit`` (``None`` drops it), re-chained."""
    with LogReader(source) as reader, open(target, "wb") as handle:
        writer = LogWriter(handle)
        writer.header(header(reader.header))
        kept = 0
        for entry in reader:
            assert entry.event is not None
            event = edit(entry.seq, msgspec.json.decode(entry.event))
            if event is not None:
                writer.event(msgspec.json.encode(event))
                kept += 1
        result = reader.result
        assert result is not None
        writer.result(
            ResultLine(
                kind="result",
                events=kept,
                hash=writer.last_hash,
                state_hash=result.state_hash,
                result=result.result,
            )
        )
    return target


def events_of(path: Path) -> list[dict[str, Any]]:
    """Return a log's events as mappings."""
    with LogReader(path) as reader:
        return [msgspec.json.decode(e.event) for e in reader if e.event is not None]
