"""The rulebook's movement examples, rebuilt as positions on a small test track.

The test track (``figures-track.json``) has a three-lane straight, a two-lane curve whose
inside (right) lane has 3 spaces against the outside lane's 5, a straight, a single-lane
pipe and a last straight. The rulebook's figures are not printed in the text; each test
places the cars so that the text's description holds and checks what the rules allow.
"""

from __future__ import annotations

from racedeck.games.detroit_cleveland.actions import Move, Play
from racedeck.games.detroit_cleveland.events import CarMoved, HandRevealed
from racedeck.games.detroit_cleveland.movement import reach
from racedeck.games.detroit_cleveland.rules import track_of
from tests.games.detroit_cleveland.support import (
    GAME,
    B,
    G,
    K,
    O,
    R,
    Y,
    act,
    consequences,
    figures_options,
    race_state,
    space,
)

OPTS = figures_options()
TRACK = track_of(OPTS)


def moves_for(state, seat=0):
    return [a for a in GAME.legal_actions(state, seat) if isinstance(a, Move)]


def can_move(state, car: int, count: int) -> int:
    return reach(TRACK.successors, state.positions, car, count)[1]


def test_figure_1_card_38_moves_green_through_the_curve_between_the_cars_beyond_it() -> None:
    """Chris plays card #38 and moves the green car five spaces through the curve and
    between the cars beyond the curve as shown in figure 1."""
    state = race_state(
        OPTS,
        {"green": "before:3R", "black": "after:1R", "red": "after:1L", "yellow": "grid:1L"},
        {0: (38, 39)},
    )
    state, events = act(state, 0, Play(card=38))
    if not isinstance(events[-1], CarMoved):
        assert Move(car=G, to="after:1C") in moves_for(state)
        state, _ = act(state, 0, Move(car=G, to="after:1C"))
    assert space(OPTS, state, G) == "after:1C"
    # Five spaces took green from before the curve to beyond it: the short inside lane.
    assert TRACK.distances[TRACK.index["after:1C"]] - TRACK.distances[TRACK.index["before:3R"]] > 5


def test_figure_2_card_24_red_blocked_blue_around_green_green_one_space() -> None:
    """Alex plays card #24 and moves the cars as shown in figure 2. Because the red car is
    blocked by the blue and orange cars, it does not move. The blue car moves four spaces
    and must move around the green car as it blocks the short route through the curve. The
    green car moves last and moves forward or diagonally left one space to be blocked by
    three cars."""
    state = race_state(
        OPTS,
        {
            "red": "before:1R",
            "blue": "before:2R",
            "orange": "before:2C",
            "green": "before:4R",
            "black": "curve:2R",
            "yellow": "curve:3C",
        },
        {0: (24, 38)},
    )
    state, events = act(state, 0, Play(card=24))
    moved = [e for e in events if isinstance(e, CarMoved)]
    assert moved[0] == CarMoved(car=R, to="before:1R", steps=0)
    assert moved[1] == CarMoved(car=B, to="curve:2C", steps=4)
    assert space(OPTS, state, B) == "curve:2C"
    assert set(moves_for(state)) == {
        Move(car=G, to="curve:1R"),
        Move(car=G, to="curve:1C"),
    }
    for choice in moves_for(state):
        after, events = act(state, 0, choice)
        assert events[0] == CarMoved(car=G, to=choice.to, steps=1)
        assert can_move(after, G, 1) == 0


def test_figure_3_card_5_blocks_black_and_orange() -> None:
    """In this example, Kim owns the blue and yellow cars and plays card #5, moving the cars
    as shown in figure 3. She moves the blue car six spaces, blocking the black car so it
    will not move. Then she moves the yellow car four spaces, blocking the orange car so it
    now cannot move. Next, she moves the red car two spaces. Finally, she moves the green
    car one space, ending her turn."""
    state = race_state(
        OPTS,
        {
            "black": "after:4C",
            "blue": "curve:4C",
            "orange": "before:1L",
            "green": "before:2C",
            "yellow": "grid:2C",
            "red": "out:1C",
        },
        {0: (5, 38), 1: (39,)},
        owner={"blue": 0, "yellow": 0, "black": 1, "orange": 1},
    )
    state, _ = act(state, 0, Play(card=5))
    assert Move(car=B, to="pipe:1C") in moves_for(state)
    state, _ = act(state, 0, Move(car=B, to="pipe:1C"))
    assert can_move(state, K, 1) == 0
    assert Move(car=Y, to="before:2L") in moves_for(state)
    state, _ = act(state, 0, Move(car=Y, to="before:2L"))
    assert can_move(state, O, 1) == 0
    assert {m.car for m in moves_for(state)} == {R}
    state, _ = act(state, 0, Move(car=R, to="out:3C"))
    assert {m.car for m in moves_for(state)} == {G}
    state, _ = act(state, 0, moves_for(state)[0])
    assert state.card == -1
    assert GAME.next_step(state).seats == (1,)


def test_figure_4_card_8_the_white_car_must_be_yellow() -> None:
    """In this example Sam plays card #8 with the white car on it, moving the cars as shown
    in figure 4. First he moves the blue car six spaces, blocking the black car. Next he
    moves the green car four spaces. Now Sam must choose which car to move for the white
    car. The black car is blocked and cannot be chosen. The orange car can only move one
    space and cannot be chosen. The blue, green, and red cars are on the card and cannot be
    chosen. Thus, Sam must choose to move the yellow car two spaces. He finishes his move by
    moving the red car one space."""
    state = race_state(
        OPTS,
        {
            "black": "after:4C",
            "blue": "curve:4C",
            "orange": "pipe:2C",
            "red": "pipe:4C",
            "yellow": "before:1C",
            "green": "grid:1L",
        },
        {0: (8, 38), 1: (39,)},
    )
    state, events = act(state, 0, Play(card=8))
    assert events[1] == CarMoved(car=B, to="pipe:1C", steps=6)
    assert can_move(state, K, 2) == 0
    assert {m.car for m in moves_for(state)} == {G}
    state, _ = act(state, 0, moves_for(state)[0])
    assert can_move(state, O, 2) == 1
    white = moves_for(state)
    assert white and {m.car for m in white} == {Y}
    state, events = act(state, 0, white[0])
    assert events[0].steps == 2
    assert events[-1] == CarMoved(car=R, to="pipe:5C", steps=1)
    assert state.card == -1


def test_figure_5_card_8_is_unplayable() -> None:
    """Assume, however, that the situation was as shown in figure 5. Sam cannot play card #8
    because after the blue and green cars move, none of the three cars that could move as
    the white car (black, orange, and yellow) can move two spaces. Black cannot move at all
    and the yellow and orange cars can move only one space each. Sam must, therefore, play
    another card."""
    at = {
        "black": "after:4C",
        "yellow": "pipe:1C",
        "orange": "pipe:3C",
        "red": "pipe:5C",
        "blue": "grid:1L",
        "green": "grid:1R",
    }
    state = race_state(OPTS, at, {0: (8, 38)})
    assert can_move(state, K, 2) == 0
    assert can_move(state, Y, 2) == 1
    assert can_move(state, O, 2) == 1
    assert GAME.legal_actions(state, 0) == (Play(card=38),)
    alone = race_state(OPTS, at, {0: (8,), 1: (39,)})
    events = consequences(alone)
    assert events == [HandRevealed(seat=0, cards=(8,))]
