"""Making a Pit Stop: declared on dotted sections, a draw and a return, repairs."""

from __future__ import annotations

import random

import pytest
from msgspec.structs import replace

from racedeck.core.errors import IllegalActionError
from racedeck.core.model import ENGINE
from racedeck.core.step import apply, fold
from racedeck.games.famous500.actions import LeavePit, PitStop, Race, Repair, ReturnCard
from racedeck.games.famous500.events import SectionRevealed
from racedeck.games.famous500.state import SectionPlayed

from .helpers import GAME, MONACO_GREY, MONACO_PIT, act, racing, section, settle


def _seat0_pits() -> tuple:  # type: ignore[type-arg]
    state = racing(section=MONACO_PIT, cars=((1, 5, 4, 3), (6, 5, 4, 3)))
    return state, section(state, PitStop(card=40), Race(card=100))


def test_a_pit_stop_keeps_its_card_face_down() -> None:
    """To declare a Pit Stop, simply say “Pit Stop!” and keep your card facedown when it's
    time to reveal."""
    _before, state = _seat0_pits()
    assert state.phase == "pit_return"
    seen = GAME.observe(state, 1)
    assert seen.pits == (True, False)
    assert seen.revealed == (0, 100)
    assert 40 not in seen.revealed
    assert "laid: ? (pit stop, face down)" in GAME.presentation.render(state, 1)
    assert GAME.observe(state, 0).laid == 40


def test_a_pitting_driver_draws_then_returns_a_card_to_the_bottom() -> None:
    """Drivers who make a Pit Stop draw a card from the Pit deck. After viewing their hand,
    they return a card to the bottom of the deck."""
    before, state = _seat0_pits()
    assert before.pit_deck[0] == 80
    assert state.hands[0] == (80, 120, 160)  # the top card, drawn
    assert state.phase == "pit_return" and GAME.next_step(state).seats == (0,)
    assert [a.card for a in GAME.legal_actions(state, 0)] == [80, 120, 160]  # type: ignore[union-attr]
    with pytest.raises(IllegalActionError):
        apply(GAME, state, 0, ReturnCard(card=40))
    state = act(state, 0, ReturnCard(card=160))
    assert state.pit_deck == (140, 200, 160)
    # Only seat 0 knows which card is at the bottom.
    assert GAME.observe(state, 0).pit_deck_known == (0, 0, 160)
    assert GAME.observe(state, 1).pit_deck_known == (0, 0, 0)
    state = act(state, 0, LeavePit())
    # Swap: the face-down pit card goes to the opponent, who now knows it.
    assert state.hands == ((80, 100, 120), (40, 60, 180))
    assert state.history[-1] == SectionPlayed(
        lap=1, section=0, cards=(40, 100), pits=(True, False), points=(0, 2)
    )


def test_both_pitting_the_driver_with_more_speed_points_draws_first() -> None:
    """If both drivers declare a Pit Stop, the one with the most Speed points draws first."""
    state = racing(section=MONACO_PIT, cars=((6, 5, 4, 3), (6, 5, 4, 7)))
    state = section(state, PitStop(card=40), PitStop(card=60))
    assert state.pit_order == (1, 0)
    assert state.hands[1] == (80, 100, 180)
    assert GAME.next_step(state).seats == (1,)
    state = act(act(state, 1, ReturnCard(card=180)), 1, LeavePit())
    assert state.pit_order == (0,) and state.phase == "pit_return"
    assert state.hands[0] == (120, 140, 160)


def test_both_pitting_tied_the_faster_card_before_draws_first() -> None:
    """If both drivers declare a Pit Stop, the one with the most Speed points draws first."""
    history = (
        SectionPlayed(lap=1, section=9, cards=(60, 140), pits=(False, False), points=(1, 2)),
    )
    state = racing(section=MONACO_PIT, lap=2, history=history)
    state = act(state, 0, PitStop(card=40))
    events = apply(GAME, state, 1, PitStop(card=60)).events
    revealed = events[1]
    assert isinstance(revealed, SectionRevealed) and revealed.pit_order == (1, 0)
    # No section before: a coin decides, tossed by the engine and kept in the log.
    fresh = fold(GAME, replace(state, history=()), [events[0]])
    assert fresh.phase == "reveal" and GAME.next_step(fresh).engine
    orders = {
        apply(GAME, fresh, ENGINE, None, random.Random(seed)).events[0].pit_order
        for seed in range(20)
    }
    assert orders == {(0, 1), (1, 0)}


def test_repairs_cost_one_speed_point_for_3_tires_2_fuel_or_1_engine() -> None:
    """The main reason to declare a Pit Stop is to repair your car. For every Speed point you
    spend, your pit crew repairs 3 Tire points, 2 Fuel points, or 1 Engine point."""
    _before, state = _seat0_pits()
    state = act(settle(state), 0, ReturnCard(card=80))
    assert state.phase == "pit_repair"
    assert state.cars[0] == (1, 5, 4, 3)
    state = act(state, 0, Repair(column=0))
    assert state.cars[0] == (4, 5, 4, 2)
    state = act(state, 0, Repair(column=1))
    assert state.cars[0] == (4, 7, 4, 1)
    state = act(state, 0, Repair(column=2))
    assert state.cars[0] == (4, 7, 5, 0)
    # No Speed points left: nothing more to buy.
    assert GAME.legal_actions(state, 0) == (LeavePit(),)
    with pytest.raises(IllegalActionError, match="Speed point"):
        apply(GAME, state, 0, Repair(column=0))


def test_pitting_earns_no_points_and_pays_no_costs_the_other_races_as_usual() -> None:
    """The driver who did not make a Pit Stop earns Speed points and subtracts costs, as
    usual. Drivers in the pit earn no Speed points and subtract no costs. Swap cards and
    advance the penny to the next section of track to continue the race."""
    before = racing(section=MONACO_PIT, hands=((40, 120, 200), (60, 100, 180)))
    state = section(before, PitStop(card=200), Race(card=180))
    # The pitting driver's 200 would cost 1 Engine on the white start straight: not paid.
    assert state.cars[0] == before.cars[0]
    # The racer scores 2 (there is no slower card to beat) and pays 180's 1 Engine.
    assert state.cars[1] == (6, 5, 3, 5)
    state = act(act(settle(state), 0, ReturnCard(card=80)), 0, LeavePit())
    assert state.section == MONACO_PIT + 1 and state.phase == "choose"
    assert 180 in state.hands[0] and 200 in state.hands[1]


def test_pit_stops_repair_and_refuel_with_speed_points() -> None:
    """Making a Pit Stop: Both cars are running low on fuel. Fortunately, this section of track shows a dotted
    line, indicating that it's a Pit Stop. You can spend Speed points here to repair and
    refuel your car."""
    state = racing(section=MONACO_PIT, cars=((6, 0, 4, 3), (6, 1, 4, 3)))
    state = section(state, PitStop(card=40), PitStop(card=60))
    for _ in range(2):
        seat = state.pit_order[0]
        state = settle(state)
        state = act(state, seat, GAME.legal_actions(state, seat)[0])
        state = act(act(state, seat, Repair(column=1)), seat, LeavePit())
    assert state.cars == ((6, 2, 4, 2), (6, 3, 4, 2))
    assert state.phase == "choose"


def test_pit_stops_are_declared_only_on_dotted_sections() -> None:
    """Fortunately, this section of track shows a dotted line, indicating that it's a Pit
    Stop."""
    state = racing(section=MONACO_GREY)
    assert not any(isinstance(a, PitStop) for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalActionError, match="no dotted line"):
        apply(GAME, state, 0, PitStop(card=40))
    pit = replace(state, section=0)
    assert PitStop(card=40) in GAME.legal_actions(pit, 0)
