"""Naming a driver's action from its first event, so that a log's check resolves only it."""

from __future__ import annotations

import io
from typing import Any

from msgspec.structs import replace

from racedeck.core.bot import BotSpec
from racedeck.core.log import LogWriter
from racedeck.core.model import ENGINE
from racedeck.core.replay import replay_log
from racedeck.core.runner import run_match
from racedeck.core.step import NO_CHANCE, choose, resolve
from racedeck.games.famous500.actions import Design, LeavePit, Race, Repair
from racedeck.games.famous500.customizing_your_race_car import designs
from racedeck.games.famous500.events import CarDesigned, CardLaid, Dealt, PitLeft, Repaired
from racedeck.games.famous500.options import Famous500Options
from racedeck.games.famous500.rules import Famous500
from racedeck.plugins import load_registry

from .helpers import GAME, MONACO_PIT, act, fresh, racing

REGISTRY = load_registry(entry_points=False)


def test_every_first_event_of_a_driver_names_the_very_action_offered() -> None:
    """Each action a driver is offered, resolved, begins with an event that names it."""
    pit = act(racing(section=MONACO_PIT), 0, Race(card=40))
    repair = replace(racing(), phase="pit_repair", pit_order=(0,))
    start = GAME.evolve(
        fresh(), Dealt(deal=1, hands=((120, 140, 160), (40, 60, 80)), pit_deck=(100, 180, 200))
    )
    design = replace(start, phase="design", start=(0, 0))
    discard = replace(racing(), phase="discard", trailing=1)
    pit_return = replace(racing(), phase="pit_return", pit_order=(0,))
    named = 0
    for state, seat in (
        (pit, 1),
        (repair, 0),
        (start, 0),
        (design, 0),
        (discard, 1),
        (pit_return, 0),
        (racing(), 0),
    ):
        legal = GAME.legal_actions(state, seat)
        assert legal
        for action in legal:
            first = resolve(GAME, state, seat, action, NO_CHANCE).events[0]
            answer = GAME.action_of(state, seat, first)
            assert answer == action and choose(legal, answer) is action, (action, answer)
            named += 1
    assert named == 6 + 4 + 2 + len(designs(18)) + 3 + 3 + 3


def test_a_design_is_named_by_the_very_object_listed() -> None:
    """The design named is the listed object, found by identity among the 1,330."""
    state = replace(fresh(), phase="design", start=(0, 0))
    event = CarDesigned(seat=0, tires=5, fuel=4, engine=6, speed=3)
    listed = GAME.legal_actions(state, 0)
    assert (
        GAME.action_of(state, 0, event)
        is listed[listed.index(Design(tires=5, fuel=4, engine=6, speed=3))]
    )
    # A split that is no design of the track names an action that is not offered.
    forged = CarDesigned(seat=0, tires=5, fuel=4, engine=6, speed=4)
    assert choose(listed, GAME.action_of(state, 0, forged)) is None


def test_an_event_of_the_other_driver_or_of_the_engine_names_nothing() -> None:
    state = racing()
    assert GAME.action_of(state, 0, CardLaid(seat=1, card=60, pit=False)) is None
    assert GAME.action_of(state, 1, PitLeft(seat=0)) is None
    assert GAME.action_of(state, 0, Repaired(seat=1, column=0, amount=3)) is None
    assert GAME.action_of(state, 0, Dealt(deal=1, hands=((), ()), pit_deck=())) is None
    assert GAME.action_of(state, 0, PitLeft(seat=0)) == LeavePit()
    assert GAME.action_of(state, 0, Repaired(seat=0, column=2, amount=1)) == Repair(column=2)


class _Catalogue:
    """The built-in catalogue, but for the game it hands out."""

    def __init__(self, game: Famous500) -> None:
        self._game = game

    def game(self, name: str) -> Famous500:
        return self._game

    def bot(self, name: str, game: str) -> BotSpec:
        return REGISTRY.bot(name, game)


class _Counting(Famous500):
    """Famous 500 counting the decisions it resolves, into a list handed in (not itself)."""

    def __init__(self, calls: list[int]) -> None:
        super().__init__()
        self.calls = calls

    def resolve(self, turn: Any, actor: int, action: Any) -> None:
        self.calls.append(actor)
        super().resolve(turn, actor, action)


def test_checking_a_log_resolves_each_decision_once() -> None:
    """A log's check resolves only the named action: no design among 1,330 is tried in vain."""
    calls: list[int] = []
    game = _Counting(calls)
    options = Famous500Options(laps=4)
    seats = [REGISTRY.bot("random", "famous-500"), REGISTRY.bot("heuristic", "famous-500")]
    buffer = io.BytesIO()
    run_match(game, options, seats, 3, writer=LogWriter(buffer))
    played = len(calls)
    assert sum(1 for actor in calls if actor != ENGINE) > 4  # the answers and designs at least
    del calls[:]
    replay = replay_log(_Catalogue(game), "match.jsonl", stream=io.BytesIO(buffer.getvalue()))
    assert replay.complete and replay.error is None
    assert len(calls) == played
