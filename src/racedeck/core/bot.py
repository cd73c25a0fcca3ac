"""What a bot is, and how it is registered.

A bot receives an observation, the legal actions and its own random generator, and
returns one of the legal actions. It never sees a state.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from racedeck.core.model import Action, Observation, Options, Result
from racedeck.core.rng import Rng


class Bot(abc.ABC):
    """A strategy for one seat of one match; a new instance plays each match."""

    def start_match(self, game: str, seat: int, players: int, options: Options) -> None:  # noqa: B027
        """Hear that a match starts, which seat this bot has and the match's options."""

    @abc.abstractmethod
    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Return one of ``legal`` for the situation ``observation`` describes."""

    def end_match(self, result: Result) -> None:  # noqa: B027
        """Hear how the match ended."""


BotFactory = Callable[[], Bot]
"""Makes a fresh bot for one seat of one match."""


@dataclass(frozen=True)
class BotSpec:
    """A registered bot: its name, what makes it, and which games it plays.

    ``games`` of ``None`` means every game. Several specs may share a name when each
    covers other games: every game's heuristic bot answers to ``heuristic``.
    """

    name: str
    factory: BotFactory
    description: str
    version: str = "1"
    games: tuple[str, ...] | None = None

    def plays(self, game: str) -> bool:
        """Return True when this bot can take a seat in ``game``."""
        return self.games is None or game in self.games

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-ready description of this bot."""
        return {
            "name": self.name,
            "version": self.version,
            "games": list(self.games) if self.games is not None else None,
            "description": self.description,
        }
