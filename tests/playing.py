"""Playing a match step by step through the core, for tests that look at every step."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from racedeck.core.game import AnyGame
from racedeck.core.model import ENGINE
from racedeck.core.rng import engine_stream
from racedeck.core.step import NO_CHANCE, Turn, resolve


def random_turns(
    game: AnyGame, options: Any, players: int, seed: int
) -> Iterator[tuple[Any, Turn[Any, Any]]]:
    """Yield ``(state, turn)`` at every step of a match with uniformly random choices.

    ``state`` is the state before the step and ``turn`` what the step did: the engine's
    turn with its seeded stream, or the first seat asked taking a random legal action.
    """
    state = game.initial_state(options, players)
    rng = random.Random(seed)
    events = 0
    while not (step := game.next_step(state)).over:
        if step.engine:
            turn = resolve(game, state, ENGINE, None, engine_stream(seed, events))
        else:
            seat = step.seats[0]
            legal = game.legal_actions(state, seat)
            turn = resolve(game, state, seat, legal[rng.randrange(len(legal))], NO_CHANCE)
        yield state, turn
        state = turn.state
        events += len(turn.events)


def final_state(game: AnyGame, options: Any, players: int, seed: int) -> Any:
    """Return the state a match of ``random_turns`` ends in."""
    state = game.initial_state(options, players)
    for _, turn in random_turns(game, options, players, seed):
        state = turn.state
    return state
