"""Misbehaving bots for the tournament tests, loaded with --plugins-dir."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from racedeck.core.bot import Bot, BotSpec
from racedeck.core.model import Action, Observation, Options
from racedeck.core.rng import Rng
from racedeck.hookspecs import hookimpl


class Crasher(Bot):
    """Raises on its first decision."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        raise RuntimeError("boom")


class Illegal(Bot):
    """Answers with something that is not one of the legal actions."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        return "not an action"  # type: ignore[return-value]


class Slow(Bot):
    """Thinks for a while, then plays the first legal action."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        time.sleep(0.3)
        return legal[0]


class Pausing(Bot):
    """Waits a second before each match, then plays the first legal action at once."""

    def start_match(self, game: str, seat: int, players: int, options: Options) -> None:
        time.sleep(1.0)

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        return legal[0]


class Exiter(Bot):
    """Takes its whole process down, as a crash in an extension module would."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        os._exit(3)


class Where(Bot):
    """Forfeits at once, saying which folder its plugin file was loaded from."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        raise RuntimeError(f"loaded from {Path(__file__).parent}")


SKEW = "RACEDECK_TEST_SKEW"
"""Set on one node of the test cluster, where the ``skewed`` bot then has another version."""


def _broken() -> Bot:
    raise RuntimeError("cannot start")


@hookimpl
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    register(BotSpec(name="crasher", factory=Crasher, description="raises"))
    register(BotSpec(name="illegal", factory=Illegal, description="plays illegally"))
    register(BotSpec(name="slow", factory=Slow, description="sleeps before each move"))
    register(BotSpec(name="exiter", factory=Exiter, description="kills its process"))
    register(BotSpec(name="pausing", factory=Pausing, description="waits before each match"))
    register(BotSpec(name="broken", factory=_broken, description="cannot be built"))
    register(BotSpec(name="where", factory=Where, description="tells where it was loaded from"))
    register(
        BotSpec(
            name="skewed",
            factory=Crasher,
            description="its version depends on the machine",
            version=os.environ.get(SKEW, "1"),
        )
    )
