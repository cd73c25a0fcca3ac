"""Bots that watched a match up to a fork point, so that they play on as if they had played it.

``run_match`` starts every bot afresh, with a fresh private stream. A fork's bots instead
first watch the copied prefix: at every decision the prefix records for a seat, that
seat's bot is asked for its action on what it saw then, drawing from its own stream, and
the answer is set aside: the prefix's recorded events stand. A bot that is the parent's
bot with the parent's seed thus draws exactly what it drew in the parent, keeps the same
memory, and a fork with the parent's seed and bots replays the parent exactly, random bots
included. Which recorded events came from which seat's decision is found by deciding the
action the game names for the first of them (``step.beginning_with``), or else each legal action
of the seats to act, and matching the events it gives; each seat's legal actions are
computed once a decision, for that and for its bot.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

from racedeck.core.bot import Bot, BotSpec
from racedeck.core.game import AnyGame
from racedeck.core.handed import copy_legal, copy_observation
from racedeck.core.log import encode
from racedeck.core.model import ENGINE, NOT_OBSERVED, Action, Observation, Options, Result
from racedeck.core.rng import Rng, bot_stream, engine_stream
from racedeck.core.step import (
    NO_CHANCE,
    TracedTurn,
    beginning_with,
    fold,
    resolve,
    resolve_traced,
)


class ResumedBot(Bot):
    """A bot that has watched the match so far; it plays on with its own advanced stream."""

    def __init__(self, inner: Bot, rng: Rng, pending: Action | None = None) -> None:
        self.inner = inner
        self.rng = rng
        self.pending = pending
        """A choice made before the fork point and not yet decided, given at the first ask."""

    def start_match(self, game: str, seat: int, players: int, options: Options) -> None:
        """Do nothing: the bot heard the start of the match while it watched."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Return the inner bot's choice, drawn from the stream it has used all along."""
        pending, self.pending = self.pending, None
        if pending is not None and pending in legal:
            return pending
        return self.inner.act(observation, legal, self.rng)

    def end_match(self, result: Result) -> None:
        """Tell the inner bot how the match ended."""
        self.inner.end_match(result)


def _seat_events(
    game: AnyGame,
    state: Any,
    legal: dict[int, tuple[Action, ...]],
    events: Sequence[Any],
    start: int,
) -> tuple[list[int], Any] | None:
    """Return how many recorded events each seat's decision gave and the state after them.

    ``None`` when they do not fit. ``legal`` holds each acting seat's legal actions in
    ``state``, in seat order: the runner asks every seat of a step against the same
    state, then decides them in seat order, each against the state the earlier ones
    left. When the recorded events end inside the step (a fork point splitting a sealed
    decision), the list is shorter than the seats.
    """
    counts: list[int] = []
    current, at = state, start
    for seat, candidates in legal.items():
        if at == len(events):
            break
        for action in _candidates(game, current, seat, candidates, events[at]):
            try:
                turn = resolve(game, current, seat, action, NO_CHANCE)
            except Exception:
                continue
            produced = turn.events
            # Compared as canonical bytes: a game may build a tuple field from a list.
            if produced and same_events(events[at : at + len(produced)], produced):
                current = turn.state
                at += len(produced)
                counts.append(len(produced))
                break
        else:
            return None
    return counts, current


def same_events(recorded: Sequence[Any], produced: Sequence[Any]) -> bool:
    """Return whether a decision ``produced`` exactly the ``recorded`` events."""
    if recorded == produced:  # two lists of equal events: the usual answer, in one comparison
        return True
    return len(recorded) == len(produced) and all(
        a == b or encode(a) == encode(b) for a, b in zip(recorded, produced, strict=True)
    )


def _begins(logged: Sequence[Any], produced: list[Any]) -> bool:
    """Return whether a decision ``produced`` the ``logged`` events first.

    A log may end inside the decision: ``logged`` are then fewer than ``produced``.
    """
    size = len(logged)
    return same_events(logged, produced if size == len(produced) else produced[:size])


def watched(
    game: AnyGame,
    options: Options,
    players: int,
    seats: Sequence[BotSpec],
    seed: int,
    events: Sequence[Any],
) -> list[BotSpec]:
    """Return seats whose bots have watched ``events``: each asked at its seat's decisions."""
    bots = [spec.factory() for spec in seats]
    rngs = [bot_stream(seed, seat) for seat in range(players)]
    for seat, bot in enumerate(bots):
        # A search bot needs the rules to think about the prefix as it would have played it.
        bot.bind_game(game)
        bot.start_match(game.name, seat, players, options)
    state = game.initial_state(options, players)
    pending: dict[int, Action] = {}
    at = 0
    while at < len(events):
        step = game.next_step(state)
        found = None
        if step.seats:
            # Once a seat a decision: the same list finds its events and is offered its bot.
            legal = {seat: tuple(game.legal_actions(state, seat)) for seat in step.seats}
            found = _seat_events(game, state, legal, events, at)
        if found is None:
            # The engine's turn (or events no seat's decision explains): fold and go on.
            state = fold(game, state, events[at : at + 1])
            at += 1
            continue
        counts, after = found
        for number, seat in enumerate(step.seats):
            bot = bots[seat]
            seen = game.observe(state, seat) if bot.reads_observation else NOT_OBSERVED
            # The recorded events stand whatever the bot answers, or if it fails.
            with contextlib.suppress(Exception):
                handed = copy_legal(legal[seat], game.action_type)
                answer = bot.act(copy_observation(seen), handed, rngs[seat])
                if number >= len(counts):
                    # The fork point split this sealed step: the seat already chose.
                    pending[seat] = answer
        state = after
        at += sum(counts)
    return [
        BotSpec(
            name=spec.name,
            factory=_resume(bot, rng, pending.get(seat)),
            description=spec.description,
            version=spec.version,
            games=spec.games,
        )
        for seat, (spec, bot, rng) in enumerate(zip(seats, bots, rngs, strict=True))
    ]


def _resume(bot: Bot, rng: Rng, pending: Action | None) -> Any:
    return lambda: ResumedBot(bot, rng, pending)


class Recorded:
    """A log's recorded events, for deciding them again.

    A list, or an iterator read only as far as a decision needs (a log streamed by
    ``replay.iter_states``). Deciding never looks back before the decision it is at, so
    a stream lets the events before it go: it holds about one decision's events at a
    time.
    """

    __slots__ = ("_base", "_end", "_events", "_more")

    _KEEP = 256
    """How many events a stream lets pile up before it lets those already decided go."""

    def __init__(self, events: Sequence[Any] | Iterator[Any], first: int = 0) -> None:
        """Hold ``events``; an iterator's first event is event number ``first``."""
        self._events: Sequence[Any]
        self._more: Iterator[Any] | None
        if isinstance(events, Sequence):
            self._events, self._more, self._base = events, None, 0
        else:
            self._events, self._more, self._base = [], events, first
        self._end = self._base + len(self._events)
        """The number of the first event not read yet."""

    def reaches(self, end: int) -> bool:
        """Return whether there are events up to ``end`` (that is, an event ``end - 1``)."""
        # A comparison while the events are at hand: this runs a few times a decision.
        return end <= self._end or self._read(end)

    def begins(self, at: int) -> bool:
        """Return whether there is an event ``at``, where a decision begins.

        Deciding looks no further back than the decision it is at, so a stream lets the
        events before ``at`` go once it has read them all.
        """
        if at < self._end:
            return True
        events = self._events
        if self._more is not None and len(events) > self._KEEP:
            assert isinstance(events, list)
            events.clear()
            self._base = self._end
        return self._read(at + 1)

    def event(self, at: int) -> Any:
        """Return event ``at``, which must be there (``begins(at)`` or ``reaches(at + 1)``)."""
        return self._events[at - self._base]

    def take(self, at: int, size: int) -> Sequence[Any]:
        """Return events ``at`` to ``at + size`` (fewer where the events end)."""
        if at + size > self._end:
            self._read(at + size)
        base = self._base
        return self._events[at - base : at + size - base]

    def _read(self, end: int) -> bool:
        """Read a stream on to event ``end - 1``; return whether it holds that many."""
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

    Every event of a match comes from a decision: the engine's, decided again from
    ``seed`` (its chance is keyed by the event count), or a seat's, whose events must be
    those of one of its legal actions (``first_decision``). Iterating yields
    ``(at, turn)`` for each decision whose turn produced exactly the recorded events from
    ``at`` on; the turn's states are then the states after those events, folded once.
    It stops at the first event no decision explains, or at the end of the events;
    ``state`` and ``at`` then say where (the state before that event and its number), and
    ``partial`` holds the decision the recorded events end inside, if they stopped there.
    An exception from the game (an edited log may reach states no decision handles)
    leaves ``state`` and ``at`` at the last decision that explained its events.

    Checking a log (``unexplained_event``), folding it (``replay.replay_log``,
    ``replay.iter_states``) and finding a fork point inside a decision
    (``split_decision``) are this one loop.
    """

    def __init__(self, game: AnyGame, state: Any, seed: int, recorded: Recorded, at: int) -> None:
        self.game = game
        self.state = state
        self.seed = seed
        self.recorded = recorded
        self.at = at
        self.partial: TracedTurn[Any, Any] | None = None

    def __iter__(self) -> Iterator[tuple[int, TracedTurn[Any, Any]]]:
        game, recorded, seed = self.game, self.recorded, self.seed
        state, at = self.state, self.at
        begins, reaches = recorded.begins, recorded.reaches
        while begins(at):
            step = game.next_step(state)
            if step.engine:
                try:
                    turn = resolve_traced(game, state, ENGINE, None, engine_stream(seed, at))
                except Exception:  # the engine cannot decide here: the log does not follow
                    return
                produced = turn.events
                logged = recorded.take(at, len(produced))
                if not produced or not (logged == produced or _begins(logged, produced)):
                    return
            elif step.seats:
                found = first_decision(game, state, step.seats, recorded, at)
                if found is None:
                    return
                turn = found
            else:
                return  # events after the match ended
            size = len(turn.events)
            if not reaches(at + size):
                self.partial = turn
                return
            yield at, turn
            state, at = turn.state, at + size
            self.state, self.at = state, at


def split_decision(
    game: AnyGame, options: Options, players: int, seed: int, events: Sequence[Any]
) -> int | None:
    """Return where the decision began if ``events`` end inside one decision's events.

    ``seed`` is the seed that played ``events``: the engine's decisions are re-decided
    with it to find where each ends. ``None`` means the events end where a decision ends,
    the only place from which a fork can replay the match it came from (or that the
    events do not follow from the header there: there is nothing to tell).
    """
    deciding = Deciding(game, game.initial_state(options, players), seed, Recorded(events), 0)
    for _decision in deciding:
        pass
    return deciding.at if deciding.partial is not None else None


def unexplained_event(
    game: AnyGame,
    options: Options,
    players: int,
    seed: int,
    events: Sequence[Any],
    start: int = 0,
) -> int | None:
    """Return the number of the first event that no decision explains, or None if all are.

    See ``Deciding``. A log whose events were edited (and its hashes forged) fails here
    even when its final state is the one its result names. The first ``start`` events
    are taken as they are (a fork's prefix, played with another seed).
    """
    state = fold(game, game.initial_state(options, players), events[:start])
    deciding = Deciding(game, state, seed, Recorded(events), start)
    for _decision in deciding:
        pass
    return None if deciding.at == len(events) else deciding.at


def first_decision(
    game: AnyGame, state: Any, seats: tuple[int, ...], recorded: Recorded, at: int
) -> TracedTurn[Any, Any] | None:
    """Return the turn of the seat's decision that the recorded events from ``at`` begin with.

    There must be an event ``at`` (``recorded.begins(at)``).

    In a sealed step every seat decides from the same state, in seat order, so the next
    recorded events belong to one of the step's seats. The recorded events may end
    inside the decision (its turn then holds more events than they do). ``None`` when no
    decision begins with them.
    """
    first = recorded.event(at)
    for seat in seats:
        for action in _candidates(game, state, seat, game.legal_actions(state, seat), first):
            try:
                turn = resolve_traced(game, state, seat, action, NO_CHANCE)
            except Exception:
                continue
            produced = turn.events
            logged = recorded.take(at, len(produced))
            # Equal lists, the usual answer, in one comparison before the careful one.
            if produced and (logged == produced or _begins(logged, produced)):
                return turn
    return None


def _candidates(
    game: AnyGame, state: Any, seat: int, legal: Sequence[Action], first: Any
) -> Sequence[Action]:
    """Return the actions of ``seat`` whose events may begin with the event ``first``.

    Those that begin with it (``step.beginning_with``): only they can explain the events.
    """
    return beginning_with(game, state, seat, legal, first)
