"""Dealing the Cards: three cards each, the pit deck, and false starts.

The rulebook's section "Dealing the Cards", with "Three cards each" and "Check for false
starts":

    Shuffle the nine Speed cards and deal three facedown to each player. The three
    remaining cards form a facedown Pit Deck off to one side.

    Look at the three cards you've been dealt. If all three show a speed greater than
    100, you can declare a false start and insist that the cards be shuffled and redealt.

The engine shuffles and deals. After every deal both drivers answer at once (sealed):
keep the cards, or, for a driver whose three cards are all above 100, declare a false
start; either declaration means a new shuffle and deal, as often as it happens. Asking
both keeps the question from telling the opponent whose hand qualified.

The pit deck formed here is drawn from in two places (between laps and in the pit), so
the draw from its top lives here too: ``draw_from_pit_deck``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec.structs import replace

from racedeck.games.famous500.actions import FalseStart, Famous500Action, KeepCards
from racedeck.games.famous500.events import CardDrawn, Dealt, StartChosen
from racedeck.games.famous500.hands import SEATS, add, pair, remove
from racedeck.games.famous500.state import Famous500State, Phase

if TYPE_CHECKING:
    from racedeck.games.famous500.hands import RaceTurn

HAND = 3
"""Three cards to each driver; the rest (three of nine) is the pit deck."""

_KEEP_ONLY: tuple[Famous500Action, ...] = (KeepCards(),)
_KEEP_OR_FALSE_START: tuple[Famous500Action, ...] = (KeepCards(), FalseStart())
_NOTHING: tuple[Famous500Action, ...] = ()


def deal(turn: RaceTurn) -> None:
    """Shuffle the nine cards (the engine's turn): three to each driver, three as the pit deck."""
    state = turn.state
    cards = list(state.setup.speeds)
    turn.rng.shuffle(cards)
    turn.emit(
        Dealt(
            deal=state.deals + 1,
            hands=(tuple(sorted(cards[0:HAND])), tuple(sorted(cards[HAND : 2 * HAND]))),
            pit_deck=tuple(cards[2 * HAND : 3 * HAND]),
        )
    )


def dealt(state: Famous500State, event: Dealt) -> Famous500State:
    """Fold a deal: new hands and pit deck, nobody knows anything of the other's cards."""
    return replace(
        state,
        phase="start",
        deals=event.deal,
        hands=tuple(event.hands),
        pit_deck=event.pit_deck,
        deck_known=(0,) * len(event.pit_deck),
        opponent_known=((), ()),
        opponent_maybe=((), ()),
        start=(-1, -1),
    )


def may_false_start(state: Famous500State, seat: int) -> bool:
    """Return True when every card dealt to ``seat`` is above the false-start speed (100)."""
    above = state.setup.false_start_above
    return all(c > above for c in state.hands[seat])


def start_choices(state: Famous500State, seat: int) -> tuple[Famous500Action, ...]:
    """Return a driver's answers to the deal: keep, and a false start where it may."""
    if seat not in SEATS or state.start[seat] >= 0:
        return _NOTHING
    return _KEEP_OR_FALSE_START if may_false_start(state, seat) else _KEEP_ONLY


def answer_the_deal(turn: RaceTurn, seat: int, action: KeepCards | FalseStart) -> None:
    """Emit a driver's sealed answer to the deal."""
    turn.emit(StartChosen(seat=seat, false_start=isinstance(action, FalseStart)))


def start_chosen(state: Famous500State, event: StartChosen) -> Famous500State:
    """Fold one answer; once both are in, a false start redeals, else the cars are designed."""
    start = pair(state.start, event.seat, 1 if event.false_start else 0)
    phase = state.phase
    if start[0] >= 0 and start[1] >= 0:
        phase = "deal" if max(start) == 1 else "design"
    return replace(state, start=start, phase=phase)


def why_no_false_start(state: Famous500State, seat: int) -> str:
    """Say why ``seat`` may not declare a false start."""
    return (
        f"a false start needs all three cards above {state.setup.false_start_above}; "
        f"seat {seat} holds {state.hands[seat]}"
    )


# The pit deck ----------------------------------------------------------------------------
def draw_from_pit_deck(state: Famous500State, event: CardDrawn, phase: Phase) -> Famous500State:
    """Return the state after a draw from the top of the pit deck, in ``phase`` next.

    The drawer's opponent learns the card when it put it there itself; a card the drawer
    half-knew its opponent held (``opponent_maybe``) is now in the drawer's own hand.
    """
    seat = event.seat
    other = 1 - seat
    known = state.opponent_known
    if state.deck_known[0] & (1 << other):
        known = pair(known, other, (*known[other], event.card))
    maybe = state.opponent_maybe
    if event.card in maybe[seat]:
        maybe = pair(maybe, seat, remove(maybe[seat], event.card))
    return replace(
        state,
        hands=pair(state.hands, seat, add(state.hands[seat], event.card)),
        pit_deck=state.pit_deck[1:],
        deck_known=state.deck_known[1:],
        opponent_known=known,
        opponent_maybe=maybe,
        phase=phase,
    )
