"""Dick Dastardly and Muttley (Pierre Nodoyuna y Patán): they follow the discard pile and lay traps.

Rulebook: "Tras robar cartas de movimiento, el jugador actual tiene que fijarse en qué tipo
de terreno muestra la última carta que ha jugado, es decir, la carta que se encuentra en la
parte superior de la pila de descartes. Pierre Nodoyuna y Patán se moverán, respecto a
donde se encuentren actualmente, a la siguiente posición que muestre dicho tipo de terreno
y que no contenga una carta de trampa. Si al moverse de esta manera se ha colocado por
delante de todos los demás pilotos se debe colocar una carta de trampa boca abajo en la
posición que ocupe actualmente. Si no es el caso, se queda hasta donde haya avanzado. Si ha
conseguido colocar una carta de trampa, debe retroceder a la casilla que esté justo detrás
del último piloto." / "After drawing, the current player looks at the terrain type shown
on the last card they played, that is, the card on top of the discard pile. Dick
Dastardly and Muttley move, from where they are now, to the next position that shows that
terrain type and does not hold a trap card. If this movement puts them ahead of all the
other drivers, a trap card is placed face down on the position they now occupy. Having
placed a trap, they move back to the space just behind the last driver. If not, they stay
where they advanced to."

"Pierre Nodoyuna y Patán avanzan colocando su figura encima de estas casillas y fichas, no
en los laterales." / "Dick Dastardly and Muttley advance by standing on top of these spaces
and tiles, not on their sides": they take no racer's slot. They start behind the grid
(position -1). Gap decisions: with no matching tile ahead they stay; they only ever enter
terrain tiles; an empty trap deck is the discarded traps reshuffled (the engine's chance).
Whether they move again after the neutral racers is the option
``dastardly_after_neutrals`` (see ``neutrals``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from msgspec.structs import replace

from racedeck.games.wacky_races.events import DastardlyMoved, TrapLaid, TrapsReshuffled
from racedeck.games.wacky_races.state import WackyState
from racedeck.games.wacky_races.tuples import expand, set_at

if TYPE_CHECKING:
    from racedeck.games.wacky_races.resolution import Resolution


def behind_last(state: WackyState) -> int:
    """Return "la casilla que esté justo detrás del último piloto": just behind the last racer."""
    return min(state.pos) - 1


def destination(state: WackyState) -> int:
    """Return where Dastardly moves now, or -1 when he stays.

    He moves to the next trap-free tile of the discard pile's top terrain ahead of him; he
    stays when there is no top card or no such tile.
    """
    terrain = state.top
    if terrain < 0:
        return -1
    traps = state.traps
    return next_stop(state.tiles, lambda q: traps[q] < 0, state.dastardly, terrain)


def next_stop(tiles: Sequence[int], clear: Callable[[int], bool], start: int, terrain: int) -> int:
    """Return the first tile of ``terrain`` past ``start`` that is ``clear`` of traps, or -1.

    Where Dastardly goes from ``start`` after a card of ``terrain`` (``destination``); a bot
    reads it off what it sees (``clear``: no face-down trap there).
    """
    # A plain scan ahead of him: he is rarely far from the next such tile, and a scan
    # costs less than hashing the circuit to look its tiles up.
    for q in range(start + 1, len(tiles)):
        if tiles[q] == terrain and clear(q):
            return q
    return -1


def lays_a_trap(pos: Sequence[int], q: int) -> bool:
    """Return True when reaching ``q`` puts Dastardly "por delante de todos los demás pilotos".

    ``pos``: every racer's position.
    """
    return q > max(pos)


def move(r: Resolution) -> None:
    """Move Dastardly after a player's turn; ahead of every racer, lay a trap and drop back."""
    s = r.turn.state
    q = destination(s)
    if q < 0:
        return
    r.emit(DastardlyMoved(to=q, cause="discard"))
    if not lays_a_trap(s.pos, q):
        return
    if not s.trap_deck:
        if not sum(s.trap_discard):
            return  # every trap is on the circuit: nothing to lay
        order = expand(s.trap_discard)
        r.chance().shuffle(order)
        r.emit(TrapsReshuffled(order=tuple(order)))
    r.emit(TrapLaid(position=q, trap=r.turn.state.trap_deck[-1]))
    r.emit(DastardlyMoved(to=behind_last(r.turn.state), cause="trap_laid"))


# Folding --------------------------------------------------------------------------------------
def on_dastardly_moved(state: WackyState, e: DastardlyMoved) -> WackyState:
    """Fold: dastardly stands on his new position (-1: behind the grid)."""
    return replace(state, dastardly=e.to)


def on_trap_laid(state: WackyState, e: TrapLaid) -> WackyState:
    """Fold: the trap deck's last card lies face down on the position."""
    traps = set_at(state.traps, e.position, e.trap)
    return replace(state, traps=traps, trap_deck=state.trap_deck[:-1])


def on_traps_reshuffled(state: WackyState, e: TrapsReshuffled) -> WackyState:
    """Fold: the discarded traps, shuffled, are the trap deck again."""
    return replace(state, trap_deck=e.order, trap_discard=(0,) * len(state.trap_discard))
