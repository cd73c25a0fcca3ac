"""Bots that watched a match up to a fork point, so that they play on as if they had played it.

``run_match`` starts every bot afresh, with a fresh private stream. A fork's bots instead
first watch the copied prefix: the play driver walks the prefix's recorded decisions, and
at each one of a seat that seat's bot is asked what it would play on what it saw then,
drawing from its own stream; the answer is set aside and the recorded action stands. A
bot that is the parent's bot with the parent's seed thus draws exactly what it drew in the
parent, keeps the same memory, and a fork with the parent's seed and bots replays the
parent exactly, random bots included. Each seat's legal actions are computed once a
decision, by the driver, for the recorded action and the bot alike.
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from racedeck.core.asking import bot_flag
from racedeck.core.bot import Bot, BotSpec
from racedeck.core.driver import Driver
from racedeck.core.game import AnyGame
from racedeck.core.handed import copy_legal, copy_observation
from racedeck.core.interrupts import is_bots_own, watching
from racedeck.core.model import ENGINE, NOT_OBSERVED, Action, Observation, Options, Result
from racedeck.core.rng import Rng, bot_stream
from racedeck.core.step import NO_CHANCE, Turn, choose


class Recorded(NamedTuple):
    """One decision of a copied prefix: the actor, its action (None: the engine's), events."""

    actor: int
    action: Action | None
    events: list[Any]


Heard = Callable[[int, int, tuple[Action, ...], Action, Any, BaseException | None], None]
"""``heard(seq, seat, legal, recorded, answer, failure)``: a watching bot's answer at a decision.

``seq`` is the number of the decision's first event, ``recorded`` the engine's copy of the
action the record holds, ``answer`` what the bot returned (``None`` when it raised
``failure``).
"""


class ResumedBot(Bot):
    """A bot that has watched the match so far; it plays on with its own advanced stream."""

    def __init__(
        self,
        inner: Bot,
        rng: Rng,
        pending: Action | None = None,
        forced: Action | None = None,
    ) -> None:
        self.inner = inner
        self.rng = rng
        self.pending = pending
        """A choice made before the fork point and not yet decided, given at the first ask."""
        self.forced = forced
        """The action forced at the fork point (``fork --play``), given at the first ask."""
        # What it noted while watching the copied prefix is the parent's to keep.
        with contextlib.suppress(Exception):
            inner.take_debug()

    def start_match(self, game: str, seat: int, players: int, options: Options) -> None:
        """Do nothing: the bot heard the start of the match while it watched."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Return the inner bot's choice, drawn from the stream it has used all along."""
        pending, self.pending = self.pending, None
        forced, self.forced = self.forced, None
        if forced is not None:
            if pending is None:
                # The bot watches the forced decision as it watched the prefix: asked, its
                # answer set aside, so its stream is where it would have been.
                with contextlib.suppress(Exception):
                    self.inner.act(observation, legal, self.rng)
            return forced
        if pending is not None and pending in legal:
            return pending
        return self.inner.act(observation, legal, self.rng)

    def take_debug(self) -> str | None:
        """Return the inner bot's note on its last decision, if it has one."""
        return self.inner.take_debug()

    def end_match(self, result: Result) -> None:
        """Tell the inner bot how the match ended."""
        self.inner.end_match(result)

    def close(self) -> None:
        """Let the inner bot release what it holds: a program's process, its sandbox."""
        self.inner.close()


class ResumedNotingBot(ResumedBot):
    """A watched bot that notes what it weighed: its notes go on after the fork as before."""

    emits_debug = True


def watched(
    game: AnyGame,
    options: Options,
    players: int,
    seats: Sequence[BotSpec],
    seed: int,
    decisions: Sequence[Recorded],
    forced: Mapping[int, Action] | None = None,
) -> list[BotSpec]:
    """Return seats whose bots have watched ``decisions``: each asked at its seat's turns.

    When the prefix ends inside a sealed step, the step's seats with no recorded decision
    were asked too (every seat of a step chooses from the same state): each keeps its
    answer for its first decision after the fork point. A seat in ``forced`` plays that
    action at its first decision after the fork point.
    """
    bots = [spec.factory() for spec in seats]
    rngs = [bot_stream(seed, seat) for seat in range(players)]
    pending = watch(game, options, players, bots, rngs, decisions)
    forced = forced or {}
    return [
        BotSpec(
            name=spec.name,
            factory=_resume(bot, rng, pending.get(seat), forced.get(seat)),
            description=spec.description,
            version=spec.version,
            games=spec.games,
        )
        for seat, (spec, bot, rng) in enumerate(zip(seats, bots, rngs, strict=True))
    ]


def watch(
    game: AnyGame,
    options: Options,
    players: int,
    bots: Sequence[Bot | None],
    rngs: Sequence[Rng],
    decisions: Sequence[Recorded],
    heard: Heard | None = None,
) -> dict[int, Action]:
    """Have each seat's bot (``None``: no bot) watch ``decisions``, asked at its seat's turns.

    Each bot is bound to the game and told the match's start, then asked at every recorded
    decision of its seat on the observation it had, drawing from its stream in ``rngs``;
    ``heard`` gets each answer. The recorded decisions stand whatever the bots answer.
    Returns the answers of a sealed step the record ends inside (seat: answer).
    """
    for seat, bot in enumerate(bots):
        if bot is not None:
            # A search bot needs the rules to think about the record as it would have played it.
            bot.bind_game(game)
            bot.start_match(game.name, seat, players, options)
    queue = deque(decisions)
    pending: dict[int, Action] = {}
    seq = [0]

    def ask(state: Any, seat: int, legal: tuple[Action, ...]) -> Action | None:
        bot = bots[seat]
        answer: Any = None
        failure: BaseException | None = None
        if bot is not None:
            seen = game.observe(state, seat) if bot.reads_observation else NOT_OBSERVED
            try:  # the recorded decision stands whatever the bot answers, or if it fails
                # Its own copies, as in the match (core/handed.py).
                handed = copy_legal(legal, game.action_type)
                answer = bot.act(copy_observation(seen), handed, rngs[seat])
            except BaseException as exc:  # a bot's own KeyboardInterrupt is its fault too
                if not is_bots_own(exc):
                    raise
                failure = exc
        if not queue:
            pending[seat] = answer  # the record ends inside this sealed step
            return legal[0]
        first = seq[0]
        listed = _next_of(queue, seq, seat, legal)
        if heard is not None and bot is not None:
            heard(first, seat, legal, listed, answer, failure)
        return listed

    def engine_turn(state: Any, at: int) -> Turn[Any, Any]:
        actor, _action, events = queue.popleft()
        if actor != ENGINE:
            raise ValueError(f"the copied prefix does not follow at event {at}")
        seq[0] = at + len(events)
        # Drawn from another seed, or already checked: the events are folded as recorded.
        turn: Turn[Any, Any] = Turn(game, state, NO_CHANCE)
        for event in events:
            turn.emit(event)
        return turn

    if queue:
        start = game.initial_state(options, players)
        driver = Driver(game, start, 0, ask, engine_turn=engine_turn)
        # A sealed step's seats are all asked before any is resolved: the watch ends
        # once the last recorded decision has been resolved, not once it has been read.
        # A real Ctrl-C stops it, as it stops a match; a bot's own interrupt is its fault.
        with watching():
            for resolved, _decided in enumerate(driver, start=1):
                if resolved == len(decisions):
                    break
    return pending


def _next_of(
    queue: deque[Recorded], seq: list[int], seat: int, legal: tuple[Action, ...]
) -> Action:
    """Take the next recorded decision, which must be ``seat``'s; return its listed action.

    ``seq[0]`` becomes the number of the decision's first event; it moves past its events.
    """
    actor, action, events = queue.popleft()
    listed = choose(legal, action) if actor == seat else None
    if listed is None:
        raise ValueError(f"the copied prefix does not follow at seat {seat}'s decision")
    seq[0] += len(events)
    return listed


def _resume(bot: Bot, rng: Rng, pending: Action | None, forced: Action | None) -> Any:
    # A bot whose own flag fails to read is taken as one that notes nothing.
    kind = ResumedNotingBot if bot_flag(bot, "emits_debug", False) else ResumedBot
    return lambda: kind(bot, rng, pending, forced)
