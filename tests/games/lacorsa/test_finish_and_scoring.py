"""Laps, the end of a race, scoring and the championship."""

from __future__ import annotations

import random

import msgspec
from msgspec.structs import replace

from racedeck.core.model import ENGINE
from racedeck.core.runner import run_match
from racedeck.core.step import apply
from racedeck.games.lacorsa.events import RaceScored
from racedeck.games.lacorsa.options import LacorsaOptions
from racedeck.plugins import load_registry

from .helpers import GAME, act, challenge, discard, extend, race


def test_next_lap_starts_from_the_back() -> None:
    """After the leading car's turn, the next lap starts with the last-place racecar.

    Once the leader's turn is completed, the next race lap starts from the back of the field.
    This pattern continues throughout the race.
    """
    state = race([0, 1], [0, 5], {0: "7 8", 1: "5 6"})
    state = act(state, 0, discard(0, "7"))
    state = act(state, 1, discard(1, "5"))
    assert state.lap == 2
    assert state.order[state.cursor] == 0


def test_race_ends_when_a_hand_runs_out_after_the_lap() -> None:
    """The race ends when a racecar runs out of cards.

    Play continues with the next car ahead, and the final lap is completed (all the way to the first-place racecar).
    The next lap will not start if a racecar has run out of cards.
    """
    state = race([0, 1, 2], [0, 3, 6], {0: "7", 1: "5 6", 2: "8 9"})
    state = act(state, 0, discard(0, "7"))
    assert state.phase == "move", "the lap goes on to the cars ahead"
    state = act(state, 1, discard(1, "5"))
    state = act(state, 2, discard(2, "8"))
    assert state.phase == "score", "no new lap starts"
    assert GAME.next_step(state).engine


def test_the_leader_may_end_the_race() -> None:
    """It might be that the leader plays their last card and ends the race."""
    state = race([0, 1], [0, 3], {0: "7 8", 1: "5"})
    state = act(state, 0, discard(0, "7"))
    state = act(state, 1, discard(1, "5"))
    assert state.phase == "score"


def test_a_car_out_of_cards_is_skipped() -> None:
    """If a racecar runs out of cards before it finishes its turn, play passes to the racecar ahead."""
    # Car 0 wins a challenge with its last card: its turn passes to the car ahead.
    state = race([0, 1, 2, 3], [0, 1, 2, 9], {0: "12", 1: "4 5", 2: "6 7", 3: "8"})
    state = challenge(state, "12", "4")
    assert state.order == (1, 0, 2, 3)
    assert state.phase == "move" and state.order[state.cursor] == 2


def test_a_challenged_car_without_cards_loses() -> None:
    """A car with no cards left loses a challenge; the challenger still plays a card."""
    state = race([0, 1, 2], [0, 1, 5], {0: "4 5", 1: "", 2: "6"})
    assert GAME.next_step(state).seats == (0,)
    state = challenge(state, "4", None)
    assert state.order[:2] == (1, 0)


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


def test_hand_sizes_are_public() -> None:
    """It is important to keep track of how many cards your opponents have.

    When asked, drivers must show the number of cards they have left to the other drivers.
    """
    state = race([0, 1, 2], [0, 3, 6], {0: "7 8", 1: "5 6 9", 2: "8"})
    seen = GAME.observe(state, 0)
    assert seen.hand_sizes == (2, 3, 1)
    assert seen.hands[1] is None and seen.hands[2] is None
    assert msgspec.json.encode(seen)


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


def test_there_is_no_finish_line() -> None:
    """There is no finish line.

    In LACORSA, the cards control the movement of the racecars on the game board as players compete for track position.
    """
    state = race([0, 1], [0, 500], {0: "9", 1: "1 2"}, cursor=1)
    assert extend(1, "1") in GAME.legal_actions(state, 1)
    assert act(state, 1, extend(1, "1")).spaces[1] == 501


def test_only_position_scores_not_distance() -> None:
    """The only goal is to stay ahead of your rivals."""
    near = race([1, 0], [0, 1], {0: "", 1: ""})
    far = race([1, 0], [0, 60], {0: "", 1: ""})
    for state in (near, far):
        state = replace(state, phase="score")
        (event,) = apply(GAME, state, ENGINE, None, random.Random(0)).events
        assert event.points == (9, 6)  # type: ignore[union-attr]
