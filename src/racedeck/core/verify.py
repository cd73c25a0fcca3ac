"""Verifying a log: what was checked, and how far, said plainly.

Reading a log checks it (``replay_log``): every hash, every recorded action legal where it
was taken, every event the one its decision gives, every engine draw made again from the
seed, and the result. No bot is run for that. ``rerun`` is the separate, explicit check
that the header's bots, re-made from their recorded names and parameters, play the very
same match again.

A fork's first events were copied from its parent and drawn from the parent's seed: the
fork's own log cannot vouch for them. They count as verified only when the parent log is
given and checked against the fork (its hash at the fork point and every copied event);
``Verification`` says which events were checked and how.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import msgspec

from racedeck.core.bot import BotSpec
from racedeck.core.catalogue import Catalogue
from racedeck.core.errors import OptionError, RacedeckError, UsageError, VerificationError
from racedeck.core.log import Header, LogReader, LogWriter, ResultLine, encode, open_log
from racedeck.core.log_lines import EXTERNAL
from racedeck.core.replay import Replay, replay_log, write_match


@dataclass(frozen=True)
class Verification:
    """What verifying a log checked.

    ``replay`` is the log read and checked to its end. Events from ``checked_from`` on
    were each derived again from the log's own header (legal actions, events, engine
    draws); the events before it (a fork's copied prefix) were checked against the
    ``parent`` log when one was given, and otherwise only for their hashes and for the
    legality of their seats' actions. ``rerun`` says whether the bots were re-run too.
    """

    replay: Replay
    checked_from: int
    parent: str | None
    rerun: bool

    @property
    def whole(self) -> bool:
        """True when every event of the log was verified, a fork's prefix included."""
        return self.checked_from == 0 or self.parent is not None

    def summary(self) -> str:
        """Return one line saying what was verified."""
        events = self.replay.events
        how = "re-running its bots reproduced" if self.rerun else "derived again from its header:"
        if self.checked_from == 0:
            return f"verified: {how} all {events} events"
        after = "no event"
        if events > self.checked_from:
            after = f"events {self.checked_from} to {events - 1}"
        if self.parent is not None:
            return (
                f"verified: {how} {after} after the fork point; events 0 to "
                f"{self.checked_from - 1} are those of the parent {self.parent}"
            )
        return (
            f"verified from the fork point only: {how} {after}; the {self.checked_from} "
            "events copied from the parent are not verified (give the parent log to check them)"
        )


def verify_log(
    catalogue: Catalogue,
    path: str | Path,
    *,
    rerun: bool = False,
    parent: str | Path | None = None,
) -> Verification:
    """Check a log and return what was checked.

    Raises ``LogError`` for a bad log and ``VerificationError`` naming where it fails.
    Without ``rerun`` no bot is run: the log's reading checks every decision. With it,
    the header's bots play the match again and every line must come out the same (a
    fork from its fork point). With ``parent`` (a fork's), the copied prefix is checked
    against that log.
    """
    replay = replay_log(catalogue, path)
    if replay.error is not None:
        raise replay.error
    fork = replay.header.fork
    if parent is not None:
        if fork is None:
            raise UsageError(f"{path} is not a fork: it has no parent to check")
        # The parent is read and checked as any log is, then the fork against it.
        checked = replay_log(catalogue, parent)
        if checked.error is not None:
            raise checked.error
        check_parent(path, parent)
    if rerun:
        if any(note.bot == EXTERNAL for note in replay.debug):
            raise VerificationError(
                f"{path} is an environment episode's log: its outside seats chose from"
                " outside racedeck, which --rerun cannot ask again (its check reads their"
                " choices from the log: racedeck.rl.verify_episode)"
            )
        again = rerun_log(catalogue, replay, path)
        first_difference(Path(path), again, on_difference=_raise_difference(path))
    return Verification(
        replay=replay,
        checked_from=0 if fork is None else fork.at + 1,
        parent=None if parent is None else str(parent),
        rerun=rerun,
    )


def check_parent(path: str | Path, parent: str | Path) -> None:
    """Raise ``VerificationError`` unless ``path`` is a fork of ``parent``.

    The parent's hash at the fork point and every copied event and note must match, and
    the parent must itself be an intact log (its own reading checks it).
    """
    with LogReader(path) as reader:
        fork = reader.header.fork
        if fork is None:
            raise UsageError(f"{path} is not a fork")
        mine, _ = _prefix_events(reader, fork.at)
    with LogReader(parent) as reader:
        theirs, parent_hash = _prefix_events(reader, fork.at)
    copied = sum(1 for kind, _raw in theirs if kind == "event")
    if copied != fork.at + 1 or parent_hash != fork.parent_hash:
        raise VerificationError(
            f"{path}: forked at event {fork.at} of a log with hash {fork.parent_hash}, "
            f"but {parent} has hash {parent_hash} there"
        )
    counted: dict[str, int] = {}
    for (kind, a), other in zip(mine, theirs, strict=False):
        number = counted[kind] = counted.get(kind, -1) + 1
        if (kind, a) != other:
            raise VerificationError(f"{path}: {kind} {number} is not the parent's")
    if len(mine) != len(theirs):
        raise VerificationError(
            f"{path}: its copied part holds {len(mine)} lines of events and notes where the"
            f" parent's holds {len(theirs)}: a fault or debug line was added or dropped"
        )


def _prefix_events(reader: LogReader, at: int) -> tuple[list[tuple[str, bytes]], str]:
    """Return what a log holds up to event ``at``, in order, and the hash there.

    Each event's raw bytes, and each fault and debug line's payload: a fork copies its
    parent's notes with its events, so a note added to the copy is an edit as much as an
    event changed in it.
    """
    lines: list[tuple[str, bytes]] = []
    for entry in reader:
        if entry.event is not None:
            lines.append(("event", entry.event))
            if entry.seq == at:
                break
        elif entry.fault is not None:
            lines.append(("fault line", encode(entry.fault)))
        elif entry.debug is not None:
            lines.append(("debug line", encode(entry.debug)))
    return lines, reader.last_hash


def rerun_log(catalogue: Catalogue, replay: Replay, path: str | Path) -> bytes:
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
        if value.get("kind") == "turn":
            who = f"seat {value['by']}" if "by" in value else "the engine"
            return f"event {value.get('seq')} ({who}'s decision)"
        return str(value.get("kind", ""))
    return ""


def clip(raw: bytes, width: int = 160) -> str:
    """Return a log line as text for an error message, cut to ``width`` characters."""
    text = raw.decode(errors="replace") or "(nothing)"
    return text if len(text) <= width else text[: width - 3] + "..."
