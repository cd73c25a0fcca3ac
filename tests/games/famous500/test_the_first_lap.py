"""The First Lap: sections, cards played face down, Speed points and costs."""

from __future__ import annotations

import pytest

from racedeck.core.errors import IllegalActionError
from racedeck.core.step import apply
from racedeck.games.famous500.actions import Race
from racedeck.games.famous500.data import builtin_cards, builtin_track

from .helpers import (
    GAME,
    MONACO_BLACK,
    MONACO_GREY,
    MONACO_WHITE,
    act,
    racing,
    section,
)


def test_three_types_of_section_charge_three_columns() -> None:
    """The First Lap: Race tracks have three types of sections:
    - BLACK sections indicate hairpin turns;
    - GREY sections indicate gentler curves; and
    - WHITE sections indicate straightaways.
    """
    track = builtin_track("monaco")
    assert {s.kind for s in track.sections} == {"black", "grey", "white"}
    table = builtin_cards("standard")
    columns = {t.kind: t.column for t in table.sections}
    assert columns == {"black": "tires", "grey": "fuel", "white": "engine"}
    # 200 on each kind: the cost lands in that kind's column only.
    for index, expected in (
        (MONACO_BLACK, (3, 0, 0)),
        (MONACO_GREY, (0, 2, 0)),
        (MONACO_WHITE, (0, 0, 1)),
    ):
        state = section(racing(hands=((40, 120, 200), (60, 100, 180)), section=index), 200, 60)
        before = (6, 5, 4)
        assert tuple(b - a for a, b in zip(state.cars[0][:3], before, strict=True)) == expected


def test_both_drivers_choose_a_card_face_down_at_once() -> None:
    """Each section, you and your opponent will choose a card from your hand and play it
    facedown. Once you're both ready, turn your card over, revealing how fast you've chosen
    to drive through the current section of track."""
    state = racing()
    assert GAME.next_step(state).seats == (0, 1)
    assert [a.card for a in GAME.legal_actions(state, 0)] == [40, 120, 160]  # type: ignore[union-attr]
    with pytest.raises(IllegalActionError, match="not in seat 0's hand"):
        apply(GAME, state, 0, Race(card=60))
    state = act(state, 0, Race(card=160))
    # Seat 1 sees that a card is down, not which.
    seen = GAME.observe(state, 1)
    assert seen.opponent_laid and seen.revealed == (0, 0)
    assert "laid: ?" in GAME.presentation.render(state, 1)
    assert "laid: 160" in GAME.presentation.render(state, 0)
    assert GAME.next_step(state).seats == (1,)
    state = act(state, 1, Race(card=60))
    # The last card down turns both over.
    assert state.history[-1].cards == (160, 60)
    assert GAME.next_step(state).seats == (0, 1)


def test_the_higher_card_earns_2_and_the_lower_1() -> None:
    """The driver who played the higher card earns 2 speed points. The driver who played
    the lower card earns only 1 speed point. Add your points to the current tally in your
    Speed column."""
    state = section(racing(section=MONACO_WHITE), 40, 100)
    assert state.cars[0][3] == 3 + 1
    assert state.cars[1][3] == 3 + 2
    state = section(state, 160, 60)
    assert (state.cars[0][3], state.cars[1][3]) == (6, 6)
    assert [r.points for r in state.history] == [(1, 2), (2, 1)]


def test_worked_example_grey_faster_card_costs_2_fuel_slower_1() -> None:
    """That said, going fast is hard on your car. We're currently in a GREY section of
    track. See how the faster driver's card cost 2 Fuel while the slower driver's card cost
    only 1? Both drivers subtract the costs from the appropriate columns on their sheet.

    The proposed cost table charges grey sections per card (0 for 40-80, 1 for 100-140,
    2 for 160-200), so the example is pinned with 160 (2 Fuel) against 100 (1 Fuel).
    """
    state = racing(hands=((40, 120, 160), (60, 100, 180)), section=MONACO_GREY)
    assert GAME.setup(state.options).kinds[MONACO_GREY] == 1
    after = section(state, 160, 100)
    assert after.cars[0] == (6, 5 - 2, 4, 3 + 2)
    assert after.cars[1] == (6, 5 - 1, 4, 3 + 1)
    assert after.history[-1].cards == (160, 100)
