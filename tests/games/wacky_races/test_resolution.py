"""The resolution of one decision (``resolution.py``) and who does the turn's end.

A seat's action that needs chance queues it for the engine; the turn's end (refill,
Dastardly, the neutral racers, the next turn) is always the engine's work: no seat's
decision does it, even when it would draw nothing.
"""

from __future__ import annotations

import random

from racedeck.core.model import ENGINE
from racedeck.core.rng import engine_stream
from racedeck.core.step import NO_CHANCE, Turn, resolve
from racedeck.games.wacky_races import advantages
from racedeck.games.wacky_races.actions import EndTurn
from racedeck.games.wacky_races.events import CardTaken, TaskQueued, WackyEvent
from racedeck.games.wacky_races.resolution import Resolution
from racedeck.games.wacky_races.state import WackyState
from tests.games.wacky_races.helpers import (
    ARMY,
    GRUESOME,
    PAT,
    D,
    F,
    G,
    M,
    kinds,
    make,
    of,
    play,
    play_on,
)


def test_a_seats_chance_work_is_queued_and_the_engine_does_it_at_once() -> None:
    """Chance is the engine's alone: a seat's steal waits in the queue; the engine's is done."""
    state = make(
        players=3, racers=(GRUESOME, ARMY, PAT), pos=(4, 5, 7, 0, 1, 1), hands=((D,), (M, M), (F,))
    )
    seat_turn: Turn[WackyState, WackyEvent] = Turn(G, state, NO_CHANCE)
    Resolution(seat_turn, queue=True).task("steal", 0, 1, advantages.steal_card)
    assert seat_turn.events == [TaskQueued(kind="steal", seat=0, target=1)]
    assert seat_turn.state.pending == (("steal", 0, 1),) and G.next_step(seat_turn.state).engine
    engine_turn: Turn[WackyState, WackyEvent] = Turn(G, state, random.Random(1))
    Resolution(engine_turn, queue=False).task("steal", 0, 1, advantages.steal_card)
    assert of(engine_turn.events, CardTaken)[0].card == M
    assert engine_turn.state.hands[0] == (D, M)


def test_a_seats_decision_ends_with_its_turn_and_the_engine_does_the_rest() -> None:
    """Even a plain turn's end (the ordered pile holds the refill, Dastardly lays no trap from
    an empty deck, no neutral racer moves) is the engine's, right after the seat's events."""
    events, after = play(make(players=2, round=0, top=D), EndTurn())
    assert kinds(events) == ["TurnEnded"] and G.next_step(after).engine
    events, after = play_on(make(players=2, round=0, top=D), EndTurn())
    assert kinds(events) == ["TurnEnded", "DastardlyMoved", "TurnStarted"]
    assert after.active == 1 and G.next_step(after).seats == (1,)


ENGINE_WORK = frozenset(
    {
        "TurnStarted",
        "TrapLaid",
        "NeutralsMoving",
        "NeutralCardDrawn",
        "DeckReshuffled",
        "TrapsReshuffled",
        "TasksDone",
        "CardTaken",
        "RaceEnded",
        "RaceSetUp",
    }
)
"""Events of the engine's work: the turn's end, chance, the race's end and set-up (Dastardly
moves in a seat's decision only by an advantage that sends him back, and cards are drawn
there only by an advantage whose cards the ordered pile holds)."""


def test_no_seats_decision_does_the_engines_work() -> None:
    """Across random matches, a seat's decision emits only its action and what follows it
    without chance (a trap, a tile, a turn that ends itself); it stops where the engine's
    work begins, and the engine then brings the next seat's decision."""
    decisions = ended = 0
    for players in (1, 2, 4, 6):
        for seed in range(5):
            options = G.parse_options({"races": 2} if seed % 2 else {"special_tile": "swamp"})
            state = G.initial_state(options, players)
            rng = random.Random(seed)
            count = 0
            while not G.next_step(state).over:
                step = G.next_step(state)
                if step.engine:
                    turn = resolve(G, state, ENGINE, None, engine_stream(seed, count))
                    assert not G.next_step(turn.state).engine
                else:
                    seat = step.seats[0]
                    legal = G.legal_actions(state, seat)
                    turn = resolve(G, state, seat, legal[rng.randrange(len(legal))], NO_CHANCE)
                    assert not ENGINE_WORK & set(kinds(turn.events)), kinds(turn.events)
                    decisions += 1
                    if turn.state.phase in ("after_turn", "race_end"):
                        ended += 1
                        assert G.next_step(turn.state).engine
                state = turn.state
                count += len(turn.events)
    assert decisions > 1000 and ended > 300, (decisions, ended)
