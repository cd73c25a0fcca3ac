"""Every game's evaluation: the judge of a playout cut at a horizon.

An evaluation is a pure function of the state (it draws nothing, so a search stays
seeded), ranks every seat where it judges, and says what the game's own measure of who is
ahead says: positions, cards left, money, Speed points to come.
"""

from __future__ import annotations

import random
from itertools import islice

import pytest
from msgspec.structs import replace

from benchmarks.calibrate_evaluation import Agreement, calibrate, positions
from racedeck.bots.evaluation import evaluation_of
from racedeck.core.model import Result
from racedeck.games.famous500 import evaluation as famous500
from racedeck.games.lacorsa import evaluation as lacorsa
from racedeck.games.wacky_races import evaluation as wacky_races
from tests.bots.helpers import REGISTRY
from tests.playing import random_turns

_OPTIONS = {"detroit-cleveland": {"races": 1}, "lacorsa": {"races": 1}}
TABLES = [
    ("lacorsa", 2),
    ("lacorsa", 6),
    ("famous-500", 2),
    ("wacky-races", 2),
    ("wacky-races", 6),
    ("detroit-cleveland", 2),
    ("detroit-cleveland", 6),
]


def test_each_game_is_judged_by_the_evaluation_it_declares() -> None:
    # LACORSA, Famous 500 and Wacky Races give their package's evaluation as their estimate.
    for name, module in (
        ("lacorsa", lacorsa),
        ("famous-500", famous500),
        ("wacky-races", wacky_races),
        ("detroit-cleveland", None),
    ):
        game = REGISTRY.game(name)
        assert game.capabilities.evaluation
        assert evaluation_of(game) == game.estimate
        if module is not None:
            state = next(
                s
                for s, _ in random_turns(game, game.parse_options({}), 2, 1)
                if module.evaluate(s) is not None
            )
            assert game.estimate(state) == module.evaluate(state)


@pytest.mark.parametrize(("game_name", "players"), TABLES)
def test_an_evaluation_ranks_every_seat_draws_nothing_and_judges_the_race(
    game_name: str, players: int
) -> None:
    """At every step of a random match: all seats ranked, the same answer twice, the
    global generator untouched; and it judges most of the match."""
    game = REGISTRY.game(game_name)
    options = game.parse_options(_OPTIONS.get(game_name, {}))
    evaluate = evaluation_of(game)
    assert evaluate is not None
    judged = steps = 0
    for state, _ in random_turns(game, options, players, 5):
        before = random.getstate()
        verdict = evaluate(state)
        assert random.getstate() == before
        steps += 1
        if verdict is None:
            continue
        judged += 1
        assert verdict == evaluate(state)
        assert len(verdict.ranks) == len(verdict.scores) == players
        assert min(verdict.ranks) == 1 and max(verdict.ranks) <= players
    assert judged > steps / 2


def test_lacorsa_judges_the_car_further_round_ahead_with_hands_alike() -> None:
    """A race ends when a car runs out of cards; at equal hands, spaces decide."""
    game = REGISTRY.game("lacorsa")
    state = next(
        s
        for s, _ in random_turns(game, game.parse_options({"races": 1}), 2, 3)
        if s.phase == "move"
    )
    cars = len(state.owner)
    hands = (state.hands[0],) * cars
    for ahead in range(cars):
        spaces = tuple(10 if car == ahead else 5 - car for car in range(cars))
        judged = lacorsa.evaluate(replace(state, spaces=spaces, hands=hands))
        assert judged is not None
        seat = state.owner[ahead]
        assert judged.ranks[seat] == 1
        # Championship points: 9 to the first place (the rulebook's 9-6-4-3-2-1), and the
        # seat's other car behind the others' best.
        assert judged.scores[seat] > judged.scores[1 - seat]


def test_famous500_counts_the_repairs_a_car_still_needs_against_its_speed_points() -> None:
    """Equal Speed points: the car whose columns last the race is ahead; a car below zero
    has lost."""
    game = REGISTRY.game("famous-500")
    state = next(
        s for s, _ in random_turns(game, game.parse_options({}), 2, 2) if s.phase == "choose"
    )
    healthy, worn = (40, 40, 40, 5), (0, 0, 0, 5)
    judged = famous500.evaluate(replace(state, cars=(worn, healthy)))
    assert judged is not None and judged.ranks == (2, 1) and judged.scores == (5, 5)
    judged = famous500.evaluate(replace(state, cars=((40, -1, 40, 30), healthy)))
    assert judged is not None and judged.ranks == (2, 1)


def test_wacky_races_places_the_racers_as_the_race_end_would() -> None:
    """Further ahead first, then who arrived first; neutral racers take places too."""
    game = REGISTRY.game("wacky-races")
    checked = 0
    for state, _ in islice(random_turns(game, game.parse_options({}), 3, 4), 400):
        judged = wacky_races.evaluate(state)
        if judged is None:
            continue
        checked += 1
        cars = range(len(state.field))  # the neutral racers take places too
        order = sorted(cars, key=lambda c: (-state.pos[c], state.stamp[c]))
        if not state.finished:
            # One race: the score is the place among every racer, first best.
            assert judged.scores == tuple(order.index(seat) + 1 for seat in range(3))
    assert checked > 50


def test_the_calibration_finds_the_evaluation_better_than_chance_and_a_fixed_one_at_it() -> None:
    """``benchmarks/calibrate_evaluation``: LACORSA's evaluation orders most pairs of seats
    as the playouts end; an evaluation that ties everyone scores exactly chance."""
    game = REGISTRY.game("lacorsa")
    options = game.parse_options({"races": 1})
    states = positions(game, options, 2, 40, 1)
    found = calibrate(game, lacorsa.evaluate, options, 2, states, 0, 1)
    assert found.judged > 30 and found.pairs / found.pair_count > 0.65

    def tied(state: object) -> Result:
        return Result(ranks=(1, 1), scores=(0, 0), unit="points")

    level = calibrate(game, tied, options, 2, states, 0, 1)
    assert level.pair_count and level.pairs / level.pair_count == 0.5
    # Naming both seats leaders foresees no decided playout's winner.
    assert isinstance(level, Agreement) and level.leaders == 0 and level.judged == 40
