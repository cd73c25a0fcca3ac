"""Neutral racers: they fill the field to six and move when a round is over.

Each test quotes the rule it pins (Spanish, then English); ``neutrals.py`` implements them.
"""

from __future__ import annotations

from racedeck.games.wacky_races.actions import EndTurn
from racedeck.games.wacky_races.events import (
    DastardlyMoved,
    NeutralCardDrawn,
    RacerMoved,
    TrapSprung,
)
from tests.games.wacky_races.helpers import (
    TRAP,
    D,
    F,
    M,
    P,
    kinds,
    make,
    of,
    play_on,
    set_up_race,
)


def test_neutral_racers_fill_the_field_to_six() -> None:
    """De estos habrá tantos en la partida como sean necesarios por tal de que haya un mínimo de seis pilotos en juego.
    Por ejemplo, si jugarais cuatro jugadores habría que utilizar a dos pilotos neutrales.

    There are as many neutral drivers as needed for at least six drivers to be in play.
    For example, with four players, two neutral drivers are used.
    """
    for players in range(1, 7):
        _, state = set_up_race(players, players)
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
