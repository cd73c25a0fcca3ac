"""The pytest plugin: pytest loads it through pytest11; its fixtures and helper work."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Sequence

import pytest

from racedeck.core.bot import Bot, BotSpec
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng
from racedeck.plugins import Registry
from racedeck.pytest_plugin import PlayMatch, assert_plays_legally
from tests.bots.helpers import REGISTRY


def test_the_plugin_is_registered_through_pytest11(pytestconfig: pytest.Config) -> None:
    points = {ep.name: ep.value for ep in importlib.metadata.entry_points(group="pytest11")}
    assert points.get("racedeck") == "racedeck.pytest_plugin"
    assert pytestconfig.pluginmanager.has_plugin("racedeck")


def test_the_play_fixture_plays_a_quick_match(racedeck_play: PlayMatch) -> None:
    outcome = racedeck_play("lacorsa", ["heuristic", "random", "random"], seed=4)
    assert outcome.forfeit is None and len(outcome.result.ranks) == 3
    assert len(outcome.state.results) == 1, "the quick option set: one race"


def test_the_registry_fixture_holds_the_installed_games(racedeck_registry: Registry) -> None:
    assert set(REGISTRY.games) <= set(racedeck_registry.games)


@pytest.mark.parametrize("game", sorted(REGISTRY.games))
def test_the_heuristic_bots_play_only_legal_actions(game: str) -> None:
    count = REGISTRY.games[game].max_players - REGISTRY.games[game].min_players + 1
    assert assert_plays_legally("heuristic", game, registry=REGISTRY, seeds=range(2)) == 2 * count


class _Cheat(Bot):
    """Plays legally until its third decision, then makes up an action."""

    def __init__(self) -> None:
        self.decisions = 0

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        self.decisions += 1
        return legal[0] if self.decisions < 3 else legal[0].__class__.__new__(legal[0].__class__)


def test_the_helper_fails_on_an_illegal_action_naming_the_match() -> None:
    cheat = BotSpec(name="cheat", factory=_Cheat, description="")
    with pytest.raises(AssertionError, match=r"cheat in lacorsa, 2 players, seed 0, seat 0: "):
        assert_plays_legally(cheat, "lacorsa", registry=REGISTRY, seeds=[0])
