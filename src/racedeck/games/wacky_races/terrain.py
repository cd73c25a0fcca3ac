"""Terrain tiles and the special terrain tile (ficha de terreno especial) of stage two.

Rulebook: "una segunda etapa compuesta por nueve fichas de terreno, una de las cuales es
una ficha de terreno especial (Pantano, Paso a nivel, Cruce o Laboratorio A.C.M.E.)" / "a
second stage made of nine terrain tiles, one of which is a special terrain tile (Swamp,
Level Crossing, Crossroads or A.C.M.E. Laboratory)".

The four terrains (Desert, Forest, Prairie, Farm) are what a second or third step's card
must match (see ``moving``). The special tiles, as published or proposed:

- **Swamp** (published): a racer there is stuck until it plays two identical movement
  cards, or gives up any three. A neutral racer there still makes the round's first move
  ("sí o sí"), and otherwise leaves on a drawn card whose terrain was already drawn that
  round (two identical cards; decision). Rules version 1 gave it no first move there; that
  reading is the option ``swamp_holds_neutrals``.
- **Level Crossing** (published): when a racer steps onto it, the racer(s) in last place
  behind it move ahead one position.
- **Crossroads** (proposal): when a racer steps onto it, the last racer behind it swaps
  places with it.
- **A.C.M.E. Laboratory** (proposal): when a racer steps onto it, the player whose racer is
  last refreshes its first exhausted advantage.

Only steps (a card, a neutral racer's step, a move advantage) trigger a special tile, so
that special tiles never chain (decision).
"""

from __future__ import annotations

import functools
from itertools import combinations
from typing import TYPE_CHECKING

from racedeck.games.wacky_races.actions import PlayStep
from racedeck.games.wacky_races.advantages import first_exhausted
from racedeck.games.wacky_races.circuit import forward_target, last_car, leader_order, swap
from racedeck.games.wacky_races.data import ACME_LABORATORY, CROSSROADS, LEVEL_CROSSING, SWAMP
from racedeck.games.wacky_races.events import AdvantageRefreshed, RacerMoved

if TYPE_CHECKING:
    from racedeck.games.wacky_races.resolution import Arrivals, Resolution


# The Swamp ------------------------------------------------------------------------------------
@functools.cache
def swamp_steps(hand: tuple[int, ...]) -> tuple[PlayStep, ...]:
    """Return the ways to leave the Swamp: two identical cards, then any three cards."""
    pairs = [PlayStep(cards=(t, t)) for t in sorted(set(hand)) if hand.count(t) >= 2]
    threes = [PlayStep(cards=c) for c in sorted(set(combinations(hand, 3)))]
    return (*pairs, *threes)


SWAMP_RULE = "to leave the Swamp play two identical cards or give up any three"
"""Why a step from the Swamp is refused."""


def neutral_steps_freely(tile: int) -> bool:
    """Return whether a neutral on ``tile`` makes the first move (``swamp_holds_neutrals``)."""
    return tile != SWAMP


def neutral_card_moves(tile: int, card: int, pair: bool) -> bool:
    """Return whether a drawn ``card`` moves a neutral racer standing on ``tile``.

    ``pair`` says the card's terrain was already drawn this round: on the Swamp the two
    identical cards are what a neutral racer needs to leave it.
    """
    return tile == card or (pair and tile == SWAMP)


# Entering a special tile ----------------------------------------------------------------------
ON_ENTRY = frozenset({LEVEL_CROSSING, CROSSROADS, ACME_LABORATORY})
"""The tiles that do something to a racer stepping onto them."""


def enter(r: Resolution, car: int, p: int) -> Arrivals:
    """Apply the special tile on ``p``, which ``car`` just stepped onto; yield whom it moved."""
    tile = r.turn.state.tiles[p]
    if tile == LEVEL_CROSSING:
        yield from level_crossing(r, car, p)
    elif tile == CROSSROADS:
        yield from crossroads(r, car, p)
    elif tile == ACME_LABORATORY:
        laboratory(r)


def level_crossing(r: Resolution, car: int, p: int) -> Arrivals:
    """Move the racers in last place behind the crossing ahead one position, leader first.

    The racer entering never moves itself; each moved racer meets its new position before
    the next one moves.
    """
    s = r.turn.state
    others = [c for c in range(len(s.field)) if c != car]
    back = min(s.pos[c] for c in others)
    if back >= p:
        return
    for c in leader_order(s, [c for c in others if s.pos[c] == back]):
        r.emit(RacerMoved(car=c, to=forward_target(r.turn.state.pos, back), cause="level_crossing"))
        yield c, False
        if not r.racing:
            return


def crossroads(r: Resolution, car: int, p: int) -> Arrivals:
    """Swap the last racer behind the Crossroads with the racer arriving."""
    s = r.turn.state
    last = last_car(s, [c for c in range(len(s.field)) if c != car and s.pos[c] < p])
    if last >= 0:
        yield from swap(r, car, last, "crossroads")


def laboratory(r: Resolution) -> None:
    """Refresh the first exhausted advantage of the player whose racer is last."""
    s = r.turn.state
    seat = last_car(s, range(s.players))
    first = first_exhausted(s.exhausted[seat])
    if first >= 0:
        r.emit(AdvantageRefreshed(seat=seat, advantage=first, cause="acme_laboratory"))
