"""A log's entries as a game's events: decoding each, folding it, naming the line it is on.

Every reader of a log goes through these: ``decode_event`` reads one event entry and
``decode_action`` the action a decision line records, ``fold_event`` folds an event
(naming the line when the game refuses it), ``decoded`` and ``fold_log`` walk a reader's
entries with them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import msgspec

from racedeck.core.errors import LogError
from racedeck.core.game import AnyGame
from racedeck.core.log import LogEntry, encode
from racedeck.core.step import fold, folder


class UnfoldableEvent(LogError):
    """A log's event decodes but the game refuses to fold it (an edited log, say)."""

    def __init__(self, path: str, entry: LogEntry, reason: str) -> None:
        super().__init__(path, entry.line, f"event {entry.seq} cannot be folded: {reason}")
        self.reason = reason
        """What the game raised, as ``Type: message``."""


def decode_event(game: AnyGame, entry: LogEntry, path: str) -> Any:
    """Return the event of an event entry, as a ``LogError`` naming the line if it is not one."""
    assert entry.event is not None
    try:
        return game.event_decoder.decode(entry.event)
    except msgspec.DecodeError as exc:
        raise LogError(path, entry.line, f"not a {game.name} event: {exc}") from None
    except RecursionError:
        raise LogError(path, entry.line, f"not a {game.name} event: nested too deep") from None


def decode_action(game: AnyGame, raw: bytes, path: str, line: int) -> Any:
    """Return the action a decision line records, refusing one the writer would not write.

    ``LogError`` names the line when ``raw`` is not an action of ``game`` or is not in
    canonical form. The writer writes an action's canonical bytes (``encode``), and the
    hash chain covers the bytes as written: the same action spelt otherwise (its fields in
    another order, spaces between them) is a line no engine wrote, so it is refused like
    any other edit.
    """
    try:
        action = game.action_decoder.decode(raw)
    except msgspec.DecodeError as exc:
        raise LogError(path, line, f"not a {game.name} action: {exc}") from None
    except RecursionError:
        raise LogError(path, line, f"not a {game.name} action: nested too deep") from None
    if encode(action) != raw:
        raise LogError(
            path, line, "the action is not in canonical form: the decision line was altered"
        )
    return action


def decoded(
    game: AnyGame, entries: Iterable[LogEntry], path: str
) -> Iterator[tuple[LogEntry, Any]]:
    """Yield ``(entry, event)`` for each entry, the event decoded (``None``: a fault or note).

    A decision's own entry is passed over: its events follow it as entries of their own.
    A line that is not an event of ``game`` raises ``LogError`` naming it, after every
    entry before it has been yielded: the one decoding loop every reader of a log runs.
    """
    decode = game.event_decoder.decode
    for entry in entries:
        raw = entry.event
        if raw is None:
            if entry.decision is None:
                yield entry, None
            continue
        try:
            event = decode(raw)
        except (msgspec.DecodeError, RecursionError):
            decode_event(game, entry, path)  # raises the error naming the line
            raise
        yield entry, event


def fold_event(game: AnyGame, state: Any, event: Any, entry: LogEntry, path: str) -> Any:
    """Return ``state`` with ``event`` (read from ``entry``) folded in.

    An event the game cannot fold raises ``UnfoldableEvent``, naming the line.
    """
    try:
        return fold(game, state, (event,))
    except Exception as exc:  # an edited log may hold an event no match could produce
        raise UnfoldableEvent(path, entry, f"{type(exc).__name__}: {exc}") from None


def fold_log(
    game: AnyGame, state: Any, entries: Iterable[LogEntry], path: str
) -> Iterator[tuple[LogEntry, Any, Any]]:
    """Yield ``(entry, event, state after it)`` for each entry, folding from ``state``.

    A fault or debug entry yields ``None`` for the event and the state unchanged. A bad
    line raises ``LogError`` after the intact prefix has been yielded. This is
    ``decoded`` and ``fold_event`` for every entry.
    """
    evolve = folder(game)
    for entry, event in decoded(game, entries, path):
        if event is None:
            yield entry, None, state
            continue
        try:
            state = evolve(state, event)
        except Exception as exc:  # an edited log may hold an event no match could produce
            raise UnfoldableEvent(path, entry, f"{type(exc).__name__}: {exc}") from None
        yield entry, event, state
