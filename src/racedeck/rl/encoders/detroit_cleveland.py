"""Detroit-Cleveland in numbers.

``N`` is 256 (or the track's spaces plus one, if more). Cards are known by number.

| first index | action | second index |
| --- | --- | --- |
| 0-63 | ``Play`` the card of that number | none |
| 64 | ``Pass`` | none |
| 65 | ``Decline`` | none |
| 66-71 | ``Move`` car 0-5 | the destination: its space index, ``spaces`` for the finish |
| 72 to N-1 | ``Bid``: ``72 + steps // N`` | ``steps % N`` |

A bid of ``amount`` dollars is ``steps = amount // 10,000`` bid steps, so any bid up to
$2,550,000 starts with index 72 and the second index is its number of steps. Moves and
bids take two stages; everything else one. The action space is ``Discrete(N)``.
"""

from __future__ import annotations

from racedeck.core.game import AnyGame
from racedeck.core.model import Action, Observation, Options
from racedeck.games.detroit_cleveland.actions import Bid, Decline, Move, Pass, Play
from racedeck.games.detroit_cleveland.data import BID_STEP, STARTING_MONEY
from racedeck.games.detroit_cleveland.options import track_of
from racedeck.games.detroit_cleveland.state import DetroitClevelandObservation
from racedeck.rl.encoding import Encoder, EncodingError, Features

PHASES = ("deal", "auction", "race", "over")
CARDS = 64
CARS = 6
PASS, DECLINE, MOVE, BID = 64, 65, 66, 72


class DetroitClevelandEncoder(Encoder):
    """Detroit-Cleveland's observations and actions (see the module's docstring)."""

    name = "detroit-cleveland"

    def __init__(self, game: AnyGame, options: Options, players: int) -> None:
        super().__init__(game, options, players)
        self.track = track_of(options)  # type: ignore[arg-type]
        self.spaces = len(self.track.ids)
        self.actions = max(256, self.spaces + 1)
        self.stages = 2
        self.money = STARTING_MONEY * 5
        per_car = (players + 1) + 6
        per_seat = 5
        self.size = len(PHASES) + 6 + players * (per_seat + 1) + CARS * per_car + 3 * CARDS + 1

    def path(self, action: Action) -> tuple[int, ...]:
        """Return the index path of ``action`` (see the module's docstring)."""
        match action:
            case Play(card=card) if 0 <= card < CARDS:
                return (card,)
            case Pass():
                return (PASS,)
            case Decline():
                return (DECLINE,)
            case Move(car=car, to=to) if 0 <= car < CARS:
                space = self.track.space_index(to)
                return (MOVE + car, space if space >= 0 else self.spaces)
            case Bid(amount=amount):
                steps = amount // BID_STEP
                high, low = divmod(steps, self.actions)
                if BID + high < self.actions:
                    return (BID + high, low)
        raise EncodingError(f"not a Detroit-Cleveland action this encoder knows: {action!r}")

    def features(self, observation: Observation, out: Features) -> None:
        """Append the phase, the auction, every seat's money, every car and the cards."""
        assert isinstance(observation, DetroitClevelandObservation)
        o = observation
        players = self.players
        me = o.seat

        def rel(seat: int) -> int:
            return (seat - me) % players if seat >= 0 else players

        out.one_hot(PHASES.index(o.phase), len(PHASES))
        out.add(o.race / max(1, o.races))
        out.add(o.high_bid / self.money)
        out.add(o.cars_left / CARS)
        out.add(o.turn / 100)
        out.add(o.passes / players)
        out.add(o.slot / 4)
        for k in range(players):
            seat = (me + k) % players
            out.extend(
                (
                    o.money[seat] / self.money,
                    o.hand_sizes[seat] / 15 if seat < len(o.hand_sizes) else 0.0,
                    float(seat < len(o.passed) and o.passed[seat]),
                    float(o.bidder == seat),
                    float(o.to_act == seat),
                )
            )
        swapped = {car for switch in o.switches for car in (switch.a, switch.b)}
        finished = {car: place for place, car in enumerate(o.finished)}
        started = {car: place for place, car in enumerate(o.start_order)}
        for car in range(CARS):
            out.one_hot(rel(o.owner[car]), players + 1)
            position = o.positions[car]
            out.extend(
                (
                    position / max(1, self.spaces) if position >= 0 else 0.0,
                    float(position == -2),
                    (finished[car] + 1) / CARS if car in finished else 0.0,
                    (started[car] + 1) / CARS if car in started else 0.0,
                    float(o.offer == car),
                    float(car in swapped),
                )
            )
        out.counts(o.hand, CARDS, 0.5)
        out.counts(o.played, CARDS, 0.5)
        out.one_hot(o.card, CARDS)
        out.one_hot(rel(o.high_bidder) if o.high_bidder >= 0 else -1, players)
        out.add(float(o.to_act == me))
