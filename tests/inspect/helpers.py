"""Logs for the inspect tests: played, edited and re-chained so that they stay readable."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from racedeck.core.log import Header, LogReader, LogWriter, ResultLine
from racedeck.core.runner import run_match, state_hash
from racedeck.core.step import fold
from racedeck.plugins import Registry, load_registry


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
    """Copy a log, passing each event through ``edit`` (``None`` drops it), re-chained.

    A decision line keeps its seat and action and holds its edited events. The result
    line is worked out again from the edited events, as a forger would, so that the copy
    is a log every reader accepts.
    """
    with LogReader(source) as reader, open(target, "wb") as handle:
        writer = LogWriter(handle)
        new_header = header(reader.header)
        writer.header(new_header)
        state = _initial(new_header)
        kept = 0
        decision = None
        made: list[bytes] = []

        def write_decision() -> None:
            if decision is not None and made:  # a decision whose events all went, gone
                writer.turn(decision.actor, decision.action, list(made))
                made.clear()

        for entry in reader:
            if entry.decision is not None:
                write_decision()
                decision = entry.decision
                continue
            assert entry.event is not None
            event = edit(entry.seq, msgspec.json.decode(entry.event))
            if event is not None:
                raw = msgspec.json.encode(event)
                if decision is None:
                    writer.event(raw)
                else:
                    made.append(raw)
                state = _fold(new_header, state, raw)
                kept += 1
        write_decision()
        result = reader.result
        assert result is not None
        ending = (state_hash(state), _result(new_header, state)) if state is not None else None
        writer.result(
            ResultLine(
                kind="result",
                events=kept,
                hash=writer.last_hash,
                state_hash=result.state_hash if ending is None else ending[0],
                result=result.result if ending is None or ending[1] is None else ending[1],
            )
        )
    return target


def _initial(header: Header) -> Any:
    """The initial state of a built-in game's match, or None for another game."""
    registry = load_registry(entry_points=False)
    if header.game not in registry.games:
        return None
    game = registry.game(header.game)
    return game.initial_state(game.parse_options(header.options), header.players)


def _fold(header: Header, state: Any, raw: bytes) -> Any:
    """The state after one more event, or None once an edited event cannot be folded."""
    if state is None:
        return None
    game = load_registry(entry_points=False).game(header.game)
    try:
        return fold(game, state, (game.event_decoder.decode(raw),))
    except Exception:  # an edited event: the log is broken there anyway
        return None


def _result(header: Header, state: Any) -> Any:
    """The game's result of a finished state, or None for a match that has not ended."""
    game = load_registry(entry_points=False).game(header.game)
    if not game.next_step(state).over:
        return None
    return msgspec.json.decode(msgspec.json.encode(game.result(state)))


def events_of(path: Path) -> list[dict[str, Any]]:
    """Return a log's events as mappings."""
    with LogReader(path) as reader:
        return [msgspec.json.decode(e.event) for e in reader if e.event is not None]


def line_of(path: Path, seq: int) -> int:
    """Return the number of the line that holds event ``seq`` (its decision's line)."""
    with LogReader(path) as reader:
        for entry in reader:
            if entry.event is not None and entry.seq == seq:
                return entry.line
    raise AssertionError(f"no event {seq} in {path}")


def as_format_2(header: Header) -> Header:
    """A header edit for ``rewrite``: the copy is a format 2 log, one event a line.

    A format 3 log is read decision by decision, so an edited deal stops it at its first
    line; a format 2 log's events that no decision explains are folded as written (and
    refused at the result line), which is what a test of views over a forged deal needs.
    """
    return msgspec.structs.replace(header, format=2)
