"""Public facts in the observation: the turn, the passes and past races' car owners."""

from __future__ import annotations

import random
from collections.abc import Iterator

from racedeck.core.model import ENGINE
from racedeck.core.rng import engine_stream
from racedeck.core.step import NO_CHANCE, resolve
from racedeck.games.detroit_cleveland.state import DetroitClevelandState
from tests.games.detroit_cleveland.support import GAME, options


def _states(raw: dict[str, object], players: int, seed: int) -> Iterator[DetroitClevelandState]:
    """Every state of a random match, the events that passed a turn included."""
    opts = options(**raw)
    state = GAME.initial_state(opts, players)
    pick = random.Random(seed)
    events = 0
    while not GAME.next_step(state).over:
        step = GAME.next_step(state)
        if step.engine:
            turn = resolve(GAME, state, ENGINE, None, engine_stream(seed, events))
        else:
            legal = GAME.legal_actions(state, step.seats[0])
            action = legal[pick.randrange(len(legal))]
            turn = resolve(GAME, state, step.seats[0], action, NO_CHANCE)
        for event in turn.events:
            state = GAME.evolve(state, event)
            events += 1
            yield state


def test_turn_passes_and_past_owners_are_public_and_sampled_exactly() -> None:
    """Everything public so far is in the observation: the race's turn number, the turns
    in a row without a card played, and who owned which car in each finished race. Every
    seat sees the same values, redealing hidden cards leaves them alone, and a state
    sampled from the observation has them exactly."""
    raw = {"races": 2, "may_stop_when_finished": True}
    seen_passes = seen_owners = seen_turn = 0
    rng = random.Random(3)
    for seed in range(4):
        for state in _states(raw, 3, seed):
            views = [GAME.observe(state, seat) for seat in range(3)]
            for view in views:
                assert (view.turn, view.passes, view.owners) == (
                    state.turn,
                    state.passes,
                    state.owners,
                )
            for seat, view in enumerate(views):
                variant = GAME.hidden_variants(state, seat, rng)
                if variant is not None:
                    again = GAME.observe(variant, seat)
                    assert (again.turn, again.passes, again.owners) == (
                        view.turn,
                        view.passes,
                        view.owners,
                    )
                sampled = next(GAME.sample_states(view, state.options, seat, rng))
                assert sampled is not None
                assert GAME.observe(sampled, seat) == view
                assert (sampled.turn, sampled.passes, sampled.owners) == (
                    state.turn,
                    state.passes,
                    state.owners,
                )
            seen_turn += state.turn > state.players
            seen_passes += state.passes > 0
            seen_owners += bool(state.owners) and any(o >= 0 for o in state.owners[0])
    assert seen_turn and seen_passes and seen_owners, "the matches never showed the facts"
