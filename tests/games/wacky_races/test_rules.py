"""One test per rule of the Wacky Races rules summary, each quoting it (Spanish and English)."""

from __future__ import annotations

import random

import pytest

from racedeck.core.errors import IllegalActionError, OptionError
from racedeck.core.model import ENGINE
from racedeck.core.step import apply
from racedeck.games.wacky_races import data
from racedeck.games.wacky_races.actions import ChooseRacer, EndTurn, PlayStep, UseAdvantage
from racedeck.games.wacky_races.events import (
    CardsDrawn,
    DastardlyMoved,
    NeutralCardDrawn,
    RaceEnded,
    RacerMoved,
    RaceSetUp,
    TrapLaid,
    TrapSprung,
    TurnEnded,
    TurnStarted,
)
from racedeck.games.wacky_races.options import WackyOptions
from tests.games.wacky_races.helpers import (
    ARMY,
    FINISH,
    GAS,
    PAT,
    SPECIAL_AT,
    TRAP,
    D,
    F,
    G,
    M,
    P,
    circuit,
    engine,
    kinds,
    make,
    of,
    play,
    play_on,
)


def _set_up(players: int, seed: int, **options: object) -> tuple[list, object]:
    state = G.initial_state(WackyOptions(**options), players)  # type: ignore[arg-type]
    for seat in range(players):
        state = apply(G, state, seat, ChooseRacer(racer=seat), random.Random(0)).state
    return engine(state, seed)


# The circuit -----------------------------------------------------------------------------------
def test_circuit_is_grid_stage_one_gas_station_stage_two_and_finish() -> None:
    """El circuito en el cual transcurre la carrera se divide en:
    - una Parrilla de salida, desde la que parten los pilotos elegidos por los jugadores, así como Pierre Nodoyuna y Patán.
    - una primera etapa compuesta por ocho fichas de terreno.
    - una gasolinera que hace de nexo entre la primera etapa y la segunda etapa.
    - una segunda etapa compuesta por nueve fichas de terreno, una de las cuales es una ficha de terreno especial (Pantano, Paso a nivel, Cruce o Laboratorio A.C.M.E.)
    - la meta.

    The race track is divided into:
    - a Starting Grid, from which the drivers chosen by the players start, together with Dick Dastardly and Muttley;
    - a first stage made of eight terrain tiles;
    - a gas station that links the first stage to the second stage;
    - a second stage made of nine terrain tiles, one of which is a special terrain tile (Swamp, Level Crossing, Crossroads or A.C.M.E.
    Laboratory); the finish.
    """
    specials = set()
    for seed in range(40):
        events, state = _set_up(2, seed)
        tiles = of(events, RaceSetUp)[0].tiles
        assert tiles[:3] == (data.GRID,) * 3
        stage_one, gas, stage_two, finish = tiles[3:11], tiles[11], tiles[12:21], tiles[21:]
        assert sorted(stage_one) == [D, D, F, F, P, P, M, M]
        assert gas == data.GAS_STATION
        special = [t for t in stage_two if t in data.SPECIAL_TILES]
        assert len(special) == 1 and len(stage_two) == 9
        specials.add(special[0])
        assert finish == (data.FINISH_LINE,)
        assert state.dastardly == -1  # Dastardly starts behind the grid with the racers
    assert specials == set(data.SPECIAL_TILES)


def test_tiles_are_drawn_from_the_seed_so_every_race_can_differ() -> None:
    """una segunda etapa compuesta por nueve fichas de terreno / a second stage made of nine
    terrain tiles: the engine shuffles the tiles from the match seed, as events."""
    first = of(_set_up(3, 1)[0], RaceSetUp)[0].tiles
    assert of(_set_up(3, 1)[0], RaceSetUp)[0].tiles == first
    assert any(of(_set_up(3, s)[0], RaceSetUp)[0].tiles != first for s in range(2, 6))


def test_special_tile_option_picks_the_special_tile() -> None:
    """Pantano, Paso a nivel, Cruce o Laboratorio A.C.M.E. / Swamp, Level Crossing, Crossroads or A.C.M.E."""
    for key in data.SPECIAL_KEYS:
        tiles = of(_set_up(2, 5, special_tile=key)[0], RaceSetUp)[0].tiles
        assert data.special_code(key) in tiles[12:21]


def test_players_choose_their_racers_in_seat_order() -> None:
    """desde la que parten los pilotos elegidos por los jugadores / from which the drivers
    chosen by the players start."""
    state = G.initial_state(WackyOptions(), 3)
    assert G.next_step(state).seats == (0,)
    state = apply(G, state, 0, ChooseRacer(racer=4), random.Random(0)).state
    assert ChooseRacer(racer=4) not in G.legal_actions(state, 1)
    with pytest.raises(IllegalActionError, match="already taken"):
        apply(G, state, 1, ChooseRacer(racer=4), random.Random(0))
    state = apply(G, state, 1, ChooseRacer(racer=0), random.Random(0)).state
    state = apply(G, state, 2, ChooseRacer(racer=9), random.Random(0)).state
    assert state.phase == "setup" and G.next_step(state).engine
    _, state = engine(state, 3)
    assert state.field[:3] == (4, 0, 9)


def test_one_to_six_players() -> None:
    """Players: 1-6, the neutral racers filling the field."""
    for players in range(1, 7):
        G.check_players(WackyOptions(), players)
    for players in (0, 7):
        with pytest.raises(OptionError):
            G.check_players(WackyOptions(), players)


# The turn --------------------------------------------------------------------------------------
def test_players_start_each_turn_with_three_movement_cards() -> None:
    """Los jugadores comienzan la partida y cada uno de sus turnos con tres cartas de movimiento en la mano.
    Estas cartas son las necesarias para poder mover a los pilotos a través del circuito.

    Players begin the game, and each of their turns, with three movement cards in hand.
    These cards are what moves the drivers along the circuit.
    """
    events, state = _set_up(4, 2)
    assert [len(h) for h in state.hands] == [3, 3, 3, 3]
    assert len(of(events, CardsDrawn)) == 4
    assert sum(len(h) for h in state.hands) + len(state.draw) == sum(data.DECK)


def test_a_position_holds_two_racers_and_dastardly_takes_no_slot() -> None:
    """En cada una de las casillas de la Parrilla de salida y en cada una de las fichas de terreno puede haber dos pilotos como mucho:
    uno situado a la izquierda y otro situado a la derecha.
    Pierre Nodoyuna y Patán avanzan colocando su figura encima de estas casillas y fichas, no en los laterales.

    Each starting-grid space and each terrain tile can hold at most two drivers:
    one on the left and one on the right.
    Dick Dastardly and Muttley advance by standing on top of these spaces and tiles, not on their sides.
    """
    state = make(players=2, pos=(3, 5, 4, 0, 1, 2), dastardly=4)
    _, after = play(state, PlayStep(cards=(D,)))
    assert after.pos[0] == 4  # one racer and Dastardly there: the right-hand slot is free
    state = make(players=2, pos=(3, 4, 4, 0, 1, 2))
    _, after = play(state, PlayStep(cards=(D,)))
    assert after.pos[0] == 5


def test_a_turn_is_at_most_three_steps() -> None:
    """En su turno, un jugador puede mover a su piloto hasta tres casillas siguiendo estas reglas:

    On their turn a player may move their driver up to three spaces, following these rules:
    """
    state = make(players=2, pos=(2, 0, 0, 1, 1, 9), hands=((D, F, P, M, M, M), (D,)))
    for card in (D, D, F, P):
        if PlayStep(cards=(card,)) not in G.legal_actions(state, 0):
            break
        _, state = play(state, PlayStep(cards=(card,)))
    state = make(players=2, pos=(2, 0, 0, 1, 1, 9), hands=((D, D, F, P), (D,)))
    _, state = play(state, PlayStep(cards=(D,)))  # 2 -> 3, Desert
    _, state = play(state, PlayStep(cards=(D,)))  # 3 -> 4, Forest
    _, state = play(state, PlayStep(cards=(F,)))  # 4 -> 5
    assert state.steps == 3 and state.pos[0] == 5
    assert state.phase == "turn" or state.active != 0
    assert not [a for a in G.legal_actions(state, 0) if isinstance(a, PlayStep)]


def test_the_first_step_takes_any_card() -> None:
    """- Para realizar el primer movimiento y avanzar una posición el jugador puede gastar cualquier carta de movimiento.

    - To make the first move and advance one position, the player may spend any movement card.
    """
    state = make(players=2, pos=(3, 0, 0, 1, 1, 2), hands=((F, P, M), (D,)))
    steps = [a for a in G.legal_actions(state, 0) if isinstance(a, PlayStep)]
    assert steps == [PlayStep(cards=(F,)), PlayStep(cards=(P,)), PlayStep(cards=(M,))]
    _, after = play(state, PlayStep(cards=(M,)))
    assert after.pos[0] == 4 and after.top == M and M not in after.hands[0]


def test_the_second_step_needs_the_terrain_of_the_tile_the_racer_is_on() -> None:
    """- Para realizar un segundo paso el jugador debe gastar una carta de movimiento correspondiente al tipo de terreno sobre el que se encuentre actualmente su miniatura.

    - To make a second step the player must spend a movement card matching the terrain type of the tile the miniature is currently on.
    """
    state = make(players=2, pos=(2, 0, 0, 1, 1, 9), hands=((P, F, M), (D,)))
    _, state = play(state, PlayStep(cards=(P,)))  # onto position 3, a Desert tile
    assert not [a for a in G.legal_actions(state, 0) if isinstance(a, PlayStep)]
    with pytest.raises(IllegalActionError, match="terrain"):
        apply(G, state, 0, PlayStep(cards=(F,)), random.Random(0))
    state = make(players=2, pos=(3, 0, 0, 1, 1, 9), hands=((M, F, P), (D,)), steps=1)
    assert [a for a in G.legal_actions(state, 0) if isinstance(a, PlayStep)] == []
    state = make(players=2, pos=(4, 0, 0, 1, 1, 9), hands=((M, F, P), (D,)), steps=1)
    assert [a for a in G.legal_actions(state, 0) if isinstance(a, PlayStep)] == [
        PlayStep(cards=(F,))
    ]


def test_the_third_step_needs_the_terrain_of_the_tile_too() -> None:
    """- Para realizar un tercer y último paso el jugador debe gastar una carta de movimiento igual al tipo de terreno sobre el que se encuentre actualmente su miniatura (igual que en el segundo paso, vaya).

    - To make a third and last step the player must spend a movement card equal to the terrain type of the tile the miniature is currently on (same as the second step).
    """
    state = make(players=2, pos=(5, 0, 0, 1, 1, 9), hands=((P, F, M), (D,)), steps=2)
    assert [a for a in G.legal_actions(state, 0) if isinstance(a, PlayStep)] == [
        PlayStep(cards=(P,))
    ]
    _, after = play(state, PlayStep(cards=(P,)))
    assert after.pos[0] == 6


def test_non_terrain_positions_take_any_card_for_later_steps() -> None:
    """Gap decision: on the grid, the gas station and the special tiles any card matches."""
    state = make(players=2, pos=(1, 0, 0, 1, 2, 9), hands=((P, F, M), (D,)), steps=1)
    assert len([a for a in G.legal_actions(state, 0) if isinstance(a, PlayStep)]) == 3


def test_full_positions_are_skipped() -> None:
    """- Si un jugador se desplaza a una posición en la que ya hay dos pilotos saltará a la siguiente que esté vacía o que contenga un único piloto.

    - If a player moves to a position that already holds two drivers, they jump to the next position that is empty or holds a single driver.
    """
    state = make(players=2, pos=(3, 4, 4, 5, 5, 6), hands=((D, F, P), (D,)))
    _, after = play(state, PlayStep(cards=(D,)))
    assert after.pos[0] == 6  # 4 and 5 are full; 6 holds one racer


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
    events, after = play(state, PlayStep(cards=(D,)))
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


def test_refill_to_three_after_moving() -> None:
    """Una vez un jugador ha movido a su piloto, debe robar cartas de movimiento del mazo correspondiente hasta tener un mínimo de tres.

    Once a player has moved their driver, they must draw movement cards from the deck until they hold at least three.
    """
    state = make(players=2, hands=((D, F, P), (D,)), round=0)
    _, state = play(state, PlayStep(cards=(D,)))
    events, after = play(state, EndTurn())
    assert of(events, TurnEnded)[0].drawn == (M,)  # the draw pile's last card
    assert len(after.hands[0]) == 3 and len(after.draw) == len(state.draw) - 1
    big = make(players=2, hands=((D, F, P, M, M), (D,)), round=0)
    events, after = play(big, EndTurn())
    assert of(events, TurnEnded)[0].drawn == () and len(after.hands[0]) == 5  # no hand limit


def test_an_empty_draw_pile_is_refilled_from_the_discards() -> None:
    """debe robar cartas de movimiento del mazo correspondiente hasta tener un mínimo de tres:
    an empty draw pile is the discard pile (but its top card) shuffled, by the engine."""
    state = make(players=2, hands=((D,), (D,)), deck=(), discard=(5, 5, 5, 5), top=F, round=0)
    events, after = play(state, EndTurn())
    assert kinds(events) == ["TurnEnded"]  # a shuffle is chance: the engine's work
    events, after = engine(after)
    assert kinds(events)[:2] == ["DeckReshuffled", "CardsDrawn"]
    assert len(after.hands[0]) == 3 and after.discard == (0, 1, 0, 0)


# Dick Dastardly ------------------------------------------------------------------------------
def test_dastardly_moves_to_the_next_trap_free_tile_of_the_top_cards_terrain() -> None:
    """Tras robar cartas de movimiento, el jugador actual tiene que fijarse en qué tipo de terreno muestra la última carta que ha jugado, es decir, la carta que se encuentra en la parte superior de la pila de descartes.
    Pierre Nodoyuna y Patán se moverán, respecto a donde se encuentren actualmente, a la siguiente posición que muestre dicho tipo de terreno y que no contenga una carta de trampa.

    After drawing, the current player looks at the terrain type shown on the last card they played, that is, the card on top of the discard pile.
    Dick Dastardly and Muttley move, from where they are now, to the next position that shows that terrain type and does not hold a trap card.
    """
    state = make(players=2, pos=(9, 10, 0, 1, 1, 2), hands=((P, F, M), (D,)), round=0, traps={6: 0})
    _, state = play(state, PlayStep(cards=(P,)))  # 9 -> 10? full? 10 has one racer: lands on 10
    events, _after = play(state, EndTurn())
    assert kinds(events)[:2] == ["TurnEnded", "DastardlyMoved"]
    assert of(events, TurnEnded)[0].drawn == (M,)  # drawn before Dastardly looks
    assert of(events, DastardlyMoved)[0].to == 5  # Prairie at 5; the Prairie at 9 is further
    state = make(players=2, pos=(9, 10, 0, 1, 1, 2), top=D, traps={3: 0}, dastardly=-1, round=0)
    events, _ = play(state, EndTurn())
    assert of(events, DastardlyMoved)[0].to == 7  # the Desert at 3 holds a trap


def test_dastardly_ahead_of_every_racer_lays_a_trap_and_drops_behind_the_last() -> None:
    """Si al moverse de esta manera se ha colocado por delante de todos los demás pilotos se debe colocar una carta de trampa boca abajo en la posición que ocupe actualmente.
    Si ha conseguido colocar una carta de trampa, debe retroceder a la casilla que esté justo detrás del último piloto.

    If this movement puts them ahead of all the other drivers, a trap card is placed face down on the position they now occupy.
    Having placed a trap, they move back to the space just behind the last driver.
    """
    state = make(players=2, pos=(4, 3, 2, 2, 3, 4), top=P, dastardly=4, round=0)
    events, after = play(state, EndTurn())
    laid = of(events, TrapLaid)[0]
    assert laid.position == 5 and after.traps[5] == laid.trap
    assert [e.to for e in of(events, DastardlyMoved)] == [5, 1]
    assert after.dastardly == 1


def test_dastardly_not_ahead_of_every_racer_stays_where_he_advanced() -> None:
    """Si no es el caso, se queda hasta donde haya avanzado.

    - If not, they stay where they advanced to.
    """
    state = make(players=2, pos=(4, 9, 2, 2, 3, 4), top=P, dastardly=-1, round=0)
    events, after = play(state, EndTurn())
    assert after.dastardly == 5 and not of(events, TrapLaid)


def test_dastardly_with_no_matching_tile_ahead_stays() -> None:
    """Gap decision: with no tile of that terrain ahead, Dastardly stays where he is."""
    state = make(players=2, pos=(4, 9, 2, 2, 3, 4), top=P, dastardly=19, round=0)
    events, after = play(state, EndTurn())
    assert not of(events, DastardlyMoved) and after.dastardly == 19


def test_the_turn_ends_after_dastardly_and_passes_clockwise() -> None:
    """Tras el movimiento de Pierre Nodoyuna y Patán el turno del jugador actual culmina.
    Es el turno del siguiente jugador siguiendo el sentido de las agujas del reloj.

    After Dick Dastardly and Muttley have moved, the current player's turn ends.
    The next player, clockwise, takes their turn.
    """
    state = make(players=3, pos=(4, 5, 6, 2, 3, 2), top=D, round=0)
    events, after = play(state, EndTurn())
    names = kinds(events)
    assert names.index("DastardlyMoved") < names.index("TurnStarted")
    assert of(events, TurnStarted)[0].seat == 1 and after.active == 1
    events, after = play(after, EndTurn())
    assert after.active == 2


# Neutral racers --------------------------------------------------------------------------------
def test_neutral_racers_fill_the_field_to_six() -> None:
    """De estos habrá tantos en la partida como sean necesarios por tal de que haya un mínimo de seis pilotos en juego.
    Por ejemplo, si jugarais cuatro jugadores habría que utilizar a dos pilotos neutrales.

    There are as many neutral drivers as needed for at least six drivers to be in play.
    For example, with four players, two neutral drivers are used.
    """
    for players in range(1, 7):
        _, state = _set_up(players, players)
        assert len(state.field) == 6 and len(set(state.field)) == 6
        assert state.field[:players] == tuple(range(players))
        assert len(state.hands) == players  # neutral racers hold no cards
        assert sorted(state.pos) == [0, 0, 1, 1, 2, 2]


def test_neutrals_move_when_the_round_is_over_but_not_after_the_first() -> None:
    """Cuando todos los jugadores hayan actuado, es decir, cuando la ronda haya finalizado, es el momento en el que los pilotos neutrales se mueven.
    Los pilotos neutrales actúan de la siguiente manera (se omite en la primera ronda de la partida):

    When all players have acted, that is, when the round is over, the neutral drivers move.
    Neutral drivers act as follows (this is skipped in the first round of the game):
    """
    first = make(players=2, pos=(5, 6, 0, 1, 1, 2), round=0, active=1)
    events, after = play_on(first, EndTurn())
    assert "NeutralsMoving" not in kinds(events) and after.round == 1 and after.active == 0
    middle = make(players=2, pos=(5, 6, 0, 1, 1, 2), round=1, active=0)
    assert "NeutralsMoving" not in kinds(play_on(middle, EndTurn())[0])
    last = make(players=2, pos=(5, 6, 0, 1, 1, 2), round=1, active=1)
    events, after = play_on(last, EndTurn())
    names = kinds(events)
    assert names.index("TurnEnded") < names.index("NeutralsMoving") < names.index("TurnStarted")
    assert after.round == 2


def test_neutrals_always_make_a_first_move() -> None:
    """- Realizan un primer movimiento sí o sí, avanzando a la próxima posición.

    - They always make a first move, advancing to the next position.
    """
    # Neutrals on 5, 6, 7, 9 each step once, leader first: to 6 (Farm), 7 (Desert), 8, 10.
    state = make(players=2, pos=(12, 13, 5, 6, 7, 9), round=1, active=1, deck=(D, D, D, D))
    events, after = play_on(state, EndTurn())
    first_moves = [e.to for e in of(events, RacerMoved)][:4]
    assert first_moves == [10, 8, 7, 6]
    # Then the first Desert card moves the one on 7 (Desert) on to 8; nothing else matches.
    assert after.pos[2:] == (6, 8, 8, 10)
    assert [e.card for e in of(events, NeutralCardDrawn)] == [D, D, D]


def test_three_cards_each_move_the_neutrals_on_that_terrain_one_more_step() -> None:
    """- Se roba una primera carta de movimiento del mazo pertinente.
    Todos los pilotos neutrales que se encuentren en una posición que sea del tipo de terreno que muestre la carta de movimiento recién robada se mueven un paso más.
    - Se vuelve a robar una segunda carta de movimiento y se procede de la misma manera.
    - Se roba una tercera y última carta de movimiento, procediendo de la misma forma.

    - A first movement card is drawn from the movement deck.
    Every neutral driver that is on a position of the terrain type shown on the card just drawn moves one more step.
    - A second movement card is drawn and the same is done.
    - A third and last movement card is drawn and the same is done.
    """
    # Neutrals at 2, 4, 5, 8 step to 3 (Desert), 5 (Prairie), 6 (Farm), 9 (Prairie).
    # Cards drawn: Forest (nobody), Prairie (9 -> 10, 5 -> 6), Farm (10 -> 11, 6 -> 7 twice).
    state = make(players=2, pos=(14, 15, 2, 4, 5, 8), round=1, active=1, deck=(D, M, P, F))
    events, after = play_on(state, EndTurn())
    assert [e.card for e in of(events, NeutralCardDrawn)] == [F, P, M]
    assert after.pos[2:] == (3, 7, 7, 11)
    assert after.discard == (0, 1, 1, 1) and after.top == M


def test_the_leading_neutral_moves_first() -> None:
    """- Cuando los pilotos neutrales se mueven el primero en hacerlo es el que va en cabeza, seguido en orden por los demás, de tal forma que el último en desplazarse es, precisamente, el más atrasado.

    - When neutral drivers move, the leader among them moves first, followed in order by the others, so that the last to move is the one furthest behind.
    """
    # Position 7 holds one player's racer; neutrals at 6, 6 and 5 step in leader order.
    state = make(players=3, pos=(7, 14, 15, 6, 6, 5), round=1, active=2, deck=(D, D, D))
    events, _after = play_on(state, EndTurn())
    moves = [e for e in of(events, RacerMoved) if e.cause == "neutral"]
    assert [m.car for m in moves[:3]] == [3, 4, 5]  # car 3 arrived first on 6: it leads
    assert [m.to for m in moves[:3]] == [7, 8, 6]  # 7 is full when car 4 moves: it skips


def test_a_neutral_racer_suffers_traps_like_a_player() -> None:
    """- Cuando un piloto neutral se come una trampa sufre los efectos también, como si de un piloto normal se tratase.

    - A neutral driver that runs into a trap suffers its effects as a normal driver would.
    """
    state = make(
        players=2,
        pos=(14, 15, 5, 1, 1, 2),
        round=1,
        active=1,
        deck=(P, P, P),
        traps={6: TRAP["oil_slick"]},
    )
    events, after = play_on(state, EndTurn())
    sprung = of(events, TrapSprung)[0]
    assert sprung.car == 2 and sprung.advantage == -1
    assert after.pos[2] == 5  # back one, and it moves no more this round (Prairie cards drawn)


def test_moving_the_neutrals_does_not_move_dastardly() -> None:
    """- Mover a los pilotos neutrales no provoca que Pierre Nodoyuna y Patán se muevan también.

    - Moving the neutral drivers does not make Dick Dastardly and Muttley move.
    """
    state = make(players=2, pos=(14, 15, 2, 4, 5, 8), round=1, active=1, deck=(D, M, P, F), top=-1)
    events, after = play_on(state, EndTurn())
    assert not of(events, DastardlyMoved) and after.dastardly == -1
    other = make(
        players=2,
        pos=(14, 15, 2, 4, 5, 8),
        round=1,
        active=1,
        deck=(D, M, P, F),
        top=-1,
        options={"dastardly_after_neutrals": True},
    )
    events, after = play_on(other, EndTurn())
    assert of(events, DastardlyMoved)[0].to == 6  # the rulebook's other reading: top card Farm


# Special tiles, gas station, finish ------------------------------------------------------------
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


def test_gas_station_refreshes_one_advantage_of_every_player_when_the_last_racer_arrives() -> None:
    """Published ruling (gas station refresh): when the racer in last place moves onto it,
    every player refreshes one of their exhausted advantage cards."""
    state = make(
        players=2, pos=(10, 12, 13, 12, 14, 15), hands=((F, P, M), (D,)), exhausted=(3, 12)
    )
    events, after = play(state, PlayStep(cards=(M,)))
    assert after.pos[0] == GAS
    assert "GasStationReached" in kinds(events)
    assert after.exhausted == (2, 8) and after.gas_done
    again = make(players=2, pos=(10, 12, 13, 12, 14, 15), exhausted=(3, 12), gas_done=True)
    assert "GasStationReached" not in kinds(play(again, PlayStep(cards=(D,)))[0])
    early = make(players=2, pos=(10, 12, 13, 12, 14, 3), exhausted=(3, 12))
    assert "GasStationReached" not in kinds(play(early, PlayStep(cards=(D,)))[0])


def test_the_first_racer_onto_the_finish_wins() -> None:
    """Published: the player whose racer reaches the Finish Line tile first wins."""
    state = make(players=2, pos=(20, 19, 18, 17, 16, 15), hands=((D, F, P), (D,)))
    events, after = play(state, PlayStep(cards=(D,)))
    assert after.finished == (0,) and after.phase == "over"
    ended = of(events, RaceEnded)[0]
    assert ended.order[:3] == (0, 1, 2)
    assert after.phase == "over"
    result = G.result(after)
    assert result.ranks == (1, 2) and result.scores == (1, 2) and result.unit == "places"


def test_a_neutral_reaching_the_finish_first_ends_the_race_unless_the_option_says_so() -> None:
    """Gap decision: a neutral racer first onto the finish wins; option ``neutral_finish``."""
    state = make(players=2, pos=(14, 15, 20, 4, 5, 8), round=1, active=1, deck=(D, D, D))
    _, after = play_on(state, EndTurn())
    assert after.phase == "over" and after.finished == (2,)
    assert G.result(after).scores == (3, 2)
    state = make(
        players=2,
        pos=(14, 15, 20, 4, 5, 8),
        round=1,
        active=1,
        deck=(D, D, D),
        options={"neutral_finish": "continues"},
    )
    _, after = play_on(state, EndTurn())
    assert after.phase == "turn" and after.finished == (2,) and after.pos[2] == FINISH


def test_championship_sums_points_over_races() -> None:
    """Championship sheet (option ``races``): 6/4/3/2/1 points a race by place."""
    state = make(players=2, pos=(20, 19, 18, 17, 16, 15), options={"races": 2})
    events, state = play(state, PlayStep(cards=(D,)))
    assert state.phase == "race_end"  # the next race's shuffles are the engine's
    events, state = engine(state, 4)
    assert of(events, RaceEnded)[0].points == (6, 4)
    assert state.race == 1 and state.points == (6, 4)
    assert of(events, RaceSetUp)[0].first_seat == 1  # the next race starts with the next seat
    assert state.phase == "turn" and state.active == 1
    result = G.result(state)
    assert result.unit == "championship points" and result.ranks == (1, 2)


def test_illegal_actions_name_the_seat_and_the_rule() -> None:
    """Actions out of turn or off the list are refused with the rule."""
    state = make(players=2)
    with pytest.raises(IllegalActionError, match="seat 1"):
        apply(G, state, 1, EndTurn(), random.Random(0))
    with pytest.raises(IllegalActionError, match="exhausted"):
        apply(G, make(players=2, exhausted=(8, 0)), 0, UseAdvantage(advantage=3))
    with pytest.raises(IllegalActionError, match="only when its trap"):
        apply(G, state, 0, UseAdvantage(advantage=0), random.Random(0))
    with pytest.raises(IllegalActionError):
        apply(G, state, ENGINE, None, random.Random(0))


def test_a_neutral_racer_leaves_the_swamp_on_two_identical_cards() -> None:
    """Gap decision: a neutral on the Swamp skips its free step and leaves it when a drawn
    card repeats a terrain already drawn that round (two identical cards)."""
    # Cards drawn (from the deck's end): Forest, Prairie, Forest.
    state = make(players=2, pos=(14, 15, SPECIAL_AT, 2, 2, 9), round=1, active=1, deck=(F, P, F))
    events, after = play_on(state, EndTurn())
    swamp_moves = [e for e in of(events, RacerMoved) if e.car == 2]
    assert len(swamp_moves) == 1 and after.pos[2] == SPECIAL_AT + 1
    assert [e.card for e in of(events, NeutralCardDrawn)] == [F, P, F]
    stuck = make(players=2, pos=(14, 15, SPECIAL_AT, 2, 2, 9), round=1, active=1, deck=(D, P, F))
    _, after = play_on(stuck, EndTurn())
    assert after.pos[2] == SPECIAL_AT
