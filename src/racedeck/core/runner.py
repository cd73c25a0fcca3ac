"""The match runner: asks bots for actions, folds events and appends them to the log.

The fault policy (``docs/bots.md``): a bot that raises, overruns its time limit, answers
garbage or returns an action that is not legal is recorded as a fault line in the log.
Under ``forfeit`` the match ends at once and that seat ranks last; under ``substitute``
the first legal action is played in its place and the match goes on. A bot that can never
answer again (its process died, or it failed to start) is replaced by that substitute for
the rest of the match, recorded once.
"""

from __future__ import annotations

import math
import signal
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec

from racedeck import __version__
from racedeck.core import interrupts, isolation
from racedeck.core.bot import Bot, BotFault, BotGone, BotSpec, BotTimeout
from racedeck.core.driver import Ask, Driver, play_through
from racedeck.core.errors import OptionError
from racedeck.core.game import AnyGame
from racedeck.core.hashing import digest
from racedeck.core.interrupts import is_bots_own
from racedeck.core.isolation import IsolatedBot
from racedeck.core.log import (
    END_MATCH,
    LOG_FORMAT,
    DebugNote,
    Fault,
    Forfeit,
    Header,
    LogWriter,
    ResultLine,
    SeatEntry,
    encode,
    forfeit_result,
)
from racedeck.core.model import NOT_OBSERVED, Action, Observation, Options, Result
from racedeck.core.rng import Rng, bot_stream
from racedeck.core.shown import clip, safe_str, shown
from racedeck.core.step import choose

FaultPolicy = Literal["forfeit", "substitute"]
FAULT_POLICIES: tuple[str, ...] = ("forfeit", "substitute")

DEBUG_LIMIT = 2000
"""The most characters of one debug text that go into the log."""


class _Substitute(Bot):
    """Stands in for a bot that can no longer answer: plays the first legal action."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Return the first legal action."""
        return legal[0]


class DecisionClock:
    """Enforces per-decision time limits on in-process bots.

    In the main thread a real-time alarm interrupts a bot that overruns (raising
    ``BotTimeout`` inside it, which its own ``except Exception`` cannot catch); elsewhere,
    where signals cannot reach, an answer that came too late is refused after the fact.
    Only matches with a limit read the clock.
    """

    def __init__(self) -> None:
        self._alarm = (
            hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
        )
        self._armed = False
        self._previous: Any = None
        if self._alarm:
            self._previous = signal.signal(signal.SIGALRM, self._on_alarm)

    def stop(self) -> None:
        """Disarm the alarm and give SIGALRM back to whoever handled it before."""
        if self._alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            self._armed = False
            signal.signal(signal.SIGALRM, self._previous)
            self._alarm = False

    def _on_alarm(self, signum: int, frame: object) -> None:
        if self._armed:
            self._armed = False
            raise BotTimeout

    def call(self, limit: float | None, act: Callable[..., Action], *args: Any) -> Action:
        """Return ``act(*args)``, raising ``BotTimeout`` when it takes more than ``limit`` s."""
        if limit is None:
            return act(*args)
        if not self._alarm:
            start = time.perf_counter()
            action = act(*args)
            if time.perf_counter() - start > limit:
                raise BotTimeout
            return action
        self._armed = True
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            return act(*args)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            self._armed = False


@dataclass
class MatchOutcome:
    """What a finished match left behind."""

    state: Any
    result: Result
    events: int
    faults: list[Fault] = field(default_factory=list)
    forfeit: Forfeit | None = None
    last_hash: str = ""
    debug: list[DebugNote] = field(default_factory=list)
    """Debug notes the bots left, as the log records them."""


def make_header(
    game: AnyGame,
    options: Options,
    players: int,
    seed: int,
    seats: Sequence[BotSpec],
    fault_policy: str,
) -> Header:
    """Return the log header of a match."""
    return Header(
        kind="header",
        format=LOG_FORMAT,
        engine=__version__,
        game=game.name,
        rules_version=game.rules_version,
        options=msgspec.to_builtins(options),
        players=players,
        seed=seed,
        seats=tuple(SeatEntry(bot=spec.name, version=spec.version) for spec in seats),
        fault_policy=fault_policy,
        state_version=game.state_version,
    )


def describe_failure(exc: BaseException, where: str = "") -> str:
    """Return the reason a fault line gives for a bot's exception."""
    if isinstance(exc, BotFault):
        return clip(safe_str(exc))
    return clip(f"{where}raised {type(exc).__name__}: {safe_str(exc)}")


_INDEXED_FROM = 16
"""Legal lists at least this long are looked up by identity through ``_LegalIndex``."""


class _LegalIndex:
    """Finds a bot's answer among a long legal list by identity in constant time.

    ``choose`` goes through the legal list in Python to find the very object a bot
    returned: for Famous 500's 1,330 car designs that is most of the cost of a random
    race. A game that hands out the same tuple at every such decision (a cached list)
    gets it indexed by the id of each action on its second appearance; a list made anew
    each time is only remembered, never indexed, so it costs no more than a look-up.

    Each entry holds its tuple, so no other object can take that tuple's id (nor its
    actions' ids) while the entry lives; the index is cleared, never partly evicted,
    which keeps it safe for matches played in threads.
    """

    _LIMIT = 32

    def __init__(self) -> None:
        self._seen: dict[int, tuple[tuple[Action, ...], dict[int, Action] | None]] = {}

    def find(self, legal: tuple[Action, ...], answer: object) -> Action | None:
        """Return the action of ``legal`` that is ``answer`` itself, or None if unknown."""
        seen = self._seen
        entry = seen.get(id(legal))
        if entry is None or entry[0] is not legal:
            if len(seen) >= self._LIMIT:
                seen.clear()
            seen[id(legal)] = (legal, None)
            return None
        index = entry[1]
        if index is None:
            index = {id(action): action for action in legal}
            seen[id(legal)] = (legal, index)
        action = index.get(id(answer))
        # Both are alive, so equal ids mean the same object; the test says so plainly.
        return action if action is answer else None


_LEGAL_INDEX = _LegalIndex()


def seat_limits(seats: Sequence[BotSpec], time_limit: float | None) -> list[float | None]:
    """Return each seat's limit in seconds per decision: its bot's own, else the match's."""
    limits: list[float | None] = []
    for spec in seats:
        limit = spec.time_limit if spec.time_limit is not None else time_limit
        limits.append(None if limit is None or math.isinf(limit) else limit)
    return limits


def run_match(
    game: AnyGame,
    options: Options,
    seats: Sequence[BotSpec],
    seed: int,
    *,
    writer: LogWriter | None = None,
    fault_policy: str = "forfeit",
    start_state: Any = None,
    start_events: int = 0,
    time_limit: float | None = None,
    isolate: bool = False,
) -> MatchOutcome:
    """Play one match to its end and return its outcome.

    With a ``writer`` every event is appended to the log as it happens. A bot's failure is
    recorded as a fault and handled by ``fault_policy`` (see the module's docstring).
    ``time_limit`` is the seconds each decision may take (``None``: no limit), unless a
    bot's spec sets its own; a limit reads the clock, so a match that hits one is not
    reproducible. ``start_state`` and ``start_events`` let a match continue from a point
    of another one (a fork). With ``isolate`` every bot plays in a process of its own,
    limit or not, so one that takes its process down costs only its seat (a tournament
    plays a match again this way after its worker died).
    """
    if fault_policy not in FAULT_POLICIES:
        raise OptionError(f"unknown fault policy {fault_policy!r}; use forfeit or substitute")
    if time_limit is not None and not time_limit > 0:
        raise OptionError(f"the time limit must be a positive number of seconds, got {time_limit}")
    players = len(seats)
    game.check_players(options, players)
    limits = seat_limits(seats, time_limit)
    bots: list[Bot] = []
    failed: list[tuple[int, str]] = []
    for seat, (spec, limit) in enumerate(zip(seats, limits, strict=True)):
        if (limit is not None or isolate) and isolation.available():
            # Made and played in a process of its own, which the limit can always stop.
            bots.append(IsolatedBot(spec.factory, limit))
            limits[seat] = None
            continue
        try:
            bot = spec.factory()
            if spec.time_limit is not None and math.isinf(spec.time_limit) and time_limit:
                bot.limit_time(time_limit)  # a program timed by its own bot obeys the match's
        except BaseException as exc:  # a bot that cannot be made is its seat's fault
            if not is_bots_own(exc):
                raise
            bot = _Substitute()
            limits[seat] = None
            failed.append((seat, describe_failure(exc, "making the bot ")))
        bots.append(bot)
    clock = DecisionClock() if any(limit is not None for limit in limits) else None
    plan = _Plan(options, seats, seed, writer, fault_policy, start_state, start_events)
    referee = _Referee(game, seats, bots, limits, writer, fault_policy, failed)
    try:
        with interrupts.watching():
            return _play(game, plan, bots, referee, clock)
    finally:
        if clock is not None:
            clock.stop()
        for bot in bots:
            _close(bot)


def _close(bot: Bot) -> None:
    """Let a bot release what it holds; whatever it raises is ignored (the match is over)."""
    try:
        bot.close()
    except BaseException as exc:  # cleanup must reach every bot
        if not is_bots_own(exc):
            raise


class _Referee:
    """What a match does when a bot fails or leaves notes: the paths a clean match never takes.

    It records faults and debug notes (in the log too, with a writer) and replaces a bot
    that can answer no more; ``bots`` and ``limits`` are the very lists the match loop
    reads, so a replacement is seen at the seat's next decision.
    """

    __slots__ = (
        "bots",
        "debug",
        "failed_at_start",
        "fault_policy",
        "faults",
        "forfeit",
        "game_observe",
        "limits",
        "seats",
        "writer",
    )

    def __init__(
        self,
        game: AnyGame,
        seats: Sequence[BotSpec],
        bots: list[Bot],
        limits: list[float | None],
        writer: LogWriter | None,
        fault_policy: str,
        failed_at_start: list[tuple[int, str]],
    ) -> None:
        self.game_observe = game.observe
        self.failed_at_start = failed_at_start
        """The seats whose bots could not be made, and why."""
        self.seats = seats
        self.bots = bots
        self.limits = limits
        self.writer = writer
        self.fault_policy = fault_policy
        self.faults: list[Fault] = []
        self.debug: list[DebugNote] = []
        self.forfeit: Forfeit | None = None

    def record_fault(self, seat: int, reason: str) -> None:
        """Record a fault of ``seat``'s bot."""
        fault = Fault(seat=seat, bot=self.seats[seat].name, reason=reason, policy=self.fault_policy)
        self.faults.append(fault)
        if self.writer is not None:
            self.writer.fault(fault)

    def record_debug(self, seat: int) -> None:
        """Record the debug text ``seat``'s bot has, if it gives any."""
        try:
            text = self.bots[seat].take_debug()
        except BaseException as exc:  # debug text is optional: a bot failing to give it, none
            if not is_bots_own(exc):
                raise
            return
        if text:
            text = safe_str(text)
            note = DebugNote(seat=seat, bot=self.seats[seat].name, text=text[:DEBUG_LIMIT])
            self.debug.append(note)
            if self.writer is not None:
                self.writer.debug(note)

    def replace_bot(self, seat: int, reason: str) -> None:
        """Record that ``seat``'s bot can answer no more: it forfeits, or is substituted."""
        self.record_fault(seat, reason)
        if self.fault_policy == "forfeit":
            self.forfeit = Forfeit(seat=seat, reason=reason)
            return
        _close(self.bots[seat])
        self.bots[seat] = _Substitute()
        self.limits[seat] = None

    def failed(
        self, seat: int, legal: tuple[Action, ...], failure: BaseException | None, answer: object
    ) -> Action | None:
        """Handle a decision that gave no legal action: the substitute's, or None to stop.

        ``failure`` is what the bot raised (``None``: it answered ``answer``, not legal).
        """
        gone = False
        if failure is None:
            reason = f"returned an illegal action {shown(answer)}"
        elif isinstance(failure, BotTimeout):
            reason = f"exceeded its time limit of {self.limits[seat]:g} s"
        else:
            reason = describe_failure(failure)
            gone = isinstance(failure, BotGone)
        if gone:
            self.replace_bot(seat, reason)
        else:
            self.record_fault(seat, reason)
            if self.fault_policy == "forfeit":
                self.forfeit = Forfeit(seat=seat, reason=reason)
        return None if self.forfeit is not None else legal[0]


def _play(
    game: AnyGame,
    plan: _Plan,
    bots: list[Bot],
    referee: _Referee,
    clock: DecisionClock | None,
) -> MatchOutcome:
    """Start the bots, drive the match with them, end it and write its result."""
    seats, writer, players = plan.seats, plan.writer, len(plan.seats)
    state = plan.state
    if state is None:
        state = game.initial_state(plan.options, players)
        if writer is not None:
            writer.header(
                make_header(game, plan.options, players, plan.seed, seats, plan.fault_policy)
            )
    emits = _start_bots(game, plan, bots, referee)
    forfeit = referee.forfeit
    seq = plan.events
    if forfeit is None:
        ask = _asking(bots, referee, clock, plan.seed, any(emits))
        driver = Driver(game, state, plan.seed, ask, seq)
        if writer is None:
            play_through(driver)
        else:
            _write_decisions(driver, writer)
        state, seq, forfeit = driver.state, driver.events, referee.forfeit
    result = forfeit_result(players, forfeit) if forfeit is not None else game.result(state)
    for seat, bot in enumerate(bots):
        try:
            bot.end_match(result)
        except BaseException as exc:  # a bot's failure is recorded, not raised
            if not is_bots_own(exc):
                raise
            reason = describe_failure(exc, END_MATCH)
            # After the match: the reader tells such a fault from one that ended it by this.
            referee.record_fault(
                seat, reason if reason.startswith(END_MATCH) else END_MATCH + reason
            )
    last_hash = writer.last_hash if writer is not None else ""
    if writer is not None:
        writer.result(
            ResultLine(
                kind="result",
                events=seq,
                hash=writer.last_hash,
                state_hash=state_hash(state),
                result=msgspec.to_builtins(result),
                forfeit=forfeit,
            )
        )
    return MatchOutcome(
        state=state,
        result=result,
        events=seq,
        faults=referee.faults,
        forfeit=forfeit,
        last_hash=last_hash,
        debug=referee.debug,
    )


@dataclass
class _Plan:
    """What a match is played from: options, seats, seed, log, fault policy, start."""

    options: Options
    seats: Sequence[BotSpec]
    seed: int
    writer: LogWriter | None
    fault_policy: str
    state: Any
    """The state to start from; ``None`` for the initial state (and a header to write)."""
    events: int


def _start_bots(game: AnyGame, plan: _Plan, bots: list[Bot], referee: _Referee) -> list[bool]:
    """Tell every bot the match starts; return which of them leave debug notes."""
    players = len(bots)
    gone = {seat for seat, _ in referee.failed_at_start}
    for seat, reason in referee.failed_at_start:
        referee.replace_bot(seat, reason)
        if referee.forfeit is not None:
            return [False] * players
    emits = [False] * players
    for seat, bot in enumerate(bots):
        if seat in gone:
            continue
        try:
            bot.bind_game(game)
            bot.start_match(game.name, seat, players, plan.options)
        except BaseException as exc:  # a bot's failure must never stop the engine
            if not is_bots_own(exc):
                raise
            where = "" if isinstance(exc, BotGone) else "start_match "
            referee.replace_bot(seat, describe_failure(exc, where))
            if referee.forfeit is not None:
                break
        emits[seat] = _flag(bots[seat], "emits_debug", False)
        if emits[seat]:
            referee.record_debug(seat)
    return emits


def _asking(
    bots: list[Bot], referee: _Referee, clock: DecisionClock | None, seed: int, debugging: bool
) -> Ask:
    """Return the driver's ``ask`` for bots: each seat's bot asked, its answer checked.

    The bot gets the legal tuple and its own generator; a failure, an overrun or an
    illegal answer goes to the referee, whose substitute is played or ``None`` ends the
    match (a forfeit).
    """
    rngs = [bot_stream(seed, seat) for seat in range(len(bots))]
    reads = [_flag(bot, "reads_observation", True) for bot in bots]
    limits = referee.limits
    record_debug = referee.record_debug
    observe = referee.game_observe
    find = _LEGAL_INDEX.find

    def ask(state: Any, seat: int, legal: tuple[Action, ...]) -> Action | None:
        observation = observe(state, seat) if reads[seat] else NOT_OBSERVED
        answer: object = None
        failure: BaseException | None = None
        action: Action | None = None
        try:
            if clock is None:
                answer = bots[seat].act(observation, legal, rngs[seat])
            else:
                answer = clock.call(limits[seat], bots[seat].act, observation, legal, rngs[seat])
            if len(legal) >= _INDEXED_FROM:
                action = find(legal, answer)
            else:
                # choose's first pass, in line: the answer is nearly always one of the
                # very objects offered, and a call a decision is dear.
                for offer in legal:
                    if offer is answer:
                        action = offer
                        break
            if action is None:
                action = choose(legal, answer)
        except BaseException as exc:  # a bot's failure must never stop the engine
            if not isinstance(exc, BotTimeout) and not is_bots_own(exc):
                raise
            failure = exc
        if debugging:
            record_debug(seat)
        if action is None:
            action = referee.failed(seat, legal, failure, answer)
        return action

    return ask


def _write_decisions(driver: Driver, writer: LogWriter) -> None:
    """Drive the match, writing each decision as a line of the log."""
    line = writer.decision
    for actor, action, turn, first in driver:
        line(actor, action, turn.events[first:] if first else turn.events)


def _flag(bot: Bot, name: str, default: bool) -> bool:
    """Return a bot's class flag as a bool; a flag that fails to read is its default."""
    try:
        return bool(getattr(bot, name))
    except BaseException as exc:  # a bot's own property may raise
        if not is_bots_own(exc):
            raise
        return default


def state_hash(state: Any) -> str:
    """Return the hash of a state's canonical bytes."""
    return digest(encode(state))
