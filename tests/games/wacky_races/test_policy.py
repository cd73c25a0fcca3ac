"""Wacky Races' learned policy: its stored weights, what it sees, its play."""

from __future__ import annotations

from racedeck.bots.ismcts import Budget, Ismcts
from racedeck.core.runner import run_match
from racedeck.games.wacky_races.actions import EndTurn, PlayStep
from racedeck.games.wacky_races.bots import WackyHeuristic
from racedeck.games.wacky_races.policy import WackyPolicy, features
from racedeck.games.wacky_races.state import WackyObservation
from tests.bots.helpers import (
    REGISTRY,
    policy_decisions_checked,
)
from tests.games.wacky_races.helpers import G, P, make

OPTIONS = G.parse_options({})


def test_guided_playouts_are_the_heuristics_and_the_policy_names_the_favourite() -> None:
    bot = Ismcts(Budget(simulations=5, rollout="guided"))
    bot.bind_game(G)
    bot.start_match(G.name, 0, 3, OPTIONS)
    assert [type(b) for b in bot._policy or ()] == [WackyHeuristic] * 3
    assert [type(b) for b in bot._advisers or ()] == [WackyPolicy] * 3
    assert bot._learned, "ties of visits go to the policy's choice"


def test_guided_playouts_where_a_game_has_no_policy_are_heuristic_playouts() -> None:
    game = REGISTRY.game("detroit-cleveland")
    options = game.parse_options({"races": 1})
    heuristic = REGISTRY.bot("heuristic", "detroit-cleveland")
    ends = []
    for rollout in ("guided", "heuristic"):
        search = REGISTRY.bot("ismcts", "detroit-cleveland").with_parameters(
            simulations=2, rollout=rollout
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
    assert policy_decisions_checked(WackyPolicy, G, OPTIONS) > 100
