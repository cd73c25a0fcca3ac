"""The Cards: switch cards; each test quotes the rulebook sentence it pins."""

from __future__ import annotations

from racedeck.games.detroit_cleveland import data
from racedeck.games.detroit_cleveland.actions import Play
from racedeck.games.detroit_cleveland.options import track_of
from racedeck.games.detroit_cleveland.state import Switch
from racedeck.games.detroit_cleveland.switch_cards import (
    IDENTITY,
    colours_in_force,
    still_in_force,
    switch_mapping,
)
from tests.games.detroit_cleveland.support import (
    SPREAD,
    B,
    G,
    K,
    O,
    R,
    Y,
    act,
    options,
    play_card,
    race_state,
)

OPTS = options()
TRACK = track_of(OPTS)


def test_switch_cards_swap_two_colours() -> None:
    """The switch cards cause the two colors shown on the card to be switched until the end
    of the player's next turn. For example, Peg plays card #47 that switches black and
    yellow. Until the end of Peg's next turn, any time the black car appears on a movement
    card, the yellow car is moved; any time the yellow car appears on a movement card, the
    black car is moved."""
    assert data.SWITCHES[47] == (K, Y)
    state = race_state(OPTS, SPREAD, {0: (47, 39, 17), 1: (38, 7, 5)})
    state, _ = act(state, 0, Play(card=47))
    assert state.switches == (Switch(a=K, b=Y, seat=0, until=2),)
    state, made = play_card(state, 1, 7)  # turn 1: G6 Y4 K2 -> G6 K4 Y2
    assert [(e.car, e.steps) for e in made] == [(G, 6), (K, 4), (Y, 2)]
    state, made = play_card(state, 0, 39)  # turn 2, Peg's next turn: black 5 -> yellow 5
    assert [(e.car, e.steps) for e in made] == [(Y, 5)]
    assert state.switches == ()
    state, made = play_card(state, 1, 5)  # turn 3: the switch is over
    assert [e.car for e in made] == [B, Y, R, G]


def test_a_switch_works_when_only_one_colour_is_on_the_card() -> None:
    """The two colors need not both appear on a movement card for the color switch to take
    effect. For example, card #7 normally moves green six spaces, yellow four spaces, and
    black two spaces. When this switch is in effect, it still moves green six spaces, but
    moves black four spaces and yellow two spaces."""
    assert data.MOVES[7] == ((G, 6), (Y, 4), (K, 2))
    switch = (Switch(a=K, b=Y, seat=1, until=1),)
    state = race_state(OPTS, SPREAD, {0: (38,), 1: (39,)}, switches=switch)
    state, made = play_card(state, 0, 38)
    assert [(e.car, e.steps) for e in made] == [(G, 5)]
    state = race_state(OPTS, SPREAD, {0: (39,), 1: (38,)}, switches=switch)
    state, made = play_card(state, 0, 39)
    assert [(e.car, e.steps) for e in made] == [(Y, 5)]


def test_switches_apply_in_the_order_played_and_never_to_white() -> None:
    y_to_k = Switch(a=K, b=Y, seat=0, until=4)
    k_to_g = Switch(a=K, b=G, seat=1, until=5)
    assert colours_in_force((y_to_k,))[:7] == (K, B, G, Y, R, O, data.WHITE)
    # Yellow moves black; then black and green swap: yellow now moves green.
    both = colours_in_force((y_to_k, k_to_g))
    assert both == (G, B, K, Y, R, O, data.WHITE)
    assert switch_mapping([(K, Y), (K, G)]) == both
    assert colours_in_force(()) == IDENTITY


def test_a_switch_stops_as_the_turn_it_names_ends() -> None:
    early = Switch(a=K, b=Y, seat=0, until=2)
    late = Switch(a=R, b=G, seat=1, until=3)
    assert still_in_force((early, late), 1) == (early, late)
    assert still_in_force((early, late), 2) == (late,)
    assert still_in_force((early, late), 3) == ()
    assert still_in_force((), 7) == ()
