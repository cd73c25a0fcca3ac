"""LACORSA in numbers.

Actions (53 indexes, one stage): a card is known by its rank (cards of one rank are
interchangeable, and the game lists one of each).

| indexes | action |
| --- | --- |
| 0-12 | ``Play`` one card of rank 0-12 (12: the Redline alone) |
| 13-24 | ``Play`` the Redline with a card of rank 0-11 |
| 25-27 | ``Extend`` with a card of rank 0-2 |
| 28-40 | ``Discard`` one card of rank 0-12 |
| 41-52 | ``Discard`` the Redline with a card of rank 0-11 |

The car is always the observation's ``deciding_car``. The observation lists the cars from
the seat's own first car on (cars of seat ``s+1`` next, and so on), so a policy reads the
same numbers from every seat.
"""

from __future__ import annotations

from typing import TypeVar

from racedeck.core.game import AnyGame
from racedeck.core.model import Action, Observation, Options
from racedeck.games.lacorsa.actions import Discard, Extend, Play
from racedeck.games.lacorsa.data import POINTS, REDLINE, play_total
from racedeck.games.lacorsa.state import LacorsaObservation
from racedeck.rl.encoding import Encoder, EncodingError, Features

PHASES = ("deal", "qualify", "grid", "challenge", "reveal", "move", "score", "over")
RANKS = 13
PLAY, PLAY_REDLINE, EXTEND, DISCARD, DISCARD_REDLINE, ACTIONS = 0, 13, 25, 28, 41, 53
PER_CAR = 12
T = TypeVar("T")


class LacorsaEncoder(Encoder):
    """LACORSA's observations and actions (see the module's docstring)."""

    name = "lacorsa"

    def __init__(self, game: AnyGame, options: Options, players: int) -> None:
        super().__init__(game, options, players)
        first = game.observe(game.initial_state(options, players), 0)
        assert isinstance(first, LacorsaObservation)
        owner = first.owner
        self.cars = len(owner)
        # Per seat, the cars in the order that seat reads them: its own first.
        self.order = [
            sorted(range(self.cars), key=lambda car: ((owner[car] - seat) % players, car))
            for seat in range(players)
        ]
        self.actions = ACTIONS
        self.size = len(PHASES) + 4 + RANKS + RANKS + self.cars * (RANKS + PER_CAR)
        self.most_points = max(1, POINTS[0] * first.races)

    def path(self, action: Action) -> tuple[int, ...]:
        """Return the one index of ``action`` (see the module's docstring)."""
        if isinstance(action, Extend):
            return (EXTEND + (action.card >> 3),)
        if isinstance(action, Play | Discard):
            ranks = sorted(card >> 3 for card in action.cards)
            single, pair = (
                (PLAY, PLAY_REDLINE)
                if isinstance(action, Play)
                else (
                    DISCARD,
                    DISCARD_REDLINE,
                )
            )
            if len(ranks) == 1:
                return (single + ranks[0],)
            if len(ranks) == 2 and ranks[1] == REDLINE and ranks[0] != REDLINE:
                return (pair + ranks[0],)
        raise EncodingError(f"not a LACORSA action this encoder knows: {action!r}")

    def features(self, observation: Observation, out: Features) -> None:
        """Append the phase, the hand deciding, the cards played and every car's facts."""
        assert isinstance(observation, LacorsaObservation)
        o = observation
        out.one_hot(PHASES.index(o.phase), len(PHASES))
        out.add(o.race / max(1, o.races))
        out.add(o.lap / 10)
        out.add(o.passes / self.cars)
        out.add(len(o.played) / 40)
        order = self.order[o.seat]
        deciding = o.deciding_car if o.deciding_car >= 0 else order[0]
        out.counts([c >> 3 for c in _at(o.hands, deciding, None) or ()], RANKS, 0.25)
        out.counts([c >> 3 for c in o.played], RANKS, 1 / 6)
        ranking = {car: place for place, car in enumerate(o.order)}
        length = o.board_length or 40
        for car in order:
            out.counts([c >> 3 for c in _at(o.hands, car, None) or ()], RANKS, 0.25)
            own = _at(o.own_committed, car, None)
            out.extend(
                (
                    float(o.owner[car] == o.seat),
                    _at(o.hand_sizes, car, 0) / 13,
                    float(_at(o.committed, car, False)),
                    play_total(own) / 20 if own else 0.0,
                    _at(o.spaces, car, 0) / length,
                    (ranking[car] + 1) / self.cars if car in ranking else 0.0,
                    _at(o.points, car, 0) / self.most_points,
                    _at(o.qualifying_totals, car, 0) / 20,
                    float(car == o.deciding_car),
                    float(car == o.active_car),
                    float(car == o.attacker),
                    float(car == o.defender),
                )
            )


def _at(values: tuple[T, ...], index: int, default: T) -> T:
    """Return ``values[index]``, or ``default`` where the tuple is not that long yet."""
    return values[index] if 0 <= index < len(values) else default
