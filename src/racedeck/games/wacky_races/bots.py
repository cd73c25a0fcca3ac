"""Wacky Races' heuristic bot (placeholder, replaced below)."""

from __future__ import annotations

from collections.abc import Sequence

from racedeck.core.bot import Bot
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng


class WackyHeuristic(Bot):
    """Placeholder."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Return the first legal action."""
        return legal[0]
