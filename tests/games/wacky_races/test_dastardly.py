"""Dick Dastardly and Muttley: they follow the discard pile's terrain and lay traps.

Each test quotes the rule it pins (Spanish, then English); ``dastardly.py`` implements them.
"""

from __future__ import annotations

from msgspec.structs import replace

from racedeck.games.wacky_races import dastardly
from racedeck.games.wacky_races.actions import EndTurn, PlayStep, UseAdvantage
from racedeck.games.wacky_races.events import (
    DastardlyMoved,
    TrapLaid,
    TurnEnded,
    TurnStarted,
)
from tests.games.wacky_races.helpers import (
    ARMY,
    RUFUS,
    D,
    F,
    M,
    P,
    kinds,
    make,
    of,
    play,
    play_on,
)


def test_dastardly_moves_to_the_next_trap_free_tile_of_the_top_cards_terrain() -> None:
    """Tras robar cartas de movimiento, el jugador actual tiene que fijarse en qué tipo de terreno muestra la última carta que ha jugado, es decir, la carta que se encuentra en la parte superior de la pila de descartes.
    Pierre Nodoyuna y Patán se moverán, respecto a donde se encuentren actualmente, a la siguiente posición que muestre dicho tipo de terreno y que no contenga una carta de trampa.

    After drawing, the current player looks at the terrain type shown on the last card they played, that is, the card on top of the discard pile.
    Dick Dastardly and Muttley move, from where they are now, to the next position that shows that terrain type and does not hold a trap card.
    """
    state = make(players=2, pos=(9, 10, 0, 1, 1, 2), hands=((P, F, M), (D,)), round=0, traps={6: 0})
    _, state = play_on(state, PlayStep(cards=(P,)))  # 9 -> 10? full? 10 has one racer: lands on 10
    events, _after = play_on(state, EndTurn())
    assert kinds(events)[:2] == ["TurnEnded", "DastardlyMoved"]
    assert of(events, TurnEnded)[0].drawn == (M,)  # drawn before Dastardly looks
    assert of(events, DastardlyMoved)[0].to == 5  # Prairie at 5; the Prairie at 9 is further
    state = make(players=2, pos=(9, 10, 0, 1, 1, 2), top=D, traps={3: 0}, dastardly=-1, round=0)
    events, _ = play_on(state, EndTurn())
    assert of(events, DastardlyMoved)[0].to == 7  # the Desert at 3 holds a trap


def test_dastardly_ahead_of_every_racer_lays_a_trap_and_drops_behind_the_last() -> None:
    """Si al moverse de esta manera se ha colocado por delante de todos los demás pilotos se debe colocar una carta de trampa boca abajo en la posición que ocupe actualmente.
    Si ha conseguido colocar una carta de trampa, debe retroceder a la casilla que esté justo detrás del último piloto.

    If this movement puts them ahead of all the other drivers, a trap card is placed face down on the position they now occupy.
    Having placed a trap, they move back to the space just behind the last driver.
    """
    state = make(players=2, pos=(4, 3, 2, 2, 3, 4), top=P, dastardly=4, round=0)
    events, after = play_on(state, EndTurn())
    laid = of(events, TrapLaid)[0]
    assert laid.position == 5 and after.traps[5] == laid.trap
    assert [e.to for e in of(events, DastardlyMoved)] == [5, 1]
    assert after.dastardly == 1


def test_dastardly_not_ahead_of_every_racer_stays_where_he_advanced() -> None:
    """Si no es el caso, se queda hasta donde haya avanzado.

    - If not, they stay where they advanced to.
    """
    state = make(players=2, pos=(4, 9, 2, 2, 3, 4), top=P, dastardly=-1, round=0)
    events, after = play_on(state, EndTurn())
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
    events, after = play_on(state, EndTurn())
    names = kinds(events)
    assert names.index("DastardlyMoved") < names.index("TurnStarted")
    assert of(events, TurnStarted)[0].seat == 1 and after.active == 1
    events, after = play_on(after, EndTurn())
    assert after.active == 2


def test_dastardly_follows_the_tiles_where_sawtooth_put_them() -> None:
    """Pierre Nodoyuna y Patán se moverán [...] a la siguiente posición que muestre dicho tipo
    de terreno / to the next position that shows that terrain type: the circuit as it is now,
    after Sawtooth swapped two tiles."""
    state = make(players=2, racers=(RUFUS, ARMY), pos=(5, 9, 7, 0, 1, 1), top=P, dastardly=4)
    assert dastardly.destination(state) == 5  # the Prairie at 5
    _, after = play(state, UseAdvantage(advantage=1))  # Sawtooth: 5 (Prairie) <-> 6 (Farm)
    assert after.tiles[5:7] == (M, P) and dastardly.destination(after) == 6
    assert dastardly.destination(replace(after, top=-1)) == -1  # no card played yet: he stays
