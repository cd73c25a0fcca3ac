"""LACORSA's learned policy: what each legal action shows, and the bot that weighs it.

Every action is described from the deciding car's side, by its *role* (qualifying,
attacking, defending, extending or discarding) and what it spends: the play's total (a
challenge's strength), its cards' ranks, whether it is the lowest on offer, the Extend
cards left after it; and where the car stands (place, lap, cards left, the rival's cards
left, the table's size), each of those paired with the play's *band* (its total in threes).
Each feature is named ``role what value...`` and weighs what the trained file
(``data/policy.json``, made by ``python -m tools.distill lacorsa``) says.

The features are written once, as keys (``_own``, ``_relative``, ``_context``); their
names (``features``, what the trainer fits) and the bot's scores (``LacorsaPolicy``) are
both made from those keys. The bot plays inside every playout of the searches it guides,
so it adds up its weights a group of keys at a time and keeps each group's sum: what an
action spends and its hand (``_own``), and where its car stands in each band
(``_context``), since the same few recur all match long.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Iterable, Sequence
from types import MappingProxyType

from racedeck.bots.linear import LinearPolicy, load_weights
from racedeck.core.model import Action, Observation
from racedeck.games.lacorsa.actions import Extend
from racedeck.games.lacorsa.data import EXTEND_RANKS, play_total
from racedeck.games.lacorsa.state import LacorsaObservation

WEIGHTS = load_weights(__package__ or "racedeck.games.lacorsa", "policy.json")
"""The trained weights of LACORSA's policy."""

Key = tuple[object, ...]
"""A feature without its role: ``("total", 12)`` is named ``attack total 12`` in attack."""

BANDS = 5
"""A play's total in threes: 0-2, 3-5, 6-8, 9-11, 12-14."""

KEPT = 1 << 16
"""The most sums of each group the bot keeps (they are few; this only bounds them)."""


@functools.cache
def name(role: str, key: Key) -> str:
    """Return the feature's name: its role, then its key's parts, spaced.

    Kept once made: a few thousand names recur all match long.
    """
    return " ".join((role, *map(str, key)))


def _role(phase: str, attacking: bool, action: Action) -> str:
    """Return what the deciding car does with ``action``."""
    if phase == "qualify":
        return "qualify"
    if phase == "move":
        return "extend" if isinstance(action, Extend) else "discard"
    return "attack" if attacking else "defend"


def _cards(action: Action) -> tuple[int, ...]:
    """Return the cards ``action`` spends."""
    if isinstance(action, Extend):
        return (action.card,)
    cards: tuple[int, ...] = action.cards  # type: ignore[attr-defined]
    return cards


def _own(cards: tuple[int, ...], size: int) -> tuple[Key, ...]:
    """Return the keys of what a play spends, and of each card's rank beside the hand's size."""
    keys: list[Key] = [(), ("total", min(play_total(cards), 14)), ("cards", len(cards))]
    for card in cards:
        keys.append(("rank", card >> 3))
        keys.append(("rank", card >> 3, "hand", min(size, 13) // 4))
    return tuple(keys)


def _relative(left: int, among: int, lowest: bool) -> tuple[Key, ...]:
    """Return the keys of a play beside its hand and the other plays: Extends left, order."""
    return (("extends left", left), ("rank among totals", among), ("lowest", lowest))


def _context(observation: LacorsaObservation, size: int) -> tuple[Key, ...]:
    """Return the keys of where the deciding car stands (each paired with a play's band)."""
    car = observation.deciding_car
    order = observation.order
    # 0 for the leader: ``order`` runs from last place to the leader.
    place = len(order) - 1 - order.index(car) if car in order else -1
    keys: list[Key] = [
        ("hand", min(size, 13) // 3),
        ("place", place),
        ("lap", min(observation.lap, 12) // 3),
        ("table", observation.players),
    ]
    if observation.phase == "challenge":
        rival = observation.defender if car == observation.attacker else observation.attacker
        lead = max(-3, min(3, observation.hand_sizes[rival] - size))
        keys.append(("rival's cards more by", lead))
        keys.append(("rival own car", observation.owner[rival] == observation.seat))
    return tuple(keys)


@functools.cache
def _spent(cards: tuple[int, ...]) -> tuple[int, int, int]:
    """Return what ``cards`` count in a challenge, their band, and the Extends among them."""
    total = play_total(cards)
    return total, min(total, 14) // 3, sum(1 for c in cards if c >> 3 in EXTEND_RANKS)


class _Decision:
    """What every action of one decision shares: its hand, its context, the totals offered.

    ``spent`` holds each legal action's cards and ``measures`` their total, band and Extends
    (``_spent``), in the legal actions' order; ``features`` and the bot's scores both read
    them here.
    """

    __slots__ = (
        "among",
        "attacking",
        "context",
        "extends",
        "lowest",
        "measures",
        "phase",
        "size",
        "spent",
    )

    def __init__(self, observation: Observation, legal: Sequence[Action]) -> None:
        assert isinstance(observation, LacorsaObservation)
        car = observation.deciding_car
        hand = observation.hands[car] or ()
        self.phase: str = observation.phase
        self.attacking = car == observation.attacker
        self.size = len(hand)
        # Counted, not kept: ``_spent`` keeps its answers, and a search deals a new hand in
        # every world it samples (the plays on offer are a few hundred card sets at most).
        self.extends = sum(1 for c in hand if c >> 3 in EXTEND_RANKS)
        self.spent = [_cards(action) for action in legal]
        self.measures = [_spent(cards) for cards in self.spent]
        distinct = sorted({total for total, _, _ in self.measures}, reverse=True)
        self.among = {total: min(i, 4) for i, total in enumerate(distinct)}
        """Each total's place among the totals on offer, highest first (4 and below: 4)."""
        self.lowest = distinct[-1]
        self.context = _context(observation, self.size)

    def role(self, action: Action) -> str:
        """Return what the deciding car does with ``action``."""
        return _role(self.phase, self.attacking, action)

    def relative(self, index: int) -> tuple[Key, ...]:
        """Return the keys of the ``index``-th action beside its hand and the other plays."""
        total, _, used = self.measures[index]
        return _relative(min(self.extends - used, 4), self.among[total], total == self.lowest)


def features(observation: Observation, legal: Sequence[Action]) -> list[list[str]]:
    """Return, for each legal action of the deciding car, the names of its features."""
    decision = _Decision(observation, legal)
    described = []
    for index, action in enumerate(legal):
        role = decision.role(action)
        band = ("band", decision.measures[index][1])
        keys = [*_own(decision.spent[index], decision.size), *decision.relative(index)]
        names = [name(role, key) for key in keys]
        names += [name(role, (*key, *band)) for key in decision.context]
        described.append(names)
    return described


class _Sums:
    """The sums of weights a policy class has added up so far, by group."""

    __slots__ = ("bands", "owned", "placed", "ranked")

    def __init__(self) -> None:
        self.bands: dict[tuple[str, Key], tuple[float, ...]] = {}
        self.owned: dict[tuple[str, tuple[int, ...], int], float] = {}
        self.placed: dict[tuple[str, tuple[Key, ...]], tuple[float, ...]] = {}
        self.ranked: dict[tuple[str, tuple[Key, ...]], float] = {}


_KEPT: weakref.WeakKeyDictionary[type, _Sums] = weakref.WeakKeyDictionary()
"""Per policy class, the sums its bots share."""


class LacorsaPolicy(LinearPolicy):
    """Plays the legal action the trained weights score highest (no search, no draws).

    Its scores are the sums of the weights of ``features``' names (a test checks they
    agree), added up a group at a time and kept (``_own`` by cards and hand, ``_context``
    by band) across the bot's decisions.
    """

    features = staticmethod(features)
    weights = MappingProxyType(WEIGHTS.weights)

    def __init__(self) -> None:
        # The sums are the weights' (the class's): every bot of the class shares them, the
        # searches' playout bots of every match of the process included.
        kept = _KEPT.get(type(self))
        if kept is None:
            kept = _KEPT[type(self)] = _Sums()
        self._owned, self._placed, self._ranked = kept.owned, kept.placed, kept.ranked
        self._bands = kept.bands

    def scores(self, observation: Observation, legal: Sequence[Action]) -> list[float]:
        """Return each legal action's score, as ``features``' names weigh."""
        decision = _Decision(observation, legal)
        size, context = decision.size, decision.context
        placed: dict[str, tuple[float, ...]] = {}
        out = []
        for index, action in enumerate(legal):
            role = decision.role(action)
            sums = placed.get(role)
            if sums is None:
                sums = placed[role] = self._context_sums(role, context)
            score = self._own_sum(role, decision.spent[index], size)
            score += sums[decision.measures[index][1]]
            out.append(score + self._sum(self._ranked, role, decision.relative(index)))
        return out

    def _sum(
        self, kept: dict[tuple[str, tuple[Key, ...]], float], role: str, keys: tuple[Key, ...]
    ) -> float:
        """Return the weights of ``keys`` in ``role`` added up, kept in ``kept``."""
        score = kept.get((role, keys))
        if score is None:
            score = self._weigh(role, keys)
            if len(kept) < KEPT:
                kept[role, keys] = score
        return score

    def _weigh(self, role: str, keys: Iterable[Key]) -> float:
        """Return the weights of ``keys``' names in ``role`` added up, in their order."""
        get = self.weights.get
        return sum(get(name(role, key), 0.0) for key in keys)

    def _own_sum(self, role: str, cards: tuple[int, ...], size: int) -> float:
        kept = self._owned
        key = (role, cards, min(size, 13) // 4)
        score = kept.get(key)
        if score is None:
            score = self._weigh(role, _own(cards, size))
            if len(kept) < KEPT:
                kept[key] = score
        return score

    def _context_sums(self, role: str, context: tuple[Key, ...]) -> tuple[float, ...]:
        kept = self._placed
        key = (role, context)
        sums = kept.get(key)
        if sums is None:
            # Added up in the context's order, as the names' weights are in ``features``.
            rows = [self._banded(role, k) for k in context]
            sums = tuple(sum(row[band] for row in rows) for band in range(BANDS))
            if len(kept) < KEPT:
                kept[key] = sums
        return sums

    def _banded(self, role: str, key: Key) -> tuple[float, ...]:
        """Return the weights of one context key in ``role`` at each band (kept)."""
        kept = self._bands
        weights = kept.get((role, key))
        if weights is None:
            weights = tuple(self._weigh(role, [(*key, "band", band)]) for band in range(BANDS))
            if len(kept) < KEPT:
                kept[role, key] = weights
        return weights
