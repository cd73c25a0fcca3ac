"""A single-file racedeck plugin: load it with ``racedeck --plugins-dir plugins/single-file``.

It registers ``greedy``, a bot for every game that takes the legal action listed last
(for LACORSA, the strongest play), a baseline that needs no knowledge of any game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from racedeck.core.bot import Bot, BotSpec
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng
from racedeck.hookspecs import hookimpl


class LastListed(Bot):
    """Always takes the last legal action."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Return the last of the legal actions."""
        return legal[-1]


@hookimpl
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register the greedy bot for every game."""
    register(BotSpec(name="greedy", factory=LastListed, description="takes the last legal action"))
