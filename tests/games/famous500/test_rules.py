"""The wiring in ``rules.py``: one turn per decision with what follows, the fold, no state."""

from __future__ import annotations

import random

import msgspec
import pytest
from msgspec.structs import replace

from racedeck.core.errors import IllegalActionError, OptionError, UnknownEventError
from racedeck.core.model import ENGINE, Event
from racedeck.core.step import apply, fold
from racedeck.games.famous500.actions import (
    Design,
    Discard,
    KeepCards,
    LeavePit,
    PitStop,
    Race,
    ReturnCard,
)
from racedeck.games.famous500.customizing_your_race_car import design_set, designs
from racedeck.games.famous500.data import builtin_cards
from racedeck.games.famous500.events import (
    CardDiscarded,
    CardDrawn,
    CardLaid,
    Dealt,
    PitLeft,
    RaceFinished,
    SectionRevealed,
)
from racedeck.games.famous500.hands import add, pair, remove
from racedeck.games.famous500.options import Famous500Options
from racedeck.games.famous500.race_setup import compiled_setup
from racedeck.games.famous500.state import SectionPlayed

from .helpers import GAME, MONACO_BLACK, MONACO_PIT, act, fresh, racing

LAST = 9
"""Monaco's last section (Rascasse)."""


class _Stray(Event, frozen=True, tag="stray"):
    """An event of another game."""


def test_folding_an_unknown_event_raises() -> None:
    with pytest.raises(UnknownEventError, match="_Stray"):
        GAME.evolve(fresh(), _Stray())  # type: ignore[arg-type]


def test_the_last_card_down_reveals_and_swaps_in_the_same_turn() -> None:
    state = act(racing(), 0, Race(card=120))
    turn = apply(GAME, state, 1, Race(card=100))
    assert [type(e) for e in turn.events] == [CardLaid, SectionRevealed]
    # Each event folded once, in order: folding the events again gives the same state.
    assert fold(GAME, state, turn.events) == turn.state
    assert turn.state.phase == "choose" and turn.state.section == 2


def test_a_car_out_finishes_the_race_in_the_same_turn() -> None:
    state = racing(hands=((40, 120, 200), (60, 100, 180)), cars=((2, 5, 4, 9), (6, 5, 4, 0)))
    state = act(replace(state, section=MONACO_BLACK), 0, Race(card=200))
    turn = apply(GAME, state, 1, Race(card=60))
    assert [type(e) for e in turn.events] == [CardLaid, SectionRevealed, RaceFinished]
    assert GAME.next_step(turn.state).over


def test_a_pit_stop_draws_in_the_same_turn_as_the_reveal() -> None:
    state = act(racing(section=MONACO_PIT), 0, PitStop(card=40))
    turn = apply(GAME, state, 1, Race(card=100))
    assert [type(e) for e in turn.events] == [CardLaid, SectionRevealed, CardDrawn]
    assert turn.state.phase == "pit_return"
    state = act(turn.state, 0, ReturnCard(card=160))
    turn = apply(GAME, state, 0, LeavePit())
    assert [type(e) for e in turn.events] == [PitLeft]
    assert turn.state.phase == "choose"


def test_the_coin_toss_waits_for_the_engine() -> None:
    """Both pitting, tied, on the race's first section: the seat's turn ends at the cards."""
    state = act(racing(section=MONACO_PIT), 0, PitStop(card=40))
    turn = apply(GAME, state, 1, PitStop(card=60))
    assert [type(e) for e in turn.events] == [CardLaid]
    assert GAME.next_step(turn.state).engine
    engine = apply(GAME, turn.state, ENGINE, None, random.Random(1))
    assert [type(e) for e in engine.events] == [SectionRevealed, CardDrawn]
    # A seat's turn never draws: with a section before, the same tie needs no coin.
    history = (
        SectionPlayed(lap=1, section=9, cards=(60, 140), pits=(False, False), points=(1, 2)),
    )
    state = act(racing(section=MONACO_PIT, lap=2, history=history), 0, PitStop(card=40))
    assert len(apply(GAME, state, 1, PitStop(card=60)).events) == 3


def test_the_discard_draws_and_starts_the_next_lap_in_the_same_turn() -> None:
    state = act(racing(cars=((6, 5, 4, 3), (6, 5, 4, 10)), section=LAST), 0, Race(card=40))
    state = act(state, 1, Race(card=180))
    turn = apply(GAME, state, 0, Discard(card=120))
    assert [type(e) for e in turn.events] == [CardDiscarded, CardDrawn]
    assert (turn.state.lap, turn.state.section, turn.state.phase) == (2, 0, "choose")
    # With the pit deck empty there is nothing to draw: the lap starts at once.
    empty = replace(state, pit_deck=(), deck_known=())
    turn = apply(GAME, empty, 0, Discard(card=120))
    assert [type(e) for e in turn.events] == [CardDiscarded]
    assert turn.state.lap == 2


def test_the_engine_acts_only_to_deal_and_to_toss_a_coin() -> None:
    state = fresh()
    assert GAME.next_step(state).engine
    state = apply(GAME, state, ENGINE, None, random.Random(2)).state
    assert not GAME.next_step(state).engine
    with pytest.raises(IllegalActionError, match="not the engine's turn"):
        apply(GAME, state, ENGINE, None, random.Random(2))


def test_sealed_steps_wait_for_the_drivers_who_have_not_answered() -> None:
    dealt = Dealt(deal=1, hands=((40, 60, 80), (100, 120, 140)), pit_deck=(160, 180, 200))
    state = GAME.evolve(fresh(), dealt)
    assert GAME.next_step(state).seats == (0, 1)
    state = act(state, 1, KeepCards())
    assert GAME.next_step(state).seats == (0,)
    design = replace(state, phase="design", start=(0, 0))
    state = act(design, 0, Design(tires=6, fuel=6, engine=6, speed=0))
    assert GAME.next_step(state).seats == (1,)


def test_an_action_of_another_kind_is_explained() -> None:
    state = racing()
    assert GAME.explain_illegal(state, 0, None) == "a driver must choose an action"
    assert "LeavePit is not a choice for seat 0" in GAME.explain_illegal(state, 0, LeavePit())
    assert "Discard is not a choice in phase 'choose'" in GAME.explain_illegal(
        state, 0, Discard(card=40)
    )


def test_the_game_object_holds_nothing_but_its_decoders() -> None:
    assert set(vars(GAME)) == {"event_decoder", "action_decoder"}
    act(act(racing(), 0, Race(card=40)), 1, Race(card=60))
    assert set(vars(GAME)) == {"event_decoder", "action_decoder"}


def test_equal_options_share_one_compiled_setup() -> None:
    assert compiled_setup(Famous500Options()) is compiled_setup(Famous500Options())
    assert GAME.initial_state(Famous500Options(laps=2), 2).setup.laps == 2
    # A card table holds mappings, so such options cannot be hashed: compiled each time.
    table = msgspec.to_builtins(builtin_cards("standard"))
    options = GAME.parse_options({"cards_data": table})
    with pytest.raises(TypeError):
        hash(options)
    assert compiled_setup(options) == compiled_setup(Famous500Options())


def test_designs_are_one_plain_tuple_per_difficulty() -> None:
    assert type(designs(18)) is tuple and designs(18) is designs(18)
    assert design_set(18) == frozenset(designs(18))
    assert len(designs(0)) == 1


def test_hands_stay_sorted_and_pairs_change_one_seat() -> None:
    assert add((40, 120), 60) == (40, 60, 120)
    assert remove((40, 60, 120), 60) == (40, 120)
    assert pair((1, 2), 0, 5) == (5, 2) and pair((1, 2), 1, 5) == (1, 5)


def test_a_race_longer_than_the_pit_deck_allows_is_refused_however_it_is_set_up() -> None:
    """Seven laps would leave a driver with no card (the pit deck lasts three between-laps
    draws): options built by hand are refused where the race is set up, not played."""
    with pytest.raises(OptionError, match="laps must be 1 to 4, got 7"):
        GAME.initial_state(Famous500Options(laps=7), 2)
