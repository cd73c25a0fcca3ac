"""Every advantage card of the ten racers has its own test case.

Rulebook: "Todos los pilotos disponen para vosotros de cuatro ventajas (habilidades) que
podéis utilizar en cualquier momento de vuestro turno." / "Every driver has four
advantages (abilities) that can be used at any moment during your turn." Each is
exhausted when used; the texts are the research notes' proposals (Drill-a-Way and
Sawtooth are published).
"""

from __future__ import annotations

from typing import Any

import pytest

from racedeck.games.wacky_races import data
from racedeck.games.wacky_races.actions import EndTurn, PlayStep, UseAdvantage
from racedeck.games.wacky_races.events import (
    CardsDrawn,
    CardTaken,
    DastardlyMoved,
    TaskQueued,
    TilesSwapped,
    TrapRemoved,
    TrapSprung,
)
from tests.games.wacky_races.helpers import (
    ARMY,
    PAT,
    RUFUS,
    TRAP,
    D,
    F,
    G,
    M,
    P,
    engine,
    kinds,
    make,
    of,
    play,
    play_on,
)


def cards(effect: str) -> list[Any]:
    """Every (racer, advantage) whose effect is ``effect``, one test case each."""
    return [
        pytest.param(r, i, id=f"{data.RACER_KEYS[r]}-{name.lower().replace(' ', '-')}")
        for r, names in enumerate(data.ADVANTAGE_NAMES)
        for i, name in enumerate(names)
        if data.ADVANTAGE_EFFECTS[r][i] == effect
    ]


def other(racer: int) -> int:
    """A racer for seat 1 that is not ``racer``."""
    return ARMY if racer != ARMY else PAT


def test_the_forty_advantage_cards_are_all_covered() -> None:
    covered = {p.values for e in set(sum(data.ADVANTAGE_EFFECTS, ())) for p in cards(e)}
    assert len(covered) == 40 == 4 * len(data.RACER_KEYS)


@pytest.mark.parametrize(("racer", "index"), cards("cancel"))
def test_cancel_ignores_its_trap_and_is_exhausted(racer: int, index: int) -> None:
    trap = data.CANCELS[racer][index]
    state = make(players=2, racers=(racer, other(racer)), traps={4: trap}, round=0)
    assert UseAdvantage(advantage=index) not in G.legal_actions(state, 0)
    events, after = play(state, PlayStep(cards=(D,)))
    assert of(events, TrapSprung)[0].advantage == index
    assert after.exhausted[0] == 1 << index
    assert after.pos[0] == 4 and after.phase == "turn" and after.active == 0
    # Exhausted, it cancels no more.
    again = make(
        players=2, racers=(racer, other(racer)), traps={4: trap}, round=0, exhausted=(1 << index, 0)
    )
    events, _ = play(again, PlayStep(cards=(D,)))
    assert of(events, TrapSprung)[0].advantage == -1


@pytest.mark.parametrize(("racer", "index"), cards("move"))
def test_move_steps_one_position_without_a_card(racer: int, index: int) -> None:
    state = make(players=2, racers=(racer, other(racer)), pos=(4, 5, 5, 0, 1, 1))
    _events, after = play(state, UseAdvantage(advantage=index))
    assert after.pos[0] == 6  # 5 is full: skipped like any step
    assert after.hands[0] == state.hands[0] and after.steps == 0
    assert after.exhausted[0] == 1 << index
    assert UseAdvantage(advantage=index) not in G.legal_actions(after, 0)


@pytest.mark.parametrize(("racer", "index"), cards("draw"))
def test_draw_takes_two_cards(racer: int, index: int) -> None:
    state = make(players=2, racers=(racer, other(racer)), hands=((D,), (F,)))
    events, after = play(state, UseAdvantage(advantage=index))
    assert of(events, CardsDrawn)[0].cards == (P, M)  # the draw pile's last two cards
    assert after.hands[0] == (D, P, M) and len(after.draw) == len(state.draw) - 2
    short = make(
        players=2,
        racers=(racer, other(racer)),
        hands=((D,), (F,)),
        deck=(M,),
        discard=(3, 3, 3, 3),
        top=D,
    )
    events, after = play(short, UseAdvantage(advantage=index))
    assert of(events, TaskQueued)[0].kind == "draw"  # a reshuffle is the engine's
    events, after = engine(after)
    assert len(after.hands[0]) == 3


@pytest.mark.parametrize(("racer", "index"), cards("steal"))
def test_steal_takes_a_random_card_from_a_racer_within_one_position(racer: int, index: int) -> None:
    state = make(
        players=3,
        racers=(racer, other(racer), 9 if racer != 9 else 8),
        pos=(4, 5, 7, 0, 1, 1),
        hands=((D,), (M, M), (F,)),
    )
    legal = G.legal_actions(state, 0)
    assert UseAdvantage(advantage=index, target=1) in legal
    assert UseAdvantage(advantage=index, target=2) not in legal  # three positions away
    events, after = play(state, UseAdvantage(advantage=index, target=1))
    assert of(events, TaskQueued)[0].kind == "steal"
    events, after = engine(after)
    assert of(events, CardTaken)[0].card == M
    assert after.hands[0] == (D, M) and after.hands[1] == (M,)


@pytest.mark.parametrize(("racer", "index"), cards("swap_ahead"))
def test_swap_ahead_swaps_with_the_racer_directly_ahead(racer: int, index: int) -> None:
    state = make(players=2, racers=(racer, other(racer)), pos=(4, 9, 7, 0, 1, 1))
    legal = G.legal_actions(state, 0)
    assert UseAdvantage(advantage=index, target=2) in legal
    assert UseAdvantage(advantage=index, target=1) not in legal
    _, after = play(state, UseAdvantage(advantage=index, target=2))
    assert after.pos[0] == 7 and after.pos[2] == 4


@pytest.mark.parametrize(("racer", "index"), cards("push_back"))
def test_push_back_sends_a_racer_on_the_same_tile_back_one(racer: int, index: int) -> None:
    state = make(players=2, racers=(racer, other(racer)), pos=(5, 5, 7, 0, 1, 1))
    _, after = play(state, UseAdvantage(advantage=index, target=1))
    assert after.pos[1] == 4 and after.pos[0] == 5


@pytest.mark.parametrize(("racer", "index"), cards("dastardly_back"))
def test_dastardly_back_sends_dastardly_behind_the_last_racer(racer: int, index: int) -> None:
    state = make(players=2, racers=(racer, other(racer)), pos=(5, 5, 7, 2, 2, 3), dastardly=9)
    events, after = play(state, UseAdvantage(advantage=index))
    assert of(events, DastardlyMoved)[0].to == 1 and after.dastardly == 1
    behind = make(players=2, racers=(racer, other(racer)), pos=(5, 5, 7, 2, 2, 3), dastardly=1)
    assert UseAdvantage(advantage=index) not in G.legal_actions(behind, 0)


@pytest.mark.parametrize(("racer", "index"), cards("remove_trap"))
def test_remove_trap_discards_an_adjacent_trap(racer: int, index: int) -> None:
    state = make(
        players=2,
        racers=(racer, other(racer)),
        pos=(5, 9, 7, 0, 1, 1),
        traps={6: TRAP["rockslide"], 8: TRAP["oil_slick"]},
    )
    legal = G.legal_actions(state, 0)
    assert UseAdvantage(advantage=index, target=6) in legal
    assert UseAdvantage(advantage=index, target=8) not in legal
    events, after = play(state, UseAdvantage(advantage=index, target=6))
    assert of(events, TrapRemoved)[0].trap == TRAP["rockslide"]
    assert after.traps[6] == -1 and after.trap_discard[TRAP["rockslide"]] == 1


@pytest.mark.parametrize(("racer", "index"), cards("wild"))
def test_wild_lets_one_card_count_as_any_terrain(racer: int, index: int) -> None:
    state = make(
        players=2,
        racers=(racer, other(racer)),
        pos=(3, 9, 7, 0, 1, 1),
        hands=((M, P), (F,)),
        steps=1,
    )
    assert [a for a in G.legal_actions(state, 0) if isinstance(a, PlayStep)] == []
    _, wild = play(state, UseAdvantage(advantage=index))
    assert wild.wild
    _, after = play(wild, PlayStep(cards=(M,)))
    assert after.pos[0] == 4 and not after.wild
    assert [a for a in G.legal_actions(after, 0) if isinstance(a, PlayStep)] == []


@pytest.mark.parametrize(("racer", "index"), cards("sawtooth"))
def test_sawtooth_swaps_the_tile_with_the_one_ahead(racer: int, index: int) -> None:
    state = make(players=2, racers=(racer, other(racer)), pos=(5, 9, 7, 0, 1, 1))
    tiles = state.tiles
    _, after = play(state, UseAdvantage(advantage=index))
    assert after.tiles[5] == tiles[6] and after.tiles[6] == tiles[5]
    assert after.pos == state.pos  # the racers stay where they are


def test_sawtooth_moves_traps_with_the_tile() -> None:
    """Published ruling: traps travel with their tiles and can trigger at once."""
    state = make(
        players=2,
        racers=(RUFUS, ARMY),
        pos=(5, 9, 7, 0, 1, 1),
        traps={6: TRAP["painted_tunnel"], 8: TRAP["oil_slick"]},
        round=0,
    )
    events, after = play_on(state, UseAdvantage(advantage=1))
    assert kinds(events)[:3] == ["AdvantageUsed", "TilesSwapped", "TrapSprung"]
    assert of(events, TilesSwapped)[0].position == 5
    assert of(events, TrapSprung)[0].car == 0  # the trap came to Rufus's position
    assert after.active == 1  # and ended his turn
    state = make(
        players=2,
        racers=(RUFUS, ARMY),
        pos=(7, 9, 5, 0, 1, 1),
        traps={8: TRAP["oil_slick"]},
        round=0,
    )
    events, after = play_on(state, UseAdvantage(advantage=1))
    assert of(events, TrapSprung)[0].car == 0 and after.pos[0] == 6
    state = make(players=2, racers=(RUFUS, ARMY), pos=(10, 9, 5, 0, 1, 1))
    assert UseAdvantage(advantage=1) not in G.legal_actions(state, 0)  # no tile ahead in stage


def test_advantages_are_refreshed_only_by_the_gas_station_rule() -> None:
    """Exhausted when used; the gas station (and the A.C.M.E. Laboratory) refresh them."""
    state = make(players=1, racers=(PAT,), pos=(3, 0, 0, 1, 1, 2), exhausted=(8,), round=0)
    for _ in range(3):
        state = play(state, state and G.legal_actions(state, 0)[-1])[1]
        if state.phase != "turn":
            break
    assert state.exhausted[0] & 8


def test_four_advantages_usable_at_any_moment_of_the_own_turn() -> None:
    """Todos los pilotos disponen para vosotros de cuatro ventajas (habilidades) que podéis utilizar en cualquier momento de vuestro turno.
    Con ellas tendréis la posibilidad de realizar movimientos adicionales y de hacer un poquito la vida imposible al resto de jugadores.

    Every driver has four advantages (abilities) that can be used at any moment during your turn.
    With them you can make extra moves and make life nearly impossible for the other players.
    """
    assert all(len(names) == 4 for names in data.ADVANTAGE_NAMES)
    move = UseAdvantage(advantage=3)  # Pat Pending's Rocket Booster
    state = make(players=2, pos=(3, 0, 0, 1, 1, 2), hands=((D, F, P), (D,)))
    assert move in G.legal_actions(state, 0)  # before any step
    assert not G.legal_actions(state, 1)  # never in another player's turn
    _, mid = play(state, PlayStep(cards=(D,)))
    assert move in G.legal_actions(mid, 0)  # between steps
    done = make(players=2, pos=(6, 0, 0, 1, 1, 2), hands=((D,), (D,)), steps=3)
    assert move in G.legal_actions(done, 0)  # after the third step
    _events, after = play(done, move)
    assert after.pos[0] == 7 and after.exhausted[0] == 8
    assert move not in G.legal_actions(replace_turn(after), 0)


def replace_turn(state):  # type: ignore[no-untyped-def]
    from msgspec.structs import replace

    return replace(state, phase="turn", active=0, steps=0)


def test_a_seat_robbed_between_its_turns_starts_its_next_turn_with_three_cards() -> None:
    """Los jugadores comienzan la partida y cada uno de sus turnos con tres cartas de movimiento en la mano.

    A steal leaves its victim two cards; the victim draws up to three as its turn starts.
    """
    racer, index = cards("steal")[0].values
    state = make(
        players=2,
        racers=(racer, other(racer)),
        pos=(4, 5, 7, 0, 1, 1),
        hands=((D, F, P), (M, M, F)),
        round=0,
    )
    _, state = play(state, UseAdvantage(advantage=index, target=1))
    _, state = engine(state)
    assert len(state.hands[1]) == 2
    events, state = play(state, EndTurn())
    while G.next_step(state).engine:
        more, state = engine(state)
        events = events + more
    assert state.active == 1 and state.phase == "turn"
    assert len(state.hands[1]) == 3
    assert [e.seat for e in of(events, CardsDrawn)][-1] == 1
