"""Replay: fold a log back into states, check every hash, and re-run a match to verify it."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import msgspec

from racedeck.core.bot import BotSpec
from racedeck.core.errors import LogError, OptionError, RacedeckError, VerificationError
from racedeck.core.game import AnyGame
from racedeck.core.log import (
    DebugNote,
    Fault,
    Header,
    LogReader,
    LogWriter,
    ResultLine,
    encode,
)
from racedeck.core.model import Options
from racedeck.core.runner import run_match, state_hash
from racedeck.plugins import Registry


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


def open_game(registry: Registry, header: Header, path: str) -> tuple[AnyGame, Options]:
    """Return the game and options a log header names, as bad input when they are not known."""
    try:
        game = registry.game(header.game)
        options = game.parse_options(header.options)
    except RacedeckError as exc:
        raise LogError(path, 1, str(exc)) from None
    if header.rules_version != game.rules_version:
        raise LogError(
            path,
            1,
            f"{header.game} rules version {header.rules_version!r} is not this engine's "
            f"{game.rules_version!r}",
        )
    return game, options


def iter_states(
    registry: Registry, path: str | Path, stream: IO[bytes] | None = None
) -> Iterator[tuple[int, Any, Any, Replay]]:
    """Yield ``(seq, event, state after it, replay so far)`` for every intact event of a log.

    Raises ``LogError`` at the first bad line, after yielding the intact prefix.
    """
    with LogReader(path, stream) as reader:
        game, options = open_game(registry, reader.header, str(path))
        state = game.initial_state(options, reader.header.players)
        replay = Replay(reader.header, game, options, state, 0)
        decode = game.event_decoder.decode
        evolve = game.evolve
        for entry in reader:
            if entry.fault is not None:
                replay.faults.append(entry.fault)
                continue
            if entry.debug is not None:
                replay.debug.append(entry.debug)
                continue
            assert entry.event is not None
            try:
                event = decode(entry.event)
            except msgspec.DecodeError as exc:
                raise LogError(str(path), entry.line, f"not a {game.name} event: {exc}") from None
            state = evolve(state, event)
            replay.state = state
            replay.events = entry.seq + 1
            yield entry.seq, event, state, replay
        replay.result = reader.result


def replay_log(
    registry: Registry,
    path: str | Path,
    *,
    at: int | None = None,
    stream: IO[bytes] | None = None,
) -> Replay:
    """Fold a log into its final state, or the state after event ``at``.

    A bad line does not raise: the replay keeps the intact prefix and records the error.
    A complete log's final state must match the hash and result on its last line.
    """
    replay: Replay | None = None
    try:
        for seq, _event, _state, replay in iter_states(registry, path, stream):
            if at is not None and seq >= at:
                return replay
    except LogError as exc:
        if replay is None:
            if exc.line <= 1:
                raise
            replay = _empty_replay(registry, path, stream, exc)
        replay.error = exc
        return replay
    if replay is None:
        replay = _empty_replay(registry, path, stream, None)
    if at is not None and at >= replay.events:
        raise LogError(
            str(path), 0, f"event {at} does not exist: the log has {replay.events} events"
        )
    result = replay.result
    if result is not None and replay.error is None:
        same_schema = replay.header.state_version == replay.game.state_version
        if same_schema and state_hash(replay.state) != result.state_hash:
            replay.error = LogError(
                str(path), 0, "the final state does not match the result line's state hash"
            )
        elif result.forfeit is None and _as_json(replay.game.result(replay.state)) != result.result:
            replay.error = LogError(str(path), 0, "the result line does not match the final state")
    return replay


def _as_json(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


def _empty_replay(
    registry: Registry, path: str | Path, stream: IO[bytes] | None, error: LogError | None
) -> Replay:
    """Return the replay of a log with no intact event: its initial state."""
    if stream is not None:
        stream.seek(0)
    with LogReader(path, stream) as reader:
        game, options = open_game(registry, reader.header, str(path))
        state = game.initial_state(options, reader.header.players)
        result = None
        if error is None:
            for _ in reader:
                pass
            result = reader.result
        return Replay(reader.header, game, options, state, 0, result=result, error=error)


def verify_log(registry: Registry, path: str | Path) -> Replay:
    """Replay a log, then re-run its match from the header and compare every line.

    Raises ``LogError`` for a bad log and ``VerificationError`` naming the first event
    where the re-run differs.
    """
    replay = replay_log(registry, path)
    if replay.error is not None:
        raise replay.error
    header = replay.header
    if header.fork is not None:
        # A fork replays its copied prefix and re-runs only what came after its fork point.
        from racedeck.core.fork import rerun_fork  # imported here: fork builds on replay

        first_difference(
            Path(path), rerun_fork(registry, path), on_difference=_raise_difference(path)
        )
        return replay
    seats = rerun_seats(registry, header, path)
    buffer = io.BytesIO()
    writer = LogWriter(buffer)
    # The re-run goes under the logged header, so that a log written by another engine
    # version is judged by its events and result, not by the version string it names.
    writer.header(header)
    try:
        run_match(
            replay.game,
            replay.options,
            seats,
            header.seed,
            writer=writer,
            fault_policy=header.fault_policy,
            start_state=replay.game.initial_state(replay.options, header.players),
        )
    except OptionError as exc:
        raise VerificationError(f"{path}: cannot re-run the match: {exc}") from None
    rerun = buffer.getvalue()
    if header.state_version != replay.game.state_version:
        rerun = _with_logged_state_hash(rerun, replay.result)
    first_difference(Path(path), rerun, on_difference=_raise_difference(path))
    return replay


def _with_logged_state_hash(rerun: bytes, logged: ResultLine | None) -> bytes:
    """Put the logged final-state hash into a re-run's result line.

    A log from an older state version hashed a differently shaped state; everything else
    about its ending (events, hash chain, result) must still match.
    """
    if logged is None:
        return rerun
    body, _, last = rerun.rstrip(b"\n").rpartition(b"\n")
    result = msgspec.json.decode(last, type=ResultLine)
    patched = msgspec.structs.replace(result, state_hash=logged.state_hash)
    return body + b"\n" + encode(patched) + b"\n"


def rerun_seats(registry: Registry, header: Header, path: str | Path) -> list[BotSpec]:
    """Return the bots to re-run a logged match with, refusing any that cannot reproduce it.

    A bot must be installed at the version the log names and be reproducible (a person or
    a wall-clock budget is not).
    """
    try:
        seats = [registry.bot(seat.bot, header.game) for seat in header.seats]
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
            f"log has {_clip(logged)}, re-run gives {_clip(rerun)}"
        )

    return report


def first_difference(
    path: Path, rerun: bytes, *, on_difference: Callable[[int, bytes, bytes], None]
) -> None:
    """Compare a log file with re-run bytes line by line; report the first line that differs."""
    rerun_lines = rerun.splitlines()
    with open(path, "rb") as handle:
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


def _clip(raw: bytes, width: int = 160) -> str:
    text = raw.decode(errors="replace") or "(nothing)"
    return text if len(text) <= width else text[: width - 3] + "..."
