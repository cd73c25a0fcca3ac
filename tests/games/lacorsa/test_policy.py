"""LACORSA's learned policy: its stored weights, its play, and the search it guides."""

from __future__ import annotations

import random
from functools import partial

import pytest

from racedeck.bots.ismcts import Budget, Ismcts
from racedeck.core.bot import BotSpec
from racedeck.core.model import Action, Observation, Options
from racedeck.core.rng import Rng
from racedeck.core.runner import run_match
from racedeck.games.lacorsa.actions import PLAY_ONE
from racedeck.games.lacorsa.bots import LacorsaHeuristic
from racedeck.games.lacorsa.policy import LacorsaPolicy, features
from racedeck.games.lacorsa.state import LacorsaObservation
from tests.bots.helpers import (
    HEURISTIC,
    LACORSA,
    ONE_RACE,
    REGISTRY,
    play,
    policy_decisions_checked,
)


def test_learned_playouts_ask_the_policy_for_playouts_and_for_the_favoured_choice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bot = Ismcts(Budget(simulations=5, rollout="distilled"))
    bot.bind_game(LACORSA)
    bot.start_match(LACORSA.name, 0, 2, ONE_RACE)
    assert bot._policy is not None and bot._policy is bot._advisers
    assert [type(b) for b in bot._policy] == [LacorsaPolicy] * 2
    asked: list[int] = []
    act = LacorsaPolicy.act

    def counting(self: LacorsaPolicy, *args: object) -> Action:
        asked.append(1)
        return act(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(LacorsaPolicy, "act", counting)
    outcome, _ = play([BotSpec(name="s", factory=lambda: bot, description=""), HEURISTIC])
    assert outcome.faults == []
    assert len(asked) > 5 * 20, "the policy played the playouts' decisions"


def test_learned_playouts_where_a_game_has_no_policy_are_heuristic_playouts() -> None:
    game = REGISTRY.game("detroit-cleveland")
    options = game.parse_options({"races": 1})
    bots = []
    for rollout in ("distilled", "heuristic"):
        bot = Ismcts(Budget(simulations=2, rollout=rollout))  # type: ignore[arg-type]
        bot.bind_game(game)
        bot.start_match(game.name, 0, 2, options)
        bots.append(bot)
    assert [type(b) for b in bots[0]._advisers or ()] == [type(b) for b in bots[1]._advisers or ()]
    heuristic = REGISTRY.bot("heuristic", "detroit-cleveland")
    seats = [
        [
            BotSpec(
                name="s", factory=partial(Ismcts, Budget(simulations=2, rollout=r)), description=""
            ),
            heuristic,
        ]
        for r in ("distilled", "heuristic")
    ]
    first, second = (run_match(game, options, s, 3) for s in seats)
    assert first.result == second.result


def test_the_heuristic_is_still_the_adviser_of_heuristic_playouts() -> None:
    bot = Ismcts(Budget(simulations=3, rollout="heuristic"))
    bot.bind_game(LACORSA)
    bot.start_match(LACORSA.name, 0, 2, ONE_RACE)
    assert [type(b) for b in bot._advisers or ()] == [LacorsaHeuristic] * 2


def test_the_bots_scores_are_the_weights_of_the_features_names() -> None:
    """The bot adds its weights up a group at a time; the sums are those of the names the
    trainer fits, at every decision of matches at every table."""
    assert policy_decisions_checked(LacorsaPolicy, LACORSA, ONE_RACE) > 100


def test_where_visits_tie_the_search_plays_the_policys_choice() -> None:
    """Two simulations visit two actions once each: a tie, which the policy's choice takes
    (the favourite is tried first). Before, the first legal action took every tie."""
    checked = 0

    class Comparing(LacorsaPolicy):
        def start_match(self, game: str, seat: int, players: int, options: Options) -> None:
            self.search = Ismcts(Budget(simulations=2, rollout="distilled", bias=4.0))
            self.search.bind_game(LACORSA)
            self.search.start_match(game, seat, players, options)

        def act(self, observation: Observation, legal: list[Action], rng: Rng) -> Action:
            nonlocal checked
            chosen = super().act(observation, legal, rng)
            if len(legal) > 2:
                assert self.search.act(observation, legal, random.Random(checked)) == chosen
                assert sorted(self.search.last_visits)[-2:] == [1, 1]
                checked += 1
            return chosen

    seats = [BotSpec(name="comparing", factory=Comparing, description=""), HEURISTIC]
    outcome = run_match(LACORSA, ONE_RACE, seats, 11)
    assert outcome.faults == []
    assert checked > 10


def test_most_tried_prefers_the_given_action_only_among_the_most_visited() -> None:
    from racedeck.bots.search_tree import most_tried

    a, b, c = (PLAY_ONE[0][card] for card in (3, 9, 17))
    table = {a: [2.0, 1.0], b: [2.0, 0.0], c: [1.0, 1.0]}
    assert most_tried(table, [a, b, c]) == (a, 2.0)
    assert most_tried(table, [a, b, c], prefer=b) == (b, 2.0)
    assert most_tried(table, [a, b, c], prefer=c) == (a, 2.0)


def test_the_policy_keeps_nothing_per_hand_it_has_seen() -> None:
    """What the policy keeps is bounded by the card sets a play spends, not by the hands a
    search deals in every world it samples: a new hand with the same plays adds nothing."""
    import msgspec

    from racedeck.games.lacorsa.policy import _spent

    observation, legal = _first_decision()
    car = observation.deciding_car
    features(observation, legal)
    before = _spent.cache_info().currsize
    for extra in range(90, 100):  # the same plays, a card more in hand each time
        hands = list(observation.hands)
        hands[car] = (*observation.hands[car], extra)
        other = msgspec.structs.replace(observation, hands=tuple(hands))
        features(other, legal)
        LacorsaPolicy().scores(other, legal)
    assert _spent.cache_info().currsize == before


def _first_decision() -> tuple[LacorsaObservation, tuple[Action, ...]]:
    """The first seat decision of a seeded two-player match, as its seat sees it."""
    from racedeck.core.model import ENGINE
    from racedeck.core.rng import engine_stream
    from racedeck.core.step import resolve

    state = LACORSA.initial_state(ONE_RACE, 2)
    state = resolve(LACORSA, state, ENGINE, None, engine_stream(11, 0)).state
    seat = LACORSA.next_step(state).seats[0]
    observation = LACORSA.observe(state, seat)
    assert isinstance(observation, LacorsaObservation)
    return observation, LACORSA.legal_actions(state, seat)
