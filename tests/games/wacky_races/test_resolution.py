"""The resolution of one decision (``resolution.py``) and who does the turn's end.

A seat's action that needs chance queues it for the engine; the turn's end (refill,
Dastardly, the neutral racers, the next turn) is the engine's work, carried through by the
seat's own decision only when it surely draws no random number.
"""

from __future__ import annotations

import random

from racedeck.core.model import ENGINE
from racedeck.core.rng import engine_stream
from racedeck.core.step import NO_CHANCE, Turn, fold, resolve
from racedeck.games.wacky_races import advantages
from racedeck.games.wacky_races.actions import EndTurn
from racedeck.games.wacky_races.events import CardTaken, TaskQueued, WackyEvent
from racedeck.games.wacky_races.resolution import Resolution
from racedeck.games.wacky_races.state import WackyState
from tests.games.wacky_races.helpers import ARMY, GRUESOME, PAT, D, F, G, M, kinds, make, of, play


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


def test_a_seat_carries_its_turns_end_when_it_draws_nothing() -> None:
    """A plain turn's end (the ordered pile holds the refill, Dastardly lays no trap from an
    empty deck, no neutral racer moves) is in the seat's own decision."""
    events, after = play(make(players=2, round=0, top=D), EndTurn())
    assert kinds(events) == ["TurnEnded", "DastardlyMoved", "TurnStarted"]
    assert after.active == 1 and G.next_step(after).seats == (1,)
    # The neutral racers' round is the engine's, right after the seat's own events.
    events, after = play(make(players=2, round=1, active=1, top=D), EndTurn())
    assert kinds(events) == ["TurnEnded"] and G.next_step(after).engine


def _ends(state: WackyState, events: list[WackyEvent]) -> int:
    """Return how many of a seat's ``events`` come before its turn's or race's end."""
    for n, event in enumerate(events):
        state = G.evolve(state, event)
        if not state.pending and state.phase in ("after_turn", "race_end"):
            return n + 1
    return len(events)


def test_the_turns_end_is_the_same_whoever_does_it() -> None:
    """Wherever a seat's decision carries the turn's end through, the engine doing it from
    the turn's end gives the very same events; elsewhere the engine is next."""
    carried = left = 0
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
                else:
                    seat = step.seats[0]
                    legal = G.legal_actions(state, seat)
                    turn = resolve(G, state, seat, legal[rng.randrange(len(legal))], NO_CHANCE)
                    end = _ends(state, turn.events)
                    at_end = fold(G, state, turn.events[:end])
                    if end < len(turn.events):
                        carried += 1
                        by_engine = resolve(G, at_end, ENGINE, None, random.Random(seed))
                        assert by_engine.events == turn.events[end:]
                    elif at_end.phase in ("after_turn", "race_end") and not at_end.pending:
                        left += 1
                        assert G.next_step(turn.state).engine
                state = turn.state
                count += len(turn.events)
    assert carried > 300 and left > 30, (carried, left)
