"""Detroit-Cleveland: a state consistent with one seat's observation, for search bots.

What the seat sees is copied; what it cannot see is filled with placeholders that
``hidden_variants`` then redeals (``Game.sample_state`` does both).
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from racedeck.core.rng import Rng
from racedeck.games.detroit_cleveland.data import TEN_COUNT
from racedeck.games.detroit_cleveland.state import DetroitClevelandState


def hidden_variants(
    state: DetroitClevelandState, seat: int, rng: Rng
) -> DetroitClevelandState | None:
    """Redeal the cards ``seat`` cannot see among the other hands, sizes kept.

    Shown hands stay as they are, and so do the 10 count cards a buyer took into his
    hand; the face-down part of the bidding deck is shuffled too.
    """
    if not state.hands:
        return None
    known: list[tuple[int, ...]] = []
    pool: list[int] = []
    tens_known = not state.options.ten_counts_in_deck
    for other, hand in enumerate(state.hands):
        if other == seat or other in state.revealed:
            known.append(hand)
            continue
        fixed = tuple(
            TEN_COUNT[car]
            for car in range(6)
            if tens_known and state.owner[car] == other and TEN_COUNT[car] in hand
        )
        known.append(fixed)
        pool.extend(c for c in hand if c not in fixed)
    rng.shuffle(pool)
    hands: list[tuple[int, ...]] = []
    for other, hand in enumerate(state.hands):
        fixed = known[other]
        need = len(hand) - len(fixed)
        dealt, pool = pool[:need], pool[need:]
        hands.append(tuple(sorted((*fixed, *dealt))))
    deck = state.bid_deck
    hidden = sum(1 for car in deck if car not in state.refused)
    top = list(deck[:hidden])
    rng.shuffle(top)
    return replace(state, hands=tuple(hands), bid_deck=(*top, *deck[hidden:]))


def state_from_observation(observation: Any, options: Any) -> Any:
    """Rebuild a Detroit-Cleveland state from a seat's observation.

    Every public fact is observed (the turn, the turns in a row without a card, past
    races' owners), so only the hidden cards are placeholders: the other hands are filled
    from the cards the seat has not seen, and the face-down bidding deck in car order.
    """
    from racedeck.games.detroit_cleveland import data as rules

    obs = observation
    players, seat = obs.players, obs.seat
    dealt = len(obs.hands)  # 0 between races: nothing is dealt
    revealed = tuple(s for s in range(dealt) if s != seat and obs.hands[s] is not None)
    in_deck = bool(options.ten_counts_in_deck)
    cards = list(rules.RACE_DECK) + (list(rules.TEN_COUNT) if in_deck else [])
    if not in_deck:
        cards.extend(rules.TEN_COUNT[car] for car in range(6) if obs.owner[car] >= 0)
    for seen in (obs.hand, *(obs.hands[s] or () for s in revealed), obs.played):
        for card in seen:
            if card in cards:
                cards.remove(card)
    hands: list[tuple[int, ...]] = []
    for s in range(dealt):
        if s == seat or s in revealed:
            hands.append(tuple(obs.hands[s] or obs.hand if s == seat else obs.hands[s]))
            continue
        fixed = [
            rules.TEN_COUNT[car]
            for car in range(6)
            if not in_deck and obs.owner[car] == s and rules.TEN_COUNT[car] in cards
        ]
        for card in fixed:
            cards.remove(card)
        need = obs.hand_sizes[s] - len(fixed)
        hands.append(tuple(sorted(fixed + cards[:need])))
        del cards[:need]
    placed = set(obs.start_order) | {car for car in range(6) if obs.owner[car] >= 0}
    waiting = [car for car in range(6) if car not in placed and car != obs.offer]
    bottom = [car for car in obs.refused if car in waiting]
    deck = tuple(car for car in waiting if car not in bottom) + tuple(bottom)
    bought = [car for car in obs.start_order if obs.owner[car] >= 0]
    return DetroitClevelandState(
        options=options,
        players=players,
        money=obs.money,
        phase=obs.phase,
        race=obs.race,
        dealer=obs.dealer,
        hands=tuple(hands) if obs.phase in ("auction", "race") else (),
        owner=obs.owner,
        positions=obs.positions,
        start_order=obs.start_order,
        bid_deck=deck,
        refused=obs.refused,
        offer=obs.offer,
        high_bid=obs.high_bid,
        high_bidder=obs.high_bidder,
        passed=obs.passed,
        bidder=obs.bidder,
        last_buyer=obs.owner[bought[-1]] if bought else -1,
        auction=obs.auction,
        order=obs.order,
        turn=obs.turn,
        passes=obs.passes,
        card=obs.card,
        slot=obs.slot,
        switches=obs.switches,
        played=obs.played,
        revealed=revealed,
        finished=obs.finished,
        results=obs.results,
        owners=obs.owners,
    )
