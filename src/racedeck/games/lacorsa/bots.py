"""LACORSA's heuristic bot.

It treats every card as one of a limited number of turns: Extend cards are kept for open
road, where they gain a space for free; high cards are spent only where a challenge is
likely to be won; everything else is thrown away cheaply, lowest first.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from racedeck.core.bot import Bot
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng
from racedeck.games.lacorsa.actions import Discard, Extend, Play
from racedeck.games.lacorsa.data import EXTEND_RANKS, REDLINE, play_total
from racedeck.games.lacorsa.state import LacorsaObservation

ATTACK_AT = 9
"""The smallest total the bot attacks with: the defender keeps a tie."""
DEFEND_AT = 8
"""The smallest total the bot defends with."""
QUALIFY_EXTENDS = 2
"""With this many Extend cards or fewer, qualify hard (the rulebook's strategy tip)."""


def _keep_value(action: Play | Discard) -> tuple[int, int]:
    """Order plays by how little they cost: fewest cards, then Extends kept back, then lowest."""
    cards = action.cards
    extends = sum(1 for c in cards if c >> 3 in EXTEND_RANKS)
    return (len(cards) + extends * 2, play_total(cards))


class LacorsaHeuristic(Bot):
    """Extends when it can, fights only when its card is likely to win, throws low otherwise."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Choose a legal action for the LACORSA situation in ``observation``."""
        assert isinstance(observation, LacorsaObservation)
        if observation.phase == "move":
            return self._move(legal)
        plays = [a for a in legal if isinstance(a, Play)]
        if observation.phase == "qualify":
            return self._qualify(observation, plays)
        car = observation.deciding_car
        hand = observation.hands[car] or ()
        attacking = car == observation.attacker
        if len(hand) <= 3:
            return max(plays, key=lambda a: play_total(a.cards))
        target = ATTACK_AT if attacking else DEFEND_AT
        return self._cheapest_reaching(plays, target)

    def _move(self, legal: Sequence[Action]) -> Action:
        extends = [a for a in legal if isinstance(a, Extend)]
        if extends:
            return min(extends, key=lambda a: a.card)
        discards = [a for a in legal if isinstance(a, Discard)]
        return min(discards, key=_throw_order)

    def _qualify(self, observation: LacorsaObservation, plays: list[Play]) -> Action:
        hand = observation.hands[observation.deciding_car] or ()
        extends = sum(1 for c in hand if c >> 3 in EXTEND_RANKS)
        if extends <= QUALIFY_EXTENDS:
            singles = [p for p in plays if len(p.cards) == 1 and p.cards[0] >> 3 != REDLINE]
            return max(singles or plays, key=lambda a: play_total(a.cards))
        return min(plays, key=_throw_order)

    def _cheapest_reaching(self, plays: list[Play], target: int) -> Play:
        reaching = [p for p in plays if play_total(p.cards) >= target]
        if reaching:
            return min(reaching, key=lambda p: (len(p.cards), play_total(p.cards)))
        return min(plays, key=_throw_order)


def _throw_order(action: Play | Discard) -> tuple[int, int, int]:
    """Cheapest to give away first: one card, not an Extend, lowest value."""
    return _cost_of_throwing(action.cards)


@functools.cache
def _cost_of_throwing(cards: tuple[int, ...]) -> tuple[int, int, int]:
    extends = sum(1 for c in cards if c >> 3 in EXTEND_RANKS)
    redlines = sum(1 for c in cards if c >> 3 == REDLINE)
    return (len(cards) + redlines, extends, play_total(cards))
