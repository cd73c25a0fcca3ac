"""What the core needs to know of the installed games and bots: a catalogue to look them up.

The core never loads plugins. Replay, verification, forks and sessions take any object
that can give a game by name and a bot by name and game; ``racedeck.plugins.Registry``
is one, without naming this protocol, and tests may hand in their own.
"""

from __future__ import annotations

from typing import Protocol

from racedeck.core.bot import BotSpec
from racedeck.core.game import AnyGame


class Catalogue(Protocol):
    """Games and bots by name; unknown names raise ``UnknownGameError``/``UnknownBotError``."""

    def game(self, name: str) -> AnyGame:
        """Return the game called ``name``."""
        ...

    def bot(self, name: str, game: str) -> BotSpec:
        """Return the bot called ``name`` that plays the game called ``game``."""
        ...
