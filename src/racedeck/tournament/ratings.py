"""openskill Plackett-Luce ratings over finishing orders.

Each seat of a match is a one-player team; the match's ranks (1 is best, ties shared)
are the finishing order. A bot that holds several seats of one match (a field filled with
copies of one bot) gets the mean of its seats' updated ratings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce


class Ratings:
    """Every bot's rating, updated one match at a time in index order."""

    def __init__(self, bots: Sequence[str]) -> None:
        self._model = PlackettLuce()
        self._ratings: dict[str, Any] = {bot: self._model.rating(name=bot) for bot in bots}

    def update(self, seats: Sequence[str], ranks: Sequence[int]) -> None:
        """Fold one match's finishing order into the ratings."""
        teams = [[self._ratings[bot]] for bot in seats]
        rated = self._model.rate(teams, ranks=list(ranks))
        updated: dict[str, list[Any]] = {}
        for bot, team in zip(seats, rated, strict=True):
            updated.setdefault(bot, []).append(team[0])
        for bot, new in updated.items():
            if len(new) == 1:
                self._ratings[bot] = new[0]
            else:
                mu = sum(r.mu for r in new) / len(new)
                sigma = sum(r.sigma for r in new) / len(new)
                self._ratings[bot] = self._model.rating(mu=mu, sigma=sigma, name=bot)

    def mu(self, bot: str) -> float:
        """Return the bot's mean skill."""
        return float(self._ratings[bot].mu)

    def sigma(self, bot: str) -> float:
        """Return the uncertainty of the bot's skill."""
        return float(self._ratings[bot].sigma)

    def ordinal(self, bot: str) -> float:
        """Return the conservative estimate ``mu - 3 sigma``, which orders the standings."""
        return float(self._ratings[bot].ordinal())
