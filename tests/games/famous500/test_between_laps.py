"""Between laps: the trailing driver discards a card and draws from the pit deck."""

from __future__ import annotations

from racedeck.games.famous500.actions import Discard

from .helpers import GAME, act, racing, section

LAST = 9
"""Monaco's last section (Rascasse)."""


def test_the_driver_with_fewer_speed_points_discards_and_draws() -> None:
    """Between laps, the driver with the fewest Speed points must discard a card, removing
    it from the game. He then draws a new card from the top of the Pit deck."""
    state = racing(cars=((6, 5, 4, 3), (6, 5, 4, 10)), section=LAST)
    state = section(state, 40, 180)
    assert state.phase == "discard" and state.trailing == 0
    assert GAME.next_step(state).seats == (0,)
    assert GAME.legal_actions(state, 1) == ()
    assert [a.card for a in GAME.legal_actions(state, 0)] == [120, 160, 180]  # type: ignore[union-attr]
    state = act(state, 0, Discard(card=120))
    assert state.discards == ((0, 120),)
    assert state.hands[0] == (80, 160, 180)
    assert state.pit_deck == (140, 200)
    assert 120 not in (*state.hands[0], *state.hands[1], *state.pit_deck)


def test_a_tie_makes_the_driver_of_the_slower_last_card_discard() -> None:
    """If tied, the driver who played the slowest card on the previous section must
    discard."""
    state = racing(cars=((6, 5, 4, 3), (6, 5, 4, 4)), section=LAST)
    # Seat 0 plays the faster card and catches up to a tie: seat 1 played slower.
    state = section(state, 160, 60)
    assert state.cars[0][3] == state.cars[1][3] == 5
    assert state.trailing == 1


def test_the_trailing_driver_starts_the_new_lap() -> None:
    """Armed with new knowledge of the available cards, the trailing driver advances both
    pennies to mark the start of the new lap."""
    state = section(racing(cars=((6, 5, 4, 10), (6, 5, 4, 3)), section=LAST), 40, 180)
    assert state.trailing == 1 and state.hands[1] == (40, 60, 100)
    state = act(state, 1, Discard(card=60))
    assert state.hands[1] == (40, 80, 100)
    assert (state.lap, state.section, state.phase) == (2, 0, "choose")
    assert GAME.observe(state, 0).discards == GAME.observe(state, 1).discards
