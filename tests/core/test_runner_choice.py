"""A bot's answer counts by equality with an offered action, whether or not it is the copy handed."""

from __future__ import annotations

from collections.abc import Sequence

from racedeck.core.bot import Bot, BotSpec
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng
from racedeck.core.runner import run_match
from racedeck.games.famous500.actions import Design
from racedeck.plugins import Registry


class _CopyDesigner(Bot):
    """Answers a design with an equal copy of the one it picked, never the object offered."""

    reads_observation = False

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        pick = rng.choice(legal)
        if isinstance(pick, Design):
            return Design(tires=pick.tires, fuel=pick.fuel, engine=pick.engine, speed=pick.speed)
        return pick


def test_copies_and_offered_objects_play_the_same_race(registry: Registry) -> None:
    game = registry.game("famous-500")
    options = game.parse_options({})
    copier = BotSpec(name="random", factory=_CopyDesigner, description="")
    plain = registry.bot("random", "famous-500")
    for seed in range(5):
        by_copy = run_match(game, options, [copier, copier], seed)
        offered = run_match(game, options, [plain, plain], seed)
        assert by_copy.faults == [] and by_copy.state == offered.state
