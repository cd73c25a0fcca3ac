"""The frozen reader of log formats 1 and 2, which recorded events but not decisions.

Such a log says what happened, not who chose what, so reading it finds each decision
again: the engine's, decided again from the seed (its chance is keyed by the event
count), or a seat's, by resolving each of its legal actions until one gives the recorded
events. This module is kept as it is for those logs alone; format 3 logs record each
decision and are read straight (``racedeck.core.walk``). Nothing here asks a game which
action an event came from: every legal action is tried, which is slower but needs nothing
of the game beyond the contract every game keeps.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Generator, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from racedeck.core.entries import UnfoldableEvent, decoded
from racedeck.core.errors import LogError
from racedeck.core.game import AnyGame
from racedeck.core.log import LogEntry, LogReader, encode
from racedeck.core.model import ENGINE, Action
from racedeck.core.rng import Rng, engine_stream
from racedeck.core.step import NO_CHANCE, StatesTurn, beginning_with, folder

if TYPE_CHECKING:
    from racedeck.core.replay import Replay


def _traced(game: AnyGame, state: Any, actor: int, action: Action | None, rng: Rng) -> StatesTurn:
    turn = StatesTurn(game, state, rng)
    game.resolve(turn, actor, action)
    return turn


def same_events(recorded: Sequence[Any], produced: Sequence[Any]) -> bool:
    """Return whether a decision ``produced`` exactly the ``recorded`` events."""
    if recorded == produced:
        return True
    # Compared as canonical bytes: a game may build a tuple field from a list.
    return len(recorded) == len(produced) and all(
        a == b or encode(a) == encode(b) for a, b in zip(recorded, produced, strict=True)
    )


def _begins(logged: Sequence[Any], produced: list[Any]) -> bool:
    """Return whether ``produced`` begins with ``logged`` (a log may end inside a decision)."""
    size = len(logged)
    return same_events(logged, produced if size == len(produced) else produced[:size])


class Recorded:
    """A log's recorded events, a list or an iterator read only as far as a decision needs.

    Deciding never looks back before the decision it is at, so a stream lets the events
    before it go: it holds about one decision's events at a time.
    """

    __slots__ = ("_base", "_end", "_events", "_more")

    _KEEP = 256

    def __init__(self, events: Sequence[Any] | Iterator[Any], first: int = 0) -> None:
        """Hold ``events``; an iterator's first event is event number ``first``."""
        self._events: Sequence[Any]
        self._more: Iterator[Any] | None
        if isinstance(events, Sequence):
            self._events, self._more, self._base = events, None, 0
        else:
            self._events, self._more, self._base = [], events, first
        self._end = self._base + len(self._events)

    def reaches(self, end: int) -> bool:
        """Return whether there are events up to ``end`` (that is, an event ``end - 1``)."""
        return end <= self._end or self._read(end)

    def begins(self, at: int) -> bool:
        """Return whether there is an event ``at``, letting a stream's earlier events go."""
        if at < self._end:
            return True
        events = self._events
        if self._more is not None and len(events) > self._KEEP:
            assert isinstance(events, list)
            events.clear()
            self._base = self._end
        return self._read(at + 1)

    def take(self, at: int, size: int) -> Sequence[Any]:
        """Return events ``at`` to ``at + size`` (fewer where the events end)."""
        if at + size > self._end:
            self._read(at + size)
        base = self._base
        return self._events[at - base : at + size - base]

    def _read(self, end: int) -> bool:
        more = self._more
        if more is None:
            return False
        events = self._events
        assert isinstance(events, list)
        while self._end < end:
            event = next(more, _END)
            if event is _END:
                self._more = None
                return False
            events.append(event)
            self._end += 1
        return True


_END: Any = object()


class Deciding:
    """Decide a match again from ``state`` and event ``at``, as far as the events follow.

    Iterating yields ``(at, actor, action, turn)`` for each decision whose turn produced
    exactly the recorded events from ``at`` on. It stops at the first event no decision
    explains, or at the end; ``state`` and ``at`` then say where, and ``partial`` holds
    the decision the recorded events end inside, if they stopped there.
    """

    def __init__(self, game: AnyGame, state: Any, seed: int, recorded: Recorded, at: int) -> None:
        self.game = game
        self.state = state
        self.seed = seed
        self.recorded = recorded
        self.at = at
        self.partial: StatesTurn | None = None

    def __iter__(self) -> Iterator[tuple[int, int, Action | None, StatesTurn]]:
        game, recorded, seed = self.game, self.recorded, self.seed
        state, at = self.state, self.at
        while recorded.begins(at):
            step = game.next_step(state)
            if step.engine:
                try:
                    turn = _traced(game, state, ENGINE, None, engine_stream(seed, at))
                except Exception:  # the engine cannot decide here: the log does not follow
                    return
                actor, action = ENGINE, None
                if not turn.events or not _begins(recorded.take(at, len(turn.events)), turn.events):
                    return
            elif step.seats:
                found = _first_decision(game, state, step.seats, recorded, at)
                if found is None:
                    return
                actor, action, turn = found
            else:
                return  # events after the match ended
            size = len(turn.events)
            if not recorded.reaches(at + size):
                self.partial = turn
                return
            yield at, actor, action, turn
            state, at = turn.state, at + size
            self.state, self.at = state, at


def _first_decision(
    game: AnyGame, state: Any, seats: tuple[int, ...], recorded: Recorded, at: int
) -> tuple[int, Action, StatesTurn] | None:
    """Return the seat, action and turn the recorded events from ``at`` begin with.

    In a sealed step every seat decides from the same state, in seat order, so the next
    recorded events belong to one of the step's seats. Only the legal actions whose first
    event is the next recorded one are resolved whole (``step.beginning_with``).
    """
    if not recorded.reaches(at + 1):
        return None
    [first] = recorded.take(at, 1)
    for seat in seats:
        legal = game.legal_actions(state, seat)
        for action in beginning_with(game, state, seat, legal, first):
            try:
                turn = _traced(game, state, seat, action, NO_CHANCE)
            except Exception:
                continue
            produced = turn.events
            if produced and _begins(recorded.take(at, len(produced)), produced):
                return seat, action, turn
    return None


def legacy_decisions(
    game: AnyGame, state: Any, seed: int, events: Sequence[Any]
) -> tuple[list[tuple[int, Action | None, list[Any]]], int | None]:
    """Return the decisions ``events`` (from ``state``) came from, and where they stop.

    Each decision is ``(actor, action, its events)``. The second value is ``None`` when
    every event is explained and the last decision ends with the events, else the number
    of the first event that is not (or of the decision they end inside).
    """
    deciding = Deciding(game, state, seed, Recorded(events), 0)
    found = [(actor, action, list(turn.events)) for _at, actor, action, turn in deciding]
    return found, None if deciding.at == len(events) and deciding.partial is None else deciding.at


def legacy_folding(
    game: AnyGame, reader: LogReader, replay: Replay
) -> Generator[tuple[int, Any, Any], None, LogError | None]:
    """Yield ``(seq, event, state after it)`` for every intact event of a format 1 or 2 log.

    ``replay`` (made at the initial state) follows the state, the event count, the faults
    and the debug notes as the log is read. Returns why the events do not follow from
    decisions (``None`` if they do), for the result check; a bad line raises, after the
    intact prefix has been yielded.
    """
    path = reader.path
    header = replay.header
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
        for state in states:
            entry, event = ahead.popleft()
            while entry.event is None:
                note(entry)
                entry, event = ahead.popleft()
            replay.state, replay.events = state, entry.seq + 1
            yield entry.seq, event, state

    def as_recorded(state: Any, count: int | None) -> Iterator[tuple[int, Any, Any]]:
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
                raise UnfoldableEvent(path, entry, f"{type(exc).__name__}: {exc}") from None
            replay.state, replay.events = state, entry.seq + 1
            yield entry.seq, event, state
            if count is not None:
                count -= 1

    # A fork's copied prefix was decided with its parent's seed: taken as it is.
    start = header.fork.at + 1 if header.fork is not None else 0
    yield from as_recorded(replay.state, start)
    recorded = Recorded(source, start)
    deciding = Deciding(game, replay.state, header.seed, recorded, start)
    decisions = iter(deciding)
    unexplained: LogError | None = None
    while True:
        try:
            found = next(decisions, None)
        except Exception as exc:  # an edited log may reach states no decision handles
            unexplained = LogError(path, 1, f"the events do not follow from decisions: {exc}")
            break
        if found is None:
            if recorded.reaches(deciding.at + 1):
                line = next(entry.line for entry, _ in ahead if entry.event is not None)
                unexplained = LogError(
                    path,
                    line,
                    f"event {deciding.at} follows from no legal action and not from the "
                    "engine's seed: the log was edited",
                )
            break
        yield from decided(found[3].states)
    yield from as_recorded(deciding.state, None)
    if failed:
        raise failed[0]
    return unexplained


def _read_ahead(
    game: AnyGame, reader: LogReader, ahead: deque[tuple[LogEntry, Any]], failed: list[Exception]
) -> Iterator[Any]:
    """Read a log's entries into ``ahead``, decoded, yielding each event as it is read.

    A bad line ends the reading and goes into ``failed``, raised once every entry read
    before it has been yielded.
    """
    try:
        for entry, event in decoded(game, reader, reader.path):
            ahead.append((entry, event))
            if event is not None:
                yield event
    except Exception as exc:
        failed.append(exc)
