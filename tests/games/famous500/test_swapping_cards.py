"""The First Lap: swapping cards with your opponent, and completing the lap."""

from __future__ import annotations

from racedeck.games.famous500.data import builtin_track

from .helpers import GAME, MONACO_GREY, act, racing, section, settle


def test_each_driver_takes_the_card_the_other_played() -> None:
    """Once you're done scoring, each driver takes the card played by his opponent. The
    penny then advances to the next section of track."""
    state = section(racing(section=MONACO_GREY), 120, 180)
    assert state.hands == ((40, 160, 180), (60, 100, 120))
    assert state.section == MONACO_GREY + 1 and state.phase == "choose"
    # Each now knows a card the other holds; it is public record.
    assert GAME.observe(state, 0).opponent_known == (120,)
    assert GAME.observe(state, 1).opponent_known == (180,)


def test_a_lap_is_once_around_the_track_and_a_race_three_laps() -> None:
    """Continue playing cards, earning Speed points, subtracting your costs, swapping cards,
    and advancing the penny until you've made it once around the track."""
    state = racing(cars=((30, 30, 30, 0), (30, 30, 30, 0)), section=0)
    sections = len(builtin_track("monaco").sections)
    laps = 0
    while state.phase != "over":
        if state.phase == "choose":
            state = section(state, state.hands[0][0], state.hands[1][0])
        elif state.phase == "discard":
            state = act(state, state.trailing, GAME.legal_actions(state, state.trailing)[0])
            laps += 1
            assert (state.section, state.phase) == (0, "choose")
        else:
            state = settle(state)
    assert laps == 2
    assert len(state.history) == 3 * sections
    assert state.history[-1].lap == 3
