"""The uniform random bot: a baseline that plays every game."""

from __future__ import annotations

from collections.abc import Sequence

from racedeck.core.bot import Bot
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng


class RandomBot(Bot):
    """Plays one of the legal actions, each equally likely."""

    reads_observation = False

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Return a uniformly drawn legal action."""
        if legal:
            # The same draw as ``randrange(len(legal))``, one call shorter.
            return rng.choice(legal)
        return legal[rng.randrange(0)]  # raises: nothing to choose from
