"""What a seat sees, and states it cannot tell from the truth.

Rulebook, Notes on Play 7: "When asked, drivers must show the number of cards they have
left to the other drivers." A seat sees its own cars' hands and sealed cards, every
hand's size (sealed cards still count until revealed), and all that is played face up.
"""

from __future__ import annotations

import functools

from msgspec.structs import replace

from racedeck.core.rng import Rng
from racedeck.games.lacorsa import data
from racedeck.games.lacorsa.actions import MAX_CARS
from racedeck.games.lacorsa.finish import deciding_car
from racedeck.games.lacorsa.pre_race import suits_in_deck
from racedeck.games.lacorsa.state import LacorsaObservation, LacorsaState

_NONES = tuple((None,) * cars for cars in range(MAX_CARS + 1))
"""``(None,) * cars`` for every number of cars, built once."""


@functools.cache
def _cars_of(owner: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """Return the cars ``seat`` drives."""
    return tuple(car for car, o in enumerate(owner) if o == seat)


def observe(state: LacorsaState, seat: int) -> LacorsaObservation:
    """Return what ``seat`` knows: its own hands and every public fact."""
    owner = state.owner
    hands = state.hands
    committed = state.committed
    cars = len(owner)
    mine = _cars_of(owner, seat)
    sizes = list(map(len, hands))
    if committed.count(None) == len(committed):
        # Nothing face down (most of a race): no flags to set, no sizes to add to.
        flags: tuple[bool, ...] = (False,) * len(committed)
        own_committed: tuple[tuple[int, ...] | None, ...] = (None,) * cars if flags else ()
    else:
        flags = tuple([x is not None for x in committed])
        # Sealed cards still count in the hand size until they are revealed.
        for car, x in enumerate(committed):
            if x is not None:
                sizes[car] += len(x)
        held: list[tuple[int, ...] | None] = [None] * cars
        for car in mine:
            held[car] = committed[car]
        own_committed = tuple(held)
    if not hands:
        seen_hands: tuple[tuple[int, ...] | None, ...] = ()
    elif len(mine) == 1:
        car = mine[0]
        seen_hands = (*_NONES[car], hands[car], *_NONES[cars - car - 1])
    else:
        shown: list[tuple[int, ...] | None] = [None] * cars
        for car in mine:
            shown[car] = hands[car]
        seen_hands = tuple(shown)
    phase = state.phase
    order = state.order
    return LacorsaObservation(
        seat=seat,
        players=state.players,
        owner=owner,
        phase=phase,
        race=state.race,
        races=state.options.races,
        lap=state.lap,
        hands=seen_hands,
        hand_sizes=tuple(sizes),
        committed=flags,
        own_committed=own_committed,
        order=order,
        spaces=state.spaces,
        active_car=order[state.cursor] if phase == "move" or phase == "challenge" else -1,
        passes=state.passes,
        attacker=state.attacker,
        defender=state.defender,
        played=state.played,
        qualifying_totals=state.qualifying_totals,
        results=state.results,
        points=state.points,
        board_length=state.options.board_length,
        deciding_car=deciding_car(state, seat),
        played_by=state.played_by,
    )


def hidden_variant(state: LacorsaState, seat: int, rng: Rng) -> LacorsaState | None:
    """Redeal every card ``seat`` cannot see among the cars that might hold it."""
    if not state.hands:
        return None
    owner = state.owner
    seen: set[int] = set(state.played)
    for car, hand in enumerate(state.hands):
        if owner[car] == seat:
            seen.update(hand)
            seen.update(state.committed[car] or ())
    pool = [c for c in data.deck(suits_in_deck(len(owner), state.options)) if c not in seen]
    rng.shuffle(pool)
    hands = list(state.hands)
    committed = list(state.committed)
    for car in range(len(owner)):
        if owner[car] == seat:
            continue
        sealed = committed[car]
        size = len(hands[car]) + (len(sealed) if sealed else 0)
        cards, pool = pool[:size], pool[size:]
        if sealed:
            committed[car], rest = (cards[0],), cards[1:]
        else:
            rest = cards
        hands[car] = tuple(sorted(rest))
    return replace(state, hands=tuple(hands), committed=tuple(committed))
