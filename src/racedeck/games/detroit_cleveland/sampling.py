"""Detroit-Cleveland: a state consistent with one seat's observation, for search bots.

What the seat sees is copied; what it cannot see is filled with placeholders that
``hidden_variants`` then redeals (``Game.sample_state`` does both). During the auction a
sampled deal is also read against the bids seen (``read_the_bids``): a seat that bid high
on a car most likely holds the cards that move it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any, NamedTuple

from msgspec.structs import replace

from racedeck.core.rng import Rng
from racedeck.games.detroit_cleveland.bots import worths_of
from racedeck.games.detroit_cleveland.data import BID_STEP, TEN_COUNT, colour_movement
from racedeck.games.detroit_cleveland.state import DetroitClevelandState

BURN_IN = 300
"""Card swaps ``read_the_bids`` makes before its first deal."""
THIN = 8
"""Card swaps it makes between one deal and the next."""


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
    return replace(state, hands=tuple(hands), bid_deck=_shuffled_deck(state, rng))


def _shuffled_deck(state: DetroitClevelandState, rng: Rng) -> tuple[int, ...]:
    """Return the bidding deck with its face-down part shuffled (refused cars stay below)."""
    deck = state.bid_deck
    hidden = sum(1 for car in deck if car not in state.refused)
    top = list(deck[:hidden])
    rng.shuffle(top)
    return (*top, *deck[hidden:])


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


@functools.cache
def card_movement(card: int) -> tuple[float, ...]:
    """Return the movement one card adds to a hand's ``colour_movement``, per car."""
    return tuple(colour_movement((card,), False))


def _plus(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _minus(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, ...]:
    return tuple(x - y for x, y in zip(a, b, strict=True))


class BidReading(NamedTuple):
    """What one seat's bids and passes this race say of its hand, read as the heuristic bids.

    ``extra[k]`` is the movement the 10 count cards of its first ``k`` cars bought add;
    each of ``bids`` is ``(k, car, amount)``, a bid the hand (with ``k`` cars bought then)
    made, so the car was worth at least ``amount`` to it; each of ``passes`` is ``(k, car,
    price)``, a pass at a price the seat could pay, so the car was worth less.
    """

    extra: tuple[tuple[float, ...], ...]
    bids: tuple[tuple[int, int, int], ...]
    passes: tuple[tuple[int, int, int], ...]

    def misfit(self, totals: tuple[float, ...], players: int, ten_to_buyer: bool) -> int:
        """Return by how many dollars a hand holding ``totals`` misses these bids and passes.

        ``totals`` is the movement of the hand as dealt (``colour_movement`` of it). A bid
        the hand's worth falls short of misses by the shortfall, a pass at a price the
        worth reaches by the excess and one dollar; 0 when the hand explains them all.
        Dollars rather than a count, so that a search for a fitting deal can tell a near
        miss from a far one.
        """
        worth: dict[int, tuple[int, ...]] = {}
        count = 0
        for rows, bid in ((self.bids, True), (self.passes, False)):
            for k, car, price in rows:
                seen = worth.get(k)
                if seen is None:
                    held = _plus(totals, self.extra[k])
                    seen = worth[k] = worths_of(held, players, ten_to_buyer)
                most = seen[car]
                if bid:
                    count += max(0, price - most)
                else:
                    count += max(0, most - price + 1)
        return count


def bid_reading(state: DetroitClevelandState, seat: int) -> BidReading:
    """Return what ``seat``'s bids and passes of the race's auction say of its hand.

    The heuristic raises while the price is within what its hand makes the car worth
    (``worths``) and passes once it is not; a pass for want of money says nothing (the
    money the seat has now is the least it had). The hand at a bid is the dealt one with
    the 10 count cards of the cars the seat had bought by then.
    """
    ten_to_buyer = not state.options.ten_counts_in_deck
    owned = [car for car in state.start_order if state.owner[car] == seat] if ten_to_buyer else []
    extra: list[tuple[float, ...]] = [(0.0,) * 6]
    for car in owned:
        extra.append(_plus(extra[-1], card_movement(TEN_COUNT[car])))
    order = {car: index for index, car in enumerate(state.start_order)}
    money = state.money[seat]
    high: dict[int, int] = {}
    bids: list[tuple[int, int, int]] = []
    passes: list[tuple[int, int, int]] = []
    for entry in state.auction:
        car = entry.car
        price = high.get(car, 0) + BID_STEP
        if entry.amount:
            high[car] = entry.amount
        if entry.seat != seat:
            continue
        # Its cars bought before this one was on offer (all of them, if it is not sold).
        before = order.get(car, len(order))
        k = sum(1 for mine in owned if order[mine] < before)
        if entry.amount:
            bids.append((k, car, entry.amount))
        elif price <= money:
            passes.append((k, car, price))
    return BidReading(tuple(extra), tuple(bids), tuple(passes))


def read_the_bids(
    state: DetroitClevelandState, seat: int, rng: Rng
) -> Iterator[DetroitClevelandState]:
    """Yield deals ``seat`` cannot tell from the truth that explain the bids seen, endlessly.

    A heuristic that bids high on a car usually holds the cards that move it, and one
    that passes early does not; a uniform deal ignores that, and a search then overrates
    its own cars against the others'. So the unseen cards are first dealt at random
    (``hidden_variants``), then swapped, one card between two hidden hands at a time, a
    swap kept unless it leaves more of the bids and passes unexplained (``bid_reading``):
    ``BURN_IN`` swaps before the first deal, ``THIN`` between deals. Once every bid is
    explained the swaps wander among the deals that explain them all; bids that no deal
    explains (a bot that bids otherwise) are explained as far as they can be. Every deal
    gives back the observation. With fewer than two hidden hands, or no bids to read, the
    deals are ``hidden_variants``' own.
    """
    hidden = [
        other for other in range(len(state.hands)) if other != seat and other not in state.revealed
    ]
    readings = {other: bid_reading(state, other) for other in hidden}
    if len(hidden) < 2 or not any(r.bids or r.passes for r in readings.values()):
        while True:
            dealt = hidden_variants(state, seat, rng)
            assert dealt is not None
            yield dealt
    first = hidden_variants(state, seat, rng)
    assert first is not None
    ten_to_buyer = not state.options.ten_counts_in_deck
    players = state.players
    fixed = {
        other: {TEN_COUNT[car] for car in range(6) if state.owner[car] == other}
        if ten_to_buyer
        else set()
        for other in hidden
    }
    # Per hidden hand, its cards that may move (all but the 10 counts its buyer took).
    free = {other: [c for c in first.hands[other] if c not in fixed[other]] for other in hidden}
    seats = [other for other in hidden if free[other]]
    totals: dict[int, tuple[float, ...]] = {}
    misfits: dict[int, int] = {}
    base: tuple[float, ...] = (10.0 if ten_to_buyer else 0.0,) * 6
    for other in hidden:
        held = base
        for card in free[other]:
            held = _plus(held, card_movement(card))
        totals[other] = held
        misfits[other] = readings[other].misfit(held, players, ten_to_buyer)

    def swap() -> None:
        a, b = rng.sample(seats, 2)
        i, j = rng.randrange(len(free[a])), rng.randrange(len(free[b]))
        x, y = free[a][i], free[b][j]
        if x == y:
            return
        mx, my = card_movement(x), card_movement(y)
        ta = _plus(totals[a], _minus(my, mx))
        tb = _plus(totals[b], _minus(mx, my))
        fa = readings[a].misfit(ta, players, ten_to_buyer)
        fb = readings[b].misfit(tb, players, ten_to_buyer)
        if fa + fb > misfits[a] + misfits[b]:
            return
        free[a][i], free[b][j] = y, x
        totals[a], totals[b], misfits[a], misfits[b] = ta, tb, fa, fb

    kept = {other: fixed[other] & set(first.hands[other]) for other in hidden}
    swaps = BURN_IN
    while True:
        if len(seats) >= 2:
            for _ in range(swaps):
                swap()
        hands = list(first.hands)
        for other in hidden:
            hands[other] = tuple(sorted((*kept[other], *free[other])))
        yield replace(state, hands=tuple(hands), bid_deck=_shuffled_deck(state, rng))
        swaps = THIN
