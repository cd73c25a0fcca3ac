"""The Race, "Extending": extend into an open space, or discard to end the turn.

Rulebook, "Extending": "If a racecar wins a challenge or remains unchallenged and has an
open space ahead, it can move one space forward with an Extend card (1, 2, or 3). The
leader cannot use the Drafting Extend card (3) to extend." "If you cannot extend, you must
discard to end your turn. When a car extends or discards, its turn is over." Notes on Play
4 and 9: "A Redline card may be used to discard two cards", and a car "does not have to
extend ... even if you have an extend card in your hand. Discard instead."
"""

from __future__ import annotations

from racedeck.games.lacorsa.actions import DISCARD_ONE, EXTEND_WITH, Discard, LacorsaAction, plays
from racedeck.games.lacorsa.data import DRAFTING
from racedeck.games.lacorsa.events import Discarded, Extended
from racedeck.games.lacorsa.finish import settle
from racedeck.games.lacorsa.hands import removed
from racedeck.games.lacorsa.state import LacorsaState


def may_extend(state: LacorsaState, car: int) -> bool:
    """Return whether ``car`` may extend: not when the board ends right ahead of it."""
    length = state.options.board_length
    return not (length and state.spaces[car] >= length - 1)


def choices(state: LacorsaState, car: int) -> tuple[LacorsaAction, ...]:
    """Return what ``car``, the car to move, may do: each Extend it may use, then discards."""
    hand = state.hands[car]
    if not may_extend(state, car):
        return plays(car, hand, DISCARD_ONE, Discard)
    actions: list[LacorsaAction] = []
    leader = state.cursor == len(state.order) - 1
    extend_with = EXTEND_WITH[car]
    last_rank = -1
    for c in hand:
        r = c >> 3
        if r > DRAFTING:
            break
        if r != last_rank and not (leader and r == DRAFTING):
            actions.append(extend_with[c])
        last_rank = r
    if not actions:
        return plays(car, hand, DISCARD_ONE, Discard)
    return (*actions, *plays(car, hand, DISCARD_ONE, Discard))


def extended(state: LacorsaState, event: Extended) -> LacorsaState:
    """Fold an extend: the card is played face up and the car moves one space; turn over."""
    car = event.car
    hands = state.hands
    hand = hands[car]
    at = hand.index(event.card)
    changed = list(hands)
    changed[car] = hand[:at] + hand[at + 1 :]
    hands = tuple(changed)
    moved = list(state.spaces)
    moved[car] += 1
    spaces = tuple(moved)
    return settle(
        state,
        state.cursor + 1,
        0,
        state.lap,
        hands=hands,
        spaces=spaces,
        played=(*state.played, event.card),
        played_by=(*state.played_by, car),
    )


def discarded(state: LacorsaState, event: Discarded) -> LacorsaState:
    """Fold a discard: the cards are played face up and the car's turn is over."""
    car = event.car
    cards = event.cards
    hands = state.hands
    changed = list(hands)
    changed[car] = removed(hands[car], cards)
    hands = tuple(changed)
    return settle(
        state,
        state.cursor + 1,
        0,
        state.lap,
        hands=hands,
        played=state.played + cards,
        played_by=state.played_by + (car,) * len(cards),
    )
