"""Famous 500 in numbers.

A card is known by its place among the race's speeds (``setup.speeds``, slowest first;
``S`` of them, 9 in the standard cards). With ``D`` the track's difficulty:

| indexes | action |
| --- | --- |
| 0 | ``KeepCards`` |
| 1 | ``FalseStart`` |
| 2 to 2+S-1 | ``Race`` with the card of that speed |
| 2+S to 2+2S-1 | ``PitStop`` laying that card |
| 2+2S to 2+3S-1 | ``ReturnCard`` |
| 2+3S to 4+3S | ``Repair`` tires, fuel, engine |
| 5+3S | ``LeavePit`` |
| 6+3S to 6+4S-1 | ``Discard`` |
| 6+4S to 6+4S+D | ``Design``, first stage: the tires (0 to D) |

A design (1,330 of them at difficulty 18) takes three stages: the tires (index
``6+4S+tires``), then the fuel (index = fuel), then the engine (index = engine); the
speed is what is left of the difficulty. The action space is ``Discrete(7+4S+D)``.
"""

from __future__ import annotations

from typing import get_args

from racedeck.core.game import AnyGame
from racedeck.core.model import Action, Observation, Options
from racedeck.games.famous500.actions import (
    Design,
    Discard,
    FalseStart,
    KeepCards,
    LeavePit,
    PitStop,
    Race,
    Repair,
    ReturnCard,
)
from racedeck.games.famous500.state import Famous500Observation, Phase
from racedeck.rl.encoding import Encoder, EncodingError, Features

PHASES: tuple[str, ...] = get_args(Phase)
"""Every phase, in the order the state's ``Phase`` lists them: a phase's feature index."""


class Famous500Encoder(Encoder):
    """Famous 500's observations and actions (see the module's docstring)."""

    name = "famous-500"

    def __init__(self, game: AnyGame, options: Options, players: int) -> None:
        super().__init__(game, options, players)
        first = game.observe(game.initial_state(options, players), 0)
        assert isinstance(first, Famous500Observation)
        setup = first.setup
        self.speeds = setup.speeds
        self.place = {speed: k for k, speed in enumerate(setup.speeds)}
        s = self.kinds = len(setup.speeds)
        self.difficulty = setup.difficulty
        self.sections = len(setup.kinds)
        self.race, self.pit, self.back = 2, 2 + s, 2 + 2 * s
        self.repair, self.leave, self.discard = 2 + 3 * s, 5 + 3 * s, 6 + 3 * s
        self.design = 6 + 4 * s
        self.actions = self.design + self.difficulty + 1
        self.stages = 3
        self.size = len(PHASES) + 3 + 8 + s + s + 2 + 2 * s + 2 + 9 + 2 + 3 * s + 1 + s + 3 + 6

    def _card(self, card: int) -> int:
        try:
            return self.place[card]
        except KeyError:
            raise EncodingError(f"{card} is not one of the race's speeds {self.speeds}") from None

    def path(self, action: Action) -> tuple[int, ...]:
        """Return the index path of ``action`` (see the module's docstring)."""
        match action:
            case KeepCards():
                return (0,)
            case FalseStart():
                return (1,)
            case Race(card=card):
                return (self.race + self._card(card),)
            case PitStop(card=card):
                return (self.pit + self._card(card),)
            case ReturnCard(card=card):
                return (self.back + self._card(card),)
            case Repair(column=column) if 0 <= column < 3:
                return (self.repair + column,)
            case LeavePit():
                return (self.leave,)
            case Discard(card=card):
                return (self.discard + self._card(card),)
            case Design(tires=tires, fuel=fuel, engine=engine):
                return (self.design + tires, fuel, engine)
        raise EncodingError(f"not a Famous 500 action this encoder knows: {action!r}")

    def features(self, observation: Observation, out: Features) -> None:
        """Append the phase, the section ahead, the hand, both car sheets and the record."""
        assert isinstance(observation, Famous500Observation)
        o = observation
        me, other = o.seat, 1 - o.seat
        s, d = self.kinds, max(1, self.difficulty)
        place = self.place
        setup = o.setup
        out.one_hot(PHASES.index(o.phase), len(PHASES))
        out.add(o.deals / 5)
        out.add(o.lap / max(1, setup.laps))
        out.add(o.section / max(1, self.sections))
        for ahead in (0, 1):
            section = (o.section + ahead) % self.sections
            out.one_hot(setup.kinds[section], 3)
            out.add(float(setup.pits[section]))
        out.counts([place.get(c, -1) for c in o.hand], s, 1 / 3)
        out.one_hot(place.get(o.laid, -1), s)
        out.add(float(o.pitting))
        out.add(float(o.opponent_laid))
        for seat in (me, other):
            card = o.revealed[seat] if seat < len(o.revealed) else 0
            out.one_hot(place.get(card, -1), s)
        out.add(float(o.pits[me]))
        out.add(float(o.pits[other]))
        for seat in (me, other):
            car = o.cars[seat] if seat < len(o.cars) else None
            if car is None:
                out.extend((0.0, 0.0, 0.0, 0.0))
            else:
                out.extend(value / d for value in car)
        out.add(float(o.cars[other] is not None))
        out.add(o.hand_sizes[me] / 10)
        out.add(o.hand_sizes[other] / 10)
        out.counts([place.get(c, -1) for c in o.pit_deck_known if c], s, 1 / 3)
        out.counts([place.get(c, -1) for c in o.opponent_known], s, 1 / 3)
        out.counts([place.get(c, -1) for c in o.opponent_maybe], s, 1 / 3)
        out.add(len(o.pit_deck_known) / 30)
        out.counts([place.get(card, -1) for _, card in o.discards], s, 1 / 3)
        mine = sum(played.points[me] for played in o.history)
        theirs = sum(played.points[other] for played in o.history)
        out.extend((mine / 60, theirs / 60, (mine - theirs) / 30))
        out.extend(
            (
                float(o.trailing == me),
                float(o.trailing == other),
                float(o.winner == me),
                float(o.winner == other),
                o.points[me] / 5,
                o.points[other] / 5,
            )
        )
