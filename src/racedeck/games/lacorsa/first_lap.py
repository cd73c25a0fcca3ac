"""The Race, "First Lap": challenges for position.

Rulebook, "First Lap": "The race starts with the last-place car challenging the car
directly ahead. Each car plays a card (or two with R). Highest score wins the challenge.
A tie goes to the car in front." "If the car behind wins, the cars switch position."
"Play continues with the winning racecar challenging the car directly ahead. A racecar's
turn is skipped or ends when it loses a challenge." "A maximum of 2 passes per turn is
allowed."

Both cars of a challenge commit sealed cards (``committed``, which also folds the sealed
cards of qualifying); once both are down they are revealed in the same decision
(``reveal``) and the outcome is folded here (``after_challenge``).
"""

from __future__ import annotations

from msgspec.structs import replace

from racedeck.core.step import Turn
from racedeck.games.lacorsa import data
from racedeck.games.lacorsa.events import CardsCommitted, ChallengeResolved, LacorsaEvent
from racedeck.games.lacorsa.finish import settle
from racedeck.games.lacorsa.hands import removed
from racedeck.games.lacorsa.state import LacorsaState


def reveal(turn: Turn[LacorsaState, LacorsaEvent]) -> None:
    """Show both sealed plays of a challenge: the higher total wins, a tie goes to the front.

    It follows the last commit of a challenge at once, in the same decision.
    """
    state = turn.state
    a, d = state.attacker, state.defender
    a_cards, d_cards = state.committed[a], state.committed[d]
    a_total = data.play_total(a_cards) if a_cards else 0
    # A defender with no cards left loses automatically.
    d_total = data.play_total(d_cards) if d_cards else -1
    winner = a if a_total > d_total else d
    turn.emit(
        ChallengeResolved(
            attacker=a, defender=d, attacker_total=a_total, defender_total=d_total, winner=winner
        )
    )


def committed(state: LacorsaState, event: CardsCommitted) -> LacorsaState:
    """Fold a sealed play: the cards leave the hand face down; qualifying or a challenge.

    Qualifying moves on to the grid once every car has a card down; a challenge to its
    reveal once both cars have (or the defender has no cards to play).
    """
    car = event.car
    cards = event.cards
    hands = state.hands
    hand = hands[car]
    if len(cards) == 1:
        at = hand.index(cards[0])
        hand = hand[:at] + hand[at + 1 :]
    else:
        hand = removed(hand, cards)
    # A list copy and a tuple: cheaper than joining slices around the changed entry.
    changed = list(hands)
    changed[car] = hand
    hands = tuple(changed)
    down = list(state.committed)
    down[car] = cards
    now_down = tuple(down)
    phase = state.phase
    if phase == "qualify":
        if None not in now_down:
            phase = "grid"
    else:
        a, d = state.attacker, state.defender
        if now_down[a] is not None and (now_down[d] is not None or not hands[d]):
            phase = "reveal"
    return replace(state, hands=hands, committed=now_down, phase=phase)


def after_challenge(state: LacorsaState, event: ChallengeResolved) -> LacorsaState:
    """Fold a challenge's outcome: the cards are discarded face up; a winner behind passes."""
    a, d = event.attacker, event.defender
    down = state.committed
    a_cards, d_cards = down[a] or (), down[d] or ()
    # One copy of the growing tuples each: the two plays are joined first.
    played = state.played + (a_cards + d_cards)
    played_by = state.played_by + ((a,) * len(a_cards) + (d,) * len(d_cards))
    cars = len(down)
    sealed = (down[a] is not None) + (down[d] is not None)
    if a != d and down.count(None) + sealed == cars:
        # Only the two cars of the challenge had cards down (always, in play).
        cleared: tuple[tuple[int, ...] | None, ...] = (None,) * cars
    else:
        rest = list(down)
        rest[a] = rest[d] = None
        cleared = tuple(rest)
    cursor, passes = state.cursor, 0
    order, spaces = state.order, state.spaces
    if event.winner != a:
        cursor += 1
    else:
        ahead = list(order)
        ahead[cursor], ahead[cursor + 1] = d, a
        order = tuple(ahead)
        moved = list(spaces)
        moved[a], moved[d] = moved[d], moved[a]
        spaces = tuple(moved)
        passes = state.passes + 1
        if passes >= 2:
            cursor, passes = cursor + 2, 0
        else:
            cursor += 1
    return settle(
        state,
        cursor,
        passes,
        state.lap,
        played=played,
        played_by=played_by,
        committed=cleared,
        order=order,
        spaces=spaces,
    )
