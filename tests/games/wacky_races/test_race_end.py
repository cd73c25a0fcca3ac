"""The finish, the race's result and the championship sheet.

``race_end.py`` implements them.
"""

from __future__ import annotations

from racedeck.games.wacky_races.actions import EndTurn, PlayStep
from racedeck.games.wacky_races.events import (
    RaceEnded,
    RaceSetUp,
)
from tests.games.wacky_races.helpers import (
    FINISH,
    D,
    F,
    G,
    P,
    engine,
    make,
    of,
    play,
    play_on,
)


def test_the_first_racer_onto_the_finish_wins() -> None:
    """Published: the player whose racer reaches the Finish Line tile first wins."""
    state = make(players=2, pos=(20, 19, 18, 17, 16, 15), hands=((D, F, P), (D,)))
    events, after = play_on(state, PlayStep(cards=(D,)))
    assert after.finished == (0,) and after.phase == "over"
    ended = of(events, RaceEnded)[0]
    assert ended.order[:3] == (0, 1, 2)
    assert after.phase == "over"
    result = G.result(after)
    assert result.ranks == (1, 2) and result.scores == (1, 2) and result.unit == "places"


def test_a_neutral_reaching_the_finish_first_ends_the_race_unless_the_option_says_so() -> None:
    """Gap decision: a neutral racer first onto the finish wins; option ``neutral_finish``."""
    state = make(players=2, pos=(14, 15, 20, 4, 5, 8), round=1, active=1, deck=(D, D, D))
    _, after = play_on(state, EndTurn())
    assert after.phase == "over" and after.finished == (2,)
    assert G.result(after).scores == (3, 2)
    state = make(
        players=2,
        pos=(14, 15, 20, 4, 5, 8),
        round=1,
        active=1,
        deck=(D, D, D),
        options={"neutral_finish": "continues"},
    )
    _, after = play_on(state, EndTurn())
    assert after.phase == "turn" and after.finished == (2,) and after.pos[2] == FINISH


def test_championship_sums_points_over_races() -> None:
    """Championship sheet (option ``races``): 6/4/3/2/1 points a race by place."""
    state = make(players=2, pos=(20, 19, 18, 17, 16, 15), options={"races": 2})
    events, state = play(state, PlayStep(cards=(D,)))
    assert state.phase == "race_end"  # the next race's shuffles are the engine's
    events, state = engine(state, 4)
    assert of(events, RaceEnded)[0].points == (6, 4)
    assert state.race == 1 and state.points == (6, 4)
    assert of(events, RaceSetUp)[0].first_seat == 1  # the next race starts with the next seat
    assert state.phase == "turn" and state.active == 1
    result = G.result(state)
    assert result.unit == "championship points" and result.ranks == (1, 2)
