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
