"""An example racedeck plugin: the ``frontrunner`` LACORSA bot."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from racedeck.core.bot import Bot, BotSpec
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng
from racedeck.games.lacorsa.actions import Discard, Extend, Play
from racedeck.games.lacorsa.data import play_total
from racedeck.games.lacorsa.state import LacorsaObservation
from racedeck.hookspecs import hookimpl

__version__ = "0.1.0"


class Frontrunner(Bot):
    """Races hard while its hand is full, then plays its cheapest cards."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Extend when it can; otherwise play high early and low late."""
        assert isinstance(observation, LacorsaObservation)
        extends = [a for a in legal if isinstance(a, Extend)]
        if extends:
            return extends[0]
        plays = [a for a in legal if isinstance(a, Play | Discard)]
        hand = observation.hands[observation.deciding_car] or ()
        fighting = observation.phase in ("qualify", "challenge")
        if fighting and len(hand) > 6:
            return max(plays, key=lambda a: play_total(a.cards))
        return min(plays, key=lambda a: (len(a.cards), play_total(a.cards)))


@hookimpl
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register the frontrunner bot for LACORSA."""
    register(
        BotSpec(
            name="frontrunner",
            factory=Frontrunner,
            description="qualifies and challenges hard early, then plays cheap",
            version=__version__,
            games=("lacorsa",),
        )
    )
