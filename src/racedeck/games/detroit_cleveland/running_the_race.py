"""Running the Race: a card every turn, played face up, or the hand shown.

"A player must play a card every turn, even after all his cars have crossed the finish
line. If a player feels he has no playable card, he must reveal his cards to evidence that
fact. If a playable card is found, it must be played; otherwise, play proceeds to the left.
Cards are played face-up in a discard pile in the center of the game board."

A seat plays a movement card (``movement_cards``) or a switch card (``switch_cards``);
identical cards are offered once. A seat with no playable card shows its hand and passes
(``HandRevealed``): that hand is public for the rest of the race. Who plays when is
``turn_order``; when the race ends is ``race_end``.
"""

from __future__ import annotations

from msgspec.structs import replace

from racedeck.games.detroit_cleveland import movement_cards
from racedeck.games.detroit_cleveland.actions import (
    Bid,
    Decline,
    DetroitClevelandAction,
    Move,
    Pass,
    Play,
)
from racedeck.games.detroit_cleveland.data import CARDS, MOVES, SWITCHES, WHITE_CARDS
from racedeck.games.detroit_cleveland.events import (
    CardPlayed,
    CarMoved,
    CarSkipped,
    HandRevealed,
    RaceEnded,
)
from racedeck.games.detroit_cleveland.optional_rules import DECLINE, WHY_NOT_DECLINE, may_decline
from racedeck.games.detroit_cleveland.race_end import race_ended, race_over
from racedeck.games.detroit_cleveland.state import DetroitClevelandState
from racedeck.games.detroit_cleveland.switch_cards import switch_played
from racedeck.games.detroit_cleveland.turn_order import end_turn, seat_to_play

State = DetroitClevelandState

_CARDS = range(max(CARDS) + 1)
PLAYS: tuple[Play | None, ...] = tuple(
    Play(card=n) if n in MOVES or n in SWITCHES else None for n in _CARDS
)
"""The action of playing each card, by card number (``None``: not a card one plays)."""
CONTENT: tuple[object, ...] = tuple(MOVES.get(n) or SWITCHES.get(n) for n in _CARDS)
"""What each card does, by card number: cards that do the same are the same to play."""
_SAME: tuple[int, ...] = tuple(CONTENT.index(content) for content in CONTENT)
"""Per card number, the first card number that does the same."""


def legal_plays(state: State, seat: int) -> tuple[DetroitClevelandAction, ...]:
    """Return every playable card of the hand (one of identical cards), then Decline if allowed."""
    actions: list[DetroitClevelandAction] = []
    seen: set[int] = set()
    for card in state.hands[seat]:
        content = _SAME[card]
        if content in seen:
            continue
        seen.add(content)
        if card in WHITE_CARDS and not movement_cards.playable(state, card, seat):
            continue
        play = PLAYS[card]
        assert play is not None
        actions.append(play)
    if may_decline(state, seat):
        actions.append(DECLINE)
    return tuple(actions)


def has_playable_card(state: State, seat: int) -> bool:
    """Return True when ``seat`` holds a card it may play: any but an unplayable white card."""
    hand = state.hands[seat]
    if not WHITE_CARDS.issuperset(hand):
        return True
    return any(movement_cards.playable(state, card, seat) for card in hand)


def card_played(state: State, event: CardPlayed) -> State:
    """Fold ``CardPlayed``: the card leaves the hand for the discard pile, face up.

    A switch card takes effect and ends the turn; a movement card's cars move next.
    """
    seat, card = event.seat, event.card
    hand = state.hands[seat]
    i = hand.index(card)
    state = replace(
        state,
        hands=(*state.hands[:seat], hand[:i] + hand[i + 1 :], *state.hands[seat + 1 :]),
        played=(*state.played, card),
        passes=0,
    )
    if card in SWITCHES:
        return end_turn(switch_played(state, seat, card))
    return movement_cards.card_started(state, card)


def hand_revealed(state: State, event: HandRevealed) -> State:
    """Fold ``HandRevealed``: the hand is public from now on, and the turn passes."""
    revealed = state.revealed
    if event.seat not in revealed:
        revealed = (*revealed, event.seat)
    return end_turn(replace(state, revealed=revealed, passes=state.passes + 1))


def consequence(state: State) -> CarMoved | CarSkipped | RaceEnded | HandRevealed | None:
    """Return what happens next in the race without a decision, or None.

    A car of the card in play that needs no decision moves; the race ends; a seat with
    no playable card shows its hand.
    """
    if state.card >= 0:
        return movement_cards.consequence(state)
    if race_over(state):
        return race_ended(state)
    seat = seat_to_play(state)
    if not has_playable_card(state, seat):
        return HandRevealed(seat=seat, cards=state.hands[seat])
    return None


def why_illegal(state: State, seat: int, action: DetroitClevelandAction) -> str:
    """Say why ``action`` is not legal for ``seat``, whose turn it is in the race."""
    if isinstance(action, Bid | Pass):
        return "bids and passes belong to the auction, not the race"
    if state.card >= 0:
        return movement_cards.why_illegal_move(state, action)
    if isinstance(action, Move):
        return "no card is being played: play a card first"
    if isinstance(action, Decline):
        return WHY_NOT_DECLINE
    hand = state.hands[seat]
    if action.card not in hand:
        return f"card #{action.card} is not in seat {seat}'s hand"
    twin = next((c for c in hand if c != action.card and CONTENT[c] == CONTENT[action.card]), None)
    if twin is not None and PLAYS[twin] in legal_plays(state, seat):
        return (
            f"card #{action.card} is identical to card #{twin}, and identical cards are "
            f"offered once: play card #{twin}"
        )
    return f"card #{action.card} is unplayable: no car can make its white move in full"
