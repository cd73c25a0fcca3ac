"""Wacky Races' learned policy: its stored weights, what it sees, its play."""

from __future__ import annotations

import hashlib
import random
from importlib import resources

import pytest

from racedeck.bots.ismcts import Budget, Ismcts
from racedeck.core.bot import Bot, BotSpec
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng
from racedeck.core.runner import run_match
from racedeck.games.wacky_races.actions import EndTurn, PlayStep
from racedeck.games.wacky_races.bots import WackyHeuristic
from racedeck.games.wacky_races.policy import WEIGHTS, WackyPolicy, features
from racedeck.games.wacky_races.state import WackyObservation
from tests.bots.helpers import REGISTRY
from tests.games.wacky_races.helpers import G, P, make

POLICY_DIGESTS = {"1": "693140612f135e14a1f621d539dd72f3129ff765b90032f8210955032b7d75a2"}
"""Per version, the SHA-256 of the weights file: new weights need a new version, since a
log names the bot's version and a re-run must play as the match did."""

OPTIONS = G.parse_options({})
HEURISTIC = REGISTRY.bot("heuristic", "wacky-races")


def test_the_stored_weights_are_the_ones_their_version_names() -> None:
    raw = resources.files("racedeck.games.wacky_races").joinpath("data", "policy.json")
    digest = hashlib.sha256(raw.read_bytes()).hexdigest()
    assert POLICY_DIGESTS.get(WEIGHTS.version) == digest, (
        "data/policy.json changed: give it a new version (tools.distill --version) and "
        "record its digest here"
    )
    assert REGISTRY.bot("distilled", "wacky-races").version == WEIGHTS.version
    assert WEIGHTS.weights, "the policy was trained"


class _Watching(Bot):
    """The learned policy, checking each answer is legal and the same on a second asking."""

    def __init__(self) -> None:
        self.policy = WackyPolicy()

    def act(self, observation: Observation, legal: list[Action], rng: Rng) -> Action:
        chosen = self.policy.act(observation, legal, rng)
        assert chosen in legal
        assert self.policy.act(observation, legal, random.Random(99)) is chosen
        described = features(observation, legal)
        assert len(described) == len(legal) and all(described)
        return chosen


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_policy_plays_whole_matches_at_every_table_the_same_way_twice(players: int) -> None:
    watched = BotSpec(name="watched", factory=_Watching, description="")
    learned = REGISTRY.bot("distilled", "wacky-races")
    first = run_match(G, OPTIONS, [watched, *[HEURISTIC] * (players - 1)], 7)
    again = run_match(G, OPTIONS, [learned, *[HEURISTIC] * (players - 1)], 7)
    assert first.result == again.result
    assert first.faults == again.faults == []


def test_the_policy_is_stronger_than_the_heuristic_it_never_imitated() -> None:
    """Trained on the search's choices, not the heuristic's: over twenty duplicate deals it
    finishes ahead of the heuristic in most matches."""
    from tools.strength import measure

    learned = REGISTRY.bot("distilled", "wacky-races")
    strength = measure(G, OPTIONS, learned, HEURISTIC, 2, range(5000, 5020))
    assert strength.mean > 0.55, strength.describe()


def test_learned_playouts_ask_the_wacky_races_policy() -> None:
    bot = Ismcts(Budget(simulations=5, rollout="distilled"))
    bot.bind_game(G)
    bot.start_match(G.name, 0, 2, OPTIONS)
    assert bot._policy is not None and [type(b) for b in bot._policy] == [WackyPolicy] * 2
    assert bot._policy is bot._advisers and bot._learned


def test_guided_playouts_are_the_heuristics_and_the_policy_names_the_favourite() -> None:
    bot = Ismcts(Budget(simulations=5, rollout="guided"))
    bot.bind_game(G)
    bot.start_match(G.name, 0, 3, OPTIONS)
    assert [type(b) for b in bot._policy or ()] == [WackyHeuristic] * 3
    assert [type(b) for b in bot._advisers or ()] == [WackyPolicy] * 3
    assert bot._learned, "ties of visits go to the policy's choice"


def test_guided_playouts_where_a_game_has_no_policy_are_heuristic_playouts() -> None:
    game = REGISTRY.game("famous-500")
    options = game.parse_options({})
    heuristic = REGISTRY.bot("heuristic", "famous-500")
    ends = []
    for rollout in ("guided", "heuristic"):
        search = REGISTRY.bot("ismcts", "famous-500").with_parameters(
            simulations=3, effort="none", horizon="none", rollout=rollout
        )
        ends.append(run_match(game, options, [search, heuristic], 3).result)
    assert ends[0] == ends[1]


def test_the_policy_sees_the_trap_dastardly_would_lay_ahead_of_the_leader() -> None:
    """Dastardly follows the last card played and, past every racer, lays a trap (the rule
    ``dastardly`` pins): ending the turn on a Prairie sends him to the Prairie at 5, just
    ahead of the leading racer at 4."""
    state = make(players=2, pos=(4, 3, 2, 2, 3, 4), top=P, dastardly=4, round=0)
    observation = G.observe(state, 0)
    assert isinstance(observation, WackyObservation)
    legal = G.legal_actions(state, 0)
    described = dict(zip(legal, features(observation, legal), strict=True))
    ending = described[next(a for a in legal if isinstance(a, EndTurn))]
    assert "end dastardly trap 1 leading" in ending
    for action, names in described.items():
        if isinstance(action, PlayStep):
            assert any(n.startswith("step plan ") for n in names)
            assert any(n.startswith("step dastardly ") for n in names)


def test_the_choice_of_racer_is_weighed_by_racer() -> None:
    state = G.initial_state(OPTIONS, 2)
    observation = G.observe(state, 0)
    legal = G.legal_actions(state, 0)
    described = features(observation, legal)
    assert [names for names in described] == [
        [f"choose racer {a.racer}"]  # type: ignore[attr-defined]
        for a in legal
    ]


def test_the_bots_scores_are_the_weights_of_the_features_names() -> None:
    """The bot looks its weights up by role and key; the sums are those of the names the
    trainer fits, at every decision of matches at every table."""
    from racedeck.bots.linear import weigh

    checked = 0

    class Checking(WackyPolicy):
        def act(self, observation: Observation, legal: list[Action], rng: Rng) -> Action:
            nonlocal checked
            fast = self.scores(observation, legal)
            slow = weigh(self.weights, features(observation, legal))
            assert fast == pytest.approx(slow, abs=1e-9)
            checked += 1
            return super().act(observation, legal, rng)

    for players in (2, 4, 6):
        seats = [BotSpec(name="checking", factory=Checking, description="")] * players
        run_match(G, OPTIONS, seats, players)
    assert checked > 100
