"""The special terrain tile of stage two: Swamp, Level Crossing, Crossroads, A.C.M.E. Laboratory.

Rulebook: "una de las cuales es una ficha de terreno especial (Pantano, Paso a nivel, Cruce
o Laboratorio A.C.M.E.)" / "one of which is a special terrain tile (Swamp, Level Crossing,
Crossroads or A.C.M.E. Laboratory)". ``terrain.py`` implements them.
"""

from __future__ import annotations

import random

import pytest

from racedeck.core.errors import IllegalActionError
from racedeck.core.step import apply
from racedeck.games.wacky_races import data
from racedeck.games.wacky_races.actions import EndTurn, PlayStep
from racedeck.games.wacky_races.events import (
    NeutralCardDrawn,
    RacerMoved,
)
from tests.games.wacky_races.helpers import (
    SPECIAL_AT,
    D,
    F,
    G,
    M,
    P,
    circuit,
    make,
    of,
    play,
    play_on,
)


def test_swamp_is_left_with_two_identical_cards_or_three_cards() -> None:
    """Published: a racer on the Swamp is stuck until it plays two identical movement cards,
    or gives up three cards."""
    state = make(players=2, pos=(SPECIAL_AT, 0, 0, 1, 1, 2), hands=((D, F, P), (D,)))
    steps = [a for a in G.legal_actions(state, 0) if isinstance(a, PlayStep)]
    assert steps == [PlayStep(cards=(D, F, P))]
    state = make(players=2, pos=(SPECIAL_AT, 0, 0, 1, 1, 2), hands=((F, F), (D,)))
    steps = [a for a in G.legal_actions(state, 0) if isinstance(a, PlayStep)]
    assert steps == [PlayStep(cards=(F, F))]
    _, after = play(state, PlayStep(cards=(F, F)))
    assert after.pos[0] == SPECIAL_AT + 1 and after.hands[0] == () and after.steps == 1
    stuck = make(players=2, pos=(SPECIAL_AT, 0, 0, 1, 1, 2), hands=((F, P), (D,)))
    with pytest.raises(IllegalActionError, match="Swamp"):
        apply(G, stuck, 0, PlayStep(cards=(F,)), random.Random(0))


HOLDS = {"swamp_holds_neutrals": True}
"""Rules version 1's reading of the Swamp and the neutral racers, kept as an option."""


def test_a_neutral_racer_on_the_swamp_makes_its_first_move() -> None:
    """Realizan un primer movimiento sí o sí, avanzando a la próxima posición.

    Neutral drivers always make a first move, advancing to the next position: from the
    Swamp too. (A proposal may fill a gap, never overrule this sentence.)
    """
    # Cards drawn for the neutrals (from the deck's end): Desert, Prairie, Forest.
    state = make(players=2, pos=(14, 15, SPECIAL_AT, 2, 2, 9), round=1, active=1, deck=(D, P, F))
    events, after = play_on(state, EndTurn())
    first = [e for e in of(events, RacerMoved) if e.car == 2]
    assert first and first[0].cause == "neutral" and after.pos[2] > SPECIAL_AT


def test_swamp_holds_neutrals_keeps_the_version_1_reading() -> None:
    """The option ``swamp_holds_neutrals`` (off by default): a neutral on the Swamp skips the
    first move and leaves when a drawn card repeats a terrain already drawn that round."""
    # Cards drawn (from the deck's end): Forest, Prairie, Forest.
    state = make(
        players=2,
        pos=(14, 15, SPECIAL_AT, 2, 2, 9),
        round=1,
        active=1,
        deck=(F, P, F),
        options=HOLDS,
    )
    events, after = play_on(state, EndTurn())
    swamp_moves = [e for e in of(events, RacerMoved) if e.car == 2]
    assert len(swamp_moves) == 1 and after.pos[2] == SPECIAL_AT + 1
    assert [e.card for e in of(events, NeutralCardDrawn)] == [F, P, F]
    stuck = make(
        players=2,
        pos=(14, 15, SPECIAL_AT, 2, 2, 9),
        round=1,
        active=1,
        deck=(D, P, F),
        options=HOLDS,
    )
    _, after = play_on(stuck, EndTurn())
    assert after.pos[2] == SPECIAL_AT


def test_level_crossing_moves_the_last_racers_ahead() -> None:
    """Published ruling (level crossing): when a racer moves onto it, the racer(s) in last
    place move ahead one tile."""
    tiles = circuit(data.LEVEL_CROSSING)
    state = make(
        players=2, pos=(SPECIAL_AT - 1, 9, 3, 3, 5, 8), tiles=tiles, hands=((M, F, P), (D,))
    )
    events, after = play(state, PlayStep(cards=(M,)))
    moved = [e for e in of(events, RacerMoved) if e.cause == "level_crossing"]
    assert [m.car for m in moved] == [2, 3]
    assert after.pos[2:4] == (4, 4)


def test_crossroads_swaps_the_last_racer_with_the_one_arriving() -> None:
    """Gap decision (proposal): on entry, the last racer swaps places with the racer arriving."""
    tiles = circuit(data.CROSSROADS)
    state = make(
        players=2, pos=(SPECIAL_AT - 1, 9, 3, 4, 5, 8), tiles=tiles, hands=((M, F, P), (D,))
    )
    _, after = play(state, PlayStep(cards=(M,)))
    assert after.pos[2] == SPECIAL_AT and after.pos[0] == 3


def test_acme_laboratory_refreshes_the_last_players_advantage() -> None:
    """Gap decision (proposal): on entry, the last player refreshes one exhausted advantage."""
    tiles = circuit(data.ACME_LABORATORY)
    state = make(
        players=2,
        pos=(SPECIAL_AT - 1, 3, 2, 4, 5, 8),
        tiles=tiles,
        hands=((M, F, P), (D,)),
        exhausted=(0, 6),
    )
    _, after = play(state, PlayStep(cards=(M,)))
    assert after.exhausted == (0, 4)
