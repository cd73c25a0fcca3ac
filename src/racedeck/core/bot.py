"""What a bot is, and how it is registered.

A bot receives an observation, the legal actions and its own random generator, and
returns one of the legal actions. It never sees a state. Before a match it may be handed
the game's rules (a stateless forward model, the same object for every match) so that a
search bot can simulate; what it searches from is still only what its observation says.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from racedeck.core.game import AnyGame
from racedeck.core.model import Action, Observation, Options, Result
from racedeck.core.rng import Rng


class Bot(abc.ABC):
    """A strategy for one seat of one match; a new instance plays each match."""

    reads_observation: ClassVar[bool] = True
    """False for bots that never look at their observation (a uniformly random bot): the
    engine then hands them ``NOT_OBSERVED`` and does not build the observation at all."""

    emits_debug: ClassVar[bool] = False
    """True for bots whose ``take_debug`` may return text for the log after a decision."""

    def bind_game(self, game: AnyGame) -> None:  # noqa: B027 - optional hook
        """Receive the rules of the game about to be played, before ``start_match``."""

    def start_match(self, game: str, seat: int, players: int, options: Options) -> None:  # noqa: B027 - optional hook
        """Hear that a match starts, which seat this bot has and the match's options."""

    @abc.abstractmethod
    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Return one of ``legal`` for the situation ``observation`` describes."""

    def limit_time(self, seconds: float) -> None:  # noqa: B027 - optional hook
        """Obey the match's limit of ``seconds`` per decision, for a bot that times itself.

        Called only for bots whose spec says they enforce their own limit (``time_limit``
        of infinity, as a program's bot does); the engine bounds every other bot itself.
        """

    def take_debug(self) -> str | None:
        """Return (and forget) debug text about the last decision, if the bot has any."""
        return None

    def end_match(self, result: Result) -> None:  # noqa: B027 - optional hook
        """Hear how the match ended."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release what the bot holds (a process, a file); called once, however the match ends."""


class BotFault(Exception):
    """A bot failed in a way it describes itself; the message is the fault line's reason."""


class BotGone(BotFault):
    """The bot can answer no more (its process died); its seat cannot be asked again."""


class BotTimeout(BaseException):
    """Raised inside a bot that overran its decision's time limit.

    A ``BaseException`` so that a bot's own ``except Exception`` cannot swallow it.
    """


BotFactory = Callable[[], Bot]
"""Makes a fresh bot for one seat of one match."""


@dataclass(frozen=True)
class BotSpec:
    """A registered bot: its name, what makes it, and which games it plays.

    ``games`` of ``None`` means every game. Several specs may share a name when each
    covers other games: every game's heuristic bot answers to ``heuristic``.
    ``time_limit`` is the bot's own limit in seconds per decision (``None``: the match's).
    ``reproducible`` is False for bots whose play a seed does not fix (a person, a
    wall-clock budget): re-running their matches cannot verify a log.
    """

    name: str
    factory: BotFactory
    description: str
    version: str = "1"
    games: tuple[str, ...] | None = None
    time_limit: float | None = None
    reproducible: bool = True

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
            "reproducible": self.reproducible,
        }
