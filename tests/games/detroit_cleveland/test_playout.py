"""The light bot: the heuristic's bids, a race played off the cards' faces, and cheap."""

from __future__ import annotations

import random

from racedeck.core.runner import run_match
from racedeck.games.detroit_cleveland.actions import Move, Play
from racedeck.games.detroit_cleveland.bots import RIVAL_WEIGHT
from racedeck.games.detroit_cleveland.data import MOVES, SWITCHES, WHITE, WHITE_SHARE
from racedeck.games.detroit_cleveland.playout import (
    SWITCH_VALUE,
    DetroitClevelandLight,
    card_value,
)
from racedeck.games.detroit_cleveland.switch_cards import IDENTITY, colours_in_force
from racedeck.plugins import load_registry
from tests.games.detroit_cleveland.support import GAME, B, Y, options
from tests.games.detroit_cleveland.support import random_states as _random_states

REGISTRY = load_registry(entry_points=False)


def decisions(players: int, seeds: range, phase: str):  # type: ignore[no-untyped-def]
    """Yield (state, seat, legal) at every seat decision in ``phase`` of one-race random
    matches, seed by seed."""
    for seed in seeds:
        for state in _random_states({"races": 1}, players, seed):
            step = GAME.next_step(state)
            if step.engine or not step.seats or state.phase != phase:
                continue
            seat = step.seats[0]
            yield state, seat, GAME.legal_actions(state, seat)


FIVE_YELLOW = 25
"""A card that moves the yellow car five spaces and nothing else."""
WHITE_CARD = next(card for card, moves in sorted(MOVES.items()) if moves[2][0] == WHITE)
"""Rulebook card 8: blue 6, green 4, white 2, red 1."""


def test_a_card_is_worth_its_spaces_for_own_cars_less_a_share_of_rivals() -> None:
    """Own cars' spaces count in full, a rival's at -RIVAL_WEIGHT, an unowned car's not."""
    assert MOVES[FIVE_YELLOW] == ((Y, 5),)
    mine = (1.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    theirs = (-RIVAL_WEIGHT, 0.0, 0.0, 0.0, 0.0, 0.0)
    assert card_value(FIVE_YELLOW, IDENTITY, mine) == 5.0
    assert card_value(FIVE_YELLOW, IDENTITY, theirs) == -5 * RIVAL_WEIGHT
    assert card_value(FIVE_YELLOW, IDENTITY, (0.0,) * 6) == 0.0


def test_a_switch_moves_the_value_to_the_car_the_colour_now_moves() -> None:
    """With yellow and blue switched, a yellow card moves the blue car, and is valued so."""
    swapped = tuple(B if c == Y else Y if c == B else c for c in IDENTITY)
    blue_is_mine = (0.0, 1.0, 0.0, 0.0, 0.0, 0.0)
    assert card_value(FIVE_YELLOW, swapped, blue_is_mine) == 5.0
    assert card_value(FIVE_YELLOW, IDENTITY, blue_is_mine) == 0.0


def test_white_takes_the_best_stake_among_the_cars_the_card_leaves_free() -> None:
    """The Cards: "the color chosen may not appear elsewhere on the card". White's
    share goes to the best car not printed on the card, at ``WHITE_SHARE``."""
    blue, green, _, red = (colour for colour, _ in MOVES[WHITE_CARD])
    white = MOVES[WHITE_CARD][2][1]
    stakes = [0.0] * 6
    stakes[blue] = 1.0  # on the card: white may not move it
    spare = next(car for car in range(6) if car not in (blue, green, red))
    stakes[spare] = 1.0
    value = card_value(WHITE_CARD, IDENTITY, tuple(stakes))
    assert value == 6 * 1.0 + white * WHITE_SHARE * 1.0
    stakes[spare] = -RIVAL_WEIGHT
    # Every free car is a rival's or nobody's: white goes to nobody's car, worth nothing.
    assert card_value(WHITE_CARD, IDENTITY, tuple(stakes)) == 6.0


def test_a_switch_card_is_kept_for_when_every_movement_card_hurts() -> None:
    """A switch card is worth ``SWITCH_VALUE``, below any card that helps the bot's cars."""
    switch = next(iter(SWITCHES))
    assert card_value(switch, IDENTITY, (1.0,) * 6) == SWITCH_VALUE < 0


def test_the_light_bot_plays_legal_actions_and_beats_random() -> None:
    """Whole matches at two to six players: no fault, and nearly every one won."""
    light = REGISTRY.bot("light", GAME.name)
    random_bot = REGISTRY.bot("random", GAME.name)
    wins = matches = 0
    for players in (2, 3, 6):
        for seed in range(6):
            seat = seed % players
            seats = [light if s == seat else random_bot for s in range(players)]
            outcome = run_match(GAME, options(races=1), seats, 500 + seed)
            assert not outcome.faults
            wins += outcome.result.ranks[seat] == 1
            matches += 1
    assert wins >= 0.8 * matches


def test_the_light_bot_moves_its_own_car_far_and_a_rivals_short() -> None:
    """A car of its own goes to the farthest destination offered, a rival's to the nearest."""
    checked = {True: 0, False: 0}
    for state, seat, legal in decisions(2, range(6), "race"):
        moves = [a for a in legal if isinstance(a, Move)]
        if len(moves) < 2 or len({m.car for m in moves}) != 1:
            continue
        car = moves[0].car
        if state.owner[car] < 0 or any(m.to == "finish" for m in moves):
            continue
        bot = DetroitClevelandLight()
        bot.start_match(GAME.name, seat, 2, state.options)
        chosen = bot.act(GAME.observe(state, seat), legal, random.Random(0))
        assert bot.track is not None
        distance = {m: bot.track.distances[bot.track.index[m.to]] for m in moves}
        own = state.owner[car] == seat
        wanted = max(distance.values()) if own else min(distance.values())
        assert distance[chosen] == wanted  # type: ignore[index]
        checked[own] += 1
    assert checked[True] and checked[False]


def test_the_light_bot_bids_as_the_heuristic() -> None:
    """In the auction it is the heuristic: the same bid or pass at every decision."""
    heuristic = REGISTRY.bot("heuristic", GAME.name).factory()
    light = DetroitClevelandLight()
    asked = 0
    for state, seat, legal in decisions(3, range(4), "auction"):
        for bot in (heuristic, light):
            bot.start_match(GAME.name, seat, 3, state.options)
        observation = GAME.observe(state, seat)
        rng = random.Random(0)
        assert light.act(observation, legal, rng) == heuristic.act(observation, legal, rng)
        asked += 1
    assert asked > 10


def test_a_card_play_is_the_best_valued_card_of_the_hand() -> None:
    """Among the cards offered, the one ``card_value`` rates highest (the first on a tie)."""
    checked = 0
    for state, seat, legal in decisions(2, range(4), "race"):
        if not all(isinstance(a, Play) for a in legal) or len(legal) < 2:
            continue
        bot = DetroitClevelandLight()
        bot.start_match(GAME.name, seat, 2, state.options)
        observation = GAME.observe(state, seat)
        stakes = bot._stakes(observation)
        mapping = colours_in_force(state.switches) if state.switches else IDENTITY
        values = [card_value(a.card, mapping, stakes) for a in legal]  # type: ignore[attr-defined]
        chosen = bot.act(observation, legal, random.Random(0))
        assert chosen == legal[values.index(max(values))]
        checked += 1
    assert checked > 10
