"""Asking bots for the play driver: the referee of faults, the clock, the runner's ``ask``.

The play driver (``racedeck.core.driver``) asks a seat for its action; for a match between
bots that ask is ``asking``: the seat's bot is handed its observation (only if it reads
one), the legal actions and its own generator, under its time limit (``DecisionClock``),
and its answer is checked against the legal list. Whatever goes wrong is the seat's
fault, recorded by the ``Referee`` (the fault policy: ``docs/bots.md``), which plays a
``Substitute`` or ends the match. These are layers around the driver, not copies of it.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from racedeck.core.bot import Bot, BotFault, BotGone, BotSpec, BotTimeout
from racedeck.core.driver import Ask
from racedeck.core.game import AnyGame
from racedeck.core.handed import copy_legal, copy_observation, engine_action
from racedeck.core.interrupts import is_bots_own
from racedeck.core.log import DebugNote, Fault, Forfeit, LogWriter
from racedeck.core.model import NOT_OBSERVED, Action, Observation
from racedeck.core.rng import Rng, bot_stream
from racedeck.core.shown import clip, safe_str, shown
from racedeck.core.step import choose

DEBUG_LIMIT = 2000
"""The most characters of one debug text that go into the log."""


class Substitute(Bot):
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


def describe_failure(exc: BaseException, where: str = "") -> str:
    """Return the reason a fault line gives for a bot's exception."""
    if isinstance(exc, BotFault):
        return clip(safe_str(exc))
    return clip(f"{where}raised {type(exc).__name__}: {safe_str(exc)}")


def close_bot(bot: Bot) -> None:
    """Let a bot release what it holds; whatever it raises is ignored (the match is over)."""
    try:
        bot.close()
    except BaseException as exc:  # cleanup must reach every bot
        if not is_bots_own(exc):
            raise


class Referee:
    """What a match does when a bot fails or leaves notes: the paths a clean match never takes.

    It records faults and debug notes (in the log too, with a writer) and replaces a bot
    that can answer no more; ``bots`` and ``limits`` are the very lists the match loop
    reads, so a replacement is seen at the seat's next decision.
    """

    __slots__ = (
        "action_type",
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
        self.action_type = game.action_type
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
        close_bot(self.bots[seat])
        self.bots[seat] = Substitute()
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


def asking(
    bots: list[Bot], referee: Referee, clock: DecisionClock | None, seed: int, debugging: bool
) -> Ask:
    """Return the driver's ``ask`` for bots: each seat's bot asked, its answer checked.

    The bot gets the legal tuple and its own generator; a failure, an overrun or an
    illegal answer goes to the referee, whose substitute is played or ``None`` ends the
    match (a forfeit).
    """
    rngs = [bot_stream(seed, seat) for seat in range(len(bots))]
    reads = [bot_flag(bot, "reads_observation", True) for bot in bots]
    limits = referee.limits
    record_debug = referee.record_debug
    observe = referee.game_observe
    action_type = referee.action_type

    def ask(state: Any, seat: int, legal: tuple[Action, ...]) -> Action | None:
        observation = observe(state, seat) if reads[seat] else NOT_OBSERVED
        answer: object = None
        failure: BaseException | None = None
        action: Action | None = None
        # What the bot gets is its own copy (core/handed.py): nothing it writes, even
        # through a field's descriptor, reaches the engine's state or its caches. Made
        # before the bot is asked: copying is the engine's work, and its failure no seat's.
        handed = copy_legal(legal, action_type)
        seen = copy_observation(observation)
        try:
            if clock is None:
                answer = bots[seat].act(seen, handed, rngs[seat])
            else:
                answer = clock.call(limits[seat], bots[seat].act, seen, handed, rngs[seat])
            action = engine_action(handed, legal, answer)
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


def bot_flag(bot: Bot, name: str, default: bool) -> bool:
    """Return a bot's class flag as a bool; a flag that fails to read is its default."""
    try:
        return bool(getattr(bot, name))
    except BaseException as exc:  # a bot's own property may raise
        if not is_bots_own(exc):
            raise
        return default
