"""The runner finds a bot's answer among a long legal list without going through it."""

from __future__ import annotations

from collections.abc import Sequence

from racedeck.core.asking import LegalIndex
from racedeck.core.bot import Bot, BotSpec
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng
from racedeck.core.runner import run_match
from racedeck.games.famous500.actions import Design
from racedeck.games.famous500.customizing_your_race_car import designs
from racedeck.plugins import Registry


def test_a_listed_answer_is_found_by_identity_once_the_list_came_twice() -> None:
    legal = designs(18)
    index = LegalIndex()
    assert index.find(legal, legal[700]) is None  # first sight: only remembered
    assert index.find(legal, legal[700]) is legal[700]
    assert index.find(legal, legal[3]) is legal[3]


def test_an_equal_copy_or_a_stranger_is_left_to_choose() -> None:
    legal = designs(18)
    index = LegalIndex()
    index.find(legal, legal[0])
    copy = Design(
        tires=legal[5].tires, fuel=legal[5].fuel, engine=legal[5].engine, speed=legal[5].speed
    )
    assert copy == legal[5] and copy is not legal[5]
    assert index.find(legal, copy) is None
    assert index.find(legal, object()) is None


def test_the_index_forgets_everything_at_once_when_full() -> None:
    index = LegalIndex()
    lists = [
        tuple(Design(tires=i, fuel=j, engine=0, speed=0) for j in range(20)) for i in range(40)
    ]
    for legal in lists:
        index.find(legal, legal[0])
    assert len(index._seen) <= LegalIndex._LIMIT
    kept = lists[-1]
    assert index.find(kept, kept[4]) is kept[4]


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
