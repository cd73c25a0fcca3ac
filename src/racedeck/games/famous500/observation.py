"""What one driver may see of a race, and redealing what it cannot.

Not a rulebook section: the rulebook is played face to face, where what each driver sees
follows from the table. A driver sees its own hand and face-down card, the car sheets
once both are designed, the cards face up on the current section (a pit card stays face
down), where cards went under the pit deck (not which), the cards it knows or half-knows
the opponent holds, the discards and every finished section. ``hidden_variants`` deals
the rest again, consistently with all of that.
"""

from __future__ import annotations

import functools

from msgspec.structs import replace

from racedeck.core.rng import Rng
from racedeck.games.famous500.customizing_your_race_car import designs
from racedeck.games.famous500.dealing_the_cards import may_false_start
from racedeck.games.famous500.hands import pair
from racedeck.games.famous500.state import Car, Famous500Observation, Famous500State

FACE_UP_PHASES = frozenset({"pit_draw", "pit_return", "pit_repair"})
"""Phases between the reveal and the swap: cards not laid for a pit stop are face up."""
_OWN_PITS = (((False, False), (True, False)), ((False, False), (False, True)))
"""What a driver sees of the pit declarations before the reveal: its own only."""
_NO_CARS: tuple[Car | None, ...] = (None, None)


@functools.lru_cache(maxsize=4096)
def _returned_by(masks: tuple[int, ...]) -> tuple[int, ...]:
    """Per pit deck position, the seat that put its card there (-1: it was dealt there)."""
    return tuple(m.bit_length() - 1 for m in masks)


@functools.lru_cache(maxsize=4096)
def _deck_as_seen(deck: tuple[int, ...], masks: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """Return the pit deck, top first, as ``seat`` knows it: its own cards, 0 elsewhere."""
    bit = 1 << seat
    return tuple([c if m & bit else 0 for c, m in zip(deck, masks, strict=True)])


def observe(state: Famous500State, seat: int) -> Famous500Observation:
    """Return what ``seat`` knows: its own cards and every public fact."""
    other = 1 - seat
    phase = state.phase
    laid = state.laid
    pits = state.pits
    hands = state.hands
    if phase in FACE_UP_PHASES:
        revealed = (0 if pits[0] else laid[0], 0 if pits[1] else laid[1])
        shown_pits = pits
    else:
        revealed = (0, 0)
        shown_pits = _OWN_PITS[seat][pits[seat]]
    cars = state.cars
    designed = state.designed
    if designed[0] and designed[1]:
        shown_cars: tuple[Car | None, ...] = cars
    elif designed[seat]:
        shown_cars = pair(_NO_CARS, seat, cars[seat])
    else:
        shown_cars = _NO_CARS
    masks = state.deck_known
    # Positional, in the order of Famous500Observation's fields (the field names are in the
    # comments): msgspec matches 24 keywords one by one, which took most of the time of an
    # observation, and the search observes at every step. test_observation checks the order.
    return Famous500Observation(
        seat,  # seat
        phase,  # phase
        state.setup,  # setup
        state.deals,  # deals
        state.lap,  # lap
        state.section,  # section
        hands[seat],  # hand
        laid[seat],  # laid
        pits[seat],  # pitting
        laid[other] != 0,  # opponent_laid
        revealed,  # revealed
        shown_pits,  # pits
        shown_cars,  # cars
        (len(hands[0]), len(hands[1])),  # hand_sizes
        _deck_as_seen(state.pit_deck, masks, seat),  # pit_deck_known
        state.opponent_known[seat],  # opponent_known
        state.opponent_maybe[seat],  # opponent_maybe
        state.discards,  # discards
        state.history,  # history
        state.pit_order,  # pit_order
        state.trailing,  # trailing
        state.winner,  # winner
        _returned_by(masks),  # pit_deck_returned
        state.points,  # points
        state.opponent_known[other],  # known_to_opponent
        state.opponent_maybe[other],  # half_known_to_opponent
    )


def hidden_variants(state: Famous500State, seat: int, rng: Rng) -> Famous500State | None:
    """Redeal what ``seat`` cannot see, consistently with what it has seen.

    The opponent's hand and face-down card and the pit deck cards ``seat`` did not put
    there are dealt again from the cards ``seat`` cannot place. Cards it knows the
    opponent holds stay with the opponent; cards it knew the opponent held before the
    opponent put cards under the pit deck stay with the opponent or go where the
    opponent put those cards. An opponent's sealed design, pit declaration or answer to
    the deal is redrawn too.
    """
    if not state.hands[0] and not state.hands[1]:
        return None
    other = 1 - seat
    bit = 1 << seat
    face_up_other = (
        state.laid[other] if (state.phase in FACE_UP_PHASES and not state.pits[other]) else 0
    )
    hidden_laid = state.laid[other] != 0 and face_up_other == 0
    known_other = [c for c in state.opponent_known[seat] if c != face_up_other]
    maybe_other = [c for c in state.opponent_maybe[seat] if c != face_up_other]
    fixed = set(state.hands[seat])
    fixed.add(state.laid[seat])
    fixed.add(face_up_other)
    fixed.update(c for _s, c in state.discards)
    fixed.update(known_other)
    fixed.update(maybe_other)
    masks = state.deck_known
    fixed.update(c for c, m in zip(state.pit_deck, masks, strict=True) if m & bit)
    pool = [c for c in state.setup.speeds if c not in fixed]
    rng.shuffle(pool)
    free = len(state.hands[other]) + (1 if hidden_laid else 0) - len(known_other)
    # Where the cards the viewer half-knows may be: the opponent's free slots, or under
    # the deck where the opponent put cards.
    places: list[int] = [-1] * free + [i for i, m in enumerate(masks) if m == 1 << other]
    rng.shuffle(places)
    group = list(known_other)
    deck = list(state.pit_deck)
    filled = set()
    for card, place in zip(maybe_other, places, strict=False):
        if place < 0:
            group.append(card)
        else:
            deck[place] = card
            filled.add(place)
    take = free - (len(group) - len(known_other))
    group.extend(pool[:take])
    rest = pool[take:]
    for i, m in enumerate(masks):
        if not m & bit and i not in filled:
            deck[i] = rest.pop()
    rng.shuffle(group)
    laid = state.laid
    if hidden_laid:
        laid = pair(laid, other, group.pop())
    variant = replace(
        state,
        hands=pair(state.hands, other, tuple(sorted(group))),
        laid=laid,
        pit_deck=tuple(deck),
    )
    phase = state.phase
    if phase == "choose" and hidden_laid and state.setup.pits[state.section]:
        variant = replace(variant, pits=pair(variant.pits, other, rng.random() < 0.5))
    elif phase == "design" and state.designed[other]:
        d = rng.choice(designs(state.setup.difficulty))
        car = (d.tires, d.fuel, d.engine, d.speed)
        variant = replace(
            variant,
            cars=pair(state.cars, other, car),
            designs=pair(state.designs, other, car),
        )
    elif phase == "start" and state.start[other] >= 0:
        may = may_false_start(variant, other)
        variant = replace(variant, start=pair(state.start, other, rng.randrange(2) if may else 0))
    return variant
