"""Determinization: a full state sampled from what one seat's observation says.

A search bot never sees a state, yet needs states to simulate. A determinization is a
state the seat cannot tell apart from the true one: everything it sees is as observed,
everything it cannot see is dealt at random from what it has not seen.

A game that declares ``capabilities.sampling`` provides this through its one sampling
hook, ``Game.sample_states``: a stream of such states for one decision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from racedeck.core.game import AnyGame
from racedeck.core.model import Observation, Options
from racedeck.core.rng import Rng

Sampler = Callable[[Observation, Options, int, Rng], Any]
"""``(observation, options, seat, rng) -> state`` consistent with the observation."""


def sampler_for(game: AnyGame) -> Sampler | None:
    """Return how to sample a state of ``game`` from an observation, if it declares it can.

    The sample is the first of the game's stream (``Game.sample_states``).
    """
    if not game.capabilities.sampling:
        return None

    def sample(observation: Observation, options: Options, seat: int, rng: Rng) -> Any:
        return next(iter(game.sample_states(observation, options, seat, rng)))

    return sample
