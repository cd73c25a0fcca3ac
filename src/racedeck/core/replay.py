"""Replay: fold a log back into states, check every hash, and re-run a match to verify it.

Reading a log's events and folding them into states happens here and nowhere else:
``decode_event`` reads one event entry, ``fold_event`` folds it (through
``racedeck.core.step.fold``, naming the line when the game refuses it), and ``fold_log``
walks a reader's entries with both. Replay, verification, forks and the inspect tools
(``iter_states``, ``copy_prefix``, ``diff``) are all built on them.

A fork's log is a log like any other: its header says that its first events are copied
from another log, so re-running it (``rerun``) takes those as recorded and plays on from
there. Making forks is ``racedeck.core.fork``, which builds on this module.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import msgspec

from racedeck.core.bot import BotSpec
from racedeck.core.catalogue import Catalogue
from racedeck.core.data import files_refused
from racedeck.core.entries import decode_action, decode_event, fold_event, fold_log
from racedeck.core.errors import (
    LogError,
    RacedeckError,
    UsageError,
)
from racedeck.core.forcing import forced_actions
from racedeck.core.game import AnyGame
from racedeck.core.legacy_log import legacy_decisions, legacy_folding
from racedeck.core.log import (
    DebugNote,
    Fault,
    Header,
    LogEntry,
    LogReader,
    LogWriter,
    ResultLine,
    encode,
)
from racedeck.core.model import Options
from racedeck.core.resume import Recorded, watched
from racedeck.core.runner import MatchOutcome, run_match, state_hash
from racedeck.core.walk import walk, walk_decisions


@dataclass
class Replay:
    """A log folded back into states, up to the end or the first bad line."""

    header: Header
    game: AnyGame
    options: Options
    state: Any
    events: int
    result: ResultLine | None = None
    faults: list[Fault] = field(default_factory=list)
    debug: list[DebugNote] = field(default_factory=list)
    error: LogError | None = None

    @property
    def complete(self) -> bool:
        """True when the whole log was intact and ended with its result line."""
        return self.error is None and self.result is not None


FROM_A_LOG = (
    "a log's options name a file, which reading a log never opens: a match's log carries"
    " its data (track_data, cards_data), and this one does not"
)
"""Why a file named by a log's header is not read (``core.data.files_refused``)."""


def _check_as_written(game: AnyGame, header: Header) -> None:
    """Refuse header options racedeck would not have written: each of its own type.

    ``parse_options`` reads a person's values leniently ("1" for 1, as typed at the
    command line), but the writer writes each value as its type: a header with ``"1"`` or
    ``1.0`` for a count was edited, and the match it names has other logs of other bytes.
    """
    try:
        msgspec.convert(header.options, type=game.options_type, strict=True)
    except msgspec.ValidationError as exc:
        raise RacedeckError(
            f"the header's options are not as racedeck writes them ({exc}): it was edited"
        ) from None


def open_game(catalogue: Catalogue, header: Header, path: str) -> tuple[AnyGame, Options]:
    """Return the game and options a log header names, as bad input when they are not known.

    The game is the one that plays the header's rules version (``Game.under_rules``): a
    log written under older rules replays, and re-runs, under those rules.

    The header must also describe a match the game can set up: as many seats as players,
    a number of players the game takes, options it can start from.
    """
    try:
        game = catalogue.game(header.game).under_rules(header.rules_version)
        with files_refused(FROM_A_LOG):
            options = game.parse_options(header.options)
        _check_as_written(game, header)
        if len(header.seats) != header.players:
            raise RacedeckError(
                f"the header names {len(header.seats)} seats for {header.players} players"
            )
        game.check_players(options, header.players)
    except RacedeckError as exc:
        raise LogError(path, 1, str(exc)) from None
    try:
        game.initial_state(options, header.players)
    except Exception as exc:  # an edited header may ask for a match no one can set up
        raise LogError(
            path, 1, f"the header describes no match: {type(exc).__name__}: {exc}"
        ) from None
    return game, options


# Reading and folding a log: the one place ------------------------------------------------


def iter_states(
    catalogue: Catalogue, path: str | Path, stream: IO[bytes] | None = None
) -> Iterator[tuple[int, Any, Any, Replay]]:
    """Yield ``(seq, event, state after it, replay so far)`` for every intact event of a log.

    Raises ``LogError`` at the first bad line, after yielding the intact prefix, and, for a
    log that ends with its result line, when the result does not follow from the events
    (``check_result``). Each event is folded once, as ``replay_log`` folds it: while the
    events follow from decisions, the state after each is the one the re-decided turn left
    after producing it (``Deciding``), and the log is read only about one decision ahead of
    what has been yielded; from the first event no decision explains (and in a fork's
    copied prefix) the events are folded as recorded.
    """
    with LogReader(path, stream) as reader:
        game, options = open_game(catalogue, reader.header, str(path))
        initial = game.initial_state(options, reader.header.players)
        replay = Replay(reader.header, game, options, initial, 0)
        for seq, event, state in _folding(game, reader, replay):
            yield seq, event, state, replay


def _folding(game: AnyGame, reader: LogReader, replay: Replay) -> Iterator[tuple[int, Any, Any]]:
    """Yield ``(seq, event, state after it)`` for every intact event, keeping ``replay`` up.

    The loop behind ``iter_states`` and ``replay_log``: a format 3 log is read straight
    (``walk``), an older one through the frozen reader of its format (``legacy_folding``).
    ``replay`` follows the state, the event count, the faults and the debug notes; its
    result is set once the whole log was read intact and checked (``check_result``).
    """
    header = replay.header
    unexplained: LogError | None = None
    if header.format >= 3:
        yield from walk(game, reader, replay)
    else:
        unexplained = yield from legacy_folding(game, reader, replay)
    _check_end(game, reader, replay, unexplained)


def _fold_all(game: AnyGame, reader: LogReader, replay: Replay) -> None:
    """Fold the whole log as ``_folding`` does, keeping only the state after each decision.

    A format 3 log is walked a decision at a time (``walk_decisions``): nothing is kept or
    handed on for each event, which is most of a verification's bookkeeping.
    """
    if replay.header.format < 3:
        for _folded in _folding(game, reader, replay):
            pass
        return
    for _decision in walk_decisions(game, reader, replay):
        pass
    _check_end(game, reader, replay, None)


def _check_end(
    game: AnyGame, reader: LogReader, replay: Replay, unexplained: LogError | None
) -> None:
    """Keep the log's result line in ``replay``; raise unless it follows from the fold."""
    replay.result = reader.result
    if reader.result is not None:
        error = check_result(
            game,
            replay.header,
            replay.state,
            reader.result,
            reader.path,
            reader.result_line,
            unexplained,
        )
        if error is not None:
            raise error


def copy_prefix(
    reader: LogReader, game: AnyGame, options: Options, at: int, writer: LogWriter | None
) -> tuple[Any, str, list[Recorded]]:
    """Read a log's decisions up to the one that ends with event ``at``.

    Returns the state after event ``at``, the log's hash there and the decisions. With a
    ``writer``, they and the faults and notes among them are written to it as decision
    lines. A fork point must end a decision: one inside a decision's events is refused,
    naming where that decision began. A format 1 or 2 log's decisions are found again
    (``legacy_decisions``).
    """
    initial = game.initial_state(options, reader.header.players)
    if reader.header.format < 3:
        return _copy_legacy_prefix(reader, game, initial, at, writer)
    decisions: list[Recorded] = []
    notes: list[LogEntry] = []
    state = initial
    for entry in reader:
        decision = entry.decision
        if decision is None:
            if entry.event is None:
                notes.append(entry)
            continue
        end = entry.seq + len(decision.events) - 1
        if entry.seq <= at < end:
            raise _inside_decision(at, entry.seq)
        events = [
            decode_event(game, LogEntry(entry.line, entry.seq + n, raw, None), reader.path)
            for n, raw in enumerate(decision.events)
        ]
        action = None
        if decision.action is not None:
            action = decode_action(game, decision.action, reader.path, entry.line)
        for event in events:
            state = fold_event(game, state, event, entry, reader.path)
        decisions.append(Recorded(decision.actor, action, events))
        if writer is not None:
            _write_notes(writer, notes)
            writer.turn(decision.actor, decision.action, list(decision.events))
        if end == at:
            return state, reader.last_hash, decisions
    raise LogError(
        reader.path, 0, f"event {at} does not exist: the log has {reader.events_read} events"
    )


def _inside_decision(at: int, start: int) -> UsageError:
    earlier = f"at event {start - 1} or " if start else ""
    return UsageError(
        f"event {at} is inside one decision's events (it began at event {start}); "
        f"fork {earlier}where that decision ends"
    )


def _write_notes(writer: LogWriter, notes: list[LogEntry]) -> None:
    """Write the fault and debug lines held in ``notes`` and forget them."""
    for note in notes:
        if note.fault is not None:
            writer.fault(note.fault)
        elif note.debug is not None:
            writer.debug(note.debug)
    notes.clear()


def _copy_legacy_prefix(
    reader: LogReader, game: AnyGame, initial: Any, at: int, writer: LogWriter | None
) -> tuple[Any, str, list[Recorded]]:
    """``copy_prefix`` for a format 1 or 2 log: its decisions found again from its events."""
    events: list[Any] = []
    notes: list[LogEntry] = []
    state, last_hash = initial, ""
    for entry, event, after in fold_log(game, initial, reader, reader.path):
        if event is None:
            notes.append(entry)
            continue
        events.append(event)
        if entry.seq == at:
            state, last_hash = after, reader.last_hash
            break
    else:
        raise LogError(
            reader.path, 0, f"event {at} does not exist: the log has {reader.events_read} events"
        )
    found, stop = legacy_decisions(game, initial, reader.header.seed, events)
    if stop is not None:
        raise UsageError(
            f"event {at} of {reader.path} does not end a decision the log's format "
            f"{reader.header.format} lets racedeck find (it stops at event {stop}); "
            "fork at an earlier event"
        )
    decisions = [Recorded(actor, action, list(made)) for actor, action, made in found]
    if writer is not None:
        seq = 0
        for decision in decisions:
            _write_notes(writer, [n for n in notes if n.seq <= seq])
            notes = [n for n in notes if n.seq > seq]
            raw = None if decision.action is None else encode(decision.action)
            writer.turn(decision.actor, raw, [encode(event) for event in decision.events])
            seq += len(decision.events)
        _write_notes(writer, notes)
    return state, last_hash, decisions


# Replaying --------------------------------------------------------------------------------


def replay_log(
    catalogue: Catalogue,
    path: str | Path,
    *,
    at: int | None = None,
    stream: IO[bytes] | None = None,
) -> Replay:
    """Fold a log into its final state, or the state after event ``at``.

    A bad line does not raise: the replay keeps the intact prefix and records the error.
    The whole log is read and folded even with ``at``: its result line must follow from
    its events and fault lines (``check_result``), or the replay records that error.
    """
    if at is not None and at < 0:
        raise UsageError(f"--at must be 0 or more, got {at}")
    replay: Replay | None = None
    snapshot: tuple[Any, int, int, int] | None = None
    try:
        with LogReader(path, stream) as reader:
            game, options = open_game(catalogue, reader.header, str(path))
            initial = game.initial_state(options, reader.header.players)
            replay = Replay(reader.header, game, options, initial, 0)
            # Streamed: the log is read about one decision ahead of the fold, so a long
            # log takes no more memory than a short one (``_folding``).
            try:
                if at is None:
                    _fold_all(game, reader, replay)
                else:
                    for seq, _event, state in _folding(game, reader, replay):
                        if seq == at:
                            snapshot = (state, at + 1, len(replay.faults), len(replay.debug))
            except LogError as exc:
                replay.error = exc
    except LogError as exc:
        if replay is None:
            if exc.line <= 1:
                raise
            replay = _empty_replay(catalogue, path, stream, exc)
        replay.error = exc
    assert replay is not None
    if at is not None:
        if snapshot is None:
            if replay.error is not None:
                raise replay.error
            raise LogError(
                str(path), 0, f"event {at} does not exist: the log has {replay.events} events"
            )
        replay.state, replay.events, faults, notes = snapshot
        del replay.faults[faults:], replay.debug[notes:]
    return replay


def check_result(
    game: AnyGame,
    header: Header,
    state: Any,
    result: ResultLine,
    path: str,
    line: int,
    decided: LogError | None = None,
) -> LogError | None:
    """Return why a result line does not follow from the folded events (None if it does).

    The fault lines and the forfeit were checked by the reader; here the final state
    must be the one the result names, every event must follow from a decision (the
    caller checks that as it folds, ``Deciding``, and gives why they do not as
    ``decided``), a match without a forfeit must have ended, and its result must be the
    game's own result of that state.
    """
    same_schema = header.state_version == game.state_version
    if same_schema and state_hash(state) != result.state_hash:
        return LogError(path, line, "the final state does not match the result line's state hash")
    if decided is not None:
        return decided
    if result.forfeit is not None:
        return None
    try:
        over = game.next_step(state).over
        ending = _as_json(game.result(state)) if over else None
    except Exception as exc:  # a forged log may end in a state no match reaches
        return LogError(path, line, f"the final state has no result: {type(exc).__name__}: {exc}")
    if not over:
        return LogError(path, line, "the result line comes before the match has ended")
    if ending != result.result:
        return LogError(path, line, "the result line does not match the final state")
    return None


def _as_json(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


def _empty_replay(
    catalogue: Catalogue, path: str | Path, stream: IO[bytes] | None, error: LogError | None
) -> Replay:
    """Return the replay of a log with no intact event: its initial state."""
    if stream is not None:
        stream.seek(0)
    with LogReader(path, stream) as reader:
        game, options = open_game(catalogue, reader.header, str(path))
        state = game.initial_state(options, reader.header.players)
        result = None
        if error is None:
            for _ in reader:
                pass
            result = reader.result
        return Replay(reader.header, game, options, state, 0, result=result, error=error)


# Re-running and verifying -----------------------------------------------------------------


def write_match(
    game: AnyGame,
    options: Options,
    header: Header,
    seats: Sequence[BotSpec],
    writer: LogWriter,
    source: LogReader | None = None,
) -> MatchOutcome:
    """Write the match ``header`` describes to ``writer``: the header, then every event.

    A fork's header (``header.fork`` set) takes its first events from ``source``, the log
    it branched off (or the fork itself, when re-running it), copied as recorded; its
    bots watch them, so they play on as if they had played them, from the state after.
    """
    writer.header(header)
    state, start = game.initial_state(options, header.players), 0
    if header.fork is not None:
        assert source is not None, "a fork's prefix is read from its source log"
        state, _, prefix = copy_prefix(source, game, options, header.fork.at, writer)
        forced = forced_actions(game, state, header.fork.play)
        seats = watched(game, options, header.players, seats, header.seed, prefix, forced)
        start = header.fork.at + 1
    return run_match(
        game,
        options,
        seats,
        header.seed,
        writer=writer,
        fault_policy=header.fault_policy,
        start_state=state,
        start_events=start,
    )
