"""The step viewer: walk a log forward and back, jump, and switch whose view is shown.

Events are read once; states are rebuilt on demand from checkpoints kept every
``CHECKPOINT`` events, so moving anywhere costs at most that many folds and memory grows
with the log's events, not with its states. The viewer reads one command a line, so it
works the same at a terminal and from a script.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from racedeck.core.errors import LogError
from racedeck.core.game import AnyGame
from racedeck.core.log import DebugNote, Header
from racedeck.core.replay import iter_states
from racedeck.core.step import fold
from racedeck.plugins import Registry

CHECKPOINT = 256
"""Events between kept states."""

HELP = """commands (one a line; Enter repeats the last):
  n, f, Enter     next event            b, p    previous event
  +N / -N         N events on / back    g N     go to event N (-1: before the first)
  k KIND          next event of KIND    K KIND  previous event of KIND
  s SEAT          show SEAT's view      s       show everything (the log's view)
  kinds           list the event kinds  e       the event list around here
  h, ?            this help             q       quit"""


@dataclass
class Timeline:
    """A log's events with states rebuilt from checkpoints."""

    header: Header
    game: AnyGame
    events: list[Any]
    checkpoints: list[Any]
    """The state before event ``i * CHECKPOINT``, for each ``i``."""
    notes: list[DebugNote] = field(default_factory=list)
    """The bots' debug notes, in the log's order."""
    noted: list[int] = field(default_factory=list)
    """For each event, how many of ``notes`` the log holds up to it."""

    def latest_notes(self, frame: int, seat: int | None) -> list[DebugNote]:
        """Return each seat's latest note up to ``frame`` (only ``seat``'s when given)."""
        known = self.noted[frame - 1] if 0 < frame <= len(self.noted) else 0
        latest = {n.seat: n for n in self.notes[:known] if seat is None or n.seat == seat}
        return [latest[number] for number in sorted(latest)]

    def state(self, frame: int) -> Any:
        """Return the state of ``frame``: 0 is before any event, N after event N-1."""
        base = frame // CHECKPOINT
        return fold(self.game, self.checkpoints[base], self.events[base * CHECKPOINT : frame])

    def kind(self, seq: int) -> str:
        """Return the tag of event ``seq``."""
        return str(self.events[seq].__struct_config__.tag)


def load_timeline(registry: Registry, path: str | Path) -> Timeline:
    """Read a log into a timeline; raises ``LogError`` for a bad log."""
    events: list[Any] = []
    checkpoints: list[Any] = []
    noted: list[int] = []
    replay: Any = None
    for seq, event, state, replay in iter_states(registry, path):
        if not checkpoints:
            checkpoints.append(replay.game.initial_state(replay.options, replay.header.players))
        events.append(event)
        noted.append(len(replay.debug))
        if (seq + 1) % CHECKPOINT == 0:
            checkpoints.append(state)
    if replay is None:
        raise LogError(str(path), 0, "the log has no events to step through")
    return Timeline(replay.header, replay.game, events, checkpoints, list(replay.debug), noted)


class Viewer:
    """The viewer's position and view, and what each command does to them."""

    def __init__(self, timeline: Timeline) -> None:
        self.timeline = timeline
        self.frame = 0
        self.seat: int | None = None
        self.last = "n"

    @property
    def frames(self) -> int:
        """The number of frames: one before the first event and one after each."""
        return len(self.timeline.events) + 1

    def screen(self) -> str:
        """Return what is shown now: where we are, the event, and the state in the view."""
        t = self.timeline
        seq = self.frame - 1
        who = (
            "everything"
            if self.seat is None
            else f"seat {self.seat} ({t.header.seats[self.seat].bot})"
        )
        if seq < 0:
            top = f"before the first event (of {len(t.events)}); view: {who}"
        else:
            top = f"event {seq} of {len(t.events) - 1}: {t.kind(seq)}; view: {who}"
        state = t.state(self.frame)
        if self.seat is None:
            event = "" if seq < 0 else t.game.presentation.describe(t.events[seq])
            body = t.game.presentation.render(state, None)
        else:
            # A seat's view shows the event by kind only: its contents may be hidden from it.
            event = ""
            body = t.game.presentation.render_observation(t.game.observe(state, self.seat))
        said = [
            f"  debug, seat {n.seat} ({n.bot}) last said: {n.text}"
            for n in t.latest_notes(self.frame, self.seat)
        ]
        return "\n".join(part for part in (top, event and f"  {event}", *said, body) if part)

    def command(self, line: str) -> str | None:
        """Apply one command; return a message to show instead of the screen, or None."""
        words = line.split()
        if not words:
            words = self.last.split()
        else:
            self.last = line.strip()
        head, rest = words[0], words[1:]
        t = self.timeline
        if head in ("n", "f"):
            return self._move(self.frame + 1)
        if head in ("b", "p"):
            return self._move(self.frame - 1)
        if head[0] in "+-" and head[1:].isdigit():
            return self._move(self.frame + int(head))
        if head == "g" and len(rest) == 1 and _is_int(rest[0]):
            seq = int(rest[0])
            if not -1 <= seq < len(t.events):
                return f"no event {seq}: events go from 0 to {len(t.events) - 1}"
            return self._move(seq + 1)
        if head in ("k", "K") and len(rest) == 1:
            return self._kind(rest[0], forward=head == "k")
        if head == "s":
            return self._view(rest)
        if head == "kinds":
            kinds = sorted({t.kind(i) for i in range(len(t.events))})
            return "event kinds: " + ", ".join(kinds)
        if head == "e":
            return self._around()
        if head in ("h", "?", "help"):
            return HELP
        return f"unknown command {line.strip()!r}; h for help"

    def _move(self, frame: int) -> str | None:
        self.frame = max(0, min(self.frames - 1, frame))
        return None

    def _kind(self, kind: str, forward: bool) -> str | None:
        t = self.timeline
        seqs = range(self.frame, len(t.events)) if forward else range(self.frame - 2, -1, -1)
        for seq in seqs:
            if t.kind(seq) == kind:
                return self._move(seq + 1)
        return f"no {'later' if forward else 'earlier'} event of kind {kind!r}"

    def _view(self, rest: list[str]) -> str | None:
        if not rest or rest[0] in ("-", "all"):
            self.seat = None
            return None
        players = self.timeline.header.players
        if not _is_int(rest[0]) or not 0 <= int(rest[0]) < players:
            return f"no seat {rest[0]}: seats go from 0 to {players - 1}"
        self.seat = int(rest[0])
        return None

    def _around(self, width: int = 5) -> str:
        t = self.timeline
        seq = self.frame - 1
        lines = []
        for i in range(max(0, seq - width), min(len(t.events), seq + width + 1)):
            mark = ">" if i == seq else " "
            detail = t.kind(i)
            if self.seat is None:
                # In the game's words, cards by their faces; a seat's view keeps to the kind.
                detail = t.game.presentation.describe(t.events[i])
            lines.append(f"{mark} {i:>6} {detail}")
        return "\n".join(lines)


PROMPT = "step> "


def run_viewer(
    viewer: Viewer,
    read_line: Callable[[], str | None],
    write: Callable[[str], None],
    prompt: bool = True,
) -> None:
    """Show the screen, read commands until ``q`` or the end of input, and act on them.

    ``prompt`` writes ``PROMPT`` before each line; a reader that shows it itself (line
    editing at a terminal) passes ``False``.
    """
    write(viewer.screen())
    while True:
        if prompt:
            write(PROMPT)
        line = read_line()
        if line is None or line.strip() in ("q", "quit", "exit"):
            write("\n" if line is None else "")
            return
        message = viewer.command(line)
        write((message if message is not None else viewer.screen()) + "\n")


def _is_int(text: str) -> bool:
    return text.lstrip("-").isdigit()
