"""Scoring: the drivers' and the teams' championships, with the rulebook's tie-break."""

from __future__ import annotations

from msgspec.structs import replace

from racedeck.cli.render import describe_result
from racedeck.games.lacorsa.options import LacorsaOptions
from racedeck.games.lacorsa.scoring import team_label, team_standings, teams
from racedeck.games.lacorsa.state import LacorsaState

from .helpers import GAME

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
    assert "teams' championship: 1. seats 0+1: 33 points" in GAME.render(state)
    alone = replace(state, options=LacorsaOptions(races=3))
    assert "teams' championship" not in GAME.render(alone)
    assert "teams' championship" not in " ".join(GAME.result(alone).summary)
