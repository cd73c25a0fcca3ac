"""Wacky Races in numbers.

Movement cards are terrains 0-3; a step's cards are known as a multiset, listed by
size and then in order: the 4 single cards, the 10 pairs, the 20 triples (34 in all).

| indexes | action |
| --- | --- |
| 0-9 | ``ChooseRacer`` 0-9 |
| 10-43 | ``PlayStep`` with that multiset of cards |
| 44-135 | ``UseAdvantage``: ``44 + advantage * 23 + (target + 1)``, target -1 to 21 |
| 136 | ``EndTurn`` |

Every action is one index; the action space is ``Discrete(137)``. The observation
lists the seats from the observing seat on, and the cars of the race in car order.
"""

from __future__ import annotations

import itertools

from racedeck.core.game import AnyGame
from racedeck.core.model import Action, Observation, Options
from racedeck.games.wacky_races.actions import ChooseRacer, EndTurn, PlayStep, UseAdvantage
from racedeck.games.wacky_races.data import FIELD_SIZE, POSITIONS, RACER_KEYS, TERRAINS, TRAP_KEYS
from racedeck.games.wacky_races.state import WackyObservation
from racedeck.rl.encoding import Encoder, EncodingError, Features

PHASES = ("choose", "setup", "turn", "after_turn", "race_end", "over")
TILES = 11
RACERS = len(RACER_KEYS)
STEP_CARDS: tuple[tuple[int, ...], ...] = tuple(
    combo
    for size in (1, 2, 3)
    for combo in itertools.combinations_with_replacement(range(len(TERRAINS)), size)
)
STEP_INDEX = {combo: i for i, combo in enumerate(STEP_CARDS)}
TARGETS = max(POSITIONS, FIELD_SIZE) + 1
CHOOSE, STEP = 0, RACERS
ADVANTAGE = STEP + len(STEP_CARDS)
END = ADVANTAGE + 4 * TARGETS


class WackyRacesEncoder(Encoder):
    """Wacky Races' observations and actions (see the module's docstring)."""

    name = "wacky-races"

    def __init__(self, game: AnyGame, options: Options, players: int) -> None:
        super().__init__(game, options, players)
        self.actions = END + 1
        terrains = len(TERRAINS)
        self.size = (
            len(PHASES)
            + 7
            + RACERS
            + FIELD_SIZE * (3 + RACERS)
            + POSITIONS * (TILES + 1)
            + terrains * 3
            + 1
            + len(TRAP_KEYS)
            + 2
            + 4
            + players * 2
        )

    def path(self, action: Action) -> tuple[int, ...]:
        """Return the one index of ``action`` (see the module's docstring)."""
        match action:
            case ChooseRacer(racer=racer) if 0 <= racer < RACERS:
                return (CHOOSE + racer,)
            case PlayStep(cards=cards) if tuple(sorted(cards)) in STEP_INDEX:
                return (STEP + STEP_INDEX[tuple(sorted(cards))],)
            case UseAdvantage(advantage=advantage, target=target) if (
                0 <= advantage < 4 and -1 <= target < TARGETS - 1
            ):
                return (ADVANTAGE + advantage * TARGETS + target + 1,)
            case EndTurn():
                return (END,)
        raise EncodingError(f"not a Wacky Races action this encoder knows: {action!r}")

    def features(self, observation: Observation, out: Features) -> None:
        """Append the phase, the seat's racer and hand, every car, the circuit and the decks."""
        assert isinstance(observation, WackyObservation)
        o = observation
        players, me = self.players, o.seat
        terrains = len(TERRAINS)
        out.one_hot(PHASES.index(o.phase), len(PHASES))
        out.extend(
            (
                o.race / max(1, o.races),
                o.round / 30,
                o.steps / 3,
                float(o.wild),
                float(o.gas_done),
                float(o.active == me),
                o.dastardly / POSITIONS if o.dastardly >= 0 else 0.0,
            )
        )
        out.one_hot(o.racer_of_seat[me] if me < len(o.racer_of_seat) else -1, RACERS)
        finished = set(o.finished)
        for car in range(FIELD_SIZE):
            if car < len(o.pos):
                out.extend(
                    (
                        (o.pos[car] + 1) / POSITIONS,
                        float(car == me),
                        float(car < len(o.glued) and o.glued[car]) + 0.5 * float(car in finished),
                    )
                )
            else:
                out.extend((0.0, 0.0, 0.0))
            out.one_hot(o.field[car] if car < len(o.field) else -1, RACERS)
        for position in range(POSITIONS):
            out.one_hot(o.tiles[position] if position < len(o.tiles) else -1, TILES)
            out.add(float(position < len(o.traps) and o.traps[position]))
        out.counts(o.hand, terrains, 1 / 3)
        out.extend(count / 20 for count in o.discard[:terrains])
        out.extend([0.0] * (terrains - len(o.discard[:terrains])))
        out.one_hot(o.top, terrains)
        out.add(o.draw_size / 40)
        out.extend(count / 4 for count in o.trap_discard[: len(TRAP_KEYS)])
        out.extend([0.0] * (len(TRAP_KEYS) - len(o.trap_discard[: len(TRAP_KEYS)])))
        out.add(o.trap_deck_size / 20)
        out.add(len(o.finished) / FIELD_SIZE)
        mask = o.exhausted[me] if me < len(o.exhausted) else 0
        out.extend(float(mask >> bit & 1) for bit in range(4))
        for k in range(players):
            seat = (me + k) % players
            out.add(o.hand_sizes[seat] / 5 if seat < len(o.hand_sizes) else 0.0)
            out.add(o.points[seat] / 30 if seat < len(o.points) else 0.0)
