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

    A game's policy is a subclass that sets ``features`` and ``weights``.
    """

    weights: ClassVar[Mapping[str, float]] = MappingProxyType({})
    """The trained weight of each feature name."""

    @staticmethod
    def features(observation: Observation, legal: Sequence[Action]) -> list[list[str]]:
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


def policy_spec(policy: type[LinearPolicy], game: str, version: str) -> BotSpec:
    """Return the ``distilled`` bot of ``game``: ``policy`` at its weights file's ``version``."""
    return BotSpec(
        name="distilled",
        factory=policy,
        description="a linear policy trained on ISMCTS's choices: no search, no draws",
        version=version,
        games=(game,),
    )
