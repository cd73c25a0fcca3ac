"""Detroit-Cleveland's heuristic bot.

Bidding: a car is worth the prize money its owner can expect, and that grows with the
movement the bot holds for its colour (cards showing it, white cards that could move it,
the 10 count card it would take). The bot raises by the minimum while the price stays
below that worth, with a margin.

Racing: every card is tried with greedy choices, car by car, and scored by how far the
bot's cars get, how little its rivals' cars get, and how hemmed in the rivals are; the
best card is played. Destinations are chosen by the same score.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from racedeck.core.bot import Bot
from racedeck.core.model import Action, Observation, Options
from racedeck.core.rng import Rng
from racedeck.games.detroit_cleveland.actions import Bid, Decline, Move, Pass, Play
from racedeck.games.detroit_cleveland.data import (
    MOVES,
    PRIZES,
    RACE_DECK,
    WHITE,
)
from racedeck.games.detroit_cleveland.movement import Positions, moved, reach_past, within
from racedeck.games.detroit_cleveland.movement_cards import (
    NO_ONE,
    CardPlay,
    Option,
    card_play_for,
    own_cars,
)
from racedeck.games.detroit_cleveland.options import DetroitClevelandOptions, track_of
from racedeck.games.detroit_cleveland.state import DetroitClevelandObservation
from racedeck.games.detroit_cleveland.switch_cards import IDENTITY, colours_in_force
from racedeck.games.detroit_cleveland.track import FINISH, Track

COLOUR_MOVEMENT = sum(
    count for card in RACE_DECK for colour, count in MOVES.get(card, ()) if colour == 0
)
"""Movement the race deck holds for one colour (every colour holds the same)."""

RIVAL_WEIGHT = 0.5
"""How much a rival car's progress counts against the bot, per unit of its own."""
MOBILITY_LOOKAHEAD = 3
"""How many spaces ahead the bot looks when it judges whether a car is hemmed in."""
MOBILITY_WEIGHT = 1.0
PLACE_BONUS = 4.0
"""Extra score per place better, for a car across the line."""
BID_MARGIN = 0.75
"""The share of a car's estimated worth the bot will pay at most."""
STRENGTH_DOLLARS = 6_000
"""Estimated prize money per space of movement held above the average for a colour."""
WHITE_SHARE = 0.5
"""How much of a white count the bot credits to a colour it could be used for."""
SCORES_KEPT = 20_000
"""How many scores of positions the bot keeps per owners and finishing order."""


@functools.lru_cache(maxsize=16)
def _free_terms(track: Track) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Per space, the term of the bot's car and of a rival's there with nothing in reach.

    Computed with the very operations of the score, so the terms are the same floats.
    """
    mine: list[float] = []
    rival: list[float] = []
    for value in track.distances:
        value += MOBILITY_WEIGHT * float(MOBILITY_LOOKAHEAD)
        mine.append(value)
        rival.append(-RIVAL_WEIGHT * value)
    return tuple(mine), tuple(rival)


def colour_movement(hand: Sequence[int], ten_to_buyer: bool) -> list[float]:
    """Return the movement the hand holds for each car, white counted at a share."""
    totals = [10.0 if ten_to_buyer else 0.0] * 6
    for card in hand:
        moves = MOVES.get(card)
        if moves is None:
            continue
        printed = {colour for colour, _ in moves}
        for colour, count in moves:
            if colour == WHITE:
                for car in range(6):
                    if car not in printed:
                        totals[car] += count * WHITE_SHARE
            else:
                totals[colour] += count
    return totals


@functools.lru_cache(maxsize=4096)
def worths(hand: tuple[int, ...], players: int, ten_to_buyer: bool) -> tuple[int, ...]:
    """Return the most the bot would pay for each car, holding ``hand``.

    A car is worth the mean prize plus ``STRENGTH_DOLLARS`` per point of movement the hand
    holds for it above the average, cut when the colour is not among its three strongest,
    times ``BID_MARGIN``. A hand bids on several cars in a row: worked out once per hand.
    """
    totals = colour_movement(hand, ten_to_buyer)
    average = COLOUR_MOVEMENT / players + (10 if ten_to_buyer else 0)
    mean_prize = sum(PRIZES) / len(PRIZES)
    best = sorted(totals, reverse=True)
    prices = []
    for car in range(6):
        strength = totals[car] - average
        estimate = mean_prize + STRENGTH_DOLLARS * strength
        if totals[car] < best[min(2, len(best) - 1)]:
            estimate *= 0.6
        prices.append(int(max(0.0, min(estimate, PRIZES[0])) * BID_MARGIN))
    return tuple(prices)


class DetroitClevelandHeuristic(Bot):
    """Bids what its hand makes a car worth; plays the card that helps its cars most."""

    def __init__(self) -> None:
        self.seat = 0
        self.players = 2
        self.options = DetroitClevelandOptions()
        self.track: Track | None = None
        self.scores: dict[tuple[tuple[int, ...], tuple[int, ...]], dict[Positions, float]] = {}
        """Scores already worked out, per cars' owners and finishing order: the bot scores
        the same positions again from one decision to the next (a card's cars, then their
        moves one by one)."""

    def start_match(self, game: str, seat: int, players: int, options: Options) -> None:
        """Remember the seat and compile the track once."""
        assert isinstance(options, DetroitClevelandOptions)
        self.seat = seat
        self.players = players
        self.options = options
        self.track = track_of(options)
        self.scores = {}

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Choose a legal action for the situation in ``observation``."""
        assert isinstance(observation, DetroitClevelandObservation)
        if self.track is None:
            self.track = track_of(self.options)
        if observation.phase == "auction":
            return self._bid(observation, legal)
        if isinstance(legal[0], Move):
            return self._move(observation, legal)
        return self._play(observation, legal)

    # Auction -----------------------------------------------------------------------------
    def worth(self, observation: DetroitClevelandObservation, car: int) -> int:
        """Return the most the bot would pay for ``car`` given its hand."""
        ten = not self.options.ten_counts_in_deck
        return worths(observation.hand, observation.players, ten)[car]

    def _bid(self, observation: DetroitClevelandObservation, legal: Sequence[Action]) -> Action:
        bids = [a for a in legal if isinstance(a, Bid)]
        if not bids:
            return legal[0]
        cheapest = min(bids, key=lambda b: b.amount)
        if cheapest.amount <= self.worth(observation, observation.offer):
            return cheapest
        return next(a for a in legal if isinstance(a, Pass))

    # Race --------------------------------------------------------------------------------
    def score(self, observation: DetroitClevelandObservation, positions: Positions) -> float:
        """Score a position for this seat: own progress minus rivals', and their freedom."""
        return self._scoring(observation)(positions)

    def _scoring(self, observation: DetroitClevelandObservation) -> Callable[[Positions], float]:
        """Return ``score`` for ``observation``'s cars, ready for many positions.

        A car's freedom is how far it could move in ``MOBILITY_LOOKAHEAD`` steps; with no
        car within that reach it is the full lookahead, found without a search, and the
        car's whole term is read from a table. The sum runs car by car in the same order
        every time, so equal positions score equal; equal positions are scored once.
        """
        track = self.track
        assert track is not None
        distances = track.distances
        length = track.length
        cones = within(track, MOBILITY_LOOKAHEAD)
        free_mine, free_rival = _free_terms(track)
        already = observation.finished
        owned = tuple(
            (car, seat == self.seat) for car, seat in enumerate(observation.owner) if seat >= 0
        )
        context = (observation.owner, already)
        known = self.scores.get(context)
        if known is None or len(known) > SCORES_KEPT:
            if len(self.scores) > 64:
                self.scores.clear()
            known = self.scores[context] = {}

        def score(positions: Positions) -> float:
            total = known.get(positions)
            if total is not None:
                return total
            finished: list[int] | None = None
            total = 0.0
            for car, mine in owned:
                space = positions[car]
                if space == FINISH:
                    # Cars that cross the line in the position take the next places.
                    if finished is None:
                        finished = list(already)
                    if car not in finished:
                        finished.append(car)
                    value = length + PLACE_BONUS * (6 - finished.index(car))
                    value += MOBILITY_WEIGHT * float(MOBILITY_LOOKAHEAD)
                    total += value if mine else -RIVAL_WEIGHT * value
                    continue
                cone = cones[space]
                if cone.isdisjoint(positions):
                    total += free_mine[space] if mine else free_rival[space]
                    continue
                near = cone.intersection(positions)
                value = distances[space]
                steps = reach_past(track, space, MOBILITY_LOOKAHEAD, near)[1]
                value += MOBILITY_WEIGHT * float(steps)
                total += value if mine else -RIVAL_WEIGHT * value
            known[positions] = total
            return total

        return score

    def _card_play(self, observation: DetroitClevelandObservation, card: int) -> CardPlay:
        assert self.track is not None
        switches = observation.switches
        mapping = colours_in_force(switches) if switches else IDENTITY
        if not self.options.white_own_car:
            # Whose cars are whose matters only to the optional rule on white.
            return card_play_for(self.track, card, mapping, NO_ONE, False)
        own = own_cars(observation.owner, self.seat)
        return card_play_for(self.track, card, mapping, own, True)

    @staticmethod
    def _greedy(
        score: Callable[[Positions], float],
        positions: Positions,
        now: float,
        play: CardPlay,
        chosen: dict[tuple[Positions, tuple[Option, ...]], tuple[Positions, float]],
    ) -> float:
        """Play a card out greedily, car by car, and return the final score.

        ``now`` is the score of ``positions``. Each car goes where the score is best (the
        first such destination on a tie). ``chosen`` keeps the choices made from the same
        positions among the same destinations, which cards sharing a car and count repeat.
        """
        best_score: float | None = now
        for slot in range(len(play.cars)):
            options = tuple(play.options(positions, slot))
            if not options:
                continue
            if len(options) == 1:
                # No choice to make: the score is needed only once the card is played out.
                car, dest, _ = options[0]
                after = list(positions)
                after[car] = dest
                positions = tuple(after)
                best_score = None
                continue
            key = (positions, options)
            known = chosen.get(key)
            if known is not None:
                positions, best_score = known
                continue
            best: Positions | None = None
            top = 0.0
            for car, dest, _ in options:
                after = list(positions)
                after[car] = dest
                candidate = tuple(after)
                value = score(candidate)
                if best is None or value > top:
                    best, top = candidate, value
            assert best is not None
            positions, best_score = best, top
            chosen[key] = (positions, top)
        return score(positions) if best_score is None else best_score

    def _play(self, observation: DetroitClevelandObservation, legal: Sequence[Action]) -> Action:
        score = self._scoring(observation)
        positions = observation.positions
        now = score(positions)
        best: Action = legal[0]
        best_gain = float("-inf")
        chosen: dict[tuple[Positions, tuple[Option, ...]], tuple[Positions, float]] = {}
        for action in legal:
            if isinstance(action, Decline):
                gain = 0.0
            elif isinstance(action, Play) and action.card in MOVES:
                play = self._card_play(observation, action.card)
                gain = self._greedy(score, positions, now, play, chosen) - now
            else:
                gain = -0.5  # a switch card: kept for when every movement card hurts
            if gain > best_gain:
                best, best_gain = action, gain
        return best

    def _move(self, observation: DetroitClevelandObservation, legal: Sequence[Action]) -> Action:
        track = self.track
        assert track is not None
        score = self._scoring(observation)
        positions = observation.positions
        best: Action = legal[0]
        best_score = float("-inf")
        for i, action in enumerate(legal):
            assert isinstance(action, Move)
            value = score(moved(positions, action.car, track.space_index(action.to)))
            if i == 0 or value > best_score:
                best, best_score = action, value
        return best
