"""What one seat may know: its own hand, the hands shown to everyone, every public fact.

Running the Race: "If a player feels he has no playable card, he must reveal his cards to
evidence that fact." "Cards are played face-up in a discard pile in the center of the game
board." The bidding deck lies face down (The Setup), so its order is hidden from everyone;
the cars refused once are known to wait at its bottom.
"""

from __future__ import annotations

from racedeck.games.detroit_cleveland.state import (
    DetroitClevelandObservation,
    DetroitClevelandState,
)
from racedeck.games.detroit_cleveland.turn_order import to_act


def observe(state: DetroitClevelandState, seat: int) -> DetroitClevelandObservation:
    """Return what ``seat`` knows: its own hand, shown hands and every public fact."""
    hands = state.hands
    options = state.options
    known: list[tuple[int, ...] | None] = [None] * len(hands)
    if hands:
        known[seat] = hands[seat]
        for other in state.revealed:
            known[other] = hands[other]
    return DetroitClevelandObservation(
        seat=seat,
        players=state.players,
        phase=state.phase,
        race=state.race,
        races=options.races,
        dealer=state.dealer,
        money=state.money,
        owner=state.owner,
        positions=state.positions,
        start_order=state.start_order,
        finished=state.finished,
        hand=hands[seat] if hands else (),
        hands=tuple(known),
        hand_sizes=tuple(map(len, hands)),
        played=state.played,
        offer=state.offer,
        high_bid=state.high_bid,
        high_bidder=state.high_bidder,
        passed=state.passed,
        bidder=state.bidder,
        auction=state.auction,
        refused=state.refused,
        cars_left=len(state.bid_deck),
        order=state.order,
        to_act=to_act(state),
        card=state.card,
        slot=state.slot,
        switches=state.switches,
        results=state.results,
        track=options.track,
        track_hash=options.track_hash,
        turn=state.turn,
        passes=state.passes,
        owners=state.owners,
    )
