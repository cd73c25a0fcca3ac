"""LACORSA's heuristic bot.

It treats every card as one of a limited number of turns: Extend cards are kept for open
road, where they gain a space for free; high cards are spent only where a challenge is
likely to be won; everything else is thrown away cheaply, lowest first.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TypeVar

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
        phase = observation.phase
        if phase == "move":
            return self._move(legal)
        plays = [a for a in legal if isinstance(a, Play)]
        if phase == "qualify":
            return self._qualify(observation, plays)
        car = observation.deciding_car
        hand = observation.hands[car] or ()
        attacking = car == observation.attacker
        if len(hand) <= 3:
            return _highest(plays)
        target = ATTACK_AT if attacking else DEFEND_AT
        return self._cheapest_reaching(plays, target)

    def _move(self, legal: Sequence[Action]) -> Action:
        lowest: Extend | None = None
        for a in legal:
            if isinstance(a, Extend) and (lowest is None or a.card < lowest.card):
                lowest = a
        if lowest is not None:
            return lowest
        return _cheapest_to_throw([a for a in legal if isinstance(a, Discard)])

    def _qualify(self, observation: LacorsaObservation, plays: list[Play]) -> Action:
        hand = observation.hands[observation.deciding_car] or ()
        extends = sum(1 for c in hand if c >> 3 in EXTEND_RANKS)
        if extends <= QUALIFY_EXTENDS:
            singles = [p for p in plays if len(p.cards) == 1 and p.cards[0] >> 3 != REDLINE]
            return _highest(singles or plays)
        return _cheapest_to_throw(plays)

    def _cheapest_reaching(self, plays: list[Play], target: int) -> Play:
        """Return the fewest cards, then lowest total, reaching ``target``; else the cheapest."""
        best: Play | None = None
        best_key = (0, 0)
        for p in plays:
            cards = p.cards
            total, key, _ = _ONE[cards[0]] if len(cards) == 1 else _measures(cards)
            if total >= target and (best is None or key < best_key):
                best, best_key = p, key
        if best is not None:
            return best
        return _cheapest_to_throw(plays)


# The choices below are ``max`` and ``min`` with a key, written out: the first action with
# the best key wins, as with the builtins, and each action's keys are looked up once.


_Cards = TypeVar("_Cards", Play, Discard)


def _highest(plays: list[Play]) -> Play:
    """Return the first play of the highest total."""
    if not plays:
        return max(plays, key=_throw_order)  # raises as max() of nothing does
    best = plays[0]
    top = _measures(best.cards)[0]
    for p in plays:
        cards = p.cards
        total = (_ONE[cards[0]] if len(cards) == 1 else _measures(cards))[0]
        if total > top:
            best, top = p, total
    return best


def _cheapest_to_throw(actions: Sequence[_Cards]) -> _Cards:
    """Return the first action cheapest to give away (``_throw_order``)."""
    if not actions:
        return min(actions, key=_throw_order)  # raises as min() of nothing does
    best = actions[0]
    cheapest = _measures(best.cards)[2]
    for a in actions:
        cards = a.cards
        cost = (_ONE[cards[0]] if len(cards) == 1 else _measures(cards))[2]
        if cost < cheapest:
            best, cheapest = a, cost
    return best


def _throw_order(action: Play | Discard) -> tuple[int, int, int]:
    """Cheapest to give away first: one card, not an Extend, lowest value."""
    return _cost_of_throwing(action.cards)


@functools.cache
def _cost_of_throwing(cards: tuple[int, ...]) -> tuple[int, int, int]:
    extends = sum(1 for c in cards if c >> 3 in EXTEND_RANKS)
    redlines = sum(1 for c in cards if c >> 3 == REDLINE)
    return (len(cards) + redlines, extends, play_total(cards))


@functools.cache
def _measures(cards: tuple[int, ...]) -> tuple[int, tuple[int, int], tuple[int, int, int]]:
    """Return a play's total, its (cards, total) size and its cost to throw, for ``cards``."""
    total = play_total(cards)
    return total, (len(cards), total), _cost_of_throwing(cards)


_ONE = tuple(_measures((c,)) for c in range(REDLINE * 8 + 8))
"""``_measures`` of each single card, by card id: a lookup instead of a cached call."""
