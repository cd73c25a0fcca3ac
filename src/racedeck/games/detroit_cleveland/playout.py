"""Detroit-Cleveland's light bot: the heuristic's bids, and a race played off the cards' faces.

Made for a search's playouts, where the heuristic's card choice (every card tried out car
by car on the track, each position scored for mobility) is most of the time a playout
takes. This bot bids as the heuristic does (its worths are a table per hand) and races
without looking at the board beyond who owns which car: a card is worth the spaces it
shows for the bot's own cars, less ``RIVAL_WEIGHT`` of those for rivals' cars, the white
car counted at ``WHITE_SHARE`` for the bot's best use of it; a car it moves goes as far as
it can when it is the bot's, as short as it can when it is a rival's.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng
from racedeck.games.detroit_cleveland.actions import Move, Play
from racedeck.games.detroit_cleveland.bots import RIVAL_WEIGHT, DetroitClevelandHeuristic
from racedeck.games.detroit_cleveland.data import MOVES, WHITE, WHITE_SHARE
from racedeck.games.detroit_cleveland.options import track_of
from racedeck.games.detroit_cleveland.state import DetroitClevelandObservation
from racedeck.games.detroit_cleveland.switch_cards import IDENTITY, colours_in_force
from racedeck.games.detroit_cleveland.track import FINISH_ID, Track

SWITCH_VALUE = -0.5
"""A switch card's worth: played only when every movement card would help rivals more."""


@functools.lru_cache(maxsize=1 << 14)
def card_value(card: int, mapping: tuple[int, ...], stakes: tuple[float, ...]) -> float:
    """Return what ``card`` is worth to a seat whose stake in each car is ``stakes``.

    ``stakes[car]`` is 1 for the seat's own racing car, ``-RIVAL_WEIGHT`` for a rival's, 0
    for an unowned or finished one; ``mapping`` says which car each printed colour moves
    (the switches in force). The white car takes the best stake among the cars the card
    leaves free, at ``WHITE_SHARE``. A pure function of its arguments, shared by every bot.
    """
    moves = MOVES.get(card)
    if moves is None:
        return SWITCH_VALUE
    value = 0.0
    white = 0
    printed = set()
    for colour, count in moves:
        if colour == WHITE:
            white += count
            continue
        car = mapping[colour]
        printed.add(car)
        value += count * stakes[car]
    if white:
        free = [stakes[car] for car in range(6) if car not in printed]
        value += white * WHITE_SHARE * max(free, default=0.0)
    return value


class DetroitClevelandLight(DetroitClevelandHeuristic):
    """Bids as the heuristic; plays the card that shows most for its cars, off its face."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Choose a legal action for the situation in ``observation``."""
        assert isinstance(observation, DetroitClevelandObservation)
        if observation.phase == "auction":
            return self._bid(observation, legal)
        if self.track is None:
            self.track = track_of(self.options)
        stakes = self._stakes(observation)
        first = legal[0]
        if isinstance(first, Move):
            return self._destination(observation, legal, stakes)
        switches = observation.switches
        mapping = colours_in_force(switches) if switches else IDENTITY
        best, top = first, float("-inf")
        for action in legal:
            value = card_value(action.card, mapping, stakes) if isinstance(action, Play) else 0.0
            if value > top:
                best, top = action, value
        return best

    def _stakes(self, observation: DetroitClevelandObservation) -> tuple[float, ...]:
        """Return the seat's stake in each car: its own 1, a rival's ``-RIVAL_WEIGHT``."""
        positions, seat = observation.positions, self.seat
        return tuple(
            0.0 if holder < 0 or positions[car] == -2 else 1.0 if holder == seat else -RIVAL_WEIGHT
            for car, holder in enumerate(observation.owner)
        )

    def _destination(
        self,
        observation: DetroitClevelandObservation,
        legal: Sequence[Action],
        stakes: tuple[float, ...],
    ) -> Action:
        """Return the move that adds most to the stakes: own cars far, rivals' short."""
        track = self.track
        assert track is not None
        distances, index = track.distances, track.index
        line = _beyond_the_line(track)
        best, top = legal[0], float("-inf")
        for action in legal:
            assert isinstance(action, Move)
            where = line if action.to == FINISH_ID else distances[index[action.to]]
            value = stakes[action.car] * where
            if value > top:
                best, top = action, value
        return best


@functools.lru_cache(maxsize=16)
def _beyond_the_line(track: Track) -> float:
    """Return a distance past every space of ``track``: where a car across the line counts."""
    return max(track.distances) + 1.0
