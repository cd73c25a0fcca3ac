"""Reading a format 3 log straight: each recorded decision resolved once, its events compared.

A format 3 log records every decision: the seat and its action, or the engine's turn,
with the events it caused. Reading it is the play driver (``racedeck.core.driver``) with
the log in the seats' place: at each decision the seat to act "answers" with its
recorded action, which must be one of its legal actions then; the engine's turn is
decided again from the seed (its chance is keyed by the event count); and the events
each decision gives must be, byte for byte, the ones the log holds. So every event of a
log that reads to its end follows from the header, and each is folded once, by the
decision that gives it. In a fork's copied prefix the engine's turns were drawn from the
parent's seed: their events are folded as recorded (the parent log, when it is given,
is what checks them).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Generator, Iterator
from typing import TYPE_CHECKING, Any

from racedeck.core.driver import Driver
from racedeck.core.entries import UnfoldableEvent, decode_action, decode_event
from racedeck.core.errors import LogError, UsageError
from racedeck.core.forcing import forced_actions
from racedeck.core.game import AnyGame
from racedeck.core.log import END_MATCH, Decision, LogEntry, LogReader, encode
from racedeck.core.model import ENGINE, Action
from racedeck.core.rng import engine_stream
from racedeck.core.shown import shown
from racedeck.core.step import NO_CHANCE, StatesTurn, Turn, choose

if TYPE_CHECKING:
    from racedeck.core.replay import Replay


Checked = tuple[int, list[Any], Turn[Any, Any], int]
"""A decision read and checked: ``(seq, events, turn, first)``.

Its events are numbered from ``seq``; ``turn.events[first:]`` are they (a sealed step's
seats share one turn) and ``turn.state`` is the state after the turn's last event.
"""


ACTIONS_KEPT = 4096
"""How many different actions a walk keeps decoded (a match has far fewer)."""


class _Ended(Exception):
    """The log has no more decisions where the engine is to act."""


def _who(actor: int) -> str:
    return "the engine" if actor == ENGINE else f"seat {actor}"


class _Walk:
    """The state of one walk: the log's decisions, the ones not yet resolved, the errors."""

    def __init__(self, game: AnyGame, reader: LogReader, replay: Replay) -> None:
        self.game = game
        self.reader = reader
        self.replay = replay
        self.path = reader.path
        self.header = replay.header
        self.prefix_end = self.header.fork.at + 1 if self.header.fork is not None else 0
        # The decision holds its events' bytes: no entry of their own is needed.
        reader.event_entries = False
        self.entries = iter(reader)
        # Decisions read and offered to the driver, not yet resolved: a sealed step's seats
        # are all asked before any is resolved.
        self.pending: deque[tuple[int, int, Decision, Action | None]] = deque()
        self.broken: list[LogError] = []
        self.make: type[Turn[Any, Any]] = Turn
        """The class of the turns decisions are resolved in (``decisions`` sets it)."""
        self.forced: dict[int, Action] = {}
        """The actions a fork's header forces at its fork point, by seat, until checked:
        set where the fork begins (``_check_fork_point``)."""
        self.actions: dict[bytes, Action] = {}
        """Actions read so far, by their canonical bytes (``legal_action``)."""
        self.fork_checked = False
        """Whether the fork header's forced plays were checked where the fork begins."""
        self.owed: dict[int, int] = {}
        """Seats whose bot faulted under ``substitute`` and have not decided since: the line
        of the fault, by seat (their next action must be the substitute's)."""

    def read(self) -> tuple[int, int, Decision] | None:
        """Return the next decision as ``(line, first event number, decision)``.

        Faults and debug notes on the way go to the replay. None at the end, or at a bad
        line (kept in ``broken``).
        """
        replay = self.replay
        try:
            for entry in self.entries:
                decision = entry.decision
                if decision is not None:
                    if entry.seq < self.prefix_end < entry.seq + len(decision.events):
                        raise LogError(
                            self.path,
                            entry.line,
                            f"the header's fork point, event {self.prefix_end - 1}, falls"
                            " inside this decision: a fork is made only between decisions,"
                            " so the log was edited",
                        )
                    return entry.line, entry.seq, decision
                fault = entry.fault
                if fault is not None:
                    replay.faults.append(fault)
                    if fault.policy == "substitute" and not fault.reason.startswith(END_MATCH):
                        self.owed.setdefault(fault.seat, entry.line)
                elif entry.debug is not None:
                    replay.debug.append(entry.debug)
        except LogError as exc:  # a bad line: what was read before it still replays
            self.broken.append(exc)
        return None

    def ask(self, state: Any, seat: int, legal: tuple[Action, ...]) -> Action | None:
        """Answer for ``seat`` with its recorded action, the engine's legal copy of it."""
        found = self.read()
        if found is None:
            return None
        line, seq, decision = found
        try:
            if seq == self.prefix_end:
                self._check_fork_point(state, line)
            chosen = self.legal_action(line, seat, decision, legal)
            if seat in self.forced:
                _check_forced(self.forced.pop(seat), chosen, seat, self.path, line)
            if self.owed:
                self._check_substitute(seat, chosen, legal, line)
        except LogError as exc:
            self.broken.append(exc)
            return None
        self.pending.append((line, seq, decision, chosen))
        return chosen

    def legal_action(
        self, line: int, seat: int, decision: Decision, legal: tuple[Action, ...]
    ) -> Action:
        """Return the legal action ``decision`` records for ``seat``; refuse any other."""
        path = self.path
        if decision.actor != seat:
            raise LogError(
                path, line, f"a decision of {_who(decision.actor)} where seat {seat} is to act"
            )
        raw = decision.action
        assert raw is not None
        # A match repeats its actions: each spelling is decoded and checked canonical once
        # (actions are frozen, so the one decoded object serves every line that spells it).
        action = self.actions.get(raw)
        if action is None:
            action = decode_action(self.game, raw, path, line)
            if len(self.actions) < ACTIONS_KEPT:
                self.actions[raw] = action
        # The engine's copy of the action, found by equality in C (``tuple.index``);
        # ``choose``'s own rule (the very type, equal) decides when that is unsure.
        try:
            chosen: Action | None = legal[legal.index(action)]
        except ValueError:
            chosen = None
        if chosen is None or type(chosen) is not type(action):
            chosen = choose(legal, action)
        if chosen is None:
            raise LogError(path, line, f"seat {seat}'s action {shown(action)} is not legal there")
        return chosen

    def _check_substitute(
        self, seat: int, chosen: Action, legal: tuple[Action, ...], line: int
    ) -> None:
        """Refuse a seat's action after its fault unless it is the substitute's.

        Under ``substitute`` a bot that fails (raises, overruns, answers what is not legal,
        cannot be started) has the first legal action played for it: a fault line is
        always followed, at the seat's next decision, by that action. Any other is a fault
        line that was added, or an action that was changed.
        """
        fault_line = self.owed.pop(seat, None)
        if fault_line is not None and chosen is not legal[0]:
            raise LogError(
                self.path,
                line,
                f"seat {seat}'s bot faulted on line {fault_line}, but its action is not the "
                "substitute's (the first legal action): the log was altered",
            )

    def _check_fork_point(self, state: Any, line: int) -> None:
        """Refuse a fork header whose forced plays do not hold where the fork begins.

        Each forced seat must be one to act there, once, with one of its legal actions
        (``forcing.forced_actions``, as the fork that wrote the header asked); each such
        seat's decision there must then be that action (``_check_forced``). Checked once,
        at the first decision of the fork.
        """
        fork = self.header.fork
        if fork is None or self.fork_checked:
            return
        self.fork_checked = True
        try:
            self.forced = forced_actions(self.game, state, fork.play)
        except UsageError as exc:
            raise LogError(
                self.path, line, f"the header's forced plays do not hold at the fork point: {exc}"
            ) from None

    def engine_turn(self, state: Any, seq: int) -> Turn[Any, Any]:
        """Return the engine's turn at event ``seq``, decided again (as recorded in a prefix)."""
        found = self.read()
        if found is None:
            raise _Ended
        line, _seq, decision = found
        if decision.actor != ENGINE:
            raise LogError(
                self.path, line, f"a decision of {_who(decision.actor)} where the engine is to act"
            )
        self.pending.append((line, seq, decision, None))
        header = self.header
        if seq == self.prefix_end:
            self._check_fork_point(state, line)
        if seq < self.prefix_end:
            return _as_recorded(self.game, state, (line, seq, decision), header.players, self.path)
        turn = self.make(self.game, state, engine_stream(header.seed, seq))
        self.game.resolve(turn, ENGINE, None)
        return turn

    def checked(self, actor: int, turn: Turn[Any, Any], first: int) -> tuple[int, list[Any]]:
        """Return the first event number and the events of the oldest pending decision.

        Refuses them unless they are, byte for byte, the ones the log holds for it.
        """
        line, seq, decision, _chosen = self.pending.popleft()
        produced = turn.events[first:] if first else turn.events
        if encode(produced) != decision.listed:
            raise LogError(
                self.path,
                line,
                f"the events of {_who(actor)}'s decision at event {seq} are not the ones "
                "it gives: the log was edited",
            )
        return seq, produced

    def sealed_rest(self, state: Any, make: type[Turn[Any, Any]]) -> Iterator[Checked]:
        """Yield what the seats of a sealed step read so far give, where the log stopped."""
        pending = self.pending
        turn = make(self.game, state, NO_CHANCE)
        while pending:
            seat, action = pending[0][2].actor, pending[0][3]
            first = len(turn.events)
            self.game.resolve(turn, seat, action)
            seq, produced = self.checked(seat, turn, first)
            self.replay.state, self.replay.events = turn.state, seq + len(produced)
            yield seq, produced, turn, first
        if not self.broken:
            raise LogError(self.path, self.reader.lines_read, "the log ends inside a sealed step")

    def decisions(self, make: type[Turn[Any, Any]]) -> Iterator[Checked]:
        """Yield each decision of the log once checked, resolved in turns of class ``make``.

        ``replay`` follows the state and the event count after each decision.
        """
        replay, reader = self.replay, self.reader
        self.make = make
        driver = Driver(
            self.game,
            replay.state,
            self.header.seed,
            self.ask,
            turn_type=make,
            engine_turn=self.engine_turn,
        )
        checked = self.checked
        try:
            for actor, _action, turn, first in driver:
                seq, produced = checked(actor, turn, first)
                replay.state, replay.events = turn.state, seq + len(produced)
                yield seq, produced, turn, first
            if self.pending:
                # The log stopped inside a sealed step: its seats read so far still replay.
                yield from self.sealed_rest(driver.state, make)
        except _Ended:
            pass
        except LogError:
            raise
        except Exception as exc:  # a state only a forged prefix reaches, which the game refuses
            raise LogError(
                reader.path,
                reader.lines_read,
                f"the decisions do not follow: {type(exc).__name__}: {exc}",
            ) from None
        if self.broken:
            raise self.broken[0]
        if self.prefix_end > replay.events:
            raise LogError(
                reader.path,
                reader.lines_read,
                f"the header's fork point, event {self.prefix_end - 1}, lies past the log's"
                f" last event, {replay.events - 1}: the log was edited",
            )
        fork = self.header.fork
        if fork is not None and fork.play and not self.fork_checked:
            raise LogError(
                reader.path,
                reader.lines_read,
                "the header forces plays at its fork point, but no decision follows it:"
                " the log was edited",
            )
        if driver.over:
            after = self.read()
            if after is not None:
                raise LogError(reader.path, after[0], "a decision after the match ended")
            if self.broken:
                raise self.broken[0]


def walk(
    game: AnyGame, reader: LogReader, replay: Replay
) -> Generator[tuple[int, Any, Any], None, None]:
    """Yield ``(seq, event, state after it)`` for every event of a format 3 log, checked.

    ``replay`` (made at the initial state) follows the state, the event count, the
    faults and the debug notes. A decision that does not follow (a seat out of turn, an
    action that is not legal, events the decision does not give) raises ``LogError``
    naming its line, after every event before it has been yielded.
    """
    for seq, produced, turn, first in _Walk(game, reader, replay).decisions(StatesTurn):
        assert isinstance(turn, StatesTurn)
        states = turn.states
        for number, event in enumerate(produced):
            state = states[first + number]
            replay.state, replay.events = state, seq + number + 1
            yield seq + number, event, state


def walk_decisions(game: AnyGame, reader: LogReader, replay: Replay) -> Iterator[Checked]:
    """Yield each decision of a format 3 log, checked: ``(seq, events, turn, first)``.

    ``walk`` a decision at a time, for a reader that needs only the state after each
    decision (a verification, a replay to the end): ``replay`` follows the state after
    each, and no state inside a decision is kept.
    """
    return _Walk(game, reader, replay).decisions(Turn)


def _check_forced(wanted: Action, chosen: Action, seat: int, path: str, line: int) -> None:
    """Raise ``LogError`` unless a forced seat's decision at the fork point is the header's."""
    if chosen != wanted or type(chosen) is not type(wanted):
        raise LogError(
            path,
            line,
            f"seat {seat}'s action at the fork point is not the one the header forces "
            f"({encode(wanted).decode(errors='replace')})",
        )


def _as_recorded(
    game: AnyGame, state: Any, found: tuple[int, int, Decision], players: int, path: str
) -> StatesTurn:
    """Return the engine's turn of a fork's copied prefix: its recorded events, folded.

    Such a state was not derived from the log's own seed, so it is tried once as every
    reader will use it (the next step, the text, each seat's view) before it goes on: a
    forged one is refused here, naming its line, rather than failing in a renderer.
    """
    line, seq, decision = found
    turn = StatesTurn(game, state, NO_CHANCE)
    for number, raw in enumerate(decision.events):
        entry = LogEntry(line, seq + number, raw, None)
        event = decode_event(game, entry, path)
        try:
            turn.emit(event)
        except Exception as exc:  # an edited log may hold an event no match could produce
            raise UnfoldableEvent(path, entry, f"{type(exc).__name__}: {exc}") from None
    after = turn.state
    try:
        game.next_step(after)
        shown = game.presentation
        shown.render(after)
        for seat in range(players):
            shown.render_observation(game.observe(after, seat))
    except Exception as exc:  # a forged state: no match reaches it
        raise LogError(
            path,
            line,
            f"the state after event {seq + len(decision.events) - 1} is no state a match "
            f"reaches ({type(exc).__name__}: {exc}): the copied events were edited",
        ) from None
    return turn
