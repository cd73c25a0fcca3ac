"""A plain LACORSA race, written by hand: the yardstick the engine's speed is measured against.

Base rules only, with uniformly random choices among the legal ones, and nothing else: no
events, no states, no bots, no logs. Cards are ``rank * 8 + suit`` as in the game's data;
ranks 0-2 are the Extend cards (1, 2, Drafting 3), 3-10 Standard 4-11, 11 the Champion 12
and 12 the Redline (value 0, adding 2 to the card played with it). It plays what the
engine plays for one race of ``cars`` cars, so that ``races a second`` of the two can be
put side by side in the same process.
"""

from __future__ import annotations

import random

HAND = 13
REDLINE = 12
DRAFTING = 2
VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0)
POINTS = (9, 6, 4, 3, 2, 1)


def _plays(hand: list[int]) -> list[tuple[int, ...]]:
    """One card of each rank, and the Redline with one card of each other rank."""
    singles: list[int] = []
    last = -1
    for c in hand:
        if c >> 3 != last:
            singles.append(c)
            last = c >> 3
    plays: list[tuple[int, ...]] = [(c,) for c in singles]
    if last == REDLINE:
        redline = singles.pop()
        plays.extend((redline, c) for c in singles)
    return plays


def _total(cards: tuple[int, ...]) -> int:
    if len(cards) == 1:
        return VALUES[cards[0] >> 3]
    return VALUES[cards[1] >> 3] + 2


def _play(hand: list[int], rng: random.Random) -> int:
    """Play a random sealed card (or Redline pair) from ``hand``; return its total."""
    plays = _plays(hand)
    cards = plays[rng.randrange(len(plays))]
    for c in cards:
        hand.remove(c)
    return _total(cards)


def race(cars: int, rng: random.Random) -> tuple[list[int], int]:
    """Play one race; return the points per car and how many decisions were taken."""
    deck = [rank * 8 + suit for rank in range(13) for suit in range(cars)]
    rng.shuffle(deck)
    hands = [sorted(deck[i * HAND : (i + 1) * HAND]) for i in range(cars)]
    decisions = cars
    # Qualifying: a sealed card each; ties are broken by a die, highest ahead.
    totals = [_play(hands[car], rng) for car in range(cars)]
    dice = [rng.randint(1, 6) for _ in range(cars)]
    order = sorted(range(cars), key=lambda car: (totals[car], dice[car]))  # back to front
    space = {car: i for i, car in enumerate(order)}
    lap_over_and_out = False
    while not lap_over_and_out:
        cursor, passes = 0, 0
        while cursor < cars:
            car = order[cursor]
            if not hands[car]:
                cursor, passes = cursor + 1, 0
                continue
            ahead = order[cursor + 1] if cursor + 1 < cars else -1
            if ahead >= 0 and space[ahead] == space[car] + 1:
                # A challenge: the car behind must attack; the winner carries on.
                decisions += 1
                attack = _play(hands[car], rng)
                defence = -1
                if hands[ahead]:
                    decisions += 1
                    defence = _play(hands[ahead], rng)
                if attack > defence:
                    order[cursor], order[cursor + 1] = ahead, car
                    space[car], space[ahead] = space[ahead], space[car]
                    passes += 1
                    if passes >= 2:
                        cursor, passes = cursor + 2, 0
                    else:
                        cursor += 1
                else:
                    cursor, passes = cursor + 1, 0
                continue
            # An open space ahead: extend with an Extend card, or discard to end the turn.
            decisions += 1
            hand = hands[car]
            leader = cursor == cars - 1
            choices: list[tuple[str, tuple[int, ...]]] = []
            last = -1
            for c in hand:
                r = c >> 3
                if r > DRAFTING:
                    break
                if r != last and not (leader and r == DRAFTING):
                    choices.append(("extend", (c,)))
                last = r
            choices.extend(("discard", cards) for cards in _plays(hand))
            kind, cards = choices[rng.randrange(len(choices))]
            for c in cards:
                hand.remove(c)
            if kind == "extend":
                space[car] += 1
            cursor, passes = cursor + 1, 0
        lap_over_and_out = any(not hand for hand in hands)
    points = [0] * cars
    for place, car in enumerate(reversed(order)):
        points[car] = POINTS[place]
    return points, decisions


def races(count: int, cars: int = 6, seed: int = 0) -> int:
    """Play ``count`` races; return how many (the benchmark's unit)."""
    rng = random.Random(seed)
    for _ in range(count):
        race(cars, rng)
    return count
