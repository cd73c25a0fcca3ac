"""Stand-in state builders: a state consistent with an observation, per built-in game.

Each builder turns one seat's observation (and the match's options) into *some* state
that gives exactly that observation: what the seat sees is copied, what it cannot see is
filled with placeholders that ``hidden_variants`` then redeals. Public facts a game's
observation leaves out are approximated, as each builder's docstring says; they would go
away if the game implemented ``sample_state`` itself.
"""

from __future__ import annotations

from typing import Any


def lacorsa_state(observation: Any, options: Any) -> Any:
    """Rebuild a LACORSA state from a seat's observation, other cars' cards as placeholders."""
    from racedeck.games.lacorsa.state import LacorsaState

    obs = observation
    hands: list[tuple[int, ...]] = []
    committed: list[tuple[int, ...] | None] = []
    for car, hand in enumerate(obs.hands):
        if obs.owner[car] == obs.seat:
            hands.append(hand or ())
            committed.append(obs.own_committed[car])
        else:
            sealed = obs.committed[car]
            hands.append((0,) * (obs.hand_sizes[car] - (1 if sealed else 0)))
            committed.append((0,) if sealed else None)
    acting = obs.phase in ("move", "challenge") and obs.active_car >= 0
    return LacorsaState(
        options=options,
        players=obs.players,
        owner=obs.owner,
        phase=obs.phase,
        race=obs.race,
        hands=tuple(hands),
        committed=tuple(committed),
        order=obs.order,
        spaces=obs.spaces,
        lap=obs.lap,
        cursor=obs.order.index(obs.active_car) if acting else 0,
        passes=obs.passes,
        attacker=obs.attacker,
        defender=obs.defender,
        played=obs.played,
        qualifying_totals=obs.qualifying_totals,
        results=obs.results,
        points=obs.points,
    )


def famous500_state(observation: Any, options: Any) -> Any:
    """Rebuild a Famous 500 state from a driver's observation.

    Not observed, so approximated: which unknown pit-deck cards the opponent put there (any
    of them may be), what the opponent knows of this driver's hand, the points of a section
    being pitted (0), the first rows of the car sheets (the current ones) and the opponent's
    sealed answers (not given yet).
    """
    from racedeck.games.famous500.state import Famous500State

    obs = observation
    seat, other = obs.seat, 1 - obs.seat
    filler = obs.setup.speeds[0]
    hands = [(), ()]
    hands[seat] = obs.hand
    hands[other] = (filler,) * obs.hand_sizes[other]
    revealed = obs.phase in ("pit_draw", "pit_return", "pit_repair")
    laid = [0, 0]
    laid[seat] = obs.laid
    if obs.opponent_laid:
        laid[other] = obs.revealed[other] if revealed and obs.revealed[other] else filler
    both = obs.cars[other] is not None
    designed = [both, both]
    designed[seat] = obs.cars[seat] is not None
    known: list[tuple[int, ...]] = [(), ()]
    known[seat] = obs.opponent_known
    maybe: list[tuple[int, ...]] = [(), ()]
    maybe[seat] = getattr(obs, "opponent_maybe", ())
    cars = tuple(car or (0, 0, 0, 0) for car in obs.cars)
    fields: dict[str, Any] = {
        "options": options,
        "setup": obs.setup,
        "phase": obs.phase,
        "deals": obs.deals,
        "hands": tuple(hands),
        "pit_deck": tuple(c or filler for c in obs.pit_deck_known),
        "deck_known": tuple((1 << seat) if c else (1 << other) for c in obs.pit_deck_known),
        "opponent_known": tuple(known),
        "opponent_maybe": tuple(maybe),
        "cars": cars,
        "designed": tuple(designed),
        "designs": cars,
        "lap": obs.lap,
        "section": obs.section,
        "laid": tuple(laid),
        "pits": obs.pits,
        "pit_order": obs.pit_order,
        "trailing": obs.trailing,
        "discards": obs.discards,
        "history": obs.history,
        "winner": obs.winner,
    }
    present = set(Famous500State.__struct_fields__)
    return Famous500State(**{k: v for k, v in fields.items() if k in present})


def detroit_cleveland_state(observation: Any, options: Any) -> Any:
    """Rebuild a Detroit-Cleveland state from a seat's observation.

    Not observed, so approximated: the turns in a row without a card (taken as 0), the
    absolute turn number (the smallest consistent with the switches in force), and the
    owners of cars in past races (unowned).
    """
    from racedeck.games.detroit_cleveland import data as rules
    from racedeck.games.detroit_cleveland.state import NO_CARS, DetroitClevelandState

    obs = observation
    players, seat = obs.players, obs.seat
    revealed = tuple(s for s in range(players) if s != seat and obs.hands[s] is not None)
    in_deck = bool(options.ten_counts_in_deck)
    cards = list(rules.RACE_DECK) + (list(rules.TEN_COUNT) if in_deck else [])
    if not in_deck:
        cards.extend(rules.TEN_COUNT[car] for car in range(6) if obs.owner[car] >= 0)
    for seen in (obs.hand, *(obs.hands[s] or () for s in revealed), obs.played):
        for card in seen:
            if card in cards:
                cards.remove(card)
    hands: list[tuple[int, ...]] = []
    for s in range(players):
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
    turn = 0
    if obs.phase == "race" and obs.order:
        at = obs.order.index(obs.to_act) if obs.to_act in obs.order else 0
        floor = max((sw.until - players for sw in obs.switches), default=0)
        turn = floor + (at - floor) % players
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
        turn=turn,
        card=obs.card,
        slot=obs.slot,
        switches=obs.switches,
        played=obs.played,
        revealed=revealed,
        finished=obs.finished,
        results=obs.results,
        owners=(NO_CARS,) * len(obs.results),
    )


def wacky_races_state(observation: Any, options: Any) -> Any:
    """Rebuild a Wacky Races state from a seat's observation.

    Not observed, so approximated: the racers of each car in past races (taken as this
    race's). Hidden hands, the draw pile and face-down traps are filled from the cards
    and traps not seen, then redealt by ``hidden_variants``.
    """
    from racedeck.games.wacky_races import data
    from racedeck.games.wacky_races.state import WackyState

    obs = observation
    players, seat = obs.players, obs.seat
    unseen = [kind for kind, n in enumerate(data.DECK) for _ in range(n)]
    for kind, n in enumerate(obs.discard):
        for _ in range(n):
            unseen.remove(kind)
    for card in obs.hand:
        unseen.remove(card)
    hands: list[tuple[int, ...]] = []
    for s in range(players if obs.hand_sizes else 0):
        if s == seat:
            hands.append(obs.hand)
        else:
            hands.append(tuple(sorted(unseen[: obs.hand_sizes[s]])))
            del unseen[: obs.hand_sizes[s]]
    traps_unseen = [kind for kind, n in enumerate(data.TRAP_COPIES) for _ in range(n)]
    for kind, n in enumerate(obs.trap_discard):
        for _ in range(n):
            traps_unseen.remove(kind)
    traps = []
    for down in obs.traps:
        traps.append(traps_unseen.pop() if down else -1)
    if not obs.hand_sizes:  # before the race is set up there are no piles yet
        unseen, traps_unseen = [], []
    first = obs.race % players if players else 0
    return WackyState(
        options=options,
        players=players,
        phase=obs.phase,
        racer_of_seat=obs.racer_of_seat,
        race=obs.race,
        tiles=obs.tiles,
        field=obs.field,
        pos=obs.pos,
        stamp=obs.stamp,
        clock=max(obs.stamp, default=-1) + 1,
        dastardly=obs.dastardly,
        traps=tuple(traps),
        trap_deck=tuple(traps_unseen),
        trap_discard=obs.trap_discard,
        hands=tuple(hands),
        draw=tuple(unseen),
        discard=obs.discard,
        top=obs.top,
        exhausted=obs.exhausted,
        glued=obs.glued,
        first_seat=first,
        active=obs.active,
        round=obs.round,
        turn_in_round=(obs.active - first) % players if players else 0,
        steps=obs.steps,
        wild=obs.wild,
        gas_done=obs.gas_done,
        finished=obs.finished,
        results=obs.results,
        fields=(obs.field,) * len(obs.results),
        points=obs.points,
    )
