"""Small bots and shortcuts shared by the bot tests."""

from __future__ import annotations

import contextlib
import io
import time
from collections.abc import Sequence
from typing import Any

from racedeck.core.bot import Bot, BotGone, BotSpec
from racedeck.core.log import LogWriter
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng
from racedeck.core.runner import MatchOutcome, run_match
from racedeck.plugins import load_registry

REGISTRY = load_registry(entry_points=False)
LACORSA = REGISTRY.game("lacorsa")
ONE_RACE = LACORSA.parse_options({"races": 1})
RANDOM = REGISTRY.bot("random", "lacorsa")
HEURISTIC = REGISTRY.bot("heuristic", "lacorsa")


class Scripted(Bot):
    """Plays the first legal action, except at decision ``at`` where it does ``what``."""

    closed: list[str] = []

    def __init__(self, what: str, at: int = 2) -> None:
        self.what = what
        self.at = at
        self.decisions = 0

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        self.decisions += 1
        if self.decisions - 1 == self.at or (self.what == "gone" and self.decisions > self.at):
            if self.what == "sleep":
                time.sleep(5)
            if self.what == "spin":
                while True:
                    with contextlib.suppress(Exception):  # swallows all it can
                        sum(range(1000))
            if self.what == "raise":
                raise ValueError("boom")
            if self.what == "illegal":
                return "not an action"  # type: ignore[return-value]
            if self.what == "gone":
                raise BotGone("the program died")
        return legal[0]

    def close(self) -> None:
        Scripted.closed.append(self.what)


def spec(what: str, at: int = 2, **kwargs: Any) -> BotSpec:
    return BotSpec(
        name=f"scripted-{what}", factory=lambda: Scripted(what, at), description="", **kwargs
    )


def play(seats: list[BotSpec], seed: int = 1, **kwargs: Any) -> tuple[MatchOutcome, bytes]:
    buffer = io.BytesIO()
    outcome = run_match(LACORSA, ONE_RACE, seats, seed, writer=LogWriter(buffer), **kwargs)
    return outcome, buffer.getvalue()


def policy_decisions_checked(
    policy: type[Any], game: Any, options: Any, tables: tuple[int, ...] = (2, 4, 6)
) -> int:
    """Play matches at each table of ``tables`` of ``policy`` (a ``LinearPolicy``) in every
    seat, checking at each decision that its scores are the weights of its features' names;
    return the decisions checked."""
    from racedeck.bots.linear import weigh

    checked = 0

    class Checking(policy):  # type: ignore[misc, valid-type]
        def act(self, observation: Observation, legal: list[Action], rng: Rng) -> Action:
            nonlocal checked
            fast = self.scores(observation, legal)
            slow = weigh(self.weights, self.features(observation, legal))
            assert len(fast) == len(slow)
            assert all(abs(a - b) <= 1e-9 for a, b in zip(fast, slow, strict=True))
            checked += 1
            return super().act(observation, legal, rng)  # type: ignore[no-any-return]

    for players in tables:
        seats = [BotSpec(name="checking", factory=Checking, description="")] * players
        run_match(game, options, seats, players)
    return checked


def policy_plays_alike_when_watched(game: Any, options: Any, players: int) -> None:
    """Play ``game``'s ``distilled`` policy in seat 0 against its heuristic twice, the first
    time watched: each answer legal, the same on a second asking with another generator,
    and every legal action described by some feature. Both matches end alike, unfaulted."""
    import random

    learned = REGISTRY.bot("distilled", game.name)
    heuristic = REGISTRY.bot("heuristic", game.name)

    class Watching(Bot):
        def __init__(self) -> None:
            self.policy: Any = learned.factory()

        def act(self, observation: Observation, legal: list[Action], rng: Rng) -> Action:
            chosen: Action = self.policy.act(observation, legal, rng)
            assert chosen in legal
            assert self.policy.act(observation, legal, random.Random(99)) is chosen
            described = self.policy.features(observation, legal)
            assert len(described) == len(legal) and all(described)
            return chosen

    watched = BotSpec(name="watched", factory=Watching, description="")
    first = run_match(game, options, [watched, *[heuristic] * (players - 1)], 7)
    again = run_match(game, options, [learned, *[heuristic] * (players - 1)], 7)
    assert first.result == again.result
    assert first.faults == again.faults == []


def policy_against_heuristic(game: Any, options: Any, deals: int) -> Any:
    """Return how ``game``'s ``distilled`` policy scores against its heuristic, two players,
    over ``deals`` duplicate deals from seed 5000 (``tools.strength.measure``)."""
    from tools.strength import measure

    learned = REGISTRY.bot("distilled", game.name)
    heuristic = REGISTRY.bot("heuristic", game.name)
    return measure(game, options, learned, heuristic, 2, range(5000, 5000 + deals))
