"""LACORSA: a state consistent with one seat's observation, for search bots.

What the seat sees is copied; what it cannot see is filled with placeholders that the
game's ``hidden_variants`` then redeals (``Game.sample_state`` does both).
"""

from __future__ import annotations

from typing import Any

from racedeck.games.lacorsa.state import LacorsaState


def state_from_observation(observation: Any, options: Any) -> Any:
    """Rebuild a LACORSA state from a seat's observation, other cars' cards as placeholders."""
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
        played_by=obs.played_by,
        qualifying_totals=obs.qualifying_totals,
        results=obs.results,
        points=obs.points,
    )
