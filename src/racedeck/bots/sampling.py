"""Determinization: a full state sampled from what one seat's observation says.

A search bot never sees a state, yet needs states to simulate. A determinization is a
state the seat cannot tell apart from the true one: everything it sees is as observed,
everything it cannot see is dealt at random from what it has not seen.

Every game provides this through ``Game.sample_state``: by default it builds a state
consistent with the observation (``state_from_observation``, unseen parts as
placeholders) and lets the game's own ``hidden_variants`` redeal everything the seat
cannot see, so each game keeps a single sampler of hidden information.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from racedeck.core.game import AnyGame
from racedeck.core.model import Observation, Options
from racedeck.core.rng import Rng

Sampler = Callable[[Observation, Options, int, Rng], Any]
"""``(observation, options, seat, rng) -> state`` consistent with the observation."""


def sampler_for(game: AnyGame) -> Sampler:
    """Return how to sample a state of ``game`` from an observation (``Game.sample_state``)."""
    sample: Sampler = game.sample_state
    return sample
