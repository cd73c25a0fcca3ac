"""Invariants that hold after every event of random races: no card, trap or slot is lost."""

from __future__ import annotations

import random

import pytest

from racedeck.core.model import ENGINE
from racedeck.core.rng import engine_stream
from racedeck.core.step import apply
from racedeck.games.wacky_races import data
from tests.games.wacky_races.helpers import G


def _check(state) -> None:  # type: ignore[no-untyped-def]
    if not state.tiles:
        return
    cards = sum(len(h) for h in state.hands) + len(state.draw) + sum(state.discard)
    assert cards == sum(data.DECK)
    traps = len(state.trap_deck) + sum(state.trap_discard) + sum(t >= 0 for t in state.traps)
    assert traps == sum(data.TRAP_COPIES)
    for p in range(data.FINISH):
        assert state.pos.count(p) <= data.SLOTS, (p, state.pos)
    assert all(0 <= p <= data.FINISH for p in state.pos)
    assert -1 <= state.dastardly < data.FINISH
    assert 0 <= state.steps <= data.MAX_STEPS
    for p in state.pos:
        if p != data.FINISH and state.phase == "turn":
            assert state.traps[p] < 0  # nobody stands on a face-down trap between decisions


@pytest.mark.parametrize("players", [1, 2, 3, 6])
@pytest.mark.parametrize(
    "options",
    [{}, {"special_tile": "crossroads"}, {"special_tile": "level_crossing", "races": 2}],
    ids=["default", "crossroads", "crossing-2-races"],
)
def test_random_races_keep_every_card_trap_and_slot(players: int, options: dict) -> None:  # type: ignore[type-arg]
    game_options = G.parse_options(options)
    for seed in range(4):
        rng = random.Random(seed)
        state = G.initial_state(game_options, players)
        events = 0
        while not G.next_step(state).over:
            step = G.next_step(state)
            if step.engine:
                new = apply(G, state, ENGINE, None, engine_stream(seed, events)).events
            else:
                legal = G.legal_actions(state, step.seats[0])
                new = apply(G, state, step.seats[0], legal[rng.randrange(len(legal))], None).events
            for event in new:
                state = G.evolve(state, event)
                events += 1
            _check(state)
        assert len(state.results) == game_options.races
