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
from collections.abc import Sequence
from types import MappingProxyType

from racedeck.bots.linear import LinearPolicy, load_weights
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng
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
    """What every action of one decision shares: its hand, its context, the totals offered."""

    __slots__ = ("attacking", "context", "distinct", "extends", "phase", "size", "spent")

    def __init__(self, observation: Observation, legal: Sequence[Action]) -> None:
        assert isinstance(observation, LacorsaObservation)
        car = observation.deciding_car
        hand = observation.hands[car] or ()
        self.phase: str = observation.phase
        self.attacking = car == observation.attacker
        self.size = len(hand)
        self.extends = _spent(hand)[2]
        self.spent = [_cards(action) for action in legal]
        self.distinct = sorted({play_total(cards) for cards in self.spent}, reverse=True)
        self.context = _context(observation, self.size)

    def relative(self, cards: tuple[int, ...]) -> tuple[Key, ...]:
        total = play_total(cards)
        among = min(self.distinct.index(total), 4)
        used = _spent(cards)[2]
        return _relative(min(self.extends - used, 4), among, total == self.distinct[-1])


def features(observation: Observation, legal: Sequence[Action]) -> list[list[str]]:
    """Return, for each legal action of the deciding car, the names of its features."""
    decision = _Decision(observation, legal)
    described = []
    for action, cards in zip(legal, decision.spent, strict=True):
        role = _role(decision.phase, decision.attacking, action)
        band = ("band", _spent(cards)[1])
        keys = [*_own(cards, decision.size), *decision.relative(cards)]
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

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Return the first legal action of the highest score."""
        if len(legal) == 1:
            return legal[0]
        found = self.scores(observation, legal)
        best, top = 0, found[0]
        for index, score in enumerate(found):
            if score > top:
                best, top = index, score
        return legal[best]

    def scores(self, observation: Observation, legal: Sequence[Action]) -> list[float]:
        """Return each legal action's score, as ``features``' names weigh."""
        assert isinstance(observation, LacorsaObservation)
        car = observation.deciding_car
        hand = observation.hands[car] or ()
        size, extends = len(hand), _spent(hand)[2]
        phase, attacking = observation.phase, car == observation.attacker
        spent = [_spent(_cards(action)) for action in legal]
        distinct = sorted({total for total, _, _ in spent}, reverse=True)
        among = {total: min(i, 4) for i, total in enumerate(distinct)}
        lowest = distinct[-1]
        context = _context(observation, size)
        placed: dict[str, tuple[float, ...]] = {}
        out = []
        for action, (total, band, used) in zip(legal, spent, strict=True):
            role = _role(phase, attacking, action)
            sums = placed.get(role)
            if sums is None:
                sums = placed[role] = self._context_sums(role, context)
            score = self._own_sum(role, _cards(action), size) + sums[band]
            ranked = _relative(min(extends - used, 4), among[total], total == lowest)
            out.append(score + self._sum(self._ranked, role, ranked))
        return out

    def _sum(
        self, kept: dict[tuple[str, tuple[Key, ...]], float], role: str, keys: tuple[Key, ...]
    ) -> float:
        """Return the weights of ``keys`` in ``role`` added up, kept in ``kept``."""
        score = kept.get((role, keys))
        if score is None:
            get = self.weights.get
            score = sum(get(name(role, key), 0.0) for key in keys)
            if len(kept) < KEPT:
                kept[role, keys] = score
        return score

    def _own_sum(self, role: str, cards: tuple[int, ...], size: int) -> float:
        kept = self._owned
        key = (role, cards, min(size, 13) // 4)
        score = kept.get(key)
        if score is None:
            get = self.weights.get
            score = sum(get(name(role, k), 0.0) for k in _own(cards, size))
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
            get = self.weights.get
            weights = tuple(get(name(role, (*key, "band", band)), 0.0) for band in range(BANDS))
            if len(kept) < KEPT:
                kept[role, key] = weights
        return weights
