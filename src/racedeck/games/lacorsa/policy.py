"""LACORSA's learned policy: what each legal action shows, and the bot that weighs it.

Every action is described from the deciding car's side, by its *role* (qualifying,
attacking, defending, extending or discarding) and what it spends: the play's total (a
challenge's strength), its cards' ranks, whether it is the lowest on offer, the Extend
cards left after it; and where the car stands (place, lap, cards left, the rival's cards
left, the table's size). Each feature is named ``role what value...`` and weighs what the
trained file (``data/policy.json``, made by ``python -m tools.distill lacorsa``) says.

Measured against the search it was trained on (docs/bots.md, "A learned policy"), the
policy alone plays LACORSA about as well as 200 simulations of ISMCTS with heuristic
playouts, for the cost of naming its features.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from racedeck.bots.linear import LinearPolicy, load_weights
from racedeck.core.model import Action, Observation
from racedeck.games.lacorsa.actions import Extend
from racedeck.games.lacorsa.data import EXTEND_RANKS, play_total
from racedeck.games.lacorsa.state import LacorsaObservation

WEIGHTS = load_weights(__package__ or "racedeck.games.lacorsa", "policy.json")
"""The trained weights of LACORSA's policy."""


def _role(observation: LacorsaObservation, action: Action) -> str:
    """Return what the deciding car does with ``action``."""
    phase = observation.phase
    if phase == "qualify":
        return "qualify"
    if phase == "move":
        return "extend" if isinstance(action, Extend) else "discard"
    return "attack" if observation.deciding_car == observation.attacker else "defend"


def _cards(action: Action) -> tuple[int, ...]:
    """Return the cards ``action`` spends."""
    if isinstance(action, Extend):
        return (action.card,)
    cards: tuple[int, ...] = getattr(action, "cards")  # noqa: B009 - Play and Discard
    return cards


def features(observation: Observation, legal: Sequence[Action]) -> list[list[str]]:
    """Return, for each legal action of the deciding car, the names of its features."""
    assert isinstance(observation, LacorsaObservation)
    car = observation.deciding_car
    hand = observation.hands[car] or ()
    size = len(hand)
    extends = sum(1 for c in hand if c >> 3 in EXTEND_RANKS)
    spent = [_cards(action) for action in legal]
    totals = [play_total(cards) for cards in spent]
    distinct = sorted(set(totals), reverse=True)
    order = observation.order
    # 0 for the leader: ``order`` runs from last place to the leader.
    place = len(order) - 1 - order.index(car) if car in order else -1
    rival = -1
    if observation.phase == "challenge":
        rival = observation.defender if car == observation.attacker else observation.attacker
    lap = min(observation.lap, 12) // 3
    table = observation.players
    described = []
    for action, cards, total in zip(legal, spent, totals, strict=True):
        role = _role(observation, action)
        band = min(total, 14) // 3
        used = sum(1 for c in cards if c >> 3 in EXTEND_RANKS)
        names = [
            f"{role}",
            f"{role} total {min(total, 14)}",
            f"{role} cards {len(cards)}",
            f"{role} extends left {min(extends - used, 4)}",
            f"{role} rank among totals {min(distinct.index(total), 4)}",
            f"{role} lowest {total == distinct[-1]}",
            f"{role} hand {min(size, 13) // 3} band {band}",
            f"{role} place {place} band {band}",
            f"{role} lap {lap} band {band}",
            f"{role} table {table} band {band}",
        ]
        for c in cards:
            rank = c >> 3
            names.append(f"{role} rank {rank}")
            names.append(f"{role} rank {rank} hand {min(size, 13) // 4}")
        if rival >= 0:
            lead = max(-3, min(3, observation.hand_sizes[rival] - size))
            own = observation.owner[rival] == observation.seat
            names.append(f"{role} rival's cards more by {lead} band {band}")
            names.append(f"{role} rival own car {own} band {band}")
        described.append(names)
    return described


class LacorsaPolicy(LinearPolicy):
    """Plays the legal action the trained weights score highest (no search, no draws)."""

    features = staticmethod(features)
    weights = MappingProxyType(WEIGHTS.weights)
