"""Determinization: a full state sampled from what one seat's observation says.

A search bot never sees a state, yet needs states to simulate. A determinization is a
state the seat cannot tell apart from the true one: everything it sees is as observed,
everything it cannot see is dealt at random from what it has not seen.

A game provides this by implementing the optional method::

    def sample_state(self, observation, options, seat, rng) -> State | None

(proposed for the ``Game`` contract). Until a game implements it, a builder here can
stand in: it turns an observation into *some* state consistent with it (hidden parts
filled with placeholders), and the game's own ``hidden_variants`` then redeals every
card the seat cannot see, so the game's single sampler of hidden information is reused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from racedeck.bots import builders
from racedeck.core.game import AnyGame
from racedeck.core.model import Observation, Options
from racedeck.core.rng import Rng

Sampler = Callable[[Observation, Options, int, Rng], Any]
"""``(observation, options, seat, rng) -> state`` consistent with the observation."""

Builder = Callable[[Observation, Options], Any]
"""``(observation, options) -> state`` that observes the same, hidden parts as placeholders."""


BUILDERS: dict[str, Builder] = {
    "lacorsa": builders.lacorsa_state,
    "famous-500": builders.famous500_state,
    "detroit-cleveland": builders.detroit_cleveland_state,
    "wacky-races": builders.wacky_races_state,
}

"""Stand-in builders for games that do not implement ``sample_state`` yet, by game name."""


def sampler_for(game: AnyGame) -> Sampler | None:
    """Return how to sample a state of ``game`` from an observation, or None if it cannot."""
    method = getattr(game, "sample_state", None)
    if callable(method):
        sample: Sampler = method
        return sample
    builder = BUILDERS.get(game.name)
    if builder is None:
        return None

    def from_builder(observation: Observation, options: Options, seat: int, rng: Rng) -> Any:
        state = builder(observation, options)
        redealt = game.hidden_variants(state, seat, rng)
        return state if redealt is None else redealt

    return from_builder
