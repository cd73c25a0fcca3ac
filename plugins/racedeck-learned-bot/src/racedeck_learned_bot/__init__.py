"""An example racedeck plugin: ``learned``, a LACORSA bot whose policy was trained.

The weights (``weights.npz``, beside this module) were written by
``python -m racedeck_learned_bot.train``: a linear policy over ``racedeck.rl``'s LACORSA
encoding, first taught to choose as the heuristic bot does, then improved by policy
gradient in the Gymnasium view against the random and heuristic bots. The bot sees what
every bot sees, its observation and the legal actions, and encodes them exactly as the
environment it was trained in did.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path

import numpy as np

from racedeck.core.bot import Bot, BotFault, BotSpec
from racedeck.core.game import AnyGame
from racedeck.core.model import Action, Observation, Options
from racedeck.core.rng import Rng
from racedeck.hookspecs import hookimpl
from racedeck_learned_bot.policy import Policy

__version__ = "0.1.0"

GAME = "lacorsa"
PLAYERS = 2
"""The seats the shipped weights were trained for (the encoding's size depends on them)."""
WEIGHTS = "weights.npz"


def default_weights() -> Path:
    """Return the path of the weights shipped with the package."""
    return Path(str(resources.files(__package__).joinpath(WEIGHTS)))


class LearnedBot(Bot):
    """Plays the legal action its trained policy scores highest."""

    def __init__(self, weights: str | Path | None = None) -> None:
        self.policy = Policy.load(weights if weights is not None else default_weights())
        self.game: AnyGame | None = None
        self.encoder: object = None

    def bind_game(self, game: AnyGame) -> None:
        """Keep the game, to build its encoder when the match starts."""
        self.game = game

    def start_match(self, game: str, seat: int, players: int, options: Options) -> None:
        """Build the encoder the policy was trained with, for this match's seats and options."""
        import racedeck.rl

        assert self.game is not None
        encoder = racedeck.rl.encoder(self.game, options, players)
        if self.policy.w.shape != (encoder.size, encoder.actions):
            raise BotFault(
                f"the learned bot was trained for {PLAYERS} players; this match has {players}"
            )
        self.encoder = encoder

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Return the legal action with the highest score."""
        import racedeck.rl

        encoder = self.encoder
        assert isinstance(encoder, racedeck.rl.Encoder)
        menu = encoder.menu(legal)
        x = encoder.encode(observation)
        index = self.policy.best(x, np.fromiter(menu, np.intp))
        return menu[index]  # type: ignore[no-any-return]


@hookimpl
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register the learned bot for LACORSA."""
    register(
        BotSpec(
            name="learned",
            factory=LearnedBot,
            description="a linear policy trained with racedeck.rl: imitation, policy gradient",
            version=__version__,
            games=(GAME,),
        )
    )
