"""The decider's promises, for every registered game (a plugin's included).

``docs/architecture.md`` calls a game "a stateless forward model": nothing on a game
object changes while matches and searches run, two threads can share one, module-level
tables are constants, each event is folded exactly once, legality is computed once per
decision, a bot that never reads its observation is never shown one, and folding an event
the game does not know is an error.
"""

from __future__ import annotations

import functools
import importlib
import io
import pkgutil
import random
import threading
import types
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
import pytest

from racedeck.bots.ismcts import Budget, Ismcts
from racedeck.core.bot import Bot, BotSpec
from racedeck.core.errors import UnknownEventError
from racedeck.core.game import AnyGame, Game
from racedeck.core.log import LogWriter
from racedeck.core.model import ENGINE, NOT_OBSERVED, Action, Event, Observation
from racedeck.core.rng import Rng, engine_stream
from racedeck.core.runner import run_match
from racedeck.core.step import NO_CHANCE, Turn, beginning_with, resolve
from tests.playing import random_turns

from .cases import GAMES, REGISTRY

IMMUTABLE = (
    int,
    float,
    str,
    bytes,
    bool,
    type(None),
    tuple,
    frozenset,
    types.MappingProxyType,
    msgspec.json.Decoder,
    msgspec.json.Encoder,
)
"""What a game object's attributes may hold: values nobody can change in place."""


class _SearchingBot(Bot):
    """Searches with ISMCTS at its first decisions (the game object is shared with the
    search, as in a real match), then plays at random, so that a test stays short."""

    SEARCHES = 4

    def __init__(self) -> None:
        self.search = Ismcts(Budget(simulations=12, rollout="heuristic"))
        self.searched = 0

    def bind_game(self, game: AnyGame) -> None:
        self.search.bind_game(game)

    def start_match(self, game: str, seat: int, players: int, options: Any) -> None:
        self.search.start_match(game, seat, players, options)

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        if self.searched < self.SEARCHES and len(legal) > 1:
            self.searched += 1
            return self.search.act(observation, legal, rng)
        return legal[rng.randrange(len(legal))]


SEARCHING = BotSpec(name="searching", factory=_SearchingBot, description="test")


def _attributes(game: AnyGame) -> dict[str, tuple[int, Any]]:
    return {name: (id(value), value) for name, value in vars(game).items()}


def _problems(game: AnyGame, before: dict[str, tuple[int, Any]]) -> list[str]:
    """Return what differs in ``game``'s attributes from ``before``, and any mutable one."""
    after = _attributes(game)
    problems = [f"attribute {name} appeared" for name in after.keys() - before.keys()]
    problems += [f"attribute {name} vanished" for name in before.keys() - after.keys()]
    for name in after.keys() & before.keys():
        if after[name][0] != before[name][0]:
            problems.append(f"attribute {name} was replaced")
        if not isinstance(after[name][1], IMMUTABLE):
            problems.append(f"attribute {name} holds a mutable {type(after[name][1]).__name__}")
    return problems


def _matches(game: AnyGame, seats: Sequence[BotSpec], seeds: range) -> list[bytes]:
    options = game.parse_options(dict(game.conformance_options[0]))
    logs = []
    for seed in seeds:
        buffer = io.BytesIO()
        outcome = run_match(game, options, seats, seed, writer=LogWriter(buffer))
        assert outcome.forfeit is None and not outcome.faults, outcome.faults
        logs.append(buffer.getvalue())
    return logs


def _mixed_seats(game: AnyGame) -> list[BotSpec]:
    players = game.min_players
    bots = [SEARCHING, REGISTRY.bot("heuristic", game.name), REGISTRY.bot("random", game.name)]
    return [
        bots[seat % len(bots)] for seat in range(max(players, 3 if game.max_players >= 3 else 2))
    ]


@pytest.mark.parametrize("name", GAMES)
def test_matches_and_searches_leave_the_game_object_as_it_was(name: str) -> None:
    game = REGISTRY.game(name)
    before = _attributes(game)
    assert not _problems(game, before), "a game object must hold only immutable attributes"
    _matches(game, _mixed_seats(game), range(2))
    _matches(game, [REGISTRY.bot("random", name)] * game.max_players, range(3))
    assert _problems(game, before) == []


def _modules_of(game: AnyGame) -> list[types.ModuleType]:
    package = type(game).__module__.rpartition(".")[0]
    if not package.startswith("racedeck.games."):
        return [importlib.import_module(type(game).__module__)]
    root = importlib.import_module(package)
    names = [info.name for info in pkgutil.walk_packages(root.__path__, package + ".")]
    return [root, *(importlib.import_module(n) for n in names)]


@pytest.mark.parametrize("name", GAMES)
def test_module_level_tables_are_constants(name: str) -> None:
    game = REGISTRY.game(name)
    _matches(game, [REGISTRY.bot("random", name)] * game.min_players, range(1))
    mutable = [
        f"{module.__name__}.{attr}: {type(value).__name__}"
        for module in _modules_of(game)
        for attr, value in vars(module).items()
        if not attr.startswith("__") and isinstance(value, dict | list | set | bytearray)
    ]
    assert mutable == []


@pytest.mark.parametrize("name", GAMES)
def test_two_threads_can_share_one_game(name: str) -> None:
    game = REGISTRY.game(name)
    seats = [REGISTRY.bot("heuristic", name), REGISTRY.bot("random", name)] * 3
    seats = seats[: max(game.min_players, min(4, game.max_players))]
    alone = _matches(game, seats, range(4))
    shared: dict[int, list[bytes]] = {}

    def play(index: int) -> None:
        shared[index] = _matches(game, seats, range(4))

    threads = [threading.Thread(target=play, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert shared[0] == alone
    assert shared[1] == alone


def _counting(game: AnyGame) -> tuple[AnyGame, dict[str, int]]:
    """Return a game of the same rules that counts its ``evolve``, ``legal_actions`` and
    ``observe`` calls, however they are reached (the game's own calls included)."""
    calls = {"evolve": 0, "legal_actions": 0, "observe": 0}
    kind = type(game)

    def counted(method: str) -> Callable[..., Any]:
        inner = getattr(kind, method)

        def call(self: AnyGame, *args: Any) -> Any:
            calls[method] += 1
            return inner(self, *args)

        return call

    counting = type(f"Counting{kind.__name__}", (kind,), {m: counted(m) for m in calls})
    return counting(), calls


class _CountingBot(Bot):
    """Reads its observation (encoding it, as a subprocess bot would) and plays at random."""

    decisions = 0

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        assert observation is not NOT_OBSERVED
        msgspec.json.encode(observation)
        _CountingBot.decisions += 1
        return legal[rng.randrange(len(legal))]


class _BlindBot(_CountingBot):
    """The same, but it declares that it never reads its observation."""

    reads_observation = False

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        assert observation is NOT_OBSERVED
        _CountingBot.decisions += 1
        return legal[rng.randrange(len(legal))]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("blind", [False, True], ids=["reading", "blind"])
def test_each_event_is_folded_once_and_legality_computed_once_a_decision(
    name: str, blind: bool
) -> None:
    game, calls = _counting(REGISTRY.game(name))
    options = game.parse_options(dict(game.conformance_options[0]))
    bot = BotSpec(name="bot", factory=_BlindBot if blind else _CountingBot, description="test")
    _CountingBot.decisions = 0
    outcome = run_match(game, options, [bot] * game.max_players, 3)
    assert outcome.forfeit is None
    assert outcome.events > 0
    assert calls["evolve"] == outcome.events, "an event was folded more than once"
    assert calls["legal_actions"] == _CountingBot.decisions, "legality computed twice"
    # A bot that never reads its observation is never shown one: nothing builds it.
    assert calls["observe"] == (0 if blind else _CountingBot.decisions)


class _Stray(Event, frozen=True, kw_only=True, tag="stray"):
    """An event of no game."""


@pytest.mark.parametrize("name", GAMES)
def test_folding_an_event_the_game_does_not_know_is_an_error(name: str) -> None:
    game = REGISTRY.game(name)
    options = game.parse_options(dict(game.conformance_options[0]))
    state = game.initial_state(options, game.min_players)
    with pytest.raises(UnknownEventError, match="_Stray"):
        game.evolve(state, _Stray())


def test_the_check_catches_a_game_that_keeps_state() -> None:
    """A game that caches on its object fails the check above: the check can fail."""
    game = REGISTRY.game("high-card")
    kind = type(game)

    def legal_actions(self: Any, state: Any, seat: int) -> Any:
        self._last = (state, seat)
        return kind.legal_actions(self, state, seat)

    leaky = type("Leaky", (kind,), {"legal_actions": legal_actions})()
    before = _attributes(leaky)
    _matches(leaky, [REGISTRY.bot("random", "high-card")] * 2, range(1))
    assert "attribute _last appeared" in _problems(leaky, before)


@pytest.mark.parametrize("name", GAMES)
def test_the_action_named_for_an_event_is_the_one_that_began_with_it(name: str) -> None:
    # ``step.beginning_with`` lets the reader of a log without actions resolve one action
    # instead of every legal one, for any game: it names the actions whose first event it
    # was handed, the action that gave it among them, and it folds nothing.
    game = REGISTRY.game(name)
    options = game.parse_options(dict(game.conformance_options[0]))
    players = game.min_players
    rng = random.Random(7)
    alone = tried = 0
    for match in range(3):
        state = game.initial_state(options, players)
        events = 0
        while not (step := game.next_step(state)).over:
            if step.engine:
                turn = resolve(game, state, ENGINE, None, engine_stream(match, events))
            else:
                seat = step.seats[0]
                legal = game.legal_actions(state, seat)
                for action in legal:
                    first = resolve(game, state, seat, action, NO_CHANCE).events[0]
                    named = beginning_with(game, state, seat, legal, first)
                    assert action in named, (action, first, named)
                    tried += 1
                    alone += len(named) == 1
                turn = resolve(game, state, seat, legal[rng.randrange(len(legal))], NO_CHANCE)
            state = turn.state
            events += len(turn.events)
    assert alone > tried // 2, (alone, tried)


@pytest.mark.parametrize("name", GAMES)
def test_an_estimate_ranks_every_seat_and_leaves_the_state_as_it_was(name: str) -> None:
    # ``Game.estimate`` judges a search's cut playouts: where a game gives one, it ranks
    # every seat at every point of a match, draws nothing, and is a pure function.
    game = REGISTRY.game(name)
    options = game.parse_options(dict(game.conformance_options[0]))
    for players in sorted({game.min_players, game.max_players}):
        for state, _ in random_turns(game, options, players, players):
            before = msgspec.json.encode(state)
            estimate = game.estimate(state)
            if estimate is not None:
                assert len(estimate.ranks) == len(estimate.scores) == players
                assert min(estimate.ranks) == 1 and max(estimate.ranks) <= players
                assert estimate == game.estimate(state)
            assert msgspec.json.encode(state) == before


@functools.cache
def _twin_kind(kind: type) -> type:
    """Return a subclass of the event class ``kind`` that adds nothing (one per kind)."""
    return types.new_class(f"Twin{kind.__name__}", (kind,), {"frozen": True})


@pytest.mark.parametrize("name", GAMES)
def test_an_event_of_a_subclass_of_its_kind_folds_as_that_kind(name: str) -> None:
    # A game may look a fold up by the event's exact type before its ``match`` (the
    # built-in games do); an event whose exact type no table lists reaches the match
    # instead. Folding every event of a match both ways must give the same states.
    game = REGISTRY.game(name)
    options = game.parse_options(dict(game.conformance_options[0]))
    kinds = set()
    for state, turn in random_turns(game, options, game.max_players, 5):
        before = state
        for event in turn.events:
            kind = type(event)
            kinds.add(kind)
            twin = _twin_kind(kind)(**{f: getattr(event, f) for f in kind.__struct_fields__})
            assert game.evolve(before, twin) == game.evolve(before, event), kind.__name__
            before = game.evolve(before, event)
    assert len(kinds) >= 3


@pytest.mark.parametrize("name", GAMES)
def test_every_decision_ends_where_nothing_more_follows(name: str) -> None:
    """Automatic consequences come one way: the core asks the game's ``follow`` until it has
    nothing to add. So after any decision, seat's or engine's, ``follow`` adds nothing, and
    a seat's decision ends where a seat must decide or the engine's work begins."""
    game = REGISTRY.game(name)
    assert "resolve" not in vars(type(game)), "a game writes take and follow, not resolve"
    assert type(game).resolve is Game.resolve
    options = game.parse_options(dict(game.conformance_options[0]))
    players = game.max_players
    rng = random.Random(5)
    decisions = 0
    for seed in range(2):
        state = game.initial_state(options, players)
        events = 0
        while not (step := game.next_step(state)).over:
            if step.engine:
                turn = resolve(game, state, ENGINE, None, engine_stream(seed, events))
                again: Turn[Any, Any] = Turn(game, turn.state, engine_stream(seed, events))
            else:
                seat = step.seats[0]
                legal = game.legal_actions(state, seat)
                turn = resolve(game, state, seat, legal[rng.randrange(len(legal))], NO_CHANCE)
                again = Turn(game, turn.state, NO_CHANCE)
            assert not game.follow(again) and again.events == [], (name, turn.events)
            decisions += 1
            state = turn.state
            events += len(turn.events)
    assert decisions > 20
