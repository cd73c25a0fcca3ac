"""ISMCTS: determinizations that match the observation, reproducible budgets, real strength."""

from __future__ import annotations

import random
from functools import partial
from itertools import islice

import pytest

from racedeck.bots.ismcts import Budget, Ismcts, rewards
from racedeck.bots.sampling import sampler_for
from racedeck.bots.selection import WIDEN_ABOVE, select_ucb1
from racedeck.core.bot import BotSpec
from racedeck.core.errors import OptionError
from racedeck.core.game import Capabilities
from racedeck.core.model import ENGINE, Result
from racedeck.core.rng import engine_stream
from racedeck.core.step import NO_CHANCE, resolve
from tests.bots.helpers import HEURISTIC, LACORSA, ONE_RACE, RANDOM, REGISTRY, play
from tests.playing import random_turns
from tools.strength import measure, seat_score


def ismcts(budget: Budget) -> BotSpec:
    return BotSpec(name="ismcts", factory=partial(Ismcts, budget), description="")


SAMPLED_GAMES = sorted(name for name, game in REGISTRY.games.items() if sampler_for(game))


def _states(game_name: str, seed: int, stride: int = 1):  # type: ignore[no-untyped-def]
    """Yield (state, seat, options) at every ``stride``-th seat decision of random matches.

    One match per option set the game declares and per player count.
    """
    game = REGISTRY.game(game_name)
    decision = 0
    for raw in game.conformance_options:
        options = game.parse_options(dict(raw))
        for players in range(game.min_players, game.max_players + 1):
            try:
                game.check_players(options, players)
            except OptionError:
                continue
            for state, _ in random_turns(game, options, players, seed):
                step = game.next_step(state)
                if step.engine:
                    continue
                if decision % stride == 0:
                    yield state, step.seats[0], options
                decision += 1


@pytest.mark.parametrize("game_name", SAMPLED_GAMES)
def test_a_determinization_looks_exactly_like_the_observation_it_came_from(game_name: str) -> None:
    game = REGISTRY.game(game_name)
    sample = sampler_for(game)
    assert sample is not None
    rng = random.Random(3)
    checked = 0
    for state, seat, options in _states(game_name, 7, stride=7):
        observation = game.observe(state, seat)
        sampled = sample(observation, options, seat, rng)
        assert game.observe(sampled, seat) == observation
        # Another seat's sealed choice is hidden, so it may still be pending in a sample.
        assert seat in game.next_step(sampled).seats
        assert game.legal_actions(sampled, seat) == game.legal_actions(state, seat)
        checked += 1
    assert checked >= 5


def test_a_determinization_deals_the_unseen_cards_differently() -> None:
    sample = sampler_for(LACORSA)
    assert sample is not None
    state, seat, options = next(_states("lacorsa", 2))
    observation = LACORSA.observe(state, seat)
    other = next(c for c, owner in enumerate(state.owner) if owner != seat)
    hands = {sample(observation, options, seat, random.Random(i)).hands[other] for i in range(5)}
    assert len(hands) > 1


def test_the_same_seed_gives_the_same_search_and_the_same_log() -> None:
    seats = [ismcts(Budget(simulations=30)), HEURISTIC]
    _, first = play(seats, seed=9)
    _, second = play(seats, seed=9)
    assert first == second


def test_a_step_budget_is_counted_in_forward_model_steps() -> None:
    bot = Ismcts(Budget(simulations=None, steps=500))
    seats = [BotSpec(name="ismcts", factory=lambda: bot, description=""), RANDOM]
    play(seats, seed=2)
    assert 500 <= bot.last_steps < 500 + 400, bot.last_steps
    assert bot.last_simulations >= 1


def test_a_wall_clock_budget_stops_the_search() -> None:
    bot = Ismcts(Budget(simulations=None, seconds=0.02))
    seats = [BotSpec(name="ismcts", factory=lambda: bot, description=""), RANDOM]
    outcome, _ = play(seats, seed=2)
    assert not outcome.faults and bot.last_simulations >= 1


def test_a_budget_needs_a_limit() -> None:
    with pytest.raises(ValueError, match="needs simulations"):
        Budget(simulations=None)


def test_rewards_favour_the_better_place_and_score() -> None:
    reward = rewards(Result(ranks=(2, 1, 3), scores=(5, 9, 0), unit="points"))
    assert reward[1] == 1.0 and reward[2] == 0.0 and 0 < reward[0] < 1


def test_seat_score_counts_the_seats_beaten_and_halves_ties() -> None:
    assert seat_score((1, 2, 2), 0) == 1.0
    assert seat_score((1, 2, 2), 1) == 0.25


def test_ismcts_refuses_a_game_it_cannot_sample_with_a_clear_fault() -> None:
    class Unsampled(type(LACORSA)):  # type: ignore[misc]
        name = "unsampled"
        capabilities = Capabilities(hidden_information=True)

    seats = [ismcts(Budget(simulations=5)), RANDOM]
    from racedeck.core.runner import run_match

    outcome = run_match(Unsampled(), ONE_RACE, seats, 1)
    assert outcome.forfeit is not None
    assert "ismcts cannot play unsampled" in outcome.forfeit.reason


def test_ismcts_beats_random_by_a_wide_margin() -> None:
    strength = measure(LACORSA, ONE_RACE, ismcts(Budget(simulations=40)), RANDOM, 2, range(6))
    assert strength.mean > 0.8, strength.describe()


def _cards(state, piles: tuple[str, ...]) -> list[int]:  # type: ignore[no-untyped-def]
    cards: list[int] = []
    for pile in piles:
        value = getattr(state, pile)
        for item in value:
            cards.extend(item if isinstance(item, tuple) else (item,))
    return sorted(card for card in cards if card >= 0)


@pytest.mark.parametrize(
    ("game_name", "piles"),
    [
        ("detroit-cleveland", ("hands", "bid_deck")),
        ("wacky-races", ("hands", "draw")),
        ("wacky-races", ("traps", "trap_deck")),
    ],
)
def test_a_determinization_deals_exactly_the_unseen_cards(
    game_name: str, piles: tuple[str, ...]
) -> None:
    game = REGISTRY.game(game_name)
    sample = sampler_for(game)
    assert sample is not None
    for state, seat, options in _states(game_name, 5, stride=5):
        sampled = sample(game.observe(state, seat), options, seat, random.Random(1))
        assert _cards(sampled, piles) == _cards(state, piles)


def test_heuristic_playouts_are_reproducible_and_legal() -> None:
    seats = [ismcts(Budget(simulations=20, rollout="heuristic")), HEURISTIC]
    first, log = play(seats, seed=5)
    _, again = play(seats, seed=5)
    assert log == again and not first.faults


def test_an_unknown_rollout_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="rollout policy"):
        Budget(rollout="greedy")


def test_the_heuristics_choice_is_expanded_first() -> None:
    table: dict = {}
    legal = ["a", "b", "c"]
    action, _ = select_ucb1(table, legal, 0.7, random.Random(0), lambda: "c")  # type: ignore[arg-type]
    assert action == "c" and set(table) == {"c"}


def test_a_huge_choice_widens_only_as_visits_grow() -> None:
    legal = [f"design-{i}" for i in range(WIDEN_ABOVE * 3)]
    table: dict = {
        legal[0]: [2, 2.0, 2, 0.0],
        legal[1]: [1, 1.0, 1, 0.0],
        legal[2]: [1, 0.0, 1, 0.0],
    }
    action, _ = select_ucb1(table, legal, 0.7, random.Random(0))  # type: ignore[arg-type]
    assert action in legal[:3] and len(table) == 3, "3 tried, 4 visits: no new action yet"
    table[legal[0]][0] = 40
    action, _ = select_ucb1(table, legal, 0.7, random.Random(0))  # type: ignore[arg-type]
    assert len(table) == 4 and action not in legal[:3], "42 visits: a fourth action is tried"


def test_a_famous500_determinization_knows_exactly_what_the_opponent_knows_of_its_hand() -> None:
    game = REGISTRY.game("famous-500")
    sample = sampler_for(game)
    checked = known = 0
    for state, seat, options in _states("famous-500", 11, stride=2):
        other = 1 - seat
        sampled = sample(game.observe(state, seat), options, seat, random.Random(checked))
        assert sampled.opponent_known[other] == state.opponent_known[other]
        assert sampled.opponent_maybe[other] == state.opponent_maybe[other]
        # The opponent's heuristic in a playout reads it from its own observation.
        assert game.observe(sampled, other).opponent_known == state.opponent_known[other]
        checked += 1
        known += bool(state.opponent_known[other])
    assert checked >= 20 and known >= 10, (checked, known)


def test_ismcts_beats_the_famous500_heuristic_it_used_to_lose_to() -> None:
    game = REGISTRY.game("famous-500")
    options = game.parse_options({"laps": 1})
    heuristic = REGISTRY.bot("heuristic", "famous-500")
    # The general budget (whole playouts), not Famous 500's own (``GAME_BUDGETS``).
    search = REGISTRY.bot("ismcts-fast", "famous-500").with_parameters(
        simulations=30, effort="none", horizon="none"
    )
    strength = measure(game, options, search, heuristic, 2, range(100, 106))
    assert strength.mean > 0.5 and strength.wins > strength.matches / 2, strength.describe()
    unbiased = search.with_parameters(bias=0)
    worse = measure(game, options, unbiased, heuristic, 2, range(100, 106))
    assert worse.mean < strength.mean, (worse.describe(), strength.describe())


def _heuristic_decisions(game_name: str, options, seed: int, least: int):  # type: ignore[no-untyped-def]
    """Yield (seat, observation, legal, the heuristic's choice) along a heuristic-only match.

    Only decisions with at least ``least`` legal actions (a hand of cards, a row of bids).
    """
    game = REGISTRY.game(game_name)
    heuristic = REGISTRY.bot("heuristic", game_name)
    bots = []
    for seat in range(2):
        bot = heuristic.factory()
        bot.bind_game(game)
        bot.start_match(game.name, seat, 2, options)
        bots.append(bot)
    state = game.initial_state(options, 2)
    events = 0
    while not (step := game.next_step(state)).over:
        if step.engine:
            turn = resolve(game, state, ENGINE, None, engine_stream(seed, events))
        else:
            seat = step.seats[0]
            legal = game.legal_actions(state, seat)
            observation = game.observe(state, seat)
            action = bots[seat].act(observation, legal, random.Random(0))
            if len(legal) >= least:
                yield seat, observation, legal, action
            turn = resolve(game, state, seat, action, NO_CHANCE)
        state = turn.state
        events += len(turn.events)


def test_detroit_cleveland_search_leaves_the_heuristics_choice_only_on_evidence() -> None:
    """With thin evidence over ~20 cards or bids, the search keeps the heuristic's choice.

    Without the progressive bias, 20 simulations over 20 choices try each about once and
    play one at random: that is how Detroit-Cleveland's search lost to the heuristic.
    """
    game = REGISTRY.game("detroit-cleveland")
    options = game.parse_options({"races": 1})
    # The general search, which searches the bids as well as the cards, to the race's end.
    search = REGISTRY.bot("ismcts-fast", "detroit-cleveland").with_parameters(
        simulations="20", horizon="none", searched="none"
    )
    decisions = list(islice(_heuristic_decisions("detroit-cleveland", options, 1, 10), 10))
    assert len(decisions) == 10

    def agreeing(spec: BotSpec) -> int:
        same = 0
        for i, (seat, observation, legal, favourite) in enumerate(decisions):
            bot = spec.factory()
            bot.bind_game(game)
            bot.start_match(game.name, seat, 2, options)
            same += bot.act(observation, legal, random.Random(i)) == favourite
        return same

    assert agreeing(search) >= 8, "the game's own bias (GAME_BIAS) holds the search"
    assert agreeing(search.with_parameters(bias=0)) <= 5, "unbiased, it strays"


def test_a_decisions_samples_rebuild_the_state_from_the_observation_once() -> None:
    """LACORSA's stream redeals one rebuilt state: the same deals as redealing it each time."""
    from racedeck.games.lacorsa import rules, view

    state, seat, options = next(s for s in _states("lacorsa", 2) if s[0].hands)
    seen = LACORSA.observe(state, seat)
    rebuilt = []
    builder = rules.state_from_observation

    def counting(observation, options):  # type: ignore[no-untyped-def]
        rebuilt.append(1)
        return builder(observation, options)

    rules.state_from_observation = counting  # type: ignore[assignment]
    try:
        stream = list(islice(LACORSA.sample_states(seen, options, seat, random.Random(4)), 6))
    finally:
        rules.state_from_observation = builder  # type: ignore[assignment]
    assert len(rebuilt) == 1
    rng = random.Random(4)
    once = builder(seen, options)
    assert stream == [view.hidden_variant(once, seat, rng) for _ in range(6)]
    assert len({s.hands for s in stream}) > 1


def test_light_playouts_use_the_games_light_bot_and_the_heuristic_as_adviser() -> None:
    """``rollout=light``: Detroit-Cleveland's playouts ask its ``light`` bot, while the
    heuristic still picks each node's favourite for the bias; where a game registers no
    light bot (LACORSA) the search is the heuristic-playout search, step for step."""
    from racedeck.games.detroit_cleveland.bots import DetroitClevelandHeuristic
    from racedeck.games.detroit_cleveland.playout import DetroitClevelandLight

    game = REGISTRY.game("detroit-cleveland")
    options = game.parse_options({"races": 1})
    seat, observation, legal, _ = next(_heuristic_decisions("detroit-cleveland", options, 3, 1))
    bot = Ismcts(Budget(simulations=5, rollout="light"))
    bot.bind_game(game)
    bot.start_match(game.name, seat, 2, options)
    assert bot._policy is not None and bot._advisers is not None
    assert [type(b) for b in bot._policy] == [DetroitClevelandLight] * 2
    assert [type(b) for b in bot._advisers] == [DetroitClevelandHeuristic] * 2
    asked: list[int] = []
    for b in bot._policy:
        b.act = partial(_counting, b.act, asked)  # type: ignore[method-assign]
    bot.act(observation, legal, random.Random(0))
    assert len(asked) > 5 * 20, "the light bot played the playouts' decisions"

    light = [ismcts(Budget(simulations=20, rollout="light")), HEURISTIC]
    guided = [ismcts(Budget(simulations=20, rollout="heuristic")), HEURISTIC]
    assert play(light, seed=5)[1] == play(guided, seed=5)[1]


def _counting(act, asked, *args):  # type: ignore[no-untyped-def]
    asked.append(1)
    return act(*args)


@pytest.mark.parametrize("game_name", SAMPLED_GAMES)
def test_a_search_stops_early_only_when_the_whole_budget_would_choose_the_same(
    game_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once no runner-up can catch the leader, the rest of the budget cannot change the choice.

    So the search stops there, and plays event for event as it would with every simulation
    run (``docs/bots.md``, "Budgets"): the same action at every decision, for fewer playouts.
    """
    game = REGISTRY.game(game_name)
    options = game.parse_options(dict(game.conformance_options[0]))
    budget = Budget(simulations=40, rollout="heuristic")
    decisions = list(islice(_heuristic_decisions(game_name, options, 1, 2), 8))
    assert len(decisions) == 8

    def search(seat: int, observation, legal, i: int) -> tuple[object, int]:  # type: ignore[no-untyped-def]
        bot = Ismcts(budget)
        bot.bind_game(game)
        bot.start_match(game.name, seat, 2, options)
        return bot.act(observation, legal, random.Random(i)), bot.last_simulations

    early = [search(seat, obs, legal, i) for i, (seat, obs, legal, _) in enumerate(decisions)]
    monkeypatch.setattr("racedeck.bots.ismcts.settled", lambda *_: False)
    whole = [search(seat, obs, legal, i) for i, (seat, obs, legal, _) in enumerate(decisions)]
    assert [action for action, _ in early] == [action for action, _ in whole]
    assert all(ran == 40 for _, ran in whole)
    assert all(20 < ran <= 40 for _, ran in early), "never before half the budget"
    assert sum(ran for _, ran in early) < 8 * 40, "some decision was settled early"
