"""A learned linear policy: each legal action scored by the weights of the features it shows.

A game describes each of its legal actions, as one seat sees the match, by the names of
the features it shows (``features``: a card's rank, a challenge's total, the place of the
car, ...); a weight per name, trained on a search's choices (``tools.distill``), makes
the score of an action the sum of its features' weights, and the policy plays the legal
action of the highest score (the first on a tie). It reads only its observation and draws
nothing, so it plays the same action in the same situation on every machine, for about
the cost of naming the features.

The weights live in the game's package, in a data file of their own: what trained them,
and a version the bot is registered at, so that a log played with other weights names
another bot version.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from types import MappingProxyType
from typing import ClassVar

import msgspec

from racedeck.core.bot import Bot, BotSpec
from racedeck.core.errors import DataError
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng

Features = Callable[[Observation, Sequence[Action]], list[list[str]]]
"""A game's description of its legal actions: per action, the names of its features."""

MAX_WEIGHTS = 100_000
"""The most weights a policy file may hold (the built-in ones hold under a thousand)."""


class Weights(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A trained linear policy, as stored: its version, how it was trained, its weights."""

    version: str
    """The version the policy's bot is registered at; a retrained file gets a new one."""
    trained: str
    """How the weights were made: the command, the teacher, the matches and the fit."""
    weights: dict[str, float]
    """Per feature name, its weight; a name absent here weighs 0."""


def load_weights(package: str, name: str) -> Weights:
    """Read and check the policy file ``name`` of ``package``'s ``data`` folder.

    Raises ``DataError`` naming the file for a file that is not a policy: unknown fields,
    a weight that is not a number (JSON has no infinity or NaN, and a number too large for
    a float is refused as out of range), no version, or more than ``MAX_WEIGHTS`` weights.
    """
    origin = f"{package}:data/{name}"
    raw = resources.files(package).joinpath("data", name).read_bytes()
    return check_weights(raw, origin)


def check_weights(raw: bytes, origin: str) -> Weights:
    """Decode a policy file's bytes and check them (see ``load_weights``)."""
    try:
        stored = msgspec.json.decode(raw, type=Weights)
    except msgspec.DecodeError as exc:
        raise DataError(f"{origin}: {exc}") from None
    if not stored.version:
        raise DataError(f"{origin}: the policy has no version")
    if len(stored.weights) > MAX_WEIGHTS:
        raise DataError(f"{origin}: {len(stored.weights)} weights, more than {MAX_WEIGHTS}")
    return stored


def weigh(weights: Mapping[str, float], described: list[list[str]]) -> list[float]:
    """Return each action's score: the sum of its features' weights (0 for an unknown one)."""
    get = weights.get
    return [sum(get(name, 0.0) for name in names) for names in described]


class LinearPolicy(Bot):
    """Plays the legal action whose features weigh most (the first on a tie).

    A game's policy is a subclass that sets ``features`` and ``weights``. A policy that
    judges with the match's options reads them in ``start_match``; the trainer starts it
    with the options its teacher played under before it describes their decisions.
    """

    weights: ClassVar[Mapping[str, float]] = MappingProxyType({})
    """The trained weight of each feature name."""

    def features(self, observation: Observation, legal: Sequence[Action]) -> list[list[str]]:
        """Return, per legal action, the names of its features (the game's ``Features``)."""
        raise NotImplementedError

    def scores(self, observation: Observation, legal: Sequence[Action]) -> list[float]:
        """Return each legal action's score (a game may add its weights up faster, the same)."""
        return weigh(self.weights, self.features(observation, legal))

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


Key = tuple[object, ...]
"""A feature without its role: ``("plan", 3)`` is named ``step plan 3`` for a card step."""

Described = tuple[list[tuple[str, list[Key]]], tuple[Key, ...]]
"""A decision as a ``KeyedPolicy`` describes it: per legal action its role and own keys,
and the keys of the context every action shares (named in each action's role)."""

KEPT = 1 << 16
"""The most weights a keyed policy keeps by role and key, and sums of context keys (a
match needs a few thousand; this bounds them)."""


@functools.cache
def feature_name(role: str, key: Key) -> str:
    """Return a feature's name: its role, then its key's parts, spaced (kept once made)."""
    return " ".join((role, *map(str, key)))


def names(described: Described) -> list[list[str]]:
    """Return, per action of a described decision, the names of its features."""
    own, context = described
    return [[feature_name(role, key) for key in (*keys, *context)] for role, keys in own]


_Kept = tuple[dict[tuple[str, Key], float], dict[tuple[str, tuple[Key, ...]], float]]
"""The weight of each role and key looked up, and the sum of each role's context keys."""

_KEPT: weakref.WeakKeyDictionary[type, _Kept] = weakref.WeakKeyDictionary()
"""Per policy class, what its bots have looked up and added up (``_Kept``)."""


class KeyedPolicy(LinearPolicy):
    """A linear policy whose game describes each action by a role and keys (``describe``).

    Its scores are the sums of the weights of the names ``names`` makes of them, each
    weight looked up by its role and key once and kept, and each role's context summed
    once: the bot plays inside the playouts of the searches it guides, where building
    names would cost more than the rest. What it kept is shared by every bot of its class
    (the weights are the class's).
    """

    def __init__(self) -> None:
        kept = _KEPT.get(type(self))
        if kept is None:
            kept = _KEPT[type(self)] = ({}, {})
        self._kept = kept

    def describe(self, observation: Observation, legal: Sequence[Action]) -> Described:
        """Return the decision as the game describes it (``Described``)."""
        raise NotImplementedError

    def features(self, observation: Observation, legal: Sequence[Action]) -> list[list[str]]:
        """Return, per legal action, the names of its features (``names`` of ``describe``)."""
        return names(self.describe(observation, legal))

    def scores(self, observation: Observation, legal: Sequence[Action]) -> list[float]:
        """Return each legal action's score, as its features' names weigh."""
        weights, contexts = self._kept
        own, context = self.describe(observation, legal)
        weight = self._weight
        sums: dict[str, float] = {}
        out = []
        for role, keys in own:
            placed = sums.get(role)
            if placed is None:
                placed = contexts.get((role, context))
                if placed is None:
                    placed = sum(weight(weights, role, key) for key in context)
                    if len(contexts) < KEPT:
                        contexts[role, context] = placed
                sums[role] = placed
            out.append(sum(weight(weights, role, key) for key in keys) + placed)
        return out

    def _weight(self, kept: dict[tuple[str, Key], float], role: str, key: Key) -> float:
        """Return the weight of ``key``'s name in ``role`` (kept once looked up)."""
        weight = kept.get((role, key))
        if weight is None:
            weight = self.weights.get(feature_name(role, key), 0.0)
            if len(kept) < KEPT:
                kept[role, key] = weight
        return weight


def policy_spec(policy: type[LinearPolicy], game: str, version: str) -> BotSpec:
    """Return the ``distilled`` bot of ``game``: ``policy`` at its weights file's ``version``."""
    return BotSpec(
        name="distilled",
        factory=policy,
        description="a linear policy trained on ISMCTS's choices: no search, no draws",
        version=version,
        games=(game,),
    )
