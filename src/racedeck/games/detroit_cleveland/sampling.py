"""Detroit-Cleveland: a state consistent with one seat's observation, for search bots.

What the seat sees is copied; what it cannot see is filled with placeholders that the
game's ``hidden_variants`` then redeals (``Game.sample_state`` does both).
"""

from __future__ import annotations

from typing import Any


def state_from_observation(observation: Any, options: Any) -> Any:
    """Rebuild a Detroit-Cleveland state from a seat's observation.

    Every public fact is observed (the turn, the turns in a row without a card, past
    races' owners), so only the hidden cards are placeholders: the other hands are filled
    from the cards the seat has not seen, and the face-down bidding deck in car order.
    """
    from racedeck.games.detroit_cleveland import data as rules
    from racedeck.games.detroit_cleveland.state import DetroitClevelandState

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
