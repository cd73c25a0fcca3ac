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

from racedeck.core.game import AnyGame
from racedeck.core.model import Observation, Options
from racedeck.core.rng import Rng

Sampler = Callable[[Observation, Options, int, Rng], Any]
"""``(observation, options, seat, rng) -> state`` consistent with the observation."""

Builder = Callable[[Observation, Options], Any]
"""``(observation, options) -> state`` that observes the same, hidden parts as placeholders."""


def _lacorsa_state(observation: Any, options: Any) -> Any:
    """Rebuild a LACORSA state from a seat's observation, other cars' cards as placeholders."""
    from racedeck.games.lacorsa.state import LacorsaState

    obs = observation
    hands: list[tuple[int, ...]] = []
    committed: list[tuple[int, ...] | None] = []
    for car, hand in enumerate(obs.hands):
        if obs.owner[car] == obs.seat:
            hands.append(hand or ())
            committed.append(obs.own_committed[car])
        else:
            sealed = obs.committed[car]
            hands.append((0,) * (obs.hand_sizes[car] - (1 if sealed else 0)))
            committed.append((0,) if sealed else None)
    acting = obs.phase in ("move", "challenge") and obs.active_car >= 0
    return LacorsaState(
        options=options,
        players=obs.players,
        owner=obs.owner,
        phase=obs.phase,
        race=obs.race,
        hands=tuple(hands),
        committed=tuple(committed),
        order=obs.order,
        spaces=obs.spaces,
        lap=obs.lap,
        cursor=obs.order.index(obs.active_car) if acting else 0,
        passes=obs.passes,
        attacker=obs.attacker,
        defender=obs.defender,
        played=obs.played,
        qualifying_totals=obs.qualifying_totals,
        results=obs.results,
        points=obs.points,
    )


BUILDERS: dict[str, Builder] = {"lacorsa": _lacorsa_state}
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
