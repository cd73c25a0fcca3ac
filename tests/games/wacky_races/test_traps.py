"""Every trap has its own test; each ends the victim's turn and is discarded.

Rulebook: "Si un jugador se mueve a una posición que contiene una carta de trampa deberá
detenerse y sufrir los efectos de esta, perdiendo el turno." / "If a player moves to a
position that holds a trap card, they must stop there and suffer its effects, losing the
turn." The trap texts are the research notes' proposals (Painted Tunnel and Switcheroo are
published).
"""

from __future__ import annotations

from racedeck.games.wacky_races import data
from racedeck.games.wacky_races.actions import EndTurn, PlayStep, UseAdvantage
from racedeck.games.wacky_races.events import (
    AdvantageExhausted,
    CardTaken,
    HandDiscarded,
    TaskQueued,
    TrapSprung,
    TurnEnded,
)
from tests.games.wacky_races.helpers import (
    ARMY,
    PAT,
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

# Army Surplus cancels only the Giant Hammer; Pat Pending only the Painted Tunnel.
VICTIM = (ARMY, PAT)


def _spring(trap: str, engine_too: bool = True, **fields: object):  # type: ignore[no-untyped-def]
    """Seat 0 steps from 3 onto a trap on 4 (round 0, so no neutral racers move after).

    The engine then ends the turn (unless ``engine_too`` is False): the events and the state
    are those after it."""
    fields.setdefault("pos", (3, 9, 0, 0, 1, 1))
    fields.setdefault("round", 0)
    fields.setdefault("racers", VICTIM)
    state = make(players=2, traps={4: TRAP[trap]}, **fields)  # type: ignore[arg-type]
    card = PlayStep(cards=(fields.get("card", D),))  # type: ignore[arg-type]
    events, after = play_on(state, card) if engine_too else play(state, card)
    sprung = of(events, TrapSprung)
    assert sprung and sprung[0].car == 0 and sprung[0].advantage == -1
    assert after.traps[4] == -1 and after.trap_discard[TRAP[trap]] == 1
    assert of(events, TurnEnded)[0].seat == 0
    return events, after


def test_painted_tunnel_only_loses_the_turn() -> None:
    _events, after = _spring("painted_tunnel")
    assert after.pos[0] == 4 and after.active == 1
    assert len(after.hands[0]) == 3  # still refills


def test_switcheroo_swaps_with_the_closest_racer_behind_within_three() -> None:
    _, after = _spring("switcheroo", pos=(3, 2, 0, 0, 1, 1))
    assert after.pos[0] == 2 and after.pos[1] == 4
    _, alone = _spring("switcheroo", pos=(3, 9, 9, 10, 10, 12))
    assert alone.pos[0] == 4  # nobody within three positions behind: no swap


def test_oil_slick_sends_the_racer_back_one() -> None:
    _, after = _spring("oil_slick")
    assert after.pos[0] == 3


def test_rockslide_sends_the_racer_back_two() -> None:
    _, after = _spring("rockslide")
    assert after.pos[0] == 2


def test_moving_backwards_skips_full_positions_too() -> None:
    """Published ruling: moving backwards also skips full tiles."""
    _, after = _spring("oil_slick", pos=(3, 3, 3, 2, 2, 0))
    assert after.pos[0] == 1  # 3 and 2 are full
    _, after = _spring("rockslide", pos=(3, 3, 3, 1, 1, 9))
    assert after.pos[0] == 0  # back one lands on 2; the second step skips the full 1


def test_giant_fly_swatter_exhausts_a_face_up_advantage() -> None:
    events, after = _spring("fly_swatter", exhausted=(1, 0))
    assert of(events, AdvantageExhausted)[0].advantage == 1
    assert after.exhausted[0] == 3


def test_giant_magnet_gives_a_random_card_to_the_last_racer() -> None:
    events, after = _spring("giant_magnet", False, pos=(3, 0, 5, 6, 1, 1), hands=((D, P, P), (F,)))
    assert of(events, TaskQueued)[0].kind == "magnet"
    assert G.next_step(after).engine
    events, after = engine(after)
    taken = of(events, CardTaken)[0]
    assert taken.source == 0 and taken.taker == 1 and taken.card in (P,)
    assert {F, P} <= set(after.hands[1]) and len(after.hands[1]) == 3  # its turn starts: refill
    assert len(after.hands[0]) == 3  # then the turn's end refills


def test_giant_magnet_card_is_discarded_when_the_last_racer_is_neutral() -> None:
    events, after = _spring("giant_magnet", False, pos=(3, 5, 0, 6, 1, 1), hands=((D, M, M), (F,)))
    events, after = engine(after)
    assert of(events, CardTaken)[0].taker == -1 and after.discard[M] == 1


def test_glue_trap_holds_the_next_turn_to_two_steps() -> None:
    """Los jugadores comienzan la partida y cada uno de sus turnos con tres cartas de movimiento en la mano.

    Players begin each of their turns with three movement cards, so the Glue Trap (a
    proposal) may not shorten a hand: it holds the victim's next turn to two steps ("hasta
    tres casillas": up to three).
    """
    events, after = _spring("glue_trap", hands=((D, P, P), (F, F, F)))
    assert "Glued" in kinds(events)
    assert len(after.hands[0]) == 3 and after.glued[0]
    assert not after.held  # seat 1's turn is not held
    state = make(players=2, pos=(3, 9, 0, 0, 1, 1), glued=(True, False), round=1, active=1)
    _, state = play_on(state, EndTurn())  # the neutrals move, then seat 0's turn starts, held
    assert state.active == 0 and state.held and not state.glued[0]
    for card in (D, F):
        assert PlayStep(cards=(card,)) in G.legal_actions(state, 0)
        _, state = play(state, PlayStep(cards=(card,)))
    assert not [a for a in G.legal_actions(state, 0) if isinstance(a, PlayStep)]
    assert "at most 2 steps" in G.explain_illegal(state, 0, PlayStep(cards=(P,)))


def test_glue_trap_under_short_turn_hands_refills_only_to_two() -> None:
    """The option ``short_turn_hands`` keeps the Glue Trap's first design (version 1)."""
    events, after = _spring(
        "glue_trap", hands=((D, P, P), (F, F, F)), options={"short_turn_hands": True}
    )
    assert "Glued" in kinds(events)
    assert len(after.hands[0]) == 2 and not after.glued[0]


def test_giant_hammer_discards_the_whole_hand() -> None:
    events, after = _spring("giant_hammer", racers=(PAT, ARMY), hands=((D, P, M, M), (F,)))
    assert of(events, HandDiscarded)[0].cards == (P, M, M)
    assert len(after.hands[0]) == 3  # refilled from the draw pile


def test_every_trap_kind_is_tested_here() -> None:
    assert set(data.TRAP_EFFECTS) == {
        "lose_turn",
        "switcheroo",
        "back",
        "swat",
        "magnet",
        "glue",
        "hammer",
    }
    assert sum(data.TRAP_COPIES) == 16


def test_a_trap_hit_by_a_racer_pushed_in_another_turn_still_works() -> None:
    """Traps hit whoever enters them; a non-active player's racer does not lose a turn."""
    state = make(
        players=2,
        racers=(data.RACER_KEYS.index("slag_brothers"), ARMY),
        pos=(5, 5, 0, 0, 1, 1),
        traps={4: TRAP["oil_slick"]},
        round=0,
    )
    events, after = play(state, UseAdvantage(advantage=1, target=1))  # Club Bonk
    assert of(events, TrapSprung)[0].car == 1
    assert after.pos[1] == 3 and after.active == 0 and after.phase == "turn"
    assert EndTurn() in G.legal_actions(after, 0)


def test_entering_a_trap_stops_the_racer_and_ends_its_turn() -> None:
    """- Si un jugador se mueve a una posición que contiene una carta de trampa deberá detenerse y sufrir los efectos de esta, perdiendo el turno.

    - If a player moves to a position that holds a trap card, they must stop there and suffer its effects, losing the turn.
    """
    state = make(
        players=2,
        racers=(ARMY, PAT),
        pos=(3, 0, 0, 1, 1, 2),
        traps={4: TRAP["painted_tunnel"]},
        round=0,
    )
    events, after = play_on(state, PlayStep(cards=(D,)))
    assert of(events, TrapSprung)[0].advantage == -1
    assert after.pos[0] == 4
    assert of(events, TurnEnded)[0].reason == "trap"
    assert after.active == 1 and after.traps[4] == -1


def test_traps_can_be_ignored_with_certain_advantages() -> None:
    """Las trampas pueden ignorarse con ciertas ventajas.

    Traps can be ignored with certain advantages.
    (Published ruling: the cancel is mandatory and exhausts the advantage; the turn goes on.)
    """
    state = make(players=2, pos=(3, 0, 0, 1, 1, 2), traps={4: TRAP["painted_tunnel"]}, round=0)
    events, after = play(state, PlayStep(cards=(D,)))
    sprung = of(events, TrapSprung)[0]
    assert sprung.advantage == 0  # Pat Pending's Drill-a-Way
    assert after.exhausted[0] & 1
    assert after.phase == "turn" and after.active == 0 and after.pos[0] == 4
    assert after.traps[4] == -1 and after.trap_discard[TRAP["painted_tunnel"]] == 1


def test_the_cancel_is_mandatory_even_when_the_trap_is_mild() -> None:
    """Published ruling (mandatory cancel): with an unexhausted advantage for that trap, it
    must be exhausted; the player is not asked."""
    state = make(players=2, pos=(3, 0, 0, 1, 1, 2), traps={4: TRAP["painted_tunnel"]}, round=0)
    assert all(
        not (isinstance(a, UseAdvantage) and a.advantage == 0) for a in G.legal_actions(state, 0)
    )
    _, after = play(state, PlayStep(cards=(D,)))
    assert after.exhausted[0] == 1


def test_traps_are_always_discarded() -> None:
    """Published ruling: the trap is discarded whether it was suffered or cancelled."""
    for racers, cancelled in (((PAT, ARMY), True), ((ARMY, PAT), False)):
        state = make(players=2, racers=racers, traps={4: TRAP["painted_tunnel"]}, round=0)
        _, after = play(state, PlayStep(cards=(D,)))
        assert after.traps[4] == -1
        assert after.trap_discard[TRAP["painted_tunnel"]] == 1
        assert bool(after.exhausted[0] & 1) is cancelled
