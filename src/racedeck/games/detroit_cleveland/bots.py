"""Placeholder."""
from __future__ import annotations

from collections.abc import Sequence

from racedeck.core.bot import Bot
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng


class DetroitClevelandHeuristic(Bot):
    """Placeholder."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Placeholder."""
        return legal[0]
