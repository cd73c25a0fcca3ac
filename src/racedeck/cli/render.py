"""Readable text for results and replays."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from racedeck.cli.output import continued
from racedeck.core.catalogue import Catalogue
from racedeck.core.errors import RacedeckError, UsageError
from racedeck.core.log import DebugNote, Header
from racedeck.core.model import Result
from racedeck.core.replay import Replay
from racedeck.core.shown import one_line


def describe_result(title: str, seats: Sequence[str], result: Result) -> str:
    """Return the finishing order and scores of a match, best first."""
    lines = [f"{title}: final standings"]
    order = sorted(range(len(seats)), key=lambda s: (result.ranks[s], s))
    for seat in order:
        lines.append(
            f"  {result.ranks[seat]}. seat {seat} ({seats[seat]}): "
            f"{result.scores[seat]} {result.unit}"
        )
    # A summary line may quote a bot (a forfeit's reason): one line each, whatever it holds.
    lines.extend(f"  {one_line(line)}" for line in result.summary)
    return "\n".join(lines)


def describe_replay(replay: Replay, seat: int | None, at: int | None) -> str:
    """Return a replay's state (as ``seat`` saw it, if given) and how far the log was intact."""
    header = replay.header
    lines = [
        f"{header.game} seed {header.seed}, {header.players} seats: "
        + ", ".join(s.bot for s in header.seats)
    ]
    where = f"after event {at}" if at is not None else f"after all {replay.events} events"
    lines.append(f"state {where}:")
    lines.append(replay.game.presentation.render(replay.state, seat))
    if replay.result is not None and at is None:
        lines.append(
            f"result: ranks {list(replay.result.result['ranks'])}, "
            f"scores {list(replay.result.result['scores'])} {replay.result.result['unit']}"
        )
    for fault in replay.faults:
        lines.append(f"fault: seat {fault.seat} ({fault.bot}) {one_line(fault.reason)}")
    if replay.debug:
        lines.append(
            f"debug notes: {len(replay.debug)}; the last from seat "
            f"{replay.debug[-1].seat}: {continued(replay.debug[-1].text)}"
        )
    if replay.error is not None:
        intact = f"up to event {replay.events - 1}" if replay.events else "in its header only"
        lines.append(f"the log is intact {intact}; then: {replay.error}")
    return "\n".join(lines)


def show_heading(
    catalogue: Catalogue, log: Path, at: int | None, seat: int | None, notes: Sequence[DebugNote]
) -> str:
    """Return what ``show`` prints above the state: event ``at``, each seat's latest note.

    The event is in the game's words; a note is a bot's latest debug text so far (a search
    bot's is what it weighed for its last decision). With ``seat``, only that seat's note
    (another's may name what it holds).
    """
    lines = []
    said = describe_event_at(catalogue, log, at, seat) if at is not None and at >= 0 else None
    if said:
        lines.append(said)
    latest = {note.seat: note for note in notes if seat is None or note.seat == seat}
    for number in sorted(latest):
        note = latest[number]
        lines.append(f"debug, seat {number} ({note.bot}) last said: {continued(note.text)}")
    return "".join(line + "\n" for line in lines)


def describe_event_at(catalogue: Catalogue, log: Path, at: int, seat: int | None) -> str | None:
    """Return event ``at`` of a log in its game's words (its kind alone for a seat's view).

    ``None`` when the log's intact part holds no such event (the replay says why).
    """
    from racedeck.core.errors import LogError
    from racedeck.core.replay import iter_states

    try:
        for seq, event, _state, replay in iter_states(catalogue, log):
            if seq == at:
                if seat is not None:
                    # A seat's view: the event's contents may hold what it never saw.
                    return f"event {at}: {event.__struct_config__.tag}"
                return f"event {at}: {replay.game.presentation.describe(event)}"
    except LogError:
        return None
    return None


DEBUG_TAIL = 20
"""Bots' debug notes ``play`` prints by default: the last ones (the log keeps every one)."""


def debug_lines(notes: Sequence[DebugNote], shown: str = "tail") -> list[str]:
    """Return the lines ``play`` prints for bots' debug notes.

    ``shown`` is ``tail`` (the last ``DEBUG_TAIL``, after a line saying how many were left
    out), ``all`` or ``none``.
    """
    if shown not in ("tail", "all", "none"):
        raise UsageError(f"--bot-debug must be one of tail, all, none, got {shown!r}")
    if shown == "none":
        return []
    kept = list(notes) if shown == "all" else list(notes)[-DEBUG_TAIL:]
    lines = [f"debug: seat {note.seat} ({note.bot}): {continued(note.text)}" for note in kept]
    if len(kept) < len(notes):
        left = len(notes) - len(kept)
        lines.insert(
            0,
            f"debug: {left} earlier {'note' if left == 1 else 'notes'} not shown"
            " (the log keeps them all; --bot-debug all prints them)",
        )
    return lines


def version_notes(reg: Catalogue, header: Header) -> list[str]:
    """Return a line for each bot whose version here differs from the one the log recorded."""
    notes = []
    for number, seat in enumerate(header.seats):
        try:
            here = reg.bot(seat.bot, header.game).version
        except RacedeckError:
            continue  # verifying names the bot that does not load
        if here != seat.version:
            notes.append(
                f"seat {number} ({seat.bot}) is at version {here} here, the log recorded"
                f" version {seat.version}: the match may not replay the same"
            )
    return notes
