"""Scoring: a race's points, the drivers' and the teams' championships, the tie-break."""

from __future__ import annotations

import random

from msgspec.structs import replace

from racedeck.cli.render import describe_result
from racedeck.core.model import ENGINE
from racedeck.core.runner import run_match
from racedeck.core.step import apply
from racedeck.games.lacorsa.events import RaceScored
from racedeck.games.lacorsa.options import LacorsaOptions
from racedeck.games.lacorsa.scoring import team_label, team_standings, teams
from racedeck.games.lacorsa.state import LacorsaState
from racedeck.plugins import load_registry

from .helpers import GAME, race

PLACE_POINTS = (9, 6, 4, 3, 2, 1)


def finished(players: int, results: tuple[tuple[int, ...], ...]) -> LacorsaState:
    """Return a drivers' championship of pairs over, its races ending in ``results``."""
    state = GAME.initial_state(LacorsaOptions(races=len(results), pairs_as_teams=True), players)
    points = [0] * players
    for order in results:
        for place, car in enumerate(order):
            points[car] += PLACE_POINTS[place]
    return replace(state, phase="over", race=len(results), results=results, points=tuple(points))


# Seats 0+1 and 2+3 both score 33; seats 0+1 won two races, seats 2+3 one.
TIED = ((0, 2, 3, 1), (1, 2, 3, 0), (2, 0, 3, 1))


def test_a_teams_tie_goes_to_the_most_victories() -> None:
    """The driver (or team of drivers) with the most points after 7 races is World Champion. A tie is resolved based on the most victories."""
    state = finished(4, TIED)
    first, second = team_standings(state)
    assert (first.seats, first.points, first.victories, first.rank) == ((0, 1), 33, 2, 1)
    assert (second.seats, second.points, second.victories, second.rank) == ((2, 3), 33, 1, 2)
    assert GAME.result(state).summary[-1] == (
        "teams' championship: 1. seats 0+1: 33 points, 2 victories; "
        "2. seats 2+3: 33 points, 1 victory"
    )


def test_five_drivers_make_two_pairs_and_a_team_of_one() -> None:
    """Drivers may form teams in pairs and combine their point totals for a Teams' championship.

    With five drivers the fifth has no partner: a team of one, labelled ``seat 4``.
    """
    assert teams(5) == ((0, 1), (2, 3), (4,))
    assert teams(6) == ((0, 1), (2, 3), (4, 5))
    assert team_label((4,)) == "seat 4" and team_label((2, 3)) == "seats 2+3"
    state = finished(5, ((4, 0, 2, 1, 3),))
    # Seat 4 and seats 0+1 both have 9 points; seat 4 won the race.
    assert GAME.result(state).summary[-1] == (
        "teams' championship: 1. seat 4: 9 points, 1 victory; "
        "2. seats 0+1: 9 points, 0 victories; 3. seats 2+3: 6 points, 0 victories"
    )
    assert [t.seats for t in team_standings(state)] == [(4,), (0, 1), (2, 3)]


def test_the_teams_ranking_shows_in_the_standings_and_the_rendering() -> None:
    """The teams' championship is in the result, the final standings and the state's picture."""
    state = finished(4, TIED)
    standings = describe_result("LACORSA Grand Prix", ["a", "b", "c", "d"], GAME.result(state))
    assert "teams' championship: 1. seats 0+1: 33 points, 2 victories" in standings
    assert "teams' championship: 1. seats 0+1: 33 points" in GAME.presentation.render(state)
    alone = replace(state, options=LacorsaOptions(races=3))
    assert "teams' championship" not in GAME.presentation.render(alone)
    assert "teams' championship" not in " ".join(GAME.result(alone).summary)


def test_leading_car_wins_and_points_follow_the_grand_prix_scale() -> None:
    """The leading car takes the victory!

    Scoring is based on the system used in Grand Prix racing from 1962 to 1991.

    • 9 points are awarded for first place
    • 6 points are awarded for second place
    • 4 points are awarded for third place
    • 3 points are awarded for fourth place
    • 2 points are awarded for fifth place
    • 1 point is awarded for sixth place
    """
    state = race([5, 4, 3, 2, 1, 0], [0, 1, 2, 3, 4, 5], {c: "" for c in range(6)})
    state = replace(state, phase="score")
    (event,) = apply(GAME, state, ENGINE, None, random.Random(0)).events
    assert event == RaceScored(race=0, places=(0, 1, 2, 3, 4, 5), points=(9, 6, 4, 3, 2, 1))


def test_championship_runs_seven_races_by_default() -> None:
    """Championship points are awarded based on finishing order after each race, and the driver with the most points after seven races is crowned the World Champion.

    Each card deal is a race.
    One deal of the cards.
    The driver (or team of drivers) with the most points after 7 races is World Champion.
    Use the championship table scorepad to record race results.
    Shuffle, deal, qualify, and go!
    """
    registry = load_registry(entry_points=False)
    outcome = run_match(GAME, LacorsaOptions(), [registry.bot("random", "lacorsa")] * 4, 3)
    assert len(outcome.state.results) == 7
    assert outcome.state.options.races == 7
    totals = outcome.result.scores
    assert sum(totals) == 7 * (9 + 6 + 4 + 3)
    best = max(totals)
    assert (
        all(r == 1 for r, t in zip(outcome.result.ranks, totals, strict=True) if t == best)
        or totals.count(best) > 1
    )


def test_team_points_are_combined_for_both_cars() -> None:
    """Point totals are combined for both race cars, and scores are recorded for teams and drivers (individual cars)."""
    state = GAME.initial_state(LacorsaOptions(races=1), 2)
    state = replace(state, phase="over", race=1, results=((2, 0, 3, 1),), points=(6, 3, 9, 4))
    result = GAME.result(state)
    assert result.scores == (9, 13)
    assert result.ranks == (2, 1)
    assert state.points == (6, 3, 9, 4), "each car's own points are kept"


def test_championship_ties_go_to_most_victories() -> None:
    """A tie is resolved based on the most victories."""
    state = GAME.initial_state(LacorsaOptions(races=2), 4)
    # Seats 0 and 1 both have 12 points; seat 1 won a race, seat 0 did not.
    results = ((1, 0, 2, 3), (2, 0, 3, 1))
    points = [0, 0, 0, 0]
    for places in results:
        for place, car in enumerate(places):
            points[car] += (9, 6, 4, 3)[place]
    state = replace(state, phase="over", race=2, results=results, points=tuple(points))
    assert points[0] == 12 and points[1] == 12
    result = GAME.result(state)
    assert result.ranks[1] < result.ranks[0]


def test_drivers_may_pair_up_as_teams() -> None:
    """Drivers may form teams in pairs and combine their point totals for a Teams' championship."""
    state = GAME.initial_state(LacorsaOptions(races=1, pairs_as_teams=True), 4)
    state = replace(state, phase="over", race=1, results=((0, 2, 1, 3),), points=(9, 4, 6, 3))
    result = GAME.result(state)
    assert "seats 0+1: 13" in result.summary[-1]
    assert "seats 2+3: 9" in result.summary[-1]


def test_after_scoring_the_next_race_is_dealt() -> None:
    """Score points (see below) and get ready to race again."""
    state = race([1, 0], [0, 1], {0: "", 1: ""}, options=LacorsaOptions(races=2))
    state = replace(state, phase="score")
    state = apply(GAME, state, ENGINE, None, random.Random(0)).state
    assert state.phase == "deal" and state.race == 1 and state.points == (9, 6)
    assert GAME.next_step(state).engine
    state = apply(GAME, state, ENGINE, None, random.Random(0)).state
    assert state.phase == "qualify" and all(len(h) == 13 for h in state.hands)
    assert state.played == () and state.order == ()


def test_only_position_scores_not_distance() -> None:
    """The only goal is to stay ahead of your rivals."""
    near = race([1, 0], [0, 1], {0: "", 1: ""})
    far = race([1, 0], [0, 60], {0: "", 1: ""})
    for state in (near, far):
        state = replace(state, phase="score")
        (event,) = apply(GAME, state, ENGINE, None, random.Random(0)).events
        assert event.points == (9, 6)  # type: ignore[union-attr]
