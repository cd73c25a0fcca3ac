"""Between laps: the trailing driver discards a card and draws from the pit deck."""

from __future__ import annotations

import io
import json

import pytest

from racedeck.core.errors import OptionError
from racedeck.core.log import LogWriter
from racedeck.core.runner import run_match
from racedeck.games.famous500.actions import Discard
from racedeck.games.famous500.between_laps import MAX_LAPS
from racedeck.plugins import load_registry

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


def test_every_lap_up_to_the_longest_race_draws_a_card_and_keeps_three_in_hand() -> None:
    """He then draws a new card from the top of the Pit deck.

    The pit deck's three cards last three between-laps draws (discards leave the game), so
    every race of 1 to ``MAX_LAPS`` (4) laps plays to its end with three cards in every hand.
    """
    assert MAX_LAPS == 4
    spec = load_registry(None, entry_points=False).bot("heuristic", GAME.name)
    for laps in range(1, MAX_LAPS + 1):
        options = GAME.parse_options({"laps": laps})
        finished = 0
        for seed in range(8):
            buffer = io.BytesIO()
            outcome = run_match(GAME, options, [spec, spec], seed, writer=LogWriter(buffer))
            assert outcome.forfeit is None and not outcome.faults
            events = [json.loads(line) for line in buffer.getvalue().splitlines()]
            kinds = [e["event"]["type"] for e in events if e["kind"] == "event"]
            assert kinds.count("card_discarded") == kinds.count("card_drawn") - kinds.count(
                "card_returned"
            )
            state = outcome.state
            if "below zero" not in " ".join(GAME.result(state).summary):  # reached the finish
                finished += 1
                assert len(state.hands[0]) == len(state.hands[1]) == 3
        assert finished, f"no heuristic race of {laps} laps reached the finish"


def test_a_race_longer_than_the_pit_deck_lasts_is_refused() -> None:
    """Between laps, the driver with the fewest Speed points must discard a card, removing
    it from the game. He then draws a new card from the top of the Pit deck.

    A fifth lap would start with an empty pit deck: refused when the options are read."""
    with pytest.raises(OptionError) as refused:
        GAME.parse_options({"laps": MAX_LAPS + 1})
    assert str(refused.value) == (
        "famous-500: laps must be 1 to 4, got 5 (the pit deck's three cards last three "
        "between-laps draws, and discards leave the game)"
    )


def test_a_version_1_log_of_a_long_race_replays_under_its_own_rules() -> None:
    """Rules version 1 let 1 to 20 laps be played; its logs replay under version 1."""
    old = GAME.under_rules("1")
    assert old.rules_version == "1" and old.parse_options({"laps": 20}).laps == 20
    assert GAME.under_rules("2") is GAME
    with pytest.raises(OptionError, match="rules version '9' is not one this engine plays"):
        GAME.under_rules("9")
