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

import io
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import msgspec

from racedeck.core.bot import BotSpec
from racedeck.core.catalogue import Catalogue
from racedeck.core.errors import (
    LogError,
    OptionError,
    RacedeckError,
    UsageError,
    VerificationError,
)
from racedeck.core.game import AnyGame
from racedeck.core.log import (
    DebugNote,
    Fault,
    Header,
    LogEntry,
    LogReader,
    LogWriter,
    ResultLine,
    encode,
    open_log,
)
from racedeck.core.model import Options
from racedeck.core.resume import Deciding, Recorded, watched
from racedeck.core.runner import MatchOutcome, run_match, state_hash
from racedeck.core.step import fold, folder


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


def open_game(catalogue: Catalogue, header: Header, path: str) -> tuple[AnyGame, Options]:
    """Return the game and options a log header names, as bad input when they are not known.

    The game is the one that plays the header's rules version (``Game.under_rules``): a
    log written under older rules replays, and re-runs, under those rules.

    The header must also describe a match the game can set up: as many seats as players,
    a number of players the game takes, options it can start from.
    """
    try:
        game = catalogue.game(header.game).under_rules(header.rules_version)
        options = game.parse_options(header.options)
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


def decoded(
    game: AnyGame, entries: Iterable[LogEntry], path: str
) -> Iterator[tuple[LogEntry, Any]]:
    """Yield ``(entry, event)`` for each entry, the event decoded (``None``: a fault or note).

    A line that is not an event of ``game`` raises ``LogError`` naming it, after every
    entry before it has been yielded: the one decoding loop every reader of a log runs.
    """
    decode = game.event_decoder.decode
    for entry in entries:
        raw = entry.event
        if raw is None:
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

    The loop behind ``iter_states`` and ``replay_log``: ``replay`` (made at the initial
    state) follows the state, the event count, the faults and the debug notes as the log is
    read; its result is set once the whole log was read intact.
    """
    path = reader.path
    header = replay.header
    initial = replay.state
    # Entries read but not yet yielded, in log order; the events among them are also
    # what ``recorded`` hands the decisions.
    ahead: deque[tuple[LogEntry, Any]] = deque()
    failed: list[Exception] = []
    source = _read_ahead(game, reader, ahead, failed)
    evolve = folder(game)

    def note(entry: LogEntry) -> None:
        if entry.fault is not None:
            replay.faults.append(entry.fault)
        elif entry.debug is not None:
            replay.debug.append(entry.debug)

    def decided(states: Sequence[Any]) -> Iterator[tuple[int, Any, Any]]:
        """Yield the next events read, with the states a decision's turn left after them."""
        for state in states:
            entry, event = ahead.popleft()
            while entry.event is None:
                note(entry)
                entry, event = ahead.popleft()
            replay.state, replay.events = state, entry.seq + 1
            yield entry.seq, event, state

    def as_recorded(state: Any, count: int | None) -> Iterator[tuple[int, Any, Any]]:
        """Fold the next ``count`` events (all the rest with None) as they are recorded."""
        while count is None or count > 0:
            if not ahead:
                next(source, None)
                if not ahead:
                    return
            entry, event = ahead.popleft()
            if entry.event is None:
                note(entry)
                continue
            try:
                state = evolve(state, event)
            except Exception as exc:  # an edited log may hold an event no match produces
                raise UnfoldableEvent(reader.path, entry, f"{type(exc).__name__}: {exc}") from None
            replay.state, replay.events = state, entry.seq + 1
            yield entry.seq, event, state
            if count is not None:
                count -= 1

    # A fork's copied prefix was decided with its parent's seed: taken as it is.
    start = header.fork.at + 1 if header.fork is not None else 0
    yield from as_recorded(initial, start)
    recorded = Recorded(source, start)
    deciding = Deciding(game, replay.state, header.seed, recorded, start)
    decisions = iter(deciding)
    unexplained: LogError | None = None
    while True:
        try:
            found = next(decisions, None)
        except Exception as exc:  # an edited log may reach states no decision handles
            unexplained = _undecidable(path, exc)
            break
        if found is None:
            if recorded.reaches(deciding.at + 1):
                line = next(entry.line for entry, _ in ahead if entry.event is not None)
                unexplained = _unexplained(path, line, deciding.at)
            break
        yield from decided(found[1].states)
    yield from as_recorded(deciding.state, None)
    if failed:
        raise failed[0]
    replay.result = reader.result
    if reader.result is not None:
        error = check_result(
            game,
            header,
            replay.state,
            reader.result,
            str(path),
            reader.result_line,
            unexplained,
        )
        if error is not None:
            raise error


def _read_ahead(
    game: AnyGame, reader: LogReader, ahead: deque[tuple[LogEntry, Any]], failed: list[Exception]
) -> Iterator[Any]:
    """Read a log's entries into ``ahead``, decoded, yielding each event as it is read.

    A bad line (or anything else the reader raises) ends the reading and goes into
    ``failed``, to be raised once every entry read before it has been yielded.
    """
    try:
        for entry, event in decoded(game, reader, reader.path):
            ahead.append((entry, event))
            if event is not None:
                yield event
    except Exception as exc:
        failed.append(exc)


def _unexplained(path: str | Path, line: int, at: int) -> LogError:
    return LogError(
        str(path),
        line,
        f"event {at} follows from no legal action and not from the engine's seed: "
        "the log was edited",
    )


def _undecidable(path: str | Path, exc: Exception) -> LogError:
    return LogError(str(path), 1, f"the events do not follow from decisions: {exc}")


def copy_prefix(
    reader: LogReader,
    game: AnyGame,
    options: Options,
    at: int,
    writer: LogWriter | None,
    events: list[Any] | None = None,
) -> tuple[Any, str]:
    """Fold events 0 to ``at`` of a log and return the state after ``at`` and the hash there.

    With a ``writer``, the events and the faults and notes among them are copied to it as
    read; with an ``events`` list, the decoded events are appended to it.
    """
    initial = game.initial_state(options, reader.header.players)
    for entry, event, state in fold_log(game, initial, reader, reader.path):
        if entry.event is None:
            if writer is not None:
                if entry.fault is not None:
                    writer.fault(entry.fault)
                elif entry.debug is not None:
                    writer.debug(entry.debug)
            continue
        if events is not None:
            events.append(event)
        if writer is not None:
            writer.event(entry.event)
        if entry.seq == at:
            return state, reader.last_hash
    raise LogError(
        reader.path, 0, f"event {at} does not exist: the log has {reader.events_read} events"
    )


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
        prefix: list[Any] = []
        state, _ = copy_prefix(source, game, options, header.fork.at, writer, prefix)
        seats = watched(game, options, header.players, seats, header.seed, prefix)
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


def rerun(catalogue: Catalogue, replay: Replay, path: str | Path) -> bytes:
    """Return the bytes the intact log ``replay`` came from should hold, re-run from its header.

    The bots must be the logged ones (``rerun_seats``); a fork's copied prefix is taken
    from the log itself. A log from an older state version gets its logged final-state
    hash back: everything else about its ending (events, hash chain, result) must match.
    """
    header = replay.header
    seats = rerun_seats(catalogue, header, path)
    buffer = io.BytesIO()
    # The re-run goes under the logged header, so that a log written by another engine
    # version is judged by its events and result, not by the version string it names.
    try:
        if header.fork is None:
            write_match(replay.game, replay.options, header, seats, LogWriter(buffer))
        else:
            with LogReader(path) as source:
                write_match(replay.game, replay.options, header, seats, LogWriter(buffer), source)
    except OptionError as exc:
        raise VerificationError(f"{path}: cannot re-run the match: {exc}") from None
    again = buffer.getvalue()
    if header.state_version != replay.game.state_version:
        again = _with_logged_state_hash(again, replay.result)
    return again


def verify_log(catalogue: Catalogue, path: str | Path) -> Replay:
    """Replay a log, then re-run its match from the header and compare every line.

    A fork replays its copied prefix and re-runs only what came after its fork point.
    Raises ``LogError`` for a bad log and ``VerificationError`` naming the first event
    where the re-run differs.
    """
    replay = replay_log(catalogue, path)
    if replay.error is not None:
        raise replay.error
    again = rerun(catalogue, replay, path)
    first_difference(Path(path), again, on_difference=_raise_difference(path))
    return replay


def _with_logged_state_hash(rerun: bytes, logged: ResultLine | None) -> bytes:
    """Put the logged final-state hash into a re-run's result line."""
    if logged is None:
        return rerun
    body, _, last = rerun.rstrip(b"\n").rpartition(b"\n")
    result = msgspec.json.decode(last, type=ResultLine)
    patched = msgspec.structs.replace(result, state_hash=logged.state_hash)
    return body + b"\n" + encode(patched) + b"\n"


def rerun_seats(catalogue: Catalogue, header: Header, path: str | Path) -> list[BotSpec]:
    """Return the bots to re-run a logged match with, refusing any that cannot reproduce it.

    A bot must be installed at the version the log names and be reproducible (a person or
    a wall-clock budget is not).
    """
    try:
        seats = [catalogue.bot(seat.bot, header.game) for seat in header.seats]
    except RacedeckError as exc:
        raise VerificationError(f"{path}: cannot re-run the match: {exc}") from None
    for seat, (spec, entry) in enumerate(zip(seats, header.seats, strict=True)):
        if not spec.reproducible:
            raise VerificationError(
                f"{path}: seat {seat} was played by {entry.bot}, whose play a seed does not "
                "fix; the match cannot be re-run (replay without --verify still checks it)"
            )
        if spec.version != entry.version:
            raise VerificationError(
                f"{path}: seat {seat} was played by {entry.bot} version {entry.version}, "
                f"this installation has version {spec.version}"
            )
    return seats


def _raise_difference(path: str | Path) -> Callable[[int, bytes, bytes], None]:
    def report(line: int, logged: bytes, rerun: bytes) -> None:
        what = _describe_line(logged) or _describe_line(rerun) or f"line {line}"
        raise VerificationError(
            f"{path}:{line}: re-running the match differs at {what}: "
            f"log has {clip(logged)}, re-run gives {clip(rerun)}"
        )

    return report


def first_difference(
    path: Path, rerun: bytes, *, on_difference: Callable[[int, bytes, bytes], None]
) -> None:
    """Compare a log file (compressed or not) with re-run bytes line by line.

    Reports the first line that differs to ``on_difference``.
    """
    rerun_lines = rerun.splitlines()
    with open_log(path) as handle:
        for number, logged in enumerate(handle, start=1):
            other = rerun_lines[number - 1] if number <= len(rerun_lines) else b""
            if logged.rstrip(b"\n") != other:
                on_difference(number, logged.rstrip(b"\n"), other)
                return
    if len(rerun_lines) > number:
        on_difference(number + 1, b"", rerun_lines[number])


def _describe_line(raw: bytes) -> str:
    try:
        value = msgspec.json.decode(raw)
    except msgspec.DecodeError:
        return ""
    if isinstance(value, dict):
        if value.get("kind") == "event":
            return f"event {value.get('seq')}"
        return str(value.get("kind", ""))
    return ""


def clip(raw: bytes, width: int = 160) -> str:
    """Return a log line as text for an error message, cut to ``width`` characters."""
    text = raw.decode(errors="replace") or "(nothing)"
    return text if len(text) <= width else text[: width - 3] + "..."
